// experience/experience_forgetting.h — the maintenance step that forgets cold experience
// (docs/experience.md, "Forgetting cold experience"): every ended episode and every rule of a
// namespace gets its forget score (experience/experience_forget_score.h); below the cold threshold
// it is marked cold (out of experience recall, listed by Engine::ListColdExperience), back above it
// it is warm again, and below the delete threshold — when an earlier pass had already made it cold —
// it is deleted through the forget cascade with a tombstone (lifecycle/forget.h
// ForgetExperienceInTransaction). A deleted episode is first taken out of the rules it supported
// (their counts and statuses recomputed, "unmatched" in their history); a rule left with no
// support has success rate 0 and goes cold and is deleted by its own score, like any other rule.
// Runs inside the caller's write transaction. Not thread-safe (one connection).
#ifndef ENGRAM_EXPERIENCE_EXPERIENCE_FORGETTING_H_
#define ENGRAM_EXPERIENCE_EXPERIENCE_FORGETTING_H_

#include <cstdint>
#include <string_view>

#include "engram/options.h"
#include "engram/status.h"
#include "lifecycle/forget.h"

namespace engram::experience {

struct ForgettingReport {
  int64_t cold = 0;       // made cold by this pass
  int64_t warmed = 0;     // cold before, warm again
  int64_t forgotten = 0;  // deleted with a tombstone
};

// The step over one namespace at `now` (ms UTC). Errors: from SQLite (the caller rolls back).
Result<ForgettingReport> ForgetColdExperience(lifecycle::ForgetStores& stores, int64_t namespace_id, TimestampMs now,
                                              const ExperienceOptions& options, std::string_view actor);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_EXPERIENCE_FORGETTING_H_
