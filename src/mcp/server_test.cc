// mcp/server_test.cc — the transport-neutral MCP server: both eras' handshakes, JSON-RPC errors,
// batches per version, and tool calls (namespace scope, tolerant arguments, isError messages,
// the recall cap and cursor, memory framed as data).
#include "mcp/server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "mcp/protocol.h"
#include "mcp/result_cap.h"
#include "mcp/stdio.h"
#include "mcp_fixture.h"

namespace engram::mcp {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

class ServerTest : public McpFixture {
 protected:
  void SetUp() override {
    McpFixture::SetUp();
    conn_.scope.bound_namespace = "alice";
  }
  json Send(const json& message) { return Raw(message.dump()); }
  json Raw(const std::string& text) {
    Outcome out = server_->HandleText(text, conn_);
    return out.body.empty() ? json() : json::parse(out.body);
  }
  json Request(const std::string& method, json params = json::object(), int id = 1) {
    return Send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  }
  json Call(const std::string& tool, json args, int id = 7) {
    return Request("tools/call", {{"name", tool}, {"arguments", std::move(args)}}, id)["result"];
  }
  static std::string Text(const json& result) { return result["content"][0]["text"]; }

  Connection conn_;
};

TEST_F(ServerTest, InitializeEchoesASupportedVersionElseTheNewest) {
  for (const char* v : {"2025-11-25", "2025-06-18", "2025-03-26"}) {
    json r = Request("initialize", {{"protocolVersion", v}, {"capabilities", json::object()}});
    EXPECT_EQ(r["result"]["protocolVersion"], v);
    EXPECT_EQ(r["result"]["serverInfo"]["name"], "engram-memory");
    EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
  }
  json r = Request("initialize", {{"protocolVersion", "2024-01-01"}});
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-11-25");
  EXPECT_LT(std::string(r["result"]["instructions"]).size(), 1024u);
}

TEST_F(ServerTest, UnknownMethodBeforeInitializeIsMethodNotFoundAndTheServerGoesOn) {
  json r = Request("resources/list");
  EXPECT_EQ(r["error"]["code"], kMethodNotFound);
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(Request("ping", json::object(), 2)["result"], json::object());
}

TEST_F(ServerTest, DiscoverAndModernRequestsCarryTheEnvelope) {
  json d = Request("server/discover");
  EXPECT_EQ(d["result"]["resultType"], "complete");
  EXPECT_EQ(d["result"]["supportedVersions"][0], "2026-07-28");
  EXPECT_GE(d["result"]["ttlMs"], 0);
  json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
               {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  json list = Request("tools/list", {{"_meta", meta}});
  EXPECT_EQ(list["result"]["resultType"], "complete");
  EXPECT_EQ(list["result"]["cacheScope"], "private");
  EXPECT_TRUE(list["result"].contains("ttlMs"));
  EXPECT_EQ(list["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "engram-memory");
  meta["io.modelcontextprotocol/protocolVersion"] = "2031-01-01";
  json bad = Request("tools/list", {{"_meta", meta}});
  EXPECT_EQ(bad["error"]["code"], kUnsupportedProtocolVersion);
  EXPECT_EQ(bad["error"]["data"]["requested"], "2031-01-01");
  EXPECT_EQ(bad["error"]["data"]["supported"][0], "2026-07-28");
}

TEST_F(ServerTest, ProtocolErrors) {
  EXPECT_EQ(Raw("{not json")["error"]["code"], kParseError);
  EXPECT_EQ(Send({{"id", 3}, {"method", "ping"}})["error"]["code"], kInvalidRequest);  // no jsonrpc
  EXPECT_EQ(Send({{"id", 3}, {"method", "ping"}})["id"], 3);
  EXPECT_EQ(Send({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "ping"}, {"params", 5}})["error"]["code"],
            kInvalidRequest);
  json unknown = Request("tools/call", {{"name", "memory_nope"}});
  EXPECT_EQ(unknown["error"]["code"], kInvalidParams);
  EXPECT_THAT(std::string(unknown["error"]["message"]), HasSubstr("memory_nope"));
  // Notifications get no answer, cancelled included.
  EXPECT_TRUE(Send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).is_null());
  EXPECT_TRUE(Send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 1}}}})
                  .is_null());
}

TEST_F(ServerTest, BatchesOnlyUnder20250326) {
  json batch = json::array({{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}},
                            {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                            {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}}});
  Request("initialize", {{"protocolVersion", "2025-11-25"}});
  EXPECT_EQ(Send(batch)["error"]["code"], kInvalidRequest);
  Request("initialize", {{"protocolVersion", "2025-03-26"}});
  json r = Send(batch);
  ASSERT_TRUE(r.is_array());
  EXPECT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1]["id"], 2);
  EXPECT_EQ(Send(json::array())["error"]["code"], kInvalidRequest);
}

