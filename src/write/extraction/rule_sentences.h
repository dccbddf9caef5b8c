// write/extraction/rule_sentences.h — the text plumbing of the rule extractor (rule_extractor.h):
// byte spans, UTF-8 decoding, sentence splitting, value trimming, and the raw match that the
// English and Chinese pattern sets (rules_english.h, rules_chinese.h) hand to the assembler.
//
// Every position is a byte offset into the event content, so every value and evidence span the
// extractor emits is a verbatim substring of it. Invalid UTF-8 never reaches a span: its bytes end
// a sentence and belong to none.
//
// Thread safety: pure functions over immutable statics; safe from any thread.
#ifndef ENGRAM_WRITE_EXTRACTION_RULE_SENTENCES_H_
#define ENGRAM_WRITE_EXTRACTION_RULE_SENTENCES_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace engram::extraction::rules {

// A half-open byte range [begin, end) of the event content.
struct Span {
  size_t begin = 0;
  size_t end = 0;

  bool empty() const { return end <= begin; }
  size_t size() const { return empty() ? 0 : end - begin; }
  bool Contains(const Span& other) const { return begin <= other.begin && other.end <= end; }
  bool Overlaps(const Span& other) const { return begin < other.end && other.begin < end; }
};

inline std::string_view SpanText(std::string_view text, Span span) {
  return span.empty() ? std::string_view() : text.substr(span.begin, span.end - span.begin);
}

// The most bytes of one sentence the patterns look at; longer runs are cut into pieces of at most
// this size at a character boundary (keeps every pattern linear and bounded).
inline constexpr size_t kMaxSentenceBytes = 1024;

struct Sentence {
  Span span;  // trimmed of surrounding white space; its terminators ("." "!" "。") kept
  bool question = false;  // ends with "?" / "？", or opens like one ("Do you ...", "你喜欢...吗")
  bool has_han = false;  // contains a Han character: the Chinese patterns run on it too
};

// Decodes the code point at `pos`. Returns false (and *len = 1) for an invalid or truncated
// sequence (overlongs, surrogates and values above U+10FFFF are invalid).
bool DecodeUtf8(std::string_view text, size_t pos, char32_t* cp, size_t* len);

bool IsHan(char32_t cp);
// True when `text` holds a Han character (decoded: emoji, kana and full-width marks are none).
bool HasHan(std::string_view text);
bool IsSpaceChar(char32_t cp);
// Punctuation and symbols: ASCII punctuation except the word joiners ' - _ & # + @ /, Unicode
// punctuation (general, CJK, full-width) and emoji/symbols. A letter or digit is never punctuation.
bool IsPunctChar(char32_t cp);

// The sentences of `text` in order. Ends: . ! ? ; … 。！？； and line breaks, except a "." inside a
// number or word ("3.5", "node.js") or after a common abbreviation ("Mr.", "e.g."). Invalid UTF-8
// bytes and control characters end a sentence too. Blank pieces are dropped.
std::vector<Sentence> SplitSentences(std::string_view text);

// True when the "." at byte `pos` of `text` ends a sentence (as SplitSentences reads it): not one
// inside a number or word ("3.12", "node.js"), after a common abbreviation ("Dr.", "Mr.", "St.")
// or after an initial before a capitalised word ("J. K. Rowling"). Never fails.
bool DotEndsAt(std::string_view text, size_t pos);

// The parts of `text` between the `breaks` found in it (exact bytes, left to right; an empty break
// is skipped), each break left out: views into `text`, empty parts dropped. Never fails.
std::vector<std::string_view> SplitAtBreaks(std::string_view text, const std::vector<std::string_view>& breaks);

// `span` without leading and trailing white space and punctuation (quotes, brackets, "…", "。").
Span TrimSpan(std::string_view text, Span span);

// The quoted spans of `content`, as [open end, close begin): “…”, 「…」, 『…』 and pairs of ASCII '"'.
std::vector<Span> QuotedSpans(std::string_view content);

// `span` with every time mention cut away: a mention at its start (after white space) moves the
// start past it, a mention further in ends the span there. `times` is sorted and non-overlapping.
Span CutTimes(std::string_view text, Span span, const std::vector<Span>& times);

// Qualifier bits of a raw claim (names in extractor.h).
inline constexpr unsigned kBitNegated = 1u << 0;
inline constexpr unsigned kBitTemporary = 1u << 1;
inline constexpr unsigned kBitHabitual = 1u << 2;
inline constexpr unsigned kBitPlanned = 1u << 3;
inline constexpr unsigned kBitPast = 1u << 4;
inline constexpr unsigned kBitReported = 1u << 5;

// The qualifier names of `bits`, sorted, as CandidateClaim::qualifiers wants them.
std::vector<std::string> QualifierNames(unsigned bits);

// Who a raw claim is about.
enum class SubjectKind {
  kSpeaker,   // the speaker of the event
  kNamed,     // a named third person: `subject` is the name ("Mei", "李雷")
  kRelative,  // an unnamed relative or reporter: `subject` is the phrase ("my friend", "我朋友")
};

// One match of a pattern, before subject names, times and texts are filled in.
struct RawClaim {
  SubjectKind subject_kind = SubjectKind::kSpeaker;
  Span subject;           // kNamed / kRelative only
  std::string predicate;  // canonical predicate (extractor.h)
  std::string slot;       // favorite / has_relation / uses / habit sub-key, "" otherwise
  Span value;             // trimmed, non-empty
  unsigned qualifiers = 0;
  Span clause;  // the clause it was read from; a time mention inside it wins
  double confidence = 0.7;
  bool chinese = false;  // read by the Chinese patterns: the text is written in Chinese
  // The verb it was read from is in a past form ("went", "visited", "did go", "去了"): a date
  // without a year that is still ahead of the event is then the one just past.
  bool past_tense = false;
};

// Lowercase ASCII letters of `s` ("Don’t" → "don't": U+2019 becomes '); other bytes unchanged.
std::string LowerAscii(std::string_view s);

}  // namespace engram::extraction::rules

#endif  // ENGRAM_WRITE_EXTRACTION_RULE_SENTENCES_H_
