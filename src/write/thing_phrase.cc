#include "write/thing_phrase.h"

#include <algorithm>
#include <utility>

#include <unicode/utf8.h>

#include "text/script.h"
#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"

namespace engram {
namespace {

// The marker kinds whose words end a thing's name (data/lexicon/markers.tsv): verbs and copulas,
// words of time, stance and mood. Not the kinds that are nouns (occupation, marker_noun, kin).
constexpr std::string_view kCuttingKinds[] = {
    "bounded",  "change",  "copula",   "correction", "discourse",   "ended",      "hypothetical", "named",
    "negated",  "now",     "past",     "person_event", "placed",    "plan",       "question",     "quotation",
    "recurring", "relocate", "rename", "requirement", "reschedule", "resize",     "retract",      "span",
    "state_change", "state_verb", "temporary", "uncertain", "usual", "verb_form", "counted"};

using Span = std::pair<size_t, size_t>;

// Byte spans of `lowered` where a verb or a marker of a cutting kind stands.
std::vector<Span> CuttingSpans(std::string_view lowered) {
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  std::vector<Span> spans;
  for (const extraction::PhraseHit& hit : lex.FindVerbs(lowered)) spans.emplace_back(hit.begin, hit.end);
  for (std::string_view kind : kCuttingKinds) {
    for (const extraction::PhraseHit& hit : lex.FindMarkers(lowered, kind)) spans.emplace_back(hit.begin, hit.end);
  }
  return spans;
}

bool Overlaps(const std::vector<Span>& spans, size_t begin, size_t end) {
  return std::any_of(spans.begin(), spans.end(), [&](const Span& s) { return s.first < end && begin < s.second; });
}

bool HasDigit(std::string_view term) {
  return std::any_of(term.begin(), term.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// An English past tense: a word of four letters or more in "-ed" ("swapped", "moved", "closed").
bool PastTense(std::string_view surface) {
  if (surface.size() < 4 || !surface.ends_with("ed")) return false;
  return std::all_of(surface.begin(), surface.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// True when only spaces and hyphens stand between two tokens (or they overlap: CJK bigrams).
bool Adjacent(std::string_view text, size_t prev_end, size_t begin) {
  if (prev_end >= begin) return true;
  return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(prev_end),
                     text.begin() + static_cast<std::ptrdiff_t>(begin), [](char c) { return c == ' ' || c == '-'; });
}

// "Dr", "St", "Mr": an abbreviation, not a thing's name.
bool TooShortAHead(const std::string& head) {
  return head.size() <= 2 && std::all_of(head.begin(), head.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// `text` without the CJK particle 的, so that what it joins reads as one phrase; `*de_at` gets the
// byte offsets (in the text returned) where one stood.
std::string WithoutDe(std::string_view text, std::vector<size_t>* de_at) {
  static constexpr std::string_view kDe = "的";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i, kDe.size()) == kDe) {
      i += kDe.size();
      de_at->push_back(out.size());
      continue;
    }
    out.push_back(text[i++]);
  }
  return out;
}

// An English possessive: the word as written ends in 's ("wife's", "Tom’s").
bool Possessive(std::string_view surface) {
  return surface.ends_with("'s") || surface.ends_with("\xE2\x80\x99s");
}

}  // namespace

ThingPhrases ReadThingPhrases(text::Analyzer& analyzer, std::string_view given, const std::set<std::string>& ignored) {
  std::vector<size_t> de_at;
  const std::string text = WithoutDe(given, &de_at);
  const std::string lowered = extraction::rules::LowerAscii(text);
  const std::vector<Span> cuts = CuttingSpans(lowered);
  ThingPhrases out;
  ThingPhrase run;
  size_t run_end = 0;
  auto flush = [&] {
    if (!run.terms.empty() && !TooShortAHead(run.terms.back())) out.phrases.push_back(std::move(run));
    run = ThingPhrase{};
  };
  analyzer.Tokenize(text, text::TokenizeMode::kQuery, [&](std::string_view token, int b, int e, bool) {
    const auto begin = static_cast<size_t>(b), end = static_cast<size_t>(e);
    if (ignored.count(std::string(token)) > 0) return;
    // A bigram across a removed 的 (公手 of 老公的手机) is no term; the one before it names an owner.
    if (std::any_of(de_at.begin(), de_at.end(), [&](size_t at) { return begin < at && at < end; })) return;
    const bool content = !text::IsFunctionTerm(token);
    if (content) out.terms.emplace(token);
    const std::string_view surface = std::string_view(lowered).substr(begin, end - begin);
    if (!content || HasDigit(token) || Overlaps(cuts, begin, end) || PastTense(surface)) {
      flush();
      return;
    }
    if (!run.terms.empty() && !Adjacent(text, run_end, begin)) flush();
    run.terms.emplace_back(token);
    if (Possessive(surface) || std::find(de_at.begin(), de_at.end(), end) != de_at.end()) run.owners.emplace(token);
    run_end = end;
  });
  flush();
  return out;
}

bool NameTheSameThing(const ThingPhrases& newer, const ThingPhrases& older) {
  for (const ThingPhrase& n : newer.phrases) {
    for (const ThingPhrase& o : older.phrases) {
      if (n.terms.back() != o.terms.back()) continue;
      const bool modifiers_said = std::all_of(n.terms.begin(), n.terms.end() - 1,
                                              [&](const std::string& t) { return older.terms.count(t) > 0; });
      const bool owners_said = std::all_of(o.owners.begin(), o.owners.end(), [&](const std::string& t) {
        return t == o.terms.back() || newer.terms.count(t) > 0;
      });
      if (modifiers_said && owners_said) return true;
    }
  }
  return false;
}

namespace {

// The code point at `at` of `text` and its length in bytes (U+FFFD and 1 for a bad byte).
std::pair<UChar32, size_t> CharAt(std::string_view text, size_t at) {
  int32_t i = static_cast<int32_t>(at);
  UChar32 c = 0;
  U8_NEXT(text.data(), i, static_cast<int32_t>(text.size()), c);
  if (c < 0) c = 0xFFFD;
  return {c, static_cast<size_t>(i) - at};
}

// A character a name may hold: a CJK one, or an ASCII letter or digit.
bool NameChar(UChar32 c) {
  return text::IsCjk(c) || (c < 0x80 && ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) || (c >= '0' && c <= '9');
}

bool FunctionChar(std::string_view text, size_t at, size_t len) {
  return text::IsChineseFunctionWord(text.substr(at, len));
}

// True when a word ends before `at` of `text`: the end, a character no name holds, a function
// character, or the start of a verb or marker of the lexicon (`cuts`).
bool WordEndsAt(std::string_view text, size_t at, const std::vector<Span>& cuts) {
  if (at >= text.size()) return true;
  const auto [c, len] = CharAt(text, at);
  if (!NameChar(c) || FunctionChar(text, at, len)) return true;
  return std::any_of(cuts.begin(), cuts.end(), [&](const Span& s) { return s.first == at; });
}

// Where the topic of `clause` starts: after its opening spaces and marks, words of time, verbs and
// markers of discourse (`cuts`), and function characters (我, 我们, 把).
size_t TopicStart(std::string_view clause, const std::vector<Span>& cuts) {
  const std::vector<text::TimeMention> times = text::FindTimeMentions(clause, 0, 0);
  size_t at = 0;
  while (at < clause.size()) {
    size_t next = at;
    for (const text::TimeMention& m : times) {
      if (m.byte_start == at) next = std::max(next, m.byte_end);
    }
    for (const Span& s : cuts) {
      if (s.first == at) next = std::max(next, s.second);
    }
    if (next == at) {
      const auto [c, len] = CharAt(clause, at);
      if (NameChar(c) && !FunctionChar(clause, at, len)) return at;
      next = at + len;
    }
    at = next;
  }
  return at;
}

// True when `older` holds `name` as a whole word (WordEndsAt after it) not owned by another (no
// 的 before it unless after 我 or 我们).
bool HoldsAsOwnWord(std::string_view older, std::string_view name, const std::vector<Span>& older_cuts) {
  static constexpr std::string_view kDe = "的";
  for (size_t at = older.find(name); at != std::string_view::npos; at = older.find(name, at + 1)) {
    if (!WordEndsAt(older, at + name.size(), older_cuts)) continue;
    if (at >= kDe.size() && older.substr(at - kDe.size(), kDe.size()) == kDe) {
      const std::string_view before = older.substr(0, at - kDe.size());
      if (!before.ends_with("我") && !before.ends_with("我们")) continue;
    }
    return true;
  }
  return false;
}

}  // namespace

bool OpensWithTheTopicOf(std::string_view newer, std::string_view older) {
  const std::string newer_low = extraction::rules::LowerAscii(newer), older_low = extraction::rules::LowerAscii(older);
  const std::vector<Span> newer_cuts = CuttingSpans(newer_low), older_cuts = CuttingSpans(older_low);
  const size_t start = TopicStart(newer_low, newer_cuts);
  // The longest run of name characters from `start` that `older` holds.
  size_t end = start, best = start;
  while (end < newer_low.size()) {
    const auto [c, len] = CharAt(newer_low, end);
    if (!NameChar(c)) break;
    end += len;
    if (older_low.find(std::string_view(newer_low).substr(start, end - start)) == std::string::npos) break;
    best = end;
  }
  if (best == start || !WordEndsAt(newer_low, best, newer_cuts)) return false;
  // A topic that owns what follows (笔记本的壁纸) or acts on something else (医生给我换了药, 他把…) is
  // not the thing that changed.
  for (std::string_view next : {"的", "给", "把", "对", "帮", "替", "让"}) {
    if (std::string_view(newer_low).substr(best).starts_with(next)) return false;
  }
  const std::string_view topic = std::string_view(newer_low).substr(start, best - start);
  if (topic.size() < 3 && !text::IsCjk(CharAt(topic, 0).first)) return false;  // "ok", "v2": no name
  return HoldsAsOwnWord(older_low, topic, older_cuts);
}

}  // namespace engram
