// tests/experience_llm_test.cc — the LLM distiller through the Engine (docs/experience.md, "The
// LLM distiller"), against a local stand-in chat server: what a model proposes becomes rules only
// through the checks and the lifecycle of the offline rules, with support counted by engram; a
// failed, slow or malformed call leaves the offline rules standing and is asked again next pass.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "episode_runner.h"
#include "scripted_http_server.h"
#include "test_util.h"

namespace engram {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using test::ScriptedHttpServer;
using test::ScriptedReply;
using test::RulesOf;
using test::RunEpisode;
using test::TempDir;

ScriptedReply Answer(const json& content) {
  return test::ChatCompletionReply(content.is_string() ? content.get<std::string>() : content.dump());
}

json RuleJson(const std::string& kind, const std::vector<std::string>& tools, const std::vector<std::string>& ids,
              bool omission = false, const std::string& action = "do as the episodes did") {
  return {{"situation", "a customer asks for it"}, {"action", action}, {"kind", kind}, {"tools", tools},
          {"omission", omission},                  {"episode_ids", ids}};
}

// An engine whose distiller is "llm" against `server` (timeout 300 ms per attempt, 1 retry).
Result<std::unique_ptr<Engine>> OpenWithModel(const TempDir& dir, const ScriptedHttpServer& server,
                                              int distill_every = 1000) {
  setenv("ENGRAM_LLM_BASE_URL", server.base_url().c_str(), 1);
  setenv("ENGRAM_LLM_MODEL", "test-model", 1);
  unsetenv("ENGRAM_DISTILLER");
  Options options;
  options.db_path = dir.File("m.db");
  options.experience.distiller = "llm";
  options.experience.distiller_timeout_ms = 300;
  options.experience.distiller_max_retries = 1;
  options.experience.distill_every = distill_every;
  return Engine::Open(options);
}

std::vector<Rule> OfSource(const std::vector<Rule>& rules, const std::string& source) {
  std::vector<Rule> out;
  for (const Rule& r : rules) {
    if (r.source == source) out.push_back(r);
  }
  return out;
}

// Three successes that look the order up before refunding, three failures that refund at once (the
// second also cancels). Returns the ids: S1 S2 S3 F1 F2 F3.
std::vector<std::string> RefundEpisodes(Engine& engine, std::vector<EndEpisodeResult>* ends = nullptr) {
  std::vector<std::string> ids;
  const std::vector<std::pair<std::vector<std::string>, bool>> runs = {
      {{"lookup_order", "refund_order"}, true}, {{"lookup_order", "refund_order"}, true},
      {{"lookup_order", "refund_order"}, true}, {{"refund_order"}, false},
      {{"refund_order", "cancel_order"}, false}, {{"refund_order"}, false}};
  for (const auto& [tools, success] : runs) {
    EndEpisodeResult r = RunEpisode(engine, "refund", tools, success);
    ids.push_back(r.episode.id);
    if (ends != nullptr) ends->push_back(r);
  }
  return ids;
}

// The offline distiller alone makes two rules of these episodes: call lookup_order then
// refund_order; avoid finishing without lookup_order.
void ExpectOfflineRules(const std::vector<Rule>& rules) {
  std::vector<Rule> offline = OfSource(rules, "offline");
  ASSERT_EQ(offline.size(), 2u);
  EXPECT_EQ(offline[0].kind, "sequence");
  EXPECT_EQ(offline[1].kind, "omission");
}

TEST(LlmDistillerTest, AValidReplyAtEpisodeEndBecomesRulesCountedByEngram) {
  TempDir dir;
  // The model cites two successes for "look the order up" and claims a support of 99.
  json reply;
  ScriptedHttpServer server([&](const test::RecordedRequest&) { return Answer(reply); });
  ASSERT_OK_AND_ASSIGN(auto engine, OpenWithModel(dir, server, /*distill_every=*/6));
  std::vector<EndEpisodeResult> ends;
  // The ids are known only as the episodes run: the reply is written before the sixth ends, with
  // the references of the prompt (newest first, alternating: E1 = S3, E2 = F3, E3 = S2, E4 = F2).
  reply = {{"rules",
            {RuleJson("do", {"lookup_order"}, {"E1", "E3"}), RuleJson("avoid", {"cancel_order"}, {"E4"})}}};
  reply["rules"][0]["support"] = 99;
  reply["rules"][0]["confidence"] = 0.99;
  std::vector<std::string> ids = RefundEpisodes(*engine, &ends);
  const RuleUpdateReport& report = ends.back().rules;
  EXPECT_EQ(report.llm_model, "test-model");
  EXPECT_EQ(report.llm_types_asked, 1);
  EXPECT_EQ(report.llm_rules_proposed, 2);
  EXPECT_EQ(report.llm_rules_created, 2);
  EXPECT_TRUE(report.llm_errors.empty());
  ASSERT_EQ(server.requests().size(), 1u);  // only the sixth end distilled

  std::vector<Rule> rules = RulesOf(*engine, "refund");
  ExpectOfflineRules(rules);
  std::vector<Rule> llm = OfSource(rules, "llm");
  ASSERT_EQ(llm.size(), 2u);
  // Support is every decided episode of the window that matches, never the model's number.
  EXPECT_EQ(llm[0].polarity, "do");
  EXPECT_THAT(llm[0].tools, ElementsAre("lookup_order"));
  EXPECT_EQ(llm[0].support, 3);
  EXPECT_EQ(llm[0].success_count, 3);
  EXPECT_NEAR(llm[0].confidence, 0.4385, 1e-3);  // Wilson 3 of 3
  EXPECT_EQ(llm[0].status, "pending");
  EXPECT_EQ(llm[0].text, "For tasks of type refund, when a customer asks for it: do as the episodes did.");
  EXPECT_EQ(llm[1].polarity, "avoid");
  EXPECT_EQ(llm[1].kind, "tool");
  EXPECT_EQ(llm[1].support, 1);
  EXPECT_EQ(llm[1].failure_count, 1);
  // Provenance: the source, the model, and the history says what the model cited.
  EXPECT_EQ(llm[0].source_model, "test-model");
  ASSERT_OK_AND_ASSIGN(RuleDetail detail, engine->GetRule("me", llm[0].id));
  ASSERT_FALSE(detail.history.empty());
  EXPECT_EQ(detail.history[0].action, "created");
  EXPECT_THAT(detail.history[0].reason, HasSubstr("proposed by the LLM distiller (model test-model)"));
  EXPECT_THAT(detail.history[0].reason, HasSubstr(ids[2]));  // E1 = the newest success
  // A later episode is counted in LLM rules like in any other.
  RunEpisode(*engine, "refund", {"lookup_order", "refund_order"}, true);
  ASSERT_OK_AND_ASSIGN(RuleDetail after, engine->GetRule("me", llm[0].id));
  EXPECT_EQ(after.rule.support, 4);
}

TEST(LlmDistillerTest, HallucinatedAndInconsistentRulesAreDroppedNeverStored) {
  TempDir dir;
  json reply;
  ScriptedHttpServer server([&](const test::RecordedRequest&) { return Answer(reply); });
  ASSERT_OK_AND_ASSIGN(auto engine, OpenWithModel(dir, server));
  std::vector<std::string> ids = RefundEpisodes(*engine);
  reply = {{"rules",
            {RuleJson("do", {"lookup_order"}, {"E1", "01JXXXXXXXXXXXXXXXXXXXXXXX"}),  // an id never shown
             RuleJson("do", {"refund_order"}, {ids[3], ids[5]}),                      // do from failures only
             RuleJson("avoid", {"refund_order"}, {"E1"}),                             // avoid from a success
             RuleJson("do", {"lookup_order"}, {"E1"}, false, ""),                     // empty action
             RuleJson("do", {"teleport_order"}, {"E1"}),                              // a tool never called
             RuleJson("do", {"lookup_order", "refund_order"}, {"E1"})}}};  // valid: the offline do rule
  ASSERT_OK_AND_ASSIGN(RuleUpdateReport report, engine->Distill({.namespace_name = "me"}));
  EXPECT_EQ(report.llm_rules_proposed, 6);
  EXPECT_EQ(report.llm_rules_dropped, 5);
  EXPECT_EQ(report.llm_rules_known, 1);
  EXPECT_EQ(report.llm_dropped_by_reason["unknown_episode"], 1);
  EXPECT_EQ(report.llm_dropped_by_reason["do_rule_from_failures_only"], 1);
  EXPECT_EQ(report.llm_dropped_by_reason["avoid_rule_from_successes_only"], 1);
  EXPECT_EQ(report.llm_dropped_by_reason["empty_action"], 1);
  EXPECT_EQ(report.llm_dropped_by_reason["unknown_tool"], 1);
  EXPECT_EQ(report.llm_rules_created, 0);
  std::vector<Rule> rules = RulesOf(*engine, "refund");
  ExpectOfflineRules(rules);
  EXPECT_TRUE(OfSource(rules, "llm").empty());
}

TEST(LlmDistillerTest, FailedCallsLeaveTheOfflineRulesAndAreAskedAgainNextPass) {
  TempDir dir;
  const json good = {{"rules", {RuleJson("avoid", {"cancel_order"}, {"E4"})}}};
  ScriptedHttpServer server({{500, R"({"error":{"message":"boom"}})"},
                             {500, R"({"error":{"message":"boom"}})"},  // pass 1: 500 twice
                             Answer("the rules are: none, sorry"),
                             Answer("{\"rules\": [ {\"situation\": "),  // pass 2: not JSON, even repaired
                             ScriptedReply(200, "{}", 1500),
                             ScriptedReply(200, "{}", 1500),  // pass 3: too slow twice
                             Answer(good)});                  // pass 4
  ASSERT_OK_AND_ASSIGN(auto engine, OpenWithModel(dir, server));
  RefundEpisodes(*engine);
  const std::vector<std::string> expected = {"HTTP 500", "not valid rules JSON", "timeout 300 ms"};
  for (int pass = 0; pass < 3; ++pass) {
    ASSERT_OK_AND_ASSIGN(RuleUpdateReport report, engine->Distill({.namespace_name = "me"}));
    ASSERT_EQ(report.llm_errors.size(), 1u) << "pass " << pass;
    EXPECT_THAT(report.llm_errors[0], HasSubstr("refund: ")) << "pass " << pass;
    EXPECT_THAT(report.llm_errors[0], HasSubstr(expected[pass]));
    EXPECT_EQ(report.llm_rules_created, 0);
    std::vector<Rule> rules = RulesOf(*engine, "refund");
    ExpectOfflineRules(rules);
    EXPECT_TRUE(OfSource(rules, "llm").empty());
  }
  ASSERT_OK_AND_ASSIGN(RuleUpdateReport report, engine->Distill({.namespace_name = "me"}));
  EXPECT_TRUE(report.llm_errors.empty());
  EXPECT_EQ(report.llm_rules_created, 1);
  EXPECT_EQ(OfSource(RulesOf(*engine, "refund"), "llm").size(), 1u);
}

TEST(LlmDistillerTest, TwoOppositeRulesOfTheModelAreBothDisputedAndKept) {
  TempDir dir;
  json reply;
  ScriptedHttpServer server([&](const test::RecordedRequest&) { return Answer(reply); });
  ASSERT_OK_AND_ASSIGN(auto engine, OpenWithModel(dir, server));
  // Every swap failed: 6 that swapped the item, 7 that looked it up and stopped.
  std::vector<std::string> swapped, stopped;
  for (int i = 0; i < 6; ++i) swapped.push_back(RunEpisode(*engine, "swap", {"lookup_item", "swap_item"}, false).episode.id);
  for (int i = 0; i < 7; ++i) stopped.push_back(RunEpisode(*engine, "swap", {"lookup_item"}, false).episode.id);
  reply = {{"rules",
            {RuleJson("avoid", {"swap_item"}, swapped, false, "do not swap the item"),
             RuleJson("avoid", {"swap_item"}, stopped, true, "do not finish without swapping the item")}}};
  ASSERT_OK_AND_ASSIGN(RuleUpdateReport report, engine->Distill({.namespace_name = "me", .task_type = "swap"}));
  EXPECT_EQ(report.llm_rules_created, 2);
  std::vector<Rule> llm = OfSource(RulesOf(*engine, "swap"), "llm");
  ASSERT_EQ(llm.size(), 2u);
  EXPECT_EQ(llm[0].status, "disputed");
  EXPECT_EQ(llm[1].status, "disputed");
  EXPECT_THAT(llm[0].conflicts_with, ElementsAre(llm[1].id));
  EXPECT_THAT(llm[1].conflicts_with, ElementsAre(llm[0].id));
  EXPECT_EQ(llm[0].support, 6);
  EXPECT_EQ(llm[1].support, 7);
}

TEST(LlmDistillerTest, ADeprecatedRuleThatTheModelProposesAgainGetsItsNextVersion) {
  TempDir dir;
  const json reply = {{"rules", {RuleJson("do", {"lookup_order"}, {"E1", "E3"})}}};
  ScriptedHttpServer server([&](const test::RecordedRequest&) { return Answer(reply); });
  ASSERT_OK_AND_ASSIGN(auto engine, OpenWithModel(dir, server));
  RefundEpisodes(*engine);
  ASSERT_OK_AND_ASSIGN(RuleUpdateReport first, engine->Distill({.namespace_name = "me"}));
  ASSERT_EQ(first.llm_rules_created, 1);
  const Rule v1 = OfSource(RulesOf(*engine, "refund"), "llm").at(0);
  // Five failures that looked the order up: its last 5 matching episodes failed.
  for (int i = 0; i < 5; ++i) RunEpisode(*engine, "refund", {"lookup_order", "refund_order"}, false);
  ASSERT_OK_AND_ASSIGN(RuleDetail deprecated, engine->GetRule("me", v1.id));
  EXPECT_EQ(deprecated.rule.status, "deprecated");
  ASSERT_OK_AND_ASSIGN(RuleUpdateReport second, engine->Distill({.namespace_name = "me"}));
  EXPECT_EQ(second.llm_rules_created, 1);
  ASSERT_OK_AND_ASSIGN(RuleDetail v1_after, engine->GetRule("me", v1.id));
  ASSERT_FALSE(v1_after.rule.superseded_by_id.empty());
  ASSERT_OK_AND_ASSIGN(RuleDetail v2, engine->GetRule("me", v1_after.rule.superseded_by_id));
  EXPECT_EQ(v2.rule.version, 2);
  EXPECT_EQ(v2.rule.supersedes_id, v1.id);
  EXPECT_EQ(v2.rule.source, "llm");
  EXPECT_EQ(v2.rule.support, 8);  // every decided episode of the window that looked the order up
  EXPECT_EQ(v2.chain.size(), 2u);
}

TEST(LlmDistillerTest, ADistillationThatSegmentationTriggersAsksTheModelToo) {
  TempDir dir;
  const json reply = {{"rules", {RuleJson("do", {"get_order", "cancel_order"}, {"E1"})}}};
  ScriptedHttpServer server([&](const test::RecordedRequest&) { return Answer(reply); });
  ASSERT_OK_AND_ASSIGN(auto engine, OpenWithModel(dir, server, /*distill_every=*/1));
  ASSERT_OK(engine->IngestBatch(test::TwoTasks("s1")));
  ASSERT_OK_AND_ASSIGN(SegmentReport segmented,
                       engine->SegmentEpisodes({.namespace_name = "me", .session_id = "s1", .close = true}));
  ASSERT_EQ(segmented.episodes.size(), 2u);
  EXPECT_EQ(server.requests().size(), 1u);  // the cancellation succeeded; the question's outcome is unknown
  std::vector<Rule> llm = OfSource(RulesOf(*engine, "cancel_order"), "llm");
  ASSERT_EQ(llm.size(), 1u);
  EXPECT_EQ(llm[0].support, 1);
}

TEST(LlmDistillerTest, OffByDefaultNoModelIsAsked) {
  TempDir dir;
  ScriptedHttpServer server(std::vector<ScriptedReply>{});
  setenv("ENGRAM_LLM_BASE_URL", server.base_url().c_str(), 1);
  setenv("ENGRAM_LLM_MODEL", "test-model", 1);
  unsetenv("ENGRAM_DISTILLER");
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("m.db")));
  RefundEpisodes(*engine);
  ASSERT_OK_AND_ASSIGN(RuleUpdateReport report, engine->Distill({.namespace_name = "me"}));
  EXPECT_TRUE(report.llm_model.empty());
  EXPECT_TRUE(server.requests().empty());
  ExpectOfflineRules(RulesOf(*engine, "refund"));
}

