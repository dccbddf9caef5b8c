#include "recall/score_fusion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace engram {
namespace {

TEST(RankInChannelTest, CountsStrictlyHigherScoresAndZeroIsUnranked) {
  ChannelScores c = Channel("turn", 1.0, 5);
  c.scores = {2.0, 0.0, 3.0, 2.0, 1.0};
  EXPECT_EQ(RankInChannel(c, 0), 2);  // only 3.0 is higher; the tie shares the rank
  EXPECT_EQ(RankInChannel(c, 3), 2);
  EXPECT_EQ(RankInChannel(c, 2), 1);
  EXPECT_EQ(RankInChannel(c, 4), 4);
  EXPECT_EQ(RankInChannel(c, 1), 0);
  EXPECT_EQ(RankInChannel(c, 9), 0);  // out of range
}

// ChannelRanks gives RankInChannel's answer for every candidate: ties, zeros, negative scores
// (min-max channels), an empty channel and a NaN.
TEST(ChannelRanksTest, SameRanksAsRankInChannel) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(-3, 6);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = static_cast<size_t>(trial % 40);
    ChannelScores c = Channel("window", 0.5, n);
    for (double& s : c.scores) s = pick(rng) * 0.25;  // few distinct values: many ties and zeros
    if (trial % 50 == 49 && n > 0) c.scores[n / 2] = std::numeric_limits<double>::quiet_NaN();
    const ChannelRanks ranks(c);
    for (size_t i = 0; i < n + 2; ++i) EXPECT_EQ(ranks.Rank(i), RankInChannel(c, i)) << trial << " " << i;
  }
}

}  // namespace
}  // namespace engram
