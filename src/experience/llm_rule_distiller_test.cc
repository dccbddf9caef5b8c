#include "experience/llm_rule_distiller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scripted_http_server.h"
#include "test_util.h"

namespace engram::experience {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
using test::ScriptedHttpServer;
using test::ScriptedReply;

ScriptedReply Answer(const std::string& content) { return test::ChatCompletionReply(content); }

providers::ChatClientOptions Client(const ScriptedHttpServer& server, int timeout_ms = 5000) {
  providers::ChatClientOptions o;
  o.base_url = server.base_url();
  o.model = "test-model";
  o.timeout_ms = timeout_ms;
  o.max_retries = 1;
  o.sleep_for_ms = [](int) {};
  return o;
}

Episode Decided(const std::string& id, int64_t seq, bool success, const std::vector<std::string>& tools) {
  Episode e;
  e.id = id;
  e.seq = seq;
  e.goal = "refund order #W" + std::to_string(seq) + " for the customer";
  e.outcome = success ? "success" : "failure";
  e.ended_at = 1000 * seq;
  for (const std::string& t : tools) e.steps.push_back({.action = t + "(order #W" + std::to_string(seq) + ")", .tool_name = t});
  if (!success) e.feedback = "that is not what I asked";
  return e;
}

std::vector<Episode> Window() {
  return {Decided("S1", 1, true, {"lookup_order", "refund_order"}), Decided("F1", 2, false, {"refund_order"}),
          Decided("S2", 3, true, {"lookup_order", "refund_order"}), Decided("F2", 4, false, {"refund_order"})};
}

const char* kGoodAnswer = R"({"rules":[
  {"situation":"a refund is asked for","action":"look the order up before refunding","kind":"do",
   "tools":["lookup_order","refund_order"],"omission":false,"episode_ids":["E1","E3"],"support":99,"confidence":0.99},
  {"situation":"a refund is asked for","action":"never refund without looking the order up","kind":"avoid",
   "tools":["lookup_order"],"omission":true,"episode_ids":["E2","E99"]}]})";

TEST(LlmRuleDistillerTest, SendsTheEpisodesCompactlyAndChecksTheAnswer) {
  ScriptedHttpServer server({Answer(kGoodAnswer)});
  LlmRuleDistiller distiller(Client(server));
  ASSERT_OK_AND_ASSIGN(LlmRuleProposals out, distiller.Propose("refund", Window()));
  ASSERT_EQ(out.check.kept.size(), 1u);  // the avoid rule cites E99
  EXPECT_EQ(out.check.kept[0].pattern, (RulePattern{"do", "sequence", {"lookup_order", "refund_order"}}));
  // Newest first, alternating outcomes: E1 = S2, E2 = F2, E3 = S1, E4 = F1.
  EXPECT_THAT(out.check.kept[0].episode_ids, ::testing::ElementsAre("S2", "S1"));
  EXPECT_EQ(out.check.dropped_by_reason[kRuleDropUnknownEpisode], 1);
  EXPECT_EQ(out.stats.episodes_shown, 4);
  EXPECT_EQ(out.stats.model_calls, 1);

  json request = json::parse(server.requests().at(0).body);
  EXPECT_EQ(request["response_format"]["json_schema"]["name"], "engram_rules");
  const std::string prompt = request["messages"][1]["content"];
  EXPECT_THAT(prompt, HasSubstr("Task type: refund"));
  EXPECT_THAT(prompt, HasSubstr("E1 | success | goal: refund order #W3 for the customer"));
  EXPECT_THAT(prompt, HasSubstr("steps: lookup_order(order #W3) > refund_order(order #W3)"));
  EXPECT_THAT(prompt, HasSubstr("E2 | failure"));
  EXPECT_THAT(prompt, HasSubstr("feedback: that is not what I asked"));
  EXPECT_THAT(prompt, Not(HasSubstr("S1")));  // references, not ids
}

