#include "eval/retrieval_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace engram::eval {
namespace {

using Ids = std::vector<std::string>;

const Ids kRanked = {"a", "b", "c", "d", "e"};

TEST(LocomoRecallTest, PartialCreditOverGold) {
  const Ids gold = {"b", "d"};
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, gold, 1), 0.0);
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, gold, 2), 0.5);
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, gold, 3), 0.5);
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, gold, 4), 1.0);
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, gold, 50), 1.0);  // list shorter than k
}

TEST(LocomoRecallTest, GoldThatIsNeverRetrievedCountsInTheDenominator) {
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, Ids{"a", "x", "y"}, 10), 1.0 / 3.0);
}

TEST(LocomoRecallTest, EmptyGoldIsOneAndEmptyTopKIsZero) {
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, Ids{}, 5), 1.0);  // LoCoMo: no evidence → 1
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(Ids{}, Ids{"a"}, 5), 0.0);
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, Ids{"a"}, 0), 0.0);
}

TEST(LocomoRecallTest, RepeatedGoldIdsCountOnce) {
  EXPECT_DOUBLE_EQ(LocomoRecallAtK(kRanked, Ids{"b", "b", "e"}, 2), 0.5);
}

TEST(RecallAnyAllTest, HandComputed) {
  const Ids gold = {"b", "d"};
  EXPECT_DOUBLE_EQ(RecallAnyAtK(kRanked, gold, 1), 0.0);
  EXPECT_DOUBLE_EQ(RecallAnyAtK(kRanked, gold, 2), 1.0);
  EXPECT_DOUBLE_EQ(RecallAllAtK(kRanked, gold, 2), 0.0);
  EXPECT_DOUBLE_EQ(RecallAllAtK(kRanked, gold, 3), 0.0);
  EXPECT_DOUBLE_EQ(RecallAllAtK(kRanked, gold, 4), 1.0);
  EXPECT_DOUBLE_EQ(RecallAllAtK(kRanked, Ids{"a", "zz"}, 50), 0.0);
}

TEST(RecallAnyAllTest, EmptyGoldFollowsPythonAnyAll) {
  // LongMemEval: all([]) is True, any([]) is False.
  EXPECT_DOUBLE_EQ(RecallAllAtK(kRanked, Ids{}, 5), 1.0);
  EXPECT_DOUBLE_EQ(RecallAnyAtK(kRanked, Ids{}, 5), 0.0);
}

TEST(NdcgTest, FirstTwoPositionsAreUndiscounted) {
  // DCG = r1 + sum_{i>=2} r_i / log2(i): position 2 has weight 1/log2(2) = 1.
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, Ids{"a"}, 5), 1.0);
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, Ids{"b"}, 5), 1.0);
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, Ids{"c"}, 5), 1.0 / std::log2(3.0));
}

TEST(NdcgTest, HandComputedWithTwoGoldIds) {
  const Ids gold = {"b", "d"};
  // IDCG (2 relevant at the top) = 1 + 1 = 2.
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, gold, 1), 0.0);
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, gold, 2), 0.5);   // DCG = 1
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, gold, 4), 0.75);  // DCG = 1 + 1/log2(4)
  // gold {a, e}: DCG@5 = 1 + 1/log2(5) ≈ 1.430677, IDCG = 2.
  EXPECT_NEAR(NdcgAnyAtK(kRanked, Ids{"a", "e"}, 5), 0.7153382790, 1e-9);
}

TEST(NdcgTest, IdealIsCappedAtK) {
  // Three gold ids but k = 1: IDCG = 1, so one hit on top is perfect.
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, Ids{"a", "b", "c"}, 1), 1.0);
}

TEST(NdcgTest, EmptyGoldAndRepeatsAreNotRelevant) {
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, Ids{}, 5), 0.0);
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(kRanked, Ids{"a"}, 0), 0.0);
  // "b" repeated: only its first position counts; DCG@2 = 1, IDCG = 2.
  EXPECT_DOUBLE_EQ(NdcgAnyAtK(Ids{"b", "b", "d"}, Ids{"b", "d"}, 2), 0.5);
}

