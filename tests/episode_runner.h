// tests/episode_runner.h — whole episodes and their rules through the Engine, for the experience
// tests (namespace "me"):
//
//   EndEpisodeResult r = RunEpisode(*engine, "refund", {"lookup_order", "refund_order"}, true);
//   std::vector<Rule> rules = RulesOf(*engine, "refund");
//   engine->IngestBatch(TwoTasks("s1"));   // a session of two tasks, for the segmenter
//
// Header-only (every test file is its own binary).
#ifndef ENGRAM_TESTS_EPISODE_RUNNER_H_
#define ENGRAM_TESTS_EPISODE_RUNNER_H_

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engram/engine.h"

namespace engram::test {

// Runs one whole episode of a declared type: a step per tool (reads and writes told by the tool
// name), then its outcome.
inline EndEpisodeResult RunEpisode(Engine& engine, const std::string& type, const std::vector<std::string>& tools,
                                   bool success, const std::string& goal = "refund the damaged order") {
  EpisodeStartInput in{.namespace_name = "me", .goal = goal, .task_type = type};
  for (const std::string& t : tools) in.steps.push_back({.action = "call " + t, .tool_name = t});
  auto started = engine.StartEpisode(in);
  EXPECT_TRUE(started.has_value()) << started.error().ToString();
  auto ended = engine.EndEpisode(
      {.namespace_name = "me", .episode_id = started->id, .outcome = success ? "success" : "failure"});
  EXPECT_TRUE(ended.has_value()) << ended.error().ToString();
  return *ended;
}

// The rules of a type, deprecated ones included, oldest first.
inline std::vector<Rule> RulesOf(Engine& engine, const std::string& type) {
  auto rules = engine.ListRules({.namespace_name = "me", .task_type = type, .include_deprecated = true});
  EXPECT_TRUE(rules.has_value()) << rules.error().ToString();
  return *rules;
}

// A user / assistant turn of session `session`, at minute `minute` of 2026-12-01.
inline EventInput Turn(const std::string& session, int minute, const std::string& role, const std::string& text) {
  return {.namespace_name = "me", .session_id = session, .role = role, .content = text,
          .occurred_at = fmt::format("2026-12-01T10:{:02d}:00Z", minute)};
}

// A tool event as `engram mcp-tap` writes it (metadata.capture).
inline EventInput ToolCall(const std::string& session, int minute, const std::string& tool, const std::string& outcome) {
  EventInput e = Turn(session, minute, "tool", "tool " + tool + "({\"order_id\":\"W42\"}) → " + outcome);
  e.tool_name = tool;
  nlohmann::json capture = {{"tool_name", tool}, {"args_summary", "{\"order_id\":\"W42\"}"}, {"outcome", outcome},
                            {"error_message", outcome == "ok" ? "" : "order already shipped"},
                            {"result_preview", outcome == "ok" ? "cancelled" : ""}};
  e.metadata_json = nlohmann::json{{"capture", capture}}.dump();
  return e;
}

// Two tasks in one session: a cancellation closed with thanks, then a question about delivery.
inline std::vector<EventInput> TwoTasks(const std::string& session) {
  return {Turn(session, 0, "user", "Hi, please cancel my order W42"), ToolCall(session, 1, "get_order", "ok"),
          ToolCall(session, 2, "cancel_order", "ok"), Turn(session, 3, "assistant", "Order W42 is cancelled."),
          Turn(session, 4, "user", "Thank you, that's all!"),
          Turn(session, 5, "user", "Hello, when will my other parcel arrive?"),
          ToolCall(session, 6, "get_delivery_date", "ok"), Turn(session, 7, "assistant", "On Friday.")};
}

}  // namespace engram::test

#endif  // ENGRAM_TESTS_EPISODE_RUNNER_H_
