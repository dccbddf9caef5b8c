#include "write/extraction/lexicon.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "write/extraction/lexicon_data.h"

namespace engram::extraction {
namespace {

TEST(LexiconTest, EveryLineOfTheCompiledFilesParses) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const LexiconFile& f : LexiconFiles()) files.emplace_back(std::string(f.name), std::string(f.text));
  ASSERT_GE(files.size(), 8u);
  std::vector<std::string> bad;
  Lexicon::Parse(files, &bad);
  EXPECT_TRUE(bad.empty()) << bad.front();
}

TEST(LexiconTest, WordsAreData) {
  Lexicon lex = Lexicon::Parse({{"values.tsv", "# comment\nsepia mode\tuses\tui_theme\n"},
                                {"attributes.tsv", "uses\tsingle\t-\tstate\nhobby\tmulti\t-\tactivity\n"}},
                               nullptr);
  ASSERT_NE(lex.Value("Sepia Mode"), nullptr);
  EXPECT_EQ(lex.Value("sepia mode")->slot, "ui_theme");
  EXPECT_EQ(lex.SingleValuedAttributes(), std::vector<std::string>{"uses"});
  ASSERT_EQ(lex.FindValues("i read in sepia mode now").size(), 1u);
}

TEST(LexiconTest, EnglishPhrasesMatchWholeWordsChineseAnywhere) {
  EXPECT_EQ(FindPhrases("unhealthy", {"healthy"}).size(), 0u);
  EXPECT_EQ(FindPhrases("is healthy.", {"healthy"}).size(), 1u);
  EXPECT_EQ(FindPhrases("已回滚，当前版本", {"已回滚"}).size(), 1u);
  auto longest = FindPhrases("switched to light", {"switched", "switched to"});
  ASSERT_EQ(longest.size(), 1u);
  EXPECT_EQ(longest[0].phrase, "switched to");
}

TEST(LexiconTest, TheCompiledLexiconKnowsTheIssueExamples) {
  const Lexicon& lex = Lexicon::Get();
  EXPECT_EQ(lex.Value("light mode")->slot, "ui_theme");
  EXPECT_EQ(lex.AttributeWord("home")->attribute, "lives_in");
  EXPECT_TRUE(lex.Attribute("version")->facets.count("deployment") > 0);
  EXPECT_TRUE(lex.IsRelation("husband"));
}

TEST(LexiconTest, TopicsAreReadFromTheWordsOfAStatementOrAQuestion) {
  const Lexicon& lex = Lexicon::Get();
  EXPECT_EQ(lex.Topics("Where am I based?"), (std::vector<std::string>{"residence"}));
  EXPECT_EQ(lex.Topics("So we RELOCATED to Glasgow in the spring"), (std::vector<std::string>{"residence"}));
  EXPECT_EQ(lex.Topics("已经搬去深圳啦"), (std::vector<std::string>{"residence"}));
  EXPECT_TRUE(lex.Topics("I had a lovely afternoon").empty());
  EXPECT_TRUE(lex.Topics("a homely place").empty());  // whole words only
  const std::vector<std::string>& words = lex.TopicWords("drink");
  EXPECT_NE(std::find(words.begin(), words.end(), "coffee"), words.end());
  EXPECT_TRUE(lex.TopicWords("no such topic").empty());
  EXPECT_EQ(lex.RelationsIn("My Brother quit his job, 我老婆也是"), (std::vector<std::string>{"brother", "老婆"}));
}

}  // namespace
}  // namespace engram::extraction
