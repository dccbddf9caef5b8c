// tests/episode_runner.h — whole episodes and their rules through the Engine, for the experience
// tests (namespace "me"):
//
//   EndEpisodeResult r = RunEpisode(*engine, "refund", {"lookup_order", "refund_order"}, true);
//   std::vector<Rule> rules = RulesOf(*engine, "refund");
//
// Header-only (every test file is its own binary).
#ifndef ENGRAM_TESTS_EPISODE_RUNNER_H_
#define ENGRAM_TESTS_EPISODE_RUNNER_H_

#include <gtest/gtest.h>

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

}  // namespace engram::test

#endif  // ENGRAM_TESTS_EPISODE_RUNNER_H_