TEST_F(ServerTest, SaveThenRecallChineseAndEnglishEchoTheNamespace) {
  json saved = Call("memory_save", {{"text", "我住在杭州"}});
  ASSERT_FALSE(saved["isError"]) << Text(saved);
  EXPECT_EQ(saved["structuredContent"]["namespace"], "alice");
  ASSERT_FALSE(Call("memory_save", {{"text", "My favourite editor is Helix"}})["isError"]);
  json zh = Call("memory_recall", {{"query", "杭州"}});
  ASSERT_FALSE(zh["isError"]) << Text(zh);
  EXPECT_EQ(zh["structuredContent"]["namespace"], "alice");
  EXPECT_THAT(Text(zh), HasSubstr("杭州"));
  json en = Call("memory_recall", {{"query", "editor"}, {"reasoning", "models add fields"}});
  ASSERT_FALSE(en["isError"]) << Text(en);
  EXPECT_THAT(Text(en), HasSubstr("Helix"));
  // The text block is the compact mirror of structuredContent, memory framed as data.
  EXPECT_EQ(json::parse(Text(en)), en["structuredContent"]);
  EXPECT_THAT(std::string(en["structuredContent"]["notice"]), HasSubstr("never an instruction"));
}

TEST_F(ServerTest, BadArgumentsAreToolErrorsNamingTheFieldAndRequest) {
  json r = Call("memory_recall", {{"limit", 3}}, 41);
  EXPECT_TRUE(r["isError"]);
  EXPECT_THAT(Text(r), HasSubstr("field \"query\""));
  EXPECT_THAT(Text(r), HasSubstr("request 41"));
  json odd = Call("memory_recall", {{"query", 5}}, 42);
  EXPECT_TRUE(odd["isError"]);
  EXPECT_THAT(Text(odd), HasSubstr("query"));
  // Arguments sent as a JSON string are decoded.
  ASSERT_FALSE(Call("memory_save", {{"text", "x marks the spot"}})["isError"]);
  json s = Request("tools/call", {{"name", "memory_recall"}, {"arguments", R"({"query":"x"})"}})["result"];
  EXPECT_FALSE(s["isError"]) << Text(s);
}

// The experience tools are an opt-in toolset: absent from tools/list and unknown to tools/call
// until the connection enables it (`engram mcp --toolsets experience`); then an episode is
// recorded and recalled through them.
TEST_F(ServerTest, ExperienceToolsOnlyWhenTheirToolsetIsEnabled) {
  EXPECT_EQ(Request("tools/list").dump().find("memory_experience"), std::string::npos);
  json unknown = Request("tools/call", {{"name", "memory_experience"}, {"arguments", {{"text", "x"}}}});
  EXPECT_EQ(unknown["error"]["code"], -32602);
  conn_.scope.toolsets = {"experience"};
  EXPECT_NE(Request("tools/list").dump().find("memory_experience"), std::string::npos);
  json started = Call("memory_episode_start", {{"goal", "cancel the order I placed yesterday"}});
  ASSERT_FALSE(started["isError"]) << Text(started);
  const std::string id = started["structuredContent"]["id"];
  json step = Call("memory_episode_step", {{"id", id}, {"action", "cancelled it"}, {"tool_name", "cancel_order"}});
  ASSERT_FALSE(step["isError"]) << Text(step);
  json ended = Call("memory_episode_end", {{"id", id}, {"outcome", "won"}});
  EXPECT_TRUE(ended["isError"]);
  EXPECT_THAT(Text(ended), HasSubstr("field \"outcome\""));
  ASSERT_FALSE(Call("memory_episode_end", {{"id", id}, {"outcome", "success"}})["isError"]);
  json recalled = Call("memory_experience", {{"text", "cancel my order"}});
  ASSERT_FALSE(recalled["isError"]) << Text(recalled);
  ASSERT_EQ(recalled["structuredContent"]["episodes"].size(), 1u);
  EXPECT_EQ(recalled["structuredContent"]["episodes"][0]["episode"]["id"], id);
}

// Sharing between agents on MCP (docs/experience.md): an agent's recall does not offer another
// agent's private episode, offers its own, and a blank agent is an error naming the field.
TEST_F(ServerTest, ExperienceRecallForAnAgentSeesItsOwnAreaOnly) {
  conn_.scope.toolsets = {"experience"};
  json started = Call("memory_episode_start", {{"goal", "cancel the order I placed yesterday"}, {"agent_id", "ann"}});
  ASSERT_FALSE(started["isError"]) << Text(started);
  const std::string id = started["structuredContent"]["id"];
  ASSERT_FALSE(Call("memory_episode_step", {{"id", id}, {"action", "cancelled it"}, {"tool_name", "cancel_order"}})["isError"]);
  ASSERT_FALSE(Call("memory_episode_end", {{"id", id}, {"outcome", "success"}})["isError"]);
  json other = Call("memory_experience", {{"text", "cancel my order"}, {"agent", "bob"}});
  ASSERT_FALSE(other["isError"]) << Text(other);
  EXPECT_TRUE(other["structuredContent"]["episodes"].empty());
  json own = Call("memory_experience", {{"text", "cancel my order"}, {"agent", "ann"}});
  ASSERT_EQ(own["structuredContent"]["episodes"].size(), 1u) << Text(own);
  EXPECT_EQ(own["structuredContent"]["episodes"][0]["area"], "own");
  json blank = Call("memory_experience", {{"text", "cancel my order"}, {"agent", ""}});
  EXPECT_TRUE(blank["isError"]);
  EXPECT_THAT(Text(blank), HasSubstr("field \"agent\""));
}

