#include "experience/boundary_detector.h"

#include <gtest/gtest.h>

#include <memory>

namespace engram::experience {
namespace {

std::unique_ptr<text::Analyzer> NewAnalyzer() {
  auto a = text::Analyzer::Create(TextAnalysis::kFull);
  EXPECT_TRUE(a.has_value());
  return std::move(*a);
}

StreamEvent Turn(const std::string& role, const std::string& text) {
  static int n = 0;
  return {.event_id = "e" + std::to_string(++n), .role = role, .text = text};
}

StreamEvent Tool(const std::string& name, bool failed = false) {
  StreamEvent e = Turn("tool", name + " called");
  e.tool_name = name;
  e.changes_state = name.rfind("get_", 0) != 0;
  e.failed = failed;
  return e;
}

TEST(BoundaryDetectorTest, ClosingSignalsInEnglishAndChinese) {
  EXPECT_EQ(BoundaryDetector::ClosingStrength("Thank you so much for your help!"), 1.0);
  EXPECT_EQ(BoundaryDetector::ClosingStrength("That's all, bye"), 1.0);
  EXPECT_EQ(BoundaryDetector::ClosingStrength("That’s everything."), 1.0);  // a curly apostrophe
  EXPECT_EQ(BoundaryDetector::ClosingStrength("好的就这样，谢谢"), 1.0);
  EXPECT_EQ(BoundaryDetector::ClosingStrength("再见"), 1.0);
  // Gratitude attached to a request or a question closes nothing yet.
  EXPECT_EQ(BoundaryDetector::ClosingStrength("Yes, please go ahead with the booking. Thank you!"), 0.5);
  EXPECT_EQ(BoundaryDetector::ClosingStrength("谢谢，请帮我查一下订单"), 0.5);
  EXPECT_EQ(BoundaryDetector::ClosingStrength("Thanks, and when does it leave?"), 0.5);
  EXPECT_EQ(BoundaryDetector::ClosingStrength("My user id is mia_li_3668."), 0.0);
  // "thanksgiving" is not "thanks": English phrases match whole words.
  EXPECT_EQ(BoundaryDetector::ClosingStrength("I fly home for thanksgiving."), 0.0);
}

TEST(BoundaryDetectorTest, ANewRequestIsAGreetingOrARequestThatAnswersNothing) {
  EXPECT_EQ(BoundaryDetector::RequestStrength("Hi! I'd like to cancel my trip.", true), 1.0);
  EXPECT_EQ(BoundaryDetector::RequestStrength("你好，我想查一下物流", true), 1.0);
  EXPECT_EQ(BoundaryDetector::RequestStrength("Can you change my seat too", false), 1.0);
  EXPECT_EQ(BoundaryDetector::RequestStrength("I want the first one", true), 0.5);  // answers "which one?"
  EXPECT_EQ(BoundaryDetector::RequestStrength("Sure, it is 7447.", true), 0.0);
  EXPECT_EQ(BoundaryDetector::RequestStrength("Oh hi there, I need help", false), 1.0);  // a request anyway
}

TEST(BoundaryDetectorTest, ThanksAfterACompletedWriteReachesTheThresholdWithoutTheTextAfter) {
  auto analyzer = NewAnalyzer();
  BoundaryDetector detector(*analyzer);
  std::vector<StreamEvent> events = {Turn("user", "Please cancel reservation ABC123"), Tool("get_reservation"),
                                     Tool("cancel_reservation"), Turn("assistant", "It is cancelled."),
                                     Turn("user", "Thank you, that's all!"), Turn("user", "Book me a flight")};
  const BoundaryEvidence ev = detector.Score(events, 0, 5, /*closed=*/false);
  EXPECT_EQ(ev.closing, 1.0);
  EXPECT_EQ(ev.terminal_tool, 1.0);
  EXPECT_FALSE(ev.topic_shift.has_value());  // a few words after it: not yet known
  EXPECT_TRUE(ReachesCommit(ev.Confidence()));
}

TEST(BoundaryDetectorTest, TerminalToolIsTheSegmentsLastCall) {
  auto analyzer = NewAnalyzer();
  BoundaryDetector detector(*analyzer);
  std::vector<StreamEvent> failed = {Turn("user", "cancel it"), Tool("cancel_reservation", true),
                                     Turn("user", "ok")};
  EXPECT_EQ(detector.Score(failed, 0, 2, true).terminal_tool, 0.5);
  std::vector<StreamEvent> read_after = {Turn("user", "cancel it"), Tool("cancel_reservation"),
                                         Tool("get_reservation"), Turn("user", "ok")};
  EXPECT_EQ(detector.Score(read_after, 0, 3, true).terminal_tool, 0.5);
  std::vector<StreamEvent> reads = {Turn("user", "show it"), Tool("get_reservation"), Turn("user", "ok")};
  EXPECT_EQ(detector.Score(reads, 0, 2, true).terminal_tool, 0.0);
}

TEST(BoundaryDetectorTest, TopicShiftIsOneMinusTheCosineOfEitherSide) {
  auto analyzer = NewAnalyzer();
  BoundaryDetector detector(*analyzer);
  std::vector<StreamEvent> shifted = {Turn("user", "my flight reservation to Seattle needs a new seat"),
                                      Turn("assistant", "the flight reservation seat is changed"),
                                      Turn("user", "now my garden tomatoes need compost and water"),
                                      Turn("assistant", "tomatoes like compost, water them daily")};
  const BoundaryEvidence apart = detector.Score(shifted, 0, 2, /*closed=*/true);
  ASSERT_TRUE(apart.topic_shift.has_value());
  EXPECT_GT(*apart.topic_shift, 0.9);
  std::vector<StreamEvent> same = {Turn("user", "my flight reservation to Seattle needs a new seat"),
                                   Turn("assistant", "which seat on the flight?"),
                                   Turn("user", "a window seat on the Seattle flight reservation"),
                                   Turn("assistant", "the window seat is yours")};
  const BoundaryEvidence close = detector.Score(same, 0, 2, /*closed=*/true);
  ASSERT_TRUE(close.topic_shift.has_value());
  EXPECT_LT(*close.topic_shift, 0.6);
  EXPECT_DOUBLE_EQ(Cosine({{"a", 1}}, {{"a", 2}}), 1.0);
  EXPECT_DOUBLE_EQ(Cosine({{"a", 1}}, {}), 0.0);
}

TEST(BoundaryDetectorTest, ConfidenceIsTheDesignsWeightedSum) {
  BoundaryEvidence ev{.closing = 1, .new_request = 0, .terminal_tool = 0.5};
  EXPECT_DOUBLE_EQ(ev.Confidence(), 0.5 + 0.15);
  EXPECT_DOUBLE_EQ(ev.MaxConfidence(), 0.5 + 0.15 + 0.2);
  ev.topic_shift = 0.5;
  EXPECT_DOUBLE_EQ(ev.Confidence(), 0.75);
  BoundaryEvidence both{.closing = 0.5, .new_request = 0.5};
  EXPECT_DOUBLE_EQ(both.Explicit(), 0.75);  // a noisy-or
}

}  // namespace
}  // namespace engram::experience
