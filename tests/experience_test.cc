// tests/experience_test.cc — experience memory through the Engine, the capability layer and the CLI
// (docs/experience.md): the rule lifecycle driven by episode streams of known success rates, failed
// episodes kept out of the examples and present as avoid rules, and one validation for every face.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/registry.h"
#include "episode_runner.h"
#include "raw_db.h"
#include "test_util.h"

namespace engram {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using test::RulesOf;
using test::RunCli;
using test::RunEpisode;
using test::ToolCall;
using test::Turn;
using test::TwoTasks;
using test::TempDir;

// The status changes of a rule's history, in order ("matched" rows left out).
std::vector<std::string> StatusChanges(Engine& engine, const std::string& rule_id) {
  auto detail = engine.GetRule("me", rule_id);
  EXPECT_TRUE(detail.has_value()) << detail.error().ToString();
  std::vector<std::string> out;
  for (const RuleChange& c : detail->history) {
    if (c.action != "matched") out.push_back(c.action);
  }
  return out;
}

// A stream whose success rate is known drives one "do" rule through pending → active → pending →
// deprecated, and the next distillation supersedes it. The expected points follow from the
// documented constants alone: confidence = Wilson lower bound at z 1.96 (7/10 → 0.397, 14/17 →
// 0.590, 15/18 → 0.608, 15/19 → 0.567, 23/30 → 0.591), active from 0.6, deprecated when at most 1
// of the last 5 matching episodes ended as predicted, a distillation every 10 decided episodes of
// the type (ExperienceOptions::distill_every), over the 50 most recent.
TEST(RuleLifecycleTest, StreamOfKnownSuccessRatesGivesExactTransitionsAndASupersedeChain) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("m.db")));
  const std::vector<std::string> tools = {"lookup_order", "refund_order"};
  const std::string first10 = "SSFSSFSFSS";  // 7 of 10 succeed
  for (size_t i = 0; i < first10.size(); ++i) {
    EndEpisodeResult r = RunEpisode(*engine, "refund", tools, first10[i] == 'S');
    EXPECT_EQ(r.rules.rules_created, i == 9 ? 1 : 0) << "episode " << i + 1;
  }
  std::vector<Rule> rules = RulesOf(*engine, "refund");
  ASSERT_EQ(rules.size(), 1u);
  const Rule v1 = rules[0];
  EXPECT_EQ(v1.polarity, "do");
  EXPECT_EQ(v1.kind, "sequence");
  EXPECT_THAT(v1.tools, ElementsAre("lookup_order", "refund_order"));
  EXPECT_EQ(v1.support, 10);
  EXPECT_EQ(v1.success_count, 7);
  EXPECT_NEAR(v1.confidence, 0.3968, 1e-3);
  EXPECT_EQ(v1.status, "pending");

  // Episodes 11–17 succeed: still pending (14/17 → 0.590); the 18th makes it active (15/18).
  for (int i = 11; i <= 17; ++i) {
    RunEpisode(*engine, "refund", tools, true);
    EXPECT_EQ(RulesOf(*engine, "refund")[0].status, "pending") << "episode " << i;
  }
  EndEpisodeResult e18 = RunEpisode(*engine, "refund", tools, true);
  EXPECT_EQ(e18.rules.rules_activated, 1);
  EXPECT_EQ(RulesOf(*engine, "refund")[0].status, "active");

  // Four failures: pending at the first (15/19), deprecated at the fourth (1 of the last 5 held).
  // The distillation at episode 20 keeps the rule: its pattern still holds.
  const char* expected[] = {"pending", "pending", "pending", "deprecated"};
  for (int i = 0; i < 4; ++i) {
    EndEpisodeResult r = RunEpisode(*engine, "refund", tools, false);
    EXPECT_EQ(r.rules.rules_created, 0);
    EXPECT_EQ(RulesOf(*engine, "refund")[0].status, expected[i]) << "episode " << 19 + i;
  }
  Rule deprecated = RulesOf(*engine, "refund")[0];
  EXPECT_THAT(deprecated.status_reason, HasSubstr("4 of its last 5 matching episodes failed"));

  // A deprecated rule is never recalled, and nothing replaces it before the next distillation.
  for (int i = 23; i <= 29; ++i) RunEpisode(*engine, "refund", tools, true);
  ASSERT_EQ(RulesOf(*engine, "refund").size(), 1u);
  ASSERT_OK_AND_ASSIGN(ExperienceResult none,
                       engine->RecallExperience({.namespace_name = "me", .text = "refund", .task_type = "refund"}));
  EXPECT_TRUE(none.rules.empty());

  // Episode 30: the distillation over episodes 1–30 makes version 2, which supersedes version 1.
  EndEpisodeResult e30 = RunEpisode(*engine, "refund", tools, true);
  EXPECT_EQ(e30.rules.rules_created, 1);
  EXPECT_EQ(e30.rules.rules_superseded, 1);
  rules = RulesOf(*engine, "refund");
  ASSERT_EQ(rules.size(), 2u);
  const Rule& old_version = rules[0];
  const Rule& v2 = rules[1];
  EXPECT_EQ(old_version.superseded_by_id, v2.id);
  EXPECT_EQ(v2.supersedes_id, v1.id);
  EXPECT_EQ(v2.version, 2);
  EXPECT_EQ(v2.support, 30);
  EXPECT_EQ(v2.success_count, 23);
  EXPECT_EQ(v2.status, "pending");  // 23/30 → 0.591
  EXPECT_THAT(StatusChanges(*engine, v1.id), ElementsAre("created", "active", "pending", "deprecated", "superseded"));
  ASSERT_OK_AND_ASSIGN(RuleDetail chain, engine->GetRule("me", v2.id));
  ASSERT_EQ(chain.chain.size(), 2u);
  EXPECT_EQ(chain.chain[0].id, v1.id);
  EXPECT_EQ(chain.chain[1].id, v2.id);

  // One more success: 24/31 → 0.602, active.
  RunEpisode(*engine, "refund", tools, true);
  EXPECT_EQ(RulesOf(*engine, "refund")[1].status, "active");
}

