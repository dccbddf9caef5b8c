#include "providers/model_answer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::providers {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

// Accepts {"items":[...]} anywhere, a bare array only as the whole answer.
std::optional<json> Items(const json& doc, bool whole) {
  if (doc.is_object() && doc.contains("items")) return doc["items"];
  if (whole && doc.is_array()) return doc;
  return std::nullopt;
}

TEST(ModelAnswerTest, FindsTheDocumentInFencesProseAndTrailingCommas) {
  auto fenced = FindJsonAnswer("Sure!\n```json\n{\"items\":[1,2,]}\n```\nDone.", Items, "{\"items\":[...]}");
  ASSERT_TRUE(fenced.has_value()) << fenced.error().ToString();
  EXPECT_EQ(*fenced, json::array({1, 2}));
  auto prose = FindJsonAnswer("I think {\"note\": \"a {brace}\"} and {\"items\": [3]} fit.", Items, "x");
  ASSERT_TRUE(prose.has_value());
  EXPECT_EQ(*prose, json::array({3}));
  auto bare = FindJsonAnswer(" [4] ", Items, "x");
  ASSERT_TRUE(bare.has_value());
  EXPECT_EQ(*bare, json::array({4}));
}

TEST(ModelAnswerTest, SaysWhyNothingWasFound) {
  auto empty = FindJsonAnswer("   ", Items, "{\"items\":[...]}");
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(empty.error().message(), HasSubstr("empty"));
  auto other = FindJsonAnswer("{\"rules\": []}", Items, "{\"items\":[...]}");
  ASSERT_FALSE(other.has_value());
  EXPECT_THAT(other.error().message(), HasSubstr("no {\"items\":[...]} object found"));
  auto broken = FindJsonAnswer("{\"items\": [", Items, "x");
  ASSERT_FALSE(broken.has_value());
  EXPECT_THAT(broken.error().message(), HasSubstr("parse error"));
}

}  // namespace
}  // namespace engram::providers
