#include "experience/episode_segmenter.h"

#include <gtest/gtest.h>

#include <memory>

namespace engram::experience {
namespace {

class EpisodeSegmenterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = text::Analyzer::Create(TextAnalysis::kFull);
    ASSERT_TRUE(a.has_value());
    analyzer_ = std::move(*a);
    detector_ = std::make_unique<BoundaryDetector>(*analyzer_);
  }

  void Add(const std::string& role, const std::string& text) {
    events_.push_back({.event_id = "e" + std::to_string(events_.size()), .role = role, .text = text,
                       .at = static_cast<TimestampMs>(events_.size()) * 1000});
  }
  void AddTool(const std::string& name, bool failed = false, const std::string& args = "{}") {
    Add("tool", "tool " + name);
    StreamEvent& e = events_.back();
    e.tool_name = name;
    e.tool_args = args;
    e.tool_result = failed ? "tool_error: not allowed" : "ok";
    e.changes_state = name.rfind("get_", 0) != 0 && name.rfind("search_", 0) != 0;
    e.failed = failed;
  }
  // Assistant turns about one subject, `terms` words in all (distinct enough to fill a window).
  void AddTalk(const std::vector<std::string>& words, size_t terms) {
    std::string text;
    for (size_t i = 0; i < terms; ++i) text += words[i % words.size()] + std::to_string(i % 7 == 0 ? 0 : 1) + " ";
    Add("assistant", text);
  }

  std::unique_ptr<text::Analyzer> analyzer_;
  std::unique_ptr<BoundaryDetector> detector_;
  std::vector<StreamEvent> events_;
};

TEST_F(EpisodeSegmenterTest, ThanksAfterAWriteEndsATaskInEnglish) {
  Add("user", "Hi! I want to cancel my reservation ABC123.");
  Add("assistant", "Could you confirm the reservation id?");
  Add("user", "Yes, ABC123. Please go ahead. Thank you!");
  AddTool("get_reservation_details");
  AddTool("cancel_reservation");
  Add("assistant", "Your reservation is cancelled.");
  Add("user", "Thank you so much for your help!");
  Add("user", "Hello, I need to book a flight to Boston.");
  AddTool("search_direct_flight");
  Add("assistant", "Here are the flights.");

  const SegmentPlan open = PlanSegments(*detector_, events_, /*closed=*/false);
  ASSERT_EQ(open.segments.size(), 1u);
  EXPECT_EQ(open.segments[0].begin, 0u);
  EXPECT_EQ(open.segments[0].end, 7u);
  EXPECT_EQ(open.open_begin, 7u);  // the second task is still open: no episode yet

  const SegmentPlan closed = PlanSegments(*detector_, events_, /*closed=*/true);
  ASSERT_EQ(closed.segments.size(), 2u);
  EXPECT_TRUE(closed.segments[1].by_close);
  auto first = DraftEpisode(events_, closed.segments[0]);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->goal, "Hi! I want to cancel my reservation ABC123.");
  ASSERT_EQ(first->steps.size(), 2u);
  EXPECT_EQ(first->steps[1].tool_name, "cancel_reservation");
  EXPECT_TRUE(first->steps[1].changes_state);
  EXPECT_EQ(first->steps[1].evidence_event_id, "e4");
  EXPECT_EQ(first->outcome, "success");
  EXPECT_EQ(first->outcome_source, "user_feedback");
  EXPECT_EQ(first->feedback, "Thank you so much for your help!");
  EXPECT_EQ(first->first_event_id, "e0");
  EXPECT_EQ(first->last_event_id, "e6");
  EXPECT_GE(first->boundary_confidence, kCommitConfidence - 1e-9);
  auto second = DraftEpisode(events_, closed.segments[1]);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->outcome, "unknown");  // no thanks, no failed call
  // The mid-task "Thank you!" attached to a request made no boundary.
  for (const BoundaryDecision& d : closed.decisions) {
    if (d.candidate == 6u) {
      EXPECT_EQ(d.decision, "dropped");
    }
  }
}

