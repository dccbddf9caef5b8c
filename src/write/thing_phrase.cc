#include "write/thing_phrase.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include <unicode/utf8.h>

#include "text/script.h"
#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/fact_frame_reader.h"
#include "write/extraction/rule_sentences.h"

namespace engram {
namespace {

// The marker kinds whose words end a thing's name (data/lexicon/markers.tsv): verbs and copulas,
// words of time, stance and mood. Not the kinds that are nouns (occupation, marker_noun, kin).
constexpr std::string_view kCuttingKinds[] = {
    "bounded",  "change",  "copula",   "correction", "discourse",   "ended",      "hypothetical", "named",
    "negated",  "now",     "past",     "person_event", "placed",    "plan",       "question",     "quotation",
    "recurring", "relocate", "rename", "requirement", "reschedule", "resize",     "retract",      "span",
    "state_change", "state_verb", "temporary", "uncertain", "usual", "verb_form", "counted", "ends", "ends_named"};

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

bool IsPreposition(std::string_view token) {
  static constexpr std::string_view kJoints[] = {"of", "in", "on", "at", "for", "from", "with"};
  return std::find(std::begin(kJoints), std::end(kJoints), token) != std::end(kJoints);
}

bool OnlySpacesBetween(std::string_view text, size_t from, size_t to) {
  if (from >= to) return true;
  return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(from), text.begin() + static_cast<std::ptrdiff_t>(to),
                     [](char c) { return c == ' '; });
}

// True when the verb or marker at [begin, end) of `lowered` leads to a value: it ends in "to",
// "into", "as", 成, 到 or 为 ("moved to", "switched to", 换成, 升到).
bool EndsInAValueWord(std::string_view lowered, const std::vector<Span>& cuts, size_t begin, size_t end) {
  size_t stop = end;
  for (const Span& s : cuts) {
    if (s.first < end && begin < s.second) stop = std::max(stop, s.second);
  }
  const std::string_view said = lowered.substr(0, stop);
  for (std::string_view w : {" to", " into", " as", "成", "到", "为"}) {
    if (said.ends_with(w)) return true;
  }
  return false;
}

// True when a mark that ends a clause stands in [from, to) of `text` (, . ; : ! ? — and the
// Chinese ones).
bool ClauseMarkBetween(std::string_view text, size_t from, size_t to) {
  if (from >= to) return false;
  const std::string_view gap = text.substr(from, to - from);
  if (gap.find_first_of(",.;:!?") != std::string_view::npos) return true;
  for (std::string_view mark : {"，", "。", "；", "：", "！", "？", "—", "、"}) {
    if (gap.find(mark) != std::string_view::npos) return true;
  }
  return false;
}

// A particle of a phrasal verb ("swapped out", "moved over", "scaled up").
bool IsParticle(std::string_view token) {
  static constexpr std::string_view kWords[] = {"out", "up", "down", "over", "back", "off", "away"};
  return std::find(std::begin(kWords), std::end(kWords), token) != std::end(kWords);
}

// An article or a possessive pronoun: it opens a phrase and joins nothing.
bool IsDeterminer(std::string_view token) {
  static constexpr std::string_view kWords[] = {"the", "a", "an", "my", "our", "your", "his", "her", "their", "its"};
  return std::find(std::begin(kWords), std::end(kWords), token) != std::end(kWords);
}

// A pronoun right after a phrase opens a clause that says which one ("the bike I commute on").
bool OpensAClause(std::string_view token) {
  static constexpr std::string_view kPronouns[] = {"i", "we", "you", "he", "she", "they", "that", "which", "who"};
  return std::find(std::begin(kPronouns), std::end(kPronouns), token) != std::end(kPronouns);
}

// An English possessive: the word as written ends in 's ("wife's", "Tom’s").
bool Possessive(std::string_view surface) {
  return surface.ends_with("'s") || surface.ends_with("\xE2\x80\x99s");
}

// Reads a text's thing phrases token by token (ReadThingPhrases). What joins the phrase just read
// (`last_`, an index in out_.phrases) to the next: a preposition ("the band of my watch"), or a
// verb — one that acts on the next phrase ("The landlord switched the laundry room…") unless it
// leads to a value ("moved to", "switched to", 换成).
class PhraseReader {
 public:
  PhraseReader(std::string_view given, const std::set<std::string>& ignored)
      : text_(WithoutDe(given, &de_at_)), lowered_(extraction::LowerAsciiBytes(text_)),
        cuts_(CuttingSpans(lowered_)), ignored_(ignored) {}

