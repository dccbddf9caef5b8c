// text/stopwords.h — a compact English stopword list, and the Chinese function words, for query
// analysis.
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

// True when `han` (UTF-8, one or two Han characters, NFKC_Casefold form) is a Chinese function
// word: a pronoun (我, 我们), a question word (哪, 哪儿, 什么, 几), a particle (的, 了, 吗), the
// copulas and prepositions 是, 在, 有, or an adverb of time or habit (现在, 目前, 一般). The list
// (about 100 entries, chosen by hand from the closed classes of Mandarin grammar) marks what a
// question is built from, so that the content word between them can be searched alone (see
// Analyzer::QueryTerms). Never fails; anything else returns false.
bool IsChineseFunctionWord(std::string_view han);

// True when a query term (as Analyzer makes them: folded words, Han characters and bigrams) is
// built of function words only in part or whole: an English stopword, a Chinese function word,
// or a Han bigram with a character that a content word rarely holds (a particle, a personal
// pronoun, a question word, 是 or 在: "的健", "房在" of "我的健身房在哪？", which span a word
// boundary). What is left ("健身", "身房") names what a question is about. Never fails.
bool IsFunctionTerm(std::string_view term);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_STOPWORDS_H_