TEST_F(EpisodeSegmenterTest, ClosingAndNewRequestInChinese) {
  Add("user", "你好，帮我取消订单 W42");
  AddTool("cancel_order");
  Add("assistant", "订单已取消。");
  Add("user", "好的就这样，谢谢");
  Add("user", "你好，我想查一下物流");
  AddTool("get_shipping_status");
  const SegmentPlan plan = PlanSegments(*detector_, events_, /*closed=*/true);
  ASSERT_EQ(plan.segments.size(), 2u);
  EXPECT_EQ(plan.segments[0].end, 4u);
  EXPECT_EQ(DraftEpisode(events_, plan.segments[0])->outcome, "success");
}

TEST_F(EpisodeSegmenterTest, AFailedLastCallIsAFailure) {
  Add("user", "Please cancel order W42");
  AddTool("cancel_order", /*failed=*/true);
  Add("assistant", "I could not cancel it: it has shipped.");
  const SegmentPlan plan = PlanSegments(*detector_, events_, /*closed=*/true);
  ASSERT_EQ(plan.segments.size(), 1u);
  auto draft = DraftEpisode(events_, plan.segments[0]);
  EXPECT_EQ(draft->outcome, "failure");
  EXPECT_EQ(draft->outcome_source, "heuristic");
}

TEST_F(EpisodeSegmenterTest, AWeakBoundaryWaitsThenCommitsOnATopicShift) {
  const std::vector<std::string> flights = {"flight", "seat", "boarding", "airport", "luggage", "departure"};
  const std::vector<std::string> garden = {"tomato", "compost", "soil", "seedling", "watering", "mulch"};
  Add("user", "Please change my flight seat and boarding group");
  AddTalk(flights, 40);
  AddTool("update_seat", /*failed=*/true);  // a failed terminal call: half the tool evidence
  Add("user", "Thanks, bye!");
  Add("user", "Hey, my tomato seedlings are wilting");  // a new request: explicit 1 → 0.5 + 0.15
  AddTalk(garden, 30);

  const SegmentPlan before = PlanSegments(*detector_, events_, /*closed=*/false);
  EXPECT_TRUE(before.segments.empty());
  ASSERT_FALSE(before.decisions.empty());
  EXPECT_EQ(before.decisions.back().decision, "waiting");
  EXPECT_EQ(before.open_begin, 0u);

  AddTalk(garden, 300);  // the text after it fills the window: another subject altogether
  const SegmentPlan after = PlanSegments(*detector_, events_, /*closed=*/false);
  ASSERT_EQ(after.segments.size(), 1u);
  EXPECT_EQ(after.segments[0].end, 4u);
  const BoundaryDecision& d = after.decisions.back();
  EXPECT_EQ(d.decision, "committed");
  EXPECT_TRUE(d.waited);
  EXPECT_FALSE(d.at_close);
  EXPECT_GT(*d.evidence.topic_shift, 0.75);
}

TEST_F(EpisodeSegmenterTest, AWeakBoundaryWithoutAShiftIsDropped) {
  const std::vector<std::string> flights = {"flight", "seat", "boarding", "airport", "luggage", "departure"};
  Add("user", "Please change my flight seat and boarding group");
  AddTalk(flights, 40);
  AddTool("update_seat", /*failed=*/true);
  Add("user", "Thanks, bye!");
  Add("user", "Hey, what about my flight seat and luggage at departure?");
  AddTalk(flights, 300);  // the same subject goes on
  const SegmentPlan plan = PlanSegments(*detector_, events_, /*closed=*/true);
  ASSERT_EQ(plan.segments.size(), 1u);  // one episode: the session's end
  EXPECT_EQ(plan.segments[0].end, events_.size());
  EXPECT_EQ(plan.decisions.back().decision, "dropped");
  EXPECT_TRUE(plan.decisions.back().waited);
}

