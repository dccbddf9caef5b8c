#include "util/ulid.h"

#include <gtest/gtest.h>

#include <set>

namespace engram {
namespace {

TEST(UlidTest, ShapeAndOrder) {
  std::string prev;
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = NewUlid(1700000000000 + i / 10);
    EXPECT_TRUE(IsUlid(id)) << id;
    EXPECT_GT(id, prev);
    prev = id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(UlidTest, EncodesTimeInTheFirstTenCharacters) {
  // Spec example: time 1469918176385 → "01ARYZ6S41".
  EXPECT_EQ(NewUlid(1469918176385).substr(0, 10), "01ARYZ6S41");
}

TEST(UlidTest, RejectsOtherStrings) {
  EXPECT_FALSE(IsUlid(""));
  EXPECT_FALSE(IsUlid("01ARYZ6S41TSV4RRFFQ69G5FAu"));
  EXPECT_FALSE(IsUlid("01ARYZ6S41TSV4RRFFQ69G5FAVX"));
}

}  // namespace
}  // namespace engram
