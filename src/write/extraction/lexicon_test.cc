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

TEST(LexiconTest, AQuestionPatternTakesOneToThreeWordsForItsGap) {
  const Lexicon& lex = Lexicon::Get();
  for (const char* question : {"Where does Rosalind live these days?", "where does my aunt Rosalind live?",
                               "Which city are my parents living in now?"}) {
    std::vector<NamedAttribute> named = lex.NamedAttributes(question);
    ASSERT_EQ(named.size(), 1u) << question;
    EXPECT_EQ(named[0].attribute, "lives_in") << question;
  }
  EXPECT_TRUE(lex.NamedAttributes("Do you like live music?").empty());
  EXPECT_TRUE(lex.NamedAttributes("Where does the bus from the old town stop live?").empty());  // a gap of four
  Lexicon parsed = Lexicon::Parse({{"attribute_words.tsv", "who * drive\tdriver\t-\n"}}, nullptr);
  ASSERT_EQ(parsed.NamedAttributes("Who will drive?").size(), 1u);
  EXPECT_EQ(parsed.NamedAttributes("Who will drive?")[0].word, "who * drive");
  EXPECT_TRUE(parsed.NamedAttributes("Who drives?").empty());  // the gap takes a word at least
}

TEST(LexiconTest, AQuestionNamesAttributesAndThoseThatAnswerThemToo) {
  const Lexicon& lex = Lexicon::Get();
  std::vector<NamedAttribute> role = lex.NamedAttributes("What's Sarah's ROLE these days?");
  ASSERT_EQ(role.size(), 2u);
  EXPECT_EQ(role[0].word, "role");
  EXPECT_EQ(role[0].attribute, "role");
  EXPECT_EQ(role[1].attribute, "job");  // a person's role is their job
  std::vector<NamedAttribute> theme = lex.NamedAttributes("which theme do I use");
  ASSERT_EQ(theme.size(), 1u);
  EXPECT_EQ(theme[0].attribute, "uses");
  EXPECT_EQ(theme[0].slot, "ui_theme");
  std::vector<NamedAttribute> job = lex.NamedAttributes("我现在做什么工作？");
  ASSERT_FALSE(job.empty());
  EXPECT_EQ(job[0].attribute, "job");
  EXPECT_TRUE(lex.NamedAttributes("Where did we go for dinner?").empty());
  EXPECT_TRUE(lex.NamedAttributes("the controller crashed").empty());  // whole words only
  // The fourth column may list several attributes, comma-separated.
  Lexicon parsed = Lexicon::Parse({{"attribute_words.tsv", "post\tjob\t-\trole,title\n"}}, nullptr);
  std::vector<NamedAttribute> post = parsed.NamedAttributes("my post");
  ASSERT_EQ(post.size(), 3u);
  EXPECT_EQ(post[2].attribute, "title");
}

}  // namespace
}  // namespace engram::extraction
