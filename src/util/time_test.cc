#include "util/time.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace engram

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
