// mcp/tools_test.cc — tools/list as a contract: a golden file of the whole list, its size budget
// and the per-tool rules (title, outputSchema of type object, all four annotations, memory_*
// names). Regenerate the golden file after an intended change with
//   ENGRAM_UPDATE_GOLDEN=1 build/tools_test
// and review the diff.
#include "mcp/tools.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace engram::mcp {
namespace {

const std::string kGolden = std::string(ENGRAM_SOURCE_DIR) + "/tests/mcp/tools_list.golden.json";

TEST(ToolsList, MatchesTheGoldenFile) {
  const std::string list = Dump(ToolsList({}), 2) + "\n";
  if (std::getenv("ENGRAM_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(kGolden) << list;
    GTEST_SKIP() << "wrote " << kGolden;
  }
  std::ifstream in(kGolden);
  ASSERT_TRUE(in) << kGolden << " is missing: ENGRAM_UPDATE_GOLDEN=1 build/tools_test";
  std::stringstream golden;
  golden << in.rdbuf();
  EXPECT_EQ(list, golden.str()) << "tools/list changed: if intended, ENGRAM_UPDATE_GOLDEN=1 build/tools_test";
}

TEST(ToolsList, IsSmallAndDeterministic) {
  for (bool ns : {false, true}) {
    const std::string compact = Dump(ToolsList({.namespace_argument = ns}));
    EXPECT_LT(compact.size(), 6u * 1024) << "namespace_argument " << ns;
    EXPECT_EQ(compact, Dump(ToolsList({.namespace_argument = ns})));
  }
}

// The per-tool rules: a memory_* name, a title and description, an object inputSchema with the
// namespace first, an outputSchema of type object, all four annotations.
void ExpectToolRules(const OrderedJson& tools) {
  const std::regex name("^memory_[a-z_]{1,57}$");
  for (const auto& t : tools) {
    const std::string n = t["name"];
    EXPECT_TRUE(std::regex_match(n, name)) << n;
    EXPECT_FALSE(std::string(t["title"]).empty()) << n;
    EXPECT_FALSE(std::string(t["description"]).empty()) << n;
    EXPECT_EQ(t["inputSchema"]["type"], "object") << n;
    EXPECT_FALSE(t["inputSchema"].contains("additionalProperties")) << n;
    EXPECT_EQ(t["inputSchema"]["properties"].begin().key(), "namespace") << n;
    EXPECT_EQ(t["outputSchema"]["type"], "object") << n;
    for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
      EXPECT_TRUE(t["annotations"][hint].is_boolean()) << n << " " << hint;
    }
  }
}

TEST(ToolsList, EveryToolFollowsTheRules) {
  const OrderedJson tools = ToolsList({.namespace_argument = true})["tools"];
  EXPECT_GE(tools.size(), 7u);
  EXPECT_LE(tools.size(), 10u);
  ExpectToolRules(tools);
}

// Opt-in toolsets add their tools after the default ones and leave the default list as it is.
TEST(ToolsList, ToolsetsAreOptIn) {
  EXPECT_EQ(KnownToolsets(), std::vector<std::string>{"experience"});
  const OrderedJson plain = ToolsList({.namespace_argument = true})["tools"];
  const OrderedJson with = ToolsList({.namespace_argument = true, .toolsets = {"experience"}})["tools"];
  ASSERT_EQ(with.size(), plain.size() + 4);
  for (size_t i = 0; i < plain.size(); ++i) EXPECT_EQ(with[i], plain[i]) << i;
  std::vector<std::string> added;
  for (size_t i = plain.size(); i < with.size(); ++i) added.push_back(with[i]["name"]);
  EXPECT_EQ(added, (std::vector<std::string>{"memory_episode_start", "memory_episode_step", "memory_episode_end",
                                             "memory_experience"}));
  ExpectToolRules(with);
  EXPECT_EQ(Dump(ToolsList({.toolsets = {"unknown"}})), Dump(ToolsList({})));
  EXPECT_LT(Dump(with).size() - Dump(plain).size(), 3u * 1024) << "the toolset's own budget";
}

TEST(ToolsList, RecallDefaultsToATokenBudget) {
  for (const auto& t : ToolsList({})["tools"]) {
    if (t["name"] == "memory_recall") {
      EXPECT_EQ(t["inputSchema"]["properties"]["budget_tokens"]["default"], 2000);
    }
  }
}

TEST(ToolsList, FixturesOnlyWhenAsked) {
  EXPECT_EQ(ToolsList({}).dump().find("test_simple_text"), std::string::npos);
  EXPECT_NE(ToolsList({.fixtures = true}).dump().find("test_simple_text"), std::string::npos);
}

}  // namespace
}  // namespace engram::mcp
