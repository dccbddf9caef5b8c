#include "text/query_intent.h"

#include <string>
#include <vector>

namespace engram::text {
namespace {

// Lowercase ASCII words of `s` (any other byte separates words).
std::vector<std::string> AsciiWords(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '\'') {
      cur.push_back(c);
    } else if (u >= 'A' && u <= 'Z') {
      cur.push_back(static_cast<char>(u - 'A' + 'a'));
    } else if (!cur.empty()) {
      words.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

}  // namespace

bool AsksAboutTheUsual(std::string_view question) {
  static constexpr std::string_view kChinese[] = {"平时", "平常", "一般", "通常", "往常"};
  for (std::string_view marker : kChinese) {
    if (question.find(marker) != std::string_view::npos) return true;
  }
  static constexpr std::string_view kWords[] = {"usually", "normally", "typically", "generally"};
  const std::vector<std::string> words = AsciiWords(question);
  for (size_t i = 0; i < words.size(); ++i) {
    for (std::string_view w : kWords) {
      if (words[i] == w) return true;
    }
    if (i + 1 < words.size() && words[i] == "most" && words[i + 1] == "days") return true;
  }
  return false;
}

bool AsksAboutHistory(std::string_view question) {
  static constexpr std::string_view kChinese[] = {"之前", "以前", "从前", "原来", "原先", "过去", "曾经", "以往"};
  for (std::string_view marker : kChinese) {
    if (question.find(marker) != std::string_view::npos) return true;
  }
  static constexpr std::string_view kWords[] = {"before", "previously", "formerly", "originally", "anymore"};
  static constexpr std::pair<std::string_view, std::string_view> kPairs[] = {
      {"used", "to"}, {"at", "first"}, {"no", "longer"}, {"any", "more"}};
  const std::vector<std::string> words = AsciiWords(question);
  for (size_t i = 0; i < words.size(); ++i) {
    for (std::string_view w : kWords) {
      if (words[i] == w) return true;
    }
    if (i + 1 < words.size()) {
      for (const auto& [a, b] : kPairs) {
        if (words[i] == a && words[i + 1] == b) return true;
      }
      if (i + 2 < words.size() && words[i] == "in" && words[i + 1] == "the" && words[i + 2] == "past") return true;
    }
  }
  return false;
}

bool AsksAboutPresentState(std::string_view question) {
  if (AsksAboutHistory(question)) return false;
  static constexpr std::string_view kChinesePast[] = {"了", "过", "曾", "那次", "那天", "时候", "上次", "当时"};
  bool han = false;
  for (unsigned char c : question) han |= c >= 0xE4 && c <= 0xE9;
  if (han) {
    for (std::string_view marker : kChinesePast) {
      if (question.find(marker) != std::string_view::npos) return false;
    }
  }
  static constexpr std::string_view kPast[] = {"did", "didn't", "was", "wasn't", "were", "weren't", "had", "ago",
                                               "when", "last", "yesterday", "first", "ever"};
  static constexpr std::string_view kPresent[] = {"do",  "does",    "don't",     "am",      "is",     "isn't",
                                                  "are", "what's",  "where's",   "who's",   "which's", "how's",
                                                  "now", "currently", "these",   "still",   "today",  "we're",
                                                  "i'm", "they're", "it's",     "right"};
  bool present = false;
  for (const std::string& w : AsciiWords(question)) {
    for (std::string_view past : kPast) {
      if (w == past) return false;
    }
    for (std::string_view now : kPresent) present |= w == now;
  }
  return present || han;
}

}  // namespace engram::text
