// tests/experience_sharing_test.cc — sharing experience between agents and forgetting cold
// experience (docs/experience.md), through the library, the capability layer (what REST and MCP
// call), the CLI and the REST server: an agent does not see another agent's private episode; a type
// is promoted exactly at the gate (2 agents are not enough, 3 agents at 2/3 are not, 3 at 3/3 are)
// and demoted when later failures take it below; the down-weight for agents of other task types; a
// cold episode leaves recall and a later maintenance pass deletes it with a tombstone, its steps and
// its full-text row.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/registry.h"
#include "raw_db.h"
#include "serve_process.h"
#include "test_util.h"
#include "util/time.h"

namespace engram {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using test::RunCli;
using test::TempDir;

constexpr TimestampMs kDay = 86400000;

// One ended episode of `agent`: a lookup, then the type's state-changing tool.
std::string Done(Engine& engine, const std::string& agent, const std::string& tool, bool success,
                 const std::string& goal) {
  EpisodeStartInput in{.namespace_name = "me", .goal = goal, .agent_id = agent};
  in.steps = {{.action = "looked it up", .tool_name = "find_order"}, {.action = "did it", .tool_name = tool}};
  auto started = engine.StartEpisode(in);
  EXPECT_TRUE(started.has_value()) << started.error().ToString();
  auto ended = engine.EndEpisode(
      {.namespace_name = "me", .episode_id = started->id, .outcome = success ? "success" : "failure"});
  EXPECT_TRUE(ended.has_value()) << ended.error().ToString();
  return started->id;
}

ExperienceResult Recall(Engine& engine, const std::string& text, std::optional<std::string> agent) {
  auto r = engine.RecallExperience({.namespace_name = "me", .text = text, .agent_id = std::move(agent)});
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return r ? *r : ExperienceResult{};
}

std::vector<std::string> EpisodeIds(const ExperienceResult& r) {
  std::vector<std::string> out;
  for (const ExperienceEpisode& e : r.episodes) out.push_back(e.episode.id);
  return out;
}

TEST(ExperienceSharingTest, AnAgentDoesNotSeeAnotherAgentsPrivateEpisode) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("s.db")));
  const std::string mine = Done(*engine, "alice", "refund_order", true, "refund the broken blender");
  EXPECT_THAT(EpisodeIds(Recall(*engine, "refund the broken blender", "bob")), ElementsAre());
  ExperienceResult own = Recall(*engine, "refund the broken blender", "alice");
  ASSERT_THAT(EpisodeIds(own), ElementsAre(mine));
  EXPECT_EQ(own.episodes[0].area, "own");
  ExperienceResult everyone = Recall(*engine, "refund the broken blender", std::nullopt);
  ASSERT_THAT(EpisodeIds(everyone), ElementsAre(mine)) << "no agent: the whole namespace, as before";
  EXPECT_EQ(everyone.episodes[0].area, "");
}