// A distiller nobody knows opens (reading and writing memory do not need it); what distils says
// why: Distill fails, an episode's end stores the episode and its offline rules and reports it.
TEST(LlmDistillerTest, AnUnknownDistillerFailsOnlyWhatDistils) {
  TempDir dir;
  unsetenv("ENGRAM_DISTILLER");
  Options options;
  options.db_path = dir.File("m.db");
  options.experience.distiller = "magic";
  options.experience.distill_every = 6;
  const Status invalid = Engine::ValidateDistiller(options);
  EXPECT_EQ(invalid.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(invalid.message(), HasSubstr("field \"experience.distiller\": unknown distiller \"magic\" "
                                           "(expected one of: offline, llm)"));
  ASSERT_OK_AND_ASSIGN(auto engine, Engine::Open(options));
  std::vector<EndEpisodeResult> ends;
  RefundEpisodes(*engine, &ends);
  const RuleUpdateReport& report = ends.back().rules;
  EXPECT_THAT(report.task_types_distilled, ElementsAre("refund"));
  ASSERT_EQ(report.llm_errors.size(), 1u);
  EXPECT_THAT(report.llm_errors[0], HasSubstr("experience.distiller"));
  ExpectOfflineRules(RulesOf(*engine, "refund"));
  auto distilled = engine->Distill({.namespace_name = "me"});
  ASSERT_FALSE(distilled.has_value());
  EXPECT_EQ(distilled.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(distilled.error().message(), HasSubstr("experience.distiller"));
}

}  // namespace
}  // namespace engram
