// write/extraction/rule_sentences_test.cc — splitting a text at breaks.
#include "write/extraction/rule_sentences.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace engram::extraction::rules {
namespace {

TEST(RuleSentencesTest, SplitAtBreaksLeavesTheBreaksOut) {
  const std::vector<std::string_view> breaks = {", so ", "; ", "，所以"};
  EXPECT_EQ(SplitAtBreaks("Told to cut caffeine, so it's tea now; fine", breaks),
            (std::vector<std::string_view>{"Told to cut caffeine", "it's tea now", "fine"}));
  EXPECT_EQ(SplitAtBreaks("医生不让喝咖啡，所以改喝茶了", breaks),
            (std::vector<std::string_view>{"医生不让喝咖啡", "改喝茶了"}));
  EXPECT_EQ(SplitAtBreaks("no break here", breaks), (std::vector<std::string_view>{"no break here"}));
  EXPECT_TRUE(SplitAtBreaks("", breaks).empty());
  EXPECT_EQ(SplitAtBreaks("a, so b", {"", ", so "}), (std::vector<std::string_view>{"a", "b"}));  // an empty break
}

TEST(RuleSentencesTest, SplitAtBreaksKeepsOffsetsPastCurlyApostrophes) {
  const std::vector<std::string_view> parts = SplitAtBreaks("Doctor\u2019s orders, so it\u2019s tea now", {", so "});
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], "Doctor\u2019s orders");
  EXPECT_EQ(parts[1], "it\u2019s tea now");
}

}  // namespace
}  // namespace engram::extraction::rules