TEST(ExperienceSharingTest, PromotionExactlyAtTheGateAndDemotionByLaterFailures) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("s.db")));
  const std::string text = "cancel my order please";
  Done(*engine, "a1", "cancel_order", true, "cancel the order from monday");
  Done(*engine, "a2", "cancel_order", true, "cancel the order of shoes");
  EXPECT_THAT(EpisodeIds(Recall(*engine, text, "newcomer")), ElementsAre()) << "2 agents are not enough";
  Done(*engine, "a3", "cancel_order", false, "cancel the order of a lamp");
  EXPECT_THAT(EpisodeIds(Recall(*engine, text, "newcomer")), ElementsAre()) << "3 agents at 2/3 = 0.67 < 0.7";

  // Another type, 3 agents at 3/3: shared, with its source agents.
  Done(*engine, "b1", "exchange_item", true, "exchange the shirt for a larger one");
  Done(*engine, "b2", "exchange_item", true, "exchange the shoes for another colour");
  Done(*engine, "b3", "exchange_item", true, "exchange the lamp for the blue one");
  ExperienceResult shared = Recall(*engine, "exchange the shirt for a larger one", "newcomer");
  ASSERT_EQ(shared.episodes.size(), 3u);
  for (const ExperienceEpisode& e : shared.episodes) {
    EXPECT_EQ(e.area, "shared");
    EXPECT_THAT(e.source_agents, ElementsAre("b1", "b2", "b3"));
    EXPECT_THAT(e.why, HasSubstr("shared: 3 of 3 decided episodes of 3 agents succeeded (b1, b2, b3)"));
  }
  // A rule distilled from them is shared too, with the agents of its support.
  ASSERT_OK(engine->Distill({.namespace_name = "me", .task_type = "exchange_item"}));
  ExperienceResult with_rule = Recall(*engine, "exchange the shirt for a larger one", "newcomer");
  ASSERT_FALSE(with_rule.rules.empty());
  EXPECT_EQ(with_rule.rules[0].area, "shared");
  EXPECT_THAT(with_rule.rules[0].source_agents, ElementsAre("b1", "b2", "b3"));

  // Later evidence: 3 of 4 (0.75) keeps it shared, 3 of 5 (0.6) demotes it; its own agents keep it.
  Done(*engine, "b4", "exchange_item", false, "exchange the mug");
  EXPECT_EQ(Recall(*engine, "exchange the shirt for a larger one", "newcomer").episodes.size(), 3u);
  Done(*engine, "b5", "exchange_item", false, "exchange the plate");
  EXPECT_THAT(EpisodeIds(Recall(*engine, "exchange the shirt for a larger one", "newcomer")), ElementsAre());
  ExperienceResult b1 = Recall(*engine, "exchange the shirt for a larger one", "b1");
  ASSERT_EQ(b1.episodes.size(), 1u);
  EXPECT_EQ(b1.episodes[0].area, "own");
}

TEST(ExperienceSharingTest, SharedExperienceIsDownWeightedForAgentsOfOtherTaskTypes) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("s.db")));
  for (const char* agent : {"c1", "c2", "c3"}) Done(*engine, agent, "cancel_order", true, "cancel the order");
  Done(*engine, "refunder", "refund_order", true, "refund the blender");
  ExperienceResult fresh = Recall(*engine, "cancel the order", "newcomer");  // no typed episode: full weight
  ExperienceResult other = Recall(*engine, "cancel the order", "refunder");  // only refunds: down-weighted
  ASSERT_EQ(fresh.episodes.size(), 3u);
  std::map<std::string, double> fresh_scores;
  for (const ExperienceEpisode& e : fresh.episodes) {
    EXPECT_EQ(e.area, "shared");
    EXPECT_DOUBLE_EQ(e.share_weight, 1.0);
    fresh_scores[e.episode.id] = e.score;
  }
  int shared = 0;
  for (const ExperienceEpisode& e : other.episodes) {
    if (e.area != "shared") continue;  // the refunder's own refund episode may come too
    ++shared;
    EXPECT_DOUBLE_EQ(e.share_weight, 0.5);
    ASSERT_TRUE(fresh_scores.contains(e.episode.id));
    EXPECT_NEAR(e.score, 0.5 * fresh_scores[e.episode.id], 1e-9);
    EXPECT_THAT(e.why, HasSubstr("counted at 0.5× because agent refunder"));
  }
  EXPECT_EQ(shared, 3);
}

TEST(ExperienceSharingTest, ABlankAgentIsAnErrorNamingTheFieldOnEveryEntryPoint) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("s.db")));
  Done(*engine, "alice", "refund_order", true, "refund the broken blender");
  auto lib = engine->RecallExperience({.namespace_name = "me", .text = "refund", .agent_id = " "});
  ASSERT_FALSE(lib);
  EXPECT_EQ(lib.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(lib.error().message(), HasSubstr("field \"agent\": is blank"));
  const api::Capability* recall = api::FindCapability("recall_experience");
  ASSERT_NE(recall, nullptr);
  auto api_reply = api::Invoke(*engine, *recall, {{"namespace", "me"}, {"text", "refund"}, {"agent", ""}},
                               api::ArgsMode::kStrict);
  ASSERT_FALSE(api_reply);
  EXPECT_THAT(api_reply.error().message(), HasSubstr("field \"agent\": is empty"));
  engine.reset();
  auto cli = RunCli({"--db", dir.File("s.db"), "experience", "recall", "-n", "me", "refund", "--agent", ""});
  EXPECT_EQ(cli.exit_code, 2) << cli.Describe();
  EXPECT_THAT(cli.err, HasSubstr("field \"agent\""));
}

