// experience/experience_forget_score.h — the forget score of an episode or rule (docs/experience.md,
// "Forgetting cold experience"), straight from DESIGN.md ("Experience layer", Forgetting experience):
//
//   score = 0.5 × exp(−days since access / 60) + 0.3 × ln(accesses + 1) + 0.2 × success rate
//
// below ExperienceOptions::forget_cold_below (0.2) the experience is cold: out of recall, kept and
// listable; below forget_delete_below (0.05) it is deleted. "Access" is being returned by experience
// recall; an experience never returned counts from when it was made (an episode: when it ended, or
// started while open; a rule: when it was created). The success rate of an episode is 1 for
// success, 0.5 for partial, 0 otherwise; of a rule, the share of its matching episodes that ended as
// it predicts (0 with no support).
//
// What follows from the formula (documented, not changed): an experience with success rate 1 never
// goes cold (0.2 × 1 is already the cold threshold and the recency term is positive); a never
// recalled failure goes cold after 60 × ln 2.5 ≈ 55 days and is deleted after 60 × ln 10 ≈ 138 days.
// Thread safety: pure functions.
#ifndef ENGRAM_EXPERIENCE_EXPERIENCE_FORGET_SCORE_H_
#define ENGRAM_EXPERIENCE_EXPERIENCE_FORGET_SCORE_H_

#include <cstdint>
#include <string_view>

#include "engram/options.h"
#include "engram/types.h"

namespace engram::experience {

// DESIGN.md's weights of the three terms.
inline constexpr double kForgetRecencyWeight = 0.5;
inline constexpr double kForgetAccessWeight = 0.3;
inline constexpr double kForgetSuccessWeight = 0.2;

struct ForgetScoreInput {
  TimestampMs last_access = 0;  // ms UTC: the last recall that returned it, else when it was made
  int64_t accesses = 0;         // how many recalls returned it
  double success_rate = 0;      // 0–1
};

// The score at `now` (ms UTC); a last access after `now` counts as now.
double ForgetScore(const ForgetScoreInput& input, TimestampMs now, const ExperienceOptions& options);

// 1 for "success", 0.5 for "partial", 0 for "failure" and "unknown".
double EpisodeSuccessRate(std::string_view outcome);

// The share of the rule's support that ended as it predicts: success_count (do) or failure_count
// (avoid) over support; 0 with no support.
double RuleSuccessRate(const Rule& rule);

enum class ForgetVerdict { kWarm, kCold, kDelete };

// kDelete below options.forget_delete_below, kCold below options.forget_cold_below, else kWarm.
ForgetVerdict Judge(double score, const ExperienceOptions& options);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_EXPERIENCE_FORGET_SCORE_H_
