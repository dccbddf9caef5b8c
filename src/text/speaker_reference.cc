#include "text/speaker_reference.h"

#include <cctype>

namespace engram::text {
namespace {

bool WordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool LowerEquals(std::string_view text, size_t at, std::string_view lower) {
  if (at + lower.size() > text.size()) return false;
  for (size_t i = 0; i < lower.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[at + i])) != lower[i]) return false;
  }
  return true;
}

// The word after `at` (past spaces), lower-cased, or "".
std::string NextWord(std::string_view text, size_t at) {
  while (at < text.size() && text[at] == ' ') ++at;
  std::string word;
  while (at < text.size() && WordByte(text[at])) word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[at++]))));
  return word;
}

// True when `word` may follow "the user" as the speaker ("the user live", "the user's"): a verb,
// an adverb, a preposition or the end — not a noun of a thing ("the user table", "the user
// service"). Read by what the question then goes on with: a word of grammar or a verb-like word.
bool UserIsThePerson(const std::string& next) {
  static constexpr std::string_view kThings[] = {"table", "tables", "service", "services", "id", "ids", "account",
                                                 "accounts", "model", "record", "records", "data", "base", "name",
                                                 "names", "interface", "guide", "manual", "story", "stories", "agent",
                                                 "profile", "profiles", "group", "groups", "session", "sessions"};
  for (std::string_view thing : kThings) {
    if (next == thing) return false;
  }
  return true;
}

// True when 用户 at `at` opens the question or a clause of it (nothing but punctuation or a space
// before it: not 老用户, 新用户, VIP用户) and no noun of a thing follows it (用户中心, 用户表, 用户数).
bool YonghuIsThePerson(std::string_view text, size_t at) {
  if (at > 0) {
    const unsigned char before = static_cast<unsigned char>(text[at - 1]);
    const bool ascii_gap = before < 0x80 && !WordByte(text[at - 1]);
    const bool han_punct = at >= 3 && (text.substr(at - 3, 3) == "\xEF\xBC\x8C" /*，*/ || text.substr(at - 3, 3) == "\xE3\x80\x82" /*。*/ ||
                                       text.substr(at - 3, 3) == "\xEF\xBC\x9F" /*？*/ || text.substr(at - 3, 3) == "\xEF\xBC\x9A" /*：*/);
    if (!ascii_gap && !han_punct) return false;
  }
  static constexpr std::string_view kThings[] = {"中心", "服务", "表", "数", "量", "名", "端", "体验", "画像", "数据",
                                                 "增长", "协议", "反馈", "群", "组", "们", "库", "系统", "模块", "账号", "信息"};
  const std::string_view rest = text.substr(at + std::string_view("用户").size());
  for (std::string_view thing : kThings) {
    if (rest.substr(0, thing.size()) == thing) return false;
  }
  return true;
}

}  // namespace

std::string SpeakerInTheFirstPerson(std::string_view question) {
  std::string out;
  out.reserve(question.size());
  size_t i = 0;
  while (i < question.size()) {
    const bool starts = i == 0 || !WordByte(question[i - 1]);
    if (starts && LowerEquals(question, i, "the user")) {
      size_t end = i + 8;
      size_t possessive = 0;
      if (question.substr(end, 2) == "'s") possessive = 2;
      if (question.substr(end, 4) == "\xE2\x80\x99s") possessive = 4;
      if (possessive > 0 && (end + possessive == question.size() || !WordByte(question[end + possessive]))) {
        out += "my";
        i = end + possessive;
        continue;
      }
      if ((end == question.size() || !WordByte(question[end])) && UserIsThePerson(NextWord(question, end))) {
        out += "I";
        i = end;
        continue;
      }
    }
    if (question.substr(i, 6) == "用户" && YonghuIsThePerson(question, i)) {
      out += "我";
      i += 6;
      continue;
    }
    out.push_back(question[i++]);
  }
  return out;
}

}  // namespace engram::text
