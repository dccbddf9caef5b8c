// The experience group (docs/experience.md): episodes (start, step, end, retype, get, list),
// distilled rules (distill, list, get) and experience recall, on the library, the CLI and REST.
// On MCP, start/step/end and recall are the opt-in toolset "experience" (`engram mcp --toolsets
// experience`): the default tools/list is at its 6 KB budget (src/mcp/tools_test.cc).
#include <fmt/format.h>

#include "api/common.h"
#include "api/groups.h"
#include "api/page.h"
#include "codec/experience_codec.h"

namespace engram::api {
namespace {

constexpr const char* kToolset = "experience";  // McpBinding::toolset of the experience tools

constexpr int64_t kMaxTextLength = 10000;  // goal, action, reason, result, feedback (characters)

ParamSpec Text(const char* name, const char* description, int64_t max_length = kMaxTextLength) {
  return {.name = name, .description = description, .max_length = max_length};
}

ParamSpec EpisodeIdParam() { return IdParam("the episode id"); }

ParamSpec TaskTypeParam(const char* description) { return Text("task_type", description, kMaxIdLength); }

OrderedJson EpisodeSchema() {
  return Object({{"id", StringType("ULID")},
                 {"namespace", StringType()},
                 {"goal", StringType("the full text")},
                 {"goal_short", StringType("the first ≈ 50 characters")},
                 {"task_type", StringType("\"\" until known")},
                 {"task_type_source", StringType("declared, write_signature, inferred or \"\"")},
                 {"task_type_confidence", NumberType()},
                 {"status", StringType("open or ended")},
                 {"outcome", StringType("success, partial, failure or unknown")},
                 {"reward", NullableNumber("the environment's reward; null when not given")},
                 {"tools_used", ArrayOf(StringType())},
                 {"write_signature", ArrayOf(StringType("a state-changing tool"))},
                 {"step_count", IntegerType()},
                 {"started_at", StringType("ISO-8601 UTC")},
                 {"ended_at", NullableString("ISO-8601 UTC")},
                 {"steps", ArrayOf(AnyObject("a step: ordinal, action, reason, result, tool_name, changes_state"))}},
                {"id", "namespace", "goal", "task_type", "status", "outcome", "step_count", "started_at"});
}

OrderedJson RuleSchema() {
  return Object({{"id", StringType("ULID")},
                 {"task_type", StringType()},
                 {"polarity", StringType("do or avoid")},
                 {"kind", StringType("tool, omission or sequence")},
                 {"tools", ArrayOf(StringType())},
                 {"text", StringType("the rule as a sentence")},
                 {"support", IntegerType("matching episodes")},
                 {"success_count", IntegerType()},
                 {"failure_count", IntegerType()},
                 {"confidence", NumberType("Wilson lower bound, 0–1")},
                 {"status", StringType("pending, active, deprecated or disputed")},
                 {"status_reason", StringType()},
                 {"version", IntegerType()},
                 {"supersedes_id", NullableString()},
                 {"superseded_by_id", NullableString()},
                 {"source", StringType("offline (the counting distiller) or llm (proposed by a model, checked and "
                                       "counted by engram)")},
                 {"source_model", NullableString("the model of an llm rule")}},
                {"id", "task_type", "polarity", "kind", "text", "confidence", "status", "version"});
}

// Present when the LLM distiller ran (docs/experience.md, "The LLM distiller").
OrderedJson LlmReportSchema() {
  return Object({{"model", StringType()},
                 {"types_asked", IntegerType("task types sent to the model")},
                 {"rules_proposed", IntegerType("rules in its answers")},
                 {"rules_dropped", IntegerType("failed a check: never stored")},
                 {"dropped_by_reason", AnyObject("reason → count")},
                 {"rules_known", IntegerType("passed, but a live rule already prescribes it")},
                 {"rules_created", IntegerType()},
                 {"errors", ArrayOf(StringType("a failed model call: TYPE: message (the offline rules stand)"))}},
                {"model", "types_asked", "errors"});
}

OrderedJson ReportSchema() {
  return Object({{"task_types_distilled", ArrayOf(StringType())}, {"episodes_read", IntegerType()},
                 {"rules_created", IntegerType()}, {"rules_superseded", IntegerType()},
                 {"rules_updated", IntegerType()}, {"rules_activated", IntegerType()},
                 {"rules_deprecated", IntegerType()}, {"rules_disputed", IntegerType()},
                 {"llm", LlmReportSchema()}},
                {"rules_created", "rules_updated"});
}

OrderedJson EpisodeAndReportSchema() {
  return Object({{"namespace", StringType()}, {"episode", EpisodeSchema()}, {"rules", ReportSchema()}},
                {"namespace", "episode", "rules"});
}

Result<Reply> RunStart(Engine& engine, const Args& args, const CallContext&) {
  EpisodeStartInput in;
  in.namespace_name = args.String("namespace");
  in.goal = args.String("goal");
  in.task_type = args.String("task_type");
  in.agent_id = args.String("agent_id");
  in.session_id = args.String("session_id");
  in.started_at = args.String("started_at");
  if (args.Has("boundary_confidence")) in.boundary_confidence = args.Number("boundary_confidence");
  const nlohmann::json& steps = args.Raw("steps");
  for (size_t i = 0; steps.is_array() && i < steps.size(); ++i) {
    auto step = EpisodeStepInputFromJson(steps[i]);
    if (!step) return Error(step.error().WithContext(fmt::format("step {}", i + 1)));
    in.steps.push_back(std::move(*step));
  }
  auto e = engine.StartEpisode(in);
  if (!e) return Error(e.error());
  OrderedJson body = EpisodeToJson(*e);
  return Reply{.body = std::move(body), .http_status = 201};
}

Result<Reply> RunStep(Engine& engine, const Args& args, const CallContext&) {
  EpisodeStepAppend in;
  in.namespace_name = args.String("namespace");
  in.episode_id = args.String("id");
  in.step.action = args.String("action");
  in.step.reason = args.String("reason");
  in.step.result = args.String("result");
  in.step.tool_name = args.String("tool_name");
  in.step.changes_state = args.OptBool("changes_state");
  in.step.evidence_event_id = args.String("evidence_event_id");
  in.step.at = args.String("at");
  auto e = engine.AddEpisodeStep(in);
  if (!e) return Error(e.error());
  OrderedJson step = e->steps.empty() ? OrderedJson() : EpisodeStepToJson(e->steps.back());
  OrderedJson tools = OrderedJson::array(), signature = OrderedJson::array();
  for (const std::string& t : e->tools_used) tools.push_back(t);
  for (const std::string& t : e->write_signature) signature.push_back(t);
  return Reply{.body = {{"namespace", in.namespace_name}, {"episode_id", e->id}, {"step", std::move(step)},
                        {"step_count", e->step_count}, {"tools_used", std::move(tools)},
                        {"write_signature", std::move(signature)}},
               .http_status = 201};
}

Reply EpisodeAndReport(const std::string& ns, const EndEpisodeResult& r) {
  OrderedJson body = EndEpisodeResultToJson(r);
  body["namespace"] = ns;
  return Reply{.body = std::move(body)};
}

Result<Reply> RunEnd(Engine& engine, const Args& args, const CallContext&) {
  EpisodeEndInput in;
  in.namespace_name = args.String("namespace");
  in.episode_id = args.String("id");
  in.outcome = args.String("outcome");
  if (args.Has("reward")) in.reward = args.Number("reward");
  in.outcome_source = args.String("outcome_source");
  in.feedback = args.String("feedback");
  in.task_type = args.String("task_type");
  in.ended_at = args.String("ended_at");
  auto r = engine.EndEpisode(in);
  if (!r) return Error(r.error());
  return EpisodeAndReport(in.namespace_name, *r);
}

Result<Reply> RunRetype(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  auto r = engine.SetEpisodeType(ns, args.String("id"), args.String("task_type"));
  if (!r) return Error(r.error());
  return EpisodeAndReport(ns, *r);
}

Result<Reply> RunGet(Engine& engine, const Args& args, const CallContext&) {
  auto e = engine.GetEpisode(args.String("namespace"), args.String("id"));
  if (!e) return Error(e.error());
  return Reply{.body = EpisodeToJson(*e)};
}

Result<Reply> RunList(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  std::vector<Episode> page;
  auto next = FetchPage(
      args, page,
      [&](int limit, int64_t after) {
        return engine.ListEpisodes({.namespace_name = ns, .task_type = args.String("task_type"),
                                    .outcome = args.String("outcome"), .status = args.String("status"),
                                    .agent_id = args.String("agent_id"), .limit = limit, .after_seq = after});
      },
      [](const Episode& e) { return e.seq; });
  if (!next) return Error(next.error());
  OrderedJson items = OrderedJson::array();
  for (const Episode& e : page) items.push_back(EpisodeToJson(e, /*with_steps=*/false));
  return Reply{.body = {{"namespace", ns}, {"items", std::move(items)}, {"next_cursor", std::move(*next)}}};
}

Result<Reply> RunSegment(Engine& engine, const Args& args, const CallContext&) {
  SegmentRequest in{.namespace_name = args.String("namespace"), .session_id = args.String("session_id"),
                    .close = args.Bool("close")};
  auto now = args.Time("now");
  if (!now) return Error(now.error());
  in.now = *now;
  auto r = engine.SegmentEpisodes(in);
  if (!r) return Error(r.error());
  OrderedJson body = SegmentReportToJson(*r);
  body["namespace"] = in.namespace_name;
  return Reply{.body = std::move(body)};
}

Result<Reply> RunDistill(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  auto r = engine.Distill({.namespace_name = ns, .task_type = args.String("task_type")});
  if (!r) return Error(r.error());
  OrderedJson body = RuleUpdateReportToJson(*r);
  body["namespace"] = ns;
  return Reply{.body = std::move(body)};
}

Result<Reply> RunListRules(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  std::vector<Rule> page;
  auto next = FetchPage(
      args, page,
      [&](int limit, int64_t after) {
        return engine.ListRules({.namespace_name = ns, .task_type = args.String("task_type"),
                                 .status = args.String("status"), .include_deprecated = args.Bool("include_deprecated"),
                                 .limit = limit, .after_seq = after});
      },
      [](const Rule& r) { return r.seq; });
  if (!next) return Error(next.error());
  OrderedJson items = OrderedJson::array();
  for (const Rule& r : page) items.push_back(RuleToJson(r));
  return Reply{.body = {{"namespace", ns}, {"items", std::move(items)}, {"next_cursor", std::move(*next)}}};
}

Result<Reply> RunGetRule(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  auto d = engine.GetRule(ns, args.String("id"));
  if (!d) return Error(d.error());
  OrderedJson body = RuleDetailToJson(*d);
  body["namespace"] = ns;
  return Reply{.body = std::move(body)};
}

Result<Reply> RunRecall(Engine& engine, const Args& args, const CallContext&) {
  ExperienceQuery q;
  q.namespace_name = args.String("namespace");
  q.text = args.String("text");
  q.task_type = args.String("task_type");
  q.rule_limit = static_cast<int>(args.Int("rule_limit"));
  q.episode_limit = static_cast<int>(args.Int("episode_limit"));
  q.exclude_episode_ids = args.Strings("exclude_episode_ids");
  if (args.Has("agent")) q.agent_id = args.String("agent");
  auto now = args.Time("now");
  if (!now) return Error(now.error());
  q.now = *now;
  auto r = engine.RecallExperience(q);
  if (!r) return Error(r.error());
  OrderedJson body = ExperienceResultToJson(*r);
  body["namespace"] = q.namespace_name;
  return Reply{.body = std::move(body)};
}

Result<Reply> RunListCold(Engine& engine, const Args& args, const CallContext&) {
  const std::string ns = args.String("namespace");
  auto cold = engine.ListColdExperience(ns, static_cast<int>(args.Int("limit")));
  if (!cold) return Error(cold.error());
  OrderedJson items = OrderedJson::array();
  for (const ColdExperience& c : *cold) items.push_back(ColdExperienceToJson(c));
  return Reply{.body = {{"namespace", ns}, {"items", std::move(items)}}};
}

}  // namespace

std::vector<Capability> ExperienceCapabilities() {
  std::vector<Capability> out;
  out.push_back(
      {.name = "start_episode",
       .group = "experience",
       .description = "Start an episode: one task you are doing (goal, optional task type, agent and session, and "
                      "optionally the steps done so far). Add steps as you go and end it with its outcome.",
       .access = Access::kWrite,
       .params = {NamespaceParam(),
                  {.name = "goal", .description = "the task in a sentence (the full text is kept)", .required = true,
                   .max_length = kMaxTextLength, .non_blank = true},
                  TaskTypeParam("the task type when known (e.g. refund, or tools joined by +)"),
                  Text("agent_id", "the agent doing it", kMaxIdLength),
                  Text("session_id", "the session it happens in", kMaxIdLength),
                  {.name = "started_at", .type = ParamType::kTimestamp, .description = "when it started (default now)"},
                  {.name = "boundary_confidence", .type = ParamType::kNumber,
                   .description = "0–1: how sure the start is a task boundary (default 1)"},
                  {.name = "steps", .type = ParamType::kArray,
                   .description = "steps already done: [{action, reason?, result?, tool_name?, changes_state?, "
                                  "evidence_event_id?, at?}]",
                   .max_length = 1000}},
       .result_schema = EpisodeSchema(),
       .handler = RunStart,
       .rest = {"POST", "/v1/namespaces/{namespace}/episodes"},
       .mcp = {.tool = "memory_episode_start",
               .title = "Start an episode",
               .description = "Start recording a task you are doing (its goal). Add steps, then end it with its outcome.",
               .annotations = {.read_only = false, .destructive = false, .idempotent = false, .open_world = false},
               .params = {"goal", "task_type", "session_id", "agent_id"},
               .toolset = kToolset}});
  out.push_back(
      {.name = "add_episode_step",
       .group = "experience",
       .description = "Append a step to an open episode: what was done, why, what came back, the tool and whether it "
                      "changed state (guessed from the tool name when not given).",
       .access = Access::kWrite,
       .params = {NamespaceParam(), EpisodeIdParam(),
                  {.name = "action", .description = "what was done", .required = true, .max_length = kMaxTextLength,
                   .non_blank = true},
                  Text("reason", "why"), Text("result", "what came back (summarise big results)"),
                  Text("tool_name", "the tool called", kMaxIdLength),
                  {.name = "changes_state", .type = ParamType::kBoolean,
                   .description = "the step changed the world (default: guessed from the tool name)"},
                  Text("evidence_event_id", "the event this step was read from", kMaxIdLength),
                  {.name = "at", .type = ParamType::kTimestamp, .description = "when (default now)"}},
       .result_schema = Object({{"namespace", StringType()}, {"episode_id", StringType()},
                                {"step", AnyObject("the step stored")}, {"step_count", IntegerType()},
                                {"tools_used", ArrayOf(StringType())}, {"write_signature", ArrayOf(StringType())}},
                               {"namespace", "episode_id", "step", "step_count"}),
       .handler = RunStep,
       .rest = {"POST", "/v1/namespaces/{namespace}/episodes/{id}/steps"},
       .mcp = {.tool = "memory_episode_step",
               .title = "Record a step",
               .description = "Record a step of an open episode: what you did, the tool, what came back.",
               .annotations = {.read_only = false, .destructive = false, .idempotent = false, .open_world = false},
               .params = {"id", "action", "tool_name", "result", "reason"},
               .toolset = kToolset}});
  out.push_back(
      {.name = "end_episode",
       .group = "experience",
       .description = "End an open episode with its outcome. Its task type becomes the declared one, else its write "
                      "signature, else a guess from the goal; a success or failure updates the rules of its type.",
       .access = Access::kWrite,
       .params = {NamespaceParam(), EpisodeIdParam(),
                  {.name = "outcome", .description = "how it ended", .required = true,
                   .enum_values = {"success", "partial", "failure", "unknown"}},
                  {.name = "reward", .type = ParamType::kNumber, .description = "the environment's reward"},
                  {.name = "outcome_source", .description = "who judged the outcome",
                   .enum_values = {"env", "user_feedback", "self_judge", "heuristic"}},
                  Text("feedback", "the user's words about it"),
                  TaskTypeParam("declare (or correct) the task type now"),
                  {.name = "ended_at", .type = ParamType::kTimestamp, .description = "when it ended (default now)"}},
       .result_schema = EpisodeAndReportSchema(),
       .handler = RunEnd,
       .rest = {"POST", "/v1/namespaces/{namespace}/episodes/{id}/end"},
       .mcp = {.tool = "memory_episode_end",
               .title = "End an episode",
               .description = "End an open episode with its outcome; successes and failures teach the rules of its type.",
               .annotations = {.read_only = false, .destructive = false, .idempotent = false, .open_world = false},
               .params = {"id", "outcome", "feedback"},
               .toolset = kToolset}});
  out.push_back({.name = "set_episode_type",
                 .group = "experience",
                 .description = "Correct an episode's task type (it becomes declared); its support moves to the "
                                "rules of the new type.",
                 .access = Access::kWrite,
                 .params = {NamespaceParam(), EpisodeIdParam(),
                            {.name = "task_type", .description = "the right task type", .required = true,
                             .max_length = kMaxIdLength, .non_blank = true}},
                 .result_schema = EpisodeAndReportSchema(),
                 .handler = RunRetype,
                 .rest = {"POST", "/v1/namespaces/{namespace}/episodes/{id}/type"}});
  out.push_back({.name = "get_episode",
                 .group = "experience",
                 .description = "An episode with its steps.",
                 .params = {NamespaceParam(), EpisodeIdParam()},
                 .result_schema = EpisodeSchema(),
                 .handler = RunGet,
                 .rest = {"GET", "/v1/namespaces/{namespace}/episodes/{id}"}});
  ParamSpec outcome{.name = "outcome", .description = "only episodes with this outcome",
                    .enum_values = {"success", "partial", "failure", "unknown"}, .in = ParamIn::kQuery};
  ParamSpec status{.name = "status", .description = "open or ended", .enum_values = {"open", "ended"},
                   .in = ParamIn::kQuery};
  ParamSpec task_type = TaskTypeParam("only this task type");
  task_type.in = ParamIn::kQuery;
  ParamSpec agent = Text("agent_id", "only this agent's", kMaxIdLength);
  agent.in = ParamIn::kQuery;
  out.push_back({.name = "list_episodes",
                 .group = "experience",
                 .description = "The namespace's episodes, newest first, without their steps, a page at a time.",
                 .params = {NamespaceParam(), task_type, outcome, status, agent, LimitParam(20, 1000), CursorParam()},
                 .result_schema = PageSchema(EpisodeSchema(), /*namespaced=*/true),
                 .handler = RunList,
                 .rest = {"GET", "/v1/namespaces/{namespace}/episodes"}});
  out.push_back(
      {.name = "segment_episodes",
       .group = "experience",
       .description = "Form episodes from the event stream of one session (or every session of the namespace): "
                      "boundaries from closing signals (thanks, bye, 谢谢), a terminal state-changing tool call, a "
                      "new request and the topic shift, committed at confidence 0.8; a weaker boundary waits for "
                      "more events or the session's end. Sessions with explicit episodes are skipped; idempotent.",
       .access = Access::kWrite,
       .params = {NamespaceParam(), Text("session_id", "only this session (default every session)", kMaxIdLength),
                  {.name = "close", .type = ParamType::kBoolean,
                   .description = "the sessions are over: decide what waits and commit the last segment",
                   .default_value = false},
                  {.name = "now", .type = ParamType::kTimestamp, .description = "the clock of idleness (default now)"}},
       .result_schema = Object({{"namespace", StringType()},
                                {"sessions_read", IntegerType()},
                                {"sessions_skipped", IntegerType("sessions with explicit episodes")},
                                {"events_read", IntegerType()},
                                {"episodes", ArrayOf(EpisodeSchema())},
                                {"boundaries", AnyObject("committed_at_once, waited_committed, waited_dropped, "
                                                         "decided_at_close, waiting, dropped")},
                                {"closed_segments", IntegerType()}},
                               {"namespace", "episodes", "boundaries"}),
       .handler = RunSegment,
       .rest = {"POST", "/v1/namespaces/{namespace}/episodes:segment"}});
  out.push_back({.name = "distill_rules",
                 .group = "experience",
                 .description = "Distil rules now from the recent successes and failures of one task type (or every "
                                "type): steps common to successes become do rules, steps of failures that successes "
                                "avoid become avoid rules. Also runs by itself every 10 episodes of a type.",
                 .access = Access::kWrite,
                 .params = {NamespaceParam(), TaskTypeParam("only this task type (default every type)")},
                 .result_schema = ReportSchema(),
                 .handler = RunDistill,
                 .rest = {"POST", "/v1/namespaces/{namespace}/rules:distill"}});
  ParamSpec rule_status{.name = "status", .description = "only rules with this status",
                        .enum_values = {"pending", "active", "deprecated", "disputed"}, .in = ParamIn::kQuery};
  out.push_back({.name = "list_rules",
                 .group = "experience",
                 .description = "The namespace's distilled rules, oldest first, a page at a time (deprecated ones "
                                "only when asked).",
                 .params = {NamespaceParam(), task_type, rule_status,
                            {.name = "include_deprecated", .type = ParamType::kBoolean,
                             .description = "also deprecated rules", .default_value = false, .in = ParamIn::kQuery},
                            LimitParam(50, 1000), CursorParam()},
                 .result_schema = PageSchema(RuleSchema(), /*namespaced=*/true),
                 .handler = RunListRules,
                 .rest = {"GET", "/v1/namespaces/{namespace}/rules"}});
  out.push_back({.name = "get_rule",
                 .group = "experience",
                 .description = "A rule with its version chain, history and matching episodes.",
                 .params = {NamespaceParam(), IdParam("the rule id")},
                 .result_schema = Object({{"namespace", StringType()}, {"rule", RuleSchema()},
                                          {"chain", ArrayOf(RuleSchema())},
                                          {"history", ArrayOf(AnyObject("a change: at, action, reason, episode_id"))}},
                                         {"namespace", "rule", "chain", "history"}),
                 .handler = RunGetRule,
                 .rest = {"GET", "/v1/namespaces/{namespace}/rules/{id}"}});
  out.push_back(
      {.name = "recall_experience",
       .group = "experience",
       .description = "Before a task: what engram learnt doing tasks like it. Its task type (given or inferred from "
                      "the text), the best rules of that type, then similar successful episodes with their key "
                      "decisions, each with why it was chosen. Failed episodes come back as avoid rules only.",
       .params = {NamespaceParam(),
                  {.name = "text", .description = "the task, as you see it", .required = true,
                   .max_length = kMaxQueryLength, .non_blank = true},
                  TaskTypeParam("the task type when known (default: inferred from the text)"),
                  {.name = "rule_limit", .type = ParamType::kInteger, .description = "rules to return, 0–20",
                   .minimum = 0, .maximum = 20, .default_value = 3},
                  {.name = "episode_limit", .type = ParamType::kInteger, .description = "episodes to return, 0–50",
                   .minimum = 0, .maximum = 50, .default_value = 5},
                  {.name = "exclude_episode_ids", .type = ParamType::kStringArray,
                   .description = "episodes neither returned nor learnt from (e.g. the current one)",
                   .max_length = 1000},
                  {.name = "now", .type = ParamType::kTimestamp, .description = "the clock of recency (default now)"},
                  {.name = "agent", .description = "the agent asking: its own experience and the shared area only "
                                                   "(default: the whole namespace)",
                   .max_length = kMaxIdLength, .non_blank = true}},
       .result_schema = Object({{"namespace", StringType()},
                                {"task_type", NullableString("the given or most probable type")},
                                {"task_type_source", StringType("given, inferred or none")},
                                {"task_type_guesses", ArrayOf(AnyObject("{task_type, probability}"))},
                                {"rules", ArrayOf(AnyObject("{rule, score, why; with an agent: area (own or shared), "
                                                            "source_agents, share_weight}"))},
                                {"episodes", ArrayOf(AnyObject("{episode, score, similarity, type_match, recency, why; "
                                                               "with an agent: area, source_agents, share_weight}"))},
                                {"terms", ArrayOf(StringType())},
                                {"took_ms", NumberType()}},
                               {"namespace", "task_type_source", "rules", "episodes"}),
       .handler = RunRecall,
       .rest = {"POST", "/v1/namespaces/{namespace}/experience/recall"},
       .mcp = {.tool = "memory_experience",
               .title = "Recall experience",
               .description = "Before a task: rules learnt from tasks like it, then similar successful episodes.",
               .annotations = {.read_only = true, .destructive = false, .idempotent = true, .open_world = false},
               .params = {"text", "task_type", "agent"},
               .toolset = kToolset}});
  out.push_back({.name = "list_cold_experience",
                 .group = "experience",
                 .description = "Cold episodes and rules: their forget score fell below the cold threshold, so "
                                "experience recall leaves them out; a later maintenance pass deletes them.",
                 .params = {NamespaceParam(), LimitParam(100, 1000)},
                 .result_schema = Object({{"namespace", StringType()},
                                          {"items", ArrayOf(AnyObject("{type (episode or rule), id, task_type, text, "
                                                                      "cold_at, access_count, last_accessed_at}"))}},
                                         {"namespace", "items"}),
                 .handler = RunListCold,
                 .rest = {"GET", "/v1/namespaces/{namespace}/experience/cold"}});
  return out;
}

}  // namespace engram::api
