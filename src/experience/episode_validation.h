// experience/episode_validation.h — the one validation of episode input shared by every entry
// point (library, CLI, REST), as write/event_validation.h is for events. Each error is
// kInvalidArgument naming the field (`field "goal": ...`; steps are prefixed "step 3: ").
#ifndef ENGRAM_EXPERIENCE_EPISODE_VALIDATION_H_
#define ENGRAM_EXPERIENCE_EPISODE_VALIDATION_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::experience {

inline constexpr size_t kMaxEpisodeTextChars = 10'000;  // goal, action, reason, result, feedback
inline constexpr size_t kMaxStartSteps = 1'000;         // steps given with EpisodeStartInput
inline constexpr int64_t kMaxEpisodeSteps = 10'000;     // steps of one episode

// A validated step, ready to store (ordinal left 0: the store assigns it). `now` is the time of a
// step without `at`. changes_state unset: IsReadToolName decides.
Result<EpisodeStep> ValidateStep(const EpisodeStepInput& input, TimestampMs now);

// Checks the start fields (not the namespace: the Engine does) and returns the episode to store:
// goal, declared type (source "declared" when given), agent, session, started_at (default now),
// boundary confidence. Steps are validated by ValidateStep.
Result<Episode> ValidateStart(const EpisodeStartInput& input, TimestampMs now);

// Checks the end fields and returns them as an Episode's outcome fields (outcome, reward,
// outcome_source, feedback, ended_at default now; task_type as given).
Result<Episode> ValidateEnd(const EpisodeEndInput& input, TimestampMs now);

// A task type: 1–200 characters, valid UTF-8, no control characters. Errors name `field`.
Status ValidateTaskType(std::string_view field, std::string_view task_type);

// The statuses of an episode (ListEpisodesQuery::status).
inline constexpr const char* kEpisodeStatuses[] = {"open", "ended"};

// OK when `value` is one of `values` (kEpisodeOutcomes, kRuleStatuses, ...), else kInvalidArgument
// `field "F": unknown value "V" (expected one of: a, b, ...)`.
Status ValidateOneOf(std::string_view field, std::string_view value, std::span<const char* const> values);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_EPISODE_VALIDATION_H_
