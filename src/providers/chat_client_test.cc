#include "providers/chat_client.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "scripted_http_server.h"

namespace engram::providers {
namespace {

using nlohmann::json;

// A local OpenAI-compatible server answering every POST with the next scripted reply
// (tests/scripted_http_server.h).
using test::RecordedRequest;
using test::ScriptedReply;
using ScriptedServer = test::ScriptedHttpServer;

std::string CompletionBody(const std::string& content, const std::string& finish = "stop") {
  json body = {{"id", "chatcmpl-1"},
               {"object", "chat.completion"},
               {"model", "test-model"},
               {"choices",
                {{{"index", 0},
                  {"message", {{"role", "assistant"}, {"content", content}}},
                  {"finish_reason", finish}}}},
               {"usage", {{"prompt_tokens", 42}, {"completion_tokens", 7}, {"total_tokens", 49}}}};
  return body.dump();
}

ScriptedReply Ok(const std::string& content) { return {200, CompletionBody(content), 0}; }

// Options pointing at `server`, recording waits instead of sleeping.
ChatClientOptions TestOptions(ScriptedServer& server, std::vector<int>* waits) {
  ChatClientOptions options;
  options.base_url = server.base_url();
  options.model = "test-model";
  options.api_key = "sk-test";
  options.timeout_ms = 2000;
  options.max_retries = 2;
  options.retry_backoff_ms = 100;
  options.sleep_for_ms = [waits](int ms) { waits->push_back(ms); };
  return options;
}

const std::vector<ChatMessage> kMessages = {{"system", "You are terse."},
                                            {"user", "我住在杭州。Say hi."}};

TEST(ChatClientTest, RequestCarriesModelMessagesAndResponseFormat) {
  ScriptedServer server({Ok("hello")});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  json format = {{"type", "json_schema"},
                 {"json_schema", {{"name", "x"}, {"schema", {{"type", "object"}}}}}};

  auto response = client.Complete(kMessages, &format);
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->content, "hello");
  EXPECT_EQ(response->finish_reason, "stop");
  EXPECT_EQ(response->model, "test-model");
  EXPECT_EQ(response->prompt_tokens, 42);
  EXPECT_EQ(response->completion_tokens, 7);
  EXPECT_EQ(response->attempts, 1);
  EXPECT_GE(response->latency_ms, 0.0);
  EXPECT_TRUE(waits.empty());

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/chat/completions");
  EXPECT_EQ(requests[0].authorization, "Bearer sk-test");
  json body = json::parse(requests[0].body);
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["stream"], false);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["messages"][1]["content"], "我住在杭州。Say hi.");
  EXPECT_EQ(body["response_format"], format);
  EXPECT_FALSE(body.contains("temperature"));
  EXPECT_FALSE(body.contains("max_tokens"));
}

TEST(ChatClientTest, NoResponseFormatWhenNullAndOptionalFieldsWhenSet) {
  ScriptedServer server({Ok("ok")});
  std::vector<int> waits;
  ChatClientOptions options = TestOptions(server, &waits);
  options.api_key.clear();
  options.temperature = 0.0;
  options.max_tokens = 256;
  ChatClient client(options);

  ASSERT_TRUE(client.Complete(kMessages, nullptr).has_value());
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].authorization, "");
  json body = json::parse(requests[0].body);
  EXPECT_FALSE(body.contains("response_format"));
  EXPECT_EQ(body["temperature"], 0.0);
  EXPECT_EQ(body["max_tokens"], 256);
}

TEST(ChatClientTest, ResponseFormatModesForServersWithoutSchemas) {
  const json format = {{"type", "json_schema"}, {"json_schema", {{"name", "x"}, {"schema", {{"type", "object"}}}}}};
  for (const std::string mode : {"json_object", "none"}) {
    ScriptedServer server({Ok("{}")});
    std::vector<int> waits;
    ChatClientOptions options = TestOptions(server, &waits);
    options.response_format = mode;
    ASSERT_TRUE(ChatClient(options).Complete(kMessages, &format).has_value()) << mode;
    json body = json::parse(server.requests().at(0).body);
    if (mode == "none") {
      EXPECT_FALSE(body.contains("response_format"));
    } else {
      EXPECT_EQ(body["response_format"], (json{{"type", "json_object"}}));
    }
  }
  ChatClientOptions bad;
  bad.base_url = "http://127.0.0.1:9/v1";
  bad.model = "m";
  bad.response_format = "json";
  auto refused = ChatClient(bad).Complete(kMessages, &format);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.error().message().find("ENGRAM_LLM_RESPONSE_FORMAT"), std::string::npos);
}

TEST(ChatClientTest, ChineseContentIsByteExactBothWays) {
  const std::string reply = "{\"value\":\"杭州\"} 😀";
  ScriptedServer server({Ok(reply)});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->content, reply);
}

TEST(ChatClientTest, RetriesAfter500ThenSucceeds) {
  ScriptedServer server({{500, R"({"error":{"message":"overloaded"}})", 0}, Ok("second")});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->content, "second");
  EXPECT_EQ(response->attempts, 2);
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(waits, std::vector<int>({100}));
}

TEST(ChatClientTest, Persistent5xxIsIOErrorAfterBoundedRetriesWithBackoff) {
  ScriptedReply bad{502, R"({"error":{"message":"bad gateway"}})", 0};
  ScriptedServer server({bad, bad, bad, bad});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kIOError);
  EXPECT_NE(response.error().message().find("bad gateway"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 3u);  // 1 + max_retries
  EXPECT_EQ(waits, std::vector<int>({100, 200}));
}

