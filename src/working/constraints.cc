#include "working/constraints.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>

#include <algorithm>
#include <memory>
#include <set>

#include "text/stopwords.h"
#include "util/normalize.h"
#include "write/extraction/lexicon.h"

namespace engram::working {
namespace {

using extraction::Lexicon;
using extraction::PhraseHit;

// ASCII lower case, with the typographic apostrophe (U+2019) written as "'" so that "don’t"
// matches "don't". Byte offsets change only where an apostrophe was replaced: callers use the
// lowered text alone.
std::string Lowered(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 3, "\xE2\x80\x99") == 0) {
      out += '\'';
      i += 2;
      continue;
    }
    const char c = text[i];
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || c == '\''; }

// The ASCII word that starts at or after `from` (skipping spaces and punctuation), "" when the
// next thing is not an ASCII word (Chinese text, the end).
std::string NextWord(std::string_view lowered, size_t from) {
  size_t i = from;
  while (i < lowered.size() && (lowered[i] == ' ' || lowered[i] == ',' || lowered[i] == '\t')) ++i;
  size_t j = i;
  while (j < lowered.size() && IsAsciiLetter(lowered[j])) ++j;
  return std::string(lowered.substr(i, j - i));
}

// Adverbs that may stand between a negation and its verb ("don't really need").
bool IsFiller(std::string_view word) {
  static const std::set<std::string, std::less<>> kFillers = {"really", "even", "actually", "ever", "always",
                                                              "usually", "just", "yet", "want", "to", "any"};
  return kFillers.count(word) != 0;
}

// The text at `at` (spaces skipped) begins with `phrase` as whole words.
bool PhraseAt(std::string_view lowered, size_t at, std::string_view phrase) {
  while (at < lowered.size() && (lowered[at] == ' ' || lowered[at] == ',')) ++at;
  if (lowered.compare(at, phrase.size(), phrase) != 0) return false;
  const size_t end = at + phrase.size();
  return end == lowered.size() || !IsAsciiLetter(lowered[end]);
}

// A word (or phrase) of the not_constraint list follows `end` (a few fillers skipped), or, for
// Chinese, the text right after it begins with one.
bool StateFollows(std::string_view lowered, size_t end) {
  const Lexicon& lex = Lexicon::Get();
  size_t at = end;
  for (int hop = 0; hop < 3; ++hop) {
    std::string word = NextWord(lowered, at);
    if (word.empty()) break;
    for (const std::string& s : lex.Markers("not_constraint")) {
      if (PhraseAt(lowered, at, s)) return true;
    }
    if (!IsFiller(word)) return false;
    at = lowered.find(word, at) + word.size();
  }
  for (const std::string& s : lex.Markers("not_constraint")) {
    if (lowered.compare(end, s.size(), s) == 0 && static_cast<unsigned char>(s[0]) >= 0x80) return true;
  }
  return false;
}

// The hit lies inside a not_forbid word ("特别" around 别).
bool InsideOtherWord(std::string_view lowered, const PhraseHit& hit) {
  for (const std::string& w : Lexicon::Get().Markers("not_forbid")) {
    for (size_t at = lowered.find(w); at != std::string_view::npos; at = lowered.find(w, at + 1)) {
      if (at <= hit.begin && at + w.size() >= hit.end) return true;
    }
  }
  return false;
}

// The word right before `begin` is a thing_subject ("there won't be", "it doesn't").
bool ThingBefore(std::string_view lowered, size_t begin) {
  size_t end = begin;
  while (end > 0 && lowered[end - 1] == ' ') --end;
  size_t start = end;
  while (start > 0 && IsAsciiLetter(lowered[start - 1])) --start;
  const std::string_view word = lowered.substr(start, end - start);
  for (const std::string& s : Lexicon::Get().Markers("thing_subject")) {
    if (word == s) return true;
  }
  return false;
}

