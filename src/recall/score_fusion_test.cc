#include "recall/score_fusion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

// RanksInChannel gives RankInChannel's answer for any candidates asked, in their order: ties,
// zeros, negative scores (min-max channels), infinities, NaNs (among the scores and asked),
// repeats, indices out of range and an empty channel.
TEST(RanksInChannelTest, SameRanksAsRankInChannel) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(-3, 6);
  for (int trial = 0; trial < 400; ++trial) {
    const size_t n = static_cast<size_t>(trial % 40);
    ChannelScores c = Channel("window", 0.5, n);
    for (double& s : c.scores) s = pick(rng) * 0.25;  // few distinct values: many ties and zeros
    if (trial % 7 == 6 && n > 0) c.scores[n / 2] = std::numeric_limits<double>::quiet_NaN();
    if (trial % 11 == 10 && n > 1) c.scores[1] = -std::numeric_limits<double>::infinity();
    if (trial % 13 == 12 && n > 2) c.scores[2] = std::numeric_limits<double>::infinity();
    std::vector<size_t> of;
    std::uniform_int_distribution<size_t> index(0, n + 1);
    const size_t asked = static_cast<size_t>(trial % 12);
    for (size_t k = 0; k < asked; ++k) of.push_back(index(rng));
    const std::vector<int> ranks = RanksInChannel(c, of);
    ASSERT_EQ(ranks.size(), of.size());
    for (size_t k = 0; k < of.size(); ++k) EXPECT_EQ(ranks[k], RankInChannel(c, of[k])) << trial << " " << of[k];
  }
  // Every candidate of a larger channel, asked in reverse.
  ChannelScores c = Channel("turn", 1.0, 500);
  std::uniform_real_distribution<double> real(-1.0, 4.0);
  for (double& s : c.scores) s = std::max(0.0, real(rng));
  std::vector<size_t> of(c.scores.size());
  for (size_t i = 0; i < of.size(); ++i) of[i] = of.size() - 1 - i;
  const std::vector<int> ranks = RanksInChannel(c, of);
  for (size_t k = 0; k < of.size(); ++k) ASSERT_EQ(ranks[k], RankInChannel(c, of[k])) << of[k];
}

// ScaleOf's bounds are std::minmax_element's, bit for bit (the sign of a zero too), with NaNs,
// infinities and signed zeros anywhere among the scores, for both kinds of channel.
TEST(ScaleOfTest, BoundsAsMinmaxElement) {
  std::mt19937 rng(5);
  const double specials[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_real_distribution<double> real(-2.0, 5.0);
  for (int trial = 0; trial < 500; ++trial) {
    const size_t n = 1 + static_cast<size_t>(trial % 23);
    ChannelScores c = Channel("turn", 1.0, n, trial % 2 == 0);
    for (double& s : c.scores) {
      const int k = kind(rng);
      s = k < 5 ? real(rng) : k < 7 ? specials[0] : specials[static_cast<size_t>(k - 6)];
    }
    const auto [min_it, max_it] = std::minmax_element(c.scores.begin(), c.scores.end());
    const double lo = c.zero_is_absent ? std::min(0.0, *min_it) : *min_it;
    const double hi = *max_it;
    const ChannelScale scale = ScaleOf(c);
    auto bits = [](double x) {
      uint64_t b;
      std::memcpy(&b, &x, sizeof b);
      return b;
    };
    EXPECT_EQ(bits(scale.lo), bits(lo)) << trial;
    EXPECT_EQ(bits(scale.hi), bits(hi)) << trial;
    EXPECT_EQ(bits(scale.range), bits(hi - lo)) << trial;
  }
}

}  // namespace
}  // namespace engram
