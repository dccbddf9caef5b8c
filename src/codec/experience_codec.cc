#include "codec/experience_codec.h"

#include <fmt/format.h>

#include "util/time.h"

namespace engram {
namespace {

OrderedJson Strings(const std::vector<std::string>& values) {
  OrderedJson out = OrderedJson::array();
  for (const std::string& v : values) out.push_back(v);
  return out;
}

OrderedJson IdOrNull(const std::string& id) { return id.empty() ? OrderedJson() : OrderedJson(id); }

}  // namespace

Result<EpisodeStepInput> EpisodeStepInputFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Error(Status::InvalidArgument("a step must be a JSON object"));
  EpisodeStepInput in;
  for (const auto& [key, value] : j.items()) {
    if (value.is_null()) continue;
    if (key == "changes_state") {
      if (!value.is_boolean()) return Error(Status::InvalidArgument("field \"changes_state\": must be a boolean"));
      in.changes_state = value.get<bool>();
      continue;
    }
    std::string* field = key == "action"              ? &in.action
                         : key == "reason"            ? &in.reason
                         : key == "result"            ? &in.result
                         : key == "tool_name"         ? &in.tool_name
                         : key == "evidence_event_id" ? &in.evidence_event_id
                         : key == "at"                ? &in.at
                                                      : nullptr;
    if (field == nullptr) {
      return Error(Status::InvalidArgument(fmt::format(
          "unknown field \"{}\" (known: action, reason, result, tool_name, changes_state, evidence_event_id, at)",
          key)));
    }
    if (!value.is_string()) return Error(Status::InvalidArgument(fmt::format("field \"{}\": must be a string", key)));
    *field = value.get<std::string>();
  }
  return in;
}

OrderedJson EpisodeStepToJson(const EpisodeStep& s) {
  OrderedJson j;
  j["ordinal"] = s.ordinal;
  j["action"] = s.action;
  j["reason"] = s.reason;
  j["result"] = s.result;
  j["tool_name"] = s.tool_name;
  j["changes_state"] = s.changes_state;
  j["evidence_event_id"] = IdOrNull(s.evidence_event_id);
  j["at"] = FormatTimestamp(s.at);
  return j;
}

OrderedJson EpisodeToJson(const Episode& e, bool with_steps) {
  OrderedJson j;
  j["id"] = e.id;
  j["namespace"] = e.namespace_name;
  j["goal"] = e.goal;
  j["goal_short"] = e.goal_short;
  j["task_type"] = e.task_type;
  j["task_type_source"] = e.task_type_source;
  j["task_type_confidence"] = e.task_type_confidence;
  j["status"] = e.status;
  j["outcome"] = e.outcome;
  j["reward"] = e.reward ? OrderedJson(*e.reward) : OrderedJson();
  j["outcome_source"] = e.outcome_source;
  j["feedback"] = e.feedback;
  j["agent_id"] = e.agent_id;
  j["session_id"] = e.session_id;
  j["tools_used"] = Strings(e.tools_used);
  j["write_signature"] = Strings(e.write_signature);
  j["step_count"] = e.step_count;
  j["started_at"] = FormatTimestamp(e.started_at);
  j["ended_at"] = OptionalTime(e.ended_at);
  j["boundary_confidence"] = e.boundary_confidence;
  j["origin"] = e.origin;
  j["first_event_id"] = e.first_event_id;
  j["last_event_id"] = e.last_event_id;
  if (with_steps) {
    OrderedJson steps = OrderedJson::array();
    for (const EpisodeStep& s : e.steps) steps.push_back(EpisodeStepToJson(s));
    j["steps"] = std::move(steps);
  }
  return j;
}

OrderedJson SegmentReportToJson(const SegmentReport& r) {
  OrderedJson episodes = OrderedJson::array();
  for (const Episode& e : r.episodes) episodes.push_back(EpisodeToJson(e, /*with_steps=*/false));
  OrderedJson boundaries = {{"committed_at_once", r.committed_at_once}, {"waited_committed", r.waited_committed},
                            {"waited_dropped", r.waited_dropped},       {"decided_at_close", r.decided_at_close},
                            {"waiting", r.waiting},                     {"dropped", r.dropped}};
  return {{"sessions_read", r.sessions_read}, {"sessions_skipped", r.sessions_skipped},
          {"events_read", r.events_read},     {"episodes", std::move(episodes)},
          {"boundaries", std::move(boundaries)}, {"closed_segments", r.closed_segments}};
}

OrderedJson RuleToJson(const Rule& r) {
  OrderedJson j;
  j["id"] = r.id;
  j["namespace"] = r.namespace_name;
  j["task_type"] = r.task_type;
  j["polarity"] = r.polarity;
  j["kind"] = r.kind;
  j["tools"] = Strings(r.tools);
  j["text"] = r.text;
  j["support"] = r.support;
  j["success_count"] = r.success_count;
  j["failure_count"] = r.failure_count;
  j["confidence"] = r.confidence;
  j["status"] = r.status;
  j["status_reason"] = r.status_reason;
  j["version"] = r.version;
  j["supersedes_id"] = IdOrNull(r.supersedes_id);
  j["superseded_by_id"] = IdOrNull(r.superseded_by_id);
  j["conflicts_with"] = Strings(r.conflicts_with);
  j["support_episode_ids"] = Strings(r.support_episode_ids);
  j["source"] = r.source;
  j["source_model"] = IdOrNull(r.source_model);
  j["created_at"] = FormatTimestamp(r.created_at);
  j["updated_at"] = FormatTimestamp(r.updated_at);
  return j;
}