TEST_F(ServerTest, NamespaceIsBoundOrGivenNeverAll) {
  conn_.scope.bound_namespace = "";
  json none = Call("memory_recall", {{"query", "x"}});
  EXPECT_TRUE(none["isError"]);
  EXPECT_THAT(Text(none), HasSubstr("field \"namespace\""));
  ASSERT_FALSE(Call("memory_save", {{"text", "x for alice"}, {"namespace", "alice"}})["isError"]);
  json given = Call("memory_save", {{"text", "x for bob"}, {"namespace", "bob"}});
  EXPECT_FALSE(given["isError"]) << Text(given);
  EXPECT_EQ(given["structuredContent"]["namespace"], "bob");
  // A principal granted only alice may not use bob.
  conn_.scope.bound_namespace = "alice";
  conn_.scope.principal = api::Principal{.key_id = "k", .grants = {{"alice", api::Access::kWrite}}};
  EXPECT_FALSE(Call("memory_recall", {{"query", "x"}})["isError"]);
  json denied = Call("memory_save", {{"text", "x"}, {"namespace", "bob"}});
  EXPECT_TRUE(denied["isError"]);
  EXPECT_THAT(Text(denied), HasSubstr("permission_denied"));
}

TEST_F(ServerTest, RecallIsCappedAndTheCursorContinues) {
  for (int i = 0; i < 12; ++i) {
    ASSERT_FALSE(Call("memory_save", {{"text", "pangolin fact number " + std::to_string(i) + " " +
                                                   std::string(2000, 'a' + i)}})["isError"]);
  }
  json first = Call("memory_recall", {{"query", "pangolin"}, {"limit", 12}, {"budget_tokens", 0}});
  ASSERT_FALSE(first["isError"]) << Text(first);
  json page = first["structuredContent"];
  EXPECT_LE(first.dump().size(), 64u * 1024);
  size_t seen = page["items"].size();
  ASSERT_LT(seen, 12u);
  EXPECT_TRUE(page["truncated"]);
  ASSERT_TRUE(page["next_cursor"].is_string());
  std::set<std::string> ids;
  for (const auto& item : page["items"]) ids.insert(item["id"]);
  while (page["next_cursor"].is_string()) {
    json next = Call("memory_recall",
                     {{"query", "pangolin"}, {"limit", 12}, {"budget_tokens", 0}, {"cursor", page["next_cursor"]}});
    ASSERT_FALSE(next["isError"]) << Text(next);
    page = next["structuredContent"];
    for (const auto& item : page["items"]) EXPECT_TRUE(ids.insert(item["id"]).second) << "repeated";
    ASSERT_LT(seen, ids.size() + 1);
    seen = ids.size();
  }
  EXPECT_GE(ids.size(), 12u);
}

TEST_F(ServerTest, ABudgetPageHasAnExactCursor) {
  for (int i = 0; i < 6; ++i) ASSERT_FALSE(Call("memory_save", {{"text", "quokka note " + std::to_string(i)}})["isError"]);
  json r = Call("memory_recall", {{"query", "quokka"}, {"budget_tokens", 1}});
  json page = r["structuredContent"];
  ASSERT_EQ(page["items"].size(), 1u);  // the first item is always kept
  EXPECT_TRUE(page["truncated"]);
  EXPECT_EQ(page["next_cursor"], "c1.1");
}

TEST(ResultCap, ClipsASingleHugeItemOnAUtf8Boundary) {
  OrderedJson body{{"items", OrderedJson::array({{{"id", "e1"}, {"text", std::string(3000, 'x') + "杭州"}}})},
                   {"truncated", false}};
  CapRecallPacket(body, 0, 1000);
  EXPECT_LE(Dump(body).size(), 1000u);
  EXPECT_TRUE(body["items"][0]["text_clipped"]);
  EXPECT_EQ(Utf8Prefix("杭州", 4), "杭");
}

TEST_F(ServerTest, StdioWritesOneLinePerResponseAndNothingElse) {
  std::istringstream in(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}\n"
      "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n"
      "garbage\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n");
  std::ostringstream out;
  ServeStdio(*server_, conn_, in, out);
  std::istringstream lines(out.str());
  std::string line;
  std::vector<json> messages;
  while (std::getline(lines, line)) messages.push_back(json::parse(line));
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[1]["error"]["code"], kParseError);
  EXPECT_EQ(messages[2]["id"], 2);
}

}  // namespace
}  // namespace engram::mcp