TEST(ChatClientTest, Honours429RetryAfterSeconds) {
  ScriptedServer server(
      {{429, R"({"error":{"message":"slow down"}})", 0, {{"Retry-After", "2"}}}, Ok("done")});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->content, "done");
  EXPECT_EQ(waits, std::vector<int>({2000}));
}

TEST(ChatClientTest, Persistent429IsBusy) {
  ScriptedReply limited{429, R"({"error":{"message":"rate limit"}})", 0};
  ScriptedServer server({limited, limited, limited});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kBusy);
  EXPECT_NE(response.error().message().find("rate limit"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(ChatClientTest, LongRetryAfterIsBusyWithoutWaiting) {
  ScriptedServer server({{429, "{}", 0, {{"Retry-After", "3600"}}}, Ok("never")});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kBusy);
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(waits.empty());
}

TEST(ChatClientTest, Unauthorized401IsInvalidArgumentWithoutRetry) {
  ScriptedServer server(
      {{401, R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}})", 0},
       Ok("never")});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(response.error().message().find("401"), std::string::npos);
  EXPECT_NE(response.error().message().find("Incorrect API key provided"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(waits.empty());
}

TEST(ChatClientTest, BadRequest400WithPlainErrorStringIsInvalidArgument) {
  ScriptedServer server({{400, R"({"error":"model 'nope' not found"})", 0}});
  std::vector<int> waits;
  ChatClient client(TestOptions(server, &waits));
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(response.error().message().find("model 'nope' not found"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(ChatClientTest, TimeoutIsIOErrorAfterRetries) {
  ScriptedServer server(
      {{200, CompletionBody("late"), 800}, {200, CompletionBody("late"), 800}});
  std::vector<int> waits;
  ChatClientOptions options = TestOptions(server, &waits);
  options.timeout_ms = 200;
  options.max_retries = 1;
  ChatClient client(options);
  auto response = client.Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kIOError);
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(waits.size(), 1u);
}

TEST(ChatClientTest, UnreachableServerIsIOError) {
  std::string base_url;
  {
    ScriptedServer closed(std::vector<ScriptedReply>{});
    base_url = closed.base_url();
  }  // stopped: nothing listens on the port any more
  std::vector<int> waits;
  ChatClientOptions options;
  options.base_url = base_url;
  options.model = "m";
  options.timeout_ms = 500;
  options.max_retries = 1;
  options.sleep_for_ms = [&waits](int ms) { waits.push_back(ms); };
  auto response = ChatClient(options).Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kIOError);
  EXPECT_EQ(waits.size(), 1u);
}

TEST(ChatClientTest, MalformedSuccessBodyIsIOError) {
  ScriptedServer server({{200, "<html>proxy error</html>", 0}});
  std::vector<int> waits;
  auto response = ChatClient(TestOptions(server, &waits)).Complete(kMessages, nullptr);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kIOError);
}

TEST(ChatClientTest, NullContentBecomesEmpty) {
  json body = {{"choices",
                {{{"message", {{"role", "assistant"}, {"content", nullptr}}},
                  {"finish_reason", "length"}}}}};
  ScriptedServer server({{200, body.dump(), 0}});
  std::vector<int> waits;
  auto response = ChatClient(TestOptions(server, &waits)).Complete(kMessages, nullptr);
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->content, "");
  EXPECT_EQ(response->finish_reason, "length");
  EXPECT_EQ(response->prompt_tokens, 0);
}

TEST(ChatClientTest, MisconfigurationIsInvalidArgument) {
  ChatClientOptions options;
  options.base_url = "http://127.0.0.1:9/v1";
  EXPECT_EQ(ChatClient(options).Complete(kMessages, nullptr).error().code(),
            StatusCode::kInvalidArgument);  // no model
  options.model = "m";
  options.base_url = "127.0.0.1:9/v1";
  EXPECT_EQ(ChatClient(options).Complete(kMessages, nullptr).error().code(),
            StatusCode::kInvalidArgument);  // no scheme
  options.base_url = "ftp://127.0.0.1/v1";
  EXPECT_EQ(ChatClient(options).Complete(kMessages, nullptr).error().code(),
            StatusCode::kInvalidArgument);
  options.base_url = "http://127.0.0.1:9/v1";
  EXPECT_EQ(ChatClient(options).Complete({}, nullptr).error().code(),
            StatusCode::kInvalidArgument);  // no messages
}

TEST(ChatClientTest, OptionsFromEnv) {
  setenv("ENGRAM_LLM_BASE_URL", "http://127.0.0.1:11434/v1", 1);
  setenv("ENGRAM_LLM_MODEL", "qwen2.5:7b", 1);
  unsetenv("ENGRAM_LLM_API_KEY");
  ChatClientOptions options = ChatClientOptionsFromEnv();
  EXPECT_EQ(options.base_url, "http://127.0.0.1:11434/v1");
  EXPECT_EQ(options.model, "qwen2.5:7b");
  EXPECT_EQ(options.api_key, "");
  EXPECT_EQ(options.timeout_ms, 30000);
  setenv("ENGRAM_LLM_API_KEY", "sk-x", 1);
  EXPECT_EQ(ChatClientOptionsFromEnv().api_key, "sk-x");
  EXPECT_EQ(options.response_format, "json_schema");
  setenv("ENGRAM_LLM_RESPONSE_FORMAT", "json_object", 1);
  EXPECT_EQ(ChatClientOptionsFromEnv().response_format, "json_object");
  unsetenv("ENGRAM_LLM_RESPONSE_FORMAT");
  unsetenv("ENGRAM_LLM_BASE_URL");
  unsetenv("ENGRAM_LLM_MODEL");
  unsetenv("ENGRAM_LLM_API_KEY");
}

}  // namespace
}  // namespace engram::providers
