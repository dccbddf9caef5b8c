#include "experience/write_signature.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace engram::experience {
namespace {

constexpr std::array<std::string_view, 15> kReadVerbs = {
    "get", "find", "list", "calculate", "think", "search", "lookup", "read",
    "fetch", "query", "show", "describe", "view", "count", "check"};

// The first word of a tool name, lower case: up to '_', '-', '.', ' ' or a lower-to-upper change.
std::string FirstWord(std::string_view name) {
  std::string word;
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '_' || c == '-' || c == '.' || c == ' ' || c == '/' || c == ':') {
      if (word.empty()) continue;
      break;
    }
    if (std::isupper(c) && !word.empty() && std::islower(static_cast<unsigned char>(name[i - 1]))) break;
    word.push_back(static_cast<char>(std::tolower(c)));
  }
  return word;
}

}  // namespace

bool IsReadToolName(std::string_view tool_name) {
  const std::string word = FirstWord(tool_name);
  return std::find(kReadVerbs.begin(), kReadVerbs.end(), word) != kReadVerbs.end();
}

std::string WriteSignatureType(std::vector<std::string> tools) {
  std::sort(tools.begin(), tools.end());
  tools.erase(std::unique(tools.begin(), tools.end()), tools.end());
  tools.erase(std::remove(tools.begin(), tools.end(), std::string()), tools.end());
  if (tools.empty()) return std::string(kReadOnlyType);
  std::string out;
  for (const std::string& t : tools) {
    if (!out.empty()) out += '+';
    out += t;
  }
  return out;
}

std::vector<std::string> TypeComponents(std::string_view task_type) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= task_type.size()) {
    size_t end = task_type.find('+', start);
    if (end == std::string_view::npos) end = task_type.size();
    if (end > start) out.emplace_back(task_type.substr(start, end - start));
    start = end + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double TypeJaccard(std::string_view a, std::string_view b) {
  if (a == b) return 1.0;
  std::vector<std::string> x = TypeComponents(a), y = TypeComponents(b);
  std::vector<std::string> both;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(both));
  const size_t either = x.size() + y.size() - both.size();
  return either == 0 ? 1.0 : static_cast<double>(both.size()) / static_cast<double>(either);
}

}  // namespace engram::experience