// A forbid marker that makes a constraint: not inside another word, not before a state, not after
// a thing.
bool Forbids(std::string_view lowered, const PhraseHit& hit) {
  return !InsideOtherWord(lowered, hit) && !StateFollows(lowered, hit.end) && !ThingBefore(lowered, hit.begin);
}

bool IsQuestion(std::string_view sentence) {
  std::string_view s = sentence;
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.remove_suffix(1);
  return (!s.empty() && s.back() == '?') || (s.size() >= 3 && (s.substr(s.size() - 3) == "\xEF\xBC\x9F" ||
                                                                  s.substr(s.size() - 3) == "\xE5\x90\x97"));
}

// A Han character (CJK Unified Ideographs, U+4E00–U+9FFF) starts at `s[i]`: 3 bytes E4–E9.
bool HanAt(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  return i + 3 <= s.size() && b >= 0xE4 && b <= 0xE9;
}

// The character bigrams of the runs of Han characters (Chinese has no spaces between words; every
// two-character word is one of them, as in engram's full-text index).
void AddHanBigrams(std::string_view key, std::set<std::string>* words) {
  for (size_t i = 0; i + 6 <= key.size(); ++i) {
    if (HanAt(key, i) && HanAt(key, i + 3)) words->insert(std::string(key.substr(i, 6)));
  }
}

// Content words of a text: NormalizeKey's words that are not English stopwords, at least 2 bytes,
// and the bigrams of its Chinese.
std::set<std::string> ContentWords(std::string_view text) {
  std::set<std::string> words;
  const std::string key = NormalizeKey(text);
  AddHanBigrams(key, &words);
  size_t start = 0;
  while (start < key.size()) {
    size_t end = key.find(' ', start);
    if (end == std::string::npos) end = key.size();
    std::string w = key.substr(start, end - start);
    while (!w.empty() && !IsAsciiLetter(w.back()) && static_cast<unsigned char>(w.back()) < 0x80) w.pop_back();
    // Chinese is counted by its bigrams (above), not as one word per run.
    bool han = false;
    for (size_t i = 0; i < w.size() && !han; ++i) han = HanAt(w, i);
    if (w.size() >= 2 && !han && !text::IsEnglishStopword(w)) words.insert(w);
    start = end + 1;
  }
  return words;
}

}  // namespace

std::vector<std::string> Sentences(std::string_view text) {
  std::vector<std::string> out;
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> it(icu::BreakIterator::createSentenceInstance(icu::Locale::getRoot(), status));
  const icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  if (U_FAILURE(status)) {
    out.emplace_back(text);
    return out;
  }
  it->setText(u);
  int32_t begin = it->first();
  for (int32_t end = it->next(); end != icu::BreakIterator::DONE; begin = end, end = it->next()) {
    std::string piece;
    u.tempSubStringBetween(begin, end).toUTF8String(piece);
    // Line breaks end a sentence too (chat turns often carry one rule a line).
    size_t from = 0;
    while (from <= piece.size()) {
      size_t nl = piece.find('\n', from);
      if (nl == std::string::npos) nl = piece.size();
      std::string line = piece.substr(from, nl - from);
      const size_t a = line.find_first_not_of(" \t\r");
      const size_t b = line.find_last_not_of(" \t\r");
      if (a != std::string::npos) out.push_back(line.substr(a, b - a + 1));
      from = nl + 1;
    }
  }
  return out;
}

bool IsConstraint(std::string_view sentence) {
  if (IsQuestion(sentence)) return false;
  const std::string lowered = Lowered(sentence);
  const Lexicon& lex = Lexicon::Get();
  for (const PhraseHit& hit : lex.FindMarkers(lowered, "forbid")) {
    if (Forbids(lowered, hit)) return true;
  }
  for (const PhraseHit& hit : lex.FindMarkers(lowered, "forbid_gerund")) {
    const std::string next = NextWord(lowered, hit.end);
    if (next.size() > 4 && next.compare(next.size() - 3, 3, "ing") == 0) return true;
  }
  const std::string first = NextWord(lowered, 0);
  for (const std::string& start : lex.Markers("forbid_start")) {
    if (first != start) continue;
    // "No baggage and insurance." — not "No, that's wrong" or "No problem".
    const size_t after = lowered.find(first) + first.size();
    if (after < lowered.size() && lowered[after] == ',') continue;
    if (!StateFollows(lowered, after)) return true;
  }
  return false;
}

