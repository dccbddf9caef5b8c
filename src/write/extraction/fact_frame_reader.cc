#include "write/extraction/fact_frame_reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <sstream>

#include <re2/re2.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "text/chinese_name.h"
#include "text/stopwords.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/statement_topics.h"

namespace engram::extraction {
namespace {

using rules::Span;

// ---- bytes and tokens ---------------------------------------------------------------------------

// ASCII letters lowered, every other byte kept: offsets stay those of the original.
std::string LowerBytes(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// True when the byte at `i` of `s` is a byte of a word: an ASCII letter or digit, or one of the two
// bytes of a Latin letter with a diacritic (U+00C0–U+024F but × and ÷: a lead byte C3–C9, then a
// continuation byte), so that "Chloé", "José" and "Zürich" are one word each. A continuation byte
// is one only right after such a lead byte: the last bytes of a Chinese character are not (用VS).
bool IsWordByteAt(std::string_view s, size_t i) {
  if (i >= s.size()) return false;
  if (IsAsciiAlnum(s[i])) return true;
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  auto latin = [&](size_t lead) {
    if (lead + 1 >= s.size() || byte(lead) < 0xC3 || byte(lead) > 0xC9) return false;
    if (byte(lead + 1) < 0x80 || byte(lead + 1) > 0xBF) return false;
    return !(byte(lead) == 0xC3 && (byte(lead + 1) == 0x97 || byte(lead + 1) == 0xB7));
  };
  if (latin(i)) return true;
  return i > 0 && byte(i) >= 0x80 && byte(i) <= 0xBF && latin(i - 1);
}
// True when the pronoun "I" starts at `i` of `s`, before `end`: "I", "I'm", "I’ve" (not "Iowa").
bool IsPronounIAt(std::string_view s, size_t i, size_t end) {
  if (i >= end || i >= s.size() || s[i] != 'I') return false;
  return i + 1 >= end || !IsWordByteAt(s, i + 1);
}

// True when a capital letter starts at `i` of `s`: A–Z, or a Latin capital with a diacritic
// (U+00C0–U+024F: "Émile", "Łukasz", "Özil"; ICU's u_isupper).
bool IsCapitalAt(std::string_view s, size_t i) {
  if (i >= s.size()) return false;
  if (s[i] >= 'A' && s[i] <= 'Z') return true;
  if (!IsWordByteAt(s, i) || static_cast<unsigned char>(s[i]) < 0xC3) return false;  // not a lead byte
  int32_t at = static_cast<int32_t>(i);
  UChar32 c = 0;
  U8_NEXT(s.data(), at, static_cast<int32_t>(s.size()), c);
  return c > 0 && u_isupper(c);
}

// The length in bytes of the letter at `i` (1 for ASCII, 2 for a Latin letter with a diacritic).
size_t LetterLength(std::string_view s, size_t i) {
  return i < s.size() && static_cast<unsigned char>(s[i]) >= 0xC3 && IsWordByteAt(s, i) ? 2 : 1;
}

bool IsTokenByteAt(std::string_view s, size_t i) {
  return IsWordByteAt(s, i) || (i < s.size() && (s[i] == '-' || s[i] == '_' || s[i] == '.'));
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// An ASCII token of the text: letters, digits and the joiners - _ . (a trailing "." is not part).
struct Token {
  size_t begin = 0, end = 0;
};

std::vector<Token> AsciiTokens(std::string_view text, size_t begin, size_t end) {
  std::vector<Token> out;
  size_t i = begin;
  while (i < end) {
    if (!IsWordByteAt(text, i)) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < end && IsTokenByteAt(text, j)) ++j;
    size_t k = j;
    while (k > i && (text[k - 1] == '.' || text[k - 1] == '-' || text[k - 1] == '_')) --k;
    out.push_back({i, k});
    i = j;
  }
  return out;
}

// "v1.2", "V3", "3.12", "2.0.1": a version number (a bare integer is not one).
bool IsVersion(std::string_view t) {
  if (t.empty()) return false;
  size_t i = (t[0] == 'v' || t[0] == 'V') ? 1 : 0;
  if (i >= t.size() || !IsDigit(t[i])) return false;
  bool dot = false;
  for (size_t k = i; k < t.size(); ++k) {
    if (t[k] == '.') {
      if (k + 1 >= t.size() || !IsDigit(t[k + 1])) return false;
      dot = true;
    } else if (!IsDigit(t[k])) {
      return false;
    }
  }
  return i == 1 || dot;
}

// "component-00", "node-a", "control-01", "web_2": a name that is an identifier, not a word
// ("18th", "color-coding" and "self-acceptance" are words).
bool IsIdentifier(std::string_view t) {
  if (IsVersion(t)) return false;
  bool letter = false, digit = false, underscore = false;
  for (char c : t) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) letter = true;
    if (IsDigit(c)) digit = true;
    if (c == '_') underscore = true;
  }
  if (!letter) return false;
  if (digit) {
    std::string low(t);
    if ((low.ends_with("am") || low.ends_with("pm")) && IsDigit(low[0])) return false;  // "4pm"
    for (char& c : low) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    for (std::string_view ordinal : {"st", "nd", "rd", "th", "s"}) {
      if (low.ends_with(ordinal) && IsDigit(low[0]) &&
          std::all_of(low.begin(), low.end() - static_cast<std::ptrdiff_t>(ordinal.size()), IsDigit)) {
        return false;  // "18th", "1990s"
      }
    }
    return true;
  }
  if (underscore) return true;
  // Hyphenated: an identifier when one of its parts is at most two characters ("node-a") or a
  // part of the lexicon ("checkout-svc").
  size_t start = 0;
  while (start <= t.size()) {
    size_t dash = t.find('-', start);
    size_t len = (dash == std::string_view::npos ? t.size() : dash) - start;
    if (dash == std::string_view::npos && start == 0) return false;  // no hyphen
    if (len > 0 && len <= 2) return true;
    if (Lexicon::Get().IsIdentifierPart(t.substr(start, len))) return true;
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  return false;
}

// "9:30", "14:05": one or two digits of hours, a colon, two of minutes under 60 ("3:1", "16:9"
// and "1:1" are a score, a ratio and a meeting). Trailing spaces allowed.
bool IsClock(std::string_view t) {
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  const size_t colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 2 || t.size() != colon + 3) return false;
  return std::all_of(t.begin(), t.begin() + colon, IsDigit) && IsDigit(t[colon + 1]) && t[colon + 1] <= '5' &&
         IsDigit(t[colon + 2]);
}

// "VPN", "CI", "API": one token of capitals (and digits) with at least two capitals — a thing's
// name, never a person's.
bool IsAcronym(std::string_view t) {
  int capitals = 0;
  for (char c : t) {
    if (c >= 'A' && c <= 'Z') {
      ++capitals;
    } else if (!IsDigit(c)) {
      return false;
    }
  }
  return capitals >= 2;
}

// The length of the contracted copula "'s" / "’s" at `i` ("VPN's online", "standup's at 10"), 0
// when there is none.
size_t ContractionAt(std::string_view s, size_t i) {
  if (s.compare(i, 2, "'s") == 0) return 2;
  if (s.compare(i, 4, "\xE2\x80\x99s") == 0) return 4;
  return 0;
}

// "<HAN:4>", "<ASCII:6>", "<VERSION>": a placeholder of a de-identified text.
bool HasPlaceholder(std::string_view s) {
  for (size_t i = s.find('<'); i != std::string_view::npos; i = s.find('<', i + 1)) {
    size_t close = s.find('>', i);
    if (close == std::string_view::npos || close - i > 16) continue;
    std::string_view inside = s.substr(i + 1, close - i - 1);
    if (!inside.empty() && std::all_of(inside.begin(), inside.end(), [](char c) {
          return (c >= 'A' && c <= 'Z') || IsDigit(c) || c == ':';
        })) {
      return true;
    }
  }
  return false;
}

bool IsSpaceByte(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t SkipSpaces(std::string_view s, size_t i, size_t end) {
  while (i < end && IsSpaceByte(s[i])) ++i;
  return i;
}

// The lowered word starting at `i` (letters, digits, apostrophes), and where it ends.
std::string WordAt(std::string_view low, size_t i, size_t end, size_t* word_end) {
  size_t j = i;
  while (j < end && (IsWordByteAt(low, j) || low[j] == '\'')) ++j;
  if (word_end != nullptr) *word_end = j;
  return std::string(low.substr(i, j - i));
}

bool StartsWithAt(std::string_view s, size_t i, std::string_view p) {
  return i <= s.size() && s.size() - i >= p.size() && s.compare(i, p.size(), p) == 0;
}

// Attributes only things have (a person has no version or health).
bool IsThingAttribute(std::string_view attribute) {
  return attribute == "version" || attribute == "state" || attribute == "service_health" ||
         attribute == "deployment_state" || attribute == "job_state" || attribute == "process_state" ||
         attribute == "connectivity";
}

// "component-00", "control-01", "base image": the name of a thing — one identifier token.
bool IsIdentifierName(std::string_view name) { return IsIdentifier(name); }

// The value [begin, end) stands inside a quotation that says more than the value itself (someone
// else's words: 有人喊“都升 3.13 吧”), not inside quotes that only name it ('I use "dark mode"').
bool InsideQuotedClause(std::string_view content, size_t begin, size_t end) {
  for (const Span& q : rules::QuotedSpans(content)) {
    if (q.begin <= begin && end <= q.end && q.end - q.begin > end - begin + 3) return true;
  }
  return false;
}

// "it", "this", "that", "它", "这个": a thing named only by a pronoun.
bool IsPronounName(std::string_view name) {
  std::string low = LowerBytes(name);
  for (std::string_view p : {"it", "this", "that", "it all", "everything", "它", "这个", "那个"}) {
    if (low == p) return true;
  }
  return false;
}

// ---- clauses --------------------------------------------------------------------------------------

// True when a verb or change marker of the lexicon starts at `at` of `low` (lower case).
bool VerbStartsAt(const Lexicon& lex, std::string_view low, size_t at, size_t end) {
  std::string_view rest = low.substr(at, end - at);
  std::vector<PhraseHit> verbs = lex.FindVerbs(rest), change = lex.FindMarkers(rest, "change");
  return (!verbs.empty() && verbs.front().begin == 0) || (!change.empty() && change.front().begin == 0);
}

bool FiniteVerbWithin(std::string_view low, size_t i, size_t end, int words);

// " and I ...", " but we ...": a conjunction before a subject pronoun joins two clauses, and so
// does one before a capitalised name that a verb of the lexicon follows ("Tom stepped down and
// Maria took over as tech lead"; not "I work at Ernst and Young"), and one before "the", "it",
// "there", "this" or "that" that a form of be, have or will follows within five words ("…to
// eu-central-1 and the old stack was torn down"; not "I like cats and the ocean"); a space before
// "the" after a capitalised name, when a form of be, have or will follows within three words ("…to
// Manchester the commute is 15 min"). Returns the length of " and " / " but " / " " at `i`, or 0.
size_t JointBeforeSubject(const Lexicon& lex, std::string_view content, std::string_view low, size_t i,
                          size_t end) {
  // With no joint at all after a name: "since relocating to Manchester the commute is 15 min".
  if (StartsWithAt(low, i, " the ") && i > 0 && IsWordByteAt(content, i - 1)) {
    size_t b = i;
    while (b > 0 && IsWordByteAt(content, b - 1)) --b;
    if (IsCapitalAt(content, b) && b > 0 && content[b - 1] == ' ' &&
        FiniteVerbWithin(low, i + 5, end, 3)) {
      return 1;
    }
  }
  for (std::string_view joint : {" and ", " but ", " so "}) {
    if (!StartsWithAt(content, i, joint)) continue;
    size_t w = i + joint.size();
    size_t e = w;
    while (e < end && (IsWordByteAt(content, e) || content[e] == '\'')) ++e;
    std::string word = LowerBytes(content.substr(w, e - w));
    for (std::string_view pronoun : {"i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "we'll", "my", "our", "he",
                                     "he's", "she", "she's", "they", "they're", "they've"}) {
      if (word == pronoun) return joint.size();
    }
    const bool name = e > w + 1 && IsCapitalAt(content, w);
    if (name && VerbStartsAt(lex, low, SkipSpaces(content, e, end), end)) return joint.size();
    // A second predicate of the same subject, which the next clause carries: "Ines works at
    // Lufthansa and is a pilot", "Tom lives in Leeds and works at Sage".
    // So does a negation, an auxiliary or a verb of liking, whose marks are that clause's alone ("I live
    // in Leeds and don't like it" does not deny Leeds; "…and will move to Meta" plans nothing of Google).
    static const std::set<std::string, std::less<>> kSecondPredicate = {
        "is",      "am",       "are",      "was",     "has",      "have",      "had",     "don't",  "doesn't",
        "didn't",  "isn't",    "aren't",   "wasn't",  "won't",    "can't",     "haven't", "hasn't", "hadn't",
        "couldn't", "wouldn't", "shouldn't", "do",     "does",     "not",       "never",   "will",   "might",
        "may",     "should",   "must",     "used",    "wants",    "hopes",     "plans",   "likes",  "loves",
        "hates",   "enjoys",   "still",    "also",    "just",     "work",      "works",   "worked", "live",
        "lives",   "lived",    "commute",  "commutes", "drive",   "drives",    "study",   "studies", "teach",
        "teaches", "travel",   "travels",  "spend",   "spends",   "need",      "needs",   "prefer", "prefers",
        "own",     "owns",     "moved",    "started", "joined",   "quit",      "stay",    "stays"};
    if (joint == " and " && (kSecondPredicate.count(word) > 0 || VerbStartsAt(lex, low, w, end))) {
      return joint.size();
    }
    if (word == "the" || word == "it" || word == "it's" || word == "its" || word == "there" || word == "this" ||
        word == "that") {
      if (FiniteVerbWithin(low, e, end, 5)) return joint.size();  // "…to eu-central-1 and the old stack was torn down"
    }
  }
  return 0;
}

// True when one of the next `words` words of `low` from `i` is a form of be, have or will ("the old
// region's stack was torn down"): the words before it are a clause's subject, not a value's end.
bool FiniteVerbWithin(std::string_view low, size_t i, size_t end, int words) {
  static const std::set<std::string, std::less<>> kFinite = {"is", "was", "are", "were", "has", "had", "have",
                                                            "will", "got", "gets", "isn't", "wasn't", "went"};
  for (int n = 0; n < words && i < end; ++n) {
    i = SkipSpaces(low, i, end);
    size_t e = i;
    while (e < end && (IsWordByteAt(low, e) || low[e] == '\'')) ++e;
    if (e == i) return false;
    if (kFinite.count(low.substr(i, e - i)) > 0) return true;
    i = e;
  }
  return false;
}

// The length of a colon at `i` (": " or "：") that ends a clause of its own rather than a label
// ("Data residency won in the end: payments has been migrated", not "Note: …" nor "补录：…", which
// ClauseReader::BodyStart skips): at least four words (English) or nine characters (Chinese) since
// `start`, and in English a form of be, have or will in the six words after it; 0 otherwise, and in
// a correction, whose label says what the rest corrects.
size_t ColonAfterAClause(std::string_view content, size_t start, size_t i, size_t end, bool correction) {
  if (correction) return 0;
  size_t len = 0;
  if (content[i] == ':' && i + 1 < end && content[i + 1] == ' ') len = 1;
  if (StartsWithAt(content, i, "：")) len = 3;
  if (len == 0) return 0;
  const std::string_view before = content.substr(start, i - start);
  if (len == 3) return before.size() >= 27 ? len : 0;
  size_t words = 0;
  for (size_t k = 0; k < before.size(); ++k) {
    if (IsWordByteAt(before, k) && (k == 0 || !IsWordByteAt(before, k - 1))) ++words;
  }
  // What follows is a clause too: a form of be, have or will within six words ("…: the billing
  // service has been moved"; not "I just moved to a new city: Halifax", "My dream: working at Google").
  return words >= 4 && FiniteVerbWithin(LowerBytes(content.substr(0, end)), i + len, end, 6) ? len : 0;
}

// In a correction sentence, the comma at `i` ends the corrected statement when a correction marker
// and then a copula with its value stand before it and no contrast follows ("我说错了，生日是 6 月
// 18 号，派对要改一下" ends before 派对; "Actually it's Tuesday, not Monday", "不对，是上海" and a
// correction marker after the comma keep it).
bool CorrectionSaidBefore(const Lexicon& lex, std::string_view low, size_t start, size_t i, size_t after) {
  std::string_view next = low.substr(after);
  while (!next.empty() && next.front() == ' ') next.remove_prefix(1);
  for (std::string_view contrast : {"not ", "不是", "而不是", "rather than", "instead of"}) {
    if (next.substr(0, contrast.size()) == contrast) return false;
  }
  if (!lex.FindMarkers(next, "correction").empty()) return false;  // "…is on the 21st, I misread it"
  if (!next.empty() && next.front() >= '0' && next.front() <= '9') return false;  // "March 3, 1990": one value
  const std::string before(low.substr(start, i - start));
  std::vector<PhraseHit> hits = lex.FindMarkers(before, "correction");
  if (hits.empty()) return false;
  const std::string_view rest = std::string_view(before).substr(hits.back().end);
  for (std::string_view copula : {"是", " is ", "'s ", " was "}) {
    const size_t at = rest.find(copula);
    if (at != std::string_view::npos && at + copula.size() < rest.size()) return true;
  }
  return false;
}

// Where the one spaced dash of `sentence` stands (" — ", " – ", " - "), or npos when it has none,
// a pair, or a tail of a word or two ("Took the plunge — home is Valencia now" is two clauses;
// "I moved — finally — to Leeds" and "I moved to the Austin branch — not!" are one).
size_t LoneDash(std::string_view content, Span sentence) {
  size_t found = std::string_view::npos;
  for (size_t i = sentence.begin; i + 2 < sentence.end; ++i) {
    if (content[i] != ' ') continue;
    for (std::string_view dash : {" \xE2\x80\x94 ", " \xE2\x80\x93 ", " - "}) {
      if (StartsWithAt(content, i, dash) && i + dash.size() <= sentence.end) {
        if (found != std::string_view::npos) return std::string_view::npos;
        found = i;
      }
    }
  }
  if (found == std::string_view::npos) return found;
  // A tail of a word or two is no clause of its own ("I moved to the Austin branch — not!").
  std::string_view tail = content.substr(found, sentence.end - found);
  size_t words = 0;
  for (size_t i = 1; i < tail.size(); ++i) words += tail[i] != ' ' && tail[i - 1] == ' ';
  return words > 3 ? found : std::string_view::npos;
}

// True when a word of `value` is a function word (text/stopwords.h: "like", "a", "of"): a value of
// an appointment is a title of content words ("kitchen manager", 部门经理).
bool HoldsFunctionWord(std::string_view value) {
  size_t i = 0;
  while (i < value.size()) {
    while (i < value.size() && value[i] == ' ') ++i;
    size_t j = i;
    while (j < value.size() && value[j] != ' ') ++j;
    if (j > i && text::IsFunctionTerm(LowerAsciiBytes(std::string(value.substr(i, j - i))))) return true;
    i = j;
  }
  return false;
}

// True when `content` between two clauses, [from, to), holds no punctuation: they were cut at a
// bare joint ("I nearly quit and joined Google"), not at a comma or a semicolon.
bool BareJoint(std::string_view content, size_t from, size_t to) {
  if (to < from) return false;
  const std::string_view gap = content.substr(from, to - from);
  return gap.find_first_of(",;:") == std::string_view::npos && gap.find("，") == std::string_view::npos &&
         gap.find("；") == std::string_view::npos;
}

// Clause separators: ；; always, one spaced dash (LoneDash), " because " ("pinned to React 17
// because nobody wants to rewrite the tests" is no plan), ，, unless the sentence is a correction
// ("Actually Tuesday, not Monday" is one clause) whose corrected statement goes on
// (CorrectionSaidBefore).
std::vector<Span> SplitClauses(const Lexicon& lex, std::string_view content, std::string_view low, Span sentence,
                               bool keep_commas) {
  std::vector<Span> out;
  size_t start = sentence.begin;
  auto cut = [&](size_t at, size_t len) {
    if (at > start) out.push_back({start, at});
    start = at + len;
  };
  const size_t dash = LoneDash(content, sentence);
  for (size_t i = sentence.begin; i < sentence.end;) {
    if (!keep_commas && i > start && StartsWithAt(low, i, " because ")) {  // a reason has markers of its own
      cut(i, 9);
      i += 9;
    } else if (!keep_commas && dash != std::string_view::npos && i == dash) {
      const size_t len = content.find(' ', i + 1) - i;
      cut(i, len);
      i += len;
    } else if (StartsWithAt(content, i, "；")) {
      cut(i, 3);
      i += 3;
    } else if (content[i] == ';') {
      cut(i, 1);
      ++i;
    } else if (StartsWithAt(content, i, "，") &&
               (!keep_commas || CorrectionSaidBefore(lex, low, start, i, i + 3))) {
      cut(i, 3);
      i += 3;
    } else if (content[i] == ',' && i + 1 < sentence.end && content[i + 1] == ' ' &&
               (!keep_commas || CorrectionSaidBefore(lex, low, start, i, i + 1))) {
      cut(i, 1);
      ++i;
    } else if (size_t colon = ColonAfterAClause(content, start, i, sentence.end, keep_commas); colon > 0) {
      cut(i, colon);
      i += colon;
    } else if (size_t len = JointBeforeSubject(lex, content, low, i, sentence.end); len > 0) {
      cut(i, len);
      i += len;
    } else {
      ++i;
    }
  }
  if (sentence.end > start) out.push_back({start, sentence.end});
  return out;
}

// ---- the reader of one clause -------------------------------------------------------------------

struct Subject {
  FrameSubject kind = FrameSubject::kSpeaker;
  std::string name;
  bool resolved = false;  // said (a pronoun, a name, an identifier), not carried or defaulted
  bool unresolvable = false;
  bool carried = true;    // the next clause may go on about it (not a thing before a copula)
  bool weak = false;      // a part's name ("worker service"): a subject carried from before wins
  bool owned = false;     // a thing the speaker named as theirs ("my car", "我的航班")
  bool thing = false;     // a thing, never a person: "the VPN", "API" (an acronym)
  size_t end = 0;         // where the subject phrase ends
  size_t role_end = std::string::npos;  // "As a nurse at Mercy, I…": where the role the clause opens with ends
  std::string owner;      // the relative whose thing it is ("my dad" of "my dad's place"), or ""
};

// True when the clause `low` corrects what was said (markers.tsv `correction`): "actually" only
// where it opens the clause, but for fillers ("No wait, actually it's Braga"); elsewhere it is
// emphasis far more often ("commute is actually better", "I'm actually a big fan").
bool SaysACorrection(std::string_view low) {
  static constexpr std::string_view kFillers[] = {"no", "wait", "oh", "oops", "sorry", "ok", "okay", "so", "um", "uh",
                                                  "well", "and", "but", "ah", "hmm", "nope"};
  for (const PhraseHit& hit : Lexicon::Get().FindMarkers(low, "correction")) {
    if (hit.phrase != "actually") return true;
    bool opens = true;
    const std::string_view before = low.substr(0, hit.begin);
    size_t i = 0;
    while (opens && i < before.size()) {
      while (i < before.size() && !std::isalpha(static_cast<unsigned char>(before[i]))) ++i;
      size_t end = i;
      while (end < before.size() && std::isalpha(static_cast<unsigned char>(before[end]))) ++end;
      if (end > i) {
        opens = std::find(std::begin(kFillers), std::end(kFillers), before.substr(i, end - i)) != std::end(kFillers);
      }
      i = end;
    }
    if (opens) return true;
  }
  return false;
}

// True when `label` (lower-cased) holds a copula ("is", "are", "was", "were", 是): a clause, not a label.
bool SaysACopula(std::string_view label) {
  if (label.find("是") != std::string_view::npos) return true;
  for (std::string_view copula : {" is", " are", " was", " were"}) {
    for (size_t at = label.find(copula); at != std::string_view::npos; at = label.find(copula, at + 1)) {
      const size_t end = at + copula.size();
      if (end == label.size() || !std::isalpha(static_cast<unsigned char>(label[end]))) return true;
    }
  }
  return false;
}

// True when `text` is a numeral or demonstrative and a classifier alone (一家, 这所, 两个): a place
// that a verb after it describes (在一家做新能源车的创业公司当产品负责人: 一家 is no employer, 做 no job).
bool OnlyAClassifier(std::string_view text) {
  static constexpr std::string_view kFirst[] = {"一", "两", "几", "这", "那", "某", "每"};
  static constexpr std::string_view kSecond[] = {"家", "所", "个", "间", "座", "处"};
  if (text.size() != 6) return false;
  return std::find(std::begin(kFirst), std::end(kFirst), text.substr(0, 3)) != std::end(kFirst) &&
         std::find(std::begin(kSecond), std::end(kSecond), text.substr(3)) != std::end(kSecond);
}

// True when `low` sets a value against another: ", not ", "而不是", "不是", " rather than ".
bool SaysAContrast(std::string_view low) {
  for (std::string_view contrast : {", not ", " not the ", "不是", " rather than ", " instead of "}) {
    if (low.find(contrast) != std::string_view::npos) return true;
  }
  return false;
}

class ClauseReader {
 public:
  ClauseReader(std::string_view content, std::string_view low, Span clause, const std::vector<Span>& times,
               const Lexicon& lex)
      : s_(content), low_(low), clause_(clause), times_(times), lex_(lex) {}

  // kind, markers and the start of the clause proper (after a label such as "补录：").
  void ReadKind(bool sentence_is_question) {
    std::string_view text = low_.substr(clause_.begin, clause_.end - clause_.begin);
    if (sentence_is_question || !lex_.FindMarkers(text, "question").empty()) {
      kind_ = ClauseKind::kQuestion;
      return;
    }
    static constexpr std::pair<std::string_view, ClauseKind> kOrder[] = {
        {"hypothetical", ClauseKind::kHypothetical}, {"quotation", ClauseKind::kQuotation},
        {"requirement", ClauseKind::kRequirement},   {"plan", ClauseKind::kPlan},
        {"uncertain", ClauseKind::kPlan},  // "we might move standup to 11": a hedge changes nothing yet
        {"past", ClauseKind::kPast}};
    correction_ = SaysACorrection(text);
    // "for a while", 暂时; and a state bounded by a short span ("for a few days", 这几天).
    temporary_ = !lex_.FindMarkers(text, "temporary").empty() || !lex_.FindMarkers(text, "bounded").empty();
    ended_ = !lex_.FindMarkers(text, "ended").empty();
    usual_ = !lex_.FindMarkers(text, "usual").empty();
    for (const auto& [name, kind] : kOrder) {
      if (name == "uncertain" ? Hedged(text) : HasMarkerOutsideNouns(text, name)) {
        kind_ = kind;
        hedged_ = name == "uncertain";
        return;
      }
    }
    std::vector<PhraseHit> changes = lex_.FindMarkers(text, "change");
    if (correction_ || ended_ || !changes.empty()) affirmed_kind_ = ClauseKind::kChange;
    std::vector<PhraseHit> denials = lex_.FindMarkers(text, "negated");
    std::erase_if(denials, [&](const PhraseHit& hit) {  // "not long ago", "not too long ago": a time
      return hit.phrase == "not" && VagueAgoAt(text.substr(hit.begin)) == 0;
    });
    if (!correction_ && !ended_ && !denials.empty()) {
      kind_ = ClauseKind::kNegated;
      denial_begin_ = clause_.begin + denials.front().begin;
      for (const PhraseHit& hit : denials) denial_begin_ = std::min(denial_begin_, clause_.begin + hit.begin);
      return;
    }
    if (!changes.empty() && NegationBefore(text, changes.front().begin)) {
      kind_ = ClauseKind::kNegated;  // 还没升到 7.2, "we haven't bumped it": no change happened
      return;
    }
    kind_ = affirmed_kind_;
  }

  // A denial said only after the frame's value denies another verb, of a clause the splitter did
  // not cut: "since I moved out to Jersey City in March my old policy doesn't cover the flat", "I
  // work at Google but don't love it". English and Chinese put a denial before the verb it denies
  // ("I don't live in", "never lived in", 不住在, 没搬到), so the frame keeps the kind the clause
  // has without it.
  void ScopeDenial(FactFrame* f) const {
    if (f->kind == ClauseKind::kNegated && !f->negated && denial_begin_ >= f->value_end && f->value_end > 0 &&
        SubjectBetween(f->value_end, denial_begin_)) {
      f->kind = value_verb_changes_ ? ClauseKind::kChange : affirmed_kind_;
    }
  }

  // True when the words right before the denial at `to` (past adverbs and auxiliaries, after `from`)
  // end a subject of another verb: a noun or a pronoun other than the speaker's ("my old policy
  // apparently doesn't", "the landlord won't", "it doesn't"), or in Chinese 他, 她, 它, 我的, 这, 那
  // anywhere between. "I moved to Halifax but never lived there" and "…and haven't lived there
  // since" have none: the denial is the speaker's, of the same fact.
  bool SubjectBetween(size_t from, size_t to) const {
    for (std::string_view han : {"他", "她", "它", "我的", "那", "这"}) {
      if (low_.substr(from, to - from).find(han) != std::string_view::npos) return true;
    }
    static const std::set<std::string, std::less<>> kSkipped = {
        "apparently", "actually", "just", "really", "still", "even", "also", "probably", "do", "does", "did", "have",
        "has", "had", "is", "was", "are", "were", "will", "would", "can", "could", "should", "just", "honestly"};
    static const std::set<std::string, std::less<>> kSameSubject = {"i", "we", "but", "and", "so", "yet", "or", "then",
                                                                    "i've", "we've", "i'd", "we'd", "i'm", "we're"};
    std::vector<Token> tokens = AsciiTokens(s_, from, to);
    while (!tokens.empty()) {
      const std::string w = LowerBytes(s_.substr(tokens.back().begin, tokens.back().end - tokens.back().begin));
      if (kSkipped.count(w) > 0) {
        tokens.pop_back();
        continue;
      }
      return kSameSubject.count(w) == 0;
    }
    return false;
  }

  // An attribute word in `low` that is not part of a noun of `marker_noun` ("birthday" in
  // "birthday party", 生日 in 生日会: the party is a thing, not the speaker's birthday).
  bool HasAttributeWordOutsideNouns(std::string_view low) const {
    const std::vector<PhraseHit> nouns = lex_.FindMarkers(low, "marker_noun");
    for (const PhraseHit& hit : lex_.FindAttributeWords(low)) {
      if (std::none_of(nouns.begin(), nouns.end(), [&](const PhraseHit& n) { return n.begin <= hit.begin && hit.end <= n.end; })) {
        return true;
      }
    }
    return false;
  }

  // A hedge of the lexicon's `uncertain` markers that no negation denies ("might", "考虑"; not
  // "我不考虑了").
  bool Hedged(std::string_view text) const {
    for (const PhraseHit& hit : lex_.FindMarkers(text, "uncertain")) {
      if (!NegationBefore(text, hit.begin)) return true;
    }
    return false;
  }

  // A marker of `kind` in `text` that is not part of a noun of the lexicon's `marker_noun` list
  // (the plan marker 会是 in "周会是周三": 周会 is the weekly meeting).
  bool HasMarkerOutsideNouns(std::string_view text, std::string_view kind) const {
    const std::vector<PhraseHit> nouns = lex_.FindMarkers(text, "marker_noun");
    for (const PhraseHit& hit : lex_.FindMarkers(text, kind)) {
      const bool in_noun = std::any_of(nouns.begin(), nouns.end(), [&](const PhraseHit& n) {
        return n.begin < hit.end && hit.begin < n.end;
      });
      if (!in_noun && !(kind == "quotation" && correction_ && SpeakersOwnWords(text, hit))) return true;
    }
    return false;
  }

  // True when the quotation marker `hit` of `text` is the speaker's own earlier words, which a
  // correction takes back ("Correction on what I said before: standup is at 10:15"): "said" or
  // "told" right after "i" or "we".
  static bool SpeakersOwnWords(std::string_view text, const PhraseHit& hit) {
    if (!hit.phrase.starts_with("said") && !hit.phrase.starts_with("told")) return false;
    std::string_view before = text.substr(0, hit.begin);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    return before == "i" || before == "we" || before.ends_with(" i") || before.ends_with(" we") ||
           before.ends_with(":i") || before.ends_with(",i");
  }

  // A negation right before `at` in the lowered clause `text`: 没, 没有, 未, 不 (Chinese), "not",
  // "never", a word in -n't (English).
  static bool NegationBefore(std::string_view text, size_t at) {
    std::string_view before = text.substr(0, at);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    for (std::string_view no : {"没", "没有", "未", "不"}) {
      if (before.ends_with(no)) return true;
    }
    size_t b = before.size();
    while (b > 0 && (IsWordByteAt(before, b - 1) || before[b - 1] == '\'')) --b;
    std::string_view word = before.substr(b);
    return word == "not" || word == "never" || word.ends_with("n't");
  }

  // The clause says the value a correction said just before it names ("I gave you the wrong plate.
  // It's KJ7-4402"): a correction, unless it is no statement of fact.
  void TakeCorrection() {
    if (kind_ != ClauseKind::kFact && kind_ != ClauseKind::kChange) return;
    correction_ = true;
    kind_ = ClauseKind::kChange;
  }

  ClauseKind kind() const { return kind_; }
  // The clause is a plan only because it hedges ("Probably not, I live in Denver": the next
  // clause is not hedged by it).
  bool hedged() const { return hedged_; }
  bool correction() const { return correction_; }
  // "According to the wiki, X is on v3.0": a clause with no kind of its own takes the kind of the
  // sentence's earlier clause when that is a report, a plan, a requirement or a narrated past.
  void Inherit(ClauseKind earlier) {
    if (kind_ != ClauseKind::kFact) return;
    // "我以前住在天通苑，现在住在回龙观": a clause that says "now" is no longer the past.
    if (earlier == ClauseKind::kPast && !lex_.FindMarkers(low_.substr(clause_.begin, clause_.end - clause_.begin), "now").empty()) {
      return;
    }
    kind_ = earlier;
  }

  // Skips a leading label ("补录：", "事实记录：", "Note:"): text before the first colon with no
  // identifier in it, at most 27 bytes — kLongLabel when it opens with "correction" or 更正 and
  // holds no copula, whose label says what the rest corrects ("Correction on the landlord thing: it's
  // Gary Pembleton", "更正一下刚才说的航班：是CA1853"; not "Correction, my new number is: …"); a colon
  // between digits is a time's ("at 9:30").
  size_t BodyStart() const {
    static constexpr size_t kLabel = 27, kLongLabel = 64;
    size_t b = SkipSpaces(s_, clause_.begin, clause_.end);
    const bool corrects = StartsWithAt(low_, b, "correction") || StartsWithAt(low_, b, "更正");
    size_t limit = std::min(clause_.end, b + (corrects ? kLongLabel : kLabel));
    for (size_t i = b; i < limit; ++i) {
      size_t len = s_[i] == ':' ? 1 : StartsWithAt(s_, i, "：") ? 3 : 0;
      if (len == 0) continue;
      if (i > b + kLabel && SaysACopula(low_.substr(b, i - b))) return b;  // "Correction, my new number is: …"
      if (len == 1 && i > b && i + 1 < clause_.end && IsDigit(s_[i - 1]) && IsDigit(s_[i + 1])) continue;  // "at 9:30"
      for (const Token& t : AsciiTokens(s_, b, i)) {
        if (IsIdentifier(s_.substr(t.begin, t.end - t.begin))) return b;
      }
      return SkipSpaces(s_, i + len, clause_.end);
    }
    return b;
  }

  // Who the clause is about, looked for in this order: a speaker pronoun, a possessive ("my
  // home", "my husband", "my sister Mei"), a pronoun of the person named before, a Chinese
  // speaker or relative (我, 我丈夫), an identifier anywhere ("component-00", "把 counter-05"), a
  // capitalised name followed by a verb ("Priya works at"), a short noun phrase before a copula
  // ("the staging cluster is", "checkout-svc is"). Unresolved: the caller carries the subject of
  // the previous clause, or takes the speaker for a subject-less clause.
  Subject ReadSubject(size_t body, const FrameContext& ctx) {
    Subject subject = FindSubject(body, ctx);
    if (const size_t verb = SpeakerObjectVerbAt(body); verb != std::string::npos) {
      subject = Subject{};  // "They promoted me to kitchen manager", 领导提拔我当了部门经理: the speaker's
      subject.resolved = true;
      subject.end = verb;
    }
    owned_thing_ = subject.owned;
    role_end_ = subject.role_end;
    subject_thing_ = subject.thing;
    return subject;
  }

 private:
  // Where a verb of verbs.tsv flagged speaker_object ("promoted me to", 提拔我当) with a word of
  // an occupation after it begins in the clause after `body`, or std::string::npos ("Their
  // encouragement made me who I am" is no appointment). A denial before it in the clause ("never", "no
  // one", 没) makes the clause kNegated; in Chinese a verb of wanting or a modal (想, 要, 会, 打算,
  // 准备, 可能, 希望: 他们想提拔我当护士长, 领导说要任命我为护士长) makes it kPlan.
  size_t SpeakerObjectVerbAt(size_t body) {
    static constexpr std::string_view kDenials[] = {"没", "不"};
    static constexpr std::string_view kNotYet[] = {"想", "要", "会", "打算", "准备", "可能", "希望"};
    const std::string_view text = low_.substr(body, clause_.end - body);
    auto holds = [](std::string_view before, const auto& words) {
      return std::any_of(std::begin(words), std::end(words), [&](std::string_view w) { return before.find(w) != std::string_view::npos; });
    };
    for (const PhraseHit& hit : lex_.FindVerbs(text)) {
      const VerbEntry* verb = lex_.Verb(hit.phrase);
      if (verb == nullptr || !verb->speaker_object) continue;
      const Span rest = TrimValue({body + hit.end, clause_.end});  // a title follows, or the clause is another's
      if (lex_.FindMarkers(low_.substr(rest.begin, rest.end - rest.begin), "occupation").empty()) continue;
      const std::string_view before = text.substr(0, hit.begin);
      if (lex_.HasMarker(before, "negated") || FindWord(before, "no one") != std::string::npos ||
          FindWord(before, "nobody") != std::string::npos || holds(before, kDenials)) {
        kind_ = ClauseKind::kNegated;
      } else if (holds(before, kNotYet) && kind_ != ClauseKind::kNegated) {
        kind_ = ClauseKind::kPlan;
      }
      speaker_object_ = true;
      return body + hit.begin;
    }
    return std::string::npos;
  }

  // Where the clause embedded after a verb of `embeds` at `at` begins (past "that"), when that
  // clause opens with a subject other than the speaker — a pronoun or a capitalised name: "I think
  // he lives", "I heard Sam moved", "I think my sister lives" (hers). nullopt otherwise ("I think
  // I'll stay", "I know Python").
  std::optional<size_t> EmbeddedClauseAt(size_t at) const {
    const size_t i = SkipSpaces(s_, at, clause_.end);
    std::vector<PhraseHit> verbs = lex_.FindMarkers(low_.substr(i, clause_.end - i), "embeds");
    if (verbs.empty() || verbs.front().begin != 0) return std::nullopt;
    size_t next = SkipSpaces(s_, i + verbs.front().end, clause_.end), e = 0;
    std::string w = WordAt(low_, next, clause_.end, &e);
    if (w == "that") {
      next = SkipSpaces(s_, e, clause_.end);
      w = WordAt(low_, next, clause_.end, &e);
    }
    static const std::set<std::string, std::less<>> kOthers = {"he", "she", "they", "he's", "she's", "they're", "his", "her", "their"};
    const bool name = next < clause_.end && IsCapitalAt(s_, next) && w != "i" && w != "i'm" &&
                      LooksLikeName(next, w, false, FunctionWords());
    if (kOthers.count(w) == 0 && !name && w != "my" && w != "our") return std::nullopt;  // "I think my sister…"
    return next;
  }

  // True when the word at `at` opens an object or a complement of a verb before it: a determiner,
  // a possessive or a preposition ("Started my…", "Moved to…").
  bool ObjectFollows(size_t at) const {
    static const std::set<std::string, std::less<>> kOpeners = {
        "my", "our", "the", "a", "an", "his", "her", "their", "to", "at", "up", "out", "on", "in", "into",
        "with", "for", "off", "over", "back", "from", "some", "two", "three"};
    size_t e = 0;
    return kOpeners.count(WordAt(low_, SkipSpaces(s_, at, clause_.end), clause_.end, &e)) > 0;
  }

  Subject FindSubject(size_t body, const FrameContext& ctx) const {
    const size_t i = SkipLeadingTimes(SkipDiscourse(body));
    size_t e = 0;
    std::string w = WordAt(low_, i, clause_.end, &e);
    if (StartsWithAt(s_, i, "I\xE2\x80\x99")) w = "i'm";  // I’m, I’ve
    if (SpeakerWords().count(w) > 0) {
      // "I think he lives in Edinburgh", "I heard she moved to Leeds": the clause after the verb
      // has a subject of its own, whose the fact is (markers `embeds`).
      if (std::optional<size_t> embedded = EmbeddedClauseAt(e)) return FindSubject(*embedded, ctx);
      return Resolved(FrameSubject::kSpeaker, "", e);
    }
    if (w == "my" || w == "our") return PossessiveSubject(i, e);
    if (std::optional<Subject> gerund = GerundOpener(w, e)) return *gerund;
    if (w == "since" || w == "after" || w == "because" || w == "once") {  // "Since my parents started…": theirs
      const size_t n = SkipSpaces(s_, e, clause_.end);
      size_t ne = 0;
      if (n < clause_.end && n > i && !WordAt(low_, n, clause_.end, &ne).ends_with("ing")) return FindSubject(n, ctx);
    }
    if (std::optional<Subject> role = RoleOpener(w, e)) return *role;
    if (PronounWords().count(w) > 0 && !ctx.person.empty()) {
      if (!GenderAgrees(w, ctx.person)) return Unresolvable(i);  // "My sister met a guy. He lives in Rome."
      return Resolved(ctx.person_kind, ctx.person, e);
    }
    if (PronounWords().count(w) > 0 && !ctx.sentence_person.empty()) {
      return Resolved(FrameSubject::kNamed, ctx.sentence_person, e);
    }
    if (UnresolvedWords().count(w) > 0) return Unresolvable(i);
    if (std::optional<Subject> kin = OwnKin(i)) return *kin;
    if (std::optional<Subject> zh = ChineseSubject(i, ctx)) return *zh;
    if (std::optional<Subject> thing = ThingNamed(i, clause_.end)) return *thing;
    // "Started my new job at Stripe on Monday": chat that leaves out "I" opens with the verb, no
    // name (statement_topics.h OpensWithAPastVerb), when a word that opens its object or
    // complement follows ("Jared works at Google", "Led Zeppelin is…" are names: an adversarial
    // review).
    if (i < clause_.end && OpensWithAPastVerb(s_.substr(i, clause_.end - i)) && ObjectFollows(e)) {
      Subject unresolved;
      unresolved.end = i;
      return unresolved;
    }
    std::vector<PhraseHit> values = ValuesIn(i, clause_.end);
    const bool opens_value = !values.empty() && values.front().begin == 0;
    if (std::optional<Subject> name = NameSubject(i, w, e, opens_value)) return *name;
    if (std::optional<Subject> name = ContractedNameSubject(i, w, e)) return *name;
    if (std::optional<Subject> np = NounPhraseSubject(i, w, e, opens_value)) return *np;
    Subject unresolved;
    unresolved.end = i;
    return unresolved;
  }

 public:
  // A thing's English name without a last word that only says what kind of thing it is
  // ("payments service" → "payments", "the API service" → "API"): facets whose state attribute
  // is service_health. A Chinese compound keeps it (订单服务: 订单 alone is the orders), and so
  // does a name that is nothing else.
  // The subject is then a thing, never a person ("Payments service is down": Payments).
  void NameTheThing(Subject* subject) {
    subject->name = PurposeFirst(subject->name);
    // 推荐系统下午恢复了: a time of day after a Chinese name says when, not which thing.
    for (std::string_view when : {"上午", "下午", "中午", "晚上", "早上", "今早", "今晚", "今天", "昨天", "昨晚", "刚才", "凌晨", "半夜"}) {
      if (subject->name.size() > when.size() + 3 && subject->name.ends_with(when) &&
          static_cast<unsigned char>(subject->name[0]) >= 0x80) {
        subject->name.resize(subject->name.size() - when.size());
        break;
      }
    }
    const std::string& name = subject->name;
    for (const PhraseHit& hit : lex_.FindFacets(LowerBytes(name))) {
      const Facet* facet = lex_.FacetNoun(hit.phrase);
      if (facet == nullptr || facet->state_attribute != "service_health" || hit.end != name.size()) continue;
      if (hit.begin < 2 || name[hit.begin - 1] != ' ' || static_cast<unsigned char>(name[0]) >= 0x80) return;
      subject->name = std::string(rules::SpanText(name, rules::TrimSpan(name, {0, hit.begin})));
      subject->thing = true;
      subject_thing_ = true;
      return;
    }
  }

  // The facets named in [from, to): {"deployment", "blue"} for "blue 部署", {"instance",
  // "node-a"} for "实例 node-a". `subject` is not a facet name of its own ("component-03 服务").
  void ReadFacets(size_t from, size_t to, const std::string& subject) {
    if (to <= from) return;
    for (const PhraseHit& hit : lex_.FindFacets(low_.substr(from, to - from))) {
      const Facet* facet = lex_.FacetNoun(hit.phrase);
      if (facet == nullptr) continue;
      size_t b = from + hit.begin, e = from + hit.end;
      if (ProductVersion({b, NumberEnd(e)})) continue;  // "uses Node 18": a product, no facet
      std::string before = NameBefore(b, from);
      if (before.empty()) before = ChineseEnvironmentBefore(b, from);  // 测试环境
      if (!before.empty() && LowerBytes(subject) == before + hit.phrase) {  // 测试环境挂了: the subject itself
        subject_facet_ = std::pair<std::string, std::string>{facet->qualifier, before};
        subject_facet_of_ = subject;
        continue;
      }
      std::string name = before;
      if (name.empty() || name == LowerBytes(subject)) name = NameAfter(e, to);
      if (name.empty() || name == LowerBytes(subject)) {
        // "payments service is down", "订单服务挂了": the noun is the thing's own, whose state is
        // one with "payments is down" (NameTheThing drops the noun from the name).
        if (!facet->state_attribute.empty() && before != LowerBytes(subject)) facet_attribute_ = facet->state_attribute;
        if (!before.empty() && before == LowerBytes(subject)) {
          subject_facet_ = std::pair<std::string, std::string>{facet->qualifier, before};
          subject_facet_of_ = subject;
        }
        continue;
      }
      coordinates_.push_back({facet->qualifier, name});
      if (!facet->state_attribute.empty()) facet_attribute_ = facet->state_attribute;
    }
  }

  // Reads attribute and value from [from, clause end); false when no value was found. The value
  // is looked for in this order: a change that names both values, a word of a value set, a version
  // number, after an attribute-bearing verb, after an attribute word and a copula, after a named
  // thing's bare copula.
  // A thing given a new value by a verb of the lexicon's markers, whoever the clause says acted
  // (the verb's kind names the attribute):
  // * `reschedule`: moved to another time — "Standup moved to 10:15", "The client pushed the
  //   project deadline back to April 10", "周会改到周四"; the value is a time (TimeValue: "moved
  //   to Austin" and "bumped it to 10" are not times); the thing's `when`.
  // * `relocate`: moved to another place or host — "We migrated orders-api over to eu-west-2",
  //   "网关迁到北京机房了"; the thing's `location`.
  // * `placed`: where a thing is — "the staging Redis lives on cache-stg-01", "用户中心部署在阿里云
  //   华北2"; its `location`, as a fact.
  // * `rename`: renamed — "I renamed the home wifi to Otter-Den"; its `name`.
  // * `named`: what a thing is called — "Home wifi is called BlueFox-5G", "WiFi名字叫…"; its
  //   `name`, as a fact.
  // English verbs of the kinds said with a preposition (reschedule, relocate, rename) take the
  // value after to/until/for/onto/into (the thing is the object between, else what stands before
  // the verb); the others, and the Chinese ones (which end in 到/在/成/叫), take it right after the
  // marker. A thing is a short noun phrase that is no person, pronoun or adverb
  // (IsRescheduledThing: "I moved to Porto" is the speaker's, read elsewhere). False when the clause
  // is not one.
  bool ReadThingValue(size_t body, FactFrame* f) const {
    if (HouseholdAt(body) > body) return false;  // 全家搬到青岛了: the speaker's household, no thing
    std::string_view rest = low_.substr(body, clause_.end - body);
    for (std::string_view kind : {"reschedule", "relocate", "placed", "rename", "named", "resize", "counted"}) {
      for (const PhraseHit& hit : lex_.FindMarkers(rest, kind)) {
        if (ReadThingValueAt(kind, body, body + hit.begin, body + hit.end, f)) return true;
      }
    }
    return false;
  }

  // A home of the speaker's in a place: "my apartment in Toronto has terrible water pressure",
  // "our flat in Hackney", "we rent a two-bed in Austin", "we closed on a house in Denver", "signed
  // a lease in Denver": the speaker lives in the place. The home (markers `home_noun`) is the
  // speaker's ("my", "our"; "new" makes it a change) or rented or got by them (markers `home_held`:
  // rent; `home_acquired`: closed on, signed, moved into — a change; not "bought", "found" or "own":
  // investments, holiday homes, venues and games, in an adversarial review), and "in" and a
  // capitalised name follow it. Not a home left ("sold our house in Ohio", "moved out of my
  // apartment in Midtown", "my old flat"), another's ("my parents' house in Hull"), one for a use
  // or a season, or a past ("…in Maine is only for summers": HomeStillHeld), nor a lower-case place
  // ("my place in line").
  bool ReadHomePlace(size_t body, FactFrame* f) const {
    const std::string_view rest = low_.substr(body, clause_.end - body);
    for (const PhraseHit& hit : lex_.FindMarkers(rest, "home_noun")) {
      std::optional<Span> place = PlaceAfterIn(body + hit.end);
      if (!place) continue;
      std::vector<std::string> before = WordsBefore(body + hit.begin, 12);
      bool change = !before.empty() && before.back() == "new";
      if (change) before.pop_back();
      if (before.empty()) continue;
      const std::string owner = before.back();
      if (!HomeStillHeld(place->end)) continue;  // "Our place in Maine is only for summers"
      if (owner.size() > 2 && owner.ends_with("'s")) {  // "Priya's new place in Perth", "my sister's flat in Leeds"
        if (!OthersHome(body + hit.begin, before, f)) continue;
      } else if (owner == "my" || owner == "our") {
        static const std::set<std::string, std::less<>> kLeft = {"sold", "selling", "listed", "left", "leaving", "out",
                                                                 "vacated", "visit", "visiting", "old", "former", "previous"};
        if (std::any_of(before.begin(), before.end(), [](const std::string& w) { return kLeft.count(w) > 0; })) continue;
        if (LowerBytes(rules::SpanText(s_, {body + hit.begin, body + hit.end})) == "lease") continue;
      } else {
        if (owner != "a" && owner != "an" && owner != "the") continue;
        before.pop_back();
        const size_t acquired = MarkerWordsAtEnd(before, "home_acquired");
        const size_t held = acquired > 0 ? 0 : MarkerWordsAtEnd(before, "home_held");
        if (acquired + held == 0) continue;
        before.resize(before.size() - acquired - held);
        if (!SaidByTheSpeaker(before)) continue;  // "my best mate just bought a flat in Aberdeen"
        change |= acquired > 0;
      }
      if (!owner.ends_with("'s")) {
        f->subject_kind = FrameSubject::kSpeaker;
        f->subject.clear();
      }
      f->attribute = "lives_in";
      f->value = Text(*place);
      f->value_begin = place->begin;
      f->value_end = place->end;
      if (change && (f->kind == ClauseKind::kFact || (f->kind == ClauseKind::kPast && PastOnlyDates()))) {
        f->kind = ClauseKind::kChange;
      }
      return true;
    }
    return false;
  }

  // The owner of a home noun at `noun` said by a possessive (`before`: the words before the noun,
  // "new" taken off, the last "<owner>'s"): a capitalised name ("Priya's new place in Perth") or a
  // person through the speaker ("my sister's flat in Leeds"), either opening the clause, made the
  // subject of `f`; false for anyone else, a home left, sold or visited ("Priya's old flat in
  // Perth", "I visited my mum's house in Derby").
  bool OthersHome(size_t noun, const std::vector<std::string>& before, FactFrame* f) const {
    static const std::set<std::string, std::less<>> kLeft = {"sold", "selling", "left", "leaving", "visit",
                                                             "visiting", "old", "former", "previous"};
    if (std::any_of(before.begin(), before.end(), [](const std::string& w) { return kLeft.count(w) > 0; })) return false;
    size_t e = noun;
    while (e > clause_.begin && s_[e - 1] == ' ') --e;
    if (StartsWithAt(low_, e >= 3 ? e - 3 : e, "new")) {  // "Priya's new place"
      e -= 3;
      while (e > clause_.begin && s_[e - 1] == ' ') --e;
    }
    if (e < clause_.begin + 3 || s_.compare(e - 2, 2, "'s") != 0) return false;
    const size_t name_end = e - 2;
    size_t b = name_end;
    while (b > clause_.begin && IsWordByteAt(s_, b - 1)) --b;
    if (b == name_end) return false;
    const std::string name = std::string(low_.substr(b, name_end - b));
    if (before.size() == 2 && before[0] == "my" && lex_.IsRelation(name)) {  // not "I visited my mum's house in Derby"
      f->subject_kind = FrameSubject::kRelative;
      f->subject = "my " + name;
      return true;
    }
    if (before.size() >= 2 || !IsCapitalAt(s_, b) || !LooksLikeName(b, name, false, FunctionWords())) return false;
    f->subject_kind = FrameSubject::kNamed;
    f->subject = std::string(s_.substr(b, name_end - b));
    return true;
  }

  // True when every past marker of the clause is a "back in" that dates it within the year ("we
  // moved to Denver back in May": a change, dated); "back in college I was a barista" and "back in
  // 2010 I moved to Bristol for uni" narrate the past.
  bool PastOnlyDates() const {
    const std::string_view text = low_.substr(clause_.begin, clause_.end - clause_.begin);
    const std::vector<PhraseHit> past = lex_.FindMarkers(text, "past");
    return !past.empty() && std::all_of(past.begin(), past.end(), [&](const PhraseHit& hit) {
      const size_t after = SkipSpaces(s_, clause_.begin + hit.end, clause_.end);
      return hit.phrase == "back in" && std::any_of(times_.begin(), times_.end(), [&](const Span& t) {
               const std::string_view time = s_.substr(t.begin, t.end - t.begin);
               const bool year = std::adjacent_find(time.begin(), time.end(), [](char a, char b) {
                                   return IsDigit(a) && IsDigit(b);
                                 }) != time.end();
               return t.begin == after && !year;
             });
    });
  }

  // True when the words after a home's place leave it the speaker's home now: not a use, a season
  // or a past ("…in Maine is only for summers", "…in Florida for the winters", "…in Bali as an
  // investment", "…in Paris was amazing").
  bool HomeStillHeld(size_t place_end) const {
    static const std::set<std::string, std::less<>> kNotHome = {"for", "every", "as", "where", "only", "when", "during",
                                                                "until", "till", "was", "were", "had", "used"};
    size_t e = 0;
    for (size_t i = SkipSpaces(s_, place_end, clause_.end); i < clause_.end; i = SkipSpaces(s_, e, clause_.end)) {
      const std::string w = WordAt(low_, i, clause_.end, &e);
      if (e == i) {
        ++e;
        continue;
      }
      if (kNotHome.count(w) > 0) return false;
    }
    return true;
  }

  // The capitalised name after "in" (and "the") at `at`: "in Toronto", "in the Cotswolds".
  std::optional<Span> PlaceAfterIn(size_t at) const {
    size_t e = 0;
    if (WordAt(low_, SkipSpaces(s_, at, clause_.end), clause_.end, &e) != "in") return std::nullopt;
    size_t name = SkipSpaces(s_, e, clause_.end);
    if (StartsWithAt(low_, name, "the ")) name = SkipSpaces(s_, name + 4, clause_.end);
    size_t end = name;
    for (const Token& t : AsciiTokens(s_, name, clause_.end)) {
      if (t.begin != SkipSpaces(s_, end, clause_.end) || !IsCapitalAt(s_, t.begin)) break;
      end = t.end;
    }
    if (end == name || IsAcronym(Text({name, end}))) return std::nullopt;
    return Span{name, end};
  }

  // Up to `n` lowered words of the clause right before `at`, in order.
  std::vector<std::string> WordsBefore(size_t at, int n) const {
    std::vector<std::string> out;
    size_t i = at;
    while (static_cast<int>(out.size()) < n) {
      while (i > clause_.begin && s_[i - 1] == ' ') --i;
      size_t b = i;
      while (b > clause_.begin && (IsWordByteAt(s_, b - 1) || s_[b - 1] == '\'' || s_[b - 1] == '-')) --b;
      if (b == i) break;
      out.insert(out.begin(), std::string(low_.substr(b, i - b)));
      i = b;
    }
    return out;
  }

  // How many of the last words of `words` make a marker of `kind` (the longest), or 0.
  size_t MarkerWordsAtEnd(const std::vector<std::string>& words, std::string_view kind) const {
    for (size_t n = std::min<size_t>(words.size(), 5); n > 0; --n) {
      std::string phrase;
      for (size_t k = words.size() - n; k < words.size(); ++k) phrase += (phrase.empty() ? "" : " ") + words[k];
      const std::vector<PhraseHit> hits = lex_.FindMarkers(phrase, kind);
      if (!hits.empty() && hits.front().begin == 0 && hits.front().end == phrase.size()) return n;
    }
    return 0;
  }

  // True when the words before a verb leave the speaker its subject: none, or "I", "we" and
  // adverbs ("we just", "finally", "I've also").
  static bool SaidByTheSpeaker(const std::vector<std::string>& words) {
    static const std::set<std::string, std::less<>> kSpeaker = {
        "i", "we", "i've", "we've", "i'd", "we'd", "have", "had", "and", "so", "but", "then", "just", "finally",
        "also", "recently", "already", "actually", "officially", "now", "ok", "okay", "well", "update"};
    return std::all_of(words.begin(), words.end(),
                       [](const std::string& w) { return kSpeaker.count(w) > 0 || (w.size() > 4 && w.ends_with("ly")); });
  }

  // True when the clause says before `verb` that its act was only attempted or nearly happened
  // (change_statement.h, AttemptMarkers: "I almost jumped ship to Meta", 差点搬去厦门) with no
  // outcome word between ("I almost stayed but moved to Leipzig", "…，最后还是搬到了深圳":
  // AttemptOutcomeAt), or goes on from such a clause (CarryAttempt).
  bool AttemptBefore(size_t verb) const {
    const std::string_view before = low_.substr(clause_.begin, verb - clause_.begin);
    auto no_outcome_after = [&](size_t from) { return AttemptOutcomeAt(before, from) == std::string_view::npos; };
    if (attempt_carried_ && no_outcome_after(0)) return true;
    const std::vector<PhraseHit> hits = AttemptMarkers(low_.substr(clause_.begin, clause_.end - clause_.begin));
    return std::any_of(hits.begin(), hits.end(),
                       [&](const PhraseHit& hit) { return hit.end <= before.size() && no_outcome_after(hit.end); });
  }

  // The speaker is the subject as the object of a verb of appointment ("They promoted me to…").
  bool speaker_object() const { return speaker_object_; }

  // The clause goes on from one that said an attempt, joined by a bare "and" with no subject of its
  // own ("I nearly quit and joined Google"); a clause after a comma is an act of its own ("tried to
  // make Vim work for me, gave up and switched to VS Code").
  void CarryAttempt() { attempt_carried_ = true; }

  // True when the clause holds an attempt marker (AttemptMarkers) with no outcome word after it.
  bool SaysAnAttempt() const {
    const std::string_view clause = low_.substr(clause_.begin, clause_.end - clause_.begin);
    const std::vector<PhraseHit> hits = AttemptMarkers(clause);
    return std::any_of(hits.begin(), hits.end(), [&](const PhraseHit& hit) {
      return AttemptOutcomeAt(clause, hit.end) == std::string_view::npos;
    });
  }

  // A Chinese aspect particle (了, 过, 着) at `at`: the verb before it is an act.
  bool AspectParticleAt(size_t at) const {
    for (std::string_view p : {"了", "过", "着"}) {
      if (StartsWithAt(s_, at, p)) return true;
    }
    return false;
  }

  // `thing` less a Chinese word of discourse it ends with (markers.tsv `discourse`: 网关终于, 服务已经).
  Span WithoutTrailingDiscourse(Span thing) const {
    const std::string_view text = low_.substr(thing.begin, thing.end - thing.begin);
    for (const PhraseHit& hit : lex_.FindMarkers(text, "discourse")) {
      if (hit.begin > 0 && thing.begin + hit.end == thing.end && static_cast<unsigned char>(text[hit.begin]) >= 0x80) {
        return rules::TrimSpan(s_, {thing.begin, thing.begin + hit.begin});
      }
    }
    return thing;
  }

  // `thing` less a Chinese word of discourse it opens with (不过家搬到了…: 家; 另外网关…: 网关).
  Span WithoutLeadingDiscourse(Span thing) const {
    const size_t end = MarkerEndAt(thing.begin, "discourse");
    if (end <= thing.begin || end >= thing.end || static_cast<unsigned char>(s_[thing.begin]) < 0x80) return thing;
    return rules::TrimSpan(s_, {end, thing.end});
  }

  // ReadThingValue for the marker of `kind` at [verb_begin, verb_end).
  bool ReadThingValueAt(std::string_view kind, size_t body, size_t verb_begin, size_t verb_end, FactFrame* f) const {
    if (kind == "named" && AspectParticleAt(verb_end)) return false;  // 闹钟叫了三次, 狗叫了一晚上: 叫 acts
    const bool with_preposition = kind == "reschedule" || kind == "relocate" || kind == "rename" || kind == "resize";
    Span object{verb_end, verb_end};
    size_t value_from = verb_end;
    if (static_cast<unsigned char>(s_[verb_end - 1]) < 0x80 && with_preposition) {
      size_t prep_end = std::string::npos;
      for (size_t i = SkipSpaces(s_, verb_end, clause_.end); i < clause_.end; i = SkipSpaces(s_, i, clause_.end)) {
        size_t e = 0;
        const std::string w = WordAt(low_, i, clause_.end, &e);
        if (e <= i) {  // a hyphen or other mark inside the object ("orders-api")
          ++i;
          continue;
        }
        const bool prep = kind == "reschedule" ? (w == "to" || w == "until" || w == "till" || w == "for")
                                               : (w == "to" || w == "onto" || w == "into");
        if (prep) {
          object = Span{verb_end, i};
          prep_end = e;
          break;
        }
        i = e;
      }
      if (prep_end == std::string::npos) return false;
      object = CutAtWord(rules::TrimSpan(s_, object), {"off", "from", "away"});  // "moved the docs site off Netlify and onto"
      object = StripTrailingWords(rules::TrimSpan(s_, object), {"back", "forward", "up", "down", "out", "ahead", "over", "again"});
      object = StripLeadingWords(object, {"back", "forward", "up", "out", "ahead", "over", "off"});  // "pushed back the launch"
      value_from = prep_end;
    }
    if (NounBefore(verb_begin)) return false;  // "there's a delay until 3pm", "the night shift for Friday"
      // An attempt is no change, an opinion no fact: "We almost migrated…", "tried to migrate…", "Bob
    // thinks the docs site is hosted on Vercel". (Read here, not as clause kinds: in conversation
    // "I tried to…" and "I think…" mostly open what is said, and as kinds they cost LoCoMo's facts.)
    if (AttemptBefore(verb_begin)) return false;
    const std::string_view before = low_.substr(clause_.begin, verb_begin - clause_.begin);
    bool opinion = false;
    for (std::string_view report : {"thinks", "believes", "reckons", "suggested", "suggests", "claims", "heard"}) {
      opinion = opinion || FindWord(before, report) != std::string::npos;
    }
    std::optional<Span> value;
    std::string attribute, slot;
    if (kind == "reschedule") {
      value = TimeValue({value_from, clause_.end});
      attribute = "when";
    } else if (kind == "resize" || kind == "counted") {
      value = CountValue({value_from, clause_.end}, &slot);
      attribute = "count";
    } else {
      value = NameValue({value_from, clause_.end});
      attribute = kind == "relocate" || kind == "placed" ? "location" : "name";
    }
    if (!value || (kind == "named" && OpensWithChinesePronoun(*value))) return false;
    Span thing = object.empty() ? ThingBeforeVerb(body, verb_begin) : object;
    if (object.empty() && IsAuxiliary(LowerBytes(Text(thing)))) return false;  // "…and is moving to Berlin": no thing named
    for (std::string_view opener : {"since", "ever", "after", "before", "when", "while", "until"}) {
      size_t e = 0;  // "Ever since moving to Austin": whoever moved, no thing
      if (object.empty() && WordAt(low_, SkipSpaces(s_, thing.begin, thing.end), thing.end, &e) == opener) return false;
    }
    if (object.empty() && (HoldsVerbOrJoint(thing) || HoldsKindMarker(thing))) {
      return false;  // "Dana packed up and moved to Porto": Dana's; "Thinking about maybe moving to Seattle": the speaker's
    }
    thing = StripLeadingWords(rules::TrimSpan(s_, thing), {"the", "our", "my", "a", "an", "this", "that", "their", "his", "her", "your"});
    for (std::string_view ours : {"我们的", "咱们的", "我的", "我们", "咱们"}) {  // 我们的网站部署在…: the speaker's 网站
      if (StartsWithAt(s_, thing.begin, ours) && thing.size() > ours.size()) {
        thing.begin += ours.size();
        break;
      }
    }
    thing = rules::TrimSpan(s_, rules::CutTimes(s_, thing, times_));  // "搜索服务昨天迁到了…"
    thing = WithoutLeadingDiscourse(WithoutTrailingDiscourse(thing));  // 网关终于迁到了…: 网关
    for (std::string_view has : {"'s", "\xE2\x80\x99s"}) {  // "the repo's moved to GitLab": the repo has
      if (Text(thing).ends_with(has) && thing.size() > has.size()) thing.end -= has.size();
    }
    if (!IsRescheduledThing(thing) || (kind != "reschedule" && MayBePerson(thing))) return false;
    for (std::string_view all : {"全部", "全都", "整体", "统一", "都", "所有", "一切", "家", "全家", "一家人"}) {
      // 全部迁到飞书文档了: what the speaker moved, not a thing named 全部; 我们家搬到…: the household
      if (Text(thing) == all) return false;
    }
    if (IsDigit(s_[thing.begin]) || s_[thing.begin] == '$' || MarkerEndAt(thing.begin, "discourse") >= thing.end ||
        MarkerEndAt(thing.begin, "recurring") >= thing.end ||  // 周末搬到杭州了: when, no thing
        MarkerEndAt(thing.begin, "now") >= thing.end || MarkerEndAt(thing.begin, "past") > thing.begin) {
      return false;  // "transferred $500 to savings", "当前部署在…", "当时部署在…" (then, not now)
    }
    f->subject_kind = FrameSubject::kNamed;
    f->subject = ThingKey(thing);
    f->attribute = attribute;
    f->slot = slot;
    f->value_begin = value->begin;
    f->value_end = value->end;
    f->value = Text(*value);
    if (f->kind == ClauseKind::kFact && kind != "placed" && kind != "named" && kind != "counted") {
      f->kind = ClauseKind::kChange;
    }
    if (opinion && (f->kind == ClauseKind::kFact || f->kind == ClauseKind::kChange)) f->kind = ClauseKind::kQuotation;
    return true;
  }

  // The name of a thing as a key: lower case, its purpose or destination first (PurposeFirst).
  std::string ThingKey(Span thing) const { return PurposeFirst(LowerBytes(Text(thing))); }

  // An English thing's name with a purpose or destination after its head moved before it, as
  // people also say it: "Postgres cluster for billing" is "billing Postgres cluster", "flight to
  // Rome" is "Rome flight" (one or two words after a single "for" or "to", two words or fewer
  // before it). Other names are returned as they are.
  static std::string PurposeFirst(const std::string& name) {
    const std::string low = LowerBytes(name);
    for (std::string_view joint : {"for", "to"}) {
      const size_t at = FindWord(low, joint);
      if (at == std::string::npos || at == 0) continue;
      if (at + joint.size() + 1 >= name.size()) return name;  // "the one I go to": nothing after it
      const std::string head = name.substr(0, at - 1), tail = name.substr(at + joint.size() + 1);
      if (tail.empty() || std::count(tail.begin(), tail.end(), ' ') > 1 || std::count(head.begin(), head.end(), ' ') > 1 ||
          FindWord(LowerBytes(tail), "for") != std::string::npos || FindWord(LowerBytes(tail), "to") != std::string::npos) {
        return name;
      }
      return tail + " " + head;
    }
    return name;
  }

  // A count of a thing's units right at `raw`'s start: a number and the noun it counts ("5 replicas
  // after the spike" → "5 replicas", slot "replica"; "4 GB of RAM" → slot "gb"). The noun, lower
  // case and without a plural "s", is the slot: a thing has one count of each unit.
  std::optional<Span> CountValue(Span raw, std::string* unit) const {
    size_t i = SkipSpaces(s_, raw.begin, raw.end);
    size_t n = i;
    while (n < raw.end && (IsDigit(s_[n]) || s_[n] == '.' || s_[n] == ',')) ++n;
    if (n == i || !IsDigit(s_[i])) return std::nullopt;
    size_t e = 0;
    std::string noun = WordAt(low_, SkipSpaces(s_, n, raw.end), raw.end, &e);
    static const std::set<std::string, std::less<>> kNotUnits = {
        "over", "in", "on", "at", "by", "for", "from", "to", "after", "before", "since", "this", "last", "next", "and",
        "or", "per", "of", "with", "now", "today", "am", "pm", "percent", "times", "more", "less", "again", "so",
        "across", "into", "onto", "under", "via", "as", "within", "throughout", "everywhere", "instead", "already",
        "yesterday", "tonight", "tomorrow"};
    if (noun.empty() || IsDigit(noun[0]) || FunctionWords().count(noun) > 0 || kNotUnits.count(noun) > 0 ||
        rules::CutTimes(s_, Span{i, e}, times_).size() < e - i) {
      return std::nullopt;  // "to 16 over the weekend", "at 3pm", "for 2 weeks"
    }
    if (noun.size() > 3 && noun.ends_with("s") && !noun.ends_with("ss")) noun.pop_back();
    static const std::set<std::string, std::less<>> kSpans = {"second", "minute", "hour", "day", "week", "month",
                                                              "year", "decade", "time", "kid", "child", "house"};
    if (kSpans.count(noun) > 0) return std::nullopt;  // "has 2 weeks left", "has 10 years of experience": no count of a thing
    size_t of_end = 0;  // "16 GB of RAM": the RAM's count, not every GB's
    if (WordAt(low_, SkipSpaces(s_, e, raw.end), raw.end, &of_end) == "of") {
      size_t what_end = 0;
      const std::string what = WordAt(low_, SkipSpaces(s_, of_end, raw.end), raw.end, &what_end);
      if (!what.empty() && FunctionWords().count(what) == 0 && !IsDigit(what[0])) noun = what;
    }
    *unit = noun;
    return Span{i, e};
  }

  // A marker of a clause's kind inside a phrase taken as a thing ("thinking about maybe", "不打算"):
  // it says how the clause is meant, and names no thing.
  bool HoldsKindMarker(Span thing) const {
    std::string_view text = low_.substr(thing.begin, thing.size());
    for (std::string_view kind : {"uncertain", "plan", "hypothetical", "negated", "past", "quotation", "requirement"}) {
      if (!lex_.FindMarkers(text, kind).empty()) return true;
    }
    return false;
  }

  // A verb form or a joint inside a phrase taken as a thing: it is a clause, not a noun phrase.
  bool HoldsVerbOrJoint(Span thing) const {
    for (const Token& t : AsciiTokens(s_, thing.begin, thing.end)) {
      const std::string w = LowerBytes(s_.substr(t.begin, t.end - t.begin));
      const bool inside_name = t.begin > 0 && s_[t.begin - 1] == '-';  // "seed-funded"
      if (w == "and" || w == "but" || w == "then" || w == "so" || (s_[t.begin] >= 'a' && !inside_name && IsVerbForm(w))) {
        return true;
      }
    }
    return false;
  }

  // A value that says a time, though TimeValue did not read it: a digit first (not an identifier
  // or an address: "10 tomorrow", "11"), a word of the calendar or the day ("Thursday afternoon",
  // "Wednesdays", "Q3", "the week after"), or a Chinese time at its start (下午三点).
  bool LooksLikeTime(Span value) const {
    std::string_view text = rules::SpanText(s_, value);
    if (IsDigit(text[0])) {
      const std::string_view first = text.substr(0, text.find(' '));
      if (!IsIdentifier(first) && std::count(first.begin(), first.end(), '.') != 3) return true;
    }
    if (HanTimeEnd(value.begin, value.end) > value.begin) return true;
    static const std::set<std::string, std::less<>> kTimeWords = {
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mondays", "tuesdays",
        "wednesdays", "thursdays", "fridays", "saturdays", "sundays", "morning", "afternoon", "evening", "night",
        "noon", "midnight", "week", "weekend", "month", "year", "quarter", "q1", "q2", "q3", "q4", "am", "pm",
        "january", "february", "march", "april", "june", "july", "august", "september", "october", "november",
        "december", "spring", "summer", "fall", "autumn", "winter", "today", "tomorrow", "later", "earlier"};
    for (const Token& t : AsciiTokens(s_, value.begin, value.end)) {
      if (kTimeWords.count(LowerBytes(s_.substr(t.begin, t.end - t.begin))) > 0) return true;
    }
    return false;
  }

  // A place or a name is said of people too ("my dad lives on Elm Street", "Jamie moved to
  // Oakwood", "小王搬到苏州"): a relative (relations.tsv), a familiar Chinese name, or one
  // capitalised word, may be one.
  bool MayBePerson(Span thing) const {
    thing = WithoutPossessive(thing);
    if (NamedAsPerson(thing)) return true;
    std::vector<Token> tokens = AsciiTokens(s_, thing.begin, thing.end);
    bool all_capitalised = !tokens.empty();
    for (const Token& t : tokens) {
      const std::string_view w = s_.substr(t.begin, t.end - t.begin);
      all_capitalised = all_capitalised && IsCapitalAt(w, 0) && !IsIdentifier(w) && !IsAcronym(w) &&
                        std::none_of(w.begin(), w.end(), [](char c) { return IsDigit(c); });
    }
    // "Jamie", "Sam Lee", "The Hendersons": names of people as often as of things.
    return all_capitalised && tokens.size() <= 3 && rules::SpanText(s_, thing).find('-') == std::string_view::npos;
  }

  // "Jake's" of "Jake's finally moved to Denver": Jake.
  Span WithoutPossessive(Span thing) const {
    for (std::string_view is : {"'s", "\xE2\x80\x99s"}) {
      if (rules::SpanText(s_, thing).ends_with(is) && thing.size() > is.size()) thing.end -= is.size();
    }
    return thing;
  }

  // A phrase that can only name people: a relative or colleague (relations.tsv: "my teammate Raj",
  // "同事小刘"), a familiar Chinese name, an occupation ("the lawyer", "李老师"), or a word of people
  // ("Dr", "my kids"). Not a capitalised name alone, which names things as often ("Jenkins").
  bool NamedAsPerson(Span thing) const {
    thing = WithoutPossessive(thing);
    std::string_view text = rules::SpanText(s_, thing);
    if (!lex_.RelationsIn(text).empty() || (thing.size() == 6 && ChineseNameSubject(thing.begin))) return true;
    if (EndsInOccupation(thing)) return true;  // "our landlord"? no; "the lawyer", "李老师", "our CEO"
    static const std::set<std::string, std::less<>> kPeople = {
        "dr", "mr", "mrs", "ms", "miss", "prof", "coach", "uncle", "aunt", "auntie", "landlord", "landlady", "kids",
        "children", "family", "parents", "folks", "neighbors", "neighbours", "everyone", "people", "guy", "guys",
        "patient", "hire", "client", "customer", "baby", "son", "daughter", "students"};
    for (const Token& t : AsciiTokens(s_, thing.begin, thing.end)) {
      if (kPeople.count(LowerBytes(s_.substr(t.begin, t.end - t.begin))) > 0) return true;
    }
    return false;
  }

  // `span` up to the first of `words` in it (whole words), trimmed.
  Span CutAtWord(Span span, std::initializer_list<std::string_view> words) const {
    std::string_view text = low_.substr(span.begin, span.size());
    size_t cut = text.size();
    for (std::string_view w : words) {
      size_t at = FindWord(text, w);
      if (at != std::string::npos) cut = std::min(cut, at);
    }
    return rules::TrimSpan(s_, {span.begin, span.begin + cut});
  }

  // A name as a thing's new place, host or name: what TrimValue leaves of [from, end), cut at a
  // comma, at most four words (or twelve Han characters), no time, no pronoun, no clause ("moved
  // to Friday": a time, read as `when`; "moved it to where we agreed": none).
  std::optional<Span> NameValue(Span raw) const {
    Span value = TrimValue(raw);
    if (value.empty()) return std::nullopt;
    std::string_view text = rules::SpanText(s_, value);
    for (std::string_view stop : {",", "，", "、", "；", ";", "以后", "之后", "的时候", "后来"}) {
      if (size_t at = text.find(stop); at != std::string_view::npos) value.end = std::min(value.end, value.begin + at);
    }
    value = CutAtWord(rules::TrimSpan(s_, value), {"by", "next", "this", "later", "soon", "tomorrow", "tonight"});
    if (value.empty() || LooksLikeTime(value)) return std::nullopt;  // "moved to Thursday afternoon": a time
    value = StripTrailingWords(rules::TrimSpan(s_, value), {"btw", "fyi", "lol", "though", "right", "anyway"});
    if (value.empty() || rules::CutTimes(s_, value, times_).size() < value.size() || OpensWithPronoun(value)) {
      return std::nullopt;
    }
    if (ProductVersion(value)) return std::nullopt;  // "切到Vue 3.4": a version, read as one
    for (const Token& t : AsciiTokens(s_, value.begin, value.end)) {
      std::string_view w = s_.substr(t.begin, t.end - t.begin);
      if (IsVersion(w) && std::count(w.begin(), w.end(), '.') != 3) return std::nullopt;  // not "10.0.3.22"
    }
    text = rules::SpanText(s_, value);
    // 挂在GitHub Pages上: 上 after a Latin name says "on" it, no part of the name.
    if (text.size() > 3 && text.ends_with("上") && static_cast<unsigned char>(text[text.size() - 4]) < 0x80) {
      value.end -= 3;
      text = rules::SpanText(s_, value);
    }
    const bool han = static_cast<unsigned char>(text[0]) >= 0x80;
    if (han ? text.size() > 36 : std::count(text.begin(), text.end(), ' ') > 3) return std::nullopt;
    for (const Token& t : AsciiTokens(s_, value.begin, value.end)) {
      const std::string w = LowerBytes(s_.substr(t.begin, t.end - t.begin));
      if (w == "where" || w == "what" || w == "which" || w == "it" || w == "them" || w == "there" || w == "here") {
        return std::nullopt;
      }
    }
    return value;
  }

  bool ReadValue(size_t from, FactFrame* f) {
    if (ReadAge(from, f)) return true;
    ValueReading r;
    r.from = from;
    r.rest = low_.substr(from, clause_.end - from);
    ValueOfChange(r, f);
    ValueOfSet(r, *f);
    ValueOfVersion(r);
    if (!ValueOfVerb(r)) return false;
    ValueOfPlaceAfterCopula(r, *f);
    ValueOfSwitch(r, *f);
    ValueOfAttributeWord(r);
    ValueOfOccupationOrName(r, *f);
    ValueOfNamedCopula(r, *f);
    ValueOfThingCopula(r, f);
    if (!r.value || r.value->empty()) return false;
    f->value_begin = r.value->begin;
    f->value_end = r.value->end;
    f->value = Text(*r.value);
    f->negated = ended_ || r.verb_negated || (r.verb != nullptr && r.verb->negated);
    value_verb_changes_ = (r.verb != nullptr && r.verb->change) || r.changes;
    if (value_verb_changes_ && (f->kind == ClauseKind::kFact || (f->kind == ClauseKind::kPast && PastOnlyDates()))) {
      f->kind = ClauseKind::kChange;  // 搬到, "we moved to Denver back in May"
    }
    if (f->kind == ClauseKind::kFact && !value_verb_changes_ && PastStateVerbAt(from, f->value_begin)) {
      f->kind = ClauseKind::kPast;  // "I lived in Boston", "I used Eclipse every day"
    }
    AttributeRef chosen = ChooseAttribute(r, *f);
    if (chosen.attribute.empty() && f->replaces.empty()) return false;
    if (chosen.attribute == "job") {
      const Span job = JobBeforePlace(*r.value);
      f->value_end = job.end;
      f->value = Text(job);
    }
    f->attribute = chosen.attribute;
    f->slot = chosen.slot;
    return true;
  }

  // A relative's age, said as the whole rest of the clause: "My daughter is seven", "my son just
  // turned 5" (a change), "Grandpa's 90 years old now", 我女儿今年七岁. The number is the value, as
  // the speaker's own age is read (rules_english.cc, rules_chinese.cc: "I'm 34", 我今年三十岁).
  bool ReadAge(size_t from, FactFrame* f) const {
    if (f->subject_kind != FrameSubject::kRelative || subject_thing_) return false;
    static const RE2 kEnglish(
        "^\\s*((?:(?:is|'s|just|now|already|has|recently|finally|turned)\\s+)*)"
        "(\\d{1,3}|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
        "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-[a-z]+)?)"
        "(?:\\s+(?:years?|yrs?)(?:\\s+old)?)?(?:\\s+(?:now|already|today|this year|last week|last month|yesterday))?"
        "\\s*[.!]*\\s*$");
    static const RE2 kChinese(
        "^\\s*(?:今年|现在|已经|刚|刚刚|都|快|马上|是|满)*(\\d{1,3}|[一二三四五六七八九十两]{1,3})周?岁(?:了|啦)?[\\s。！!.]*$");
    const std::string_view rest = low_.substr(from, clause_.end - from);
    std::string words, number;
    size_t at = 0;
    if (RE2::FullMatch(rest, kEnglish, &words, &number)) {
      if (words.find("is") == std::string::npos && words.find("'s") == std::string::npos &&
          words.find("turned") == std::string::npos) {
        return false;  // "my son 5": no copula, no birthday
      }
      if (words.find("turned") != std::string::npos && f->kind == ClauseKind::kFact) f->kind = ClauseKind::kChange;
    } else if (!RE2::FullMatch(rest, kChinese, &number)) {
      return false;
    }
    at = rest.find(number);
    if (at == std::string_view::npos) return false;
    f->value_begin = from + at;
    f->value_end = f->value_begin + number.size();
    f->value = Text({f->value_begin, f->value_end});
    f->attribute = "age";
    f->slot.clear();
    return true;
  }

  // A version of a product said of the speaker or of a thing that is not an identifier ("We
  // bumped the runtime to Python 3.12", "Our database is postgres 14", "把Redis升到7"): the
  // product is the subject and the number the value, so every later word about that product's
  // version finds the same slot. An identifier's version stays its own ("component-00 是 v1.1").
  // False when the frame's "version" is a measure run or used ("Been running 3.2 miles every
  // morning", "using 3.5 mm jacks"): no version, no frame.
  bool ProductAsSubject(FactFrame* f) const {
    if (f->attribute != "version" || (f->subject_kind == FrameSubject::kNamed && IsIdentifierName(f->subject))) return true;
    std::vector<Token> in_value = AsciiTokens(s_, f->value_begin, f->value_end);
    if (in_value.size() == 2 && RunsOrUses(in_value.front()) && !EndsItsPhrase(f->value_end)) return false;
    // "Flashed 2.1.0", "everything's been running 3.12": the version only (a verb of running or
    // using before the number names no product).
    if (in_value.size() > 1 && (OpensWithVerb(in_value.front()) || RunsOrUses(in_value.front()))) {
      in_value.erase(in_value.begin());
      f->value_begin = in_value.front().begin;
      f->value = Text({f->value_begin, f->value_end});
    }
    if (ProductVersion({f->value_begin, f->value_end})) {  // "postgres 14", "Spring Boot 3.2"
      const Token& number = in_value.back();
      SetProduct(f, {in_value.front().begin, in_value[in_value.size() - 2].end});
      f->value_begin = number.begin;
      f->value = Text({number.begin, f->value_end});
      return true;
    }
    if (in_value.size() != 1) return true;
    // A bare number names its product where the clause says what changed ("upgraded postgres to
    // 16", "把Redis升到7") or whose version it is ("Redis版本是6", "postgres version is 14").
    std::string_view head = low_.substr(clause_.begin, f->value_begin - clause_.begin);
    std::vector<PhraseHit> changes = lex_.FindMarkers(head, "change");
    std::vector<PhraseHit> words = lex_.FindAttributeWords(head);
    std::optional<Token> product;
    if (!changes.empty()) {
      const size_t marker_begin = clause_.begin + changes.front().begin, marker_end = clause_.begin + changes.front().end;
      product = LastProductToken(marker_end, f->value_begin);
      size_t ba = low_.substr(clause_.begin, marker_begin - clause_.begin).rfind("把");
      if (!product && ba != std::string_view::npos) product = LastProductToken(clause_.begin + ba + 3, marker_begin);
    }
    for (const PhraseHit& w : words) {
      if (!product && lex_.AttributeWord(w.phrase) != nullptr && lex_.AttributeWord(w.phrase)->attribute == "version") {
        product = LastProductToken(clause_.begin, clause_.begin + w.begin);
      }
    }
    if (product) SetProduct(f, *product);
    return true;
  }

  // True when the word after `end` (if any) ends a version's phrase: the clause's end, a word of
  // grammar or of time ("running 3.12 since the sprint", "using 3.12 now"); not a unit ("running 3.2
  // miles", "using 3.5 mm jacks").
  bool EndsItsPhrase(size_t end) const {
    static const std::set<std::string, std::less<>> kEnds = {
        "for", "in", "on", "at", "since", "now", "across", "and", "as", "with", "until", "today", "everywhere",
        "last", "this", "yesterday", "recently", "already", "so", "but", "because", "which", "after", "before",
        "during", "over", "everywhere", "too"};
    size_t after_end = 0;
    const std::string after = WordAt(low_, SkipSpaces(s_, end, clause_.end), clause_.end, &after_end);
    return after.empty() || kEnds.count(after) > 0;
  }

  // True when the lower-case token `t` is a form of "run" or "use" ("running 3.12", "using 3.12").
  bool RunsOrUses(const Token& t) const {
    static const std::set<std::string, std::less<>> kForms = {"run", "runs", "running", "ran", "use", "uses", "using"};
    return kForms.count(std::string(s_.substr(t.begin, t.end - t.begin))) > 0;
  }

  // The last token in [from, to) that can name a product: not a number, a function word, a
  // pronoun, a change marker or an attribute word.
  std::optional<Token> LastProductToken(size_t from, size_t to) const {
    static const std::set<std::string, std::less<>> kNotProducts = {"to", "from", "is", "at", "on", "of", "v",
                                                                    "over", "with", "now", "the"};
    std::vector<Token> tokens = AsciiTokens(s_, from, to);
    for (auto t = tokens.rbegin(); t != tokens.rend(); ++t) {
      std::string w = LowerBytes(s_.substr(t->begin, t->end - t->begin));
      if (IsDigit(w[0]) || FunctionWords().count(w) > 0 || SpeakerWords().count(w) > 0 || kNotProducts.count(w) > 0 ||
          !lex_.FindMarkers(w, "change").empty() || lex_.AttributeWord(w) != nullptr || OpensWithVerb(*t)) {
        continue;
      }
      return Token{ProductNameBegin(t->begin, from), t->end};  // "rolled back to Spring Boot 3.1"
    }
    return std::nullopt;
  }

  void SetProduct(FactFrame* f, const Token& product) const {
    f->subject_kind = FrameSubject::kNamed;
    f->subject = std::string(s_.substr(product.begin, product.end - product.begin));
  }

  // The job said beside an employer: "works at Org-O as role-R", "在腾讯做前端开发" — a second
  // frame of the same subject and kind; nullopt when none follows the employer.
  std::optional<FactFrame> JobBesideEmployer(const FactFrame& f) const {
    if (f.attribute != "employer") return std::nullopt;
    size_t i = SkipSpaces(s_, f.value_end, clause_.end);
    size_t e = 0;
    std::string w = WordAt(low_, i, clause_.end, &e);
    if (w == "as") {
      i = SkipSpaces(s_, e, clause_.end);
    } else if (StartsWithAt(s_, i, "做") || StartsWithAt(s_, i, "当") || StartsWithAt(s_, i, "干")) {
      i += 3;
      if (const size_t lasted = YearsEnd(i); lasted != std::string::npos) i = lasted;  // 做了两年运营
    } else {
      return std::nullopt;
    }
    for (std::string_view article : {"a ", "an ", "the "}) {
      if (StartsWithAt(low_, i, article)) i = SkipSpaces(s_, i + article.size(), clause_.end);
    }
    Span value = TrimValue({i, clause_.end});
    if (value.empty()) return std::nullopt;
    FactFrame job = f;
    job.attribute = "job";
    job.slot.clear();
    job.coordinates.clear();
    job.replaces.clear();
    job.value = Text(value);
    job.value_begin = value.begin;
    job.value_end = value.end;
    return job;
  }

  // A job title ends where a place or an employer is said ("a nurse in Chicago", "a nurse at Mercy
  // Hospital", "engineer on the platform team"): `job` up to its first at / in / on / with / for /
  // from after a word of its own ("head of growth" keeps its "of").
  Span JobBeforePlace(Span job) const {
    if (IsCapitalAt(s_, job.begin)) return job;  // "Teacher on Special Assignment"
    for (const Token& t : AsciiTokens(s_, job.begin, job.end)) {
      static const std::set<std::string, std::less<>> kPlaces = {"at", "in", "on", "with", "for", "from"};
      if (t.begin > job.begin && kPlaces.count(LowerBytes(s_.substr(t.begin, t.end - t.begin))) > 0) {
        return rules::TrimSpan(s_, {job.begin, t.begin});
      }
    }
    return job;
  }

  // The employer said after a job: "a staff engineer at Globex", "tech lead with Acme Corp" — a
  // second frame of the same subject and kind, the capitalised words after at/with/for; nullopt
  // when none follows the job.
  std::optional<FactFrame> EmployerBesideJob(const FactFrame& f) const {
    if (f.attribute != "job") return std::nullopt;
    size_t i = SkipSpaces(s_, f.value_end, clause_.end);
    size_t e = 0;
    const std::string w = WordAt(low_, i, clause_.end, &e);
    if (w != "at" && w != "with" && w != "for") return std::nullopt;
    i = SkipSpaces(s_, e, clause_.end);
    const bool the = StartsWithAt(low_, i, "the ");
    if (the) i = SkipSpaces(s_, i + 4, clause_.end);
    size_t end = i;
    size_t possessive_end = std::string::npos;  // past a name's own "'s": "St. Mary's Hospital"
    for (const Token& t : AsciiTokens(s_, i, clause_.end)) {  // "Globex", "St. Mary's Hospital", "Acme Corp"
      if (end > i && possessive_end == std::string::npos && ContractionAt(s_, end) > 0 &&
          t.end == end + ContractionAt(s_, end)) {
        possessive_end = t.end;
        continue;
      }
      size_t gap = possessive_end != std::string::npos ? possessive_end : end;
      while (gap < t.begin && (IsSpaceByte(s_[gap]) || s_[gap] == '.')) ++gap;
      if (gap != t.begin || !IsCapitalAt(s_, t.begin)) break;
      end = t.end;
      possessive_end = std::string::npos;
    }
    if (possessive_end != std::string::npos && rules::TrimSpan(s_, {possessive_end, clause_.end}).empty()) {
      end = possessive_end;  // "a cook at McDonald's"
    }
    if (end == i) return std::nullopt;  // "at the office", "for a while"
    size_t next = SkipSpaces(s_, end, clause_.end);
    if (size_t ne = 0; the && next < clause_.end && s_[next] >= 'a' && s_[next] <= 'z') {
      WordAt(low_, next, clause_.end, &ne);  // "at the York branch": the name and its noun
      if (rules::TrimSpan(s_, {ne, clause_.end}).empty()) end = next = ne;
    }
    if (next < clause_.end && s_[next] >= 'a' && s_[next] <= 'z') {  // "with React experience": a modifier
      size_t ne = 0;
      static const std::set<std::string, std::less<>> kAfterName = {"in", "on", "at", "since", "for", "and", "now",
                                                                    "but", "as", "from", "until", "these", "right"};
      if (kAfterName.count(WordAt(low_, next, clause_.end, &ne)) == 0) return std::nullopt;
    }
    FactFrame employer = f;
    employer.attribute = "employer";
    employer.slot.clear();
    employer.coordinates.clear();
    employer.replaces.clear();
    employer.value_begin = i;
    employer.value_end = end;
    employer.value = Text({i, end});
    return employer;
  }

  // Identity qualifiers that partition the attribute (lexicon), and a recurring time.
  void FinishCoordinates(FactFrame* f) {
    const AttributeInfo* info = lex_.Attribute(f->attribute);
    for (const auto& c : coordinates_) {
      if (info != nullptr && info->facets.count(c.first) > 0) f->coordinates.push_back(c);
    }
    if (subject_facet_ && f->subject != subject_facet_of_ && info != nullptr && info->facets.count(subject_facet_->first) > 0) {
      f->coordinates.push_back(*subject_facet_);  // 测试环境先升到 JDK 21: JDK's version in 测试
    }
    if (info != nullptr && info->facets.count("environment") > 0) EnglishEnvironment(f);
    std::string_view text = low_.substr(clause_.begin, clause_.end - clause_.begin);
    for (const PhraseHit& hit : lex_.FindMarkers(text, "recurring")) {
      if (AfterDeictic(text, hit.begin)) continue;  // "上周末", "this weekend": one time, not a recurrence
      // 周末把项目升到了 Vue 3.4: when it changed, said before the value ("周会改到周末了" names it).
      if (f->kind == ClauseKind::kChange && !SaysRecurrence(hit.phrase) && clause_.begin + hit.end <= f->value_begin) continue;
      f->coordinates.push_back({"when", hit.phrase});
    }
    std::sort(f->coordinates.begin(), f->coordinates.end());
    f->coordinates.erase(std::unique(f->coordinates.begin(), f->coordinates.end()), f->coordinates.end());
    f->temporary = temporary_;
    f->usual = usual_;
    f->correction = correction_;
  }

  // An English environment the clause names as a word of its own ("upgraded staging to Postgres
  // 16", "prod runs on Node 18"; markers `environment_name`), when no coordinate says one: the
  // frame's environment ("prod" is "production").
  void EnglishEnvironment(FactFrame* f) const {
    for (const auto& c : f->coordinates) {
      if (c.first == "environment") return;
    }
    std::string_view text = low_.substr(clause_.begin, clause_.end - clause_.begin);
    for (const PhraseHit& hit : lex_.FindMarkers(text, "environment_name")) {
      if (static_cast<unsigned char>(hit.phrase[0]) >= 0x80) continue;  // Chinese ones stand before 环境
      const bool word_begins = hit.begin == 0 || !IsWordByteAt(text, hit.begin - 1);
      const bool word_ends = hit.end == text.size() || !IsWordByteAt(text, hit.end);
      if (!word_begins || !word_ends) continue;
      const std::string name = hit.phrase == "prod" ? "production" : hit.phrase == "pre-prod" ? "preprod" : hit.phrase;
      f->coordinates.push_back({"environment", name});
      return;
    }
  }

  // A deictic word of the lexicon ends right before `at` in `text` ("上", "这", "last", "this").
  // True when a `recurring` marker says the recurrence itself ("every friday", "on fridays", 每周五),
  // not only a time that recurs (周末: "at the weekend", which a change happened at once).
  static bool SaysRecurrence(std::string_view phrase) {
    return phrase.starts_with("every ") || phrase.starts_with("on ") || phrase.starts_with("每");
  }

  bool AfterDeictic(std::string_view text, size_t at) const {
    std::string_view before = text.substr(0, at);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    for (const PhraseHit& hit : lex_.FindMarkers(before, "deictic")) {
      if (hit.end == before.size()) return true;
    }
    return false;
  }

  // An identifier between `from` and `to` ("upgrade auth-svc to v5.0"; not a verb with a prefix:
  // "re-enabled", "co-founded").
  std::optional<Subject> ThingNamed(size_t from, size_t to) const {
    for (const Token& t : AsciiTokens(s_, from, to)) {
      std::string_view tok = s_.substr(t.begin, t.end - t.begin);
      const bool verb = tok.find_first_of("0123456789") == std::string_view::npos && IsVerbForm(LowerBytes(tok));
      if (IsIdentifier(tok) && !IsFacetName(t) && !verb) return Resolved(FrameSubject::kNamed, std::string(tok), t.end);
    }
    return std::nullopt;
  }

  // The object of a change verb, when the speaker changed a thing ("We bumped the API to v3.2",
  // "Bumped the base image to python 3.12"): the noun phrase between the verb and "to".
  std::optional<Subject> ObjectOfChange(size_t from, size_t value_begin) const {
    std::string_view rest = low_.substr(from, value_begin - from);
    std::vector<PhraseHit> changes = lex_.FindMarkers(rest, "change");
    if (changes.empty()) return std::nullopt;
    size_t b = from + changes.front().end;
    size_t to = FindWord(low_.substr(b, value_begin - b), "to");
    if (to == std::string::npos) return std::nullopt;
    Span np = StripLeadingWords(rules::TrimSpan(s_, {b, b + to}), {"the", "our", "my", "a"});
    for (std::string_view particle : {" forward", " back", " up", " over"}) {  // "rolled everything forward to 1.29"
      if (np.size() > particle.size() && low_.substr(np.begin, np.size()).ends_with(particle)) np.end -= particle.size();
    }
    if (np.empty() || np.size() > 40) return std::nullopt;
    Subject object;
    object.kind = FrameSubject::kNamed;
    object.name = std::string(rules::SpanText(s_, np));
    object.resolved = true;
    object.end = b + to;
    return object;
  }

 private:
  // Discourse before the subject ("so", "honestly,", "sorry,", "说错了，", "现在"): the lexicon's
  // discourse and correction markers, and an adverb in -ly before a comma or a pronoun.
  size_t SkipDiscourse(size_t i) const {
    while (i < clause_.end) {
      size_t next = MarkerEndAt(i, "discourse");
      if (next == i) next = MarkerEndAt(i, "correction");
      if (next == i) next = LyAdverbEnd(i);
      if (next == i) break;
      i = SkipPunctuation(next);
    }
    return i;
  }

  // Past the times that open the clause before its subject ("Last month Tom joined Stripe",
  // "In March, my sister moved"), and the discourse words after them.
  size_t SkipLeadingTimes(size_t i) const {
    for (bool moved = true; moved;) {
      moved = false;
      for (const Span& t : times_) {
        if (t.begin != i || t.end <= i || t.end > clause_.end) continue;
        i = SkipDiscourse(SkipPunctuation(t.end));
        moved = true;
      }
    }
    return i;
  }

  // Where a marker of `kind` that starts at `i` ends, or `i`.
  size_t MarkerEndAt(size_t i, std::string_view kind) const {
    std::vector<PhraseHit> hits = lex_.FindMarkers(low_.substr(i, clause_.end - i), kind);
    return hits.empty() || hits.front().begin != 0 ? i : i + hits.front().end;
  }

  // "Honestly I've", "Frankly, ...": an -ly word followed by a comma or a speaker word.
  size_t LyAdverbEnd(size_t i) const {
    size_t e = 0;
    std::string w = WordAt(low_, i, clause_.end, &e);
    if (w.size() < 5 || !w.ends_with("ly")) return i;
    size_t n = SkipSpaces(s_, e, clause_.end);
    if (n < clause_.end && s_[n] == ',') return n;
    size_t ne = 0;
    std::string next = WordAt(low_, n, clause_.end, &ne);
    if (StartsWithAt(s_, n, "I\xE2\x80\x99")) next = "i'm";
    return SpeakerWords().count(next) > 0 || next == "my" || next == "our" ? n : i;
  }

  size_t SkipPunctuation(size_t i) const {
    for (;;) {
      i = SkipSpaces(s_, i, clause_.end);
      size_t len = 0;
      if (i < clause_.end && (s_[i] == ',' || s_[i] == ':' || s_[i] == '-')) len = 1;
      for (std::string_view p : {"，", "：", "—", "、"}) {
        if (StartsWithAt(s_, i, p)) len = p.size();
      }
      if (len == 0 || i + len > clause_.end) return i;
      i += len;
    }
  }

  static const std::set<std::string, std::less<>>& SpeakerWords() {
    static const std::set<std::string, std::less<>> kWords = {
        "i", "i'm", "i've", "i'd", "i'll", "im", "ive", "we", "we're", "we've", "we'll", "us", "me"};
    return kWords;
  }
  // False when `pronoun` (he, she, 他, 她 and their forms) cannot mean `person`: a kin word of the
  // other sex names them (markers `male_kin`, `female_kin`: "my sister" is no "he").
  bool GenderAgrees(std::string_view pronoun, const std::string& person) const {
    const bool male = pronoun.starts_with("he") || pronoun == "his" || pronoun == "他";
    const bool female = pronoun.starts_with("she") || pronoun == "her" || pronoun == "她";
    const std::string low = LowerBytes(person);
    if (male) return lex_.FindMarkers(low, "female_kin").empty();
    if (female) return lex_.FindMarkers(low, "male_kin").empty();
    return true;
  }

  static const std::set<std::string, std::less<>>& PronounWords() {
    static const std::set<std::string, std::less<>> kWords = {"he", "she", "he's", "she's", "his", "her"};
    return kWords;
  }
  // Pronouns and second persons that name someone the reader cannot resolve.
  static const std::set<std::string, std::less<>>& UnresolvedWords() {
    static const std::set<std::string, std::less<>> kWords = {"he", "she", "he's", "she's", "his", "her",
                                                              "they", "their", "you", "your", "you're"};
    return kWords;
  }
  static const std::set<std::string, std::less<>>& FunctionWords() {
    static const std::set<std::string, std::less<>> kWords = {
        "the", "a", "an", "this", "that", "it", "it's", "there", "these", "those", "what", "my", "our",
        "i", "we", "so", "and", "but", "then", "today", "yesterday", "actually", "also", "just", "been",
        "not", "no", "yes", "if", "when", "after", "before", "since", "because", "lately", "recently",
        "he", "she", "they", "you", "your", "his", "her", "their", "its"};
    return kWords;
  }

  // A kin word said bare at the start of a clause, which names the speaker's own relative ("Dad
  // traded in the Corolla", "舅舅退休以后搬回老家了"; markers `own_kin`): the relative, keyed as "my
  // dad" / "我舅舅" are (a bare 同事 or "Manager" stays whose-unknown). A capitalised English one
  // only ("dad jokes" is none).
  std::optional<Subject> OwnKin(size_t i) const {
    const size_t end = MarkerEndAt(i, "own_kin");
    if (end == i || (end < clause_.end && IsWordByteAt(s_, end))) return std::nullopt;
    size_t subject_end = end;
    if (const size_t is = ContractionAt(s_, end); is > 0) {  // "Mum's moved to Hove", not "Mum's car"
      if (!ContractionGoesOn(end + is)) {
        if (!IsCapitalAt(s_, i)) return std::nullopt;
        return RelativesThing(std::string(low_.substr(i, end - i)) + "'s ", end + is,
                              "my " + std::string(low_.substr(i, end - i)));  // "Mom's phone is a…"
      }
      subject_end = end + is;
    } else if (end < clause_.end && s_[end] == '\'') {
      return std::nullopt;
    }
    const bool han = static_cast<unsigned char>(s_[i]) >= 0x80;
    if (!han && (!IsCapitalAt(s_, i))) return std::nullopt;
    if (han && KinWordGoesOn(end)) return std::nullopt;  // 表弟媳
    return Resolved(FrameSubject::kRelative, han ? "我" + std::string(s_.substr(i, end - i)) : "my " + std::string(low_.substr(i, end - i)), subject_end);
  }

  // "my home" (the speaker's), "my husband" (a relative), "my sister's name", "my sister Mei" (Mei).
  Subject PossessiveSubject(size_t i, size_t e) const {
    size_t n = SkipSpaces(s_, e, clause_.end);
    size_t ne = 0;
    std::string noun = WordAt(low_, n, clause_.end, &ne);
    while (ne + 1 < clause_.end && s_[ne] == '-' && IsWordByteAt(s_, ne + 1)) {  // "in-laws", "mother-in-law"
      size_t more = 0;
      noun += "-" + WordAt(low_, ne + 1, clause_.end, &more);
      ne = more;
    }
    static const std::set<std::string, std::less<>> kBeforeKin = {"new", "current", "best", "older", "younger", "little",
                                                                  "big", "eldest", "oldest", "youngest", "twin", "ex"};
    if (kBeforeKin.count(noun) > 0) {  // "my new manager is Derek", "my best mate just bought a flat": a person
      size_t after_end = 0;
      const size_t after = SkipSpaces(s_, ne, clause_.end);
      std::string next = WordAt(low_, after, clause_.end, &after_end);
      if (lex_.IsRelation(next.ends_with("'s") ? next.substr(0, next.size() - 2) : next)) {
        noun = std::move(next);
        ne = after_end;
      }
    }
    size_t noun_end = ne;
    if (noun.size() > 2 && noun.ends_with("'s")) {
      noun.resize(noun.size() - 2);
      noun_end = ne - 2;
      if (lex_.IsRelation(noun)) {  // "my mom's car is a Honda Civic": the car, hers
        if (std::optional<Subject> theirs = RelativesThing(noun + "'s ", ne, std::string(s_.substr(i, noun_end - i)))) return *theirs;
      }
    }
    if (!lex_.IsRelation(noun)) {
      if (std::optional<Subject> thing = ThingBeforeCopula(n)) {  // "my flight is at 5pm"
        thing->owned = true;
        return *thing;
      }
      return Resolved(FrameSubject::kSpeaker, "", e);
    }
    size_t m = SkipSpaces(s_, ne, clause_.end);
    size_t me = 0;
    std::string name = WordAt(low_, m, clause_.end, &me);
    if (noun_end == ne && !name.empty() && IsCapitalAt(s_, m)) {
      return Resolved(FrameSubject::kNamed, std::string(s_.substr(m, me - m)), me);
    }
    return Resolved(FrameSubject::kRelative, std::string(s_.substr(i, noun_end - i)), ne);
  }

  // 我 / 我们 (the speaker), 我丈夫 / 我的朋友 (a relative), 他 / 她 (the person named before);
  // 你, 他 with no one named, a bare 同事 are unresolvable.
  std::optional<Subject> ChineseSubject(size_t i, const FrameContext& ctx) const {
    for (std::string_view zh : {"他们", "她们", "他", "她", "你"}) {
      if (StartsWithAt(s_, i, zh) && ctx.person.empty()) return Unresolvable(i);
    }
    for (size_t len = 12; len >= 3; len -= 3) {
      if (i + len <= clause_.end && lex_.IsRelation(s_.substr(i, len))) {
        if (std::optional<Subject> named = NameAfterRelation(i + len)) return *named;  // 同事老王住在回龙观: 老王
        return Unresolvable(i);  // 同事住在上海: whose?
      }
    }
    for (std::string_view zh : {"我们", "咱们", "我"}) {
      if (!StartsWithAt(s_, i, zh)) continue;
      size_t after = i + zh.size();
      if (StartsWithAt(s_, after, "的")) after += 3;
      for (size_t len = 12; len >= 3; len -= 3) {  // the longer word first: 我大学同学, 我男朋友, 我妹妹
        if (after + len <= clause_.end && lex_.IsRelation(s_.substr(after, len))) {
          if (std::optional<Subject> named = NameAfterRelation(after + len)) return *named;  // 我妹妹小梅住在杭州
          if (std::optional<Subject> theirs = RelativesOwn(i, after + len)) return *theirs;
          return Resolved(FrameSubject::kRelative, std::string(s_.substr(i, after + len - i)), after + len);
        }
      }
      // 我爸, 我姐: a short kin word, a relative only right after 我 (alone it is part of other
      // words: 哥伦比亚).
      if (size_t kin = MarkerEndAt(after, "kin_after_speaker"); kin > after && StartsWithAt(s_, kin, "的")) {
        if (std::optional<Subject> theirs = RelativesThing(std::string(s_.substr(i, kin + 3 - i)), kin + 3, std::string(s_.substr(i, kin - i)))) {
          return *theirs;  // 我妈的车是…
        }
        return RelativesOwn(i, kin);  // 我妈的朋友住在杭州: the friend's, never the speaker's
      }
      if (size_t kin = MarkerEndAt(after, "kin_after_speaker"); kin > after && !KinWordGoesOn(kin)) {
        if (std::optional<Subject> named = NameAfterRelation(kin)) return *named;  // 我姐小梅住在杭州
        if (std::optional<Subject> theirs = RelativesOwn(i, kin)) return *theirs;
        return Resolved(FrameSubject::kRelative, std::string(s_.substr(i, kin - i)), kin);
      }
      if (std::optional<Subject> thing = ThingBeforeCopula(after)) {  // 我的航班是…, 我们组长是小李
        thing->owned = true;
        return *thing;
      }
      if (MarkerEndAt(after, "occupation") > after) return Unresolvable(i);  // 我们护士长调到…: someone else
      if (OrganisationAt(after)) return Unresolvable(i);  // 我公司搬到海珠区了: the company moved, not the speaker
      return Resolved(FrameSubject::kSpeaker, "", i + zh.size());
    }
    if (const size_t household = HouseholdAt(i); household > i) {  // 全家已经搬到青岛了
      return Resolved(FrameSubject::kSpeaker, "", household);
    }
    for (std::string_view zh : {"他", "她"}) {
      if (StartsWithAt(s_, i, zh) && !ctx.person.empty()) {
        if (!GenderAgrees(zh, ctx.person)) return Unresolvable(i);
        return Resolved(ctx.person_kind, ctx.person, i + 3);
      }
    }
    if (std::optional<Subject> name = ChineseNameSubject(i)) return *name;  // 老王调到了…
    if (i < clause_.end && static_cast<unsigned char>(s_[i]) >= 0x80) {
      if (std::optional<Subject> thing = ThingBeforeCopula(i)) return thing;  // 航班是…
      return ThingBeforeState(i);                                             // 订单服务挂了
    }
    return std::nullopt;
  }

  // True when a word of an employer, a school or a project (attribute_words.tsv: 公司, 单位, 学校,
  // 项目) starts at `at` and a move of it (markers.tsv `relocate`: 搬到, 迁到) follows, past at most
  // two adverbs: the speaker's organisation moved ("我公司搬到海珠区了"), not the speaker.
  bool OrganisationAt(size_t at) const {
    const std::vector<PhraseHit> words = lex_.FindAttributeWords(low_.substr(at, clause_.end - at));
    if (words.empty() || words.front().begin != 0) return false;
    const AttributeRef* ref = lex_.AttributeWord(words.front().phrase);
    if (ref == nullptr || (ref->attribute != "employer" && ref->attribute != "school" && ref->attribute != "project")) {
      return false;
    }
    const size_t after = at + words.front().end;
    const std::vector<PhraseHit> moves = lex_.FindMarkers(low_.substr(after, clause_.end - after), "relocate");
    return !moves.empty() && moves.front().begin <= 6;
  }

  // Where 全家 / 一家人 / 一家子 (the speaker's household, a subject of the speaker) starting at `i`
  // ends, or `i`.
  size_t HouseholdAt(size_t i) const {
    for (std::string_view zh : {"全家", "一家人", "一家子"}) {
      if (StartsWithAt(s_, i, zh)) return i + zh.size();
    }
    return i;
  }

  // What a relative has, said with 的 after the relative (我舅舅的女儿, 我妹妹的公司): the relative's
  // relative is a relative of its own, keyed by the whole phrase; anything else of theirs is no
  // subject this grammar resolves (nullopt when no 的 follows the relative at `end`).
  std::optional<Subject> RelativesOwn(size_t begin, size_t end) const {
    if (!StartsWithAt(s_, end, "的")) return std::nullopt;
    const size_t after = end + 3;
    for (size_t len = 9; len >= 3; len -= 3) {
      if (after + len <= clause_.end && lex_.IsRelation(s_.substr(after, len))) {
        return Resolved(FrameSubject::kRelative, std::string(s_.substr(begin, after + len - begin)), after + len);
      }
    }
    return Unresolvable(begin);
  }

  // A relative's thing that a copula follows ("Mom's phone is a Galaxy S10", "my dad's car is…",
  // 我妈的车是…): the thing named at `at`, its name after the owner's `owner` ("my mom's ",
  // "我妈的"), so that it is keyed apart from the speaker's own; nullopt when no thing and copula
  // follow (a relative of the relative is RelativesOwn's: 我妈的朋友). An English owner is said
  // without "my" ("mom's phone"), as a named person's is ("Priya's car").
  // `relative` is the relative as a subject of their own ("my dad", 我妈): Subject::owner.
  std::optional<Subject> RelativesThing(const std::string& owner, size_t at, std::string relative) const {
    std::optional<Subject> thing = ThingBeforeCopula(at);
    if (!thing || (lex_.IsRelation(thing->name))) return std::nullopt;
    thing->name = owner + thing->name;
    thing->thing = true;
    thing->owner = std::move(relative);
    return thing;
  }

  // A short kin word that is the start of a longer word: 我哥们, 我姐夫, 我弟媳, 我哥伦比亚的朋友,
  // 我的妈呀, 我妈的朋友 (someone else).
  bool KinWordGoesOn(size_t at) const {
    for (std::string_view next : {"们", "夫", "媳", "妹", "姐", "哥", "弟", "儿", "伦", "子", "呀", "的", "咪"}) {
      if (StartsWithAt(s_, at, next)) return true;
    }
    return false;
  }

  // "小梅" in "我妹妹小梅住在杭州": two or three Han characters right after a relation word that a
  // verb of the lexicon, 在 or 是 follows.
  std::optional<Subject> NameAfterRelation(size_t at) const {
    for (size_t len = 6; len <= 9 && at + len <= clause_.end; len += 3) {
      std::string_view name = s_.substr(at, len);
      if (std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) break;
      if (MarkerEndAt(at, "discourse") > at || MarkerEndAt(at, "now") > at || MarkerEndAt(at, "past") > at) {
        break;  // 我姐现在在杭州, 我爸以前住哈尔滨: no name
      }
      bool particle = false;  // 我表哥从杭州搬到…, 我舅舅的女儿…: a preposition or 的, no name
      for (std::string_view p : {"从", "在", "把", "被", "跟", "和", "给", "对", "去", "到", "的", "也", "又", "都", "就", "还"}) {
        particle = particle || StartsWithAt(s_, at, p);
      }
      if (particle) break;
      size_t next = at + len;
      for (const Span& t : times_) {
        if (t.begin == next) next = t.end;  // 我妹妹小梅上周搬到了…: the time before the verb
      }
      std::string_view rest = low_.substr(next, clause_.end - next);
      std::vector<PhraseHit> verbs = lex_.FindVerbs(rest);
      if ((!verbs.empty() && verbs.front().begin == 0) || StartsWithAt(s_, next, "在") || StartsWithAt(s_, next, "是")) {
        if (!lex_.FindVerbs(name).empty() || lex_.AttributeWord(name) != nullptr) return std::nullopt;
        for (const Span& t : times_) {
          if (t.begin < at + len && t.end > at) return std::nullopt;  // 我表姐上个月搬到了…: a time
        }
        for (std::string_view not_name : {"他", "她", "我", "你", "它", "说", "讲", "也", "都", "又", "了", "过", "着", "的"}) {
          // 我朋友说他搬到了…; 我姐换了工作, 我姐姐用的是… (a particle ends a verb, never a name)
          if (name.find(not_name) != std::string_view::npos) return std::nullopt;
        }
        return Resolved(FrameSubject::kNamed, std::string(name), at + len);
      }
    }
    return std::nullopt;
  }

  // 老王, 小李, 阿强: a familiar name (老/小/阿 and one character) that a verb of the lexicon, 在 or
  // a change marker follows.
  std::optional<Subject> ChineseNameSubject(size_t i) const {
    bool prefix = false;
    for (std::string_view p : {"老", "小", "阿"}) prefix |= StartsWithAt(s_, i, p);
    if (prefix && i + 6 <= clause_.end && static_cast<unsigned char>(s_[i + 3]) >= 0xE4 &&
        lex_.AttributeWord(s_.substr(i, 6)) == nullptr && lex_.FindMarkers(s_.substr(i, 9), "past").empty()) {  // 老家, 小时候
      if (std::optional<Subject> name = NameBeforeVerb(i, i + 6)) return name;
    }
    // 王磊调去北京了, 林小雨订婚啦, 周杰伦住在台北: a surname the word breaker leaves alone
    // (text/chinese_name.h), and a given name.
    const size_t surname = MarkerEndAt(i, "surname");
    if (surname == i) return std::nullopt;
    for (size_t end : text::ChineseNameEnds(s_.substr(0, clause_.end), i, surname - i)) {
      const std::string_view name = s_.substr(i, end - i), given = s_.substr(surname, end - surname);
      if (!lex_.FindMarkers(given, "not_given_name").empty() || !lex_.FindMarkers(name, "marker_noun").empty() ||
          lex_.AttributeWord(name) != nullptr) {
        break;  // 周会, 周报: a word, no name
      }
      if (std::optional<Subject> person = NameBeforeVerb(i, end)) return person;
    }
    return std::nullopt;
  }

  // The name [i, end) as the clause's subject when a verb of the lexicon, a change, a use (转到), 在, 是 or an
  // event of a person's life (markers `person_event`: 升职, 结婚) follows it, past a time (小王上个
  // 月搬到了…).
  std::optional<Subject> NameBeforeVerb(size_t i, size_t end) const {
    size_t after = end;
    for (const Span& t : times_) {
      if (t.begin == after) after = t.end;
    }
    std::string_view rest = low_.substr(after, clause_.end - after);
    auto opens = [&](std::vector<PhraseHit> hits) { return !hits.empty() && hits.front().begin == 0; };
    const bool verb_next = opens(lex_.FindVerbs(rest)) || opens(lex_.FindMarkers(rest, "change")) ||
                           opens(lex_.FindMarkers(rest, "person_event")) || opens(lex_.FindMarkers(rest, "uses_before")) ||
                           StartsWithAt(s_, after, "在") || StartsWithAt(s_, after, "是");  // 小李转到Cursor了: his
    if (!verb_next) return std::nullopt;
    return Resolved(FrameSubject::kNamed, std::string(s_.substr(i, end - i)), after);
  }

  // A thing named by a short noun phrase at `at` that a copula follows ("flight is", "dentist
  // appointment is", "最喜欢的水果是", "组长是"): the phrase names no attribute (those are the
  // speaker's: "my home is"), holds no verb unless it is a 的 phrase, at most 4 words or 8 Han
  // characters. The subject's name is the phrase, lower case; `end` is where the copula starts.
  std::optional<Subject> ThingBeforeCopula(size_t at) const {
    at = SkipSpaces(s_, at, clause_.end);
    std::optional<Span> cop = CopulaAfter(at);
    if (!cop || cop->begin <= at) return std::nullopt;
    return ThingEndingAt(at, cop->begin);
  }

  // A Chinese thing that a state word follows with no copula ("订单服务挂了", "短信通道目前停用",
  // "登录页这会儿恢复了"): the noun phrase before the first thing_state word, less the adverbs of
  // time between them (discourse markers: 目前, 现在, 已经, 又, ...).
  std::optional<Subject> ThingBeforeState(size_t at) const {
    at = SkipSpaces(s_, at, clause_.end);
    std::vector<PhraseHit> states = lex_.FindMarkers(low_.substr(at, clause_.end - at), "thing_state");
    if (states.empty() || states.front().begin == 0) return std::nullopt;
    size_t end = at + states.front().begin;
    std::vector<PhraseHit> change = lex_.FindMarkers(low_.substr(end, clause_.end - end), "change");
    if (!change.empty() && change.front().begin == 0) return std::nullopt;  // 降级到 4.1: a change, not a state
    for (bool moved = true; moved;) {
      moved = false;
      std::vector<PhraseHit> before = lex_.FindMarkers(low_.substr(at, end - at), "discourse");
      for (const PhraseHit& verb : lex_.FindMarkers(low_.substr(at, end - at), "state_verb")) before.push_back(verb);
      for (const PhraseHit& hit : before) {
        if (at + hit.end == end && hit.begin > 0) {
          end = at + hit.begin;
          moved = true;
          break;
        }
      }
    }
    for (std::string_view modal : {"不", "没", "别", "未", "能", "会", "要", "想", "该", "得", "可"}) {
      if (low_.substr(at, end - at).ends_with(modal)) return std::nullopt;  // 订单服务不能停用: not a state
    }
    std::optional<Subject> thing = ThingEndingAt(at, end);
    if (!thing) return std::nullopt;
    thing->thing = true;
    thing->end = at + states.front().begin;  // the adverbs are not part of the state
    return thing;
  }

  // The noun phrase [at, end) as a thing's name (ThingBeforeCopula's tests); `end` is where what
  // is said of it begins.
  std::optional<Subject> ThingEndingAt(size_t at, size_t end) const {
    Span np = AfterLastComma(rules::TrimSpan(s_, {at, end}));
    if (np.empty() || rules::CutTimes(s_, np, times_).empty()) return std::nullopt;  // "今天", "last week"
    np = rules::TrimSpan(s_, rules::CutTimes(s_, np, times_));  // "体检医院今年换成了…": 体检医院
    std::string_view text = rules::SpanText(s_, np);
    std::string low = LowerBytes(text);
    const bool han = static_cast<unsigned char>(text[0]) >= 0x80;
    if (np.empty() || (han ? text.size() > 24 : std::count(text.begin(), text.end(), ' ') > 3)) return std::nullopt;
    if (HasAttributeWordOutsideNouns(low) || text.find_first_of(",;:") != std::string_view::npos) return std::nullopt;
    for (std::string_view preposition : {"在", "把", "被", "从", "到", "跟", "和", "给", "对", "向"}) {
      if (han && text.find(preposition) != std::string_view::npos) return std::nullopt;  // 我在华为工作
    }
    // "用的", "开的", "喝的" before 是 name what the speaker uses, drives or drinks, not a thing of
    // their own: one or two characters of a verb and 的 (我们用的是 GitLab, 现在开的是腾讯视频).
    if (han && text.ends_with("的") && text.size() <= 9) return std::nullopt;
    const bool de_phrase = text.find("的") != std::string_view::npos;
    if (!de_phrase && (!lex_.FindVerbs(low).empty() || !lex_.FindMarkers(low, "change").empty())) return std::nullopt;
    for (std::string_view w : {"我", "你", "他", "她", "它", "这", "那", "哪", "谁", "什么", "一切", "大家", "所有"}) {
      if (text.find(w) != std::string_view::npos) return std::nullopt;  // "一切正常" is about nothing
    }
    for (std::string_view kind : {"temporary", "plan", "past", "requirement", "quotation", "negated", "discourse",
                                  "hypothetical", "recurring", "correction"}) {
      if (!lex_.FindMarkers(low, kind).empty()) return std::nullopt;  // "暂时换成", "以前是"
    }
    size_t first_end = 0;
    if (!han && FunctionWords().count(WordAt(low_, np.begin, np.end, &first_end)) > 0) return std::nullopt;
    // "My new laptop is a MacBook Air": the laptop, whose value the older "My laptop is a ThinkPad"
    // gave; "new" says it changed, not which thing it is (not "New York", written capitalised).
    if (text.starts_with("new ") && low.size() > 4) low.erase(0, 4);
    Subject thing = Resolved(FrameSubject::kNamed, low, end);
    thing.carried = false;  // "我老家是成都，现在住在杭州": the second clause is the speaker's
    return thing;
  }

  // What follows the last comma of `np` (ASCII or full-width): a name never spans one, and what
  // stands before it is an aside ("Oops, my mistake, it's on Friday", "我搞错了，车位是…").
  Span AfterLastComma(Span np) const {
    for (size_t i = np.end; i > np.begin; --i) {
      if (s_[i - 1] == ',') return rules::TrimSpan(s_, {i, np.end});
      if (i - np.begin >= 3 && StartsWithAt(s_, i - 3, "，")) return rules::TrimSpan(s_, {i, np.end});
    }
    return np;
  }

  // The first copula of the lexicon at or after `from` within the clause.
  std::optional<Span> CopulaAfter(size_t from) const {
    const size_t at = SkipSpaces(s_, from, clause_.end);
    if (size_t len = ContractionAt(s_, at); len > 0 && at == ContractedCopula(at)) return Span{at, at + len};
    const std::string_view rest = low_.substr(from, clause_.end - from);
    std::vector<PhraseHit> hits = lex_.FindMarkers(rest, "copula");
    std::erase_if(hits, [&](const PhraseHit& hit) { return InsideAWordOfWei(from + hit.begin, from + hit.end); });
    if (hits.empty()) return std::nullopt;
    Span copula{from + hits.front().begin, from + hits.front().end};
    // An adverb right before 是 goes with it, not with the subject: 我的手机还是 iPhone 12 (the phone),
    // 还是干测试 (no subject), 孩子都是奶奶接送.
    static constexpr std::string_view kAdverbs[] = {"还", "倒", "都", "也", "就", "只", "总", "老", "真", "又", "才", "正"};
    if (StartsWithAt(s_, copula.begin, "是")) {
      for (std::string_view adverb : kAdverbs) {
        if (copula.begin >= from + adverb.size() && StartsWithAt(s_, copula.begin - adverb.size(), adverb)) {
          copula.begin -= adverb.size();
          break;
        }
      }
    }
    // A copula that ends a verb of change (成了 of 换成了, 改成了) is that verb: the subject ends
    // before it ("体检医院今年换成了朝阳医院").
    for (const PhraseHit& change : lex_.FindMarkers(rest, "change")) {
      if (from + change.begin < copula.begin && copula.begin < from + change.end) copula.begin = from + change.begin;
    }
    return copula;
  }

  // True when [begin, end) is the copula 为 inside a word it is no copula of: 为了, 为什么, 为止,
  // 因为, 认为, 以为, 作为, 行为 ("主要为了追剧" says why, not what).
  bool InsideAWordOfWei(size_t begin, size_t end) const {
    if (s_.substr(begin, end - begin) != "为") return false;
    for (std::string_view after : {"了", "什么", "止"}) {
      if (StartsWithAt(s_, end, after)) return true;
    }
    for (std::string_view before : {"因", "认", "以", "作", "行"}) {
      if (begin >= before.size() && StartsWithAt(s_, begin - before.size(), before)) return true;
    }
    // The end of a verb of the lexicon (升职为, 晋升为): the verb's, not a copula.
    const size_t from = begin >= clause_.begin + 12 ? begin - 12 : clause_.begin;
    for (const PhraseHit& verb : lex_.FindVerbs(low_.substr(from, end - from))) {
      if (from + verb.end == end && verb.end - verb.begin > 3) return true;
    }
    return false;
  }

  // True when `value` is nothing but a time of day or week (markers.tsv `when_word`).
  bool IsWhenWord(Span value) const {
    const std::string low_value = LowerBytes(Text(rules::TrimSpan(s_, value)));
    const std::vector<PhraseHit> hits = lex_.FindMarkers(low_value, "when_word");
    return !hits.empty() && hits.front().begin == 0 && hits.front().end == low_value.size();
  }

  // A form of be, have, do or will: a clause that opens with one goes on about the subject before it
  // ("Mark works at Apple and is moving to Berlin").
  static bool IsAuxiliary(std::string_view lowered) {
    for (std::string_view aux : {"is", "am", "are", "was", "were", "has", "have", "had", "will", "would", "does",
                                 "do", "did", "is now", "was just", "has been", "have been"}) {
      if (lowered == aux) return true;
    }
    return false;
  }

  // A word of quantity that opens a clause is no name ("Half my team jumped…", "Most of us moved…").
  static bool IsQuantifier(std::string_view lowered) {
    for (std::string_view q : {"half", "most", "many", "some", "all", "none", "both", "several", "few", "everyone",
                               "everybody", "nobody", "each"}) {
      if (lowered == q) return true;
    }
    return false;
  }

  // A capitalised name is a subject when a verb of the lexicon or a change follows it ("Priya
  // works at", "Mei moved to", "Priya Patel joined"); a capitalised word before anything else is
  // just a sentence's first word.
  std::optional<Subject> NameSubject(size_t i, const std::string& w, size_t e, bool opens_value) const {
    // "Got promoted to", "Went back to": an irregular verb form that opens a clause without a
    // subject (a word in -ed may be a name: Jared, Ahmed).
    if (!LooksLikeName(i, w, opens_value, FunctionWords()) || IsIrregularVerbForm(w) || IsQuantifier(w)) return std::nullopt;
    size_t n = SkipSpaces(s_, e, clause_.end);
    size_t ne = 0;
    std::string next = WordAt(low_, n, clause_.end, &ne);
    if (!next.empty() && IsCapitalAt(s_, n) && FunctionWords().count(next) == 0) {
      e = ne;
      n = SkipSpaces(s_, e, clause_.end);
    }
    if (n < clause_.end && s_[n] == '(') n = SkipAside(n);  // "Jake (my best friend) lives in Chicago"
    n = SkipCompanion(n);  // "Raj and his wife moved to": Raj moved
    n = SkipAdverbs(n);  // "Emma just moved to", "Priya finally started at"
    std::string_view after = low_.substr(n, clause_.end - n);
    std::vector<PhraseHit> verb = lex_.FindVerbs(after), change = lex_.FindMarkers(after, "change");
    std::vector<PhraseHit> use = lex_.FindMarkers(after, "uses_before");  // "Jake uses Cursor": his
    const bool verb_next = (!verb.empty() && VerbWithin(n, verb.front().begin)) ||
                           (!change.empty() && VerbWithin(n, change.front().begin)) || VerbFormAt(n) ||
                           (!use.empty() && use.front().begin == 0);
    if (!verb_next) return std::nullopt;
    return Resolved(FrameSubject::kNamed, std::string(s_.substr(i, e - i)), e);
  }

  // Past an aside in brackets at `open` that names who someone is ("(my best friend)", "(our
  // landlord)"): a noun phrase opened by a possessive or an article, without a negation or a verb
  // ("(not me)", "(who lives in Denver)" are not skipped); `open` otherwise.
  size_t SkipAside(size_t open) const {
    const size_t close = s_.find(')', open);
    if (close == std::string_view::npos || close >= clause_.end) return open;
    const std::string_view inside = low_.substr(open + 1, close - open - 1);
    size_t e = 0;
    static const std::set<std::string, std::less<>> kOpeners = {"my", "our", "his", "her", "their", "a", "an", "the"};
    if (kOpeners.count(WordAt(inside, 0, inside.size(), &e)) == 0) return open;
    for (std::string_view no : {"not", "no", "never", "longer", "former", "ex", "who", "that", "which"}) {
      if (FindWord(inside, no) != std::string::npos) return open;
    }
    if (!lex_.FindVerbs(inside).empty() || !lex_.FindMarkers(inside, "change").empty()) return open;
    return SkipSpaces(s_, close + 1, clause_.end);
  }

  // "Since relocating to Denver I get winded", "After moving to Leeds, we…": a clause opened by
  // "since" or "after" and a verb of the lexicon in -ing says what its subject did, and that
  // subject is the main clause's. It is the speaker's when the words after the gerund name no one
  // else before a speaker word ("Since moving to Leeds, my sister…" names her: nobody's here).
  std::optional<Subject> GerundOpener(const std::string& w, size_t e) const {
    if (w == "ever") {  // "Ever since moving to Austin we…"
      const size_t n = SkipSpaces(s_, e, clause_.end);
      size_t ne = 0;
      if (WordAt(low_, n, clause_.end, &ne) != "since") return std::nullopt;
      return GerundOpener("since", ne);
    }
    if (w != "since" && w != "after") return std::nullopt;
    const size_t g = SkipSpaces(s_, e, clause_.end);
    size_t ge = 0;
    if (!WordAt(low_, g, clause_.end, &ge).ends_with("ing")) return std::nullopt;
    // A verb of the lexicon, whose place or employer is a name ("Since moving to Denver"; not "to the
    // night shift", "to a new apartment").
    std::vector<PhraseHit> verb = lex_.FindVerbs(low_.substr(g, clause_.end - g));
    if (verb.empty() || verb.front().begin != 0 || !IsCapitalAt(s_, SkipSpaces(s_, g + verb.front().end, clause_.end))) {
      return std::nullopt;
    }
    // The main clause goes on past this one ("After moving to Leeds, my sister…"): read to the
    // sentence's end.
    size_t end = ge;
    while (end < s_.size() && s_[end] != '.' && s_[end] != '!' && s_[end] != '?' && s_[end] != '\n') ++end;
    bool after_comma = false;
    for (size_t k = ge; k < end;) {
      size_t ke = 0;
      const std::string word = WordAt(low_, k, end, &ke);
      if (ke <= k) {
        after_comma = after_comma || s_[k] == ',';
        ++k;
        continue;
      }
      if (SpeakerWords().count(word) > 0 || word == "we" || word == "we've" || word == "we're") break;
      if (!after_comma && (word == "is" || word == "was" || word == "isn't" || word == "wasn't")) {
        return std::nullopt;  // "Since moving to Denver is expensive, …": the gerund is a subject
      }
      // Another's subject: "my sister", "she", or a name after a comma ("…to Leeds, Tom…"; a name
      // before one is the gerund's place).
      if (word == "my" || word == "our" || PronounWords().count(word) > 0 ||
          (after_comma && IsCapitalAt(s_, k) && FunctionWords().count(word) == 0)) {
        return Unresolvable(g);
      }
      k = ke;
    }
    return Resolved(FrameSubject::kSpeaker, "", g);
  }

  // "As a junior analyst at Wayfair I write SQL all day", "As a nurse, I…": a clause opened by
  // "as a/an" and a phrase that ends in an occupation (OccupationOf: "junior analyst at Wayfair")
  // says the speaker's job when the speaker is the main clause's subject (the first subject after
  // the phrase, past a comma). The subject ends before the article; the role ends at the speaker
  // word or the comma (Subject::role_end), and is read as after a copula.
  std::optional<Subject> RoleOpener(const std::string& w, size_t e) const {
    if (w != "as") return std::nullopt;
    const size_t article = SkipSpaces(s_, e, clause_.end);
    size_t ae = 0;
    const std::string a = WordAt(low_, article, clause_.end, &ae);
    if (a != "a" && a != "an") return std::nullopt;
    size_t end = ae;
    while (end < s_.size() && s_[end] != '.' && s_[end] != '!' && s_[end] != '?' && s_[end] != '\n') ++end;
    size_t role_end = std::string::npos;
    for (size_t k = ae; k < end;) {
      size_t ke = 0;
      const std::string word = WordAt(low_, k, end, &ke);
      if (ke <= k) {
        if (s_[k] == ',' && role_end == std::string::npos) role_end = k;
        ++k;
        continue;
      }
      const bool speaker = SpeakerWords().count(word) > 0 || word == "we" || word == "we're" || word == "we've";
      if (speaker) {
        if (role_end == std::string::npos) role_end = k;
        if (role_end > clause_.end) return std::nullopt;  // the role runs past this clause
        Span role = TrimValue({SkipSpaces(s_, ae, role_end), role_end});
        if (role.empty() || !OccupationOf(role)) return std::nullopt;
        static const std::set<std::string, std::less<>> kNotNow = {"former", "retired", "future", "wannabe", "aspiring",
                                                                   "ex", "part-time", "part", "recovering", "one-time", "past"};
        size_t fe = 0;
        if (kNotNow.count(WordAt(low_, role.begin, role.end, &fe)) > 0) return std::nullopt;  // "As a former nurse, I…"
        for (const Span& t : times_) {
          if (t.begin >= ae && t.begin < role_end) return std::nullopt;  // "As an intern at Google in 2019, I…"
        }
        const std::string_view role_text = low_.substr(ae, role_end - ae);
        for (std::string_view then : {"last", "ago", "back in", "years", "summer", "winter", "spring", "fall", "autumn"}) {
          if (FindWord(role_text, then) != std::string::npos) return std::nullopt;  // "…at Google last summer, I…"
        }
        Subject speaker_subject = Resolved(FrameSubject::kSpeaker, "", article);
        speaker_subject.role_end = role_end;
        return speaker_subject;
      }
      if (role_end != std::string::npos) return std::nullopt;  // "As a nurse, my sister…": hers
      k = ke;
    }
    return std::nullopt;
  }

  // A name whose "'s" stands for "is" ("Marco's sous chef now", "Tom's working at Apple", "Ana's
  // a nurse"): the word after it opens a verb of the lexicon, an article, or an adverb of now, or
  // the rest of the clause ends in an occupation. A possessive is followed by its noun ("Tom's car
  // is red", "Marco's chef cooked"). The subject ends after the "'s", as "he's" does.
  std::optional<Subject> ContractedNameSubject(size_t i, const std::string& w, size_t e) const {
    size_t apostrophe = std::string::npos;
    if (w.ends_with("'s")) {
      apostrophe = e - 2;
    } else if (StartsWithAt(s_, e, "\xE2\x80\x99s")) {  // Marco’s
      apostrophe = e;
      e += 4;
    }
    if (apostrophe == std::string::npos || apostrophe <= i) return std::nullopt;
    const std::string name = LowerBytes(s_.substr(i, apostrophe - i));
    if (!LooksLikeName(i, name, false, FunctionWords()) || IsQuantifier(name)) return std::nullopt;
    if (!ContractionGoesOn(e)) return std::nullopt;
    return Resolved(FrameSubject::kNamed, std::string(s_.substr(i, apostrophe - i)), e);
  }

  // True when the words at `after` (past a "'s") show the "'s" stands for "is" or "has": a verb of
  // the lexicon, an article, an adverb of now, "been"/"got", or a rest of the clause that ends in an
  // occupation ("sous chef now"). A possessive's noun does none of these ("car is red").
  bool ContractionGoesOn(size_t after) const {
    const size_t n = SkipSpaces(s_, after, clause_.end);
    if (n == after || n >= clause_.end) return false;
    size_t ne = 0;
    static const std::set<std::string, std::less<>> kAfter = {"a", "an", "the", "now", "back", "still", "currently",
                                                              "finally", "officially", "just", "also", "been", "got",
                                                              "about", "going", "not", "no"};
    if (kAfter.count(WordAt(low_, n, clause_.end, &ne)) > 0 || VerbStartsAt(lex_, low_, n, clause_.end) || VerbFormAt(n)) {
      return true;
    }
    // "Marco's sous chef now", not "Dad's brother is a pilot" nor "Marco's sous chef, Luigi, quit".
    const Span rest = TrimValue({n, clause_.end});
    const std::string_view text = low_.substr(rest.begin, rest.size());
    for (std::string_view copula : {" is ", " was ", "'s ", " are ", ","}) {
      if (text.find(copula) != std::string_view::npos) return false;
    }
    return clause_.end == s_.size() || s_[clause_.end] != ',' ? EndsInOccupation(rest) : false;
  }

  // Past a companion joined to a name by "and" at `i`: another name ("Ana and Tom") or a
  // possessive and its noun ("Raj and his wife"); the clause is then said of the first name too.
  // `i` when none follows, or when the companion is the speaker ("Raj and I": the speaker's).
  size_t SkipCompanion(size_t i) const {
    size_t e = 0;
    if (WordAt(low_, i, clause_.end, &e) != "and") return i;
    const size_t c = SkipSpaces(s_, e, clause_.end);
    const std::string w = WordAt(low_, c, clause_.end, &e);
    if (w == "his" || w == "her" || w == "their") {
      const size_t noun = SkipSpaces(s_, e, clause_.end);
      const std::string n = WordAt(low_, noun, clause_.end, &e);
      if (n.empty() || IsVerbForm(n) || VerbStartsAt(lex_, low_, noun, clause_.end)) return i;  // "Tom and her moved"
      return SkipSpaces(s_, e, clause_.end);
    }
    if (c < clause_.end && IsCapitalAt(s_, c) && LooksLikeName(c, w, false, FunctionWords())) {
      return SkipSpaces(s_, e, clause_.end);
    }
    return i;
  }

  // A verb form at `i` that is not a verb of the lexicon's attributes but shows that the word
  // before is its subject: a past tense in -ed ("Tom transferred to", "Mei relocated") or an
  // irregular one of the lexicon's markers `verb_form` ("Tom left Google and joined Stripe"), not
  // followed by the speaker as its object ("Sony hired me": the clause is about the speaker).
  bool VerbFormAt(size_t i) const {
    size_t e = 0;
    std::string w = WordAt(low_, i, clause_.end, &e);
    if (w.empty() || s_[i] < 'a' || s_[i] > 'z' || !IsVerbForm(w)) return false;
    // The speaker anywhere after it ("Tom left before I joined Stripe", "Sarah told everyone I
    // moved", "Acme hired me"): what follows is about the speaker, or cannot be told apart.
    for (size_t k = SkipSpaces(s_, e, clause_.end); k < clause_.end;) {
      size_t ke = 0;
      std::string word = WordAt(low_, k, clause_.end, &ke);
      if (ke <= k) {
        ++k;
        continue;
      }
      if (SpeakerWords().count(word) > 0 || word == "me" || word == "us" || word == "my" || word == "our") return false;
      k = ke;
    }
    return true;
  }

  // A past tense in -ed or a verb form of the lexicon (markers `verb_form`), `w` lower case.
  bool IsVerbForm(const std::string& w) const { return (w.size() >= 5 && w.ends_with("ed")) || IsIrregularVerbForm(w); }
  bool IsIrregularVerbForm(const std::string& w) const {
    std::vector<PhraseHit> forms = lex_.FindMarkers(w, "verb_form");
    return !forms.empty() && forms.front().begin == 0 && forms.front().end == w.size();
  }

  // The words between a name at `from` and its verb `offset` bytes later: none, or at most
  // kWordsBeforeVerb lower-case words that name no one ("Kenji got a new job at Sony", not "Sony
  // hired me at", not "Ana and Tom moved to").
  static constexpr int kWordsBeforeVerb = 2;
  bool VerbWithin(size_t from, size_t offset) const {
    if (offset == 0) return true;
    int words = 0;
    for (size_t i = from; i < from + offset;) {
      size_t e = 0;
      std::string w = WordAt(low_, i, clause_.end, &e);
      if (w.empty() || e <= i) return false;
      if (++words > kWordsBeforeVerb || s_[i] < 'a' || s_[i] > 'z') return false;
      if (w == "me" || w == "us" || w == "and" || w == "i" || w == "we" || w == "you") return false;
      i = SkipSpaces(s_, e, clause_.end);
    }
    return true;
  }

  // Past the adverbs at `i` between a subject and its verb: discourse markers of the lexicon
  // ("finally", "recently", "also") and words in -ly; at most three.
  size_t SkipAdverbs(size_t i) const {
    for (int k = 0; k < 3 && i < clause_.end; ++k) {
      size_t next = MarkerEndAt(i, "discourse");
      if (next == i) {
        size_t e = 0;
        std::string w = WordAt(low_, i, clause_.end, &e);
        if (w.size() < 4 || !w.ends_with("ly")) break;
        next = e;
      }
      i = SkipSpaces(s_, next, clause_.end);
    }
    return i;
  }

  // "The staging cluster is now ...", "checkout-svc is on v1.4": a thing named by a short noun
  // phrase before a copula. Not when the phrase is a part ("worker service is unhealthy" after
  // "pay-01's API service ...;"), an attribute ("Home is now Lima": the speaker's) or a value
  // ("Dark mode is what I like best"): those leave the subject unresolved.
  std::optional<Subject> NounPhraseSubject(size_t i, const std::string& w, size_t e, bool opens_value) const {
    if (w.empty() || SpeakerWords().count(w) > 0) return std::nullopt;
    const size_t np_begin = w == "the" ? e : i;
    size_t stop = FindCopula(np_begin);
    if (stop == std::string::npos || stop <= np_begin) return std::nullopt;
    Span np = AfterLastComma(rules::TrimSpan(s_, {np_begin, stop}));
    // A phrase that opens with a verb is no noun phrase: "works at Sage now", "…and live in Leeds
    // now" (a clause going on about the subject before it); a gerund is one ("Moving to Chicago is
    // my dream").
    if (!np.empty() && VerbStartsAt(lex_, low_, np.begin, stop) && !w.ends_with("ing")) return std::nullopt;
    std::string_view text = rules::SpanText(s_, np);
    size_t last_space = text.rfind(' ');
    std::string head = LowerBytes(last_space == std::string_view::npos ? text : text.substr(last_space + 1));
    const bool part = lex_.FacetNoun(head) != nullptr;
    std::string bare = LowerBytes(text);  // "Home for me is Vancouver": the speaker's home
    for (std::string_view mine : {" for me", " for us", " to me"}) {
      if (bare.ends_with(mine)) bare.resize(bare.size() - mine.size());
    }
    if ((part && text.find(' ') == std::string_view::npos) || lex_.AttributeWord(bare) != nullptr || opens_value) {
      Subject unresolved;
      unresolved.end = i;
      return unresolved;
    }
    if (np.empty() || np.size() > 40 || std::count(text.begin(), text.end(), ' ') > 3) return std::nullopt;
    Subject named = Resolved(FrameSubject::kNamed, std::string(text), stop);
    // "the mirror is down", "VPN's online again", "Staging is healthy again" (markers `environment_name`)
    named.thing = w == "the" || IsAcronym(text) || IsEnvironmentName(LowerBytes(text));
    named.weak = part;  // "search cluster": a thing, unless a subject goes on from before
    return named;
  }

  // True when `lowered` is a deployment environment's name as a whole (markers `environment_name`).
  bool IsEnvironmentName(const std::string& lowered) const {
    const std::vector<PhraseHit> hits = lex_.FindMarkers(lowered, "environment_name");
    return !hits.empty() && hits.front().begin == 0 && hits.front().end == lowered.size();
  }

  // What ReadValue has found so far.
  struct ValueReading {
    size_t from = 0;
    std::string_view rest;  // lowered text from `from` to the clause end
    std::optional<Span> value;
    std::optional<AttributeRef> by_value;  // the attribute the value itself names
    const VerbEntry* verb = nullptr;
    bool verb_negated = false;  // 不喜欢, 没住
    const AttributeRef* word = nullptr;  // the attribute word before the value
    bool changes = false;                // the reading says the value is new ("I'm in Leeds now")
  };

  // 1. "from A to B", "B instead of A", "B, not A" (a correction): the value and what it replaces.
  void ValueOfChange(ValueReading& r, FactFrame* f) const {
    const size_t from = r.from, end = clause_.end;
    if (size_t to = FindWord(r.rest, "to"); to != std::string::npos) {
      size_t fr = FindWord(r.rest, "from");
      // Only a change goes from A to B ("moved from Lisbon to Porto"); "all kinds of dances, from
      // contemporary to hip-hop" is a range.
      const bool changed = fr != std::string::npos && (!lex_.FindMarkers(r.rest.substr(0, fr), "change").empty() ||
                                                       IsFromToVerbAt(r.rest, fr));
      if (changed && fr < to) {
        f->replaces = Text(TrimValue({from + fr + 4, from + to}));
        r.value = TrimValue({from + to + 2, end});
        return;
      }
    }
    if (size_t inst = FindWord(r.rest, "instead of"); inst != std::string::npos) {
      f->replaces = Text(TrimValue({from + inst + 10, end}));
      size_t start = from;
      if (size_t to = FindWord(r.rest.substr(0, inst), "to"); to != std::string::npos) start = from + to + 2;
      r.value = TrimValue({start, from + inst});
      return;
    }
    if (!correction_) return;
    if (size_t n = FindWord(r.rest, "not"); n != std::string::npos) {
      f->replaces = Text(TrimValue({from + n + 3, end}));
      Span said = TrimValue(StripLeadingWords(TrimValue({from, from + n}), {"actually", "correction", "it's", "it", "is", "was", "i"}));
      // "I work at Shopify, not Stripe": the value follows the verb, which names the attribute.
      std::vector<PhraseHit> verbs = lex_.FindVerbs(low_.substr(said.begin, said.end - said.begin));
      if (!verbs.empty() && verbs.front().begin == 0 && said.begin + verbs.front().end < said.end) {
        said = TrimValue({said.begin + verbs.front().end, said.end});
      }
      r.value = said;
    }
  }

  // The values of the lexicon in [from, to) (Lexicon::FindValues) that name their attribute where
  // they are said (values.tsv flags): a tool's name only right after a verb of using or switching
  // or in a clause that says a word of its attribute ("I use Firefox", "Brave is my default
  // browser"; not "Tried Firefox for an hour, hated it"), an everyday word only so or capitalised
  // ("switched to fish", "the fish shell"; not "I love fish").
  std::vector<PhraseHit> ValuesIn(size_t from, size_t to) const {
    std::vector<PhraseHit> hits = lex_.FindValues(low_.substr(from, to - from));
    std::erase_if(hits, [&](const PhraseHit& h) {
      const bool product = lex_.IsProductValue(h.phrase), everyday = lex_.IsEverydayWordValue(h.phrase);
      if (!product && !everyday) return false;
      if (ClauseSaysAttributeOf(h.phrase) || UseBefore(from + h.begin) || UseAfter(from + h.end)) return false;
      return product || !IsCapitalAt(s_, from + h.begin);
    });
    return hits;
  }

  // True when the clause after `at` says the tool is used: a verb of using (markers.tsv
  // `uses_before`, not a preposition: "Vim is all I've used for years", "Firefox is what I use"),
  // or "user" right after it ("a diehard Vim user"). (Not a word of now: "Firefox is really fast
  // now" says nothing of its use.)
  bool UseAfter(size_t at) const {
    const std::string_view after = low_.substr(at, clause_.end - at);
    for (const PhraseHit& hit : lex_.FindMarkers(after, "uses_before")) {
      if (hit.phrase != "in" && hit.phrase != "on" && hit.phrase != "with") return true;
    }
    size_t e = 0;
    const std::string next = WordAt(low_, SkipSpaces(s_, at, clause_.end), clause_.end, &e);
    return next == "user" || next == "users";
  }

  // True when the clause's words before `at` end in a verb of using or switching (markers.tsv
  // `uses_before`: "I use", "switched over to", 用的是).
  bool UseBefore(size_t at) const {
    const std::string_view before = low_.substr(clause_.begin, at - clause_.begin);
    size_t end = before.size();
    while (end > 0 && before[end - 1] == ' ') --end;
    for (const PhraseHit& hit : lex_.FindMarkers(before, "uses_before")) {
      if (hit.end == end) return true;
    }
    return false;
  }

  // True when [from, to) says something ended (markers.tsv `ends`, `ends_named`: "uninstalled",
  // "got rid of", "卸了"): the value after it is what ended ("I uninstalled Chrome"), which the write
  // path closes (write/ended_thing.h), not a value the subject now has.
  bool EndsBefore(size_t from, size_t to) const {
    const std::string_view gap = low_.substr(from, to - from);
    for (std::string_view kind : {"ends", "ends_named"}) {
      for (const PhraseHit& hit : lex_.FindMarkers(gap, kind)) {
        // Right before the value, but for spaces and a determiner: "got rid of my Vim", not "gave
        // up and made Brave my browser".
        size_t at = SkipSpaces(s_, from + hit.end, to), e = 0;
        const std::string w = WordAt(low_, at, to, &e);
        if (w == "the" || w == "my" || w == "our") at = SkipSpaces(s_, e, to);
        if (at == to) return true;
      }
    }
    return false;
  }

  // True when a version number follows `at` in the clause ("Ubuntu 22.04", "running v2.1"): the
  // version is the value, and the product its subject (ValueOfVersion).
  bool VersionAfter(size_t at) const {
    for (const Token& t : AsciiTokens(s_, at, clause_.end)) {
      if (IsVersion(s_.substr(t.begin, t.end - t.begin))) return true;
    }
    return false;
  }

  // True when a number follows `at` after one space ("Windows 11", "Ubuntu 22.04", "iOS 17").
  bool NumberRightAfter(size_t at) const {
    if (at + 1 >= clause_.end || s_[at] != ' ') return false;
    const std::string_view word = s_.substr(at + 1, WordEnd(at + 1) - at - 1);
    return IsVersion(word) || (!word.empty() && std::all_of(word.begin(), word.end(), IsDigit));
  }

  // Where a tool's name that reaches `at` ends: with the capitalised words right after it ("Linux
  // Mint", "Firefox Developer Edition"), but not "I".
  size_t NameGoesOn(size_t at) const {
    size_t end = at;
    for (int words = 0; words < 3 && end + 1 < clause_.end && s_[end] == ' ' && IsCapitalAt(s_, end + 1); ++words) {
      const size_t e = WordEnd(end + 1);
      if (e == end + 2 && s_[end + 1] == 'I') break;
      end = e;
    }
    return end;
  }

  // The end of the run of word bytes (letters, digits, dots between digits) that starts at `at`.
  size_t WordEnd(size_t at) const {
    size_t e = at;
    while (e < clause_.end && (IsWordByteAt(s_, e) || (s_[e] == '.' && e + 1 < clause_.end && IsDigit(s_[e + 1])))) ++e;
    return e;
  }

  // True when a word of the attribute `value` names (attribute_words.tsv) is said in the clause.
  bool ClauseSaysAttributeOf(std::string_view value) const {
    const AttributeRef* ref = lex_.Value(value);
    if (ref == nullptr) return false;
    for (const PhraseHit& hit : lex_.FindAttributeWords(low_.substr(clause_.begin, clause_.end - clause_.begin))) {
      const AttributeRef* word = lex_.AttributeWord(hit.phrase);
      if (word != nullptr && word->attribute == ref->attribute && word->slot == ref->slot) return true;
    }
    return false;
  }

  // A verb that names the attribute of "from A to B" ends at `fr` ("moved from").
  bool IsFromToVerbAt(std::string_view rest, size_t fr) const {
    for (const PhraseHit& hit : lex_.FindVerbs(rest)) {
      const VerbEntry* verb = lex_.Verb(hit.phrase);
      if (verb != nullptr && verb->from_to && hit.begin <= fr && hit.end >= fr) return true;
    }
    return false;
  }

  // 2. A word of a value set names its attribute ("dark mode", "healthy"). State words
  // ("running", "ready") are states of things; said of a person they are activities.
  void ValueOfSet(ValueReading& r, const FactFrame& f) const {
    if (!r.value) {
      std::vector<PhraseHit> values = ValuesIn(r.from, r.from + r.rest.size());
      if (!values.empty() && !EndsBefore(r.from, r.from + values.front().begin)) {
        const PhraseHit& hit = values.front();
        const bool product = lex_.IsProductValue(hit.phrase);
        // "Windows 11", "Ubuntu 22.04": the version is the value, the product its subject (3.).
        if (product && NumberRightAfter(r.from + hit.end)) return;
        r.value = Span{r.from + hit.begin, product ? NameGoesOn(r.from + hit.end) : r.from + hit.end};
        r.by_value = *lex_.Value(hit.phrase);
      }
    }
    if (!r.value) return;
    if (const AttributeRef* ref = lex_.Value(Text(*r.value)); ref != nullptr && !ValuesIn(r.value->begin, r.value->end).empty()) {
      r.by_value = *ref;
    }
    const bool thing = f.subject_kind == FrameSubject::kNamed &&
                       (IsIdentifier(f.subject) || f.subject.find(' ') != std::string::npos || subject_thing_);
    const bool version_follows = VersionAfter(r.value->end);  // "node-7 is running v2.1": the version is the value
    if (r.by_value && r.by_value->attribute == "status" &&
        (version_follows || (!thing && facet_attribute_.empty() && f.replaces.empty()))) {
      r.value.reset();
      r.by_value.reset();
    }
  }

  // 3. A version number, with the product it names ("python 3.12", "release v1.2"); after a
  // change verb and "to"/"到", a bare number is one ("upgraded postgres to 16", "把Redis升到7").
  void ValueOfVersion(ValueReading& r) const {
    if (r.value) return;
    const size_t changed_to = NumberAfterChangeTo(r.from);
    for (const Token& t : AsciiTokens(s_, r.from, clause_.end)) {
      if (!IsVersion(s_.substr(t.begin, t.end - t.begin)) && t.begin != changed_to && !RunsProductNumber(t, r.from)) {
        continue;
      }
      size_t b = t.begin;
      if (s_[t.begin] != 'v' && s_[t.begin] != 'V') b = ProductBefore(t.begin, r.from);
      r.value = Span{b, t.end};
      r.by_value = AttributeRef{"version", ""};
      return;
    }
  }

  // True when `t` is a whole number of one or two digits after a capitalised product name that the
  // clause says runs or is used — after "run", "use" or their forms, "runs on", "pinned to",
  // "locked to", 用(的是), 跑的, 运行, or a change of a version and its "to"/到/成 ("Our servers run
  // Rocky Linux 8", "We use Java 11 for batch jobs", "The API runs on Node 18", "pinned to
  // PostgreSQL 13", "upgraded to Node 22", "升级到 Vue 3", 服务器跑的 CentOS 7) — and ends its
  // phrase: no noun or unit follows ("I ran Marathon 3 times", "I use size 10 shoes", "I'm on
  // Level 4" are no versions).
  bool RunsProductNumber(const Token& t, size_t from) const {
    if (t.end - t.begin > 2 || !std::all_of(s_.begin() + t.begin, s_.begin() + t.end, IsDigit)) return false;
    if (t.end < clause_.end && IsWordByteAt(s_, t.end)) return false;
    if (ChineseUnitAt(SkipSpaces(s_, t.end, clause_.end))) return false;  // 用 Kindle 3 年了, 2 个小时
    const size_t product = ProductBefore(t.begin, from);
    if (product == t.begin || !(IsCapitalAt(s_, product) || CamelCaseAt(product))) return false;
    if (lex_.HasMarker(LowerBytes(s_.substr(product, t.begin - product)), "numbered_noun")) return false;  // Level 4
    const Span named{product, t.end};
    if (rules::CutTimes(s_, named, times_).size() < named.size() || LooksLikeTime(named)) return false;  // "on March 3"
    size_t after_end = 0;
    const std::string after = WordAt(low_, SkipSpaces(s_, t.end, clause_.end), clause_.end, &after_end);
    static const std::set<std::string, std::less<>> kEnds = {
        "for", "in", "on", "at", "since", "now", "across", "and", "as", "with", "until", "today", "everywhere",
        "last", "this", "yesterday", "recently", "already", "so", "but", "because", "which", "after", "before",
        "during", "over"};
    if (!after.empty() && kEnds.count(after) == 0) return false;
    auto word_before = [&](size_t at) {
      size_t e = at;
      while (e > from && s_[e - 1] == ' ') --e;
      size_t b = e;
      while (b > from && IsWordByteAt(s_, b - 1)) --b;
      return std::pair<std::string, size_t>{LowerBytes(s_.substr(b, e - b)), b};
    };
    auto [before, before_at] = word_before(product);
    static const std::set<std::string, std::less<>> kRuns = {"run", "runs", "running", "ran", "use", "uses", "using"};
    if (kRuns.count(before) > 0) return true;
    const std::string verb = word_before(before_at).first;
    // "runs on Node 18"; "I'm on iOS 17", "we're still on Postgres 13" (a numbered noun of
    // markers.tsv is no product: "I'm on Level 4", "we're on Floor 12").
    static const std::set<std::string, std::less<>> kRunsOn = {"run", "runs", "running"};
    static const std::set<std::string, std::less<>> kSpeakerIsOn = {"i'm", "we're", "i\xE2\x80\x99m", "we\xE2\x80\x99re", "im"};
    static const std::set<std::string, std::less<>> kSpeakerBeforeBe = {"i", "we"};
    if (before == "on") {
      if (kRunsOn.count(verb) > 0) return true;
      // "I'm on iOS 17", "we're still on Postgres 13": the speaker's own copula before "on" (and
      // "still", "now"…), never another's ("My mom is on iOS 15", "Most of my team is on Windows 11").
      std::vector<std::string> said;  // the words before "on", less an adverb of now
      std::istringstream words(LowerBytes(s_.substr(clause_.begin, before_at - clause_.begin)));
      for (std::string w; words >> w;) said.push_back(w);
      static const std::set<std::string, std::less<>> kNow = {"still", "now", "currently", "both", "all"};
      while (!said.empty() && kNow.count(said.back()) > 0) said.pop_back();
      if (said.empty()) return false;
      if (kSpeakerIsOn.count(said.back()) > 0) return true;
      return said.size() >= 2 && (said.back() == "am" || said.back() == "are") && kSpeakerBeforeBe.count(said[said.size() - 2]) > 0;
    }
    // After a change of version and its "to"/到/成: "upgraded to Node 22", "bumped everything to
    // Node 22", "升级到 Vue 3", "切到 Rocky Linux 9".
    size_t to = std::string::npos;
    if (before == "to") {
      if (verb == "pinned" || verb == "locked") return true;
      to = before_at;
    } else if (before.empty()) {
      size_t e = product;
      while (e > from && s_[e - 1] == ' ') --e;
      auto ends_with = [&](std::string_view han) { return e >= from + han.size() && s_.substr(e - han.size(), han.size()) == han; };
      for (std::string_view use : {"用的", "用的是", "使用", "跑的", "跑的是", "跑着", "运行", "运行的是", "基于"}) {
        if (ends_with(use)) return true;  // 项目用的是 Vue 2, 服务器跑的 CentOS 7
      }
      for (std::string_view han : {"到", "成", "为"}) {
        if (ends_with(han)) to = e;
      }
    }
    if (to == std::string::npos) return false;
    // (Changes of a version only, markers.tsv `version_change`: "moved to Building 7", "switched to
    // Level 4" are no versions.)
    return lex_.HasMarker(low_.substr(from, to - from), "version_change");
  }

  // True when a Chinese counter or unit of time or amount stands at `at` (年, 个, 小时, 天, 多…):
  // the number before it counts, it names no version.
  bool ChineseUnitAt(size_t at) const {
    for (std::string_view unit : {"年", "个", "小", "天", "多", "分", "周", "次", "月", "秒", "块", "元", "遍", "页",
                                  "张", "本", "台", "部", "人", "号", "楼", "层", "级", "倍", "岁", "点", "星"}) {
      if (StartsWithAt(s_, at, unit)) return true;
    }
    return false;
  }

  // Where a number right after a change marker's "to"/"到" begins ("bumped X to 16", "升到7",
  // "升级到了8"), or npos.
  size_t NumberAfterChangeTo(size_t from) const {
    std::string_view rest = low_.substr(from, clause_.end - from);
    std::vector<PhraseHit> changes = lex_.FindMarkers(rest, "change");
    if (changes.empty()) return std::string::npos;
    size_t i = from + changes.front().end;
    if (size_t to = FindWord(low_.substr(i, clause_.end - i), "to"); to != std::string::npos) {
      i = SkipSpaces(s_, i + to + 2, clause_.end);
    } else {
      i = SkipSpaces(s_, i, clause_.end);
      if (StartsWithAt(s_, i, "了")) i = SkipSpaces(s_, i + 3, clause_.end);
    }
    return i < clause_.end && IsDigit(s_[i]) ? i : std::string::npos;
  }

  // 4. A verb that carries an attribute ("live in", "住在", "在重庆定居"). False when the verb
  // shows the clause cannot be read ("moved from" without "to", "最喜欢的颜色是蓝色").
  bool ValueOfVerb(ValueReading& r) const {
    std::vector<PhraseHit> verbs = lex_.FindVerbs(r.rest);
    const std::vector<PhraseHit> words = lex_.FindMarkers(r.rest, "not_verb");  // 当 of 当前, 当然
    std::erase_if(verbs, [&](const PhraseHit& v) {
      return std::any_of(words.begin(), words.end(), [&](const PhraseHit& w) { return w.begin <= v.begin && v.end <= w.end; });
    });
    // A verb right after a classifier, with a 的 and another verb after it, describes the place
    // the classifier counts: 在一家做新能源车的创业公司当产品负责人 is read at 当.
    // Only after 在 (在一家, 在这家: a place; not 一个做设计的朋友), and not a span of doing (在那家做了五年的会计).
    for (size_t k = 0; k + 1 < verbs.size(); ++k) {
      const PhraseHit& v = verbs[k];
      const std::string_view between =
          r.rest.substr(v.end, verbs[k + 1].begin - std::min(verbs[k + 1].begin, v.end));
      if (v.begin >= 9 && r.rest.substr(v.begin - 9, 3) == "在" && OnlyAClassifier(r.rest.substr(v.begin - 6, 6)) &&
          between.find("的") != std::string_view::npos && between.find("了") == std::string_view::npos) {
        verbs.erase(verbs.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
    }
    r.verb = verbs.empty() ? nullptr : lex_.Verb(verbs.front().phrase);
    if (r.verb == nullptr) return true;
    const size_t at = r.from + verbs.front().begin;
    const bool english_verb = static_cast<unsigned char>(verbs.front().phrase[0]) < 0x80;
    size_t opens = SkipSpaces(s_, r.from, clause_.end);
    if (!english_verb) {  // 我现在住望京, 爷爷奶奶一直住大连
      opens = MarkerEndAt(opens, "now");
      for (std::string_view adverb : {"一直", "还", "也", "都", "仍然", "依然", "平时", "以前", "之前", "原来", "曾经",
                                      "正式", "终于", "已经", "刚刚", "刚"}) {
        if (StartsWithAt(s_, opens, adverb)) opens += adverb.size();
      }
      for (std::string_view left : {"辞职", "离职", "裸辞"}) {  // 辞职转行做产品经理: the new job is said first-hand
        if (StartsWithAt(s_, opens, left)) opens += left.size();
      }
    }
    // 老王的新家在亦庄: a verb after 的 is of whoever stands before it — the subject (我的新家在,
    // 我妹的新家在), or a name the subject did not take, whose the fact is, never the speaker's.
    if (!english_verb && at >= opens + 3 && StartsWithAt(s_, at - 3, "的")) {
      const std::string_view owner = rules::SpanText(s_, rules::TrimSpan(s_, {opens, at - 3}));
      if (!owner.empty() && owner != "我" && owner != "我们" && owner != "咱们") {
        r.verb = nullptr;
        return true;
      }
    }
    if (r.verb->initial && opens != at) {  // "a letter from Mom"
      r.verb = nullptr;  // nor the attribute of a value found before: "migrated CI from A to B"
      return true;
    }
    const bool lasts = english_verb ? EnglishLastingState(at, r.from + verbs.front().end) && LastingStateHolds(at)
                                    : YearsEnd(r.from + verbs.front().end) != std::string::npos && LastingStateHolds(at);
    if (r.verb->settling && !SettlingHolds(at)) {
      r.verb = nullptr;  // 出差…在酒店安顿下来, 在医院安顿下来了，明天做手术: a stay
      return true;
    }
    if (r.verb->lasting && !lasts) {
      r.verb = nullptr;  // 在酒店住了两晚, 在医院住了两个月, "I've been in Denver for three days": a stay, not a home
      return true;
    }
    if (r.value) return true;
    if (r.verb->from_to) return false;
    const size_t value_at = SkipSpaces(s_, r.from + verbs.front().end, clause_.end);
    const bool ascii_value = value_at < clause_.end && static_cast<unsigned char>(s_[value_at]) < 0x80;
    const bool capitalised = value_at < clause_.end && IsCapitalAt(s_, value_at);
    if (r.verb->job_after && !english_verb && JobOnlyOnce(r.from + verbs.front().end)) {
      r.verb = nullptr;  // 在医院当护士的时候…, 在大学当过助教, 周末在咖啡店当兼职店员
      return true;
    }
    // 在阿里做了两年运营: a span of years before the job (LastingStateHolds).
    const size_t lasted = r.verb->job_after && !english_verb ? YearsEnd(r.from + verbs.front().end) : std::string::npos;
    if (lasted != std::string::npos && !LastingStateHolds(at)) {
      r.verb = nullptr;  // 我在银行做了三年柜员，后来辞职了
      return true;
    }
    const size_t job_at = lasted != std::string::npos ? lasted : r.from + verbs.front().end;
    if ((r.verb->initial && english_verb && ascii_value && !capitalised) ||  // "from a distance"
        (r.verb->proper_value && !capitalised) ||                          // "joined a gym"
        (r.verb->job_after && (!EndsInOccupation(TrimValue({job_at, clause_.end})) ||
                               (english_verb && HoldsOfOrBy(TrimValue({r.from + verbs.front().end, clause_.end})))))) {  // 在家做饭, "got made fun of by my manager"
      r.verb = nullptr;
      return true;
    }
    auto negated_before = [&](size_t pos) {
      for (std::string_view no : {"不", "没", "没有"}) {
        if (pos >= r.from + no.size() && s_.substr(pos - no.size(), no.size()) == no) return true;
      }
      return false;
    };
    if (AttemptBefore(at)) {  // "I almost jumped ship to Meta", "tried to move to Leeds": no change happened
      r.verb = nullptr;
      return true;
    }
    r.verb_negated = negated_before(at);
    r.value = TrimValue({r.from + verbs.front().end, clause_.end});
    if (IsWhenWord(*r.value)) {  // "I work at night", "teaches at the weekend": when, not where
      r.verb = nullptr;
      r.value.reset();
      return true;
    }
    if (r.verb->value_before) {  // 在重庆定居
      size_t zai = low_.substr(r.from, at - r.from).rfind("在");
      if (zai != std::string_view::npos && zai >= 3 &&
          (StartsWithAt(s_, r.from + zai - 3, "现") || StartsWithAt(s_, r.from + zai - 3, "正"))) {
        zai = std::string_view::npos;  // 现在, 正在
      }
      if (zai == std::string_view::npos && r.verb->target.attribute == "lives_in") {
        for (std::string_view to : {"回", "到", "来"}) {  // 回长沙定居, 到苏州安家, 来上海定居 (去 is as often ahead)
          const size_t t = low_.substr(r.from, at - r.from).rfind(to);
          if (t == std::string_view::npos || (to == "来" && (r.from + t != opens || StartsWithAt(s_, r.from + verbs.front().end, "是")))) {
            continue;  // 来上海定居快一个月了; not 想来深圳定居, 欢迎来…, 来杭州定居是我的梦想
          }
          zai = t;
          break;
        }
      }
      size_t zai_len = 3;
      if (zai == std::string_view::npos && r.verb->job_after) {  // 给一家出版社做编辑, 去了一家药企做医药代表
        for (std::string_view to : {"去了", "进了", "给"}) {
          if (size_t t = low_.substr(r.from, at - r.from).rfind(to); t != std::string_view::npos) {
            zai = t;
            zai_len = to.size();
            break;
          }
        }
      }
      if (zai == std::string_view::npos && r.verb->job_after && opens == at) {  // 我表弟当网约车司机: a job, no place
        r.value = TrimValue({r.from + verbs.front().end, clause_.end});
        r.by_value = AttributeRef{"job", ""};
        r.verb = nullptr;
        return true;
      }
      if (zai == std::string_view::npos && !r.verb->either_side) {  // "辞掉了教师的工作": not this verb
        r.verb = nullptr;
        r.value.reset();
        return true;
      }
      if (zai != std::string_view::npos) {  // else "现在定居苏州": the value follows the verb
        r.verb_negated |= negated_before(r.from + zai);  // 我不在谷歌工作
        r.value = TrimValue({r.from + zai + zai_len, at});
        if (r.verb->job_after && JobPlaceHoldsAVerb(*r.value)) {  // 在考虑去腾讯做算法, 在帮朋友的店做运营
          r.verb = nullptr;
          r.value.reset();
          return true;
        }
      }
    }
    if (r.verb->proper_value && !ProperValue(*r.value)) return false;  // "joined Priya for dinner"
    if (r.verb->target.attribute == "employer" || r.verb->target.attribute == "school") *r.value = NameBeforePlace(*r.value);
    if (r.verb->target.attribute == "employer" && !r.verb->value_before) {
      if (std::optional<Span> named = EmployerBeforeEntry(r.from, at, *r.value)) *r.value = *named;
      *r.value = BeforeChineseJob(*r.value);  // 跳槽去普华永道做审计: 普华永道
    }
    std::string_view v = rules::SpanText(s_, *r.value);
    const std::string& target = r.verb->target.attribute;
    if (r.verb->value_before && (StartsWithAt(s_, r.from + verbs.front().end, "的时候") ||
                                 StartsWithAt(s_, r.from + verbs.front().end, "时"))) {
      return false;  // 我在腾讯上班的时候很累: when, not what is
    }
    if (VerbIsAnotherWord(verbs.front().phrase, r.from + verbs.front().end)) {
      return false;  // 只用了两天 (how long), 一直用心做事 (用心 is a word of its own), 住院
    }
    if (target == "name" && (AspectParticleAt(r.from + verbs.front().end) || OpensWithChinesePronoun(*r.value))) {
      return false;  // 我们叫了外卖: ordered; 我妈叫我回家吃饭: asks
    }
    if ((target == "employer" || target == "lives_in" || target == "school" || target == "hometown") &&
        (v.empty() || IsDigit(v[0]) || LooksLikeTimeOfDay(*r.value) || OpensWithPronoun(*r.value))) {
      return false;  // "I start at 9am", "I'll keep working at it", "desserts that work for everyone's diets"
    }
    static const std::set<std::string, std::less<>> kHomes = {"家", "新家", "房子", "新房", "新房子", "公寓", "新公寓"};
    if ((target == "lives_in" || r.verb->lasting || lasted != std::string::npos) && kHomes.count(std::string(v)) > 0) {
      return false;  // 搬进新家了: a home, no place; 在家干了三年: no employer
    }
    // A copula after the verb means the verb was not the predicate.
    return v.find("是") == std::string_view::npos && !StartsWithAt(v, 0, "的");
  }

  // 4b. The speaker or a relative is now in a place, in a message that speaks of moving home: "the
  // lease in Leeds finally ran out so we're now in Bristol", "Moved out of that awful place!! I'm
  // in Vancouver now": a copula, adverbs of time, "in", a capitalised name that ends the clause (but
  // for "now", "again", "for good", "these days"), and "now" before or after it, is where they live
  // now. Without a word of moving home in the message (markers `home_move`: moved, the lease,
  // unpacking…) "I'm in Tokyo now!" is a trip as often, and "I'm in Photoshop now", "I'm in
  // Marketing now" or "My dad is in Surgery now" no place at all (an adversarial review of a first
  // version that read every "I'm in X": 70 of 493 probes worse); with a word of a stay (markers
  // `stay`: "visiting", "back home Sunday") it is a stay still. No acronym ("in HR") and no value of
  // the lexicon ("in VS Code").
  void ValueOfPlaceAfterCopula(ValueReading& r, const FactFrame& f) {
    if (r.value || r.verb != nullptr || f.subject_kind == FrameSubject::kNamed) return;
    if (lex_.HasMarker(low_, "stay") || !lex_.HasMarker(low_, "home_move")) return;  // "I'm in Tokyo now! Landed an hour ago"
    size_t i = SkipSpaces(s_, r.from, clause_.end), e = 0;
    if (size_t len = ContractionAt(s_, i); len > 0) i += len;
    for (std::string_view contracted : {"'m", "\xE2\x80\x99m", "'re", "\xE2\x80\x99re"}) {
      if (StartsWithAt(s_, i, contracted)) i += contracted.size();
    }
    bool copula = i > r.from, now = false;
    static const std::set<std::string, std::less<>> kAdverbs = {"now", "currently", "still", "finally", "officially", "already", "back"};
    for (;;) {
      const std::string w = WordAt(low_, SkipSpaces(s_, i, clause_.end), clause_.end, &e);
      if (w == "am" || w == "is" || w == "are") {
        copula = true;
      } else if (kAdverbs.count(w) > 0) {
        now |= w != "still" && w != "currently";
      } else {
        break;
      }
      i = e;
    }
    if (!copula || WordAt(low_, SkipSpaces(s_, i, clause_.end), clause_.end, &e) != "in") return;
    size_t name = SkipSpaces(s_, e, clause_.end), end = name;
    if (StartsWithAt(low_, name, "the ")) end = name = SkipSpaces(s_, name + 4, clause_.end);
    for (const Token& t : AsciiTokens(s_, name, clause_.end)) {
      if (t.begin != SkipSpaces(s_, end, clause_.end) || !IsCapitalAt(s_, t.begin)) break;
      end = t.end;
    }
    const std::string place = Text({name, end});
    if (end == name || IsAcronym(place) || lex_.Value(LowerBytes(place)) != nullptr) return;
    static const std::set<std::string, std::less<>> kTails = {"", "now", "again", "for good", "these days", "now for good", "permanently"};
    std::string tail = LowerBytes(rules::SpanText(s_, rules::TrimSpan(s_, {end, clause_.end})));
    if (kTails.count(tail) == 0) return;
    if (!now && !tail.starts_with("now")) return;
    r.value = Span{name, end};
    r.by_value = AttributeRef{"lives_in", ""};
    r.changes = true;
  }

  // 4c. A switch to a name that no word of the lexicon gives an attribute ("I caved and switched
  // to Helix", "moved over to Arc", "已经换成VS Code了"): the speaker or a relative now uses it.
  // Attribute "uses" with no slot: attributes.tsv makes it one of the tools a slot-less "uses"
  // lists, and what it closes is left to the write path (same thing, same kind, kin words). The
  // name is capitalised (English) or Latin (Chinese: 换成九点 is a time), and no time.
  void ValueOfSwitch(ValueReading& r, const FactFrame& f) {
    if (r.value || r.verb != nullptr || f.subject_kind == FrameSubject::kNamed) return;
    // Not "went back to" (Boston, Google, Sarah), "changed to" (a name, a gate) nor 改用 (帮我把这段代码改用Python写
    // asks the assistant): an adversarial review.
    static constexpr std::string_view kSwitches[] = {"switched to", "switching to", "switched over to", "switched back to",
                                                     "moved over to", "换成", "换到", "切到", "切换到"};
    for (std::string_view sw : kSwitches) {
      const size_t at = static_cast<unsigned char>(sw[0]) < 0x80 ? FindWord(r.rest, sw) : r.rest.find(sw);
      if (at == std::string::npos) continue;
      size_t from = SkipSpaces(s_, r.from + at + sw.size(), clause_.end);
      if (StartsWithAt(s_, from, "了")) from = SkipSpaces(s_, from + 3, clause_.end);  // 换成了
      if (from >= clause_.end) return;
      const bool english = static_cast<unsigned char>(sw[0]) < 0x80;
      if (english ? !(IsCapitalAt(s_, from)) : !IsWordByteAt(s_, from)) return;
      if (!english && !OnlyAdverbsBetween(r.from, r.from + at)) return;  // CDN 已经换成 Cloudflare: the CDN's
      Span value = TrimValue({from, clause_.end});
      if (!english) value = LatinNameAt(from);
      if (value.empty() || TimeValue(value) || LooksLikeTime(value) || (english && !ProperValue(value))) return;
      static const std::set<std::string, std::less<>> kCalendar = {
          "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march",
          "april", "may", "june", "july", "august", "september", "october", "november", "december"};
      size_t e = 0;
      if (kCalendar.count(WordAt(low_, value.begin, value.end, &e)) > 0) return;  // "switched to Tuesday standups"
      r.value = value;
      r.by_value = AttributeRef{"uses", ""};
      r.changes = true;
      return;
    }
  }

  // True when [from, to) holds nothing but spaces and Chinese adverbs of time and manner (已经, 现在,
  // 终于, 还是…): what a switch after them is said of is the clause's subject, not a thing named
  // between.
  bool OnlyAdverbsBetween(size_t from, size_t to) const {
    static constexpr std::string_view kAdverbs[] = {"最后还是", "已经", "现在", "终于", "早就", "还是", "直接", "刚刚",
                                                    "干脆", "索性", "也", "都", "又", "刚", "就"};
    for (size_t i = SkipSpaces(s_, from, to); i < to; i = SkipSpaces(s_, i, to)) {
      const auto* hit = std::find_if(std::begin(kAdverbs), std::end(kAdverbs),
                                     [&](std::string_view a) { return StartsWithAt(s_, i, a); });
      if (hit == std::end(kAdverbs)) return false;
      i += hit->size();
    }
    return true;
  }

  // The Latin name that starts at `from` ("VS Code" of 换成VS Code了): its words and the spaces
  // between them, up to the first other character.
  Span LatinNameAt(size_t from) const {
    size_t end = from;
    for (const Token& t : AsciiTokens(s_, from, clause_.end)) {
      if (t.begin != from && (t.begin != end + 1 || s_[end] != ' ')) break;
      end = t.end;
    }
    return Span{from, end};
  }

  // True when `value` holds the word "of" or "by" ("fun of by my manager", "an offer by the
  // principal"): no job title said after "got made".
  bool HoldsOfOrBy(Span value) const {
    const std::string_view text = low_.substr(value.begin, value.end - value.begin);
    return FindWord(text, "of") != std::string::npos || FindWord(text, "by") != std::string::npos;
  }

  // True when what stands between 在 and 做 holds a verb, so it names no employer: 在考虑去腾讯,
  // 在帮朋友的店.
  bool JobPlaceHoldsAVerb(Span place) const {
    std::string_view text = rules::SpanText(s_, place);
    for (std::string_view verb : {"考虑", "帮", "去", "想", "打算", "准备", "给"}) {
      if (text.find(verb) != std::string_view::npos) return true;
    }
    return false;
  }

  // True when a one-character verb of the lexicon ending `phrase` (用, 住) is the first character of
  // another word at `at`, or takes an aspect or a complement, not a value: 用了 (for how long), 用心,
  // 用力, 用不惯, 用来; 住院, 住宿, 住了三天, 住不惯, 住一起.
  bool VerbIsAnotherWord(std::string_view phrase, size_t at) const {
    static const std::vector<std::string_view> kAfterUse = {
        "了", "心", "力", "功", "餐", "不", "来", "于", "过", "完", "掉", "得", "着", "户", "品", "途", "法", "意"};
    static const std::vector<std::string_view> kAfterLive = {
        "了", "过", "着", "得", "不", "院", "宿", "址", "房", "户", "手", "口", "一", "进", "下", "久", "满", "几", "两"};
    const std::vector<std::string_view>* next = phrase.ends_with("用") ? &kAfterUse
                                                 : phrase == "住"      ? &kAfterLive
                                                                       : nullptr;
    if (next == nullptr) return false;
    return std::any_of(next->begin(), next->end(), [&](std::string_view n) { return StartsWithAt(s_, at, n); });
  }

  // "腾讯入职第一天", "字节入职三个月了": after 入职 a count of time, so the employer is what stands
  // between the clause's start (less a time) and the verb; nullopt when the value after is no count.
  std::optional<Span> EmployerBeforeEntry(size_t from, size_t verb, Span value) const {
    if (!StartsWithAt(s_, verb, "入职")) return std::nullopt;
    bool counted = StartsWithAt(s_, value.begin, "第") || StartsWithAt(s_, value.begin, "以来") ||
                   (value.begin < s_.size() && IsDigit(s_[value.begin]));
    for (std::string_view n : {"一", "两", "二", "三", "四", "五", "六", "七", "八", "九", "十", "半", "几"}) {
      counted = counted || StartsWithAt(s_, value.begin, n);
    }
    // Nothing after it but a particle ("在美团入职了") names no other value either.
    const std::string_view after = rules::SpanText(s_, rules::TrimSpan(s_, value));
    const bool particle = after == "了" || after == "啦" || after == "了啦";
    if (!counted && !value.empty() && !particle) return std::nullopt;
    Span before = {SkipSpaces(s_, from, verb), verb};
    // "从字节离职后上周一在美团入职了": the place of entry is what 在 introduces.
    if (const size_t at = rules::SpanText(s_, before).rfind("在"); at != std::string_view::npos) {
      before.begin += at + std::string_view("在").size();
    }
    before = rules::TrimSpan(s_, rules::CutTimes(s_, before, times_));
    for (std::string_view lead : {"今天", "刚刚", "刚", "已经", "我", "在"}) {
      if (StartsWithAt(s_, before.begin, lead) && before.size() > lead.size()) before.begin += lead.size();
    }
    before = rules::TrimSpan(s_, before);
    if (before.empty() || before.size() > 24) return std::nullopt;
    return before;
  }

  // A Chinese employer less the job said after it with 做 or 当 ("普华永道做审计", "顺丰当快递员").
  Span BeforeChineseJob(Span value) const {
    std::string_view v = rules::SpanText(s_, value);
    for (std::string_view verb : {"做", "当"}) {
      const size_t at = v.find(verb);
      if (at != std::string_view::npos && at >= 6) return rules::TrimSpan(s_, {value.begin, value.begin + at});
    }
    return value;
  }

  // A capitalised name less the place or part said after it: "Shopify on the checkout team",
  // "Google in Zurich", "Bosch near Stuttgart" name Shopify, Google and Bosch ("Bank of America" stays
  // whole). Other values are returned as they are.
  Span NameBeforePlace(Span value) const {
    if (value.empty() || !IsCapitalAt(s_, value.begin)) return value;
    static const std::set<std::string, std::less<>> kPlaces = {"on", "in", "at", "near", "outside", "from", "with"};
    const std::vector<Token> tokens = AsciiTokens(s_, value.begin, value.end);
    for (size_t k = 1; k + 1 < tokens.size(); ++k) {
      const std::string w(s_.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
      if (kPlaces.count(w) == 0) continue;
      // What follows says where: a lowercase word ("on the checkout team", "in a small office"), or
      // a capitalised place right after "in", "near" or "outside" ("in Zurich"); not a name's own
      // words ("Jack in the Box", "Hooked on Phonics").
      size_t n = k + 1;
      const std::string next = LowerBytes(s_.substr(tokens[n].begin, tokens[n].end - tokens[n].begin));
      if ((next == "the" || next == "a" || next == "an" || next == "our" || next == "my") && n + 1 < tokens.size()) ++n;
      const bool lower = s_[tokens[n].begin] >= 'a' && s_[tokens[n].begin] <= 'z';
      const bool place = n == k + 1 && (w == "in" || w == "near" || w == "outside");
      if (lower || place) return rules::TrimSpan(s_, {value.begin, tokens[k].begin});
    }
    return value;
  }

  // A name and nothing else, or a name and the job said with it: every ASCII word of `value` up to
  // an "as" begins with a capital letter or a digit ("Datadog", "Goldman Sachs as an analyst"), so
  // "Priya and Sam for dinner" is not one. A time after the name is already cut (TrimValue).
  bool ProperValue(Span& value) const {
    for (const Token& t : AsciiTokens(s_, value.begin, value.end)) {
      if (s_[t.begin] < 'a' || s_[t.begin] > 'z') continue;
      if (t.begin == value.begin || s_.substr(t.begin, t.end - t.begin) != "as") return false;
      value = TrimValue({value.begin, t.begin});
      return !value.empty();
    }
    return true;
  }

  // 5. An attribute word and a copula: "的角色是维护者", "My home is now in Madrid".
  void ValueOfAttributeWord(ValueReading& r) const {
    for (const PhraseHit& hit : lex_.FindAttributeWords(r.rest)) {
      if (r.value && r.from + hit.begin >= r.value->begin) break;
      if (!NamesSubjectsAttribute(r.from, r.from + hit.begin, hit.phrase)) continue;
      // A word a verb's value follows with no copula between is the verb's subject, not the value's
      // attribute: 我们公司主要用飞书 (what the company uses), not the speaker's employer.
      if (r.value && r.verb != nullptr && SkipCopula(r.from + hit.end) == std::string::npos) continue;
      r.word = lex_.AttributeWord(hit.phrase);
      if (!r.value) {
        size_t word_end = r.from + hit.end;
        for (std::string_view mine : {" for me", " for us", " to me"}) {  // "Home for me is Vancouver"
          if (StartsWithAt(low_, word_end, mine)) word_end += mine.size();
        }
        size_t after = SkipCopula(word_end);
        if (after != std::string::npos) {
          r.value = TimeValue({after, clause_.end});  // "my birthday is May 8": a date stays the value
          if (!r.value) r.value = TrimValue({after, clause_.end});
        }
        if (r.value && !r.value->empty() && OpensWithDegreeWord(*r.value)) r.value.reset();  // "my team is like family"
      }
      if (r.value) break;
    }
  }

  // The job `value` names: all of it when it ends in an occupation ("staff engineer"), else its
  // words before a preposition when they do ("tech lead" in "tech lead on the billing team",
  // "staff engineer" in "staff engineer at Globex"); nullopt otherwise.
  std::optional<Span> OccupationOf(Span value) const {
    if (EndsInOccupation(value)) return value;
    for (const Token& t : AsciiTokens(s_, value.begin, value.end)) {
      const std::string w = LowerBytes(s_.substr(t.begin, t.end - t.begin));
      if (w != "at" && w != "on" && w != "for" && w != "with" && w != "in" && w != "of") continue;
      Span head = rules::TrimSpan(s_, {value.begin, t.begin});
      return !head.empty() && EndsInOccupation(head) ? std::optional<Span>(head) : std::nullopt;
    }
    return std::nullopt;
  }

  // True when `value` ends in an occupation of the lexicon, or in a hyphenated compound whose last
  // part is one ("sous-chef", "co-founder").
  bool EndsInOccupation(Span value) const {
    std::string low_value = LowerBytes(Text(value));
    if (const size_t dash = low_value.rfind('-'); dash != std::string::npos && dash + 1 < low_value.size() &&
                                                  low_value.find(' ', dash) == std::string::npos) {
      low_value[dash] = ' ';
    }
    std::vector<PhraseHit> occ = lex_.FindMarkers(low_value, "occupation");
    return (!occ.empty() && occ.back().end == low_value.size()) || HanOccupationBySuffix(low_value);
  }

  // True when `word` is Han only, of two characters or more before an ending of the lexicon's
  // `occupation_suffix` (信贷员, 营养师, 区域经理), and ends in no word of `not_occupation` (会员).
  bool HanOccupationBySuffix(std::string_view word) const {
    if (word.size() < 9 || word.size() > 24) return false;
    for (size_t i = 0; i < word.size(); i += 3) {
      char32_t cp = 0;
      size_t len = 0;
      if (!rules::DecodeUtf8(word, i, &cp, &len) || len != 3 || !rules::IsHan(cp)) return false;
    }
    auto ends_in = [&](std::string_view kind) {
      for (const PhraseHit& h : lex_.FindMarkers(word, kind)) {
        if (h.end == word.size() && h.begin >= 6) return true;
      }
      return false;
    };
    return ends_in("occupation_suffix") && !ends_in("not_occupation");
  }

  // 5b. A person and a copula: "I'm a nurse", "Priya is a staff engineer", "我表弟是厨师", "我是一名软件工程师"
  // (a job, when the phrase ends in an occupation of the lexicon); "I'm Lin", "Hi, I am Lin" (a
  // name: one capitalised word that ends the clause).
  void ValueOfOccupationOrName(ValueReading& r, const FactFrame& f) const {
    if (r.value) return;
    const bool person = f.subject_kind == FrameSubject::kSpeaker || f.subject_kind == FrameSubject::kRelative ||
                        (f.subject_kind == FrameSubject::kNamed && !IsIdentifierName(f.subject) &&
                         f.subject.find(' ') == std::string::npos);
    if (!person) return;
    size_t i = SkipSpaces(s_, r.from, clause_.end);
    for (std::string_view kind : {"discourse", "now"}) i = MarkerEndAt(i, kind);  // 表弟现在是…
    for (std::string_view adverb : {"也", "还", "都", "就", "仍然", "依然"}) {  // 我也是程序员, 我还是学生
      if (StartsWithAt(s_, i, adverb) && StartsWithAt(s_, i + adverb.size(), "是")) i += adverb.size();
    }
    size_t e = 0;
    const std::string w = WordAt(low_, i, clause_.end, &e);
    // "I'm", "I’m", "he's": the copula was part of the subject's word.
    const bool contracted = r.from >= clause_.begin + 2 && (s_[r.from - 1] == 'm' || s_[r.from - 1] == 's') &&
                            (s_[r.from - 2] == '\'' ||
                             (r.from >= clause_.begin + 4 && StartsWithAt(s_, r.from - 4, "\xE2\x80\x99")));
    if (w == "was" && f.subject_kind == FrameSubject::kRelative) return;  // "Dad was a teacher": then, not now
    if (w == "am" || w == "is" || w == "was") {
      i = SkipSpaces(s_, e, clause_.end);
    } else if (StartsWithAt(s_, i, "是")) {
      i += 3;
    } else if (!contracted && role_end_ == std::string::npos) {
      return;
    }
    for (std::string_view article : {"a ", "an ", "the ", "一名", "一个", "一位", "个"}) {
      if (StartsWithAt(low_, i, article)) i = SkipSpaces(s_, i + article.size(), clause_.end);
    }
    for (std::string_view owner : {"our ", "my ", "their ", "his ", "her ", "我们的", "我的"}) {
      if (StartsWithAt(low_, i, owner)) return;  // "Priya is our team lead": the role's holder (7.)
    }
    Span value = TrimValue({i, std::min(role_end_, clause_.end)});
    if (value.empty() || OpensWithDegreeWord(value)) return;  // "such an inspiring writer"
    std::string low_value = LowerBytes(Text(value));
    if (std::optional<Span> job = OccupationOf(value); job && !Evaluative(*job)) {
      r.value = *job;
      r.by_value = AttributeRef{"job", ""};
      return;
    }
    if (std::optional<Span> tool = ToolOfAUser(value); tool && w != "was") {  // "I'm a longtime Firefox user", 我是重度WPS用户
      r.value = *tool;
      const AttributeRef* known = lex_.Value(Text(*tool));  // "Firefox": a browser (values.tsv)
      r.by_value = known != nullptr && known->attribute == "uses" ? *known : AttributeRef{"uses", ""};
      return;
    }
    std::vector<Token> tokens = AsciiTokens(s_, value.begin, value.end);
    if (f.subject_kind == FrameSubject::kSpeaker && w != "was" && w != "is" && value.begin == i && tokens.size() == 1 &&
        IsCapitalAt(s_, value.begin) && lex_.FindValues(low_value).empty() && value.size() == tokens[0].end - tokens[0].begin) {
      r.value = value;
      r.by_value = AttributeRef{"name", ""};
    }
  }

  // The tool of "<a tool> user" ("longtime Firefox user", "重度WPS用户", "忠实的iPhone用户"): the
  // name before "user" / "用户", past words saying how much (heavy, daily, 重度, 忠实); a name is
  // written with a capital or in Latin letters among Han ("a power user" names none).
  std::optional<Span> ToolOfAUser(Span value) const {
    std::string_view text = rules::SpanText(s_, value);
    size_t end = value.end;
    if (text.ends_with(" user")) {
      end -= 5;
    } else if (text.ends_with("用户")) {
      end -= 6;
    } else {
      return std::nullopt;
    }
    Span tool = rules::TrimSpan(s_, {value.begin, end});
    size_t fe = 0;
    const std::string first = WordAt(low_, tool.begin, tool.end, &fe);
    if (first == "former" || first == "ex" || first == "recovering" || first == "old" || first == "one-time") {
      return std::nullopt;  // "a former Firefox user"
    }
    for (std::string_view how : {"重度", "忠实的", "忠实", "资深", "老", "多年的", "深度"}) {
      if (StartsWithAt(s_, tool.begin, how)) tool.begin += how.size();
    }
    tool = rules::TrimSpan(s_, tool);
    for (const Token& t : AsciiTokens(s_, tool.begin, tool.end)) {  // past "heavy", "die-hard", "longtime"
      if (IsCapitalAt(s_, t.begin) || static_cast<unsigned char>(s_[value.begin]) >= 0x80) {
        tool.begin = t.begin;
        break;
      }
    }
    if (tool.empty() || (!IsCapitalAt(s_, tool.begin) && !(static_cast<unsigned char>(s_[tool.begin]) < 0x80 &&
                                                            static_cast<unsigned char>(s_[value.begin]) >= 0x80))) {
      return std::nullopt;
    }
    if (rules::SpanText(s_, tool).find(' ') != std::string_view::npos && AsciiTokens(s_, tool.begin, tool.end).size() > 3) {
      return std::nullopt;
    }
    static const std::set<std::string, std::less<>> kTiers = {"vip", "svip", "vvip", "plus", "pro", "premium", "free", "paid", "new"};
    if (kTiers.count(LowerBytes(Text(tool))) > 0) return std::nullopt;  // 我是VIP用户: a tier, no tool
    return tool;
  }

  // A judgement of how someone does a thing, not their job: "a terrible driver", "a great cook",
  // "好司机", "an artist at heart".
  bool Evaluative(Span job) const {
    static const std::set<std::string, std::less<>> kJudgements = {
        "good", "great", "terrible", "bad", "awful", "amazing", "excellent", "decent", "lousy", "horrible",
        "fantastic", "wonderful", "natural", "born", "real", "total", "better", "best", "worse", "worst", "careful"};
    const std::vector<Token> tokens = AsciiTokens(s_, job.begin, job.end);
    auto word = [&](size_t k) { return k < tokens.size() ? LowerBytes(s_.substr(tokens[k].begin, tokens[k].end - tokens[k].begin)) : ""; };
    size_t k = 0;
    if (word(0).size() > 4 && word(0).ends_with("ly")) k = word(1) == "a" || word(1) == "an" ? 2 : 1;  // "clearly a bad singer"
    if (k < tokens.size() && kJudgements.count(word(k)) > 0 && !(word(k) == "real" && word(k + 1) == "estate")) {
      return true;  // "a real pro", not "a real estate agent"
    }
    if (FindWord(low_.substr(job.end, clause_.end - job.end), "at heart") != std::string::npos) return true;
    for (std::string_view zh : {"好", "坏", "烂", "棒", "厉害的", "优秀的", "合格的"}) {
      if (StartsWithAt(s_, job.begin, zh)) return true;
    }
    return false;
  }

  // 6. A named thing and a bare copula: "control-01 是测试账号".
  void ValueOfNamedCopula(ValueReading& r, const FactFrame& f) const {
    if (r.value || f.subject_kind != FrameSubject::kNamed || !IsIdentifierName(f.subject)) return;
    if (size_t after = SkipCopula(r.from); after != std::string::npos) {
      r.value = TrimValue({after, clause_.end});
      r.by_value = AttributeRef{"is_a", ""};
    }
  }

  // True when a determiner ("the", "our", "this", ...) stands right before `name` in the clause.
  bool AfterDeterminer(const std::string& name) const {
    static const std::set<std::string, std::less<>> kDeterminers = {"the", "a", "an", "our", "my", "his", "her",
                                                                    "their", "your", "this", "that", "next"};
    const size_t at = low_.find(LowerBytes(name), clause_.begin);
    if (at == std::string_view::npos || at >= clause_.end) return false;
    size_t b = at;
    while (b > clause_.begin && s_[b - 1] == ' ') --b;
    size_t w = b;
    while (w > clause_.begin && IsWordByteAt(s_, w - 1)) --w;
    return w < b && kDeterminers.count(low_.substr(w, b - w)) > 0;
  }

  // What stands before a reschedule verb at `verb` less the auxiliaries and adverbs between ("the
  // offsite got", "standup has been", "周会又", "截止日期已经").
  Span ThingBeforeVerb(size_t body, size_t verb) const {
    Span before = StripTrailingWords(
        rules::TrimSpan(s_, {body, verb}),
        {"was", "got", "has", "have", "had", "been", "is", "are", "being", "just", "finally", "already", "again",
         "officially", "now", "be", "will", "get", "did", "didn't", "not", "never", "hasn't", "haven't", "won't",
         "wasn't", "isn't", "doesn't", "does", "might", "may", "could", "should", "would", "to", "probably", "maybe",
         "perhaps", "possibly", "likely", "still", "also", "currently", "fully", "completely", "entirely",
         "successfully", "quietly", "partially", "partly", "mostly", "eventually", "recently"});
    for (const Token& t : AsciiTokens(s_, before.begin, before.end)) {  // "someone said the launch": the launch
      static const std::set<std::string, std::less<>> kDeterminers = {"the", "our", "my", "this", "that", "their", "his", "her", "your"};
      if (kDeterminers.count(LowerBytes(s_.substr(t.begin, t.end - t.begin))) > 0 && t.end < before.end) before.begin = t.end;
    }
    for (bool moved = true; moved;) {
      moved = false;
      for (std::string_view adverb : {"已经", "又", "被", "也", "都", "临时", "正式", "已", "刚刚", "刚", "再次", "要", "目前", "现在", "当前", "一直", "还是", "还", "当时",
                                      "全部", "全都", "整体", "统一", "彻底",
                                      "没有", "没", "不", "不会", "将会", "可能会", "可能"}) {  // not 会: 周会
        if (before.size() > adverb.size() && low_.substr(before.begin, before.size()).ends_with(adverb)) {
          before.end -= adverb.size();
          moved = true;
        }
      }
    }
    before = AfterLastComma(rules::TrimSpan(s_, before));
    std::string_view text = rules::SpanText(s_, before);
    if (size_t ba = text.rfind("把"); ba != std::string_view::npos) before.begin += ba + 3;  // 老板把周会改到…
    text = rules::SpanText(s_, before);
    if (size_t from = text.find("从"); from != std::string_view::npos) before.end = before.begin + from;  // 周会从周三改到…
    return rules::TrimSpan(s_, before);
  }

  // A determiner or a possessive right before `at`: the word there is a noun ("a delay", "the
  // move"), not a verb.
  bool NounBefore(size_t at) const {
    size_t b = at;
    while (b > clause_.begin && s_[b - 1] == ' ') --b;
    size_t w = b;
    while (w > clause_.begin && (IsWordByteAt(s_, w - 1) || s_[w - 1] == '\'')) --w;
    static const std::set<std::string, std::less<>> kDeterminers = {
        "a", "an", "the", "this", "that", "my", "our", "his", "her", "their", "its", "any", "no", "another", "your"};
    return w < b && kDeterminers.count(low_.substr(w, b - w)) > 0;
  }

  // A rescheduled thing's name: a short noun phrase (at most four words, or eight Han
  // characters) that is no person, pronoun, time or adverb ("I moved to Friday": the speaker's;
  // "Tom moved out for the weekend": no thing).
  bool IsRescheduledThing(Span thing) const {
    if (thing.empty() || rules::CutTimes(s_, thing, times_).size() < thing.size()) return false;
    std::string_view text = rules::SpanText(s_, thing);
    static const std::set<std::string, std::less<>> kAdverbs = {"in", "out", "here", "there", "home", "back", "away",
                                                                "up", "down", "over", "off", "on", "around", "abroad"};
    if (kAdverbs.count(LowerBytes(text)) > 0) return false;
    const bool han = static_cast<unsigned char>(text[0]) >= 0x80;
    if (han ? text.size() > 24 : std::count(text.begin(), text.end(), ' ') > 3) return false;
    for (std::string_view person : {"我", "你", "他", "她", "它", "咱", "大家"}) {
      if (text.find(person) != std::string_view::npos) return false;
    }
    for (const Token& t : AsciiTokens(s_, thing.begin, thing.end)) {
      const std::string w = LowerBytes(s_.substr(t.begin, t.end - t.begin));
      if (SpeakerWords().count(w) > 0 || UnresolvedWords().count(w) > 0 || w == "it" || w == "me" || w == "us" ||
          w == "them" || w == "everything" || w == "everyone") {
        return false;
      }
    }
    return true;
  }

  // 7. A thing and a copula: "the offsite is on Tuesday" (when), "the search cluster is down"
  // (state), "my flat is in Leith" (location), "my favorite color is blue" (is); inverted, "Tom is
  // our team lead" and "Green has become my favorite color": the owned thing is the subject and
  // the name its value. A person's description ("Tom is nice") is not read.
  void ValueOfThingCopula(ValueReading& r, FactFrame* f) const {
    if (r.value || f->subject_kind != FrameSubject::kNamed || IsIdentifierName(f->subject)) return;
    std::string first = LowerBytes(f->subject.substr(0, f->subject.find(' ')));
    if (FunctionWords().count(first) > 0 || UnresolvedWords().count(first) > 0) return;  // "it is ..."
    static const std::set<std::string, std::less<>> kNotThings = {"which", "here's", "everything", "something",
                                                                  "nothing", "anything", "everyone", "all", "glad",
                                                                  "thing", "following", "feeling", "thinking", "point"};
    if (kNotThings.count(first) > 0) return;
    // "Being a mom is ...", "Dancing is fun": an activity; "the meeting", "our wedding": a thing.
    if (first.size() > 4 && first.ends_with("ing") && !AfterDeterminer(f->subject)) return;
    std::optional<Span> cop = CopulaAfter(r.from);
    const size_t said_at = SkipSpaces(s_, r.from, clause_.end);
    const bool han_next = said_at < clause_.end && static_cast<unsigned char>(s_[said_at]) >= 0x80;
    if (subject_thing_ && han_next && (!cop || said_at != cop->begin)) {  // 订单服务挂了: no copula
      std::vector<PhraseHit> state = lex_.FindMarkers(low_.substr(said_at, clause_.end - said_at), "thing_state");
      if (state.empty() || state.front().begin != 0) return;
      r.value = Span{said_at, said_at + state.front().end};  // the state word as the lexicon has it
      r.by_value = AttributeRef{"state", ""};
      return;
    }
    if (!cop || SkipSpaces(s_, r.from, clause_.end) != cop->begin) return;
    const Span raw = rules::TrimSpan(s_, {cop->end, clause_.end});
    if (raw.empty()) return;
    const bool person = !subject_thing_ && f->subject.find(' ') == std::string::npos && IsCapitalAt(s_, SubjectStart(cop->begin));
    if (const AttributeRef* named = BareAttributeWord(raw)) {  // "Utrecht is home now"
      f->subject_kind = FrameSubject::kSpeaker;
      f->subject.clear();
      r.value = rules::TrimSpan(s_, {SubjectStart(cop->begin), cop->begin});
      r.by_value = *named;
      return;
    }
    if (std::optional<Span> owned = OwnedPhrase(raw)) {  // "Tom is our team lead"
      if (const AttributeRef* named = lex_.AttributeWord(LowerBytes(Text(*owned)))) {  // "Lisbon is my home"
        f->subject_kind = FrameSubject::kSpeaker;
        f->subject.clear();
        r.value = rules::TrimSpan(s_, {SubjectStart(cop->begin), cop->begin});
        r.by_value = *named;
        return;
      }
      f->subject = LowerBytes(Text(*owned));
      r.value = Span{SubjectStart(cop->begin), rules::TrimSpan(s_, {SubjectStart(cop->begin), cop->begin}).end};
      r.by_value = AttributeRef{"is", ""};
      return;
    }
    if (person) return;
    if (std::optional<Span> time = TimeValue(raw)) {  // "the deadline is March 3", "standup is at 9:30"
      r.value = *time;
      r.by_value = AttributeRef{"when", ""};
      return;
    }
    Span value = TrimValue(raw);
    if (value.empty()) return;
    AttributeRef type = CopulaValueType(raw, value);
    // A description ("the colors are so bold", "mental health is important to me") is not a slot:
    // the generic "is" holds only a value that identifies (a name, a number, "a Honda" of mine).
    if (type.attribute == "is" && !IdentifyingValue(value, owned_thing_)) return;
    r.value = value;
    r.by_value = type;
  }

  // A value that names or identifies rather than describes: it opens with a capital or a digit
  // ("Priya", "Honda", "16"), is a short Han phrase with no degree word ("小张"), or — said of the
  // speaker's own thing — at most three words that do not open with a degree word ("blue").
  bool IdentifyingValue(Span value, bool owned) const {
    std::string_view v = rules::SpanText(s_, value);
    if ((IsCapitalAt(v, 0)) || IsDigit(v[0])) return true;
    if (static_cast<unsigned char>(v[0]) >= 0x80) {
      for (std::string_view degree : {"很", "非常", "太", "真", "挺", "好", "最", "超", "特别", "比较"}) {
        if (v.find(degree) != std::string_view::npos) return false;
      }
      return v.size() <= 12;
    }
    if (!owned || std::count(v.begin(), v.end(), ' ') > 2) return false;
    return !OpensWithDegreeWord(value);
  }

  // A Chinese personal pronoun opens `value`: 我妈叫我回家吃饭 — 叫 asks someone, names no one (a
  // place may open with one: 住在我姐家).
  bool OpensWithChinesePronoun(Span value) const {
    for (std::string_view zh : {"我", "你", "他", "她", "它", "大家"}) {
      if (StartsWithAt(s_, value.begin, zh)) return true;
    }
    return false;
  }

  bool OpensWithPronoun(Span value) const {
    size_t e = 0;
    std::string w = WordAt(low_, value.begin, value.end, &e);
    if (e < value.end && (low_[e] == '-' || low_[e] == '_')) return false;  // "us-east-1", "home-lab": a name
    if (w.ends_with("'s")) w.resize(w.size() - 2);
    static const std::set<std::string, std::less<>> kPronouns = {
        "it", "this", "that", "them", "they", "everyone", "everything", "something", "someone", "anything",
        "all", "some", "home", "there", "here", "you", "your", "him", "her", "me", "us", "which", "what"};
    return kPronouns.count(w) > 0;
  }

  // "so bold", "like my second family", "kind of fun", "pretty good": a description or a
  // comparison, never a value of a slot.
  bool OpensWithDegreeWord(Span value) const {
    size_t e = 0;
    static const std::set<std::string, std::less<>> kDegree = {
        "so", "really", "very", "pretty", "such", "too", "quite", "super", "kind", "all", "about", "going",
        "one", "what", "how", "to", "be", "being", "not", "like", "more", "less", "just", "always", "a bit"};
    return kDegree.count(WordAt(low_, value.begin, value.end, &e)) > 0;
  }

  // Where the subject phrase ending before `copula` begins (the clause body, past discourse).
  size_t SubjectStart(size_t copula) const {
    size_t b = copula;
    while (b > clause_.begin && IsSpaceByte(s_[b - 1])) --b;
    size_t start = b;
    while (start > clause_.begin && !IsSpaceByte(s_[start - 1]) && s_[start - 1] != ',' && s_[start - 1] != ';') --start;
    for (;;) {  // "Iron Man is my top pick": the capitalised words before it too
      size_t prev_end = start;
      while (prev_end > clause_.begin && s_[prev_end - 1] == ' ') --prev_end;
      size_t prev = prev_end;
      while (prev > clause_.begin && IsWordByteAt(s_, prev - 1)) --prev;
      if (prev == prev_end || prev_end == start || !(IsCapitalAt(s_, prev)) ||
          FunctionWords().count(LowerBytes(s_.substr(prev, prev_end - prev))) > 0) {
        return start;
      }
      start = prev;
    }
  }

  // "home" in "Utrecht is home now btw": a copula's complement that is one English attribute word of
  // the lexicon and nothing more than discourse words after it — the subject phrase is then the
  // speaker's value of that attribute. Null otherwise ("Utrecht is home to a university").
  const AttributeRef* BareAttributeWord(Span raw) const {
    size_t e = 0;
    const std::string w = WordAt(low_, raw.begin, raw.end, &e);
    const AttributeRef* ref = w.empty() ? nullptr : lex_.AttributeWord(w);
    if (ref == nullptr || ref->attribute == "status" || ref->attribute == "version") return nullptr;
    for (size_t i = SkipSpaces(s_, e, raw.end); i < raw.end; i = SkipSpaces(s_, i, raw.end)) {
      size_t next = MarkerEndAt(i, "discourse");
      if (next == i) return nullptr;
      i = next;
    }
    return ref;
  }

  // "our team lead" / "my favorite color" / "我们的组长": the noun phrase after the possessive.
  std::optional<Span> OwnedPhrase(Span raw) const {
    size_t e = 0;
    std::string w = WordAt(low_, raw.begin, raw.end, &e);
    size_t b = 0;
    if (w == "my" || w == "our") b = SkipSpaces(s_, e, raw.end);
    for (std::string_view zh : {"我们的", "我的", "我们"}) {
      if (b == 0 && StartsWithAt(s_, raw.begin, zh)) b = raw.begin + zh.size();
    }
    if (b == 0) return std::nullopt;
    Span np = TrimValue({b, raw.end});
    if (np.empty() || std::count(s_.begin() + np.begin, s_.begin() + np.end, ' ') > 3) return std::nullopt;
    return np;
  }

  // What a copula's value says of a thing: a time ("at 3pm", "on Tuesday", "下午五点") → when; a
  // state word ("down", "back up", "故障") → state; a place after "in"/"at"/"在" → location; a
  // product and a number ("postgres 14") → version; anything else → is.
  AttributeRef CopulaValueType(Span raw, Span value) const {
    if (rules::CutTimes(s_, value, times_).size() < value.size() || LooksLikeTimeOfDay(value)) return {"when", ""};
    std::string_view low_raw = low_.substr(raw.begin, raw.end - raw.begin);
    std::vector<PhraseHit> state = lex_.FindMarkers(low_raw, "thing_state");
    if (!state.empty() && state.front().begin <= 8) return {"state", ""};
    const bool named_place = static_cast<unsigned char>(s_[value.begin]) >= 0x80 ||
                             (IsCapitalAt(s_, value.begin));
    const bool placed = low_raw.starts_with("in ") || low_raw.starts_with("at ") || low_raw.starts_with("on ");
    if ((placed || StartsWithAt(s_, raw.begin, "在")) && named_place && !low_raw.starts_with("on ")) {
      return {"location", ""};  // "in Brooklyn", not "at the top of my list"
    }
    // "is on Django 4.2", "is on Java 11"; not "is on floor 3", "at gate 7" (a place's number).
    const bool whole_number = value.end > value.begin && IsDigit(s_[value.end - 1]) &&
                              low_.substr(value.begin, value.end - value.begin).find('.') == std::string_view::npos;
    if (ProductVersion(value) && !(placed && whole_number && !named_place)) return {"version", ""};
    return {"is", ""};
  }

  // The time `raw` says, less a leading preposition ("on March 3", "at 9:30 on Friday", "to the
  // 16th", "下周二"): times (TimeEndAt) joined by "at", "on", "the" or a comma, and then nothing
  // or only what TimeTailStops opens ("April 10, starting this week", "周四了"). Nullopt when
  // anything else comes first ("in the box", "10 replicas").
  std::optional<Span> TimeValue(Span raw) const {
    const Span rest = StripLeadingWords(rules::TrimSpan(s_, raw), {"on", "at", "in", "for", "by", "due", "until", "till", "to", "the"});
    std::optional<Span> whole;
    for (size_t i = rest.begin; i < rest.end;) {
      const size_t e = TimeEndAt(i, rest.end);
      if (e == i) break;
      whole = Span{whole ? whole->begin : i, e};
      i = SkipSpaces(s_, e, rest.end);
      if (TimeEndAt(i, rest.end) > i) continue;  // "下周三下午三点"
      size_t je = 0;
      const std::string joiner = i < rest.end && s_[i] == ',' ? "," : WordAt(low_, i, rest.end, &je);
      if (joiner == ",") je = i + 1;
      if (joiner != "," && joiner != "at" && joiner != "on" && joiner != "the") break;
      const size_t next = SkipSpaces(s_, je, rest.end);
      if (TimeEndAt(next, rest.end) == next) break;
      i = next;
    }
    if (!whole) return std::nullopt;
    const size_t tail = SkipSpaces(s_, whole->end, rest.end);
    if (tail < rest.end && !TimeTailStops(tail, rest.end)) return std::nullopt;
    return whole;
  }

  // What may follow a time value and is not part of it: punctuation, 了/起/开始, and words that
  // open a qualifier or another clause ("starting", "because", "for the launch", "and").
  bool TimeTailStops(size_t i, size_t end) const {
    for (std::string_view p : {",", ";", ".", "!", "(", "-", "，", "；", "。", "！", "了", "起", "开始", "以后", "之后", "而",
                               "不是", "并非"}) {
      if (StartsWithAt(s_, i, p)) return true;
    }
    static const std::set<std::string, std::less<>> kStops = {
        "starting", "from", "because", "since", "as", "due", "for", "so", "and", "but", "instead", "this", "next",
        "after", "until", "now", "again", "then", "which", "with", "onwards", "going", "though", "apparently"};
    size_t e = 0;
    return kStops.count(WordAt(low_, i, end, &e)) > 0;
  }

  // The end of a time that starts at `i` (not past `end`), `i` when none does: a time mention of
  // the content ("April 10", "next week", "4月10日"); a time of day or a day ("9:30", "3pm",
  // "10 am", "noon", "Thursday", "16th"); a short Han phrase of one ("周四", "下午三点"). A bare
  // number is no time ("10 replicas").
  size_t TimeEndAt(size_t i, size_t end) const {
    if (i >= end) return i;
    for (const Span& t : times_) {
      if (t.begin <= i && i < t.end) return std::min(t.end, end);  // "[the] 9th of May"
    }
    if (static_cast<unsigned char>(s_[i]) >= 0x80) return HanTimeEnd(i, end);
    size_t e = i;
    while (e < end && IsDigit(s_[e])) ++e;
    if (e > i) {
      const size_t digits = e;
      if (e + 2 < end && IsClock(s_.substr(i, e + 3 - i)) && (e + 3 >= end || !IsDigit(s_[e + 3]))) e += 3;
      const size_t clock = e;
      const size_t after = SkipSpaces(s_, e, end);
      for (std::string_view suffix : {"am", "pm", "a.m.", "p.m.", "st", "nd", "rd", "th", "o'clock"}) {
        const size_t at = (suffix.size() == 2 && (suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th")) ? e : after;
        if (!StartsWithAt(low_, at, suffix)) continue;
        const size_t se = at + suffix.size();
        if (se < end && IsWordByteAt(s_, se)) continue;
        return se;
      }
      return clock > digits ? clock : i;  // "9:30", not "10"
    }
    size_t we = 0;
    std::string w = WordAt(low_, i, end, &we);
    if (w == "next" || w == "this" || w == "coming") {  // "next Tuesday"
      const size_t day = SkipSpaces(s_, we, end);
      w = WordAt(low_, day, end, &we);
    }
    static const std::set<std::string, std::less<>> kDays = {"monday", "tuesday", "wednesday", "thursday", "friday",
                                                              "saturday", "sunday", "noon", "midnight", "tomorrow",
                                                              "tonight", "today", "weekend"};
    return kDays.count(w) > 0 ? we : i;
  }

  // The end of a Chinese day or time of day at `i` ("周四", "下周三", "星期五", "下午三点半", "十点
  // 一刻", "8号"), `i` when none starts there: the words end where the time does, so that what
  // follows must be a tail (TimeTailStops: "五号楼" and "重点项目" are no times).
  size_t HanTimeEnd(size_t i, size_t end) const {
    auto starts = [&](size_t at, std::initializer_list<std::string_view> words) -> size_t {
      for (std::string_view w : words) {
        if (at + w.size() <= end && StartsWithAt(s_, at, w)) return at + w.size();
      }
      return at;
    };
    auto numeral = [&](size_t at) {
      size_t e = at;
      for (size_t next = e; next < end; e = next) {
        next = IsDigit(s_[e]) ? e + 1 : starts(e, {"一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "两", "零"});
        if (next == e) break;
      }
      return e;
    };
    size_t at = i;  // a day of the week, then a part of the day, then an hour: each may be missing
    const size_t deictic = starts(i, {"下个", "上个", "下", "上", "这", "本"});
    const size_t week = starts(deictic, {"周", "星期", "礼拜"});
    if (week > deictic) {
      const size_t day = starts(week, {"一", "二", "三", "四", "五", "六", "日", "天", "末"});
      if (day > week) at = day;
    }
    const size_t part = starts(at, {"上午", "下午", "晚上", "早上", "中午", "凌晨", "傍晚"});
    const size_t number = numeral(part);
    if (number > part) {
      if (size_t hour = starts(number, {"点"}); hour > number) {
        if (size_t half = starts(hour, {"半", "一刻", "三刻"}); half > hour) return half;
        const size_t minutes = numeral(hour);
        const size_t fen = minutes > hour ? starts(minutes, {"分"}) : hour;
        return fen > minutes ? fen : hour;
      }
      if (size_t date = starts(number, {"号", "日"}); date > number && part == i) return date;
    }
    return at > i ? part : i;  // "周二上午", "周四"; a part of the day alone is no time
  }

  // "3pm", "10:30", "noon", "下午五点", "周四", "Thursday".
  bool LooksLikeTimeOfDay(Span value) const {
    std::string_view v = low_.substr(value.begin, value.end - value.begin);
    for (size_t k = 0; k < v.size(); ++k) {
      if (!IsDigit(v[k])) continue;
      size_t j = k;
      while (j < v.size() && (IsDigit(v[j]) || v[j] == ':')) ++j;
      while (j < v.size() && v[j] == ' ') ++j;
      if (v.substr(j).starts_with("am") || v.substr(j).starts_with("pm") || IsClock(v.substr(k, j - k))) return true;
      k = j;
    }
    for (std::string_view w : {"noon", "midnight", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                               "sunday", "点", "周一", "周二", "周三", "周四", "周五", "周六", "周日", "星期", "上午",
                               "下午", "晚上", "号"}) {
      if (v.find(w) != std::string_view::npos) return true;
    }
    return false;
  }

  // "postgres 14", "Java 17", "Python 3.12": a word and a number (the product of a version).
  // A product of two or three capitalised words is one name ("Spring Boot 3.2", "Rocky Linux 9").
  bool ProductVersion(Span value) const {
    std::vector<Token> tokens = AsciiTokens(s_, value.begin, value.end);
    if (tokens.size() < 2 || tokens.size() > 4) return false;
    std::string_view word = s_.substr(tokens[0].begin, tokens[0].end - tokens[0].begin);
    std::string_view number = s_.substr(tokens.back().begin, tokens.back().end - tokens.back().begin);
    const bool numeric = !number.empty() && std::all_of(number.begin(), number.end(), [](char c) { return IsDigit(c) || c == '.'; });
    if (!numeric || !IsDigit(number[0]) || std::all_of(word.begin(), word.end(), [](char c) { return IsDigit(c); }) ||
        OpensWithVerb(tokens[0])) {
      return false;  // "Flashed 2.1.0 last night": the verb is no product
    }
    return tokens.size() == 2 || ProductNameBegin(tokens[tokens.size() - 2].begin, tokens[0].begin) == tokens[0].begin;
  }

  // True when the token `t` opens the clause and is a verb form ("Flashed 2.1.0", "Upgraded Node"):
  // a clause without its subject, not a name.
  bool OpensWithVerb(const Token& t) const {
    return t.begin == SkipSpaces(s_, clause_.begin, clause_.end) && IsVerbForm(LowerBytes(s_.substr(t.begin, t.end - t.begin)));
  }

  // Where the product name that ends with the word at `last` begins, at or after `from`: the word
  // itself, or up to three capitalised words in a row, one space apart, none a function word, the
  // speaker, a change marker or an attribute word ("Spring Boot", "Rocky Linux", "Windows Server";
  // not "Upgraded Node", "We Django").
  size_t ProductNameBegin(size_t last, size_t from) const {
    auto capitalised_name = [&](size_t b, size_t e) {
      if (!(IsCapitalAt(s_, b))) return false;
      std::string w = LowerBytes(s_.substr(b, e - b));
      return FunctionWords().count(w) == 0 && SpeakerWords().count(w) == 0 && lex_.FindMarkers(w, "change").empty() &&
             lex_.AttributeWord(w) == nullptr;
    };
    size_t b = last, e = last;
    while (e < s_.size() && IsWordByteAt(s_, e)) ++e;
    if (!capitalised_name(b, e)) return last;
    for (int words = 1; words < 3 && b >= from + 2 && s_[b - 1] == ' ' && IsWordByteAt(s_, b - 2); ++words) {
      size_t pb = b - 1;
      while (pb > from && IsWordByteAt(s_, pb - 1)) --pb;
      if (pb > 0 && IsTokenByteAt(s_, pb - 1)) break;  // "node.js Web": not a word of its own
      if (!capitalised_name(pb, b - 1)) break;
      b = pb;
    }
    return b;
  }

  // The attribute: a value whose head names it, a value that names it, the word that names it,
  // the verb, the part it is said of. A thing has one state at a time ("api-gw is unhealthy"); a
  // person's statuses add (married, retired).
  AttributeRef ChooseAttribute(const ValueReading& r, const FactFrame& f) const {
    AttributeRef chosen{"", ""};
    if (const AttributeRef* head = HeadWord(*r.value)) chosen = *head;
    else if (r.by_value && r.by_value->attribute != "status") chosen = *r.by_value;
    else if (r.word != nullptr && r.word->attribute != "status") chosen = *r.word;
    else if (r.verb != nullptr) chosen = PlaceOrItsKind(r.verb->target, *r.value);
    else if (!facet_attribute_.empty()) chosen = {facet_attribute_, ""};
    else if (r.by_value) chosen = *r.by_value;
    else if (r.word != nullptr) chosen = *r.word;
    if (chosen.attribute.empty() && f.subject_kind == FrameSubject::kNamed && TimeValue(*r.value)) {
      chosen = {"when", ""};  // "the dentist appointment is at 4pm, not 3"
    }
    if (chosen.attribute == "version" && r.by_value && r.by_value->attribute == "status") {
      chosen = *r.by_value;  // "运行正常": a state word is no version
    }
    if (chosen.attribute == "status" && !facet_attribute_.empty()) chosen = {facet_attribute_, ""};
    if (chosen.attribute == "status" && f.subject_kind == FrameSubject::kNamed) {  // one state, whatever the word
      chosen = {"state", ""};
    }
    return chosen;
  }

  // An English attribute word belongs to the subject when only a possessive stands between them
  // ("my home is", "the API's version", "Priya's role"); a Chinese one anywhere ("的角色是").
  bool NamesSubjectsAttribute(size_t subject_end, size_t at, std::string_view word) const {
    if (!std::all_of(word.begin(), word.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
      return true;
    }
    std::string between(low_.substr(subject_end, at - subject_end));
    for (std::string_view drop : {"'s", "my", "our", "the", "current", "new"}) {
      for (size_t p = between.find(drop); p != std::string::npos; p = between.find(drop)) between.erase(p, drop.size());
    }
    return std::all_of(between.begin(), between.end(), [](char c) { return IsSpaceByte(c); });
  }

  // A capitalised word that may be a person's name: not a function word, a gerund ("Dancing"), a
  // contraction ("Can't") or the start of a value.
  bool LooksLikeName(size_t i, const std::string& w, bool opens_value,
                     const std::set<std::string, std::less<>>& function_words) const {
    const size_t second = i + LetterLength(s_, i);
    if (second >= clause_.end || !IsCapitalAt(s_, i) || !IsWordByteAt(s_, second) || IsCapitalAt(s_, second) ||
        IsDigit(s_[second])) {
      return false;
    }
    if (w.size() < 2 || function_words.count(w) > 0 || opens_value) return false;
    if (w.find('\'') != std::string::npos || w.ends_with("ing")) return false;
    return lex_.FindVerbs(w).empty() && lex_.FindMarkers(w, "change").empty() && lex_.AttributeWord(w) == nullptr;
  }

  // A subject the clause names but the reader cannot resolve ("he" with no one named before, "you",
  // "同事"): the clause gives no frame, and is never put on the speaker.
  Subject Unresolvable(size_t at) const {
    Subject s;
    s.unresolvable = true;
    s.end = at;
    return s;
  }

  Subject Resolved(FrameSubject kind, std::string name, size_t end) const {
    Subject s;
    s.kind = kind;
    s.name = std::move(name);
    s.resolved = true;
    s.end = end;
    return s;
  }

  std::string Text(Span span) const { return std::string(rules::SpanText(s_, span)); }

  // Byte offset (into `rest`) of `word` as a whole word, or npos.
  static size_t FindWord(std::string_view rest, std::string_view word) {
    for (size_t at = rest.find(word); at != std::string_view::npos; at = rest.find(word, at + 1)) {
      const bool left = at == 0 || !IsWordByteAt(rest, at - 1);
      const bool right = at + word.size() >= rest.size() || !IsWordByteAt(rest, at + word.size());
      if (left && right) return at;
    }
    return std::string::npos;
  }

  bool IsFacetName(const Token& t) const {
    // A token right after 实例 / instance / node is the instance's name, not the subject.
    size_t b = t.begin;
    while (b > clause_.begin && IsSpaceByte(s_[b - 1])) --b;
    for (const PhraseHit& hit : lex_.FindFacets(low_.substr(clause_.begin, b - clause_.begin))) {
      if (clause_.begin + hit.end == b) return true;
    }
    return false;
  }

  // The ASCII name right before a facet noun ("blue 部署", "API service").
  std::string NameBefore(size_t at, size_t from) const {
    size_t e = at;
    while (e > from && IsSpaceByte(s_[e - 1])) --e;
    size_t b = e;
    while (b > from && IsTokenByteAt(s_, b - 1)) --b;
    if (b == e) return "";
    std::string name = LowerBytes(s_.substr(b, e - b));
    static const std::set<std::string, std::less<>> kNotNames = {
        "the", "a", "an", "my", "our", "on", "to", "in", "at", "is", "of", "for", "from", "and", "its", "their"};
    return kNotNames.count(name) > 0 || IsVersion(name) ? "" : name;
  }

  // The Chinese name of an environment that ends at `at` (markers `environment_name`: 生产 of
  // 生产环境), or "".
  std::string ChineseEnvironmentBefore(size_t at, size_t from) const {
    if (!StartsWithAt(s_, at, "环境")) return "";
    for (const PhraseHit& hit : lex_.FindMarkers(low_.substr(from, at - from), "environment_name")) {
      if (from + hit.end == at) return hit.phrase;
    }
    return "";
  }

  // The end of the number one space after `at` ("Node 18"), or `at` when none follows.
  size_t NumberEnd(size_t at) const {
    if (at + 1 >= s_.size() || s_[at] != ' ' || !IsDigit(s_[at + 1])) return at;
    size_t e = at + 1;
    while (e < s_.size() && (IsDigit(s_[e]) || (s_[e] == '.' && e + 1 < s_.size() && IsDigit(s_[e + 1])))) ++e;
    return e;
  }

  // The name right after a facet noun: an identifier ("实例 node-a"), or before Chinese text any
  // ASCII word that is not a value ("部署 blue 的 …").
  std::string NameAfter(size_t at, size_t to) const {
    size_t b = SkipSpaces(s_, at, to);
    size_t e = b;
    while (e < to && IsTokenByteAt(s_, e)) ++e;
    std::string_view tok = s_.substr(b, e - b);
    if (IsIdentifier(tok)) return LowerBytes(tok);
    const size_t next = SkipSpaces(s_, e, to);
    const bool han_next = next < to && static_cast<unsigned char>(s_[next]) >= 0x80;
    if (tok.empty() || !han_next || IsVersion(tok) || lex_.Value(tok) != nullptr) return "";
    return LowerBytes(tok);
  }

  // True when the ASCII word at `at` opens in lower case and holds a capital later: a name written
  // so ("iOS 17", "macOS 14", "iPadOS").
  bool CamelCaseAt(size_t at) const {
    if (at >= s_.size() || !(s_[at] >= 'a' && s_[at] <= 'z')) return false;
    for (size_t i = at + 1; i < s_.size() && IsAsciiAlnum(s_[i]); ++i) {
      if (s_[i] >= 'A' && s_[i] <= 'Z') return true;
    }
    return false;
  }

  // The word before a bare version number when it names a product ("python 3.12").
  size_t ProductBefore(size_t at, size_t from) const {
    size_t e = at;
    while (e > from && s_[e - 1] == ' ') --e;
    size_t b = e;
    while (b > from && IsWordByteAt(s_, b - 1)) --b;
    if (b == e) return at;
    std::string word = LowerBytes(s_.substr(b, e - b));
    static const std::set<std::string, std::less<>> kNot = {"to", "from", "is", "at", "on", "the", "version",
                                                            "now", "of", "v", "and", "with"};
    return kNot.count(word) > 0 ? at : ProductNameBegin(b, from);
  }

  // After an attribute word: a copula ("是", "为", "is", "are", ":"), with "now"/"当前" around
  // it, then the value's start; npos when none follows.
  size_t SkipCopula(size_t at) const {
    size_t i = SkipSpaces(s_, at, clause_.end);
    bool copula = false;
    for (int round = 0; round < 4 && i < clause_.end; ++round) {
      bool moved = false;
      std::vector<PhraseHit> change = lex_.FindMarkers(low_.substr(i, clause_.end - i), "change");
      if (!change.empty() && change.front().begin == 0 && static_cast<unsigned char>(s_[i]) >= 0x80) {
        copula = true;  // 改为, 换成, 升级到: a change verb links the attribute to its value
        i = SkipSpaces(s_, i + change.front().end, clause_.end);
        moved = true;
      }
      if (const size_t to = EnglishChangeTo(i); to > i) {  // "my title changed to", "my role got bumped to"
        copula = true;
        i = SkipSpaces(s_, to, clause_.end);
        moved = true;
      }
      if (size_t len = ContractionAt(s_, i); len > 0) {  // "the API's version's 3.2"
        copula = true;
        i = SkipSpaces(s_, i + len, clause_.end);
        moved = true;
      }
      for (std::string_view w : {"当前", "现在", "目前", "已经", "是", "为", "：", ":", "="}) {
        if (StartsWithAt(s_, i, w)) {
          copula |= w == "是" || w == "为" || w == "：" || w == ":" || w == "=";
          i = SkipSpaces(s_, i + w.size(), clause_.end);
          moved = true;
        }
      }
      size_t e = 0;
      std::string w = WordAt(low_, i, clause_.end, &e);
      if (w == "is" || w == "are" || w == "was" || w == "now" || w == "currently" || w == "in" ||
          w == "at" || w == "on") {
        copula |= w == "is" || w == "are" || w == "was";
        i = SkipSpaces(s_, e, clause_.end);
        moved = true;
      }
      if (!moved) break;
    }
    return copula ? i : std::string::npos;
  }

  // True when the verb right after the subject (which ends at `from`), past adverbs such as "also"
  // or "once", is the simple past of a lasting state whose value begins at `value_begin` (markers.tsv `past_state`: "I lived in
  // Boston", "I used Eclipse every day", "Mei was a nurse") and the clause says nothing of now
  // (markers `now`: "I lived in Boston until now"). With
  // "have" / "has" before it the verb is a participle, and the first word is no past form ("I've
  // lived here for years").
  bool PastStateVerbAt(size_t from, size_t value_begin) const {
    static const std::set<std::string, std::less<>> kAdverbs = {"also", "once", "really", "actually", "briefly",
                                                                "even", "only", "mostly", "mainly", "both", "all"};
    // "I've", "she's", "we'd" as the subject: the verb after it is a participle.
    std::string_view said = low_.substr(clause_.begin, std::min(from, clause_.end) - clause_.begin);
    while (!said.empty() && said.back() == ' ') said.remove_suffix(1);
    for (std::string_view have : {"'ve", "\xE2\x80\x99" "ve", "'d", "\xE2\x80\x99" "d", "'s", "\xE2\x80\x99" "s", "have", "has", "had"}) {
      if (said.ends_with(have)) return false;
    }
    size_t i = SkipSpaces(s_, from, clause_.end), e = 0;
    std::string w = WordAt(low_, i, clause_.end, &e);
    for (int n = 0; n < 2 && kAdverbs.count(w) > 0; ++n) {
      i = SkipSpaces(s_, e, clause_.end);
      w = WordAt(low_, i, clause_.end, &e);
    }
    if (w.empty() || !lex_.HasMarker(low_.substr(clause_.begin, clause_.end - clause_.begin), "past_state")) return false;
    const bool past = std::ranges::any_of(lex_.FindMarkers(w, "past_state"), [&](const PhraseHit& h) {
      return h.begin == 0 && h.end == w.size();
    });
    // The value is the past verb's: no verb of the lexicon stands between them ("Zoe was at the
    // party and her sister lives in Rome" says "lives" of Rome).
    if (!past) return false;
    if (w == "was" || w == "were") {  // "I was still living in Boston then": the -ing verb is the past's own
      size_t k = SkipSpaces(s_, e, clause_.end), ke = 0;
      std::string next = WordAt(low_, k, clause_.end, &ke);
      if (next == "still" || next == "also") next = WordAt(low_, k = SkipSpaces(s_, ke, clause_.end), clause_.end, &ke);
      if (next.size() > 4 && next.ends_with("ing")) e = ke;
    }
    if (value_begin < e || !lex_.FindVerbs(low_.substr(e, value_begin - e)).empty()) return false;
    const std::string_view clause = low_.substr(clause_.begin, clause_.end - clause_.begin);
    return lex_.FindMarkers(clause, "now").empty();
  }

  // Where a span of years said right after a Chinese verb at `at` ends ("了三年", "了快十年了",
  // "了两年多", "了好几年", "了多年的"), or npos when none stands there: months are as often a stay
  // (在医院住了两个月, 在上海出差住了两个月), and nights or days always are (了两晚, 了三天).
  size_t YearsEnd(size_t at) const {
    size_t i = at;
    if (StartsWithAt(s_, i, "了")) i += 3;
    for (std::string_view about : {"快", "近", "将近", "差不多", "整整", "足足", "好"}) {
      if (StartsWithAt(s_, i, about)) i += about.size();
    }
    const size_t number = i;
    for (bool more = true; more && i < clause_.end;) {
      more = false;
      if (IsDigit(s_[i])) {
        ++i;
        more = true;
      }
      for (std::string_view n : {"一", "二", "两", "三", "四", "五", "六", "七", "八", "九", "十", "百", "几", "半", "多"}) {
        if (!more && StartsWithAt(s_, i, n)) {
          i += n.size();
          more = true;
        }
      }
    }
    if (i == number || !(StartsWithAt(s_, i, "年") || StartsWithAt(s_, i, "个年头"))) return std::string::npos;
    i += StartsWithAt(s_, i, "年") ? 3 : std::string_view("个年头").size();
    for (std::string_view tail : {"多", "了", "的"}) {
      if (StartsWithAt(s_, i, tail)) i += tail.size();
    }
    return SkipSpaces(s_, i, clause_.end);
  }

  // True when the English verb of a lasting state at `verb` (ending at `after`) is in the present
  // perfect and a span of months, years or decades follows it in the clause, or "since" a month,
  // season or year: "I've been in Denver for about three years now", "Tom's been at KPMG since
  // January" — not "I was in Denver for three years" (narrated), "I've been in Denver for three
  // days", "since Monday" (a stay).
  bool EnglishLastingState(size_t verb, size_t after) const {
    const std::string_view before = low_.substr(clause_.begin, verb - clause_.begin);
    bool perfect = false;
    for (std::string_view have : {"'ve ", "\xE2\x80\x99ve ", "have ", "has ", "'s ", "\xE2\x80\x99s "}) {
      perfect |= before.ends_with(have);
    }
    // (Not "I'll have been", "I'd have been", "It feels like I've been": what may be or seems.)
    if (!perfect || before.find("'ll ") != std::string_view::npos || before.find(" will ") != std::string_view::npos ||
        before.find("would") != std::string_view::npos || before.find("'d ") != std::string_view::npos ||
        before.find("like ") != std::string_view::npos || before.find("think") != std::string_view::npos) {
      return false;
    }
    // (A stay anywhere in the message: "…for two months for a work rotation, flying home next week".)
    if (lex_.HasMarker(low_, "stay")) return false;
    static const std::set<std::string, std::less<>> kAbout = {"about", "almost", "nearly", "over", "close", "to", "more",
                                                              "than", "a", "few", "couple", "of", "several", "the",
                                                              "past", "last", "like", "half", "two", "three", "four",
                                                              "five", "six", "seven", "eight", "nine", "ten", "many"};
    static const std::set<std::string, std::less<>> kSpans = {"year", "years", "month", "months", "decade", "decades"};
    static const std::set<std::string, std::less<>> kSinceWhen = {
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december", "spring", "summer", "fall", "autumn", "winter", "last", "early", "late"};
    static const std::set<std::string, std::less<>> kSeasonsAndYear = {"spring", "summer", "fall", "autumn", "winter", "year"};
    std::vector<std::string> words;
    std::istringstream in{std::string(low_.substr(after, clause_.end - after))};
    for (std::string w; in >> w;) {
      while (!w.empty() && (w.back() == ',' || w.back() == '.' || w.back() == ';' || w.back() == '!')) w.pop_back();
      if (!w.empty()) words.push_back(std::move(w));
    }
    // ("I've been in Marketing for three years", "…in rehab since March", "at Lake Tahoe for two
    // months", "at Stanford Hospital since March": no place one lives or works at.)
    if (!words.empty() && lex_.HasMarker(words.size() > 1 ? words[0] + " " + words[1] : words[0], "not_a_home")) return false;
    for (size_t k = 0; k < words.size() && words[k] != "for" && words[k] != "since"; ++k) {
      if (lex_.HasMarker(words[k], "not_a_place_of_work_or_home")) return false;
    }
    // Nor a state the message then says ended or came before ("…for 3 years, before joining Google").
    const std::string_view later = low_.substr(clause_.end);
    for (std::string_view gone : {"before ", "until ", "then ", "after that", "back to", "moved back", "left "}) {
      if (later.find(gone) != std::string_view::npos) return false;
    }
    // After its span the clause says no more than "now" or "already" ("…for three years now"; not
    // "…for two months for a rotation", "…since March as a member", "…since March, then back home").
    auto ends_there = [&](size_t next) {
      static const std::set<std::string, std::less<>> kTail = {"now", "already", "so", "far", "and", "counting", "or", "so", "ago"};
      for (size_t k = next; k < words.size(); ++k) {
        if (kTail.count(words[k]) == 0) return false;
      }
      return true;
    };
    bool after_for = false, after_since = false;
    for (size_t k = 0; k < words.size(); ++k) {
      // "since the start of March": the month
      if (after_since && k + 2 < words.size() && words[k] == "the" &&
          (words[k + 1] == "start" || words[k + 1] == "beginning" || words[k + 1] == "end" || words[k + 1] == "middle") &&
          words[k + 2] == "of") {
        k += 3;
        if (k >= words.size()) break;
      }
      const std::string& w = words[k];
      // "since January", "since 2021", "since last year" (not "since Monday", "since this morning")
      if (after_since && (kSinceWhen.count(w) > 0 || (w.size() == 4 && std::all_of(w.begin(), w.end(), IsDigit)))) {
        size_t next = k + 1;
        if (w == "last" || w == "early" || w == "late") {  // "since last year", "since early spring"; not "since last week"
          if (next >= words.size() || !(kSeasonsAndYear.count(words[next]) > 0 || kSinceWhen.count(words[next]) > 0)) return false;
          ++next;
        }
        return ends_there(next);
      }
      after_since = w == "since";
      if (w == "for") {
        after_for = true;
      } else if (after_for && kSpans.count(w) > 0) {
        return ends_there(k + 1);
      } else if (after_for && kAbout.count(w) == 0 && !std::all_of(w.begin(), w.end(), IsDigit)) {
        after_for = false;
      }
    }
    return false;
  }

  // True when a verb of settling in at `verb` (在成都安顿下来) says where one lives: the clause names
  // no lodging, bed or institution (markers `not_a_home_zh`: 酒店, 医院, 宿舍, 沙发, 学校…), the
  // message no stay (markers `stay`: 出差, 度假, 旅游, 下周回…), and nothing said after it moves on
  // (后来, 搬回, 又搬).
  bool SettlingHolds(size_t verb) const {
    if (lex_.HasMarker(low_.substr(clause_.begin, clause_.end - clause_.begin), "not_a_home_zh")) return false;
    if (lex_.HasMarker(low_, "stay")) return false;
    const std::string_view after = low_.substr(verb);
    for (std::string_view moved_on : {"后来", "搬回", "又搬", "搬走"}) {
      if (after.find(moved_on) != std::string_view::npos) return false;
    }
    return true;
  }

  // True when a verb of a lasting state at `verb` (在杭州住了三年) says how things stand: the clause
  // says no time it belongs to (大学的时候在武汉住了四年), its place is no pointing word (在这个小区),
  // and nothing said after it in the message moves on (我在杭州住了三年，后来搬回北京了; 在华为干了三年，
  // 上个月刚离职; markers `change`, `now`, `ends`).
  bool LastingStateHolds(size_t verb) const {
    const std::string_view before = low_.substr(clause_.begin, verb - clause_.begin);
    for (std::string_view when : {"时候", "那时", "那会", "当年"}) {
      if (before.find(when) != std::string_view::npos) return false;
    }
    if (const size_t zai = before.rfind("在"); zai != std::string_view::npos &&
        (before.substr(zai + 3).starts_with("这") || before.substr(zai + 3).starts_with("那"))) {
      return false;
    }
    const std::string_view after = low_.substr(clause_.end);
    for (std::string_view kind : {"change", "now", "ends"}) {
      if (lex_.HasMarker(after, kind)) return false;
    }
    for (std::string_view moved_on : {"后来", "离职", "辞职", "搬", "回国", "回老家", "回来", "出院", "退休"}) {
      if (after.find(moved_on) != std::string_view::npos) return false;
    }
    return true;
  }

  // True when the job after a Chinese verb of job_after at `after` is a time gone by or a job
  // beside the job: 过 after the verb (当过助教), 的时候 / 那时 after it (当护士的时候), or 兼职 / 副业.
  bool JobOnlyOnce(size_t after) const {
    if (StartsWithAt(s_, after, "过") || StartsWithAt(s_, after, "兼职") || StartsWithAt(s_, after, "副业")) return true;
    const std::string_view rest = s_.substr(after, clause_.end - after);
    return rest.find("的时候") != std::string_view::npos || rest.find("那时") != std::string_view::npos ||
           rest.find("那会") != std::string_view::npos;
  }

  // Past an English change marker at `i` and the "to" that follows it, with "got", "has", "was",
  // "been" or "just" before it ("changed to", "got bumped to", "has been switched to"); `i` when
  // there is none (a change without "to" names no new value: "my address changed last week").
  size_t EnglishChangeTo(size_t i) const {
    static const std::set<std::string, std::less<>> kBefore = {"got", "has", "have", "had", "was", "were", "been", "just", "finally", "officially"};
    size_t k = i, e = 0;
    for (int n = 0; n < 3 && kBefore.count(WordAt(low_, k, clause_.end, &e)) > 0; ++n) k = SkipSpaces(s_, e, clause_.end);
    if (k >= clause_.end || static_cast<unsigned char>(s_[k]) >= 0x80) return i;
    std::vector<PhraseHit> change = lex_.FindMarkers(low_.substr(k, clause_.end - k), "change");
    if (change.empty() || change.front().begin != 0) return i;
    size_t to = i;
    if (change.front().phrase.ends_with(" to")) {
      to = k + change.front().end;
    } else if (const size_t n = SkipSpaces(s_, k + change.front().end, clause_.end); WordAt(low_, n, clause_.end, &e) == "to") {
      to = e;
    }
    // What follows must look like a value: a name, a number, a value of the lexicon or an occupation
    // ("changed to Analytics Engineer"; not "changed to reflect my new duties", "to something weird").
    const size_t v = SkipSpaces(s_, to, clause_.end);
    if (to == i || v >= clause_.end) return i;
    std::vector<PhraseHit> values = ValuesIn(v, clause_.end);
    const bool value = IsCapitalAt(s_, v) || IsDigit(s_[v]) || (!values.empty() && values.front().begin == 0) ||
                       EndsInOccupation(TrimValue({v, clause_.end}));
    return value ? to : i;
  }

  // The first copula or change marker after `from` (the end of a noun-phrase subject).
  size_t FindCopula(size_t from) const {
    std::string_view rest = low_.substr(from, clause_.end - from);
    size_t best = std::string::npos;
    for (std::string_view w : {"is", "are", "was", "has", "runs", "now"}) {
      size_t at = FindWord(rest, w);
      if (at != std::string::npos) best = std::min(best, at);
    }
    if (best != std::string::npos) best += from;
    return std::min(best, ContractedCopula(from));
  }

  // Where the first "'s" at or after `from` that stands for "is" begins, or npos: the word after
  // it opens a state ("VPN's online again"), a value of the lexicon, or a place, time or adverb
  // ("standup's at 10:15", "the flat's in Leith", "it's now"). "Priya's role" is a possessive.
  size_t ContractedCopula(size_t from) const {
    static const std::set<std::string, std::less<>> kAfter = {"at", "in", "on", "now", "back", "still", "currently"};
    for (size_t i = from; i < clause_.end; ++i) {
      const size_t len = ContractionAt(s_, i);
      if (len == 0 || i == 0 || !IsWordByteAt(s_, i - 1)) continue;
      const size_t next = SkipSpaces(s_, i + len, clause_.end);
      if (next == i + len || next >= clause_.end) continue;  // "VPN's" at the end, "Ann'sfoo"
      std::string_view rest = low_.substr(next, clause_.end - next);
      std::vector<PhraseHit> state = lex_.FindMarkers(rest, "thing_state");
      std::vector<PhraseHit> values = ValuesIn(next, clause_.end);
      size_t e = 0;
      if ((!state.empty() && state.front().begin == 0) || (!values.empty() && values.front().begin == 0) ||
          kAfter.count(WordAt(low_, next, clause_.end, &e)) > 0) {
        return i;
      }
    }
    return std::string::npos;
  }

  // True when `text` holds a word that is no function word ("Stripe" of "Stripe on Monday", not
  // "is" of "is on Tuesday": the day is the value then).
  static bool HasContentWord(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && !IsWordByteAt(text, i) && static_cast<unsigned char>(text[i]) < 0x80) ++i;
      size_t j = i;
      while (j < text.size() && (IsWordByteAt(text, j) || text[j] == '\'' || static_cast<unsigned char>(text[j]) >= 0x80)) ++j;
      if (j > i && !text::IsFunctionTerm(text.substr(i, j - i))) return true;
      i = j;
    }
    return false;
  }

  // `span` cut before a qualifier (temporary, recurring, "because", a day of the week), trimmed,
  // leading prepositions and articles dropped.
  Span TrimValue(Span span) const {
    if (span.empty()) return span;
    std::string_view text = low_.substr(span.begin, span.end - span.begin);
    size_t cut = text.size();
    for (std::string_view kind : {"temporary", "recurring", "past"}) {
      for (const PhraseHit& h : lex_.FindMarkers(text, kind)) cut = std::min(cut, h.begin);
    }
    for (std::string_view stop : {"because", "since", "so", "but", "and now", "yesterday", "today", "last week", "over the",
                                  "lately", "these days", "for", "as of", "starting", "from now", "as", "after", "before", "when", "with",
                                  "while", "until", "which", "who", "where", "anyway", "anyways", "eventually", "in the end",
                                  "instead", "at last"}) {  // "moved to Leipzig in the end"
      size_t at = FindWord(text, stop);
      if (at != std::string::npos && at > 0) cut = std::min(cut, at);
    }
    // A season is no time mention of text/time_expression.h ("last spring", "in the fall"), yet
    // never part of a value.
    for (std::string_view season : {"spring", "summer", "fall", "autumn", "winter"}) {
      for (std::string_view before : {"in the ", "last ", "this ", "next ", "early ", "late "}) {
        size_t at = FindWord(text, std::string(before) + std::string(season));
        if (at != std::string::npos && at > 0) cut = std::min(cut, at);
      }
    }
    // A day of the week said after the value ("started at Stripe on Monday", "moved to Porto last
    // Friday"): a bare weekday is no time mention (text/time_expression.h), yet never a value's part.
    // ("next Monday" is left whole: a plan unread is no current value.)
    for (std::string_view day : {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}) {
      for (std::string_view before : {"on ", "last ", "since "}) {
        size_t at = FindWord(text, std::string(before) + std::string(day));
        if (at != std::string::npos && HasContentWord(text.substr(0, at))) cut = std::min(cut, at);
      }
    }
    // A lower-case "now", or "last", "this" or "next" opening a time no time mention reads ("last
    // review cycle", "this sprint"), after the value ends it ("I'm a curriculum designer now at an
    // edtech startup"); a name holding one is written with a capital ("Now TV", "The Last of Us").
    for (std::string_view word : {"now", "last", "this", "next"}) {
      if (const size_t at = FindWord(text, word); at != std::string::npos && at > 0 &&
                                                  s_[span.begin + at] == word[0] && HasContentWord(text.substr(0, at))) {
        cut = std::min(cut, at);
      }
    }
    if (const size_t vague = VagueAgoAt(text); vague > 0) cut = std::min(cut, vague);
    if (const size_t count = ChineseDurationAt(text); count > 0) cut = std::min(cut, count);
    // A name and then "and" before a lower-case word: the name ends the value ("lives in Glasgow and
    // loves it"; "Trinidad and Tobago", "Procter and Gamble" are one name each).
    // The same for "to" before a lower-case word ("moved to Boise to be near the sea").
    // So do "has", "means", "makes" and other verbs of a gerund subject ("Living in Austin means the AC runs").
    // "I" after the joint is a lower-case word of its own kind: it opens a clause ("Living in Austin
    // means I never need a jacket", "lives in Glasgow and I love it").
    if (IsCapitalAt(s_, SkipSpaces(s_, span.begin, span.end))) {
      for (std::string_view joint : {"and", "to", "was", "is", "has", "means", "makes", "gets", "keeps", "feels", "seems", "looks"}) {
        for (size_t from = 0;;) {
          const size_t found = FindWord(text.substr(from), joint);
          if (found == std::string::npos) break;
          const size_t at = from + found;
          const size_t next = SkipSpaces(s_, span.begin + at + joint.size(), span.end);
          if (at > 0 && next < span.end && ((s_[next] >= 'a' && s_[next] <= 'z') || IsPronounIAt(s_, next, span.end))) {
            cut = std::min(cut, at);
            break;
          }
          from = at + joint.size();
        }
      }
    }
    // A name and then "my", "our" or "their" opening another noun phrase, or "we" or "I" opening
    // another clause: the name ends the value ("relocated to Halifax my old policy doesn't…",
    // "since moving to Austin we eat out"; "my dad's shop" is one value).
    // "and" before a pronoun opens another clause whatever the value ("a firefighter and his birthday is…").
    for (std::string_view other : {"and his", "and her", "and my", "and our", "and their", "and he", "and she", "and it",
                                   "and i", "and we", "and they"}) {
      const size_t at = FindWord(text, other);
      if (at != std::string::npos && at > 0) cut = std::min(cut, at);
    }
    for (std::string_view owner : {"my", "our", "their", "we", "i", "i've", "i'm", "i'd", "i'll"}) {
      const size_t at = FindWord(text, owner);
      if (owner == "i" && at != std::string::npos) {  // "Google I sleep less", not "World War I"
        const size_t next = SkipSpaces(s_, span.begin + at + 1, span.end);
        if (next >= span.end || s_[next] < 'a' || s_[next] > 'z') continue;
      }
      if (at == std::string::npos || at < 2) continue;
      size_t b = at - 1;
      while (b > 0 && text[b - 1] != ' ') --b;
      if (IsCapitalAt(s_, span.begin + b)) cut = std::min(cut, at);
    }
    for (std::string_view stop : {"就好了", "因为", "了。", "状态", "已经", "以后", "之后", "的时候", " — ", " – ", " - ", "—",
                                  " (", "（", "的新", "这边", "那边"}) {
      size_t at = text.find(stop);
      if (at != std::string_view::npos) cut = std::min(cut, at);
    }
    for (size_t at = text.find(' '); at != std::string_view::npos && at + 1 < text.size(); at = text.find(' ', at + 1)) {
      if (at > 0 && static_cast<unsigned char>(text[at - 1]) >= 0x80 && static_cast<unsigned char>(text[at + 1]) >= 0xE3) {
        cut = std::min(cut, at);  // "现在是产品经理 要学的东西太多了": no Chinese value holds a space between two characters
        break;
      }
    }
    Span out = rules::CutTimes(s_, rules::TrimSpan(s_, {span.begin, span.begin + cut}), times_);
    out = rules::TrimSpan(s_, out);
    out = StripTrailingWords(out, {"now", "in", "on", "at", "since", "currently", "anymore", "again", "too", "only",
                                   "after", "by", "from", "the", "downtown", "uptown", "nearby", "locally",
                                   "remotely", "abroad", "overseas", "full-time", "part-time", "there", "here"});
    if (StartsWithAt(s_, out.begin, "了") && out.size() > 3) out.begin += 3;  // 搬到了上海
    if (StartsWithAt(s_, out.begin, "的是") && out.size() > 6) out = rules::TrimSpan(s_, {out.begin + 6, out.end});  // 一直用的是 Jira
    if (out.size() > 3 && StartsWithAt(s_, out.end - 3, "了")) out = rules::TrimSpan(s_, {out.begin, out.end - 3});
    if (out.size() > 3 && StartsWithAt(s_, out.end - 3, "去")) out.end -= 3;  // 搬到苏州去了
    // A capital "A" inside a sentence is no article ("my blood type is A positive").
    if (!(StartsWithAt(s_, out.begin, "A ") && out.begin > 0 && s_[out.begin - 1] == ' ')) {
      out = StripLeadingWords(out, {"in", "at", "on", "to", "the", "a", "an", "using", "now", "my", "our"});
    }
    // An adverb of now before an article is no part of the value ("officially a senior data
    // scientist"); "basically a barista at home", "formerly a nurse" and "nearly a lawyer" keep
    // theirs (no job).
    size_t e = 0;
    const std::string first = WordAt(low_, out.begin, out.end, &e);
    const std::string next = WordAt(low_, SkipSpaces(s_, e, out.end), out.end, &e);
    static const std::set<std::string, std::less<>> kNowAdverbs = {"officially", "currently", "finally", "recently",
                                                                   "technically", "actually", "newly"};
    if (kNowAdverbs.count(first) > 0 && (next == "a" || next == "an" || next == "the")) {
      out = rules::TrimSpan(s_, {SkipSpaces(s_, e, out.end), out.end});
    }
    return out;
  }

  // Where a Chinese length of time begins in `text` after its first character ("腾讯三年" of
  // 入职腾讯三年了, "上海两个多月" of 在上海两个多月了): a numeral, then within four characters 年,
  // 月, 天, 周, 星期 or 小时; text.size() when there is none. A length of time is never part of a value.
  static size_t ChineseDurationAt(std::string_view text) {
    static constexpr std::string_view kNumerals[] = {"一", "两", "二", "三", "四", "五", "六", "七", "八", "九", "十", "半", "几"};
    for (size_t i = 3; i < text.size(); ++i) {
      const bool digit = IsDigit(text[i]) && !IsWordByteAt(text, i - 1);
      const bool numeral = std::any_of(std::begin(kNumerals), std::end(kNumerals),
                                       [&](std::string_view n) { return text.substr(i).starts_with(n); });
      if (!digit && !numeral) continue;
      const std::string_view after = text.substr(i, 15);
      for (std::string_view unit : {"年", "个月", "月", "天", "周", "星期", "小时"}) {
        if (after.find(unit) == std::string_view::npos) continue;
        // An approximation before the numeral belongs to the length ("厦门快一个月", "上海将近两年").
        for (std::string_view about : {"快", "将近", "差不多", "大约", "约", "整整", "足足", "才", "已"}) {
          if (i >= 3 + about.size() && text.substr(i - about.size(), about.size()) == about) return i - about.size();
        }
        return i;
      }
    }
    return text.size();
  }

  // Where a vague time before "ago" begins in the lowered `text` ("a couple of months ago", "a few
  // weeks ago", "a while ago", "not long ago": no day can be read from them, so they are no time
  // mention of text/time_expression.h, yet never part of a value, and their "not" denies nothing),
  // or text.size().
  static size_t VagueAgoAt(std::string_view text) {
    static const std::set<std::string, std::less<>> kVague = {
        "a", "an", "couple", "of", "few", "several", "some", "many", "while", "time", "not", "long", "little",
        "bit", "minutes", "hours", "days", "weeks", "months", "years", "day", "week", "month", "year"};
    const size_t ago = FindWord(text, "ago");
    if (ago == std::string::npos) return text.size();
    size_t begin = ago;
    while (begin > 0) {
      size_t e = begin;
      while (e > 0 && text[e - 1] == ' ') --e;
      size_t b = e;
      while (b > 0 && IsWordByteAt(text, b - 1)) --b;
      if (b == e || kVague.count(text.substr(b, e - b)) == 0) break;
      begin = b;
    }
    return begin < ago ? begin : text.size();
  }

  Span StripTrailingWords(Span span, std::initializer_list<std::string_view> words) const {
    bool moved = true;
    while (moved && !span.empty()) {
      moved = false;
      size_t b = span.end;
      while (b > span.begin && (IsWordByteAt(s_, b - 1) || s_[b - 1] == '\'')) --b;
      if (b == span.begin || b == span.end || !IsSpaceByte(s_[b - 1])) break;
      std::string w = LowerBytes(s_.substr(b, span.end - b));
      for (std::string_view x : words) {
        if (w == x) {
          span = rules::TrimSpan(s_, {span.begin, b});
          moved = true;
          break;
        }
      }
    }
    return span;
  }

  Span StripLeadingWords(Span span, std::initializer_list<std::string_view> words) const {
    bool moved = true;
    while (moved && !span.empty()) {
      moved = false;
      size_t e = 0;
      std::string w = WordAt(low_, span.begin, span.end, &e);
      for (std::string_view x : words) {
        if (w == x && e < span.end && IsSpaceByte(s_[e])) {  // "A型" holds no article
          span.begin = SkipSpaces(s_, e, span.end);
          moved = true;
          break;
        }
      }
    }
    return span;
  }

  // A verb of moving gives a place, unless its value ends in a word that names another attribute:
  // "moved over to the data team" joins a team (project), "moved to a new school" a school, "搬到
  // 新公司" an employer; "moved to the Mission district" is a place.
  AttributeRef PlaceOrItsKind(const AttributeRef& target, Span value) const {
    if (target.attribute != "lives_in") return target;
    size_t end = value.end;
    for (const Span& t : times_) {
      if (t.begin > value.begin && t.begin < end) end = t.begin;  // "the data team last week"
    }
    std::string_view low = low_.substr(value.begin, end - value.begin);
    while (!low.empty() && (low.back() == ' ' || low.back() == ',' || low.back() == '.')) low.remove_suffix(1);
    for (const PhraseHit& hit : lex_.FindAttributeWords(low)) {
      if (hit.end != low.size()) continue;  // the value's last word
      const AttributeRef* ref = lex_.AttributeWord(hit.phrase);
      if (ref != nullptr && ref->attribute != "lives_in" && ref->attribute != "status" && ref->attribute != "version" &&
          ref->attribute != "hometown") {
        return *ref;
      }
    }
    return target;
  }

  // A value whose first word names its attribute and is followed by a name ("Project Zephyr" →
  // project; not "team lead", a job).
  const AttributeRef* HeadWord(Span value) const {
    size_t e = 0;
    std::string w = WordAt(low_, value.begin, value.end, &e);
    if (w.empty() || e >= value.end) return nullptr;
    const size_t next = SkipSpaces(s_, e, value.end);
    if (next < value.end && s_[next] >= 'a' && s_[next] <= 'z') return nullptr;
    const AttributeRef* ref = lex_.AttributeWord(w);
    if (ref == nullptr || ref->attribute == "status" || ref->attribute == "version") return nullptr;
    return ref;
  }

  std::string_view s_, low_;
  Span clause_;
  const std::vector<Span>& times_;
  const Lexicon& lex_;
  ClauseKind kind_ = ClauseKind::kFact;
  ClauseKind affirmed_kind_ = ClauseKind::kFact;  // the kind but for a denial (a change or a fact)
  size_t denial_begin_ = 0;                        // where the clause's first denial begins (kNegated)
  bool value_verb_changes_ = false;                // the verb ReadValue read the value by states a change
  bool correction_ = false, temporary_ = false, usual_ = false, ended_ = false, hedged_ = false;
  bool owned_thing_ = false;  // the subject is a thing the speaker named as theirs ("my car")
  bool attempt_carried_ = false;  // CarryAttempt
  bool speaker_object_ = false;   // the subject is the speaker as a verb's object (SpeakerObjectVerbAt)
  size_t role_end_ = std::string::npos;  // Subject::role_end
  bool subject_thing_ = false;  // the subject is a thing, never a person (Subject::thing)
  std::vector<std::pair<std::string, std::string>> coordinates_;
  // The facet that named the clause's subject itself ("生产环境跑的是 JDK 11": environment 生产),
  // and that subject: a coordinate once another thing (a product) becomes the frame's subject.
  std::optional<std::pair<std::string, std::string>> subject_facet_;
  std::string subject_facet_of_;
  std::string facet_attribute_;
};

// A plan, requirement, quotation, denial or narrated past about a named thing whose value the
// grammar cannot find ("这条描述不得改变 counter-05 的当前状态"): one claim holding the clause,
// its attribute the kind's name. It can never change a state (extractor qualifiers).
bool KindOnly(std::string_view content, size_t body, Span clause, const Subject& subject, FactFrame* f) {
  if (subject.kind != FrameSubject::kNamed || !subject.resolved || !IsIdentifierName(subject.name)) return false;
  if (f->kind == ClauseKind::kFact || f->kind == ClauseKind::kChange || f->kind == ClauseKind::kHypothetical) {
    return false;
  }
  Span value = rules::TrimSpan(content, {body, clause.end});
  if (value.empty()) return false;
  f->attribute = std::string(ClauseKindName(f->kind));
  f->value = std::string(rules::SpanText(content, value));
  f->value_begin = value.begin;
  f->value_end = value.end;
  return true;
}

// `base` as a correction: a change to `value` of `content`, said in `clause`, replacing `replaces`
// (neither denied, temporary nor usual).
FactFrame CorrectionFrame(FactFrame base, std::string_view content, Span value, std::string replaces, Span clause) {
  base.kind = ClauseKind::kChange;
  base.correction = true;
  base.negated = false;
  base.temporary = false;
  base.usual = false;
  base.replaces = std::move(replaces);
  base.value = std::string(rules::SpanText(content, value));
  base.value_begin = value.begin;
  base.value_end = value.end;
  base.clause_begin = clause.begin;
  base.clause_end = clause.end;
  return base;
}

// A bare correction of the last frame ("不对，是上海", "No, it's Porto"): the same subject,
// attribute and qualifiers, the value after the last copula, replacing the last value.
bool Corrects(std::string_view content, size_t body, Span clause, const std::optional<FactFrame>& last,
              FactFrame* f) {
  if (!last || (last->kind != ClauseKind::kFact && last->kind != ClauseKind::kChange)) return false;
  size_t from = body;
  for (std::string_view copula : {"是", "为", "it's ", "it is ", "its "}) {
    size_t at = content.substr(body, clause.end - body).rfind(copula);
    if (at != std::string_view::npos) from = std::max(from, body + at + copula.size());
  }
  Span value = rules::TrimSpan(content, {from, clause.end});
  if (value.empty() || value.size() > 60) return false;
  *f = CorrectionFrame(*last, content, value, last->value, clause);
  return true;
}

// "my favorite color is blue", "Green has become my favorite color": the owned thing "favorite
// color" is the speaker's favorite of slot "color".
void SpeakersFavorite(const Lexicon& lex, FactFrame* f) {
  if (f->subject_kind != FrameSubject::kNamed || f->attribute != "is") return;
  std::vector<PhraseHit> hits = lex.FindMarkers(f->subject, "favorite");
  if (hits.empty() || hits.front().begin != 0 || hits.front().end >= f->subject.size()) return;
  std::string slot = std::string(rules::SpanText(f->subject, rules::TrimSpan(f->subject, {hits.front().end, f->subject.size()})));
  if (slot.empty()) return;
  f->subject_kind = FrameSubject::kSpeaker;
  f->subject.clear();
  f->attribute = "favorite";
  f->slot = slot;
}

// A correction that names neither what it corrects nor its attribute ("不对，是周四", "No wait,
// it's Porto", said in a later event than the value it corrects): its value, after the last
// copula, with attribute "" — the claim writer gives it the subject and slot of the value said
// last (claim_writer.h).
namespace {

// `span` of `content` without a leading article or filler ("a 2017" → "2017") and trimmed, or an
// empty span when it is longer than a value (more than three spaces, 30 bytes).
Span ContrastValue(std::string_view content, std::string_view low, Span span) {
  span = rules::TrimSpan(content, span);
  for (std::string_view article : {"a ", "an ", "the ", "my "}) {
    if (StartsWithAt(low, span.begin, article) && span.size() > article.size()) span.begin += article.size();
  }
  span = rules::TrimSpan(content, span);
  const std::string_view v = rules::SpanText(content, span);
  if (span.size() > 30 || std::count(v.begin(), v.end(), ' ') > 3) return {span.begin, span.begin};
  // A value, not a clause or an apology: no pronoun, verb of being or word of the lexicon's
  // corrections and apologies ("sorry, not Sage" sets nothing against Sage; "I'm busy" is no value).
  static const std::set<std::string, std::less<>> kNotInAValue = {
      "i", "i'm", "i've", "i'll", "i'd", "you", "he", "she", "we", "they", "it", "he's", "she's", "we're",
      "they're", "it's", "is", "am", "are", "was", "me", "us", "him", "them", "again", "sure", "today"};
  const std::string low_value = LowerBytes(v);
  for (const Token& t : AsciiTokens(low_value, 0, low_value.size())) {
    size_t e = t.end;
    while (e < low_value.size() && (low_value[e] == '\'' || IsWordByteAt(low_value, e))) ++e;
    if (kNotInAValue.count(low_value.substr(t.begin, e - t.begin)) > 0) return {span.begin, span.begin};
  }
  const Lexicon& lex = Lexicon::Get();
  if (lex.HasMarker(low_value, "correction") || lex.HasMarker(low_value, "apology")) return {span.begin, span.begin};
  for (std::string_view pronoun : {"我", "你", "他", "她", "它"}) {
    if (v == pronoun) return {span.begin, span.begin};
  }
  return span;
}

// True when `value` is a name or a number: it holds a digit, a capital letter or a Han character
// ("2021", "Rome", "C7", "杭州"), not a common word ("tea").
bool SaysANameOrNumber(std::string_view value) {
  for (size_t i = 0; i < value.size(); ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (IsDigit(value[i]) || IsCapitalAt(value, i) || (c >= 0xE4 && c <= 0xE9)) return true;
  }
  return false;
}

// Where the value set against another begins, searching back from `end` to `begin`: after the
// last copula, "meant", dash, comma or colon ("it's a 2017", "是O型"), else `begin`.
size_t ContrastStart(std::string_view low, size_t begin, size_t end) {
  size_t from = begin;
  for (std::string_view mark : {"it's ", "it is ", "it was ", "meant ", " is ", " was ", " are ", "'s ", " — ", ", ",
                                ": ", "是", "，", "："}) {
    const size_t at = low.substr(begin, end - begin).rfind(mark);
    if (at != std::string_view::npos) from = std::max(from, begin + at + mark.size());
  }
  return from;
}

// The first of `marks` in `low` at or after `from` and before `end`, npos when none.
size_t FirstOf(std::string_view low, size_t from, size_t end, std::initializer_list<std::string_view> marks) {
  size_t best = std::string_view::npos;
  for (std::string_view mark : marks) {
    const size_t at = low.substr(from, end - from).find(mark);
    if (at != std::string_view::npos) best = std::min(best, from + at);
  }
  return best;
}

}  // namespace

std::optional<FactFrame> ContrastCorrection(std::string_view content, std::string_view low, Span sentence) {
  // Where the value that starts at `from` ends: a comma, a stop, a dash or the sentence's end.
  // (A "." ends it only where it ends a sentence: not in "Dr. Okafor" or "3.12".)
  const auto value_end = [&](size_t from) {
    size_t end = std::min(sentence.end, FirstOf(low, from, sentence.end, {",", ";", "!", "?", " — ", "，", "。", "；", "！", "？"}));
    for (size_t dot = low.find('.', from); dot < end; dot = low.find('.', dot + 1)) {
      if (rules::DotEndsAt(content, dot)) return dot;
    }
    return end;
  };
  Span value, replaces;
  if (const size_t no = FirstOf(low, sentence.begin, sentence.end, {", not "}); no != std::string_view::npos) {
    // "it's a 2017, not a 2015"
    const size_t y = no + 6;
    replaces = ContrastValue(content, low, {y, value_end(y)});
    value = ContrastValue(content, low, {ContrastStart(low, sentence.begin, no), no});
  } else if (const size_t bu = FirstOf(low, sentence.begin, sentence.end, {"不是"}); bu != std::string_view::npos) {
    const size_t y = bu + 6;
    const size_t y_end = value_end(y);
    replaces = ContrastValue(content, low, {y, y_end});
    size_t x = y_end;
    while (x < sentence.end && (low[x] == ',' || low[x] == ' ' || StartsWithAt(low, x, "，"))) x += low[x] == ',' || low[x] == ' ' ? 1 : 3;
    for (std::string_view is : {"而是", "是"}) {
      if (StartsWithAt(low, x, is)) {  // 不是周五，是周六
        value = ContrastValue(content, low, {x + is.size(), value_end(x + is.size())});
        break;
      }
    }
    if (value.empty()) {  // 是O型，不是A型
      size_t x_end = bu;
      while (x_end > sentence.begin && (low[x_end - 1] == ',' || low[x_end - 1] == ' ')) --x_end;
      if (x_end >= sentence.begin + 3 && StartsWithAt(low, x_end - 3, "，")) x_end -= 3;
      value = ContrastValue(content, low, {ContrastStart(low, sentence.begin, x_end), x_end});
    }
  }
  if (value.empty() || replaces.empty() || rules::SpanText(content, value) == rules::SpanText(content, replaces)) {
    return std::nullopt;
  }
  return CorrectionFrame(FactFrame{}, content, value, std::string(rules::SpanText(content, replaces)), sentence);
}

bool BareCorrection(std::string_view content, size_t body, Span clause, FactFrame* f) {
  const Lexicon& lex = Lexicon::Get();
  std::string low = LowerBytes(content.substr(body, clause.end - body));
  size_t from = body;
  bool names_the_wrong = false;  // "I gave you the wrong plate": what was wrong follows, not the value
  for (const PhraseHit& hit : lex.FindMarkers(low, "correction")) {
    from = std::max(from, body + hit.end);
    names_the_wrong = hit.phrase.ends_with("wrong") || hit.phrase.ends_with("misread");  // "I misread the email"
  }
  bool copula_said = false;
  for (std::string_view copula : {"是", "为", "it's ", "it is ", "its ", "meant ", "one's ", "one is "}) {
    size_t at = low.rfind(copula);
    if (at != std::string::npos) from = std::max(from, body + at + copula.size());
    copula_said = copula_said || at != std::string::npos;
  }
  if (names_the_wrong && !copula_said) return false;
  size_t end = clause.end;  // "It's KJ7-4402 — I swapped the last two digits": the value ends at the dash
  for (std::string_view dash : {" — ", " – ", " - ", " ("}) {
    const size_t at = content.substr(from, end - from).find(dash);
    if (at != std::string_view::npos) end = from + at;
  }
  Span value = rules::TrimSpan(content, {from, end});
  while (!value.empty() && (content[value.begin] == ',' || StartsWithAt(content, value.begin, "，"))) {
    value = rules::TrimSpan(content, {value.begin + (content[value.begin] == ',' ? 1 : 3), value.end});
  }
  while (!value.empty() && (content[value.end - 1] == '.' || content[value.end - 1] == '!' ||
                            StartsWithAt(content, value.end - 3, "。") || StartsWithAt(content, value.end - 3, "！"))) {
    value.end -= content[value.end - 1] == '.' || content[value.end - 1] == '!' ? 1 : 3;
  }
  // A correction restates one value ("周四", "Porto", "the 5th"), not a new thought ("I actually
  // just submitted a few more last week").
  std::string_view v = rules::SpanText(content, value);
  if (value.empty() || value.size() > 24 || std::count(v.begin(), v.end(), ' ') > 2) return false;
  f->kind = ClauseKind::kChange;
  f->correction = true;
  f->value = std::string(rules::SpanText(content, value));
  f->value_begin = value.begin;
  f->value_end = value.end;
  return true;
}

// True when `name` is one or two capitalised words of letters and `clause` writes no other word
// with a capital but "I" ("Priya took a job out west"; not "Priya met Raj at the conference",
// whose "he" may be Raj, nor "Liam called while I was cooking").
bool OnlyNameSaid(std::string_view clause, std::string_view name) {
  size_t words = 0;
  for (size_t i = 0; i < name.size();) {
    if (name[i] == ' ') {
      ++i;
      continue;
    }
    if (!(name[i] >= 'A' && name[i] <= 'Z')) return false;
    ++words;
    while (i < name.size() && name[i] != ' ') {
      if (!std::isalpha(static_cast<unsigned char>(name[i]))) return false;
      ++i;
    }
  }
  if (words == 0 || words > 2) return false;
  size_t named = clause.find(name);
  for (size_t i = 0; i < clause.size(); ++i) {
    const bool starts = i == 0 || !std::isalnum(static_cast<unsigned char>(clause[i - 1]));
    if (!starts || !(clause[i] >= 'A' && clause[i] <= 'Z')) continue;
    if (named != std::string_view::npos && i >= named && i < named + name.size()) continue;
    const bool pronoun_i = clause[i] == 'I' && (i + 1 == clause.size() || !std::isalpha(static_cast<unsigned char>(clause[i + 1])));
    if (!pronoun_i) return false;
  }
  return true;
}

}  // namespace

// A person the clause names is whom a later "he" / "she" / 他 / 她 of the event means, even when
// the clause gives no frame: a relative ("my husband quit"), or a name, not a thing or an
// identifier, said with an event of a person's life (markers `person_event`: "Ahmed got promoted";
// "Monday was rough. She moved…" is not about Monday, "Docker crashed. He's…" not about Docker).
// A name said with no such event is whom a "he" / "she" of the same sentence means
// (FrameContext::sentence_person).
void NotePerson(const Lexicon& lex, std::string_view clause, std::string_view low_clause, const Subject& subject,
                FrameContext* context) {
  if (!subject.resolved || subject.thing || subject.name.empty()) return;
  if (subject.kind == FrameSubject::kNamed) {
    const unsigned char first = static_cast<unsigned char>(subject.name[0]);
    if (!(first >= 'A' && first <= 'Z') && first < 0x80) return;  // "standup", "the offsite"
    if (subject.name.find_first_of("0123456789-_") != std::string::npos) return;
    if (lex.FindMarkers(low_clause, "person_event").empty()) {
      if (OnlyNameSaid(clause, subject.name)) {  // "Priya took a job out west and she's…"
        context->sentence_person = subject.name;
        context->sentence_person_fresh = true;
      }
      return;
    }
  } else if (subject.kind != FrameSubject::kRelative) {
    return;
  }
  const std::string name = LowerBytes(subject.name);
  if (const size_t at = low_clause.find(name); at != std::string_view::npos) {  // "my wife's sister": not the wife
    std::string_view after = low_clause.substr(at + name.size());
    if (after.starts_with("'s") || after.starts_with("\xE2\x80\x99s")) return;
  }
  context->person_kind = subject.kind;
  context->person = subject.name;
}

// A relative's home that is in a place ("my dad's place is in Cork", "Mom's flat is in Leeds"):
// where the relative lives (markers `home_noun` name the home), as ReadHomePlace reads the speaker's.
void RelativesHome(const Lexicon& lex, const Subject& subject, FactFrame* f) {
  if (subject.owner.empty() || f->attribute != "location") return;
  const size_t space = subject.name.rfind(' ');
  const std::string noun = space == std::string::npos ? subject.name : subject.name.substr(space + 1);
  const bool home = std::ranges::any_of(lex.FindMarkers(noun, "home_noun"), [&](const PhraseHit& h) {
    return h.begin == 0 && h.end == noun.size();
  });
  if (!home) return;
  f->subject = subject.owner;
  f->subject_kind = FrameSubject::kRelative;
  f->attribute = "lives_in";
}

// A frame of the clause's kind and span, with nothing read yet.
FactFrame ClauseFrame(const ClauseReader& reader, Span clause) {
  FactFrame frame;
  frame.kind = reader.kind();
  frame.clause_begin = clause.begin;
  frame.clause_end = clause.end;
  return frame;
}

// The frame of a clause that gives a thing a new time, place or name, or says where it is or what
// it is called (ClauseReader::ReadThingValue), whoever the clause says acted ("They pushed the
// launch to Tuesday"); nullopt otherwise.
std::optional<FactFrame> ThingGivenValue(ClauseReader& reader, Span clause, size_t body) {
  FactFrame frame = ClauseFrame(reader, clause);
  if (!reader.ReadThingValue(body, &frame)) return std::nullopt;
  reader.FinishCoordinates(&frame);
  return frame;
}

// The frame of a clause that names the speaker's home in a place (ClauseReader::ReadHomePlace), or
// nullopt.
std::optional<FactFrame> HomeGivenPlace(ClauseReader& reader, Span clause, size_t body) {
  FactFrame frame = ClauseFrame(reader, clause);
  if (!reader.ReadHomePlace(body, &frame)) return std::nullopt;
  return frame;
}

std::string LowerAsciiBytes(std::string_view text) { return LowerBytes(text); }

std::vector<Span> EvidenceRanges(std::string_view content) {
  const Lexicon& lex = Lexicon::Get();
  std::string low = LowerBytes(content);
  std::vector<Span> out;
  size_t pos = 0;
  while (pos < content.size()) {
    std::vector<PhraseHit> open = lex.FindMarkers(std::string_view(low).substr(pos), "context_open");
    if (open.empty()) break;
    size_t line_start = content.rfind('\n', pos + open.front().begin);
    line_start = (line_start == std::string_view::npos || line_start < pos) ? pos : line_start + 1;
    if (line_start > pos) out.push_back({pos, line_start});
    std::vector<PhraseHit> close = lex.FindMarkers(std::string_view(low).substr(pos + open.front().end), "context_close");
    if (close.empty()) return out;
    size_t close_at = pos + open.front().end + close.front().end;
    size_t line_end = content.find('\n', close_at);
    pos = line_end == std::string_view::npos ? content.size() : line_end + 1;
  }
  if (pos < content.size()) out.push_back({pos, content.size()});
  return out;
}

SentenceReading ReadSentenceFrames(std::string_view content, std::string_view low,
                                   const rules::Sentence& sentence, const std::vector<Span>& times,
                                   FrameContext* context) {
  SentenceReading reading;
  const Lexicon& lex = Lexicon::Get();
  std::string_view text = rules::SpanText(content, sentence.span);
  if (HasPlaceholder(text)) {
    reading.settled = true;  // de-identified structure: never evidence
    return reading;
  }
  std::string_view low_text = rules::SpanText(low, sentence.span);
  context->sentence_person.clear();
  context->sentence_person_fresh = false;
  const bool pending = context->correction_pending;
  context->correction_pending = false;
  // A correction keeps its commas ("Actually Tuesday, not Monday" is one clause); an "actually"
  // of emphasis inside the sentence, with no contrast after it, makes none ("I'm in Vancouver now,
  // and the landlord here actually answers emails" is two clauses).
  const bool correction = pending || SaysACorrection(low_text) ||
                          (!lex.FindMarkers(low_text, "correction").empty() && SaysAContrast(low_text));
  if (!lex.FindMarkers(rules::SpanText(low, sentence.span), "hypothetical").empty()) {
    reading.settled = true;  // a wish or a condition states nothing, in any of its clauses
    return reading;
  }
  std::optional<Subject> carried;
  if (context->open) {
    carried = Subject{context->open_kind, context->open_subject, true, 0};
  }
  bool unresolvable_carried = false;  // a subject-less clause goes on about a subject no one can resolve
  bool attempt_open = false;  // a clause before said an attempt: CarryAttempt
  size_t attempt_clause_end = 0;
  ClauseKind inherited = ClauseKind::kFact;
  bool first_clause = true;
  for (Span clause : SplitClauses(lex, content, low, sentence.span, correction)) {
    if (!context->sentence_person_fresh) context->sentence_person.clear();  // the next clause only
    context->sentence_person_fresh = false;
    ClauseReader reader(content, low, clause, times, lex);
    reader.ReadKind(sentence.question);
    if (pending && first_clause) reader.TakeCorrection();
    first_clause = false;
    reader.Inherit(inherited);
    if ((reader.kind() == ClauseKind::kQuotation || reader.kind() == ClauseKind::kPast ||
         reader.kind() == ClauseKind::kPlan || reader.kind() == ClauseKind::kRequirement) &&
        !reader.hedged()) {
      inherited = reader.kind();
    }
    if (reader.kind() == ClauseKind::kQuestion) {
      reading.settled = true;
      continue;
    }
    if (reader.kind() == ClauseKind::kHypothetical) reading.settled = true;  // a wish states nothing
    size_t body = reader.BodyStart();
    if (std::optional<FactFrame> moved = ThingGivenValue(reader, clause, body)) {  // whoever moved it
      context->last = *moved;
      reading.frames.push_back(std::move(*moved));
      continue;
    }
    if (std::optional<FactFrame> home = HomeGivenPlace(reader, clause, body)) {  // "my flat in Leeds"
      context->last = *home;
      reading.frames.push_back(std::move(*home));
      continue;
    }
    Subject subject = reader.ReadSubject(body, *context);
    if (subject.unresolvable) {
      carried.reset();
      unresolvable_carried = true;  // "表哥毕业了，去了一家券商做研究员": the second clause is his
      continue;
    }
    if (subject.resolved) unresolvable_carried = false;
    if (!subject.resolved && unresolvable_carried) continue;
    const bool goes_on = (!subject.resolved || subject.weak) && carried;  // no subject of its own
    const bool carry_attempt = goes_on && attempt_open && BareJoint(content, attempt_clause_end, clause.begin);
    if (goes_on) {
      subject = *carried;
      subject.end = body;
    }
    if (carry_attempt) reader.CarryAttempt();
    attempt_open = carry_attempt || reader.SaysAnAttempt();
    attempt_clause_end = clause.end;
    if (subject.resolved) carried = subject.carried ? std::optional<Subject>(subject) : std::nullopt;
    if (subject.kind == FrameSubject::kNamed) reader.NameTheThing(&subject);
    FactFrame frame;
    frame.kind = reader.kind();
    frame.subject_kind = subject.kind;
    frame.subject = subject.name;
    frame.clause_begin = clause.begin;
    frame.clause_end = clause.end;
    reader.ReadFacets(body, clause.end, subject.name);  // "blue 部署", "实例 node-a", "The API service of X"
    if (!reader.ReadValue(subject.end, &frame) && !KindOnly(content, body, clause, subject, &frame) &&
        !(reader.correction() && Corrects(content, body, clause, context->last, &frame)) &&
        !(reader.correction() && !context->last && BareCorrection(content, body, clause, &frame))) {
      NotePerson(lex, rules::SpanText(content, clause), rules::SpanText(low, clause), subject,
                 context);  // "Ahmed got promoted, he's …": Ahmed
      continue;
    }
    if (reader.speaker_object() && HoldsFunctionWord(frame.value)) {
      continue;  // "They made me feel like a doctor", "hired me as a joke, honestly": no job
    }
    if (frame.value_begin > clause.begin && reader.AttemptBefore(frame.value_begin)) {
      continue;  // whatever verb read it: "I tried to switch to Emacs", "we nearly upgraded to Postgres 16"
    }
    if (frame.correction && frame.subject_kind == FrameSubject::kNamed && frame.subject == frame.value) {
      frame.subject_kind = FrameSubject::kSpeaker;  // "It's 4D.": the value said again, no subject of its own
      frame.subject.clear();
    }
    reader.ScopeDenial(&frame);
    RelativesHome(lex, subject, &frame);
    if (subject.kind == FrameSubject::kSpeaker && IsThingAttribute(frame.attribute)) {
      // A person has no version: "We plan to upgrade auth-svc to v5.0", "We bumped the API to v3.2".
      std::optional<Subject> thing = reader.ThingNamed(subject.end, frame.value_begin);
      if (!thing) thing = reader.ObjectOfChange(subject.end, frame.value_begin);
      if (thing) {
        subject = *thing;
        frame.subject_kind = subject.kind;
        frame.subject = subject.name;
      }
      frame.subject_unsaid = !thing || IsPronounName(frame.subject);
    } else if (std::optional<Subject> object = frame.attribute == "version" && subject.kind == FrameSubject::kNamed &&
                                                       !subject.thing
                                                   ? reader.ObjectOfChange(subject.end, frame.value_begin)
                                                   : std::nullopt) {
      // Whoever made the change is no product: "Ops bumped everything to 1.29" is of what was
      // bumped ("everything": the thing said before).
      subject = *object;
      frame.subject = subject.name;
      frame.subject_unsaid = IsPronounName(frame.subject);
    } else if (subject.kind == FrameSubject::kNamed && IsThingAttribute(frame.attribute) &&
               (IsPronounName(frame.subject) || frame.subject == "s") && (frame.correction || frame.kind == ClauseKind::kChange)) {
      // "Oops, it's 3.6, not 3.4", "it's on 3.6 now" ("s" is what the subject reading leaves of
      // "it's"): the thing said before; not "it's 98.6 degrees outside", which says no change (an
      // adversarial review).
      frame.subject_unsaid = true;
    }
    if ((frame.kind == ClauseKind::kFact || frame.kind == ClauseKind::kChange) &&
        InsideQuotedClause(content, frame.value_begin, frame.value_end)) {
      frame.kind = ClauseKind::kQuotation;  // reported words never change the current state
    }
    SpeakersFavorite(lex, &frame);
    if (frame.attribute == "version" && !subject.thing &&
        (subject.kind == FrameSubject::kRelative ||
         (subject.kind == FrameSubject::kNamed && reader.NamedAsPerson({body, subject.end})))) {
      // A person has no version: what they run is a tool of theirs ("My teammate Raj is on Python
      // 3.13", "My sister uses iOS 17"), not the version of the product the speaker runs.
      frame.attribute = "uses";
      frame.slot.clear();
    }
    if (!reader.ProductAsSubject(&frame)) continue;
    if (frame.subject_kind == FrameSubject::kNamed && !IsPronounName(frame.subject)) frame.subject_unsaid = false;
    reader.FinishCoordinates(&frame);
    if (subject.kind != FrameSubject::kSpeaker && frame.subject_kind != FrameSubject::kNamed) {
      context->person_kind = subject.kind;
      context->person = subject.name;
    } else if (subject.kind == FrameSubject::kNamed && !subject.name.empty() &&
               subject.name.find_first_of("0123456789-_") == std::string::npos) {
      context->person_kind = subject.kind;
      context->person = subject.name;
    }
    context->last = frame;
    std::optional<FactFrame> job = reader.JobBesideEmployer(frame);
    if (!job) job = reader.EmployerBesideJob(frame);
    reading.frames.push_back(std::move(frame));
    if (job) reading.frames.push_back(std::move(*job));
  }
  // A correction that sets its value against the one it replaces ("it's a 2017, not a 2015, my
  // bad", 是O型，不是A型) when no clause read the value of an attribute ("我生日是十月五号，不是三号" is
  // read as the birthday).
  // An apology that sets a name or a number against another is one too ("sorry, it's a 2021, not a
  // 2019"; not "sorry, tea, not coffee", nor "sorry, I'm busy, not free today").
  const bool apology = !correction && lex.HasMarker(low_text, "apology");
  if ((correction || apology) && !sentence.question) {
    std::optional<FactFrame> contrast = ContrastCorrection(content, low, sentence.span);
    if (contrast && apology && !(SaysANameOrNumber(contrast->value) && SaysANameOrNumber(contrast->replaces))) {
      contrast.reset();
    }
    if (contrast) {
      // The "not Y" part names what is replaced and denies nothing of its own ("Sorry, my plate is
      // 7KLM329, not 7KLM392"); a clause that read the value itself ("it's 3.12", a version, "my
      // plate is 7KLM329") is the correction, replacing Y. Clauses after Y are read as said ("…, not
      // AA200, and my hotel is the Hilton").
      const size_t y = content.find(contrast->replaces, contrast->value_end);
      const size_t y_end = y == std::string_view::npos ? contrast->value_end : y + contrast->replaces.size();
      std::erase_if(reading.frames, [&](const FactFrame& f) {
        return f.clause_begin >= contrast->value_end && f.clause_begin < y_end;
      });
      for (FactFrame& f : reading.frames) {
        if (f.value_begin != contrast->value_begin || f.value_end != contrast->value_end) continue;
        f.replaces = contrast->replaces;
        f.correction = true;
        f.kind = ClauseKind::kChange;
        contrast.reset();  // read in place
        break;
      }
    }
    const auto read_it = [](const FactFrame& f) { return !f.attribute.empty() && f.attribute != "is"; };
    if (contrast && std::none_of(reading.frames.begin(), reading.frames.end(), read_it)) {
      reading.frames.assign(1, *contrast);
      context->last = *contrast;
    }
  }
  if (!reading.frames.empty()) reading.settled = true;
  context->correction_pending = reading.frames.empty() && !pending && !sentence.question &&
                                !lex.FindMarkers(low_text, "correction").empty();
  context->open = carried.has_value() && (text.ends_with(";") || text.ends_with("；"));
  if (context->open) {
    context->open_kind = carried->kind;
    context->open_subject = carried->name;
  }
  return reading;
}

}  // namespace engram::extraction