TEST(LlmRuleDistillerTest, TheBudgetKeepsTheMostRecentOfBothOutcomes) {
  LlmDistillerOptions options;
  options.max_prompt_chars = 300;  // about two episode blocks
  ScriptedHttpServer server({Answer(R"({"rules":[]})")});
  LlmRuleDistiller distiller(Client(server), options);
  std::string blocks;
  std::vector<Episode> shown = distiller.SelectShown(Window(), &blocks);
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown[0].id, "S2");
  EXPECT_EQ(shown[1].id, "F2");
  EXPECT_LE(blocks.size(), 300u);
}

TEST(LlmRuleDistillerTest, MalformedThenRepairedAnswerIsUsed) {
  ScriptedHttpServer server({Answer("Here are the rules: {rules: oops"), Answer(std::string("```json\n") + kGoodAnswer + "\n```")});
  LlmRuleDistiller distiller(Client(server));
  ASSERT_OK_AND_ASSIGN(LlmRuleProposals out, distiller.Propose("refund", Window()));
  EXPECT_TRUE(out.stats.repaired);
  EXPECT_EQ(out.stats.model_calls, 2);
  EXPECT_EQ(out.check.kept.size(), 1u);
}

TEST(LlmRuleDistillerTest, MalformedTwiceIsInvalidArgument) {
  ScriptedHttpServer server({Answer("no json here"), Answer("still none")});
  LlmRuleDistiller distiller(Client(server));
  auto out = distiller.Propose("refund", Window());
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(out.error().message(), HasSubstr("not valid rules JSON after one repair"));
}

TEST(LlmRuleDistillerTest, ServerErrorAndTimeoutAreIOErrors) {
  ScriptedHttpServer failing({{500, R"({"error":{"message":"boom"}})"}, {500, R"({"error":{"message":"boom"}})"}});
  auto failed = LlmRuleDistiller(Client(failing)).Propose("refund", Window());
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().code(), StatusCode::kIOError);

  ScriptedHttpServer slow({ScriptedReply(200, "{}", 1500), ScriptedReply(200, "{}", 1500)});
  auto timed_out = LlmRuleDistiller(Client(slow, 200)).Propose("refund", Window());
  ASSERT_FALSE(timed_out.has_value());
  EXPECT_EQ(timed_out.error().code(), StatusCode::kIOError);
}

TEST(LlmRuleDistillerTest, AnEmptyWindowMakesNoCall) {
  ScriptedHttpServer server(std::vector<ScriptedReply>{});
  ASSERT_OK_AND_ASSIGN(LlmRuleProposals out, LlmRuleDistiller(Client(server)).Propose("refund", {}));
  EXPECT_TRUE(out.check.kept.empty());
  EXPECT_TRUE(server.requests().empty());
}

TEST(LlmRuleDistillerTest, TheFactoryIsOffUnlessAskedAndNeedsAnEndpoint) {
  unsetenv("ENGRAM_DISTILLER");
  unsetenv("ENGRAM_LLM_BASE_URL");
  unsetenv("ENGRAM_LLM_MODEL");
  ExperienceOptions options;
  ASSERT_OK_AND_ASSIGN(auto none, MakeLlmDistiller(options));
  EXPECT_EQ(none, nullptr);
  options.distiller = "llm";
  auto missing = MakeLlmDistiller(options);
  ASSERT_FALSE(missing.has_value());
  EXPECT_THAT(missing.error().message(), HasSubstr("ENGRAM_LLM_BASE_URL"));
  options.distiller = "magic";
  EXPECT_FALSE(MakeLlmDistiller(options).has_value());
  setenv("ENGRAM_LLM_BASE_URL", "http://127.0.0.1:9/v1", 1);
  setenv("ENGRAM_LLM_MODEL", "m", 1);
  setenv("ENGRAM_DISTILLER", "llm", 1);
  options.distiller = "offline";
  ASSERT_OK_AND_ASSIGN(auto llm, MakeLlmDistiller(options));
  ASSERT_NE(llm, nullptr);
  EXPECT_EQ(llm->model(), "m");
}

}  // namespace
}  // namespace engram::experience
