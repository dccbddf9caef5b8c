#include "text/analyzer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace engram::text {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::unique_ptr<Analyzer> Make(TextAnalysis analysis) {
  auto analyzer = Analyzer::Create(analysis);
  EXPECT_TRUE(analyzer.has_value());
  return std::move(*analyzer);
}

// Tokens in order; a colocated token is prefixed with "+".
std::vector<std::string> Tokens(Analyzer& analyzer, std::string_view text, TokenizeMode mode) {
  std::vector<std::string> out;
  analyzer.Tokenize(text, mode, [&](std::string_view token, int, int, bool colocated) {
    out.push_back((colocated ? "+" : "") + std::string(token));
  });
  return out;
}

struct Span {
  std::string token;
  int start;
  int end;
  bool colocated;
};

std::vector<Span> Spans(Analyzer& analyzer, std::string_view text, TokenizeMode mode) {
  std::vector<Span> out;
  analyzer.Tokenize(text, mode, [&](std::string_view token, int start, int end, bool colocated) {
    out.push_back({std::string(token), start, end, colocated});
  });
  return out;
}

class AnalyzerTest : public ::testing::Test {
 protected:
  std::vector<std::string> Index(std::string_view text) {
    return Tokens(*full_, text, TokenizeMode::kIndex);
  }
  std::vector<std::string> Query(std::string_view text) {
    return Tokens(*full_, text, TokenizeMode::kQuery);
  }
  std::unique_ptr<Analyzer> full_ = Make(TextAnalysis::kFull);
  std::unique_ptr<Analyzer> plain_ = Make(TextAnalysis::kPlain);
};

TEST_F(AnalyzerTest, ReportsItsAnalysis) {
  EXPECT_EQ(full_->analysis(), TextAnalysis::kFull);
  EXPECT_EQ(plain_->analysis(), TextAnalysis::kPlain);
}

TEST_F(AnalyzerTest, EmptyAndPunctuationOnlyGiveNothing) {
  EXPECT_THAT(Index(""), IsEmpty());
  EXPECT_THAT(Index("  ,.;!? — 「」、。"), IsEmpty());
  EXPECT_THAT(Query("\"\" ()*:^"), IsEmpty());
}

TEST_F(AnalyzerTest, StemsAreColocatedInIndexAndAloneInQuery) {
  EXPECT_THAT(Index("running"), ElementsAre("running", "+run"));
  EXPECT_THAT(Query("running"), ElementsAre("run"));
  EXPECT_THAT(Query("runs"), ElementsAre("run"));
  EXPECT_THAT(Index("I was running"), ElementsAre("i", "was", "running", "+run"));
  // A word the stemmer leaves alone is emitted once.
  EXPECT_THAT(Index("run"), ElementsAre("run"));
  EXPECT_THAT(Query("run"), ElementsAre("run"));
}

TEST_F(AnalyzerTest, OffsetsAreInputBytes) {
  std::vector<Span> spans = Spans(*full_, "  Running, ok", TokenizeMode::kIndex);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].token, "running");
  EXPECT_EQ(spans[0].start, 2);
  EXPECT_EQ(spans[0].end, 9);
  EXPECT_FALSE(spans[0].colocated);
  EXPECT_EQ(spans[1].token, "run");
  EXPECT_EQ(spans[1].start, 2);
  EXPECT_EQ(spans[1].end, 9);
  EXPECT_TRUE(spans[1].colocated);
  EXPECT_EQ(spans[2].token, "ok");
  EXPECT_EQ(spans[2].start, 11);
  EXPECT_EQ(spans[2].end, 13);
}

TEST_F(AnalyzerTest, MixedEnglishAndChinese) {
  EXPECT_THAT(Index("Please switch VS Code to light mode; 我更喜欢浅色主题"),
              ElementsAre("please", "+pleas", "switch", "vs", "code", "to", "light", "mode",  //
                          "我更", "+我", "更喜", "+更", "喜欢", "+喜", "欢浅", "+欢",         //
                          "浅色", "+浅", "色主", "+色", "主题", "+主", "题"));
  EXPECT_THAT(Query("Please switch VS Code to light mode; 我更喜欢浅色主题"),
              ElementsAre("pleas", "switch", "vs", "code", "to", "light", "mode", "我更", "更喜",
                          "喜欢", "欢浅", "浅色", "色主", "主题"));
}

