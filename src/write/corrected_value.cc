#include "write/corrected_value.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "text/stopwords.h"
#include "text/time_expression.h"

namespace engram {
namespace {

bool IsAsciiAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The runs of ASCII letters and digits of `text`, in order (views into it).
std::vector<std::string_view> Tokens(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !IsAsciiAlnum(text[i])) ++i;
    size_t end = i;
    while (end < text.size() && IsAsciiAlnum(text[end])) ++end;
    if (end > i) out.push_back(text.substr(i, end - i));
    i = end;
  }
  return out;
}

// The shape of a token that holds a digit: its runs of letters ("a") and digits ("9") in order, a
// number of digits alone by its length ("A1032" → "a9", "B12" → "a9", "1989" → "9999"); "" for
// a token with no digit.
std::string Shape(std::string_view token) {
  if (std::none_of(token.begin(), token.end(), IsDigit)) return "";
  if (std::all_of(token.begin(), token.end(), IsDigit)) return std::string(token.size(), '9');
  std::string shape;
  for (char c : token) {
    const char kind = IsDigit(c) ? '9' : 'a';
    if (shape.empty() || shape.back() != kind) shape += kind;
  }
  return shape;
}

// A time said in a text, and its kind: a date (text/time_expression.h resolves it), a day of the
// week or a time of day (which it leaves unresolved: "on Tuesday", "at 8 pm", "周五", "三点").
struct TimeSaid {
  enum class Kind { kDate, kWeekday, kClock };
  Kind kind = Kind::kDate;
  std::string_view text;
  size_t at = 0;  // byte offset, for text order
};

// Days of the week and times of day, English and Chinese (RE2, UTF-8).
const re2::RE2& WeekdayPattern() {
  static const re2::RE2 kPattern(
      R"((?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:周|星期|礼拜)[一二三四五六日天])");
  return kPattern;
}
const re2::RE2& ClockPattern() {
  static const re2::RE2 kPattern(
      R"((?i)\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|[一二三四五六七八九十两0-9]{1,3}点(?:半|[一二三四五六七八九十0-9]{1,3}分)?)");
  return kPattern;
}

// The times `text` says, in text order.
std::vector<TimeSaid> TimesSaid(std::string_view text) {
  std::vector<TimeSaid> out;
  for (const text::TimeMention& m : text::FindTimeMentions(text, 0, 0)) {
    out.push_back({TimeSaid::Kind::kDate, text.substr(m.byte_start, m.byte_end - m.byte_start), m.byte_start});
  }
  for (auto [kind, pattern] : {std::pair{TimeSaid::Kind::kWeekday, &WeekdayPattern()},
                               std::pair{TimeSaid::Kind::kClock, &ClockPattern()}}) {
    size_t from = 0;
    re2::StringPiece found;
    while (from < text.size() &&
           pattern->Match(re2::StringPiece(text.data(), text.size()), from, text.size(), re2::RE2::UNANCHORED, &found, 1)) {
      const size_t at = static_cast<size_t>(found.data() - text.data());
      const bool inside = std::any_of(out.begin(), out.end(), [&](const TimeSaid& t) {
        return at >= t.at && at < t.at + t.text.size();
      });
      if (!inside) out.push_back({kind, std::string_view(found.data(), found.size()), at});
      from = at + std::max<size_t>(found.size(), 1);
    }
  }
  std::sort(out.begin(), out.end(), [](const TimeSaid& a, const TimeSaid& b) { return a.at < b.at; });
  return out;
}

// The time of `older` of the kind of the first time `correction` says, and that time ("Monday" of
// "Monday at 3" and "Tuesday"; "6 pm" of "6 pm on Friday" and "8 pm").
std::optional<CorrectedPair> CorrectedTime(std::string_view correction, std::string_view older) {
  const std::vector<TimeSaid> said = TimesSaid(correction);
  if (said.empty()) return std::nullopt;
  for (const TimeSaid& t : TimesSaid(older)) {
    if (t.kind != said.front().kind) continue;
    if (Lower(t.text) == Lower(said.front().text)) return std::nullopt;
    return CorrectedPair{std::string(t.text), std::string(said.front().text)};
  }
  return std::nullopt;
}

// The token of `older` shaped as a token of `correction` that holds a digit, and that token.
std::optional<CorrectedPair> CorrectedCode(std::string_view correction, std::string_view older) {
  for (std::string_view token : Tokens(correction)) {
    const std::string shape = Shape(token);
    if (shape.empty()) continue;
    for (std::string_view candidate : Tokens(older)) {
      if (Shape(candidate) == shape && Lower(candidate) != Lower(token)) {
        return CorrectedPair{std::string(candidate), std::string(token)};
      }
    }
  }
  return std::nullopt;
}

// The word of `older` as written whose folded form is `folded` (ASCII case ignored).
std::optional<std::string> Verbatim(std::string_view older, const std::string& folded) {
  for (std::string_view token : Tokens(older)) {
    if (Lower(token) == folded) return std::string(token);
  }
  return std::nullopt;
}

// The word of `older` kin to a word of `correction` (kin_change.h; of a statement kept whole, only
// its names), and that word.
std::optional<CorrectedPair> CorrectedKin(std::string_view correction, std::string_view older, bool whole_statement,
                                          const KinLookup& kin) {
  const std::vector<std::string> newer = kin.words(correction);
  if (newer.empty()) return std::nullopt;
  for (const std::string& word : whole_statement ? kin.names(older) : kin.words(older)) {
    for (const std::string& said : newer) {
      if (!kin.kin({word}, {said})) continue;
      auto old_part = Verbatim(older, word);
      auto new_part = Verbatim(correction, said);
      if (old_part && new_part) return CorrectedPair{*old_part, *new_part};
    }
  }
  return std::nullopt;
}

