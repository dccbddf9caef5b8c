#include "experience/episode_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "experience/write_signature.h"
#include "util/time.h"
#include "util/utf8.h"
#include "write/event_validation.h"

namespace engram::experience {
namespace {

// Free text: valid UTF-8, at most kMaxEpisodeTextChars characters, no NUL; blank only when optional.
Status ValidateText(std::string_view field, std::string_view value, bool required) {
  size_t bad = 0;
  if (!IsValidUtf8(value, &bad)) {
    return Status::InvalidArgument(fmt::format("field \"{}\": not valid UTF-8 (byte {})", field, bad));
  }
  if (required && IsBlank(value)) return Status::InvalidArgument(fmt::format("field \"{}\": is required", field));
  if (value.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument(fmt::format("field \"{}\": contains a NUL byte", field));
  }
  if (CodePointCount(value) > kMaxEpisodeTextChars) {
    return Status::InvalidArgument(
        fmt::format("field \"{}\": longer than {} characters", field, kMaxEpisodeTextChars));
  }
  return Status::Ok();
}

Result<TimestampMs> TimeOr(std::string_view field, const std::string& value, TimestampMs now) {
  if (value.empty()) return now;
  auto t = ParseTimestamp(value);
  if (!t) return Error(t.error().WithContext(fmt::format("field \"{}\"", field)));
  return *t;
}

}  // namespace

Status ValidateOneOf(std::string_view field, std::string_view value, std::span<const char* const> values) {
  if (std::find(values.begin(), values.end(), value) != values.end()) return Status::Ok();
  std::string list;
  for (const char* v : values) list += (list.empty() ? "" : ", ") + std::string(v);
  return Status::InvalidArgument(
      fmt::format("field \"{}\": unknown value \"{}\" (expected one of: {})", field, value, list));
}

Status ValidateTaskType(std::string_view field, std::string_view task_type) {
  return ValidateNameField(field, task_type, /*required=*/true);
}

Result<EpisodeStep> ValidateStep(const EpisodeStepInput& in, TimestampMs now) {
  ENGRAM_RETURN_IF_ERROR(ValidateText("action", in.action, true));
  ENGRAM_RETURN_IF_ERROR(ValidateText("reason", in.reason, false));
  ENGRAM_RETURN_IF_ERROR(ValidateText("result", in.result, false));
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("tool_name", in.tool_name, false));
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("evidence_event_id", in.evidence_event_id, false));
  auto at = TimeOr("at", in.at, now);
  if (!at) return Error(at.error());
  EpisodeStep step;
  step.action = in.action;
  step.reason = in.reason;
  step.result = in.result;
  step.tool_name = in.tool_name;
  step.changes_state = in.changes_state.value_or(!in.tool_name.empty() && !IsReadToolName(in.tool_name));
  step.evidence_event_id = in.evidence_event_id;
  step.at = *at;
  return step;
}

Result<Episode> ValidateStart(const EpisodeStartInput& in, TimestampMs now) {
  ENGRAM_RETURN_IF_ERROR(ValidateText("goal", in.goal, true));
  if (!in.task_type.empty()) ENGRAM_RETURN_IF_ERROR(ValidateTaskType("task_type", in.task_type));
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("agent_id", in.agent_id, false));
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("session_id", in.session_id, false));
  if (!std::isfinite(in.boundary_confidence) || in.boundary_confidence < 0 || in.boundary_confidence > 1) {
    return Error(Status::InvalidArgument("field \"boundary_confidence\": must be between 0 and 1"));
  }
  if (in.steps.size() > kMaxStartSteps) {
    return Error(Status::InvalidArgument(fmt::format("field \"steps\": more than {} steps", kMaxStartSteps)));
  }
  auto started = TimeOr("started_at", in.started_at, now);
  if (!started) return Error(started.error());
  Episode e;
  e.goal = in.goal;
  e.goal_short = in.goal;
  e.task_type = in.task_type;
  e.task_type_source = in.task_type.empty() ? "" : "declared";
  e.task_type_confidence = in.task_type.empty() ? 0.0 : 1.0;
  e.agent_id = in.agent_id;
  e.session_id = in.session_id;
  e.started_at = *started;
  e.boundary_confidence = in.boundary_confidence;
  e.status = "open";
  e.outcome = "unknown";
  return e;
}

Result<Episode> ValidateEnd(const EpisodeEndInput& in, TimestampMs now) {
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("episode_id", in.episode_id, true));
  if (in.outcome.empty()) return Error(Status::InvalidArgument("field \"outcome\": is required"));
  ENGRAM_RETURN_IF_ERROR(ValidateOneOf("outcome", in.outcome, kEpisodeOutcomes));
  if (!in.outcome_source.empty()) {
    ENGRAM_RETURN_IF_ERROR(ValidateOneOf("outcome_source", in.outcome_source, kOutcomeSources));
  }
  if (in.reward && !std::isfinite(*in.reward)) {
    return Error(Status::InvalidArgument("field \"reward\": must be a finite number"));
  }
  ENGRAM_RETURN_IF_ERROR(ValidateText("feedback", in.feedback, false));
  if (!in.task_type.empty()) ENGRAM_RETURN_IF_ERROR(ValidateTaskType("task_type", in.task_type));
  auto ended = TimeOr("ended_at", in.ended_at, now);
  if (!ended) return Error(ended.error());
  Episode e;
  e.outcome = in.outcome;
  e.reward = in.reward;
  e.outcome_source = in.outcome_source;
  e.feedback = in.feedback;
  e.task_type = in.task_type;
  e.ended_at = *ended;
  return e;
}

}  // namespace engram::experience