std::vector<std::string> ConstraintClauses(std::string_view sentence) {
  if (!IsConstraint(sentence)) return {};
  const std::string lowered = Lowered(sentence);
  if (lowered.size() != sentence.size()) return {std::string(sentence)};  // offsets would not match
  std::vector<size_t> cuts;
  size_t previous_end = 0;
  bool first = true;
  for (const PhraseHit& hit : Lexicon::Get().FindMarkers(lowered, "forbid")) {
    if (!Forbids(lowered, hit)) continue;
    if (!first) {
      size_t cut = std::string::npos;
      for (std::string_view sep : {",", ";", "\xEF\xBC\x8C", "\xEF\xBC\x9B", " and ", " but "}) {
        const size_t at = lowered.rfind(sep, hit.begin);
        if (at != std::string::npos && at >= previous_end && (cut == std::string::npos || at > cut)) cut = at;
      }
      if (cut != std::string::npos) cuts.push_back(cut);
    }
    first = false;
    previous_end = hit.end;
  }
  std::vector<std::string> clauses;
  size_t from = 0;
  cuts.push_back(sentence.size());
  for (size_t cut : cuts) {
    std::string_view piece = sentence.substr(from, cut - from);
    while (!piece.empty() && (piece.front() == ' ' || piece.front() == ',' || piece.front() == ';')) piece.remove_prefix(1);
    for (std::string_view sep : {"\xEF\xBC\x8C", "\xEF\xBC\x9B"}) {
      if (piece.substr(0, sep.size()) == sep) piece.remove_prefix(sep.size());
    }
    for (std::string_view conjunction : {"and ", "but ", "And ", "But "}) {
      if (piece.substr(0, conjunction.size()) == conjunction) piece.remove_prefix(conjunction.size());
    }
    while (!piece.empty() && (piece.back() == ' ' || piece.back() == ',' || piece.back() == ';')) piece.remove_suffix(1);
    for (std::string_view sep : {"\xEF\xBC\x8C", "\xEF\xBC\x9B"}) {
      if (piece.size() >= sep.size() && piece.substr(piece.size() - sep.size()) == sep) piece.remove_suffix(sep.size());
    }
    if (!piece.empty() && IsConstraint(piece)) clauses.emplace_back(piece);
    from = cut;
  }
  if (clauses.empty()) clauses.emplace_back(sentence);
  return clauses;
}

bool IsRuledOut(std::string_view sentence) {
  return !IsQuestion(sentence) && !Lexicon::Get().FindMarkers(Lowered(sentence), "ruled_out").empty();
}

bool Retracts(std::string_view sentence, std::string_view constraint) {
  const std::string lowered = Lowered(sentence);
  if (Lexicon::Get().FindMarkers(lowered, "retract").empty()) return false;
  // What the two share beyond the words of the markers themselves ("use" in "you can use" and
  // "don't use"): the thing forbidden.
  std::set<std::string> marker_words;
  for (const char* kind : {"retract", "forbid", "forbid_gerund"}) {
    for (const std::string& phrase : Lexicon::Get().Markers(kind)) {
      for (const std::string& w : ContentWords(phrase)) marker_words.insert(w);
    }
  }
  // At least a third of what the constraint names (a word it shares with any sentence about the
  // same task — "booking" — is not enough: "go on with the booking" retracts no "don't need
  // insurance for this booking").
  const std::set<std::string> said = ContentWords(sentence);
  size_t named = 0, shared = 0;
  for (const std::string& w : ContentWords(constraint)) {
    if (marker_words.count(w) != 0) continue;
    ++named;
    shared += said.count(w);
  }
  return shared > 0 && 3 * shared >= named;
}

}  // namespace engram::working
