#include "eval/retrieval_metrics.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace engram::eval {
namespace {

using IdSet = std::unordered_set<std::string_view>;

IdSet ToSet(std::span<const std::string> ids) { return IdSet(ids.begin(), ids.end()); }

// The distinct ids among the first k ranked ids (k < 1 → none).
IdSet TopK(std::span<const std::string> ranked, int k) {
  IdSet top;
  if (k < 1) return top;
  size_t n = std::min(ranked.size(), static_cast<size_t>(k));
  for (size_t i = 0; i < n; ++i) top.insert(ranked[i]);
  return top;
}

size_t CountCovered(const IdSet& gold, const IdSet& top) {
  size_t found = 0;
  for (std::string_view g : gold) found += top.count(g);
  return found;
}

// LongMemEval eval_utils.dcg: relevance at 1-based position i is discounted by log2(i) for i ≥ 2,
// position 1 undiscounted.
double Discount(size_t position) {
  return position <= 1 ? 1.0 : 1.0 / std::log2(static_cast<double>(position));
}

}  // namespace

double LocomoRecallAtK(std::span<const std::string> ranked, std::span<const std::string> gold,
                       int k) {
  IdSet gold_set = ToSet(gold);
  if (gold_set.empty()) return 1.0;
  return static_cast<double>(CountCovered(gold_set, TopK(ranked, k))) /
         static_cast<double>(gold_set.size());
}

double RecallAnyAtK(std::span<const std::string> ranked, std::span<const std::string> gold, int k) {
  IdSet gold_set = ToSet(gold);
  if (gold_set.empty()) return 0.0;
  return CountCovered(gold_set, TopK(ranked, k)) > 0 ? 1.0 : 0.0;
}

double RecallAllAtK(std::span<const std::string> ranked, std::span<const std::string> gold, int k) {
  IdSet gold_set = ToSet(gold);
  return CountCovered(gold_set, TopK(ranked, k)) == gold_set.size() ? 1.0 : 0.0;
}

double NdcgAnyAtK(std::span<const std::string> ranked, std::span<const std::string> gold, int k) {
  IdSet gold_set = ToSet(gold);
  if (gold_set.empty() || k < 1) return 0.0;
  size_t n = std::min(ranked.size(), static_cast<size_t>(k));
  IdSet seen;
  double dcg = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!seen.insert(ranked[i]).second) continue;  // a repeat is not relevant again
    if (gold_set.count(ranked[i]) > 0) dcg += Discount(i + 1);
  }
  size_t ideal_hits = std::min(gold_set.size(), static_cast<size_t>(k));
  double idcg = 0;
  for (size_t i = 0; i < ideal_hits; ++i) idcg += Discount(i + 1);
  return dcg / idcg;
}

size_t SessionCutoff(std::span<const std::string> ranked_sessions, int k) {
  if (k < 1) return 0;
  const size_t want = static_cast<size_t>(k);
  size_t cutoff = std::min(want, ranked_sessions.size());
  IdSet distinct(ranked_sessions.begin(), ranked_sessions.begin() + cutoff);
  while (cutoff < ranked_sessions.size() && distinct.size() < want) {
    distinct.insert(ranked_sessions[cutoff]);
    ++cutoff;
  }
  return cutoff;
}

double SessionRecallAllAtK(std::span<const std::string> ranked_sessions,
                           std::span<const std::string> gold_sessions, int k) {
  size_t cutoff = SessionCutoff(ranked_sessions, k);
  return RecallAllAtK(ranked_sessions, gold_sessions, static_cast<int>(cutoff));
}

double SessionRecallAnyAtK(std::span<const std::string> ranked_sessions,
                           std::span<const std::string> gold_sessions, int k) {
  size_t cutoff = SessionCutoff(ranked_sessions, k);
  return RecallAnyAtK(ranked_sessions, gold_sessions, static_cast<int>(cutoff));
}

double PercentileNearestRank(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  p = std::clamp(p, 0.0, 100.0);
  auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  rank = std::clamp<size_t>(rank, 1, values.size());
  return values[rank - 1];
}

}  // namespace engram::eval
