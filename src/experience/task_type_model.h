// experience/task_type_model.h — reads the task type of a new task from its text, learnt from the
// goals of stored episodes whose type is known (a classifier of the namespace's own experience; no
// model file, no network).
//
// One logistic regression per type component (experience/write_signature.h: the tools of a write
// signature, or a declared type as a whole), one-vs-rest, over binary term features
// (experience/task_terms.h), trained by plain stochastic gradient descent in example order (so the
// same examples always give the same model). The probability of a type T is the product over every
// known component c of p(c) when c ∈ T and 1 − p(c) otherwise, normalised over the types seen in
// training: a type made of known components but never seen whole gets no probability. A word the
// episodes of every type share (a user's name, "order") gets weights near 0; a word that only the
// episodes of one component use ("cancel", "exchange") gets a large one.
//
// Thread safety: a trained model is immutable; Classify is const and safe from any thread.
#ifndef ENGRAM_EXPERIENCE_TASK_TYPE_MODEL_H_
#define ENGRAM_EXPERIENCE_TASK_TYPE_MODEL_H_

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "engram/types.h"

namespace engram::experience {

struct TaskTypeExample {
  std::vector<std::string> terms;  // distinct (TaskTerms)
  std::string task_type;
};

// The L2 weight decays cross-validation chooses from (TrainSelectingL2): from a nearly free fit of
// long, telling goals (τ-retail instructions) to probabilities held near the type priors when
// goals say little (τ-airline first messages); bench/RESULTS.md 2026-12-03 has both.
inline constexpr double kL2Candidates[] = {0.001, 0.01, 0.03, 0.1};
inline constexpr int kCrossValidationFolds = 3;

// The training constants (SGD epochs and step as in common logistic-regression defaults; the
// bench measured 20 and 30 epochs alike).
struct TaskTypeModelOptions {
  int epochs = 20;
  double learning_rate = 0.5;
  // L2 weight decay per update: larger keeps the probabilities nearer the type priors.
  double l2 = 0.01;
};

class TaskTypeModel {
 public:
  TaskTypeModel() = default;

  // Trains on `examples` (in the order given). Examples without a type are skipped. Cost:
  // epochs × examples × components × terms per example.
  static TaskTypeModel Train(const std::vector<TaskTypeExample>& examples, const TaskTypeModelOptions& options = {});

  // Trains with the L2 of kL2Candidates chosen by cross-validation: kCrossValidationFolds
  // contiguous folds (in example order: the episodes of one session or one task, written one after
  // the other, stay in one fold, so a fold is never scored on near-copies of its training examples;
  // interleaved folds let τ-airline's four trials of a task choose the weakest decay), each
  // candidate scored by the mean log-probability its fold models give the held-out examples' types
  // (a type unseen in a fold's training part counts as 1e-4), and — the one-standard-error rule
  // (Breiman et al., "Classification and Regression Trees", 1984; Hastie, Tibshirani and Friedman,
  // "The Elements of Statistical Learning", §7.10) — the strongest decay whose mean is within one
  // standard error of the best. options.l2 is ignored, except with fewer than 2 × folds examples,
  // when it is used as given. Cost: folds × candidates + 1 trainings.
  static TaskTypeModel TrainSelectingL2(const std::vector<TaskTypeExample>& examples,
                                        const TaskTypeModelOptions& options = {});

  bool empty() const { return types_.empty(); }
  double l2() const { return l2_; }  // the decay it was trained with
  size_t example_count() const { return examples_; }
  const std::vector<std::string>& types() const { return types_; }

  // P(type | terms) for every type seen in training, summing to 1, best first (ties by type name).
  // Empty when the model is empty.
  std::vector<TaskTypeGuess> Classify(const std::vector<std::string>& terms) const;

 private:
  std::vector<std::string> types_;                      // distinct, sorted
  std::vector<std::vector<int>> type_components_;       // per type: component indexes
  std::vector<std::string> components_;                 // sorted
  std::unordered_map<std::string, int> vocabulary_;     // term → column
  std::vector<std::vector<double>> weights_;            // [component][column]
  std::vector<double> bias_;                            // [component]
  size_t examples_ = 0;
  double l2_ = 0;
};

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_TASK_TYPE_MODEL_H_
