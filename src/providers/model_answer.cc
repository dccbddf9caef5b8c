#include "providers/model_answer.h"

#include <exception>
#include <string>
#include <vector>

namespace engram::providers {
namespace {

using nlohmann::json;

// The bodies of ``` fenced blocks (the info string after the opening fence is skipped).
std::vector<std::string_view> FencedBlocks(std::string_view text) {
  std::vector<std::string_view> blocks;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("```", pos);
    if (open == std::string_view::npos) break;
    size_t body = text.find('\n', open + 3);
    if (body == std::string_view::npos) break;
    size_t close = text.find("```", body + 1);
    if (close == std::string_view::npos) {
      blocks.push_back(text.substr(body + 1));  // an unclosed fence: take the rest
      break;
    }
    blocks.push_back(text.substr(body + 1, close - body - 1));
    pos = close + 3;
  }
  return blocks;
}

// End (exclusive) of the balanced JSON value starting at text[start] ('{' or '['), respecting
// strings and escapes; npos when it never closes.
size_t BalancedEnd(std::string_view text, size_t start) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// Removes commas that directly precede '}' or ']' outside strings (a common model slip).
std::string StripTrailingCommas(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ',') {
      size_t next = text.find_first_not_of(" \t\r\n", i + 1);
      if (next != std::string_view::npos && (text[next] == '}' || text[next] == ']')) continue;
    }
    out += c;
  }
  return out;
}

std::optional<json> TryParse(std::string_view text, bool whole, const JsonAcceptor& accept) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) doc = json::parse(StripTrailingCommas(text), nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  return accept(doc, whole);
}

std::optional<json> FindIn(std::string_view text, const JsonAcceptor& accept) {
  text = TrimAscii(text);
  if (auto found = TryParse(text, /*whole=*/true, accept)) return found;
  int tried = 0;
  for (size_t i = 0; i < text.size() && tried < kMaxJsonStarts; ++i) {
    if (text[i] != '{' && text[i] != '[') continue;
    ++tried;
    size_t end = BalancedEnd(text, i);
    if (end == std::string_view::npos) continue;
    if (auto found = TryParse(text.substr(i, end - i), /*whole=*/false, accept)) return found;
  }
  return std::nullopt;
}

// Why `text` holds no accepted JSON: the parser's message for the text from its first '{' or '['.
std::string DescribeParseError(std::string_view text, std::string_view expected) {
  text = TrimAscii(text);
  if (text.empty()) return "the answer is empty";
  size_t start = text.find_first_of("{[");
  if (start == std::string_view::npos) return "the answer contains no JSON object";
  try {
    json doc = json::parse(text.substr(start));
    return "no " + std::string(expected) + " object found in the answer";
  } catch (const json::exception& e) {
    return e.what();
  }
}

}  // namespace

std::string_view TrimAscii(std::string_view s) {
  const char* kSpace = " \t\r\n\f\v";
  size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(kSpace);
  return s.substr(b, e - b + 1);
}

Result<json> FindJsonAnswer(std::string_view answer, const JsonAcceptor& accept, std::string_view expected) {
  try {
    for (std::string_view block : FencedBlocks(answer)) {
      if (auto found = FindIn(block, accept)) return *found;
    }
    if (auto found = FindIn(answer, accept)) return *found;
    return Error(Status::InvalidArgument(DescribeParseError(answer, expected)));
  } catch (const std::exception& e) {
    return Error(Status::InvalidArgument(std::string("cannot parse the answer: ") + e.what()));
  }
}

}  // namespace engram::providers