TEST_F(EpisodeSegmenterTest, AWaitingBoundaryIsDecidedWhenTheSessionCloses) {
  const std::vector<std::string> flights = {"flight", "seat", "boarding", "airport", "luggage", "departure"};
  Add("user", "Please change my flight seat and boarding group");
  AddTalk(flights, 40);
  AddTool("update_seat", /*failed=*/true);
  Add("user", "Thanks, bye!");
  Add("user", "Hey, my tomato seedlings are wilting in the compost");
  const SegmentPlan plan = PlanSegments(*detector_, events_, /*closed=*/true);
  const BoundaryDecision& d = plan.decisions.back();
  EXPECT_TRUE(d.at_close);
  EXPECT_EQ(d.decision, "committed");
  EXPECT_EQ(plan.segments.size(), 2u);
}

TEST_F(EpisodeSegmenterTest, EventByEventGivesTheSameSegmentsAsOnce) {
  const std::vector<std::string> garden = {"tomato", "compost", "soil", "seedling", "watering", "mulch"};
  Add("user", "Hi, cancel reservation ABC123 please");
  AddTool("cancel_reservation");
  Add("assistant", "Done, it is cancelled.");
  Add("user", "Thanks, that's all");
  Add("user", "Hello, please change my seat");
  AddTool("update_seat", true);
  Add("user", "Thanks, bye!");
  Add("user", "Hey, my tomato seedlings are wilting");
  AddTalk(garden, 250);
  Add("user", "Thank you!");
  const SegmentPlan once = PlanSegments(*detector_, events_, /*closed=*/true);
  size_t committed_end = 0;
  std::vector<size_t> ends;
  for (size_t n = 1; n <= events_.size(); ++n) {
    std::vector<StreamEvent> tail(events_.begin() + committed_end, events_.begin() + n);
    const SegmentPlan step = PlanSegments(*detector_, tail, /*closed=*/n == events_.size());
    for (const PlannedSegment& s : step.segments) ends.push_back(committed_end + s.end);
    committed_end += step.open_begin;
  }
  std::vector<size_t> expected;
  for (const PlannedSegment& s : once.segments) expected.push_back(s.end);
  EXPECT_EQ(ends, expected);
  EXPECT_EQ(once.segments.size(), 3u);
}

TEST_F(EpisodeSegmenterTest, WithoutToolsTheAssistantTurnsAreTheSteps) {
  Add("user", "What is the baggage allowance for economy?");
  Add("assistant", "Two bags of 23 kg each.");
  const SegmentPlan plan = PlanSegments(*detector_, events_, /*closed=*/true);
  ASSERT_EQ(plan.segments.size(), 1u);
  auto draft = DraftEpisode(events_, plan.segments[0]);
  ASSERT_EQ(draft->steps.size(), 1u);
  EXPECT_EQ(draft->steps[0].action, "Two bags of 23 kg each.");
  EXPECT_EQ(draft->steps[0].evidence_event_id, "e1");
  EXPECT_TRUE(draft->steps[0].tool_name.empty());
}

TEST(StreamEventOfTest, ACapturedCallGivesItsArgumentsAndOutcome) {
  Event e{.id = "01J", .role = "tool", .content = "tool cancel_order(...) → tool_error", .tool_name = "cancel_order"};
  e.metadata_json = R"({"capture": {"args_summary": "{\"order_id\":\"#W42\"}", "outcome": "tool_error",
                       "error_message": "order already shipped"}})";
  const StreamEvent s = StreamEventOf(e);
  EXPECT_EQ(s.tool_args, "{\"order_id\":\"#W42\"}");
  EXPECT_TRUE(s.failed);
  EXPECT_TRUE(s.changes_state);
  EXPECT_EQ(s.tool_result, "tool_error: order already shipped");
  const EpisodeStep step = ToolCallStep(s);
  EXPECT_EQ(step.action, "cancel_order({\"order_id\":\"#W42\"})");
  EXPECT_EQ(step.evidence_event_id, "01J");
  // A malformed capture (a number where a string belongs) is read as far as it goes.
  e.metadata_json = R"({"capture": {"outcome": 3}})";
  EXPECT_FALSE(StreamEventOf(e).failed);
  Event plain{.id = "02J", .role = "tool", .content = "[]", .metadata_json = R"({"is_error": true})", .tool_name = "get_user"};
  EXPECT_TRUE(StreamEventOf(plain).failed);
  EXPECT_FALSE(StreamEventOf(plain).changes_state);
}

}  // namespace
}  // namespace engram::experience