// A retyped episode moves its support: counts follow the type, not the first guess.
TEST(RuleLifecycleTest, RetypingAnEpisodeMovesItsSupport) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("m.db")));
  std::string last;
  for (int i = 0; i < 10; ++i) last = RunEpisode(*engine, "refund", {"lookup_order", "refund_order"}, true).episode.id;
  ASSERT_EQ(RulesOf(*engine, "refund")[0].support, 10);
  ASSERT_OK_AND_ASSIGN(EndEpisodeResult moved, engine->SetEpisodeType("me", last, "exchange"));
  EXPECT_EQ(moved.episode.task_type, "exchange");
  EXPECT_EQ(moved.episode.task_type_source, "declared");
  EXPECT_EQ(RulesOf(*engine, "refund")[0].support, 9);
}

// Failed episodes come back as avoid rules, never as examples — even when a failure is the closest
// text match of the task.
TEST(ExperienceRecallTest, FailuresAreAvoidRulesNeverExamples) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("m.db")));
  for (int i = 0; i < 6; ++i) {
    RunEpisode(*engine, "rebook", {"search_flights", "update_reservation"}, true,
               "move my reservation to a later date");
  }
  for (int i = 0; i < 4; ++i) {
    RunEpisode(*engine, "rebook", {"search_flights", "cancel_reservation"}, false,
               "rebook my flight to Boston on Friday");
  }
  ASSERT_OK_AND_ASSIGN(ExperienceResult r, engine->RecallExperience({.namespace_name = "me",
                                                                     .text = "rebook my flight to Boston on Friday",
                                                                     .task_type = "rebook",
                                                                     .episode_limit = 10}));
  ASSERT_EQ(r.episodes.size(), 6u);
  for (const ExperienceEpisode& x : r.episodes) {
    EXPECT_EQ(x.episode.outcome, "success") << x.episode.id;
    EXPECT_THAT(x.why, HasSubstr("succeeded"));
  }
  bool avoid = false, do_rule = false;
  for (const ExperienceRule& x : r.rules) {
    avoid = avoid || (x.rule.polarity == "avoid" && x.rule.tools == std::vector<std::string>{"cancel_reservation"});
    do_rule = do_rule || x.rule.polarity == "do";
  }
  EXPECT_TRUE(avoid) << "the failures' tool comes back as an avoid rule";
  EXPECT_TRUE(do_rule);
  ASSERT_FALSE(r.rules.empty());
  EXPECT_EQ(r.rules[0].rule.polarity, "do") << "active (6/6 → 0.61) before pending (4/4 → 0.51)";
}

