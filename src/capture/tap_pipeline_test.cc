// capture/tap_pipeline_test.cc — the recorder both faces of the tap share: messages paired per
// exchange, an ended exchange's unanswered calls as no_response, WaitRecorded returning once the
// record is committed, what could not be captured counted.
#include "capture/tap_pipeline.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "tap_events.h"
#include "test_util.h"
#include "util/time.h"

namespace engram::capture {
namespace {

using json = nlohmann::json;
using test::Call;
using test::TempDir;

class TapPipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TapOptions options;
    options.journal_path = dir_.File("journal");
    options.flush_ms = 0;
    auto p = TapPipeline::Start(options);
    ASSERT_TRUE(p.has_value()) << p.error().message();
    pipeline_ = std::move(*p);
  }

  uint64_t Seen(const std::string& exchange, Direction direction, const json& message) {
    return pipeline_->Submit({.exchange = exchange, .connection = "conn-" + exchange, .direction = direction,
                              .bytes = message.dump(), .seen = CallMatcher::Clock::now(), .seen_unix_ms = NowMs()});
  }
  void End(const std::string& exchange) { pipeline_->Submit({.exchange = exchange, .end = true}); }

  // The journal's records by connection and request id ("conn-a/1").
  std::map<std::string, ToolCallRecord> Journaled() {
    auto journal = CaptureJournal::Open(dir_.File("journal"));
    EXPECT_TRUE(journal.has_value());
    auto due = (*journal)->Due(NowMs() + 1000, 100);
    EXPECT_TRUE(due.has_value());
    std::map<std::string, ToolCallRecord> out;
    for (const JournalEntry& e : *due) out[e.record.connection_id + "/" + e.record.request_id] = e.record;
    return out;
  }

  static json Answer(int id) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"content", json::array()}, {"isError", false}}}};
  }

  TempDir dir_;
  std::unique_ptr<TapPipeline> pipeline_;
};

TEST_F(TapPipelineTest, EachExchangePairsItsOwnCallsAndWaitRecordedMeansCommitted) {
  Seen("a", Direction::kClientToServer, Call(1, "first", json::object()));
  Seen("b", Direction::kClientToServer, Call(1, "second", json::object()));  // the same id, another exchange
  const uint64_t ticket = Seen("b", Direction::kServerToClient, Answer(1));
  pipeline_->WaitRecorded(ticket);
  auto records = Journaled();  // b's call is in the journal once WaitRecorded returns
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records["conn-b/1"].tool_name, "second");
  EXPECT_EQ(records["conn-b/1"].outcome, "ok");
  End("a");  // a ends unanswered
  EXPECT_EQ(pipeline_->Finish().captured, 2);
  records = Journaled();
  EXPECT_EQ(records["conn-a/1"].tool_name, "first");
  EXPECT_EQ(records["conn-a/1"].outcome, "no_response");
}

TEST_F(TapPipelineTest, ACancellationReachesTheCallsOtherExchangesOfItsConnection) {
  // Streamable HTTP: the call is POSTed in exchange a, its cancellation in exchange c of the same
  // connection; exchange x is another connection's (its id 1 is not the one cancelled).
  const json cancel = {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                       {"params", {{"requestId", 1}, {"reason", "user stopped it"}}}};
  pipeline_->Submit({.exchange = "a", .connection = "session", .bytes = Call(1, "slow", json::object()).dump()});
  pipeline_->Submit({.exchange = "x", .connection = "other", .bytes = Call(1, "other", json::object()).dump()});
  pipeline_->Submit({.exchange = "c", .connection = "session", .bytes = cancel.dump()});
  End("c");
  End("a");
  End("x");
  pipeline_->Finish();
  auto records = Journaled();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records["session/1"].outcome, "cancelled");
  EXPECT_EQ(records["session/1"].error_message, "user stopped it");
  EXPECT_EQ(records["other/1"].outcome, "no_response");
}

TEST_F(TapPipelineTest, WhatCannotBeCapturedIsCounted) {
  pipeline_->Submit({.exchange = "a", .connection = "a", .direction = Direction::kClientToServer,
                     .bytes = R"({"method":"tools/call", cut)"});
  Seen("a", Direction::kClientToServer, {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", {}}});
  Seen("a", Direction::kServerToClient, json("a server may send anything"));
  pipeline_->CountNotCaptured(3);
  const TapReport report = pipeline_->Finish();
  EXPECT_EQ(report.captured, 0);
  EXPECT_EQ(report.not_captured, 5);  // unparsable + no tool name + 3 from the transport
}

}  // namespace
}  // namespace engram::capture
