#include "write/extraction/statement_topics.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "text/person_topic.h"
#include "write/extraction/lexicon.h"

namespace engram::extraction {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The ASCII tokens of `text`: runs of letters, digits, '.', '\'' and '-', with a trailing '.'
// (the end of a sentence) cut. Any other byte (space, punctuation, CJK) separates tokens.
std::vector<std::string_view> AsciiTokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const bool part = i < text.size() && (IsAsciiLetter(text[i]) || IsDigit(text[i]) || text[i] == '.' ||
                                          text[i] == '\'' || text[i] == '-');
    if (part) continue;
    std::string_view token = text.substr(start, i - start);
    while (!token.empty() && token.back() == '.') token.remove_suffix(1);
    if (!token.empty()) tokens.push_back(token);
    start = i + 1;
  }
  return tokens;
}

// "3.12", "v1.1", "v3": digits in dot-separated groups (two or more, or one after "v").
bool IsVersionToken(std::string_view token) {
  const bool v = !token.empty() && (token[0] == 'v' || token[0] == 'V');
  if (v) token.remove_prefix(1);
  if (token.empty() || !IsDigit(token.front()) || !IsDigit(token.back())) return false;
  size_t groups = 1;
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '.') {
      if (!IsDigit(token[i + 1])) return false;  // never the last byte: that is a digit
      ++groups;
    } else if (!IsDigit(token[i])) {
      return false;
    }
  }
  return v || groups >= 2;
}

// A name a version number follows: a word with a capital letter, two letters or more, that is no
// month, weekday or "I…" ("I'm 34").
bool IsProductName(std::string_view word) {
  if (word.size() < 2 || !IsAsciiLetter(word[0]) || word.starts_with("I'")) return false;
  if (!std::any_of(word.begin(), word.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) return false;
  static constexpr std::array<std::string_view, 39> kCalendar = {
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
      "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
      "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon",
      "tue", "tues", "wed", "thu", "fri", "sat", "sun"};
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::find(kCalendar.begin(), kCalendar.end(), lower) == kCalendar.end();
}

bool IsShortNumber(std::string_view token) {
  return !token.empty() && token.size() <= 2 && std::all_of(token.begin(), token.end(), IsDigit);
}

}  // namespace

bool NamesAVersion(std::string_view text) {
  const std::vector<std::string_view> tokens = AsciiTokens(text);
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (IsVersionToken(tokens[i])) return true;
    if (i > 0 && IsShortNumber(tokens[i]) && IsProductName(tokens[i - 1])) return true;
  }
  return false;
}

std::vector<std::string> StatementTopics(std::string_view text) {
  const Lexicon& lex = Lexicon::Get();
  std::vector<std::string> topics = lex.Topics(text);
  if (NamesAVersion(text)) topics.emplace_back(kVersionTopic);
  for (const std::string& word : lex.RelationsIn(text)) topics.push_back(text::kPersonTopic + word);
  std::sort(topics.begin(), topics.end());
  topics.erase(std::unique(topics.begin(), topics.end()), topics.end());
  return topics;
}

}  // namespace engram::extraction