TEST_F(AnalyzerTest, CjkRunSpansIcuWordsAndUsesCharacterOffsets) {
  // ICU splits 浅色 into 浅 + 色; the run still yields the bigram, first at its position.
  std::vector<Span> spans = Spans(*full_, "a 浅色", TokenizeMode::kIndex);
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[1].token, "浅色");
  EXPECT_FALSE(spans[1].colocated);
  EXPECT_EQ(spans[1].start, 2);
  EXPECT_EQ(spans[1].end, 8);
  EXPECT_EQ(spans[2].token, "浅");
  EXPECT_TRUE(spans[2].colocated);
  EXPECT_EQ(spans[2].start, 2);
  EXPECT_EQ(spans[2].end, 5);
  EXPECT_EQ(spans[3].token, "色");
  EXPECT_FALSE(spans[3].colocated);
  EXPECT_EQ(spans[3].start, 5);
  EXPECT_EQ(spans[3].end, 8);
}

TEST_F(AnalyzerTest, ChineseQueries) {
  EXPECT_THAT(Query("早报"), ElementsAre("早报"));
  EXPECT_THAT(Query("成语接龙"), ElementsAre("成语", "语接", "接龙"));
  EXPECT_THAT(Query("龙"), ElementsAre("龙"));
  // Punctuation splits runs: two one-character runs.
  EXPECT_THAT(Query("早，报"), ElementsAre("早", "报"));
  EXPECT_THAT(Index("早报配置"), ElementsAre("早报", "+早", "报配", "+报", "配置", "+配", "置"));
}

TEST_F(AnalyzerTest, Japanese) {
  EXPECT_THAT(Index("今日は成語しりとりをした"),
              ElementsAre("今日", "+今", "日は", "+日", "は成", "+は", "成語", "+成", "語し", "+語",
                          "しり", "+し", "りと", "+り", "とり", "+と", "りを", "+り", "をし", "+を",
                          "した", "+し", "た"));
  EXPECT_THAT(Query("しりとり"), ElementsAre("しり", "りと", "とり"));
  // The prolonged sound mark belongs to the Katakana run; halfwidth Katakana is folded.
  EXPECT_THAT(Query("タワー"), ElementsAre("タワ", "ワー"));
  EXPECT_THAT(Query("ﾀﾜｰ"), ElementsAre("タワ", "ワー"));
  // A halfwidth voiced mark composes with its base character.
  EXPECT_THAT(Query("ｶﾞ"), ElementsAre("ガ"));
}

TEST_F(AnalyzerTest, Korean) {
  EXPECT_THAT(Index("오늘 끝말잇기 게임을 했다"),
              ElementsAre("오늘", "+오", "늘", "끝말", "+끝", "말잇", "+말", "잇기", "+잇", "기",
                          "게임", "+게", "임을", "+임", "을", "했다", "+했", "다"));
  EXPECT_THAT(Query("끝말잇기"), ElementsAre("끝말", "말잇", "잇기"));
  // The bigram 게임 of the indexed run 게임을 covers the query.
  EXPECT_THAT(Query("게임"), ElementsAre("게임"));
  // Decomposed jamo compose into one syllable.
  EXPECT_THAT(Query("\u1100\u1161\u11A8"), ElementsAre("각"));
}

TEST_F(AnalyzerTest, CjkNextToLatinAndDigits) {
  EXPECT_THAT(Query("Python编程"), ElementsAre("python", "编程"));
  EXPECT_THAT(Query("2024년"), ElementsAre("2024", "년"));
}

TEST_F(AnalyzerTest, HyphenSplitsWords) {
  EXPECT_THAT(Index("cdm-xxc"), ElementsAre("cdm", "xxc"));
  EXPECT_THAT(Query("cdm-xxc"), ElementsAre("cdm", "xxc"));
  EXPECT_THAT(Index("user_id a.b@c.com v2.3.1"), ElementsAre("user_id", "a.b@c.com", "v2.3.1"));
}

TEST_F(AnalyzerTest, NfkcCasefold) {
  EXPECT_THAT(Index("ＡＢＣ"), ElementsAre("abc"));
  EXPECT_THAT(Index("Straße"), ElementsAre("strasse", "+strass"));
  EXPECT_THAT(Query("ＡＢＣ"), ElementsAre("abc"));
}

TEST_F(AnalyzerTest, CurlyApostropheBecomesAscii) {
  EXPECT_THAT(Index("don’t"), ElementsAre("don't"));
  EXPECT_THAT(Index("user’s"), ElementsAre("user's", "+user"));
  EXPECT_THAT(Query("user’s"), ElementsAre("user"));
  EXPECT_THAT(Query("user's"), ElementsAre("user"));
}

