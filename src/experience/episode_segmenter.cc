#include "experience/episode_segmenter.h"

#include <nlohmann/json.hpp>

#include "experience/episode_validation.h"
#include "experience/write_signature.h"
#include "util/utf8.h"

namespace engram::experience {
namespace {

// What a step keeps of a tool's result: as much as experience recall shows of a key decision.
constexpr size_t kStepResultChars = 300;

// j[key] when it is a string, else "".
std::string StringField(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool HasUserTurn(const std::vector<StreamEvent>& events, size_t from, size_t to) {
  for (size_t k = from; k < to; ++k) {
    if (events[k].role == "user" && !IsBlank(events[k].text)) return true;
  }
  return false;
}

// The decision for one candidate, given its evidence.
BoundaryDecision Decide(size_t candidate, const BoundaryEvidence& evidence, bool closed) {
  BoundaryDecision d{.candidate = candidate, .evidence = evidence};
  const double sure = evidence.Confidence() - kTopicShiftWeight * evidence.topic_shift.value_or(0.0);
  d.waited = !ReachesCommit(sure) && ReachesCommit(sure + kTopicShiftWeight);
  d.at_close = d.waited && closed && !evidence.window_full;
  if (ReachesCommit(evidence.Confidence())) {
    d.decision = "committed";
  } else if (!ReachesCommit(evidence.MaxConfidence())) {
    d.decision = "dropped";
  } else {
    d.decision = "waiting";
  }
  return d;
}

}  // namespace

EpisodeStep ToolCallStep(const StreamEvent& e) {
  EpisodeStep s;
  s.action = e.tool_name.empty() ? e.text : e.tool_name + "(" + e.tool_args + ")";
  s.action = TruncateCodePoints(s.action, kMaxEpisodeTextChars);
  s.result = TruncateCodePoints(e.tool_result, kStepResultChars);
  s.tool_name = TruncateCodePoints(e.tool_name, 200);
  s.changes_state = e.changes_state;
  s.evidence_event_id = e.event_id;
  s.at = e.at;
  return s;
}

namespace {

std::vector<EpisodeStep> StepsOf(const std::vector<StreamEvent>& events, const PlannedSegment& segment) {
  std::vector<EpisodeStep> steps;
  for (size_t k = segment.begin; k < segment.end && steps.size() < kMaxStartSteps; ++k) {
    if (events[k].role == "tool") steps.push_back(ToolCallStep(events[k]));
  }
  const bool has_tools = !steps.empty();
  // No tool was called: what the assistant did is what it said.
  for (size_t k = segment.begin; k < segment.end && !has_tools && steps.size() < kMaxStartSteps; ++k) {
    const StreamEvent& e = events[k];
    if (e.role != "assistant" || IsBlank(e.text)) continue;
    steps.push_back({.action = TruncateCodePoints(e.text, kStepResultChars), .evidence_event_id = e.event_id, .at = e.at});
  }
  for (size_t i = 0; i < steps.size(); ++i) steps[i].ordinal = static_cast<int>(i + 1);
  return steps;
}

// Outcome from the evidence: the last tool call failed, or the user's last turn closed with thanks.
void SetOutcome(const std::vector<StreamEvent>& events, const PlannedSegment& segment, EpisodeDraft* draft) {
  draft->outcome = "unknown";
  const StreamEvent* last_tool = nullptr;
  const StreamEvent* last_user = nullptr;
  for (size_t k = segment.begin; k < segment.end; ++k) {
    if (events[k].role == "tool") last_tool = &events[k];
    if (events[k].role == "user") last_user = &events[k];
  }
  if (last_tool != nullptr && last_tool->failed) {
    draft->outcome = "failure";
    draft->outcome_source = "heuristic";
  } else if (last_user != nullptr && BoundaryDetector::ClosingStrength(last_user->text) >= 1.0) {
    draft->outcome = "success";
    draft->outcome_source = "user_feedback";
    draft->feedback = TruncateCodePoints(last_user->text, kMaxEpisodeTextChars);
  }
}

}  // namespace

SegmentPlan PlanSegments(BoundaryDetector& detector, const std::vector<StreamEvent>& events, bool closed) {
  SegmentPlan plan;
  size_t begin = 0;
  bool waiting = false;
  for (size_t j = 0; j < events.size() && !waiting; ++j) {
    if (events[j].role != "user" || !HasUserTurn(events, begin, j)) continue;
    BoundaryDecision d = Decide(j, detector.Score(events, begin, j, closed), closed);
    if (d.decision == "committed") {
      plan.segments.push_back({.begin = begin, .end = j, .end_confidence = d.evidence.Confidence()});
      begin = j;
    }
    waiting = d.decision == "waiting";
    plan.decisions.push_back(std::move(d));
  }
  if (closed && !waiting && HasUserTurn(events, begin, events.size())) {
    plan.segments.push_back({.begin = begin, .end = events.size(), .end_confidence = 1.0, .by_close = true});
    begin = events.size();
  }
  plan.open_begin = begin;
  return plan;
}

std::optional<EpisodeDraft> DraftEpisode(const std::vector<StreamEvent>& events, const PlannedSegment& segment) {
  if (segment.begin >= segment.end || segment.end > events.size()) return std::nullopt;
  EpisodeDraft draft;
  for (size_t k = segment.begin; k < segment.end && draft.goal.empty(); ++k) {
    if (events[k].role == "user" && !IsBlank(events[k].text)) {
      draft.goal = TruncateCodePoints(events[k].text, kMaxEpisodeTextChars);
    }
  }
  if (draft.goal.empty()) return std::nullopt;
  draft.steps = StepsOf(events, segment);
  SetOutcome(events, segment, &draft);
  draft.started_at = events[segment.begin].at;
  draft.ended_at = events[segment.end - 1].at;
  draft.first_event_id = events[segment.begin].event_id;
  draft.last_event_id = events[segment.end - 1].event_id;
  draft.boundary_confidence = segment.end_confidence;
  return draft;
}

StreamEvent StreamEventOf(const Event& event) {
  StreamEvent s{.event_id = event.id, .role = event.role, .text = event.content, .tool_name = event.tool_name,
                .at = event.occurred_at};
  if (event.role != "tool") return s;
  s.changes_state = !event.tool_name.empty() && !IsReadToolName(event.tool_name);
  s.tool_result = event.content;
  const nlohmann::json meta = nlohmann::json::parse(event.metadata_json, nullptr, false);
  if (!meta.is_object()) return s;
  const auto capture = meta.find("capture");
  if (capture != meta.end() && capture->is_object()) {
    const std::string outcome = StringField(*capture, "outcome");
    const std::string detail = StringField(*capture, outcome == "ok" ? "result_preview" : "error_message");
    s.tool_args = StringField(*capture, "args_summary");
    s.failed = !outcome.empty() && outcome != "ok";
    s.tool_result = detail.empty() ? outcome : outcome + ": " + detail;
    return s;
  }
  const auto is_error = meta.find("is_error");
  s.failed = is_error != meta.end() && is_error->is_boolean() && is_error->get<bool>();
  return s;
}

}  // namespace engram::experience
