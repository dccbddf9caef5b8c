// capture/call_matcher_test.cc — pairing requests and responses on one connection.
#include "capture/call_matcher.h"

#include <gtest/gtest.h>

namespace engram::capture {
namespace {

using json = nlohmann::json;
using Clock = CallMatcher::Clock;

json Call(json id, const std::string& name) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", "tools/call"},
          {"params", {{"name", name}, {"arguments", {{"k", name}}}}}};
}
json Ok(json id, const std::string& text) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", {{"content", {{{"type", "text"}, {"text", text}}}}}}};
}

TEST(CallMatcherTest, PairsByIdWhateverTheOrderOfResponses) {
  CallMatcher m("conn");
  const auto t0 = Clock::now();
  EXPECT_TRUE(m.Observe(Direction::kClientToServer, Call(1, "a"), t0, 1000).empty());
  EXPECT_TRUE(m.Observe(Direction::kClientToServer, Call("1", "b"), t0, 1001).empty());  // "1" is not 1
  auto done = m.Observe(Direction::kServerToClient, Ok("1", "for b"), t0 + std::chrono::milliseconds(5), 1006);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].tool_name, "b");
  EXPECT_EQ(done[0].request_id, "\"1\"");
  EXPECT_EQ(done[0].duration_us, 5000);
  EXPECT_EQ(done[0].started_at, 1001);
  EXPECT_EQ(done[0].connection_id, "conn");
  EXPECT_EQ(done[0].args_json, "{\"k\":\"b\"}");
  EXPECT_EQ(done[0].result_preview, "for b");
  done = m.Observe(Direction::kServerToClient, Ok(1, "for a"), t0, 1007);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].tool_name, "a");
  EXPECT_NE(done[0].capture_id, "");
  EXPECT_EQ(m.pending(), 0u);
}

TEST(CallMatcherTest, BatchesErrorsAndOtherMethods) {
  CallMatcher m("c");
  const auto t = Clock::now();
  json batch = json::array({Call(1, "a"), {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}}, Call(3, "c")});
  EXPECT_TRUE(m.Observe(Direction::kClientToServer, batch, t, 1).empty());
  EXPECT_EQ(m.pending(), 2u);
  json answers = json::array({Ok(2, "tools"), {{"jsonrpc", "2.0"}, {"id", 3}, {"error", {{"code", -32602}, {"message", "bad"}}}},
                              Ok(1, "fine")});
  auto done = m.Observe(Direction::kServerToClient, answers, t, 2);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].outcome, "rpc_error");
  EXPECT_EQ(done[0].tool_name, "c");
  EXPECT_EQ(done[1].outcome, "ok");
}

TEST(CallMatcherTest, TheServersOwnRequestsAndTheClientsAnswersAreNotCalls) {
  CallMatcher m("c");
  const auto t = Clock::now();
  m.Observe(Direction::kClientToServer, Call(7, "a"), t, 1);
  // The server asks the client something with the same id (another id space); the client answers.
  EXPECT_TRUE(m.Observe(Direction::kServerToClient, {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "sampling/createMessage"}},
                        t, 2)
                  .empty());
  EXPECT_TRUE(m.Observe(Direction::kClientToServer, Ok(7, "client's answer"), t, 3).empty());
  EXPECT_EQ(m.pending(), 1u);
  auto done = m.Observe(Direction::kServerToClient, Ok(7, "server's answer"), t, 4);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].result_preview, "server's answer");
}

TEST(CallMatcherTest, CancelledAndUnansweredCallsAreStillRecorded) {
  CallMatcher m("c");
  const auto t = Clock::now();
  m.Observe(Direction::kClientToServer, Call(1, "slow"), t, 1);
  m.Observe(Direction::kClientToServer, Call(2, "never"), t, 1);
  auto done = m.Observe(Direction::kClientToServer,
                        {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                         {"params", {{"requestId", 1}, {"reason", "user pressed stop"}}}},
                        t + std::chrono::milliseconds(3), 2);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].outcome, "cancelled");
  EXPECT_EQ(done[0].error_message, "user pressed stop");
  EXPECT_TRUE(m.Observe(Direction::kServerToClient, Ok(1, "late"), t, 3).empty());  // the late answer pairs with nothing
  auto rest = m.Close();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].tool_name, "never");
  EXPECT_EQ(rest[0].outcome, "no_response");
  EXPECT_EQ(rest[0].duration_us, -1);
}

TEST(CallMatcherTest, ACallWithoutAToolNameIsCountedNotCaptured) {
  CallMatcher m("c");
  m.Observe(Direction::kClientToServer, {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", json::object()}},
            Clock::now(), 1);
  EXPECT_EQ(m.pending(), 0u);
  EXPECT_EQ(m.malformed(), 1);
}

}  // namespace
}  // namespace engram::capture