// DESIGN.md's thresholds never make a success cold (0.2 × 1 is the cold threshold itself), and
// recall returns only successes; this engine raises them so that one does: with one access,
// score = 0.5 e^(−days/60) + 0.3 ln 2 + 0.2 = 0.5 e^(−days/60) + 0.408 — below 0.5 after 102 days
// (cold), below 0.42 after 223 days (deleted).
TEST(ExperienceForgettingTest, AColdEpisodeLeavesRecallThenIsDeletedWithATombstone) {
  TempDir dir;
  Options options;
  options.db_path = dir.File("f.db");
  options.experience.forget_cold_below = 0.5;
  options.experience.forget_delete_below = 0.42;
  ASSERT_OK_AND_ASSIGN(auto engine, Engine::Open(options));
  const std::string id = Done(*engine, "alice", "refund_order", true, "refund the broken blender");
  ASSERT_THAT(EpisodeIds(Recall(*engine, "refund the broken blender", "alice")), ElementsAre(id));  // one access
  const TimestampMs now = NowMs();

  ASSERT_OK_AND_ASSIGN(MaintainReport soon, engine->Maintain({.namespace_name = "me", .now = now + 10 * kDay}));
  EXPECT_EQ(soon.total.experience_cold, 0);
  ASSERT_OK_AND_ASSIGN(MaintainReport cold, engine->Maintain({.namespace_name = "me", .now = now + 120 * kDay}));
  EXPECT_EQ(cold.total.experience_cold, 1);
  EXPECT_EQ(cold.total.experience_forgotten, 0);
  EXPECT_THAT(EpisodeIds(Recall(*engine, "refund the broken blender", "alice")), ElementsAre());
  EXPECT_THAT(EpisodeIds(Recall(*engine, "refund the broken blender", std::nullopt)), ElementsAre());
  ASSERT_OK_AND_ASSIGN(std::vector<ColdExperience> listed, engine->ListColdExperience("me", 100));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, id);
  EXPECT_EQ(listed[0].access_count, 1);
  ASSERT_OK(engine->GetEpisode("me", id));  // kept

  ASSERT_OK_AND_ASSIGN(MaintainReport gone, engine->Maintain({.namespace_name = "me", .now = now + 260 * kDay}));
  EXPECT_EQ(gone.total.experience_forgotten, 1);
  EXPECT_EQ(engine->GetEpisode("me", id).error().code(), StatusCode::kNotFound);
  ASSERT_OK_AND_ASSIGN(std::vector<Tombstone> tombs, engine->ListTombstones({.namespace_name = "me", .object_id = id}));
  ASSERT_EQ(tombs.size(), 1u);
  EXPECT_EQ(tombs[0].object_type, "episode");
  engine.reset();
  test::RawDb raw(dir.File("f.db"));
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_steps"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_fts WHERE episode_fts MATCH 'blender'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM experience_access WHERE object_id = '" + id + "'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM audit_log WHERE action = 'forget' AND object_type = 'episode'"), 1);
}

// A failed episode supports an avoid rule; forgetting it takes it out of the rule's counts.
TEST(ExperienceForgettingTest, AForgottenFailureLeavesTheRulesItSupported) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("f.db")));
  for (int i = 0; i < 3; ++i) Done(*engine, "a", "cancel_order", true, "cancel the order");
  const std::string failed = Done(*engine, "a", "cancel_order", false, "cancel the order");
  ASSERT_OK(engine->Distill({.namespace_name = "me", .task_type = "cancel_order"}));
  ASSERT_OK_AND_ASSIGN(std::vector<Rule> before, engine->ListRules({.namespace_name = "me"}));
  ASSERT_FALSE(before.empty());
  EXPECT_EQ(before[0].support, 4);
  const TimestampMs now = NowMs();
  ASSERT_OK(engine->Maintain({.namespace_name = "me", .now = now + 60 * kDay}));   // the failure: cold
  ASSERT_OK(engine->Maintain({.namespace_name = "me", .now = now + 140 * kDay}));  // and deleted
  EXPECT_EQ(engine->GetEpisode("me", failed).error().code(), StatusCode::kNotFound);
  ASSERT_OK_AND_ASSIGN(std::vector<Rule> after, engine->ListRules({.namespace_name = "me", .include_deprecated = true}));
  ASSERT_FALSE(after.empty());
  EXPECT_EQ(after[0].support, 3);
  EXPECT_EQ(after[0].failure_count, 0);
}