OrderedJson RuleChangeToJson(const RuleChange& c) {
  OrderedJson j;
  j["at"] = FormatTimestamp(c.at);
  j["action"] = c.action;
  j["reason"] = c.reason;
  j["episode_id"] = IdOrNull(c.episode_id);
  return j;
}

OrderedJson RuleDetailToJson(const RuleDetail& d) {
  OrderedJson chain = OrderedJson::array(), history = OrderedJson::array();
  for (const Rule& r : d.chain) chain.push_back(RuleToJson(r));
  for (const RuleChange& c : d.history) history.push_back(RuleChangeToJson(c));
  return {{"rule", RuleToJson(d.rule)}, {"chain", std::move(chain)}, {"history", std::move(history)}};
}

OrderedJson RuleUpdateReportToJson(const RuleUpdateReport& r) {
  OrderedJson j;
  j["task_types_distilled"] = Strings(r.task_types_distilled);
  j["episodes_read"] = r.episodes_read;
  j["rules_created"] = r.rules_created;
  j["rules_superseded"] = r.rules_superseded;
  j["rules_updated"] = r.rules_updated;
  j["rules_activated"] = r.rules_activated;
  j["rules_deprecated"] = r.rules_deprecated;
  j["rules_disputed"] = r.rules_disputed;
  if (r.llm_model.empty() && r.llm_errors.empty()) return j;  // errors without a model: it could not be set up
  OrderedJson dropped = OrderedJson::object();
  for (const auto& [reason, n] : r.llm_dropped_by_reason) dropped[reason] = n;
  j["llm"] = {{"model", r.llm_model},
              {"types_asked", r.llm_types_asked},
              {"rules_proposed", r.llm_rules_proposed},
              {"rules_dropped", r.llm_rules_dropped},
              {"dropped_by_reason", std::move(dropped)},
              {"rules_known", r.llm_rules_known},
              {"rules_created", r.llm_rules_created},
              {"errors", Strings(r.llm_errors)}};
  return j;
}

OrderedJson EndEpisodeResultToJson(const EndEpisodeResult& r) {
  return {{"episode", EpisodeToJson(r.episode)}, {"rules", RuleUpdateReportToJson(r.rules)}};
}

namespace {

// An agent's recall says where each item comes from (docs/experience.md, "Sharing between agents").
template <typename Recalled>
void AddArea(OrderedJson& j, const Recalled& x) {
  if (x.area.empty()) return;
  j["area"] = x.area;
  j["source_agents"] = Strings(x.source_agents);
  j["share_weight"] = x.share_weight;
}

}  // namespace

OrderedJson ColdExperienceToJson(const ColdExperience& c) {
  return {{"type", c.object_type},
          {"id", c.id},
          {"task_type", c.task_type},
          {"text", c.text},
          {"cold_at", FormatTimestamp(c.cold_at)},
          {"access_count", c.access_count},
          {"last_accessed_at", c.last_accessed_at ? OrderedJson(FormatTimestamp(*c.last_accessed_at)) : OrderedJson()}};
}

OrderedJson ExperienceResultToJson(const ExperienceResult& r) {
  OrderedJson guesses = OrderedJson::array(), rules = OrderedJson::array(), episodes = OrderedJson::array();
  for (const TaskTypeGuess& g : r.task_type_guesses) {
    guesses.push_back({{"task_type", g.task_type}, {"probability", g.probability}});
  }
  for (const ExperienceRule& x : r.rules) {
    OrderedJson j{{"rule", RuleToJson(x.rule)}, {"score", x.score}, {"why", x.why}};
    AddArea(j, x);
    rules.push_back(std::move(j));
  }
  for (const ExperienceEpisode& x : r.episodes) {
    OrderedJson j{{"episode", EpisodeToJson(x.episode)}, {"score", x.score}, {"similarity", x.similarity},
                  {"type_match", x.type_match}, {"recency", x.recency}, {"why", x.why}};
    AddArea(j, x);
    episodes.push_back(std::move(j));
  }
  OrderedJson j;
  j["task_type"] = r.task_type.empty() ? OrderedJson() : OrderedJson(r.task_type);
  j["task_type_source"] = r.task_type_source;
  j["task_type_guesses"] = std::move(guesses);
  j["type_model"] = r.type_model;
  j["rules"] = std::move(rules);
  j["episodes"] = std::move(episodes);
  j["terms"] = Strings(r.terms);
  j["took_ms"] = r.took_ms;
  return j;
}

}  // namespace engram
