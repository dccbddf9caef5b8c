#include "text/stopwords.h"

#include <algorithm>
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

// Closed classes of Mandarin: pronouns, question words, particles, the copula and the commonest
// prepositions and auxiliaries, adverbs of time, frequency and degree. One or two characters.
constexpr std::string_view kChineseFunctionWords[] = {
    // Pronouns and demonstratives.
    "我", "你", "您", "他", "她", "它", "我们", "你们", "他们", "她们", "咱们", "自己", "这", "那",
    "这个", "那个", "这些", "那些", "这儿", "那儿", "这里", "那里",
    // Question words.
    "哪", "哪儿", "哪里", "哪个", "哪些", "哪家", "谁", "几", "什么", "怎么", "怎样", "为何", "多少",
    "啥", "咋", "如何",
    // Particles.
    "的", "地", "得", "了", "着", "过", "吗", "呢", "吧", "啊", "呀", "嘛", "么",
    // Copula, prepositions, auxiliaries, conjunctions.
    "是", "在", "有", "和", "跟", "与", "把", "被", "给", "从", "对", "要", "会", "能", "想", "该",
    "还", "就", "都", "也", "又", "才", "很", "最", "不", "没", "没有", "还是", "或者",
    // Adverbs of time, frequency and degree.
    "现在", "目前", "如今", "最近", "已经", "一般", "平时", "平常", "通常", "一直", "经常", "常常",
    "总是", "以前", "之前", "原来", "本来", "曾经", "过去", "以后", "将来", "刚才", "刚",
};
// clang-format on

const std::unordered_set<std::string_view>& StopwordSet() {
  static const auto* const set = new std::unordered_set<std::string_view>(
      std::begin(kEnglishStopwords), std::end(kEnglishStopwords));
  return *set;
}

}  // namespace

bool IsEnglishStopword(std::string_view folded_word) { return StopwordSet().contains(folded_word); }

bool IsChineseFunctionWord(std::string_view han) {
  static const auto* const set = new std::unordered_set<std::string_view>(
      std::begin(kChineseFunctionWords), std::end(kChineseFunctionWords));
  return set->contains(han);
}

// The function characters that a content word rarely holds, so that a bigram holding one spans a
// word boundary: the structural particles and sentence-final particles, personal pronouns, the
// question words and the copula and locative 是, 在. (Not the modal verbs and adverbs of
// kChineseFunctionWords: 会 is a modal in 会去 but a noun in 周会, 最 an adverb in 最喜欢 and part
// of 最近.)
bool IsBoundaryCharacter(std::string_view han) {
  static constexpr std::string_view kBoundary[] = {"的", "了", "吗", "呢", "吧", "啊", "呀", "嘛", "我", "你",
                                                   "您", "他", "她", "它", "哪", "谁", "几", "是", "在"};
  return std::find(std::begin(kBoundary), std::end(kBoundary), han) != std::end(kBoundary);
}

bool IsFunctionTerm(std::string_view term) {
  if (IsEnglishStopword(term) || IsChineseFunctionWord(term)) return true;
  // The first character's length from its UTF-8 lead byte (Han: 3 bytes, 4 in the supplementary
  // planes); a term of two characters is a bigram.
  if (term.empty()) return false;
  const auto lead = static_cast<unsigned char>(term[0]);
  const size_t first = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (first >= term.size() || first < 3) return false;
  return IsBoundaryCharacter(term.substr(0, first)) || IsBoundaryCharacter(term.substr(first));
}

}  // namespace engram::text
