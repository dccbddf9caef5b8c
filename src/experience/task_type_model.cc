#include "experience/task_type_model.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "experience/write_signature.h"

namespace engram::experience {
namespace {

double Sigmoid(double z) {
  z = std::clamp(z, -30.0, 30.0);
  return 1.0 / (1.0 + std::exp(-z));
}

}  // namespace

TaskTypeModel TaskTypeModel::Train(const std::vector<TaskTypeExample>& examples, const TaskTypeModelOptions& options) {
  TaskTypeModel m;
  m.l2_ = options.l2;
  std::map<std::string, int> components;
  std::map<std::string, int> types;
  for (const TaskTypeExample& e : examples) {
    if (e.task_type.empty()) continue;
    types.emplace(e.task_type, 0);
    for (const std::string& c : TypeComponents(e.task_type)) components.emplace(c, 0);
  }
  if (types.empty()) return m;
  for (auto& [name, index] : components) {
    index = static_cast<int>(m.components_.size());
    m.components_.push_back(name);
  }
  for (auto& [name, index] : types) {
    index = static_cast<int>(m.types_.size());
    m.types_.push_back(name);
    std::vector<int> parts;
    for (const std::string& c : TypeComponents(name)) parts.push_back(components.at(c));
    m.type_components_.push_back(std::move(parts));
  }

  // Each example as its term columns and the components it has (a 0/1 label per component).
  struct Row {
    std::vector<int> columns;
    std::vector<char> label;
    double scale = 1;
  };
  std::vector<Row> rows;
  for (const TaskTypeExample& e : examples) {
    if (e.task_type.empty()) continue;
    Row row;
    for (const std::string& t : e.terms) {
      auto [it, inserted] = m.vocabulary_.emplace(t, static_cast<int>(m.vocabulary_.size()));
      row.columns.push_back(it->second);
    }
    std::sort(row.columns.begin(), row.columns.end());
    row.columns.erase(std::unique(row.columns.begin(), row.columns.end()), row.columns.end());
    row.label.assign(m.components_.size(), 0);
    for (int c : m.type_components_[types.at(e.task_type)]) row.label[c] = 1;
    row.scale = 1.0 / std::sqrt(std::max<size_t>(1, row.columns.size()));
    rows.push_back(std::move(row));
  }
  m.examples_ = rows.size();
  const size_t vocabulary = m.vocabulary_.size();
  m.weights_.assign(m.components_.size(), std::vector<double>(vocabulary, 0.0));
  m.bias_.assign(m.components_.size(), 0.0);
  const double rate = options.learning_rate;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    for (const Row& row : rows) {
      for (size_t c = 0; c < m.components_.size(); ++c) {
        std::vector<double>& w = m.weights_[c];
        double z = m.bias_[c];
        for (int col : row.columns) z += w[col];
        const double gradient = static_cast<double>(row.label[c]) - Sigmoid(z);
        m.bias_[c] += rate * gradient;
        for (int col : row.columns) w[col] += rate * (gradient * row.scale - options.l2 * w[col]);
      }
    }
  }
  return m;
}

TaskTypeModel TaskTypeModel::TrainSelectingL2(const std::vector<TaskTypeExample>& examples,
                                              const TaskTypeModelOptions& options) {
  std::vector<const TaskTypeExample*> typed;
  for (const TaskTypeExample& e : examples) {
    if (!e.task_type.empty()) typed.push_back(&e);
  }
  if (typed.size() < 2 * static_cast<size_t>(kCrossValidationFolds)) return Train(examples, options);
  constexpr double kUnseenProbability = 1e-4;
  // Per candidate: the held-out log-probability of each example's type.
  std::vector<std::vector<double>> scores;
  for (double l2 : kL2Candidates) {
    TaskTypeModelOptions trial = options;
    trial.l2 = l2;
    std::vector<double> per_example;
    for (int fold = 0; fold < kCrossValidationFolds; ++fold) {
      std::vector<TaskTypeExample> train;
      std::vector<const TaskTypeExample*> held_out;
      for (size_t i = 0; i < typed.size(); ++i) {
        if (static_cast<int>(i * kCrossValidationFolds / typed.size()) == fold) {
          held_out.push_back(typed[i]);
        } else {
          train.push_back(*typed[i]);
        }
      }
      const TaskTypeModel m = Train(train, trial);
      for (const TaskTypeExample* e : held_out) {
        double p = kUnseenProbability;
        for (const TaskTypeGuess& g : m.Classify(e->terms)) {
          if (g.task_type == e->task_type) p = std::max(g.probability, kUnseenProbability);
        }
        per_example.push_back(std::log(p));
      }
    }
    scores.push_back(std::move(per_example));
  }
  // The best mean, and its standard error.
  const double n = static_cast<double>(typed.size());
  size_t best = 0;
  std::vector<double> means;
  for (const std::vector<double>& v : scores) {
    double sum = 0;
    for (double x : v) sum += x;
    means.push_back(sum / n);
    if (means.back() > means[best]) best = means.size() - 1;
  }
  double variance = 0;
  for (double x : scores[best]) variance += (x - means[best]) * (x - means[best]);
  const double standard_error = std::sqrt(variance / (n - 1) / n);
  // The one-standard-error rule: the strongest decay within one standard error of the best.
  size_t chosen = best;
  for (size_t c = best + 1; c < means.size(); ++c) {
    if (means[c] >= means[best] - standard_error) chosen = c;
  }
  TaskTypeModelOptions final_options = options;
  final_options.l2 = kL2Candidates[chosen];
  return Train(examples, final_options);
}

std::vector<TaskTypeGuess> TaskTypeModel::Classify(const std::vector<std::string>& terms) const {
  std::vector<TaskTypeGuess> out;
  if (empty()) return out;
  std::vector<int> columns;
  for (const std::string& t : terms) {
    auto it = vocabulary_.find(t);
    if (it != vocabulary_.end()) columns.push_back(it->second);
  }
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  // log p(c) and log(1 − p(c)) per component.
  std::vector<double> log_yes(components_.size()), log_no(components_.size());
  double all_no = 0;
  for (size_t c = 0; c < components_.size(); ++c) {
    double z = bias_[c];
    for (int col : columns) z += weights_[c][col];
    const double p = std::clamp(Sigmoid(z), 1e-9, 1 - 1e-9);
    log_yes[c] = std::log(p);
    log_no[c] = std::log(1 - p);
    all_no += log_no[c];
  }
  std::vector<double> log_p(types_.size());
  double best = -1e300;
  for (size_t t = 0; t < types_.size(); ++t) {
    double lp = all_no;
    for (int c : type_components_[t]) lp += log_yes[c] - log_no[c];
    log_p[t] = lp;
    best = std::max(best, lp);
  }
  double total = 0;
  for (double& lp : log_p) total += (lp = std::exp(lp - best));
  for (size_t t = 0; t < types_.size(); ++t) out.push_back({types_[t], log_p[t] / total});
  std::sort(out.begin(), out.end(), [](const TaskTypeGuess& a, const TaskTypeGuess& b) {
    return a.probability != b.probability ? a.probability > b.probability : a.task_type < b.task_type;
  });
  return out;
}

}  // namespace engram::experience
