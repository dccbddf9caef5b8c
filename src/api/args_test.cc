// api/args_test.cc — the one argument validation of every face: types, limits, defaults, unknown
// fields (strict) and the tolerant reading of what models send.
#include "api/args.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace engram::api {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

std::vector<ParamSpec> Specs() {
  return {{.name = "query", .required = true, .max_length = 5},
          {.name = "limit", .type = ParamType::kInteger, .minimum = 1, .maximum = 100, .default_value = 10},
          {.name = "match", .enum_values = {"any", "all"}, .default_value = "any"},
          {.name = "ids", .type = ParamType::kStringArray, .max_length = 3},
          {.name = "at", .type = ParamType::kTimestamp},
          {.name = "flag", .type = ParamType::kBoolean}};
}

TEST(ParseArgs, FillsDefaultsAndReadsTypedValues) {
  auto a = ParseArgs(Specs(), json{{"query", "abc"}, {"ids", {"x", "y"}}, {"flag", true}}, ArgsMode::kStrict);
  ASSERT_TRUE(a) << a.error().ToString();
  EXPECT_EQ(a->String("query"), "abc");
  EXPECT_EQ(a->Int("limit"), 10);
  EXPECT_EQ(a->String("match"), "any");
  EXPECT_EQ(a->Strings("ids"), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(a->Bool("flag"));
  EXPECT_FALSE(a->OptString("at").has_value());
}

TEST(ParseArgs, StrictErrorsNameTheField) {
  struct Case {
    json input;
    std::string field;
    std::string what;
  } cases[] = {
      {json::object(), "query", "required"},
      {json{{"query", 5}}, "query", "expected string, got an integer"},
      {json{{"query", "abcdef"}}, "query", "longer than 5"},
      {json{{"query", "a"}, {"limit", 0}}, "limit", "outside 1–100"},
      {json{{"query", "a"}, {"limit", "5"}}, "limit", "expected integer"},
      {json{{"query", "a"}, {"match", "most"}}, "match", "expected one of: any, all"},
      {json{{"query", "a"}, {"ids", {"a", "b", "c", "d"}}}, "ids", "more than 3 items"},
      {json{{"query", "a"}, {"ids", {1}}}, "ids", "an array of strings"},
      {json{{"query", "a"}, {"at", "yesterday"}}, "at", "ISO-8601"},
      {json{{"query", "a"}, {"reasoning", "x"}}, "reasoning", "unknown field"},
      {json{{"query", "\xff"}}, "query", "UTF-8"},
  };
  for (const Case& c : cases) {
    auto a = ParseArgs(Specs(), c.input, ArgsMode::kStrict);
    ASSERT_FALSE(a) << c.input.dump(-1, ' ', false, json::error_handler_t::replace);
    EXPECT_EQ(a.error().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(FieldOfMessage(a.error().message()), c.field) << a.error().message();
    EXPECT_THAT(a.error().message(), HasSubstr(c.what));
  }
}

TEST(ParseArgs, RejectsNonObjects) {
  auto a = ParseArgs(Specs(), json::array(), ArgsMode::kTolerant);
  ASSERT_FALSE(a);
  EXPECT_THAT(a.error().message(), HasSubstr("expected a JSON object"));
}

TEST(ParseArgs, TolerantReadsWhatModelsSend) {
  auto a = ParseArgs(Specs(),
                     json{{"query", "a"}, {"limit", "500"}, {"ids", "[\"x\",\"y\"]"}, {"flag", "true"},
                          {"reasoning", "because"}, {"at", nullptr}},
                     ArgsMode::kTolerant);
  ASSERT_TRUE(a) << a.error().ToString();
  EXPECT_EQ(a->Int("limit"), 100);  // clamped
  EXPECT_EQ(a->Strings("ids"), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(a->Bool("flag"));
  EXPECT_EQ(a->ignored(), std::vector<std::string>{"reasoning"});
  auto comma = ParseArgs(Specs(), json{{"query", "a"}, {"ids", "x, y ,z"}}, ArgsMode::kTolerant);
  ASSERT_TRUE(comma);
  EXPECT_EQ(comma->Strings("ids"), (std::vector<std::string>{"x", "y", "z"}));
  // Still an error when the value cannot be read as the type.
  EXPECT_FALSE(ParseArgs(Specs(), json{{"query", "a"}, {"limit", "many"}}, ArgsMode::kTolerant));
}

TEST(FieldOfMessage, FindsTheFieldAfterALocation) {
  EXPECT_EQ(FieldOfMessage("event 3: field \"role\": unknown value"), "role");
  EXPECT_EQ(FieldOfMessage("no database at /x"), "");
}

}  // namespace
}  // namespace engram::api
