// TermMatchCache: which expressions it takes, and that a merge of memoised phrases gives the rows
// of their OR (EventStoreTest.MatchTermCountsFromTheMemoIsTheScan compares it with SQLite).
#include "store/sqlite/term_match_cache.h"

#include <gtest/gtest.h>

namespace engram::sqlite {
namespace {

TEST(OrPhrasesTest, OnlyQuotedPhrasesJoinedByOr) {
  EXPECT_EQ(OrPhrases("\"a\" OR \"b c\"").value_or(std::vector<std::string_view>{}),
            (std::vector<std::string_view>{"a", "b c"}));
  EXPECT_EQ(OrPhrases("\"say \"\"hi\"\"\"").value_or(std::vector<std::string_view>{}),
            (std::vector<std::string_view>{"say \"\"hi\"\""}));
  EXPECT_FALSE(OrPhrases("\"a\" AND \"b\"").has_value());
  EXPECT_FALSE(OrPhrases("\"a\" OR \"b\" AND \"c\"").has_value());
  EXPECT_FALSE(OrPhrases("\"a\" OR b").has_value());
  EXPECT_FALSE(OrPhrases("\"a\"*").has_value());
  EXPECT_FALSE(OrPhrases("").has_value());
}

// Rows of phrases "a" (rows 1, 3) and "b" (rows 2, 3) as one OR scan gives them.
TermMatchSet ScanOfAB() {
  TermMatchSet all;
  all.idf = {1.5, 0.25};
  all.avg_length = 7;
  for (int64_t seq : {1, 2, 3}) all.rows.push_back({seq, 10 + seq % 2, 1000 + seq, seq == 2 ? "Noah" : "Mia", 4});
  all.tf = {2, 0, 0, 1, 1, 3};
  return all;
}

TEST(TermMatchCacheTest, MergesMemoisedPhrasesInSeqOrder) {
  TermMatchCache cache;
  const std::vector<std::string_view> ab = {"a", "b"};
  SearchFilter filter;
  filter.namespace_id = 7;
  EXPECT_FALSE(cache.Match(ab, filter, 10).has_value());
  EXPECT_EQ(cache.Missing(7, {"a", "b", "a"}), ab);
  cache.Remember(7, ab, ScanOfAB());
  EXPECT_TRUE(cache.Missing(7, ab).empty());
  auto both = cache.Match({"b", "a", "b"}, filter, 10);
  ASSERT_TRUE(both.has_value());
  ASSERT_EQ(both->rows.size(), 3u);
  EXPECT_EQ(both->idf, (std::vector<double>{0.25, 1.5, 0.25}));
  EXPECT_EQ(both->tf, (std::vector<uint16_t>{0, 2, 0, 1, 0, 1, 3, 1, 3}));
  EXPECT_EQ(both->rows[1].speaker, "Noah");
  EXPECT_EQ(both->avg_length, 7);
  EXPECT_FALSE(both->stopped_at_max);
  auto two = cache.Match(ab, filter, 2);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->rows.size(), 2u);
  EXPECT_TRUE(two->stopped_at_max);
  filter.since = 1002;
  auto later = cache.Match({"a"}, filter, 10);
  ASSERT_TRUE(later.has_value());
  ASSERT_EQ(later->rows.size(), 1u);
  EXPECT_EQ(later->rows[0].seq, 3);
  filter.namespace_id = 8;  // another namespace: nothing memoised
  EXPECT_FALSE(cache.Match(ab, filter, 10).has_value());
  cache.Clear();
  EXPECT_EQ(cache.rows(), 0u);
  filter.namespace_id = 7;
  EXPECT_FALSE(cache.Match(ab, filter, 10).has_value());
}

TEST(TermMatchCacheTest, AnAbsentPhraseMatchesNothingButKeepsItsIdf) {
  TermMatchCache cache;
  cache.RememberAbsent(7, "z", 3.0);
  SearchFilter filter;
  filter.namespace_id = 7;
  auto none = cache.Match({"z"}, filter, 10);
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->rows.empty());
  EXPECT_TRUE(none->idf.empty());  // as the scan: no row, no statistics
  cache.Remember(7, {"a", "b"}, ScanOfAB());
  auto with = cache.Match({"z", "a"}, filter, 10);
  ASSERT_TRUE(with.has_value());
  EXPECT_EQ(with->idf, (std::vector<double>{3.0, 1.5}));
  EXPECT_EQ(with->rows.size(), 2u);
}

TEST(TermMatchCacheTest, ARowWithoutAPhraseIsNotMemoised) {
  TermMatchCache cache;
  TermMatchSet all = ScanOfAB();
  all.tf[2] = 0;
  all.tf[3] = 0;  // row 2 holds neither phrase
  cache.Remember(7, {"a", "b"}, all);
  EXPECT_EQ(cache.rows(), 0u);
  EXPECT_EQ(cache.Missing(7, {"a", "b"}).size(), 2u);
}

TEST(TermMatchCacheTest, PhrasesWithoutRowsCountTowardTheBound) {
  // Questions whose words no event of the namespace holds fill the memo too: it starts again
  // rather than growing past its bound.
  TermMatchCache cache;
  SearchFilter filter;
  filter.namespace_id = 7;
  cache.RememberAbsent(7, "first", 1.0);
  ASSERT_TRUE(cache.Match({"first"}, filter, 10).has_value());
  for (size_t i = 0; i < TermMatchCache::kMaxRows; ++i) {
    cache.RememberAbsent(7, std::to_string(i), 1.0);
    ASSERT_LE(cache.rows(), TermMatchCache::kMaxRows);
  }
  EXPECT_FALSE(cache.Match({"first"}, filter, 10).has_value());
  EXPECT_GT(cache.rows(), 0u);
}

}  // namespace
}  // namespace engram::sqlite
