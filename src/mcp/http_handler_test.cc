// mcp/http_handler_test.cc — MCP over streamable HTTP, tested on HttpRequest structs (no socket):
// JSON answers for Accept: application/json, 202 for notifications, 405 with Allow: POST, 403 for
// a foreign Origin or Host, no session ids, namespace from the path or header, and the 2026-07-28
// header rules.
#include "mcp/http_handler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mcp/protocol.h"
#include "mcp_fixture.h"

namespace engram::mcp {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

class HttpHandlerTest : public McpFixture {
 protected:
  void SetUp() override {
    McpFixture::SetUp();
    handler_ = MakeHttpHandler(*server_);
  }
  server::HttpRequest Post(const json& body, const std::string& path = "/mcp") {
    server::HttpRequest r{.method = "POST", .path = path, .body = body.dump()};
    r.headers = {{"content-type", "application/json"}, {"accept", "application/json"}, {"host", "127.0.0.1:8420"}};
    r.principal = api::Principal::Owner();
    return r;
  }
  static json Rpc(const std::string& method, json params = json::object()) {
    return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", std::move(params)}};
  }
  static json Body(const server::HttpResponse& r) { return json::parse(r.body); }

  server::HttpHandler handler_;
};

TEST_F(HttpHandlerTest, InitializeAnswersJsonWithoutASession) {
  auto r = handler_(Post(Rpc("initialize", {{"protocolVersion", "2025-11-25"}})));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(Body(r)["result"]["protocolVersion"], "2025-11-25");
  for (const auto& [name, value] : r.headers) EXPECT_NE(name, "Mcp-Session-Id");
}

TEST_F(HttpHandlerTest, NotificationsAre202) {
  auto r = handler_(Post({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
  EXPECT_EQ(r.status, 202);
  EXPECT_TRUE(r.body.empty());
}

TEST_F(HttpHandlerTest, OnlyPost) {
  for (const char* method : {"GET", "DELETE", "PUT"}) {
    auto req = Post(json::object());
    req.method = method;
    auto r = handler_(req);
    EXPECT_EQ(r.status, 405) << method;
    ASSERT_EQ(r.headers.size(), 1u);
    EXPECT_EQ(r.headers[0], (std::pair<std::string, std::string>{"Allow", "POST"}));
  }
}

TEST_F(HttpHandlerTest, ForeignOriginOrHostIs403) {
  auto req = Post(Rpc("ping"));
  req.headers["origin"] = "http://evil.example.com";
  EXPECT_EQ(handler_(req).status, 403);
  req.headers["origin"] = "http://localhost:3000";
  EXPECT_EQ(handler_(req).status, 200);
  req.headers["host"] = "evil.example.com";
  EXPECT_EQ(handler_(req).status, 403);
}

TEST_F(HttpHandlerTest, MalformedInputIs400AndAcceptMustAdmitJson) {
  auto req = Post(Rpc("ping"));
  req.body = "{oops";
  auto r = handler_(req);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["code"], kParseError);
  req = Post(Rpc("ping"));
  req.headers["accept"] = "text/html";
  EXPECT_EQ(handler_(req).status, 406);
  req = Post(Rpc("ping"));
  req.headers["mcp-protocol-version"] = "1999-01-01";
  EXPECT_EQ(handler_(req).status, 400);
}

TEST_F(HttpHandlerTest, NamespaceFromPathOrHeaderElseTheCallMustNameOne) {
  json save = Rpc("tools/call", {{"name", "memory_save"}, {"arguments", {{"text", "I use vim"}}}});
  json on_path = Body(handler_(Post(save, "/mcp/alice")));
  EXPECT_FALSE(on_path["result"]["isError"]) << on_path.dump();
  EXPECT_EQ(on_path["result"]["structuredContent"]["namespace"], "alice");
  auto req = Post(save);
  req.headers["x-engram-namespace"] = "bob";
  EXPECT_EQ(Body(handler_(req))["result"]["structuredContent"]["namespace"], "bob");
  json unbound = Body(handler_(Post(save)));
  EXPECT_TRUE(unbound["result"]["isError"]);
  EXPECT_THAT(std::string(unbound["result"]["content"][0]["text"]), HasSubstr("field \"namespace\""));
  // The key's grants decide: a key for alice may not write bob.
  req = Post(save, "/mcp/bob");
  req.principal = api::Principal{.key_id = "k1", .grants = {{"alice", api::Access::kWrite}}};
  json denied = Body(handler_(req));
  EXPECT_TRUE(denied["result"]["isError"]);
  EXPECT_THAT(std::string(denied["result"]["content"][0]["text"]), HasSubstr("permission_denied"));
}

// B27 on MCP: a blank namespace — as an argument, a header or a path segment — is an error naming
// the field, never every namespace, for every tool; and no tool lists or reaches every namespace.
TEST_F(HttpHandlerTest, B27_BlankNamespaceIsAnErrorForEveryTool) {
  json tools = Body(handler_(Post(Rpc("tools/list"))))["result"]["tools"];
  ASSERT_FALSE(tools.empty());
  for (const json& tool : tools) {
    const std::string name = tool["name"];
    if (name.rfind("memory_", 0) != 0) continue;
    EXPECT_FALSE(tool["inputSchema"]["properties"].contains("all_namespaces")) << name;
    for (const char* blank : {"", " "}) {
      json args = {{"namespace", blank}, {"query", "x"}, {"text", "x"}, {"id", "x"}, {"ids", {"x"}},
                   {"events", json::array({{{"session_id", "s"}, {"role", "user"}, {"content", "x"}}})},
                   {"feedback_id", "fb1:e:x:0000000000000000"}, {"helpful", true}};
      json r = Body(handler_(Post(Rpc("tools/call", {{"name", name}, {"arguments", args}}))));
      ASSERT_TRUE(r.contains("result")) << name << ": " << r.dump();
      EXPECT_TRUE(r["result"]["isError"]) << name << ": " << r.dump();
      EXPECT_THAT(r["result"]["content"][0]["text"].get<std::string>(), HasSubstr("field \"namespace\"")) << name;
    }
    auto header = Post(Rpc("tools/call", {{"name", name}, {"arguments", {{"query", "x"}}}}));
    header.headers["x-engram-namespace"] = " ";
    json r = Body(handler_(header));
    EXPECT_TRUE(!r.contains("result") || r["result"]["isError"]) << name << ": " << r.dump();
  }
}

TEST_F(HttpHandlerTest, ModernRequestsNeedMatchingHeaders) {
  json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
               {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  auto req = Post(Rpc("tools/list", {{"_meta", meta}}));
  auto missing = handler_(req);
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(Body(missing)["error"]["code"], kHeaderMismatch);
  req.headers["mcp-method"] = "tools/list";
  auto ok = handler_(req);
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(Body(ok)["result"]["resultType"], "complete");
  auto call = Post(Rpc("tools/call", {{"_meta", meta}, {"name", "memory_recall"}, {"arguments", {{"query", "x"}}}}),
                   "/mcp/alice");
  call.headers["mcp-method"] = "tools/call";
  call.headers["mcp-name"] = "=?base64?bWVtb3J5X3JlY2FsbA==?=";  // memory_recall
  EXPECT_EQ(handler_(call).status, 200);
  call.headers["mcp-name"] = "memory_save";
  EXPECT_EQ(Body(handler_(call))["error"]["code"], kHeaderMismatch);
  auto unknown = Post(Rpc("resources/list", {{"_meta", meta}}));
  unknown.headers["mcp-method"] = "resources/list";
  auto r = handler_(unknown);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["error"]["code"], kMethodNotFound);
}

}  // namespace
}  // namespace engram::mcp
