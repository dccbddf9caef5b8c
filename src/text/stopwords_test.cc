#include "text/stopwords.h"

#include <gtest/gtest.h>

namespace engram::text {
namespace {

TEST(StopwordsTest, CommonFunctionWords) {
  for (const char* word :
       {"the",   "a",   "an",    "is",  "was", "did", "does", "would", "likely", "what",  "when",
        "where", "who", "which", "how", "and", "of",  "to",   "i",     "my",     "don't", "it's"}) {
    EXPECT_TRUE(IsEnglishStopword(word)) << word;
  }
}

TEST(StopwordsTest, ContentWordsAndUnfoldedInput) {
  for (const char* word : {"", "dog", "caroline", "run", "like", "paint", "The", "don’t", "的"}) {
    EXPECT_FALSE(IsEnglishStopword(word)) << word;
  }
}

}  // namespace
}  // namespace engram::text
