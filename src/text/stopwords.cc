#include "text/stopwords.h"

#include <string_view>
#include <unordered_set>

namespace engram::text {
namespace {

// Grouped by kind; order does not matter.
// clang-format off
constexpr std::string_view kEnglishStopwords[] = {
    // Articles and determiners.
    "a", "an", "the", "this", "that", "these", "those", "some", "any", "each", "every", "either",
    "all", "both", "few", "more", "most", "other", "another", "such", "same", "own", "much", "many",
    // Personal, possessive and reflexive pronouns.
    "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "you", "your",
    "yours", "yourself", "yourselves", "he", "him", "his", "himself", "she", "her", "hers",
    "herself", "it", "its", "itself", "they", "them", "their", "theirs", "themselves",
    // Auxiliary and modal verbs.
    "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having", "do",
    "does", "did", "doing", "will", "would", "shall", "should", "can", "could", "may", "might",
    "must",
    // Contractions (after apostrophe folding).
    "i'm", "i've", "i'll", "you're", "you've", "you'd", "you'll", "he's", "she's", "it's", "we're",
    "we've", "they're", "they've", "that's", "there's", "what's", "don't", "doesn't", "didn't",
    "isn't", "aren't", "wasn't", "weren't", "can't", "won't", "wouldn't",
    // Prepositions.
    "about", "above", "across", "after", "against", "along", "among", "around", "at", "before",
    "behind", "below", "between", "by", "down", "during", "for", "from", "in", "into", "of", "off",
    "on", "out", "over", "through", "to", "towards", "under", "until", "up", "with", "within",
    "without",
    // Conjunctions and subordinators.
    "and", "but", "or", "nor", "so", "if", "then", "than", "because", "as", "while", "whether",
    "though", "although", "unless", "since",
    // Wh-words.
    "what", "when", "where", "who", "whom", "whose", "which", "why", "how",
    // Common adverbs, negation and hedges.
    "not", "no", "there", "here", "also", "just", "only", "very", "too", "again", "once", "likely",
};
// clang-format on

const std::unordered_set<std::string_view>& StopwordSet() {
  static const auto* const set = new std::unordered_set<std::string_view>(
      std::begin(kEnglishStopwords), std::end(kEnglishStopwords));
  return *set;
}

}  // namespace

bool IsEnglishStopword(std::string_view folded_word) { return StopwordSet().contains(folded_word); }

}  // namespace engram::text
