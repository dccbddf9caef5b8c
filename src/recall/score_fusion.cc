#include "recall/score_fusion.h"

#include <algorithm>
#include <cmath>

namespace engram {

ChannelScores Channel(std::string name, double weight, size_t n, bool zero_is_absent) {
  ChannelScores c;
  c.name = std::move(name);
  c.weight = weight;
  c.scores.assign(n, 0.0);
  c.zero_is_absent = zero_is_absent;
  return c;
}

ChannelScale ScaleOf(const ChannelScores& c) {
  if (c.scores.empty()) return {};
  const auto [min_it, max_it] = std::minmax_element(c.scores.begin(), c.scores.end());
  const double lo = c.population_lo ? *c.population_lo : c.zero_is_absent ? std::min(0.0, *min_it) : *min_it;
  const double hi = c.population_hi ? *c.population_hi : *max_it;
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

ChannelRanks::ChannelRanks(const ChannelScores& channel) : channel_(channel) {
  scan_ = std::any_of(channel.scores.begin(), channel.scores.end(), [](double x) { return std::isnan(x); });
  if (scan_) return;
  // Zeros (most candidates of the sparse channels) are counted, not sorted.
  ascending_.reserve(channel.scores.size());
  for (double x : channel.scores) {
    if (x != 0) {
      ascending_.push_back(x);
    } else {
      ++zeros_;
    }
  }
  std::sort(ascending_.begin(), ascending_.end());
}

int ChannelRanks::Rank(size_t i) const {
  if (scan_) return RankInChannel(channel_, i);
  if (i >= channel_.scores.size() || channel_.scores[i] == 0) return 0;
  // Candidates scoring strictly higher: the nonzero ones after the last score equal to (or below)
  // this one, and the zeros when this one is negative.
  const double s = channel_.scores[i];
  const auto above = std::upper_bound(ascending_.begin(), ascending_.end(), s);
  return static_cast<int>(ascending_.end() - above) + (s < 0 ? static_cast<int>(zeros_) : 0) + 1;
}

}  // namespace engram
