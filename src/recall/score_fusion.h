// recall/score_fusion.h — weighted fusion of min-max-normalised channel scores.
//
// fused(i) = Σ_c weight_c · (s_c(i) − lo_c) / (max_c − lo_c) over the candidates of one query.
// For a channel whose 0 means "not found" (BM25, matches, ratings: zero_is_absent), lo_c =
// min(0, min_c): the scale starts at 0 even when every candidate was found, as it does over a
// whole conversation where most events score 0. For a similarity with no such zero (cosine),
// lo_c = min_c: plain min-max, as in the study. A channel whose scores are all equal adds nothing. On the LoCoMo dev split this beat reciprocal
// rank fusion (0.671 vs 0.648 recall@10, ../shared/reference/retrieval_findings.md), because it
// keeps how far ahead a candidate is in a channel, which ranks throw away.
#ifndef ENGRAM_RECALL_SCORE_FUSION_H_
#define ENGRAM_RECALL_SCORE_FUSION_H_

#include <optional>
#include <string>
#include <vector>

namespace engram {

// One channel's raw scores, one per candidate (same order in every channel; 0 = not found there).
struct ChannelScores {
  std::string name;
  double weight = 0;
  std::vector<double> scores;
  bool zero_is_absent = true;
  // The scale's bounds when the channel scored a larger population than the candidates (the
  // dense channel scores every event of the namespace): then lo/hi are that population's min and
  // max, as in the study's min-max over a whole conversation. Unset = the candidates' own.
  std::optional<double> population_lo, population_hi;
};

// A channel of `n` candidates, every score 0.
ChannelScores Channel(std::string name, double weight, size_t n, bool zero_is_absent = true);

// The fused score of every candidate. Channels of weight 0 are skipped. Every channel must have
// as many scores as the first.
std::vector<double> FuseNormalisedScores(const std::vector<ChannelScores>& channels);

// The scale FuseNormalisedScores gives a channel: a score s adds weight · (s − lo) / range, in
// channel order, when range > 0 (nothing otherwise; nor for a channel of weight 0 or no scores).
// A candidate's fused score is that sum, bit for bit, so a caller that adds the same terms in
// the same order for a score not yet among the candidates (one that would not move the scale)
// gets the score it would be fused to, and a bound of it from bounds of its channel scores
// (each term and sum rounds monotonically).
struct ChannelScale {
  double lo = 0;
  double hi = 0;
  double range = 0;  // hi − lo
};
ChannelScale ScaleOf(const ChannelScores& channel);

// 1-based rank of candidate i in the channel (1 + candidates scoring strictly higher), 0 when its
// score is 0 (the channel did not find it). O(candidates).
int RankInChannel(const ChannelScores& channel, size_t i);

// RankInChannel of the candidates `of` (indices into the channel; 0 for one out of range), in
// the order of `of`: the same answers in O(n log k) for k candidates instead of O(n k). Each
// score is placed among the k wanted scores by a branch-free binary search; sorting the n
// scores instead (the former ChannelRanks) spent 7 % of a recall's cycles on mispredicted
// branches (perf, issue 13).
std::vector<int> RanksInChannel(const ChannelScores& channel, const std::vector<size_t>& of);

}  // namespace engram

#endif  // ENGRAM_RECALL_SCORE_FUSION_H_