// Without a given type, the type is inferred from the text: the episodes of the other type do not
// crowd out the task's.
TEST(ExperienceRecallTest, TheTypeIsInferredFromTheText) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("m.db")));
  const std::vector<std::string> cancels = {"cancel my order, I no longer need it", "please cancel the pending order",
                                            "I want to cancel order because it is late"};
  const std::vector<std::string> addresses = {"change the shipping address of my order",
                                              "update my address to the new flat", "my order should go to my new address"};
  for (const std::string& g : cancels) RunEpisode(*engine, "cancel", {"cancel_order"}, true, g);
  for (const std::string& g : addresses) RunEpisode(*engine, "address", {"modify_address"}, true, g);
  ASSERT_OK_AND_ASSIGN(ExperienceResult r,
                       engine->RecallExperience({.namespace_name = "me", .text = "cancel my order please"}));
  EXPECT_EQ(r.task_type_source, "inferred");
  EXPECT_EQ(r.task_type, "cancel");
  ASSERT_GE(r.episodes.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(r.episodes[i].episode.task_type, "cancel") << i;
}

// Every face validates through the Engine and names the field; the library, the capability layer
// (what REST calls) and the CLI say the same.
// Forgetting an event reaches the episode steps that copied it: their text goes (the tool name and
// the step's place stay), and full-text search of episodes no longer finds it.
TEST(ExperienceForgetTest, AStepCopiedFromAForgottenEventLosesItsText) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("e.db")));
  ASSERT_OK_AND_ASSIGN(IngestResult said, engine->Ingest({.namespace_name = "me", .session_id = "s", .role = "user",
                                                          .content = "The locker code is 4471, open it for the courier"}));
  ASSERT_OK_AND_ASSIGN(Episode e, engine->StartEpisode({.namespace_name = "me", .goal = "let the courier in"}));
  ASSERT_OK(engine->AddEpisodeStep({.namespace_name = "me", .episode_id = e.id,
                                     .step = {.action = "opened locker 4471 for the courier", .tool_name = "open_locker",
                                              .evidence_event_id = said.event.id}}));
  ASSERT_OK(engine->AddEpisodeStep({.namespace_name = "me", .episode_id = e.id,
                                     .step = {.action = "told the courier where the parcel is"}}));
  ASSERT_OK_AND_ASSIGN(ForgetReport forgot, engine->Forget({.ids = {said.event.id}, .namespace_name = "me", .reason = "user asked"}));
  EXPECT_EQ(forgot.events, 1);

  ASSERT_OK_AND_ASSIGN(Episode after, engine->GetEpisode("me", e.id));
  ASSERT_EQ(after.steps.size(), 2u);
  EXPECT_EQ(after.steps[0].action, "");
  EXPECT_EQ(after.steps[0].tool_name, "open_locker");
  EXPECT_EQ(after.steps[0].evidence_event_id, "");
  EXPECT_EQ(after.steps[1].action, "told the courier where the parcel is");
  test::RawDb raw(dir.File("e.db"));
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_fts WHERE episode_fts MATCH '4471'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_fts WHERE episode_fts MATCH 'parcel'"), 1);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_steps WHERE action LIKE '%4471%'"), 0);
}

// A detected episode's goal is a copy of its segment's first user turn: forgetting that turn
// takes the goal with it (the episode, its other steps and its outcome stay).
TEST(ExperienceForgetTest, ADetectedEpisodesGoalGoesWithTheTurnItCopied) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("g.db")));
  ASSERT_OK_AND_ASSIGN(std::vector<IngestResult> stored, engine->IngestBatch(TwoTasks("s1")));
  ASSERT_OK_AND_ASSIGN(SegmentReport segmented,
                       engine->SegmentEpisodes({.namespace_name = "me", .session_id = "s1", .close = true}));
  ASSERT_EQ(segmented.episodes.size(), 2u);
  ASSERT_EQ(segmented.episodes[0].goal, "Hi, please cancel my order W42");
  std::string turn;
  for (const IngestResult& r : stored) {
    if (r.event.content == segmented.episodes[0].goal) turn = r.event.id;
  }
  ASSERT_FALSE(turn.empty());
  ASSERT_OK_AND_ASSIGN(ForgetReport forgot, engine->Forget({.ids = {turn}, .namespace_name = "me", .reason = "user asked"}));
  EXPECT_EQ(forgot.events, 1);

  ASSERT_OK_AND_ASSIGN(Episode first, engine->GetEpisode("me", segmented.episodes[0].id));
  EXPECT_EQ(first.goal, "");
  EXPECT_EQ(first.outcome, "success");
  ASSERT_OK_AND_ASSIGN(Episode second, engine->GetEpisode("me", segmented.episodes[1].id));
  EXPECT_EQ(second.goal, "Hello, when will my other parcel arrive?");
  test::RawDb raw(dir.File("g.db"));
  // (W42 is still in the steps: they copied the tool call, which was not forgotten.)
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_fts WHERE episode_fts MATCH 'goal : W42'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episodes WHERE goal LIKE '%W42%'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM episode_fts WHERE episode_fts MATCH 'goal : parcel'"), 1);
}

