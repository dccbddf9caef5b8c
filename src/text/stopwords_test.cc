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

TEST(StopwordsTest, ChineseFunctionWords) {
  for (const char* word : {"我", "我们", "哪儿", "什么", "的", "了", "是", "在", "现在", "一般"}) {
    EXPECT_TRUE(IsChineseFunctionWord(word)) << word;
  }
  for (const char* word : {"", "住", "喝", "公司", "上班", "the", "现在住"}) {
    EXPECT_FALSE(IsChineseFunctionWord(word)) << word;
  }
}

}  // namespace
}  // namespace engram::text
