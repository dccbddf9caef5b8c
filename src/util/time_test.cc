#include "util/time.h"

#include <date/date.h>
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace engram {
namespace {

TEST(TimeTest, ParsesDateOnlyAsUtcMidnight) {
  auto t = ParseTimestamp("2023-05-08");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(FormatTimestamp(*t), "2023-05-08T00:00:00.000Z");
}

TEST(TimeTest, NaiveTimeIsUtc) {
  auto naive = ParseTimestamp("2023-05-08T13:56:00");
  auto zulu = ParseTimestamp("2023-05-08T13:56:00Z");
  ASSERT_TRUE(naive && zulu);
  EXPECT_EQ(*naive, *zulu);
}

TEST(TimeTest, OffsetIsConvertedToUtc) {
  auto t = ParseTimestamp("2023-05-08T21:56:00+08:00");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(FormatTimestamp(*t), "2023-05-08T13:56:00.000Z");
  auto t2 = ParseTimestamp("2023-05-08T08:56:00-0500");
  ASSERT_TRUE(t2.has_value());
  EXPECT_EQ(FormatTimestamp(*t2), "2023-05-08T13:56:00.000Z");
}

TEST(TimeTest, LocalTimestampKeepsTheWrittenOffset) {
  auto t = ParseLocalTimestamp("2023-05-08T01:00:00+08:00");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(FormatTimestamp(t->utc_ms), "2023-05-07T17:00:00.000Z");
  EXPECT_EQ(t->utc_offset_minutes, 480);
  auto west = ParseLocalTimestamp("2023-05-08T08:56:00-0530");
  ASSERT_TRUE(west.has_value());
  EXPECT_EQ(west->utc_offset_minutes, -330);
  for (const char* utc : {"2023-05-08", "2023-05-08T01:00:00Z", "2023-05-08T01:00"}) {
    auto u = ParseLocalTimestamp(utc);
    ASSERT_TRUE(u.has_value()) << utc;
    EXPECT_EQ(u->utc_offset_minutes, 0) << utc;
  }
  EXPECT_FALSE(ParseLocalTimestamp("yesterday").has_value());
}

// Text in a known calendar (an LLM's answer about a speaker at +08:00): no offset written means
// that calendar; a written offset or Z wins.
TEST(TimeTest, TimestampAtOffsetReadsUnmarkedTimesAsLocal) {
  EXPECT_EQ(FormatTimestamp(*ParseTimestampAtOffset("2023-05-07", 480)), "2023-05-06T16:00:00.000Z");
  EXPECT_EQ(FormatTimestamp(*ParseTimestampAtOffset("2023-05-07T09:30", -300)), "2023-05-07T14:30:00.000Z");
  EXPECT_EQ(FormatTimestamp(*ParseTimestampAtOffset("2023-05-07T09:30:00.250", 60)), "2023-05-07T08:30:00.250Z");
  EXPECT_EQ(FormatTimestamp(*ParseTimestampAtOffset("2023-05-07T00:00:00Z", 480)), "2023-05-07T00:00:00.000Z");
  EXPECT_EQ(FormatTimestamp(*ParseTimestampAtOffset("2023-05-07T00:00:00+00:00", 480)), "2023-05-07T00:00:00.000Z");
  EXPECT_EQ(FormatTimestamp(*ParseTimestampAtOffset("2023-05-07T08:00:00+08:00", -300)), "2023-05-07T00:00:00.000Z");
  EXPECT_FALSE(ParseTimestampAtOffset("yesterday", 480).has_value());
  for (const char* written : {"2023-05-07T00:00:00+00:00", "2023-05-07T00:00:00Z", "2023-05-07T08:00-05:00"}) {
    auto t = ParseLocalTimestamp(written);
    ASSERT_TRUE(t.has_value()) << written;
    EXPECT_TRUE(t->offset_written) << written;
  }
  for (const char* unmarked : {"2023-05-07T00:00:00", "2023-05-07", "2023-05-07T08:00:00.250"}) {
    auto t = ParseLocalTimestamp(unmarked);
    ASSERT_TRUE(t.has_value()) << unmarked;
    EXPECT_FALSE(t->offset_written) << unmarked;
  }
  // The year range is checked on the UTC instant, and the default offset must be a real one.
  EXPECT_FALSE(ParseTimestampAtOffset("9999-12-31T23:00", -300).has_value());
  EXPECT_FALSE(ParseTimestampAtOffset("0001-01-01", 480).has_value());
  EXPECT_TRUE(ParseTimestampAtOffset("0001-01-01", -300).has_value());
  EXPECT_FALSE(ParseTimestampAtOffset("2023-05-07", 100000).has_value());
  EXPECT_FALSE(ParseTimestampAtOffset("2023-05-07", -721).has_value());
}

TEST(TimeTest, LocalTimestampIsWrittenWithItsOffset) {
  const TimestampMs t = *ParseTimestamp("2023-05-07T17:00:00.250Z");
  EXPECT_EQ(FormatLocalTimestamp(t, 480), "2023-05-08T01:00:00+08:00");
  EXPECT_EQ(FormatLocalTimestamp(t, -330), "2023-05-07T11:30:00-05:30");
  EXPECT_EQ(FormatLocalTimestamp(t, 0), "2023-05-07T17:00:00Z");
  EXPECT_EQ(FormatLocalTimestamp(t, 100000), "2023-05-08T07:00:00+14:00");  // clamped
}

TEST(TimeTest, FractionsFinerThanMillisecondsAreTruncated) {
  for (const char* text : {"2023-05-08T09:00:00.123456+08:00", "2023-05-08T09:00:00.123999999+08:00",
                           "2023-05-08 09:00:00.1234+08:00"}) {
    auto t = ParseTimestamp(text);
    ASSERT_TRUE(t.has_value()) << text;
    EXPECT_EQ(FormatTimestamp(*t), "2023-05-08T01:00:00.123Z") << text;
  }
  auto utc = ParseTimestamp("2023-05-08T01:00:00.000001Z");
  ASSERT_TRUE(utc.has_value());
  EXPECT_EQ(FormatTimestamp(*utc), "2023-05-08T01:00:00.000Z");
  EXPECT_FALSE(ParseTimestamp("2023-05-08T01:00:00.12x4Z").has_value());
}

TEST(TimeTest, ParsesUtcOffsets) {
  const std::pair<const char*, int> good[] = {{"+08:00", 480}, {"-05:00", -300}, {"+0530", 330},
                                              {"+08", 480},    {"Z", 0},         {"-12:00", -720},
                                              {"+14:00", 840}, {"+00:00", 0},    {"+8", 480},
                                              {"+8:00", 480},  {"-9:30", -570}};
  for (const auto& [text, minutes] : good) {
    auto o = ParseUtcOffset(text);
    ASSERT_TRUE(o.has_value()) << text;
    EXPECT_EQ(*o, minutes) << text;
  }
  for (const char* bad : {"", "8", "08:00", "+", "+08:60", "+15:00", "-13:00", "+08:00x", "UTC", "+08-00",
                          "+080", "++08:00", "+08:00:00", "+8:0", "+123:00", "+08:", "+:30"}) {
    auto o = ParseUtcOffset(bad);
    ASSERT_FALSE(o.has_value()) << bad;
    EXPECT_EQ(o.error().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(TimeTest, FractionalSecondsAndSpaceSeparator) {
  auto t = ParseTimestamp("2023-05-08 13:56:00.250");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(FormatTimestamp(*t), "2023-05-08T13:56:00.250Z");
}

TEST(TimeTest, RejectsGarbage) {
  for (const char* bad : {"", "   ", "yesterday", "2023-13-01", "2023-05-08T25:00:00", "2023-05-08Tx",
                          "2023-05-08T13:56:00Zjunk", "8 May 2023"}) {
    auto t = ParseTimestamp(bad);
    EXPECT_FALSE(t.has_value()) << bad;
    if (!t) {
      EXPECT_EQ(t.error().code(), StatusCode::kInvalidArgument);
    }
  }
}

namespace engram {
namespace {

TEST(TimeTest, RejectsImpossibleUtcOffsets) {
  for (const char* bad : {"2024-05-10T10:00:00+25:00", "2024-05-10T10:00:00+99:99", "2024-05-10T10:00:00-13:00",
                          "2024-05-10T10:00:00+1500"}) {
    auto t = ParseTimestamp(bad);
    EXPECT_FALSE(t.has_value()) << bad;
  }
  EXPECT_TRUE(ParseTimestamp("2024-05-10T10:00:00+14:00").has_value());
  EXPECT_TRUE(ParseTimestamp("2024-05-10T10:00:00-12:00").has_value());
  EXPECT_TRUE(ParseTimestamp("2024-05-10T10:00:00+05:45").has_value());
}

}  // namespace
}  // namespace engram

// FormatTimestamp prints the years 1–9999 by hand: the same text as date::format, to the ms,
// before 1970 too (floor, not truncation), at both ends of the range.
TEST(FormatTimestamp, HandWrittenDigitsMatchDateFormat) {
  using Ms = std::chrono::sys_time<std::chrono::milliseconds>;
  std::vector<TimestampMs> cases = {0, -1, 1, 999, -999, -1000, -86400000, 86399999, kMinTimestampMs,
                                    kMaxTimestampMs, 1683554160000, 951782400000 /* 2000-02-29 */};
  uint64_t x = 88172645463325252ULL;  // xorshift64: a fixed spread over the whole range
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    cases.push_back(kMinTimestampMs + static_cast<TimestampMs>(x % static_cast<uint64_t>(kMaxTimestampMs - kMinTimestampMs)));
  }
  for (TimestampMs ms : cases) {
    ASSERT_EQ(FormatTimestamp(ms), date::format("%Y-%m-%dT%H:%M:%SZ", Ms{std::chrono::milliseconds{ms}})) << ms;
  }
}

}  // namespace
}  // namespace engram
