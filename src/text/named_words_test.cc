#include "text/named_words.h"

#include <gtest/gtest.h>

namespace engram::text {
namespace {

using Words = std::vector<std::string>;

TEST(NamedWordsTest, CapitalsWhereNoSentenceStartsAndNumbers) {
  EXPECT_EQ(NamedWords("Ines loves her tiny apartment in Marseille, the sea is right there."), Words{"Marseille"});
  EXPECT_EQ(NamedWords("Reorg finally landed. I'm on the growth analytics team under Raj."), Words{"Raj"});
  EXPECT_EQ(NamedWords("Billing service on Node 20, all green."), (Words{"Node", "20"}));
  EXPECT_EQ(NamedWords("we bumped it to v2.4.0-beta and 3.12"), (Words{"v2.4.0-beta", "3.12"}));
}

TEST(NamedWordsTest, NothingWhenOnlyASentenceOpensWithACapital) {
  EXPECT_TRUE(NamedWords("I live with two flatmates.").empty());
  EXPECT_TRUE(NamedWords("My manager is really strict. I've told him so!").empty());
  EXPECT_TRUE(NamedWords("").empty());
}

TEST(NamedWordsTest, CjkTextNamesItsLatinWordsAndNumbers) {
  EXPECT_EQ(NamedWords("公司买了正版订阅，装的是PS 2025，AI填充好用。"), (Words{"PS", "2025", "AI"}));
  EXPECT_TRUE(NamedWords("工作很累，天天加班。").empty());
  // A Latin word that opens a sentence after Chinese punctuation is no name by its capital.
  EXPECT_EQ(NamedWords("车卖了。Tesla 很好开"), Words{});
}

}  // namespace
}  // namespace engram::text