TEST_F(AnalyzerTest, InvalidUtf8NeverCrashesAndSeparatesWords) {
  const std::string text =
      std::string("ab\xff\xfe") + "cd \xe4\xb8 中\xff文 \xed\xa0\x80x \xc0\xaf";
  EXPECT_THAT(Index(text), ElementsAre("ab", "cd", "中", "文", "x"));
  EXPECT_THAT(Query(text), ElementsAre("ab", "cd", "中", "文", "x"));
  // A literal U+FFFD is a separator too.
  EXPECT_THAT(Index("a\uFFFDb"), ElementsAre("a", "b"));
  // Truncated sequences at the end, lone continuation bytes, NUL bytes.
  for (std::string bad : {std::string("\xe4"), std::string("\x80\x80"), std::string("a\0b", 3),
                          std::string("中\xe4\xb8"), std::string(1000, '\xff')}) {
    Index(bad);
    Query(bad);
    full_->QueryTerms(bad);
    Tokens(*plain_, bad, TokenizeMode::kIndex);
  }
}

TEST_F(AnalyzerTest, OverlongTokensAreDropped) {
  const std::string long_word(Analyzer::kMaxTokenBytes + 1, 'x');
  const std::string max_word(Analyzer::kMaxTokenBytes, '7');
  EXPECT_THAT(Index("a " + long_word + " " + max_word), ElementsAre("a", max_word));
  // A CJK character drowned in combining marks is dropped from its run.
  std::string zalgo = "中";
  for (int i = 0; i < 100; ++i) zalgo += "\u0301";
  EXPECT_THAT(Query("文" + zalgo), ElementsAre("文"));
}

TEST_F(AnalyzerTest, PlainHasNoStemsNoBigramsNoApostropheMapping) {
  EXPECT_THAT(Tokens(*plain_, "I was Running", TokenizeMode::kIndex),
              ElementsAre("i", "was", "running"));
  EXPECT_THAT(Tokens(*plain_, "I was Running", TokenizeMode::kQuery),
              ElementsAre("i", "was", "running"));
  // ICU's own dictionary words for Chinese.
  EXPECT_THAT(Tokens(*plain_, "我更喜欢浅色主题", TokenizeMode::kIndex),
              ElementsAre("我", "更", "喜欢", "浅", "色", "主题"));
  EXPECT_THAT(Tokens(*plain_, "ＡＢＣ don’t", TokenizeMode::kQuery), ElementsAre("abc", "don’t"));
}

TEST_F(AnalyzerTest, QueryTermsSurfacesNormalizedAndStopwords) {
  std::vector<QueryTerm> terms = full_->QueryTerms("What did Caroline do when running?");
  ASSERT_EQ(terms.size(), 6u);
  EXPECT_EQ(terms[0].surface, "What");
  EXPECT_EQ(terms[0].normalized, "what");
  EXPECT_TRUE(terms[0].stopword);
  EXPECT_EQ(terms[1].normalized, "did");
  EXPECT_TRUE(terms[1].stopword);
  EXPECT_EQ(terms[2].surface, "Caroline");
  EXPECT_EQ(terms[2].normalized, "carolin");
  EXPECT_FALSE(terms[2].stopword);
  EXPECT_EQ(terms[3].normalized, "do");
  EXPECT_TRUE(terms[3].stopword);
  EXPECT_EQ(terms[4].normalized, "when");
  EXPECT_EQ(terms[5].surface, "running");
  EXPECT_EQ(terms[5].normalized, "run");
  EXPECT_FALSE(terms[5].stopword);
}

TEST_F(AnalyzerTest, QueryTermsDeduplicateKeepingFirstOccurrence) {
  std::vector<QueryTerm> terms = full_->QueryTerms("Runs run RUNNING jump 成语接龙 接龙");
  ASSERT_EQ(terms.size(), 5u);
  EXPECT_EQ(terms[0].surface, "Runs");
  EXPECT_EQ(terms[0].normalized, "run");
  EXPECT_EQ(terms[1].normalized, "jump");
  EXPECT_EQ(terms[2].surface, "成语");
  EXPECT_EQ(terms[3].surface, "语接");
  EXPECT_EQ(terms[4].surface, "接龙");
  // A unit that is a non-stopword somewhere is not a stopword.
  std::vector<QueryTerm> mixed = full_->QueryTerms("does Doe");
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].normalized, "doe");
  EXPECT_FALSE(mixed[0].stopword);
}

