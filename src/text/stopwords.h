// text/stopwords.h — a compact English stopword list for query analysis.
//
// The list (about 180 words) holds articles, determiners, pronouns, auxiliary and modal verbs,
// prepositions, conjunctions, wh-words, a few very common adverbs and the usual contractions. It is
// used only to drop query terms (recall keeps them when every term is a stopword); documents are
// always indexed in full, so changing the list never needs a re-index.
//
// Thread safety: pure function over immutable data; safe from any thread.
#ifndef ENGRAM_TEXT_STOPWORDS_H_
#define ENGRAM_TEXT_STOPWORDS_H_

#include <string_view>

namespace engram::text {

// True when `folded_word` is an English stopword. The input must already be case-folded (NFKC
// casefold, curly apostrophes mapped to ASCII "'", as Analyzer does): "The" is not found, "the"
// is. Never fails; unknown or empty input returns false.
bool IsEnglishStopword(std::string_view folded_word);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_STOPWORDS_H_
