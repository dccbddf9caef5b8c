// eval/retrieval_metrics.h — retrieval metrics of the LoCoMo and LongMemEval benchmarks, as pure
// functions over one ranked list of ids (best first) and one gold set.
//
// The definitions are the contract of ../shared/reference/benchmarks.md (§1.6, §2.3, §5 P1/P2):
//   * locomo_recall@k — snap-research/LoCoMo @3eb6f2c5 `task_eval/evaluation.py`
//     (eval_question_answering): |gold ∩ top-k| / |gold|, partial credit; no gold → 1.
//   * recall_any@k, recall_all@k, ndcg_any@k — xiaowu0162/LongMemEval @9e0b455f
//     `src/retrieval/eval_utils.py` (evaluate_retrieval, ndcg, dcg): any / all gold ids in the top
//     k (all of nothing is true: no gold → recall_all 1, recall_any 0); binary-relevance NDCG with
//     DCG = r1 + Σ_{i≥2} r_i / log2(i) (positions 1 and 2 both undiscounted), IDCG of the ideal
//     ordering, 0 when there is no gold.
//   * session-level (turn → session) metrics — the same file, evaluate_retrieval_turn2session:
//     map every ranked turn to its session, then grow the cut-off from k until the first k' turns
//     cover k distinct sessions, and score the sessions of those k' turns against the gold
//     sessions.
//
// Conventions: `ranked` holds distinct ids, best first (a repeated id counts once, at its first
// position); `gold` is a set (repeats ignored); k < 1 means an empty top-k. A ranked list shorter
// than k is scored as it is (the missing tail is non-relevant).
//
// Thread safety: pure functions; MeanAccumulator is a value (not synchronised).
#ifndef ENGRAM_SRC_EVAL_RETRIEVAL_METRICS_H_
#define ENGRAM_SRC_EVAL_RETRIEVAL_METRICS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace engram::eval {

// LoCoMo recall@k: fraction of the gold ids found in the first k ranked ids, in [0, 1]; 1 when
// `gold` is empty (LoCoMo gives QAs without evidence recall 1).
double LocomoRecallAtK(std::span<const std::string> ranked, std::span<const std::string> gold,
                       int k);

// LongMemEval recall_any@k: 1 when at least one gold id is in the first k ranked ids, else 0
// (0 when `gold` is empty).
double RecallAnyAtK(std::span<const std::string> ranked, std::span<const std::string> gold, int k);

// LongMemEval recall_all@k: 1 when every gold id is in the first k ranked ids, else 0 (1 when
// `gold` is empty).
double RecallAllAtK(std::span<const std::string> ranked, std::span<const std::string> gold, int k);

// LongMemEval ndcg_any@k with binary relevance, in [0, 1]: DCG of the first k ranked ids divided by
// the DCG of min(|gold|, k) relevant ids at the top. Assumes every gold id is retrievable (callers
// drop gold ids absent from the corpus, as P1 does). 0 when `gold` is empty.
double NdcgAnyAtK(std::span<const std::string> ranked, std::span<const std::string> gold, int k);

// LongMemEval turn → session cut-off: the smallest k' ≥ k such that the first k' entries of
// `ranked_sessions` (the session of each ranked turn, best turn first) hold at least k distinct
// sessions, capped at ranked_sessions.size(). 0 when k < 1.
size_t SessionCutoff(std::span<const std::string> ranked_sessions, int k);

// Session-level recall_all@k: 1 when every gold session is among the sessions of the first
// SessionCutoff(ranked_sessions, k) turns, else 0 (1 when `gold_sessions` is empty). With the
// cut-off these are the first k distinct sessions, i.e. sessions ranked by their best turn.
double SessionRecallAllAtK(std::span<const std::string> ranked_sessions,
                           std::span<const std::string> gold_sessions, int k);

// Session-level recall_any@k, same cut-off: 1 when any gold session is covered (0 when no gold).
double SessionRecallAnyAtK(std::span<const std::string> ranked_sessions,
                           std::span<const std::string> gold_sessions, int k);

// Nearest-rank percentile (the smallest value with at least p% of the values ≤ it): the value at
// 1-based rank ceil(p / 100 × n) of the sorted values; p is clamped to [0, 100] and p = 0 gives the
// minimum. 0 when `values` is empty. Units are those of the values (the bench passes ms).
double PercentileNearestRank(std::vector<double> values, double p);

// Running arithmetic mean of doubles. Mean() is 0 before the first Add.
class MeanAccumulator {
 public:
  void Add(double value) {
    sum_ += value;
    ++count_;
  }
  int64_t count() const { return count_; }
  double sum() const { return sum_; }
  double Mean() const { return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_); }

 private:
  double sum_ = 0;
  int64_t count_ = 0;
};

}  // namespace engram::eval

#endif  // ENGRAM_SRC_EVAL_RETRIEVAL_METRICS_H_
