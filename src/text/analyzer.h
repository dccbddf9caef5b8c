// text/analyzer.h — turns text into search terms: the one place that decides what a "word" is, for
// both the FTS5 index (store/sqlite/fts5_tokenizer) and query building (recall).
//
// TextAnalysis::kFull, per input:
//   * UTF-8 is decoded leniently: every ill-formed byte sequence, and every U+FFFD, acts as a word
//     separator. Nothing is ever emitted for it, and no input can crash the analyzer.
//   * Words come from an ICU word BreakIterator (root locale). Segments with rule status
//     UBRK_WORD_NONE (spaces, punctuation, symbols, emoji) are skipped. "cdm-xxc" is two words;
//     "user_id", "a.b@c.com" and "v2.3.1" are one word each. A word is trimmed to start and end
//     with a letter or digit (plus its marks), so a word re-analysed alone is stable.
//   * Each word is NFKC_Casefold-normalised ("ＡＢＣ" → "abc", "Straße" → "strasse"), and U+2018 /
//     U+2019 become ASCII "'" ("don’t" → "don't").
//   * Non-CJK word: index mode emits the folded word and, when the Snowball "english" stem
//     differs, the stem colocated with it ("running" → running +run). Query mode emits only the
//     stem ("runs" → run), or the word when stemming leaves it unchanged.
//   * CJK = code points of script Han, Hiragana, Katakana or Hangul (by Script_Extensions, so "ー"
//     counts). Every maximal contiguous run of them is one run, even where ICU splits it
//     (浅色 → 浅 + 色). Combining marks, default-ignorables and whatever composes under NFKC stay
//     with the character before them. Index mode gives each character one position holding the
//     bigram it starts (emitted first) and its unigram (colocated; alone for the run's last
//     character): 浅色 → 浅色 +浅 色. Query mode emits the unigram for a one-character run, else
//     only the bigrams, one per position: "成语接龙" → 成语 语接 接龙, which as an FTS5 phrase
//     matches the indexed text.
//   * Tokens longer than kMaxTokenBytes bytes are dropped (they take no position); a CJK
//     character whose normalised form exceeds kMaxTokenBytes / 2 bytes (e.g. one followed by
//     hundreds of combining marks) is dropped from its run.
// TextAnalysis::kPlain (benchmark baseline): ICU words (trimmed as above), NFKC_Casefold, nothing
// else: no stems, no apostrophe mapping, no CJK unigrams or bigrams (ICU's own CJK words), the
// same output in both modes.
//
// Thread safety: an Analyzer is NOT thread-safe (it owns an ICU BreakIterator, reusable buffers
// and a Snowball stemmer). Use one per thread or per SQLite connection. Distinct Analyzers are
// independent. Not re-entrant: an emit callback must not call back into the same Analyzer.
#ifndef ENGRAM_TEXT_ANALYZER_H_
#define ENGRAM_TEXT_ANALYZER_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"

namespace engram::text {

enum class TokenizeMode {
  kIndex,  // text being stored: words plus colocated stems, CJK unigrams plus colocated bigrams
  kQuery,  // text of a query (one FTS5 bareword or quoted string): stems, CJK bigrams
};

// One search unit of a user query (see Analyzer::QueryTerms).
struct QueryTerm {
  // A substring of the query (UTF-8 bytes as given) that Tokenize(kQuery) turns into exactly one
  // token. Quote it for FTS5 MATCH as "..." with every " doubled.
  std::string surface;
  // That token: the stem of a word, a CJK bigram or single character (kPlain: the folded word).
  std::string normalized;
  // True when (kFull only) the folded word is an English stopword (text/stopwords.h). When one unit
  // stands for several occurrences, it is a stopword only if every occurrence is.
  bool stopword = false;
};

class Analyzer {
 public:
  // Tokens longer than this many UTF-8 bytes are dropped (long hashes up to SHA-512 hex still fit).
  static constexpr int kMaxTokenBytes = 128;

  // Called once per token, in text order. `token` is UTF-8 and valid only during the call.
  // [byte_start, byte_end) are byte offsets into the input given to Tokenize. `colocated` is true
  // when the token sits at the same position as the token emitted just before it (never true for
  // the first token).
  using EmitFn =
      std::function<void(std::string_view token, int byte_start, int byte_end, bool colocated)>;

  // Builds an analyzer. Errors: kInternal when ICU cannot create the word BreakIterator or load the
  // NFKC_Casefold data, or (kFull) libstemmer has no "english" UTF-8 stemmer.
  static Result<std::unique_ptr<Analyzer>> Create(TextAnalysis analysis);

  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  TextAnalysis analysis() const { return analysis_; }

  // Splits `utf8` into tokens (see the file comment) and calls `emit` for each. Any bytes are
  // accepted; only the first INT32_MAX - 1 bytes are read. Never fails.
  void Tokenize(std::string_view utf8, TokenizeMode mode, const EmitFn& emit);

  // Splits a user query into search units, in first-occurrence order, de-duplicated by
  // `normalized`. A word gives one unit (surface = the word as typed); a CJK run of one character
  // gives one unit; a longer run gives one unit per adjacent pair (surface = the two characters)
  // and (kFull) one more for each character that stands alone between Chinese function words
  // (text/stopwords.h) or the run's ends: "我现在住哪儿" → 我现 现在 在住 住哪 哪儿 住, since the
  // text says 住在 and no bigram of the question holds 住 with a content word.
  // Dropped tokens (too long) give no unit. Empty or punctuation-only text gives an empty vector.
  std::vector<QueryTerm> QueryTerms(std::string_view text);

  // The distinct tokens Tokenize(utf8, kQuery) emits, sorted (std::string order). Recall asks this
  // of the same texts again and again (a claim or an event that answers several questions), so the
  // answers are memoised by text: at most kMaxMemoTexts of them, all dropped when full. The
  // reference is valid until the next call.
  static constexpr size_t kMaxMemoTexts = 1 << 12;
  const std::vector<std::string>& QueryTokenSet(std::string_view utf8);

 private:
  struct Impl;
  Analyzer(TextAnalysis analysis, std::unique_ptr<Impl> impl);

  TextAnalysis analysis_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace engram::text

#endif  // ENGRAM_TEXT_ANALYZER_H_
