#include "store/sqlite/string_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::sqlite {
namespace {

using ::testing::ElementsAre;

TEST(StringListTest, RoundTripsInOrder) {
  EXPECT_EQ(StringListToJson({"b", "a", "雪"}), R"(["b","a","雪"])");
  EXPECT_THAT(StringListFromJson(StringListToJson({"b", "a", "雪"})), ElementsAre("b", "a", "雪"));
  EXPECT_EQ(StringListToJson({}), "[]");
}

TEST(StringListTest, WhatIsNotAStringListGivesNothingOfIt) {
  EXPECT_TRUE(StringListFromJson("").empty());
  EXPECT_TRUE(StringListFromJson("{\"a\": 1}").empty());
  EXPECT_THAT(StringListFromJson(R"(["a", 3, null, "b"])"), ElementsAre("a", "b"));
}

}  // namespace
}  // namespace engram::sqlite