  ThingPhrases Read(text::Analyzer& analyzer) && {
    analyzer.Tokenize(text_, text::TokenizeMode::kQuery, [this](std::string_view token, int b, int e, bool) {
      Take(token, static_cast<size_t>(b), static_cast<size_t>(e));
    });
    Flush();
    return std::move(out_);
  }

 private:
  enum class Joint { kNone, kPreposition, kVerb, kVerbToValue };
  static constexpr size_t kNone = SIZE_MAX;

  void Take(std::string_view token, size_t begin, size_t end) {
    if (ClauseMarkBetween(text_, token_end_, begin)) clause_tokens_ = 0;
    token_end_ = std::max(token_end_, end);
    if (ignored_.count(std::string(token)) > 0) return;
    // A bigram across a removed 的 (公手 of 老公的手机) is no term; the one before it names an owner.
    if (std::any_of(de_at_.begin(), de_at_.end(), [&](size_t at) { return begin < at && at < end; })) return;
    const bool opens = clause_tokens_ == 0;
    if (!IsDeterminer(token)) ++clause_tokens_;
    if (!Adjacent(text_, run_.terms.empty() ? begin : run_end_, begin) && !OnlySpacesBetween(text_, run_end_, begin)) {
      EndJoint();  // a mark between: a new clause
    }
    run_end_ = end;
    const bool content = !text::IsFunctionTerm(token);
    if (content) out_.terms.emplace(token);
    const std::string_view surface = std::string_view(lowered_).substr(begin, end - begin);
    const bool verb = content && (Overlaps(cuts_, begin, end) || PastTense(surface));
    if (!content && IsParticle(token)) return;  // "swapped out", "scaled up": part of the verb
    if (verb || (!content && (IsPreposition(token) || IsDeterminer(token) || token == "to" || token == "into"))) {
      Join(token, verb, begin, end);
    } else if (!content || HasDigit(token)) {
      if (!content && OpensAClause(token)) Restrict();
      EndJoint();
    } else {
      if (run_.terms.empty()) run_.opens_clause = opens;
      run_.terms.emplace_back(token);
      if (Possessive(surface) || std::find(de_at_.begin(), de_at_.end(), end) != de_at_.end()) {
        run_.owners.emplace(token);
      }
    }
  }

  // A verb, a preposition, "to" or a determiner after the phrase just read.
  void Join(std::string_view token, bool verb, size_t begin, size_t end) {
    Flush();
    if (verb) verb_before_ = true;
    if (last_ == kNone) return;
    if (verb) {
      joint_ = EndsInAValueWord(lowered_, cuts_, begin, end) ? Joint::kVerbToValue : Joint::kVerb;
    } else if (token == "to" || token == "into") {
      joint_ = joint_ == Joint::kVerb ? Joint::kVerbToValue : Joint::kNone;  // "to Premium": a value
    } else if (IsPreposition(token) && joint_ == Joint::kNone) {
      // "swapped the printer for an HP", "replaced it with a nylon one": the new value.
      const bool replacement = (token == "for" || token == "with") && out_.phrases[last_].object_of_verb;
      joint_ = replacement ? Joint::kNone : Joint::kPreposition;
    }
    // A determiner ("my", "the") keeps the joint: "the band of my watch".
  }

  // A pronoun opening a clause right after a phrase: the clause says which one it is.
  void Restrict() {
    const bool right_after = !run_.terms.empty() || joint_ == Joint::kNone;
    Flush();
    if (right_after && last_ != kNone) out_.phrases[last_].clause_after = true;
  }

