#include "recall/score_fusion.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace engram {

ChannelScores Channel(std::string name, double weight, size_t n, bool zero_is_absent) {
  ChannelScores c;
  c.name = std::move(name);
  c.weight = weight;
  c.scores.assign(n, 0.0);
  c.zero_is_absent = zero_is_absent;
  return c;
}

namespace {

// The least and greatest of `scores` (not empty), as std::minmax_element gives them. Without a
// branch per score (minsd/maxsd): minmax_element's comparisons mispredicted on every few scores
// (perf, issue 13). With a NaN among them, minmax_element itself, whose answer then depends on
// where the NaN is.
std::pair<double, double> MinMax(const std::vector<double>& scores) {
  double lo = scores.front(), hi = scores.front();
  bool nan = false;
  for (double x : scores) {
    lo = x < lo ? x : lo;  // the first least, as minmax_element
    hi = x < hi ? hi : x;  // the last greatest, as minmax_element
    nan = nan | (x != x);
  }
  if (!nan) return {lo, hi};
  const auto [min_it, max_it] = std::minmax_element(scores.begin(), scores.end());
  return {*min_it, *max_it};
}

}  // namespace

ChannelScale ScaleOf(const ChannelScores& c) {
  if (c.scores.empty()) return {};
  const auto [min, max] = MinMax(c.scores);
  const double lo = c.population_lo ? *c.population_lo : c.zero_is_absent ? std::min(0.0, min) : min;
  const double hi = c.population_hi ? *c.population_hi : max;
  return {lo, hi, hi - lo};
}

std::vector<double> FuseNormalisedScores(const std::vector<ChannelScores>& channels) {
  const size_t n = channels.empty() ? 0 : channels.front().scores.size();
  std::vector<double> fused(n, 0.0);
  for (const ChannelScores& c : channels) {
    if (c.weight == 0 || c.scores.empty()) continue;
    const auto [lo, hi, range] = ScaleOf(c);
    if (!(range > 0)) continue;
    for (size_t i = 0; i < n && i < c.scores.size(); ++i) {
      fused[i] += c.weight * (c.scores[i] - lo) / range;
    }
  }
  return fused;
}

int RankInChannel(const ChannelScores& channel, size_t i) {
  if (i >= channel.scores.size() || channel.scores[i] == 0) return 0;
  const double s = channel.scores[i];
  int higher = 0;
  for (double x : channel.scores) higher += x > s ? 1 : 0;
  return higher + 1;
}

namespace {

// How many of the ascending `v[0, k)` are below x (std::lower_bound's index), with no branch on
// the comparisons (each level adds 0 or half: a conditional jump there mispredicted on every
// other score); a NaN x is below none.
size_t CountBelow(const double* v, size_t k, double x) {
  if (k == 0) return 0;
  const double* base = v;
  while (k > 1) {
    const size_t half = k / 2;
    base += static_cast<size_t>(base[half - 1] < x) * half;
    k -= half;
  }
  return static_cast<size_t>(base - v) + (*base < x ? 1 : 0);
}

}  // namespace

std::vector<int> RanksInChannel(const ChannelScores& channel, const std::vector<size_t>& of) {
  const std::vector<double>& scores = channel.scores;
  std::vector<int> ranks(of.size(), 0);
  // The wanted scores that rank (nonzero, not NaN: a NaN is ranked 1, as no score is above it).
  std::vector<double> wanted;
  wanted.reserve(of.size());
  for (size_t i : of) {
    if (i < scores.size() && scores[i] != 0 && !std::isnan(scores[i])) wanted.push_back(scores[i]);
  }
  std::sort(wanted.begin(), wanted.end());
  // count[p]: the scores x with CountBelow(x) == p. wanted[j] < x exactly when CountBelow(x) > j,
  // so the scores above wanted[j] are count[j + 1] + … + count[k].
  const size_t k = wanted.size();
  std::vector<int> count(k + 1, 0);
  // Most scores are at most the lowest wanted one (a channel's zeros, the long tail): below none.
  // The others are gathered without a branch and only they are searched.
  if (k > 0) {
    const double lowest = wanted.front();
    std::vector<double> higher(scores.size());
    size_t m = 0;
    for (double x : scores) {
      higher[m] = x;
      m += x > lowest ? 1 : 0;
    }
    count[0] = static_cast<int>(scores.size() - m);
    for (size_t h = 0; h < m; ++h) ++count[CountBelow(wanted.data(), k, higher[h])];
  }
  std::vector<int> above(k + 1, 0);
  for (size_t j = k; j-- > 0;) above[j] = above[j + 1] + count[j + 1];
  for (size_t w = 0; w < of.size(); ++w) {
    const size_t i = of[w];
    if (i >= scores.size() || scores[i] == 0) continue;
    if (std::isnan(scores[i])) {
      ranks[w] = 1;
      continue;
    }
    const size_t j = static_cast<size_t>(std::lower_bound(wanted.begin(), wanted.end(), scores[i]) - wanted.begin());
    ranks[w] = above[j] + 1;
  }
  return ranks;
}

}  // namespace engram
