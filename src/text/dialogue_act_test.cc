#include "text/dialogue_act.h"

#include <gtest/gtest.h>

namespace engram::text {
namespace {

TEST(AsksQuestionTest, SentenceFinalQuestionMarks) {
  EXPECT_TRUE(AsksQuestion("What gave you the idea?"));
  EXPECT_TRUE(AsksQuestion("Really? I thought so."));
  EXPECT_TRUE(AsksQuestion("She asked \"why?\" twice"));
  EXPECT_TRUE(AsksQuestion("Was it fun?!"));
  EXPECT_TRUE(AsksQuestion("Ready?\n"));
  EXPECT_TRUE(AsksQuestion("你喜欢什么颜色？"));
  EXPECT_TRUE(AsksQuestion("真的吗?好的"));  // an ASCII '?' before CJK text
}

TEST(AsksQuestionTest, QuestionMarksThatAskNothing) {
  EXPECT_FALSE(AsksQuestion(""));
  EXPECT_FALSE(AsksQuestion("I went there."));
  EXPECT_FALSE(AsksQuestion("See https://example.com/search?q=zebrafish for details"));
  EXPECT_FALSE(AsksQuestion("x = flag ? a : b;"));
  EXPECT_FALSE(AsksQuestion("? is the operator"));
  EXPECT_FALSE(AsksQuestion("a?b"));
}

}  // namespace
}  // namespace engram::text
