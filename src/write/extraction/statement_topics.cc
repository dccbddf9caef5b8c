#include "write/extraction/statement_topics.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "text/person_topic.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"

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

// English words of the first person, lower case.
bool IsFirstPerson(std::string_view lower) {
  static constexpr std::array<std::string_view, 18> kWords = {
      "i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we", "we're", "we've", "we'd", "we'll",
      "our", "ours", "us", "ourselves"};
  return std::find(kWords.begin(), kWords.end(), lower) != kWords.end();
}

// True when a clause of Chinese `text` opens with someone other than the speaker: 他, 她, 它, 你, a
// relation word ("同事"), a familiar name (老王, 小李, 阿强) or a Latin name.
bool SomeClauseOpensWithAnother(const Lexicon& lex, std::string_view text) {
  static constexpr std::array<std::string_view, 6> kSeparators = {"，", "。", "；", "！", "？", "、"};
  static constexpr std::array<std::string_view, 4> kPronouns = {"他", "她", "它", "你"};
  static constexpr std::array<std::string_view, 3> kFamiliar = {"老", "小", "阿"};
  // Words that open with 老/小/阿 and name no one: a place, a time, a manner.
  static constexpr std::array<std::string_view, 8> kNotNames = {"老家", "小时", "小区", "老是",
                                                                "小心", "小孩", "老实", "阿里"};
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.size();
    for (std::string_view sep : kSeparators) end = std::min(end, text.find(sep, start));
    std::string_view clause = text.substr(start, end - start);
    while (!clause.empty() && (clause.front() == ' ' || clause.front() == ',' || clause.front() == '.')) clause.remove_prefix(1);
    const auto opens = [&](std::string_view w) { return clause.starts_with(w); };
    if (std::any_of(kPronouns.begin(), kPronouns.end(), opens)) return true;
    if (!clause.empty() && clause.front() >= 'A' && clause.front() <= 'Z') return true;
    const std::vector<std::string> relations = lex.RelationsIn(clause.substr(0, std::min<size_t>(clause.size(), 9)));
    if (!relations.empty() && clause.starts_with(relations.front())) return true;
    if (std::any_of(kFamiliar.begin(), kFamiliar.end(), opens) && clause.size() >= 6 &&
        std::none_of(kNotNames.begin(), kNotNames.end(), opens)) {
      return true;
    }
    if (end == text.size()) break;
    start = end + 3;  // every separator above is three bytes
  }
  return false;
}

// True when an English sentence of `text` opens with a verb of the past (OpensWithAPastVerb):
// chat drops the speaker as the subject ("Caved and got an iPhone 15", "Swapped out the murder
// shows for lo-fi playlists").
bool DropsTheSpeaker(std::string_view text) {
  for (const rules::Sentence& s : rules::SplitSentences(text)) {
    if (!s.question && !s.has_han && OpensWithAPastVerb(rules::SpanText(text, s.span))) return true;
  }
  return false;
}

// True when `text` speaks of the speaker: a first-person word, a sentence that drops the speaker
// as its subject (DropsTheSpeaker), or (Chinese, which drops the subject: "已经搬去深圳啦") 我 or
// 咱, or no clause opening with someone else.
bool SpeaksOfTheSpeaker(const Lexicon& lex, std::string_view text) {
  for (std::string_view token : AsciiTokens(text)) {
    std::string lower(token);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (IsFirstPerson(lower)) return true;
  }
  if (text.find("我") != std::string_view::npos || text.find("咱") != std::string_view::npos) return true;
  if (DropsTheSpeaker(text)) return true;
  const bool han = std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0xE4 && u <= 0xE9;
  });
  return han && !SomeClauseOpensWithAnother(lex, text);
}

// The people `text` names through the speaker (relations.tsv; a short kin word right after 我,
// markers.tsv `kin_after_speaker`: 我姐, 我妈), as person topics.
std::vector<std::string> PeopleNamed(const Lexicon& lex, std::string_view text) {
  std::vector<std::string> people;
  for (const std::string& word : lex.RelationsIn(text)) people.push_back(text::kPersonTopic + word);
  for (size_t at = text.find("我"); at != std::string_view::npos; at = text.find("我", at + 3)) {
    const std::vector<PhraseHit> kin = lex.FindMarkers(text.substr(at + 3), "kin_after_speaker");
    if (!kin.empty() && kin.front().begin == 0) people.push_back(text::kPersonTopic + kin.front().phrase);
  }
  return people;
}

// The clauses of `text`: split at punctuation and at the English conjunctions that join clauses.
std::vector<std::string_view> Clauses(std::string_view text) {
  static const std::vector<std::string_view> kBreaks = {
      ",", ";", ":", "!", "?", ". ", "，", "；", "：", "。", "！", "？",
      " while ", " and ", " but ", " since ", " because ", " whereas "};
  return rules::SplitAtBreaks(text, kBreaks);
}