TEST(ExperienceValidationTest, EveryEntryPointNamesTheBadField) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("m.db")));
  EXPECT_THAT(engine->StartEpisode({.namespace_name = "me", .goal = "  "}).error().message(),
              HasSubstr("field \"goal\": is required"));
  auto bad_step = engine->StartEpisode({.namespace_name = "me", .goal = "g", .steps = {{.action = "a"}, {}}});
  ASSERT_FALSE(bad_step);
  EXPECT_THAT(bad_step.error().message(), HasSubstr("step 2: field \"action\": is required"));
  EXPECT_EQ(engine->StartEpisode({.namespace_name = "", .goal = "g"}).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(engine->StartEpisode({.namespace_name = "me", .goal = "g", .boundary_confidence = 2}).error().message(),
            "field \"boundary_confidence\": must be between 0 and 1");
  ASSERT_OK_AND_ASSIGN(Episode e, engine->StartEpisode({.namespace_name = "me", .goal = "g"}));
  EXPECT_THAT(engine->EndEpisode({.namespace_name = "me", .episode_id = e.id, .outcome = "won"}).error().message(),
              HasSubstr("field \"outcome\": unknown value \"won\" (expected one of: success, partial, failure, "
                        "unknown)"));
  EXPECT_THAT(engine->EndEpisode({.namespace_name = "me", .episode_id = e.id, .outcome = "success",
                                  .reward = std::numeric_limits<double>::quiet_NaN()})
                  .error()
                  .message(),
              HasSubstr("field \"reward\""));
  EXPECT_EQ(engine->EndEpisode({.namespace_name = "me", .episode_id = "01NOPE", .outcome = "success"}).error().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(engine->RecallExperience({.namespace_name = "me", .text = ""}).error().message(),
            "field \"text\": is required");
  EXPECT_THAT(engine->RecallExperience({.namespace_name = "me", .text = "x", .rule_limit = 21}).error().message(),
              HasSubstr("field \"rule_limit\""));
  ASSERT_OK(engine->EndEpisode({.namespace_name = "me", .episode_id = e.id, .outcome = "success"}));
  EXPECT_EQ(engine->EndEpisode({.namespace_name = "me", .episode_id = e.id, .outcome = "success"}).error().code(),
            StatusCode::kFailedPrecondition);

  // The capability layer (REST): the same messages, and a step's field inside the array.
  const api::Capability* end = api::FindCapability("end_episode");
  const api::Capability* start = api::FindCapability("start_episode");
  ASSERT_NE(end, nullptr);
  ASSERT_NE(start, nullptr);
  auto api_outcome =
      api::Invoke(*engine, *end, {{"namespace", "me"}, {"id", e.id}, {"outcome", "won"}}, api::ArgsMode::kStrict);
  ASSERT_FALSE(api_outcome);
  EXPECT_THAT(api_outcome.error().message(), HasSubstr("field \"outcome\": unknown value \"won\""));
  auto api_step = api::Invoke(*engine, *start,
                              {{"namespace", "me"}, {"goal", "g"}, {"steps", {{{"action", "a"}}, {{"reason", "r"}}}}},
                              api::ArgsMode::kStrict);
  ASSERT_FALSE(api_step);
  EXPECT_THAT(api_step.error().message(), HasSubstr("step 2: field \"action\""));
  EXPECT_EQ(HttpStatusFor(api_step.error().code()), 400);

  // The CLI: exit 2 and the same message.
  const std::string db = dir.File("m.db");
  engine.reset();
  auto cli = RunCli({"--db", db, "episode", "end", "-n", "me", e.id, "won"});
  EXPECT_EQ(cli.exit_code, 2) << cli.Describe();
  EXPECT_THAT(cli.err, HasSubstr("field \"outcome\""));
  auto cli_step = RunCli({"--db", db, "episode", "start", "-n", "me", "g", "--steps", R"([{"reason": "r"}])"});
  EXPECT_EQ(cli_step.exit_code, 2) << cli_step.Describe();
  EXPECT_THAT(cli_step.err, HasSubstr("step 1: field \"action\""));
}

// The CLI end to end: start with steps, a step more, end, recall.
TEST(ExperienceCliTest, EpisodeStartStepEndAndRecall) {
  TempDir dir;
  const std::string db = dir.File("m.db");
  auto start = RunCli({"--db", db, "--json", "episode", "start", "-n", "me", "cancel the order I placed yesterday",
                       "--steps", R"([{"action": "looked the order up", "tool_name": "find_order"}])"});
  ASSERT_EQ(start.exit_code, 0) << start.Describe();
  const std::string id = nlohmann::json::parse(start.out)["id"].get<std::string>();
  auto step = RunCli({"--db", db, "episode", "step", "-n", "me", id, "cancelled it", "--tool", "cancel_order"});
  ASSERT_EQ(step.exit_code, 0) << step.Describe();
  auto end = RunCli({"--db", db, "--json", "episode", "end", "-n", "me", id, "success", "--feedback", "thanks"});
  ASSERT_EQ(end.exit_code, 0) << end.Describe();
  const nlohmann::json ended = nlohmann::json::parse(end.out);
  EXPECT_EQ(ended["episode"]["task_type"], "cancel_order");
  EXPECT_EQ(ended["episode"]["task_type_source"], "write_signature");
  auto recall = RunCli({"--db", db, "experience", "recall", "-n", "me", "cancel my order"});
  ASSERT_EQ(recall.exit_code, 0) << recall.Describe();
  EXPECT_THAT(recall.out, HasSubstr("cancel the order I placed yesterday"));
  EXPECT_THAT(recall.out, HasSubstr("[cancel_order] cancelled it"));
}


// ---- Episodes from the event stream, and captured calls as steps --------------------------------

TEST(EpisodeSegmentTest, TwoTasksBecomeTwoEpisodesOnceHoweverOftenItRuns) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("s.db")));
  ASSERT_OK(engine->IngestBatch(TwoTasks("s1")));
  const TimestampMs soon = 1796119800000;  // 2026-12-01T10:10:00Z: the session is not idle yet
  ASSERT_OK_AND_ASSIGN(SegmentReport open, engine->SegmentEpisodes({.namespace_name = "me", .now = soon}));
  ASSERT_EQ(open.episodes.size(), 1u);  // the second task is still open
  const Episode& first = open.episodes[0];
  EXPECT_EQ(first.origin, "detected");
  EXPECT_EQ(first.goal, "Hi, please cancel my order W42");
  EXPECT_EQ(first.outcome, "success");
  EXPECT_EQ(first.task_type, "cancel_order");
  EXPECT_EQ(first.step_count, 2);
  EXPECT_DOUBLE_EQ(first.boundary_confidence, 0.8);
  EXPECT_EQ(open.committed_at_once, 1);

  ASSERT_OK_AND_ASSIGN(SegmentReport again, engine->SegmentEpisodes({.namespace_name = "me", .now = soon}));
  EXPECT_TRUE(again.episodes.empty());
  ASSERT_OK_AND_ASSIGN(SegmentReport closed,
                       engine->SegmentEpisodes({.namespace_name = "me", .session_id = "s1", .close = true}));
  ASSERT_EQ(closed.episodes.size(), 1u);
  EXPECT_EQ(closed.episodes[0].goal, "Hello, when will my other parcel arrive?");
  EXPECT_EQ(closed.closed_segments, 1);
  ASSERT_OK_AND_ASSIGN(SegmentReport after, engine->SegmentEpisodes({.namespace_name = "me", .close = true}));
  EXPECT_TRUE(after.episodes.empty());
  ASSERT_OK_AND_ASSIGN(std::vector<Episode> all, engine->ListEpisodes({.namespace_name = "me"}));
  EXPECT_EQ(all.size(), 2u);
  ASSERT_OK_AND_ASSIGN(Episode got, engine->GetEpisode("me", first.id));
  ASSERT_EQ(got.steps.size(), 2u);
  EXPECT_EQ(got.steps[1].action, "cancel_order({\"order_id\":\"W42\"})");
  EXPECT_EQ(got.steps[1].result, "ok: cancelled");
  EXPECT_FALSE(got.steps[1].evidence_event_id.empty());

  // Idle for 30 minutes is over too; a session with explicit episodes is never segmented.
  ASSERT_OK(engine->IngestBatch(TwoTasks("s2")));
  ASSERT_OK(engine->StartEpisode({.namespace_name = "me", .goal = "handle s3", .session_id = "s3"}));
  ASSERT_OK(engine->IngestBatch(TwoTasks("s3")));
  ASSERT_OK_AND_ASSIGN(SegmentReport idle, engine->SegmentEpisodes({.namespace_name = "me", .now = soon + 3600000}));
  EXPECT_EQ(idle.episodes.size(), 2u);  // both of s2
  EXPECT_EQ(idle.sessions_skipped, 1);
}