// A user forgets an episode or a rule by its id, as events and claims: a preview lists them, then
// their rows go with one tombstone each; an id that is neither is still not found; the CLI says the same.
TEST(ExperienceForgettingTest, AnEpisodeAndARuleAreForgottenByTheirIds) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("f.db")));
  for (int i = 0; i < 3; ++i) Done(*engine, "a", "cancel_order", true, "cancel the order");
  const std::string episode = Done(*engine, "a", "cancel_order", true, "cancel order W42 of the blender");
  ASSERT_OK(engine->Distill({.namespace_name = "me", .task_type = "cancel_order"}));
  ASSERT_OK_AND_ASSIGN(std::vector<Rule> rules, engine->ListRules({.namespace_name = "me"}));
  ASSERT_FALSE(rules.empty());
  const std::string rule = rules[0].id;
  ASSERT_OK_AND_ASSIGN(ForgetReport preview,
                       engine->Forget({.ids = {episode, rule}, .namespace_name = "me", .preview = true}));
  EXPECT_EQ(preview.items.size(), 2u);
  ASSERT_OK(engine->GetEpisode("me", episode));  // a preview changes nothing

  ASSERT_OK_AND_ASSIGN(ForgetReport forgot,
                       engine->Forget({.ids = {episode, rule}, .namespace_name = "me", .reason = "user asked"}));
  ASSERT_EQ(forgot.items.size(), 2u);
  EXPECT_EQ(forgot.items[0].type, "episode");
  EXPECT_EQ(forgot.items[1].type, "rule");
  EXPECT_EQ(forgot.tombstone_ids.size(), 2u);
  EXPECT_EQ(engine->GetEpisode("me", episode).error().code(), StatusCode::kNotFound);
  ASSERT_OK_AND_ASSIGN(std::vector<Rule> left, engine->ListRules({.namespace_name = "me", .include_deprecated = true}));
  for (const Rule& r : left) EXPECT_NE(r.id, rule);
  ASSERT_OK_AND_ASSIGN(std::vector<Tombstone> tombs, engine->ListTombstones({.namespace_name = "me", .object_id = episode}));
  ASSERT_EQ(tombs.size(), 1u);
  EXPECT_EQ(tombs[0].object_type, "episode");
  // In another namespace, or unknown: not found, nothing forgotten.
  EXPECT_EQ(engine->Forget({.ids = {rule}, .namespace_name = "other"}).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(engine->Forget({.ids = {"01HZZZZZZZZZZZZZZZZZZZZZZZ"}, .namespace_name = "me"}).error().code(),
            StatusCode::kNotFound);
  engine.reset();
  test::RawDb raw(dir.File("f.db"));
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_fts WHERE episode_fts MATCH 'W42'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM audit_log WHERE action = 'forget' AND object_type IN ('episode', 'rule')"), 2);

  const std::string db = dir.File("f.db");
  const std::string other = RunCli({"--db", db, "--json", "episode", "list", "-n", "me"}).out;
  const std::string first = nlohmann::json::parse(other)["items"][0]["id"];
  test::CliResult cli = RunCli({"--db", db, "--json", "forget", "-n", "me", first, "--reason", "cli"});
  ASSERT_EQ(cli.exit_code, 0) << cli.Describe();
  EXPECT_EQ(nlohmann::json::parse(cli.out)["items"][0]["type"], "episode");
}

