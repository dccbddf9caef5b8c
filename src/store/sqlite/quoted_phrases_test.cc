#include "store/sqlite/quoted_phrases.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::sqlite {
namespace {

using ::testing::ElementsAre;

std::vector<std::string_view> Phrases(std::string_view match, bool* ok) {
  std::vector<std::string_view> out;
  *ok = QuotedPhrases(match, &out);
  return out;
}

TEST(QuotedPhrasesTest, ListsJoinedByOrAndAnd) {
  bool ok = false;
  EXPECT_THAT(Phrases(R"("when" OR "did" AND "Caroline go")", &ok),
              ElementsAre("when", "did", "Caroline go"));
  EXPECT_TRUE(ok);
  EXPECT_THAT(Phrases(R"("一个")", &ok), ElementsAre("一个"));
  EXPECT_TRUE(ok);
}

TEST(QuotedPhrasesTest, DoubledQuotesStayInsideThePhrase) {
  bool ok = false;
  EXPECT_THAT(Phrases(R"("say ""hi""" OR "x")", &ok), ElementsAre(R"(say ""hi"")", "x"));
  EXPECT_TRUE(ok);
}

TEST(QuotedPhrasesTest, AnyOtherSyntaxIsRefused) {
  std::vector<std::string_view> out;
  for (std::string_view match :
       {"", "word", R"("run" *)", R"("run"*)", R"(^"run")", R"(body : "run")", R"(("a" OR "b"))",
        R"("a" NOT "b")", R"(NEAR("a" "b"))", R"("a" "b")", R"("a" OR)", R"("a" OR "b)",
        R"("a"  OR "b")", R"("a" or "b")", R"( "a")", R"("a" )"}) {
    EXPECT_FALSE(QuotedPhrases(match, &out)) << match;
  }
}

}  // namespace
}  // namespace engram::sqlite