TEST(EpisodeSegmentTest, EveryEntryPointValidatesTheSameWay) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("s.db")));
  EXPECT_EQ(engine->SegmentEpisodes({.namespace_name = ""}).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(engine->SegmentEpisodes({.namespace_name = "nobody"}).error().code(), StatusCode::kNotFound);
  ASSERT_OK(engine->IngestBatch(TwoTasks("s1")));
  auto missing = engine->SegmentEpisodes({.namespace_name = "me", .session_id = "s9"});
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.error().message(), HasSubstr("field \"session_id\""));
  const api::Capability* segment = api::FindCapability("segment_episodes");
  ASSERT_NE(segment, nullptr);
  auto api_missing = api::Invoke(*engine, *segment, {{"namespace", "me"}, {"session_id", "s9"}}, api::ArgsMode::kStrict);
  ASSERT_FALSE(api_missing);
  EXPECT_EQ(api_missing.error().message(), missing.error().message());
  const std::string db = dir.File("s.db");
  engine.reset();
  auto cli = RunCli({"--db", db, "episode", "segment", "-n", "me", "--session", "s9"});
  EXPECT_NE(cli.exit_code, 0);
  EXPECT_THAT(cli.err, HasSubstr("field \"session_id\""));
  auto ok = RunCli({"--db", db, "--json", "episode", "segment", "-n", "me", "--close"});
  ASSERT_EQ(ok.exit_code, 0) << ok.Describe();
  EXPECT_EQ(nlohmann::json::parse(ok.out)["episodes"].size(), 2u);
}

