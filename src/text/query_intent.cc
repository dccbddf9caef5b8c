#include "text/query_intent.h"

#include <algorithm>
#include <span>
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

// True when `words` (lower case) holds `phrase` (words separated by single spaces) at `at`.
bool PhraseAt(const std::vector<std::string>& words, size_t at, std::string_view phrase) {
  for (; at < words.size(); ++at) {
    const size_t space = phrase.find(' ');
    if (words[at] != phrase.substr(0, space)) return false;
    if (space == std::string_view::npos) return true;
    phrase.remove_prefix(space + 1);
  }
  return false;
}

// True when `question` holds one of `chinese` (substrings) or one of `phrases` (whole ASCII words,
// case-insensitive, "at the moment" as three consecutive words).
bool MentionsAny(std::string_view question, std::span<const std::string_view> chinese,
                 std::span<const std::string_view> phrases) {
  for (std::string_view marker : chinese) {
    if (question.find(marker) != std::string_view::npos) return true;
  }
  const std::vector<std::string> words = AsciiWords(question);
  for (size_t i = 0; i < words.size(); ++i) {
    for (std::string_view phrase : phrases) {
      if (PhraseAt(words, i, phrase)) return true;
    }
  }
  return false;
}

}  // namespace

bool AsksAboutTheUsual(std::string_view question) {
  static constexpr std::string_view kChinese[] = {"平时", "平常", "一般", "通常", "往常"};
  static constexpr std::string_view kPhrases[] = {"usually", "normally", "typically", "generally", "most days"};
  return MentionsAny(question, kChinese, kPhrases);
}

bool NamesThePresent(std::string_view question) {
  static constexpr std::string_view kChinese[] = {"眼下", "此刻",   "这会儿", "这几天", "这两天",  "这周",
                                                 "这个月", "这阵子", "最近",   "这段时间", "今天"};
  static constexpr std::string_view kPhrases[] = {"right now", "today",     "tonight",   "at the moment",
                                                  "these days", "lately", "this week", "this month", "at present"};
  return MentionsAny(question, kChinese, kPhrases);
}

bool AsksAboutHistory(std::string_view question) {
  static constexpr std::string_view kChinese[] = {"之前", "以前", "从前", "原来", "原先", "过去", "曾经", "以往"};
  static constexpr std::string_view kPhrases[] = {"before",  "previously", "formerly",  "originally", "anymore",
                                                  "used to", "at first",   "no longer", "any more",   "in the past"};
  return MentionsAny(question, kChinese, kPhrases);
}

// An English verb form of the past: in -ed (five letters or more) or a common irregular one.
static bool SaysThePast(const std::string& word) {
  static constexpr std::string_view kIrregular[] = {"went", "got",  "met",  "saw",  "took", "made", "came",
                                                    "left", "gave", "told", "said", "bought", "found", "ate"};
  return (word.size() >= 5 && word.ends_with("ed")) ||
         std::find(std::begin(kIrregular), std::end(kIrregular), word) != std::end(kIrregular);
}

bool AsksAboutPresentState(std::string_view question) {
  if (AsksAboutHistory(question)) return false;
  static constexpr std::string_view kChinesePast[] = {"了", "过", "曾", "那次", "那天", "时候", "上次", "当时"};
  bool han = false;
  for (unsigned char c : question) han |= c >= 0xE4 && c <= 0xE9;
  if (han) {
    for (std::string_view marker : kChinesePast) {
      // 什么时候 asks a time ("我一般什么时候打羽毛球？"); …的时候 tells one ("我上大学的时候住哪？").
      for (size_t at = question.find(marker); at != std::string_view::npos; at = question.find(marker, at + 1)) {
        if (marker == "时候" && at >= 6 && question.substr(at - 6, 6) == "什么") continue;
        return false;
      }
    }
  }
  static constexpr std::string_view kPast[] = {"did", "didn't", "was", "wasn't", "were", "weren't", "had", "ago",
                                               "last", "yesterday", "first", "ever"};
  static constexpr std::string_view kPresent[] = {"do",  "does",    "don't",     "am",      "is",     "isn't",
                                                  "are", "what's",  "where's",   "who's",   "which's", "how's",
                                                  "now", "currently", "these",   "still",   "today",  "we're",
                                                  "i'm", "they're", "it's",     "right"};
  bool present = false;
  const std::vector<std::string> words = AsciiWords(question);
  // "When did I move?" asks a time; "What do I listen to when I run?" a habit, "…the café we went
  // to when we visited Lyon?" the past (a verb of the past beside it).
  const bool when = std::find(words.begin(), words.end(), "when") != words.end();
  if (when && (words.front() == "when" || std::any_of(words.begin(), words.end(), SaysThePast))) return false;
  for (const std::string& w : words) {
    for (std::string_view past : kPast) {
      if (w == past) return false;
    }
    for (std::string_view now : kPresent) present |= w == now;
  }
  return present || han;
}

}  // namespace engram::text
