// codec/json_codec_test.cc — one time format on the wire (B36, B53): every time is ISO-8601 UTC,
// stored snapshots included, and an event also says the calendar it was written in.
#include "codec/json_codec.h"

#include <gtest/gtest.h>

namespace engram {
namespace {

TEST(JsonCodec, HistorySnapshotsCarryIsoTimes) {
  ClaimChange change;
  change.at = 1683554160000;
  change.action = "superseded";
  change.before_json = R"({"status":"active","valid_from":1683554160000,"valid_to":null,"value":"Lisbon"})";
  change.after_json = R"({"status":"superseded","valid_to":1704067200000,"detail":{"recorded_to":0}})";
  OrderedJson j = ClaimChangeToJson(change);
  EXPECT_EQ(j["at"], "2023-05-08T13:56:00.000Z");
  EXPECT_EQ(j["before"]["valid_from"], "2023-05-08T13:56:00.000Z");
  EXPECT_TRUE(j["before"]["valid_to"].is_null());
  EXPECT_EQ(j["before"]["value"], "Lisbon");
  EXPECT_EQ(j["after"]["valid_to"], "2024-01-01T00:00:00.000Z");
  EXPECT_EQ(j["after"]["detail"]["recorded_to"], "1970-01-01T00:00:00.000Z");
}

TEST(JsonCodec, AnEventSaysTheCalendarItWasWrittenIn) {
  Event e;
  e.occurred_at = 1683521100000;  // 2023-05-08T04:45:00Z, written at +08:00
  e.utc_offset_minutes = 480;
  OrderedJson j = EventToJson(e);
  EXPECT_EQ(j["occurred_at"], "2023-05-08T04:45:00.000Z");
  EXPECT_EQ(j["occurred_at_local"], "2023-05-08T12:45:00+08:00");
  EXPECT_EQ(j["utc_offset_minutes"], 480);
}

}  // namespace
}  // namespace engram
