// experience/experience_ranking.h — how experience recall orders what it returns (docs/experience.md,
// "Retrieval"): rules first, by confidence × the probability of their type, then similar successful
// episodes by ExperienceOptions' weighted score, each with why it was chosen. Failed, partial and
// open episodes are never returned as examples: what failed comes back as "avoid" rules.
// Thread safety: pure functions.
#ifndef ENGRAM_EXPERIENCE_EXPERIENCE_RANKING_H_
#define ENGRAM_EXPERIENCE_EXPERIENCE_RANKING_H_

#include <string_view>
#include <vector>

#include "engram/options.h"
#include "engram/types.h"

namespace engram::experience {

// Pending and disputed rules count half (DESIGN.md: pending rules are down-weighted).
inline constexpr double kUnsettledRuleWeight = 0.5;

// A stored episode that recall considers, with the BM25 of its goal and steps for the task text
// (0 when the full-text search did not find it: it came in by its type).
struct EpisodeCandidate {
  Episode episode;
  double bm25 = 0;
  double weight = 1;  // multiplies the score (a shared episode down-weighted for the agent asking)
};

// The type probabilities of the task: {given type: 1} when the caller named it, the model's guesses
// when inferred, empty when neither. `source` is "given", "inferred" or "none".
struct TaskTypeBelief {
  std::vector<TaskTypeGuess> guesses;
  std::string source = "none";
  double ProbabilityOf(std::string_view task_type) const;
};

// The best `limit` successful candidates: similarity = bm25 / the best bm25 among the successful
// candidates (0–1), type_match = belief.ProbabilityOf(type), recency = exp(−days since it ended /
// options.recency_days) (1 when it ended at or after `now`), score = the weighted sum; ties by the
// newer episode; the score is multiplied by the candidate's weight. Each gets a `why`.
std::vector<ExperienceEpisode> RankEpisodes(const std::vector<EpisodeCandidate>& candidates,
                                            const ExperienceOptions& options, const TaskTypeBelief& belief,
                                            TimestampMs now, int limit);

// The best `limit` rules that are active, pending or disputed (never deprecated), by confidence ×
// the probability of their type (× kUnsettledRuleWeight unless active); rules of a type with
// probability 0 are left out. `weights` (empty, or one per rule) multiply the scores. Ties by higher
// confidence, then id.
std::vector<ExperienceRule> RankRules(const std::vector<Rule>& rules, const TaskTypeBelief& belief, int limit,
                                      const std::vector<double>& weights = {});

// An episode's key decisions: its state-changing steps, or every step when none changed anything,
// at most `max_steps` (the first ones), each result cut to `max_result_chars` characters.
std::vector<EpisodeStep> KeyDecisions(const std::vector<EpisodeStep>& steps, size_t max_steps = 20,
                                      size_t max_result_chars = 300);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_EXPERIENCE_RANKING_H_
