// EventOf (capture/capture_delivery.h): a record is delivered where the tap that recorded it was
// told, whoever delivers it (F1: two taps on one journal mixed their namespaces).
#include "capture/capture_delivery.h"

#include <gtest/gtest.h>

namespace engram::capture {
namespace {

ToolCallRecord Record(const std::string& ns, const std::string& session) {
  ToolCallRecord r;
  r.capture_id = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
  r.connection_id = "c1";
  r.request_id = "7";
  r.tool_name = "lookup";
  r.outcome = "ok";
  r.namespace_name = ns;
  r.fallback_session = session;
  return r;
}

TEST(CaptureDeliveryTest, ARecordGoesToItsTapsNamespaceNotTheDeliverers) {
  DeliveryOptions drain{.namespace_name = "drainer", .fallback_session = "drain-session", .journal_path = "j.tap"};
  const EventInput e = EventOf(Record("agent-a", "s-a"), drain);
  EXPECT_EQ(e.namespace_name, "agent-a");
  EXPECT_EQ(e.session_id, "s-a");
  const EventInput no_session = EventOf(Record("agent-a", ""), drain);
  EXPECT_EQ(no_session.session_id, "mcp-tap-c1");
}

TEST(CaptureDeliveryTest, ARecordOfAnOlderJournalGoesToTheDeliverersNamespace) {
  DeliveryOptions drain{.namespace_name = "drainer", .fallback_session = "drain-session", .journal_path = "j.tap"};
  const EventInput e = EventOf(Record("", ""), drain);
  EXPECT_EQ(e.namespace_name, "drainer");
  EXPECT_EQ(e.session_id, "drain-session");
}

TEST(CaptureDeliveryTest, TheDestinationSurvivesTheJournalsJson) {
  auto back = FromJson(ToJson(Record("agent-a", "s-a")));
  ASSERT_TRUE(back.has_value()) << back.error().ToString();
  EXPECT_EQ(back->namespace_name, "agent-a");
  EXPECT_EQ(back->fallback_session, "s-a");
  auto old = FromJson(ToJson(Record("", "")));
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->namespace_name, "");
}

}  // namespace
}  // namespace engram::capture