  void Flush() {
    if (run_.terms.empty()) return;
    if (!TooShortAHead(run_.terms.back())) {
      if (joint_ == Joint::kPreposition && last_ != kNone) {
        out_.phrases[last_].after = run_.terms;
        run_.said_of_another = true;  // "my watch" of "the band of my watch" is not what changed
      }
      if (joint_ == Joint::kVerb && last_ != kNone) out_.phrases[last_].acts_on_another = true;
      run_.object_of_verb = joint_ == Joint::kVerb || joint_ == Joint::kVerbToValue || verb_before_;
      out_.phrases.push_back(std::move(run_));
      last_ = out_.phrases.size() - 1;
    }
    run_ = ThingPhrase{};
    joint_ = Joint::kNone;
    verb_before_ = false;
  }

  void EndJoint() {
    Flush();
    last_ = kNone;
    joint_ = Joint::kNone;
    verb_before_ = false;
  }

  std::vector<size_t> de_at_;
  const std::string text_, lowered_;
  const std::vector<Span> cuts_;
  const std::set<std::string>& ignored_;
  ThingPhrases out_;
  ThingPhrase run_;
  size_t run_end_ = 0;
  size_t token_end_ = 0;       // where the last token taken ends
  size_t clause_tokens_ = 0;   // tokens but articles and possessives since the clause began
  size_t last_ = kNone;
  Joint joint_ = Joint::kNone;
  bool verb_before_ = false;  // a verb stands before the phrase being read ("swapped out the printer")
};

}  // namespace

ThingPhrases ReadThingPhrases(text::Analyzer& analyzer, std::string_view given, const std::set<std::string>& ignored) {
  return PhraseReader(given, ignored).Read(analyzer);
}

namespace {

// True when every term that says which one `p` is (its modifiers and, with `after`, its following
// phrase) is a term of `other`.
bool SaidIn(const ThingPhrase& p, const std::set<std::string>& other, bool after) {
  auto said = [&](const std::string& t) { return other.count(t) > 0; };
  return std::all_of(p.terms.begin(), p.terms.end() - 1, said) &&
         (!after || std::all_of(p.after.begin(), p.after.end(), said));
}

}  // namespace

