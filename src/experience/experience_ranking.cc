#include "experience/experience_ranking.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "util/utf8.h"

namespace engram::experience {
namespace {

constexpr double kMsPerDay = 86'400'000.0;

std::string TypeReason(const TaskTypeBelief& belief, std::string_view task_type, double probability) {
  if (belief.source == "given") {
    return probability > 0 ? "the task's type" : fmt::format("type {}, not the task's", task_type);
  }
  if (belief.source == "inferred") {
    return fmt::format("type {}, which the task is with probability {:.2f}", task_type, probability);
  }
  return fmt::format("type {}", task_type.empty() ? "unknown" : task_type);
}

}  // namespace

double TaskTypeBelief::ProbabilityOf(std::string_view task_type) const {
  for (const TaskTypeGuess& g : guesses) {
    if (g.task_type == task_type) return g.probability;
  }
  return 0.0;
}

std::vector<ExperienceEpisode> RankEpisodes(const std::vector<EpisodeCandidate>& candidates,
                                            const ExperienceOptions& options, const TaskTypeBelief& belief,
                                            TimestampMs now, int limit) {
  double best = 0;
  for (const EpisodeCandidate& c : candidates) {
    if (c.episode.outcome == "success") best = std::max(best, c.bm25);
  }
  std::vector<ExperienceEpisode> out;
  for (const EpisodeCandidate& c : candidates) {
    const Episode& e = c.episode;
    if (e.status != "ended" || e.outcome != "success") continue;
    ExperienceEpisode x;
    x.episode = e;
    x.similarity = best > 0 ? c.bm25 / best : 0.0;
    x.type_match = belief.ProbabilityOf(e.task_type);
    const double days = std::max(0.0, static_cast<double>(now - e.ended_at.value_or(e.started_at)) / kMsPerDay);
    x.recency = options.recency_days > 0 ? std::exp(-days / options.recency_days) : 0.0;
    x.score = c.weight *
              (options.similarity * x.similarity + options.type_match * x.type_match + options.recency * x.recency);
    x.why = fmt::format("succeeded; {}; words in common {:.2f} of the best match; ended {:.0f} days ago",
                        TypeReason(belief, e.task_type, x.type_match), x.similarity, days);
    out.push_back(std::move(x));
  }
  std::sort(out.begin(), out.end(), [](const ExperienceEpisode& a, const ExperienceEpisode& b) {
    return a.score != b.score ? a.score > b.score : a.episode.seq > b.episode.seq;
  });
  if (static_cast<int>(out.size()) > limit) out.resize(std::max(0, limit));
  return out;
}

std::vector<ExperienceRule> RankRules(const std::vector<Rule>& rules, const TaskTypeBelief& belief, int limit,
                                      const std::vector<double>& weights) {
  std::vector<ExperienceRule> out;
  for (size_t i = 0; i < rules.size(); ++i) {
    const Rule& r = rules[i];
    if (r.status == "deprecated") continue;
    const double p = belief.ProbabilityOf(r.task_type);
    if (p <= 0) continue;
    ExperienceRule x;
    x.rule = r;
    const bool settled = r.status == "active";
    x.score = r.confidence * p * (settled ? 1.0 : kUnsettledRuleWeight) * (i < weights.size() ? weights[i] : 1.0);
    x.why = fmt::format("{} rule of {}; confidence {:.2f} from {} matching episodes ({} succeeded, {} failed)",
                        r.status, TypeReason(belief, r.task_type, p), r.confidence, r.support, r.success_count,
                        r.failure_count);
    if (!settled) x.why += fmt::format("; counted at {}× while {}", kUnsettledRuleWeight, r.status);
    out.push_back(std::move(x));
  }
  std::sort(out.begin(), out.end(), [](const ExperienceRule& a, const ExperienceRule& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.rule.confidence != b.rule.confidence) return a.rule.confidence > b.rule.confidence;
    return a.rule.id < b.rule.id;
  });
  if (static_cast<int>(out.size()) > limit) out.resize(std::max(0, limit));
  return out;
}

std::vector<EpisodeStep> KeyDecisions(const std::vector<EpisodeStep>& steps, size_t max_steps,
                                      size_t max_result_chars) {
  const bool any_write = std::any_of(steps.begin(), steps.end(), [](const EpisodeStep& s) { return s.changes_state; });
  std::vector<EpisodeStep> out;
  for (const EpisodeStep& s : steps) {
    if (any_write && !s.changes_state) continue;
    if (out.size() == max_steps) break;
    EpisodeStep d = s;
    if (CodePointCount(d.result) > max_result_chars) d.result = TruncateCodePoints(d.result, max_result_chars);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace engram::experience