TEST(CapturedStepTest, AToolCallIsAStepOfTheOpenEpisodeOnce) {
  TempDir dir;
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("c.db")));
  ASSERT_OK_AND_ASSIGN(Episode e, engine->StartEpisode({.namespace_name = "me", .goal = "cancel W42", .session_id = "run"}));
  EventInput call = ToolCall("run", 1, "cancel_order", "tool_error");
  call.idempotency_key = "mcp-tap:01CAPTURE";
  ASSERT_OK_AND_ASSIGN(IngestResult stored, engine->Ingest(call));
  ASSERT_OK_AND_ASSIGN(IngestResult replay, engine->Ingest(call));  // the tap delivering it again
  EXPECT_TRUE(replay.duplicate);
  ASSERT_OK(engine->Ingest(ToolCall("elsewhere", 2, "refund", "ok")));  // no episode open there
  ASSERT_OK(engine->Ingest(Turn("run", 3, "user", "did it work?")));    // not a tool call

  ASSERT_OK_AND_ASSIGN(Episode got, engine->GetEpisode("me", e.id));
  ASSERT_EQ(got.steps.size(), 1u);
  EXPECT_EQ(got.steps[0].tool_name, "cancel_order");
  EXPECT_EQ(got.steps[0].action, "cancel_order({\"order_id\":\"W42\"})");
  EXPECT_EQ(got.steps[0].result, "tool_error: order already shipped");
  EXPECT_TRUE(got.steps[0].changes_state);
  EXPECT_EQ(got.steps[0].evidence_event_id, stored.event.id);
  EXPECT_EQ(got.write_signature, std::vector<std::string>{"cancel_order"});

  ASSERT_OK(engine->EndEpisode({.namespace_name = "me", .episode_id = e.id, .outcome = "failure"}));
  ASSERT_OK(engine->Ingest(ToolCall("run", 4, "get_order", "ok")));  // after the end: no step
  ASSERT_OK_AND_ASSIGN(Episode ended, engine->GetEpisode("me", e.id));
  EXPECT_EQ(ended.steps.size(), 1u);
  ASSERT_OK_AND_ASSIGN(std::vector<Episode> all, engine->ListEpisodes({.namespace_name = "me"}));
  EXPECT_EQ(all.size(), 1u);
}

}  // namespace
}  // namespace engram