bool NameTheSameThing(const ThingPhrases& newer, const ThingPhrases& older) {
  for (const ThingPhrase& n : newer.phrases) {
    for (const ThingPhrase& o : older.phrases) {
      if (n.terms.back() != o.terms.back() || n.clause_after || o.clause_after) continue;
      if (n.said_of_another || n.acts_on_another) continue;
      // The older's following phrase need not be said again ("Anytime Fitness closed down" after
      // "my gym is Anytime Fitness on Main Street"); the newer's must have been said before.
      if (SaidIn(n, older.terms, true) && SaidIn(o, newer.terms, false)) return true;
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

// True when a word starts at `at` of `text`: the start, or after a character no name holds, a
// function character (的 too) — not the end of a longer word (鞋 of 皮鞋, 阿姨 of 刘阿姨).
bool WordStartsAt(std::string_view text, size_t at) {
  if (at == 0) return true;
  size_t before = at - 1;
  while (before > 0 && (static_cast<unsigned char>(text[before]) & 0xC0) == 0x80) --before;
  const auto [c, len] = CharAt(text, before);
  return !NameChar(c) || FunctionChar(text, before, len);
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
    if (!WordEndsAt(older, at + name.size(), older_cuts) || !WordStartsAt(older, at)) continue;
    if (at >= kDe.size() && older.substr(at - kDe.size(), kDe.size()) == kDe) {
      const std::string_view before = older.substr(0, at - kDe.size());
      if (!before.ends_with("我") && !before.ends_with("我们")) continue;
    }
    return true;
  }
  return false;
}

// True when what follows a topic ending at `at` is a verb of one character, 了 and an object
// (眼镜换了一副镜片, 房东最近换了手机号): the topic did something to another thing. Function words
// between (最近, 又, 已经) are skipped.
bool ActsOnAnObject(std::string_view text, size_t at) {
  static constexpr std::string_view kLe = "了";
  while (at < text.size()) {
    const auto [c, len] = CharAt(text, at);
    const auto [c2, len2] = CharAt(text, at + len);
    if (text::IsCjk(c2) && text::IsChineseFunctionWord(text.substr(at, len + len2))) {
      at += len + len2;
    } else if (FunctionChar(text, at, len) && text.substr(at, len) != kLe) {
      at += len;
    } else {
      break;
    }
  }
  if (at >= text.size() || !text::IsCjk(CharAt(text, at).first)) return false;
  const size_t after_verb = at + CharAt(text, at).second;
  if (text.substr(after_verb, kLe.size()) != kLe) return false;
  const size_t object = after_verb + kLe.size();
  if (object >= text.size()) return false;
  const auto [c, len] = CharAt(text, object);
  return NameChar(c) && !FunctionChar(text, object, len);
}

}  // namespace

bool OpensWithTheTopicOf(std::string_view newer, std::string_view older) {
  const std::string newer_low = extraction::LowerAsciiBytes(newer), older_low = extraction::LowerAsciiBytes(older);
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
  if (ActsOnAnObject(newer_low, best)) return false;
  // A topic that owns what follows (笔记本的壁纸) or acts on something else (医生给我换了药, 他把…) is
  // not the thing that changed.
  for (std::string_view next : {"的", "给", "把", "对", "帮", "替", "让"}) {
    if (std::string_view(newer_low).substr(best).starts_with(next)) return false;
  }
  const std::string_view topic = std::string_view(newer_low).substr(start, best - start);
  if (topic.size() < 3 && !text::IsCjk(CharAt(topic, 0).first)) return false;  // "ok", "v2": no name
  return HoldsAsOwnWord(older_low, topic, older_cuts);
}

namespace {

// ICU's own words of `text` (PlainWords), each passed to `take(word, begin, end)`.
template <typename Take>
void ReadPlainWords(std::string_view text, Take take) {
  thread_local std::unique_ptr<text::Analyzer> plain = [] {
    auto made = text::Analyzer::Create(TextAnalysis::kPlain);
    return made ? std::move(*made) : nullptr;
  }();
  if (plain == nullptr) return;
  plain->Tokenize(text, text::TokenizeMode::kIndex, [&](std::string_view token, int begin, int end, bool) {
    take(token, static_cast<size_t>(begin), static_cast<size_t>(end));
  });
}

}  // namespace

std::vector<std::string> Characters(std::string_view text) {
  std::vector<std::string> out;
  int32_t i = 0;
  const auto size = static_cast<int32_t>(text.size());
  while (i < size) {
    const int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(text.data(), i, size, c);
    out.emplace_back(text.substr(static_cast<size_t>(start), static_cast<size_t>(i - start)));
  }
  return out;
}

std::vector<std::string> PhraseUnits(const ThingPhrase& p) {
  std::vector<std::string> units;
  bool after_han = false;
  for (const std::string& term : p.terms) {
    if (!extraction::rules::HasHan(term)) {
      units.push_back(term);
      after_han = false;
      continue;
    }
    const std::vector<std::string> chars = Characters(term);
    const bool overlaps = after_han && chars.size() == 2 && !units.empty() && units.back() == chars.front();
    units.insert(units.end(), chars.begin() + (overlaps ? 1 : 0), chars.end());
    after_han = true;
  }
  return units;
}

std::vector<std::string> PlainWords(std::string_view text) {
  std::vector<std::string> words;
  ReadPlainWords(text, [&](std::string_view word, size_t, size_t) { words.emplace_back(word); });
  return words;
}

std::vector<std::pair<size_t, size_t>> PlainWordSpans(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> spans;
  ReadPlainWords(text, [&](std::string_view, size_t begin, size_t end) { spans.emplace_back(begin, end); });
  return spans;
}

}  // namespace engram