// The CLI and REST faces: the private area, the gate, cold listing and deletion by `engram maintain`.
TEST(ExperienceSharingCliTest, AgentRecallColdListAndMaintain) {
  TempDir dir;
  const std::string db = dir.File("c.db");
  {
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
    Done(*engine, "alice", "refund_order", true, "refund the broken blender");
    Done(*engine, "alice", "refund_order", false, "refund the broken kettle");
  }
  auto bob = RunCli({"--db", db, "--json", "experience", "recall", "-n", "me", "refund the broken blender", "--agent", "bob"});
  ASSERT_EQ(bob.exit_code, 0) << bob.Describe();
  EXPECT_TRUE(nlohmann::json::parse(bob.out)["episodes"].empty());
  auto alice = RunCli({"--db", db, "experience", "recall", "-n", "me", "refund the broken blender", "--agent", "alice"});
  ASSERT_EQ(alice.exit_code, 0) << alice.Describe();
  EXPECT_THAT(alice.out, HasSubstr("refund the broken blender [own]"));

  const TimestampMs now = NowMs();
  auto m1 = RunCli({"--db", db, "maintain", "-n", "me", "--now", FormatTimestamp(now + 60 * kDay)});
  ASSERT_EQ(m1.exit_code, 0) << m1.Describe();
  EXPECT_THAT(m1.out, HasSubstr("experience: 1 made cold"));
  auto cold = RunCli({"--db", db, "experience", "cold", "-n", "me"});
  ASSERT_EQ(cold.exit_code, 0) << cold.Describe();
  EXPECT_THAT(cold.out, HasSubstr("refund the broken kettle"));
  auto m2 = RunCli({"--db", db, "maintain", "-n", "me", "--now", FormatTimestamp(now + 140 * kDay)});
  ASSERT_EQ(m2.exit_code, 0) << m2.Describe();
  EXPECT_THAT(m2.out, HasSubstr("1 forgotten"));
  auto tombs = RunCli({"--db", db, "--json", "tombstones", "-n", "me"});
  ASSERT_EQ(tombs.exit_code, 0) << tombs.Describe();
  EXPECT_THAT(tombs.out, HasSubstr("\"episode\""));
}

TEST(ExperienceSharingRestTest, TheServerAppliesTheAgentsArea) {
  TempDir dir;
  const std::string db = dir.File("r.db");
  {
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
    Done(*engine, "alice", "refund_order", true, "refund the broken blender");
    for (const char* agent : {"c1", "c2"}) Done(*engine, agent, "cancel_order", true, "cancel the order");
  }
  test::ServeProcess server(db, dir.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  auto post = [&](const nlohmann::json& body) {
    auto r = c->Post("/v1/namespaces/me/experience/recall", body.dump(), "application/json");
    EXPECT_TRUE(r) << server.Log();
    return std::make_pair(r ? r->status : 0, r ? nlohmann::json::parse(r->body) : nlohmann::json());
  };
  auto [bob_status, bob] = post({{"text", "refund the broken blender"}, {"agent", "bob"}});
  EXPECT_EQ(bob_status, 200);
  EXPECT_TRUE(bob["episodes"].empty());
  auto [alice_status, alice] = post({{"text", "refund the broken blender"}, {"agent", "alice"}});
  EXPECT_EQ(alice_status, 200);
  ASSERT_EQ(alice["episodes"].size(), 1u);
  EXPECT_EQ(alice["episodes"][0]["area"], "own");
  auto [blank_status, blank] = post({{"text", "refund"}, {"agent", " "}});
  EXPECT_EQ(blank_status, 400);
  EXPECT_THAT(blank.dump(), HasSubstr("field \\\"agent\\\""));
  auto [two_status, two] = post({{"text", "cancel the order"}, {"agent", "bob"}});
  EXPECT_EQ(two_status, 200);
  EXPECT_TRUE(two["episodes"].empty()) << "2 agents are not enough";
  auto cold = c->Get("/v1/namespaces/me/experience/cold");
  ASSERT_TRUE(cold);
  EXPECT_EQ(cold->status, 200) << cold->body;
}

}  // namespace
}  // namespace engram