// `older` whole and `correction` whole, when they share a word and each holds one the other does
// not ("A positive" and "O positive").
std::optional<CorrectedPair> CorrectedBesideASharedWord(std::string_view correction, std::string_view older) {
  std::vector<std::string> said;
  for (std::string_view token : Tokens(correction)) said.push_back(Lower(token));
  std::vector<std::string> held;
  for (std::string_view token : Tokens(older)) held.push_back(Lower(token));
  auto in = [](const std::vector<std::string>& words, const std::string& w) {
    return std::find(words.begin(), words.end(), w) != words.end();
  };
  const bool shares = std::any_of(held.begin(), held.end(), [&](const std::string& w) { return w.size() > 1 && in(said, w); });
  const bool other = std::any_of(held.begin(), held.end(), [&](const std::string& w) { return !in(said, w); });
  const bool new_word = std::any_of(said.begin(), said.end(), [&](const std::string& w) { return !in(held, w); });
  if (shares && other && new_word) return CorrectedPair{std::string(older), std::string(correction)};
  return std::nullopt;
}

}  // namespace

bool SaysATimeOrANumber(std::string_view correction) {
  if (!TimesSaid(correction).empty()) return true;
  return std::any_of(correction.begin(), correction.end(), IsDigit);
}

bool SaysOnlyTheValue(std::string_view correction, std::string_view newer_part, std::string_view older,
                      bool chinese_too) {
  // The words a bare correction says beside its value: itself, its copula, what it replaces.
  static constexpr std::string_view kAround[] = {"it", "its", "s", "is", "was", "the", "a", "an", "at", "on", "in",
                                                 "to", "not", "no", "i", "meant", "my", "mistake", "sorry", "oops",
                                                 "wait", "typo", "correction", "actually", "that", "should", "be",
                                                 "bad", "got", "wrong", "misspoke", "misremembered", "scratch",
                                                 "earlier", "there", "ok", "okay", "so", "oh", "um", "uh", "ah",
                                                 "hmm", "argh", "ugh", "apologies", "about", "whoops", "nope", "am", "pm", "morning",
                                                 "afternoon", "evening", "night", "noon", "misread", "misheard", "misspelled", "misspelt", "mistyped",
                                                 "mixed", "confused", "told", "said", "you", "before", "previously",
                                                 "checked", "mean", "right", "really",
                                                 // words that stand for a thing without naming one
                                                 // ("Correction on the landlord thing: …")
                                                 "thing", "things", "stuff", "bit", "part", "one",
                                                 // and of a name's spelling ("with a B", "spelt with two Ls")
                                                 "spelled", "spelt", "spelling", "letter", "letters", "ls", "ss"};
  static constexpr std::string_view kAroundHan[] = {"是", "的", "了", "不", "对", "应", "该", "其", "实", "为", "错",
                                                    "记", "更", "正", "一", "下", "啊", "呢", "吧", "哦", "嗯", "说",
                                                    "搞", "弄", "纠", "刚", "才", "哎", "呀", "啦", "我", "好",
                                                    "意", "思", "抱", "歉", "起", "额", "上", "午", "晚", "早", "点",
                                                    "看", "岔", "混", "反", "写", "打", "口", "误"};
  std::string rest(correction);
  if (const size_t at = rest.find(newer_part); !newer_part.empty() && at != std::string::npos) {
    rest.erase(at, newer_part.size());
  }
  std::vector<std::string> held;
  for (std::string_view token : Tokens(older)) held.push_back(Lower(token));
  // (The value's own words, also where the sentence was given without its punctuation: "Dr Okonkwo".)
  std::vector<std::string> value_words;
  for (std::string_view token : Tokens(newer_part)) value_words.push_back(Lower(token));
  for (std::string_view token : Tokens(rest)) {
    const std::string w = Lower(token);
    if (std::find(value_words.begin(), value_words.end(), w) != value_words.end()) continue;
    if (std::any_of(w.begin(), w.end(), IsDigit)) continue;  // a detail of the value ("Tuesday at 4")
    if (w.size() == 1) continue;                              // a letter of its spelling ("with a B")
    // Words of grammar say nothing of another thing ("I meant Thursday not Tuesday for the dentist").
    if (std::find(held.begin(), held.end(), w) == held.end() && !text::IsEnglishStopword(w) &&
        std::find(std::begin(kAround), std::end(kAround), w) == std::end(kAround)) {
      return false;
    }
  }
  // Chinese: each character of three bytes (the CJK blocks), said in the older or around a value.
  for (size_t i = 0; chinese_too && i + 3 <= rest.size(); ++i) {
    const auto lead = static_cast<unsigned char>(rest[i]);
    if (lead < 0xE3 || lead > 0xE9) continue;
    const std::string_view ch = std::string_view(rest).substr(i, 3);
    if (older.find(ch) == std::string_view::npos &&
        std::find(std::begin(kAroundHan), std::end(kAroundHan), ch) == std::end(kAroundHan)) {
      return false;
    }
    i += 2;
  }
  return true;
}

std::optional<CorrectedPair> CorrectedPart(std::string_view correction, std::string_view older, bool whole_statement,
                                           const KinLookup* kin) {
  if (correction.empty() || older.empty()) return std::nullopt;
  std::optional<CorrectedPair> part = CorrectedTime(correction, older);
  if (!part) part = CorrectedCode(correction, older);
  if (!part && kin != nullptr && kin->Available()) part = CorrectedKin(correction, older, whole_statement, *kin);
  // (A shared word says a kind only of a short value: "O positive", not a sentence.)
  if (!part && !whole_statement && std::count(correction.begin(), correction.end(), ' ') <= 2) {
    part = CorrectedBesideASharedWord(correction, older);
  }
  return part;
}

}  // namespace engram