TEST_F(AnalyzerTest, QueryTermsCjk) {
  std::vector<QueryTerm> terms = full_->QueryTerms("早报 龙 cdm-xxc");
  ASSERT_EQ(terms.size(), 4u);
  EXPECT_EQ(terms[0].surface, "早报");
  EXPECT_EQ(terms[0].normalized, "早报");
  EXPECT_EQ(terms[1].surface, "龙");
  EXPECT_EQ(terms[2].surface, "cdm");
  EXPECT_EQ(terms[3].surface, "xxc");
  EXPECT_THAT(full_->QueryTerms("  ?! "), IsEmpty());
}

// A content character between Chinese function words is a unit of its own: the text says 住在 or
// 喝美式, and every bigram of the question that holds it crosses into grammar.
TEST_F(AnalyzerTest, QueryTermsCjkLoneContentCharacter) {
  auto normalized = [&](std::string_view q) {
    std::vector<std::string> out;
    for (const QueryTerm& t : full_->QueryTerms(q)) out.push_back(t.normalized);
    return out;
  };
  EXPECT_THAT(normalized("我现在住哪儿？"), ElementsAre("我现", "现在", "在住", "住哪", "哪儿", "住"));
  EXPECT_THAT(normalized("她平时喝什么"), ElementsAre("她平", "平时", "时喝", "喝什", "什么", "喝"));
  EXPECT_THAT(normalized("住哪"), ElementsAre("住哪", "住"));  // the run's start is an end too
  // Two content characters side by side are a word the bigram already holds; a run of function
  // words alone adds nothing.
  EXPECT_THAT(normalized("我在哪家公司上班"), ElementsAre("我在", "在哪", "哪家", "家公", "公司", "司上", "上班"));
  EXPECT_THAT(normalized("我女儿上几年级"), ElementsAre("我女", "女儿", "儿上", "上几", "几年", "年级"));
  EXPECT_THAT(normalized("你们是谁"), ElementsAre("你们", "们是", "是谁"));
}

TEST_F(AnalyzerTest, QueryTermSurfacesRoundTripToOneToken) {
  for (std::string_view query :
       {"Please switch VS Code to light mode; 我更喜欢浅色主题", "今日は成語しりとりをした",
        "오늘 끝말잇기 게임을 했다", "What did “Mel’s” dog eat in 2023? ＡＢＣ cdm-xxc",
        "ﾀﾜｰ ｶﾞ Python编程 2024년 user_id a.b@c.com", "我现在住哪儿？"}) {
    for (Analyzer* analyzer : {full_.get(), plain_.get()}) {
      for (const QueryTerm& term : analyzer->QueryTerms(query)) {
        EXPECT_THAT(Tokens(*analyzer, term.surface, TokenizeMode::kQuery),
                    ElementsAre(term.normalized))
            << query << " / " << term.surface;
      }
    }
  }
}

TEST_F(AnalyzerTest, PlainQueryTermsHaveNoStopwords) {
  std::vector<QueryTerm> terms = plain_->QueryTerms("what Running");
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_FALSE(terms[0].stopword);
  EXPECT_EQ(terms[1].normalized, "running");
}

TEST_F(AnalyzerTest, QueryTokenSetIsTheSortedDistinctQueryTokens) {
  const std::vector<std::string_view> texts = {"Runs and running: I run!", "早报配置已更新 早报", "",
                                               "Caroline went to the LGBTQ support group"};
  // Twice over: the second pass answers from the memo.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::string_view text : texts) {
      std::vector<std::string> expected = Query(text);
      std::sort(expected.begin(), expected.end());
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      EXPECT_EQ(full_->QueryTokenSet(text), expected) << text;
    }
  }
  EXPECT_THAT(full_->QueryTokenSet("Runs and running: I run!"), ElementsAre("and", "i", "run"));
}

TEST_F(AnalyzerTest, QueryTokenSetMemoIsBounded) {
  // More distinct texts than the memo holds: each answer is still right after it is cleared.
  for (size_t i = 0; i < Analyzer::kMaxMemoTexts + 10; ++i) {
    const std::string text = "note " + std::to_string(i);
    EXPECT_THAT(full_->QueryTokenSet(text), ElementsAre(std::to_string(i), "note")) << text;
  }
}

}  // namespace
}  // namespace engram::text
