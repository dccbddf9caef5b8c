// The working group: a session's working memory (docs/working.md) — goal, the user's constraints
// word for word, the paths ruled out and the newest turns under a token budget; with a summary, the
// constraints it lost.
#include <fmt/format.h>

#include "api/common.h"
#include "api/groups.h"
#include "util/time.h"

namespace engram::api {
namespace {

OrderedJson ConstraintToJson(const WorkingConstraint& c) {
  OrderedJson j{{"text", c.text}, {"event_id", c.event_id}, {"session_id", c.session_id},
                {"at", FormatTimestamp(c.at)}};
  if (!c.retracted_by.empty()) {
    j["retracted_by"] = c.retracted_by;
    j["retraction"] = c.retraction;
  }
  return j;
}

OrderedJson ConstraintsToJson(const std::vector<WorkingConstraint>& list) {
  OrderedJson out = OrderedJson::array();
  for (const WorkingConstraint& c : list) out.push_back(ConstraintToJson(c));
  return out;
}

Result<Reply> RunWorking(Engine& engine, const Args& args, const CallContext&) {
  WorkingMemoryQuery q;
  q.namespace_name = args.String("namespace");
  q.session_id = args.String("session_id");
  q.budget_tokens = static_cast<int>(args.Int("budget_tokens"));
  q.summary = args.String("summary");
  auto wm = engine.Working(q);
  if (!wm) return Error(wm.error());
  OrderedJson recent = OrderedJson::array();
  for (const Event& e : wm->recent) recent.push_back(EventToJson(e));
  OrderedJson body{{"namespace", wm->namespace_name},
                   {"session_id", wm->session_id},
                   {"lineage", wm->lineage},
                   {"goal", wm->goal},
                   {"constraints", ConstraintsToJson(wm->constraints)},
                   {"retracted", ConstraintsToJson(wm->retracted)},
                   {"ruled_out", ConstraintsToJson(wm->ruled_out)},
                   {"recent", std::move(recent)},
                   {"text", wm->text},
                   {"used_tokens", wm->used_tokens},
                   {"total_tokens", wm->total_tokens},
                   {"over_budget", wm->over_budget},
                   {"missing", wm->missing}};
  return Reply{.body = std::move(body)};
}

OrderedJson ConstraintSchema() {
  return Object({{"text", StringType("the sentence, verbatim")}, {"event_id", StringType()},
                 {"session_id", StringType()}, {"at", StringType("ISO-8601 UTC")},
                 {"retracted_by", StringType("the event that took it back")},
                 {"retraction", StringType("what was said then")}},
                {"text", "event_id", "session_id", "at"});
}

}  // namespace

std::vector<Capability> WorkingCapabilities() {
  std::vector<Capability> out;
  out.push_back(
      {.name = "working_memory",
       .group = "sessions",
       .description = "A session's working memory for the agent's context: the goal, the user's constraints word "
                      "for word (never summarised away; a later retraction takes one back), the paths ruled out, "
                      "then the newest turns verbatim under budget_tokens. With summary, lists the constraints a "
                      "compaction lost (missing).",
       .params = {NamespaceParam(),
                  {.name = "session_id", .description = "the session (its ancestors' turns count too)", .required = true,
                   .max_length = kMaxIdLength, .non_blank = true},
                  {.name = "budget_tokens", .type = ParamType::kInteger, .description = "tokens of the rendered summary",
                   .minimum = 1, .maximum = 1000000, .default_value = 1000},
                  {.name = "summary", .description = "a summary to check: every constraint must be in it verbatim",
                   .max_length = 1000000}},
       .result_schema = Object({{"namespace", StringType()},
                                {"session_id", StringType()},
                                {"lineage", ArrayOf(StringType("session ids, root first"))},
                                {"goal", StringType()},
                                {"constraints", ArrayOf(ConstraintSchema())},
                                {"retracted", ArrayOf(ConstraintSchema())},
                                {"ruled_out", ArrayOf(ConstraintSchema())},
                                {"recent", ArrayOf(EventSchema())},
                                {"text", StringType("the rendered summary")},
                                {"used_tokens", IntegerType()},
                                {"total_tokens", IntegerType("tokens of every turn of the lineage")},
                                {"over_budget", BooleanType("the pinned part alone exceeds the budget")},
                                {"missing", ArrayOf(StringType("a constraint absent from summary"))}},
                               {"namespace", "session_id", "lineage", "goal", "constraints", "retracted", "ruled_out",
                                "recent", "text", "used_tokens", "total_tokens", "over_budget", "missing"}),
       .handler = RunWorking,
       .rest = {"POST", "/v1/namespaces/{namespace}/working"}});
  return out;
}

}  // namespace engram::api
