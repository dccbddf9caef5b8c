// codec/experience_codec.h — the JSON shapes of experience memory (docs/experience.md): episodes,
// steps, rules, rule reports and the experience recall packet, shared by the CLI and REST, and the
// reader of a step object. Times are ISO-8601 UTC strings (null when unset), as codec/json_codec.h.
#ifndef ENGRAM_CODEC_EXPERIENCE_CODEC_H_
#define ENGRAM_CODEC_EXPERIENCE_CODEC_H_

#include <nlohmann/json.hpp>

#include "codec/json_codec.h"
#include "engram/status.h"
#include "engram/types.h"

namespace engram {

// Reads one step: {"action", "reason"?, "result"?, "tool_name"?, "changes_state"? (boolean),
// "evidence_event_id"?, "at"?}. Unknown fields and fields of the wrong JSON type are errors naming
// the field. Values are validated by the Engine.
Result<EpisodeStepInput> EpisodeStepInputFromJson(const nlohmann::json& j);

OrderedJson EpisodeStepToJson(const EpisodeStep& s);
// {"id", "namespace", "goal", "goal_short", "task_type", "task_type_source", "task_type_confidence",
// "status", "outcome", "reward", "outcome_source", "feedback", "agent_id", "session_id",
// "tools_used", "write_signature", "step_count", "started_at", "ended_at", "boundary_confidence",
// "origin", "first_event_id", "last_event_id", "steps" (with_steps only)}.
OrderedJson EpisodeToJson(const Episode& e, bool with_steps = true);
// {"sessions_read", "sessions_skipped", "events_read", "episodes": [episode without steps...],
// "boundaries": {"committed_at_once", "waited_committed", "waited_dropped", "decided_at_close",
// "waiting", "dropped"}, "closed_segments"}
OrderedJson SegmentReportToJson(const SegmentReport& r);
OrderedJson RuleToJson(const Rule& r);
OrderedJson RuleChangeToJson(const RuleChange& c);
// {"rule", "chain": [rule...], "history": [change...]}
OrderedJson RuleDetailToJson(const RuleDetail& d);
OrderedJson RuleUpdateReportToJson(const RuleUpdateReport& r);
// {"episode", "rules": report}
OrderedJson EndEpisodeResultToJson(const EndEpisodeResult& r);
// {"task_type", "task_type_source", "task_type_guesses", "type_model", "rules": [{"rule", "score", "why"}],
// "episodes": [{"episode", "score", "similarity", "type_match", "recency", "why"}], "terms", "took_ms"}
OrderedJson ExperienceResultToJson(const ExperienceResult& r);
// {type, id, task_type, text, cold_at, access_count, last_accessed_at (null when never)}.
OrderedJson ColdExperienceToJson(const ColdExperience& c);

}  // namespace engram

#endif  // ENGRAM_CODEC_EXPERIENCE_CODEC_H_