// True when `clause` opens with a subject of its own: a pronoun, a first-person word, a relation
// word or a capitalised name (English), or 我/他/她 or a relation word (Chinese). "just switched
// to Android" has none: it goes on about the one the clause before it named.
bool HasItsOwnSubject(const Lexicon& lex, std::string_view clause) {
  while (!clause.empty() && (clause.front() == ' ' || clause.front() == '\t')) clause.remove_prefix(1);
  if (clause.empty()) return false;
  for (std::string_view opener : {"我", "他", "她", "咱"}) {
    if (clause.starts_with(opener)) return true;
  }
  const std::vector<std::string> relations = lex.RelationsIn(clause.substr(0, std::min<size_t>(clause.size(), 9)));
  if (!relations.empty() && clause.starts_with(relations.front())) return true;
  const std::vector<std::string_view> tokens = AsciiTokens(clause);
  if (tokens.empty()) return false;
  std::string first(tokens.front());
  for (char& c : first) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::string_view kSubjects[] = {"he", "she", "they", "he's", "she's", "they're", "it", "it's",
                                                   "his", "her", "their", "the", "a", "an", "this", "that"};
  if (IsFirstPerson(first) || std::find(std::begin(kSubjects), std::end(kSubjects), first) != std::end(kSubjects)) {
    return true;
  }
  return clause.front() >= 'A' && clause.front() <= 'Z' && !OpensWithAPastVerb(clause);
}

// True when `clause` says the speaker as a subject: "I", "we", "I'm" (not "my": "my roommate"), a
// verb of the past with "I" left out, or 我/咱 (Chinese).
bool SaysTheSpeaker(std::string_view clause) {
  static constexpr std::string_view kSubjects[] = {"i",  "i'm", "i've", "i'd",  "i'll",
                                                   "we", "we're", "we've", "we'd", "we'll"};
  for (std::string_view token : AsciiTokens(clause)) {
    std::string lower(token);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::find(std::begin(kSubjects), std::end(kSubjects), lower) != std::end(kSubjects)) return true;
  }
  return OpensWithAPastVerb(clause) || clause.find("我") != std::string_view::npos ||
         clause.find("咱") != std::string_view::npos;
}

// The people a statement's change is about: those named in its clauses that state a change (a
// lasting, temporary or bounded one: change_statement.h), a clause without a subject of its own
// counting the people of the clause before it — when each clause of change names its people or
// says the speaker; every person named otherwise (no clause of change, or one of a thing: "My
// roommate just went keto and the fridge is now 90% bacon"). "For the next two weeks I'm working
// from Lyon while my partner's at a conference" is the speaker's change; "Life update: my sister's
// visiting in May, and I switched to Equinox" too; "My brother, who lives in Ohio, just switched
// to Android" is the brother's.
std::vector<std::string> PeopleOfTheChange(const Lexicon& lex, std::string_view text) {
  std::vector<std::string> all = PeopleNamed(lex, text);
  if (all.empty()) return all;
  std::vector<std::string> of_change;
  bool any_change = false;
  std::vector<std::string> before;  // the people of the clause before
  for (std::string_view clause : Clauses(text)) {
    std::vector<std::string> here = PeopleNamed(lex, clause);
    const bool own_subject = HasItsOwnSubject(lex, clause);
    const NowStance stance = ReadNowStance(clause);
    if (text::SaysAChange(stance) || stance == NowStance::kBounded) {
      any_change = true;
      std::vector<std::string> people = here;
      if (!own_subject) people.insert(people.end(), before.begin(), before.end());
      if (people.empty() && !SaysTheSpeaker(clause)) return all;
      of_change.insert(of_change.end(), people.begin(), people.end());
    }
    if (own_subject || !here.empty()) before = std::move(here);
  }
  return any_change ? of_change : all;
}

}  // namespace

namespace {

// The lower-case word of ASCII letters at or after `i` in `text` (what is no letter skipped), and
// where it ends; "" when none is left.
std::string NextWord(std::string_view text, size_t i, size_t* end) {
  while (i < text.size() && !IsAsciiLetter(text[i])) ++i;
  size_t e = i;
  while (e < text.size() && IsAsciiLetter(text[e])) ++e;
  *end = e;
  std::string word(text.substr(i, e - i));
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word;
}

bool IsPastForm(const std::vector<std::string>& irregular, const std::string& word) {
  return (word.size() >= 5 && word.ends_with("ed")) || std::find(irregular.begin(), irregular.end(), word) != irregular.end();
}

}  // namespace

bool OpensWithAPastVerb(std::string_view text) {
  const Lexicon& lex = Lexicon::Get();
  const std::vector<std::string>& irregular = lex.Markers("verb_form");
  const std::vector<std::string>& fillers = lex.Markers("discourse");
  for (size_t i = 0, end = 0;; i = end) {
    const std::string word = NextWord(text, i, &end);
    if (word.empty()) return false;
    if (std::find(fillers.begin(), fillers.end(), word) != fillers.end()) continue;
    if (!IsPastForm(irregular, word) || (end < text.size() && text[end] == '\'')) return false;  // "Jared's"
    if (!word.ends_with("ed") || std::find(irregular.begin(), irregular.end(), word) != irregular.end()) return true;
    // A name in -ed ("Jared", "Ahmed") is the subject of the verb after it.
    size_t next_end = end;
    const std::string next = NextWord(text, end, &next_end);
    static constexpr std::string_view kVerbs[] = {"is", "was", "has", "had", "will", "just", "finally", "also"};
    return !IsPastForm(irregular, next) && std::find(std::begin(kVerbs), std::end(kVerbs), next) == std::end(kVerbs);
  }
}

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
  for (std::string& person : PeopleOfTheChange(lex, text)) topics.push_back(std::move(person));
  if (SpeaksOfTheSpeaker(lex, text)) topics.emplace_back(text::kSpeakerTopic);
  std::sort(topics.begin(), topics.end());
  topics.erase(std::unique(topics.begin(), topics.end()), topics.end());
  return topics;
}

}  // namespace engram::extraction