TEST(SessionCutoffTest, GrowsUntilKDistinctSessions) {
  // Sessions of the ranked turns, best turn first.
  const Ids sessions = {"1", "1", "2", "1", "3", "4"};
  EXPECT_EQ(SessionCutoff(sessions, 0), 0u);
  EXPECT_EQ(SessionCutoff(sessions, 1), 1u);
  EXPECT_EQ(SessionCutoff(sessions, 2), 3u);
  EXPECT_EQ(SessionCutoff(sessions, 3), 5u);
  EXPECT_EQ(SessionCutoff(sessions, 4), 6u);
  EXPECT_EQ(SessionCutoff(sessions, 5), 6u);  // list exhausted
  EXPECT_EQ(SessionCutoff(Ids{}, 3), 0u);
}

TEST(SessionRecallTest, ScoresTheFirstKDistinctSessions) {
  const Ids sessions = {"1", "1", "2", "1", "3", "4"};
  EXPECT_DOUBLE_EQ(SessionRecallAllAtK(sessions, Ids{"3"}, 2), 0.0);
  EXPECT_DOUBLE_EQ(SessionRecallAllAtK(sessions, Ids{"3"}, 3), 1.0);
  EXPECT_DOUBLE_EQ(SessionRecallAllAtK(sessions, Ids{"2", "4"}, 3), 0.0);
  EXPECT_DOUBLE_EQ(SessionRecallAllAtK(sessions, Ids{"2", "4"}, 4), 1.0);
  EXPECT_DOUBLE_EQ(SessionRecallAllAtK(sessions, Ids{"1", "1"}, 1), 1.0);
  EXPECT_DOUBLE_EQ(SessionRecallAllAtK(sessions, Ids{"9"}, 10), 0.0);
  EXPECT_DOUBLE_EQ(SessionRecallAllAtK(sessions, Ids{}, 1), 1.0);
  EXPECT_DOUBLE_EQ(SessionRecallAnyAtK(sessions, Ids{"2", "4"}, 1), 0.0);
  EXPECT_DOUBLE_EQ(SessionRecallAnyAtK(sessions, Ids{"2", "4"}, 2), 1.0);
}

TEST(PercentileTest, NearestRank) {
  // The worked example of the nearest-rank method: {15, 20, 35, 40, 50}.
  const std::vector<double> v = {50, 15, 40, 20, 35};  // unsorted on purpose
  EXPECT_DOUBLE_EQ(PercentileNearestRank(v, 5), 15);
  EXPECT_DOUBLE_EQ(PercentileNearestRank(v, 30), 20);
  EXPECT_DOUBLE_EQ(PercentileNearestRank(v, 40), 20);
  EXPECT_DOUBLE_EQ(PercentileNearestRank(v, 50), 35);
  EXPECT_DOUBLE_EQ(PercentileNearestRank(v, 100), 50);
  EXPECT_DOUBLE_EQ(PercentileNearestRank(v, 0), 15);
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  EXPECT_DOUBLE_EQ(PercentileNearestRank(hundred, 50), 50);
  EXPECT_DOUBLE_EQ(PercentileNearestRank(hundred, 95), 95);
  EXPECT_DOUBLE_EQ(PercentileNearestRank({}, 50), 0);
  EXPECT_DOUBLE_EQ(PercentileNearestRank({7}, 95), 7);
}

TEST(MeanAccumulatorTest, Mean) {
  MeanAccumulator m;
  EXPECT_DOUBLE_EQ(m.Mean(), 0.0);
  m.Add(1);
  m.Add(2);
  m.Add(4);
  EXPECT_EQ(m.count(), 3);
  EXPECT_DOUBLE_EQ(m.sum(), 7.0);
  EXPECT_DOUBLE_EQ(m.Mean(), 7.0 / 3.0);
}

}  // namespace
}  // namespace engram::eval
