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

TEST(StopwordsTest, FunctionTermsIncludeBigramsAcrossAWordBoundary) {
  // "我的健身房在哪？" gives 我的 的健 健身 身房 房在 在哪: only 健身 and 身房 name the thing.
  for (const char* t : {"我的", "的健", "房在", "在哪", "the", "哪"}) EXPECT_TRUE(IsFunctionTerm(t)) << t;
  for (const char* t : {"健身", "身房", "gym", "搬", "周会", "会议", ""}) EXPECT_FALSE(IsFunctionTerm(t)) << t;
}

}  // namespace
}  // namespace engram::text
