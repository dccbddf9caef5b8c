#include "providers/rerank_client.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scripted_http_server.h"

namespace engram::providers {
namespace {

using nlohmann::json;
using test::RecordedRequest;
using test::ScriptedHttpServer;
using test::ScriptedReply;

const std::vector<std::string> kDocs = {"alpha", "beta", "gamma"};

std::string CohereReply(const std::vector<std::pair<int, double>>& results) {
  json r = json::array();
  for (const auto& [index, score] : results)
    r.push_back({{"index", index}, {"relevance_score", score}});
  return json{{"id", "rr-1"}, {"model", "m"}, {"results", r}, {"usage", {{"total_tokens", 12}}}}
      .dump();
}

RerankClientOptions Options(const ScriptedHttpServer& server, std::vector<int>* waits,
                            const std::string& format = "cohere") {
  RerankClientOptions o;
  o.endpoint.base_url = server.base_url();
  o.endpoint.model = "bge-reranker-v2-m3";
  o.endpoint.api_key = "sk-rerank";
  o.endpoint.format = format;
  o.endpoint.budget_ms = 2000;
  o.retry_backoff_ms = 10;
  o.sleep_for_ms = [waits](int ms) { waits->push_back(ms); };
  return o;
}

std::unique_ptr<RerankClient> MustCreate(RerankClientOptions o) {
  auto c = RerankClient::Create(std::move(o));
  EXPECT_TRUE(c.has_value()) << c.error().ToString();
  return c ? std::move(*c) : nullptr;
}

TEST(RerankClientTest, CohereShapeRequestAndReply) {
  // Results come sorted by relevance, as servers send them: index order is what matters.
  ScriptedHttpServer server({{200, CohereReply({{2, 0.9}, {0, 0.5}, {1, -1.25}})}});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits));
  auto reply = client->Rerank("which letter?", kDocs);
  ASSERT_TRUE(reply.has_value()) << reply.error().ToString();
  EXPECT_EQ(reply->scores, (std::vector<double>{0.5, -1.25, 0.9}));
  EXPECT_EQ(reply->attempts, 1);
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].path, "/v1/rerank");
  EXPECT_EQ(requests[0].authorization, "Bearer sk-rerank");
  json body = json::parse(requests[0].body);
  EXPECT_EQ(body["model"], "bge-reranker-v2-m3");
  EXPECT_EQ(body["query"], "which letter?");
  EXPECT_EQ(body["documents"], json(kDocs));
  EXPECT_EQ(body["top_n"], 3);
  EXPECT_FALSE(body.contains("texts"));
}

TEST(RerankClientTest, TeiShapeRequestAndReply) {
  ScriptedHttpServer server(
      {{200, R"([{"index":1,"score":0.99},{"index":0,"score":0.01},{"index":2,"score":0.5}])"}});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits, "tei"));
  auto reply = client->Rerank("q", kDocs);
  ASSERT_TRUE(reply.has_value()) << reply.error().ToString();
  EXPECT_EQ(reply->scores, (std::vector<double>{0.01, 0.99, 0.5}));
  json body = json::parse(server.requests().at(0).body);
  EXPECT_EQ(body["texts"], json(kDocs));
  EXPECT_EQ(body["query"], "q");
  EXPECT_EQ(body["truncate"], true);
  EXPECT_FALSE(body.contains("documents"));
  EXPECT_FALSE(body.contains("model"));
}

TEST(RerankClientTest, CjkTextPassesThroughIntact) {
  const std::vector<std::string> docs = {"我上周在杭州买了一台咖啡机", "東京の天気は晴れ",
                                         "게임을 했어요"};
  ScriptedHttpServer server({{200, CohereReply({{0, 1}, {1, 0}, {2, 0.5}})}});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits));
  ASSERT_TRUE(client->Rerank("咖啡机在哪里买的？", docs).has_value());
  json body = json::parse(server.requests().at(0).body);
  EXPECT_EQ(body["query"], "咖啡机在哪里买的？");
  EXPECT_EQ(body["documents"], json(docs));
}

TEST(RerankClientTest, LongDocumentsAreCutToTheCap) {
  ScriptedHttpServer server({{200, CohereReply({{0, 1}})}});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits));
  std::string long_doc;
  for (int i = 0; i < 3000; ++i) long_doc += "汉";
  ASSERT_TRUE(client->Rerank("q", {long_doc}).has_value());
  json body = json::parse(server.requests().at(0).body);
  // 2048 characters of 3 bytes, then TruncateCodePoints' ellipsis (U+2026, 3 bytes).
  const std::string sent = body["documents"][0].get<std::string>();
  EXPECT_EQ(sent.size(), RerankClient::kMaxDocumentChars * 3 + 3);
  EXPECT_EQ(sent.substr(0, 6), "汉汉");
  EXPECT_EQ(sent.substr(sent.size() - 3), "…");
}

TEST(RerankClientTest, ServerErrorThenSuccessRetriesWithinBudget) {
  ScriptedHttpServer server({{500, R"({"error":{"message":"warming up"}})"},
                             {200, CohereReply({{0, 1}, {1, 2}, {2, 3}})}});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits));
  auto reply = client->Rerank("q", kDocs);
  ASSERT_TRUE(reply.has_value()) << reply.error().ToString();
  EXPECT_EQ(reply->attempts, 2);
  EXPECT_EQ(waits, (std::vector<int>{10}));
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(RerankClientTest, SlowServerTimesOutAtTheBudget) {
  ScriptedHttpServer server({{200, CohereReply({{0, 1}, {1, 2}, {2, 3}}), 1500}});
  std::vector<int> waits;
  RerankClientOptions o = Options(server, &waits);
  o.endpoint.budget_ms = 150;
  auto client = MustCreate(o);
  auto reply = client->Rerank("q", kDocs);
  ASSERT_FALSE(reply.has_value());
  EXPECT_EQ(reply.error().code(), StatusCode::kIOError);
  EXPECT_EQ(reply.error().message().rfind("timeout after 150 ms", 0), 0u)
      << reply.error().ToString();
  // No retry: the budget was spent by the first attempt.
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(waits.empty());
}

TEST(RerankClientTest, RetryAfterBeyondTheBudgetStopsAtOnce) {
  ScriptedHttpServer server(
      {{503, "busy", 0, {{"Retry-After", "5"}}}, {200, CohereReply({{0, 1}})}});
  std::vector<int> waits;
  RerankClientOptions o = Options(server, &waits);
  o.endpoint.budget_ms = 300;
  auto client = MustCreate(o);
  auto reply = client->Rerank("q", {"x"});
  ASSERT_FALSE(reply.has_value());
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(waits.empty());
}

TEST(RerankClientTest, BackoffThatWouldPassTheDeadlineIsNotWaited) {
  ScriptedHttpServer server({{500, "down"}, {200, CohereReply({{0, 1}})}});
  std::vector<int> waits;
  RerankClientOptions o = Options(server, &waits);
  o.endpoint.budget_ms = 100;
  o.retry_backoff_ms = 5000;
  auto client = MustCreate(o);
  auto reply = client->Rerank("q", {"x"});
  ASSERT_FALSE(reply.has_value());
  EXPECT_NE(reply.error().message().find("no time left"), std::string::npos)
      << reply.error().ToString();
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(RerankClientTest, UnreachableServerIsAnErrorNotATimeout) {
  RerankClientOptions o;
  o.endpoint.base_url = "http://127.0.0.1:9/v1";  // the discard port: nothing listens
  o.endpoint.budget_ms = 2000;
  std::vector<int> waits;
  o.sleep_for_ms = [&waits](int ms) { waits.push_back(ms); };
  auto client = MustCreate(o);
  auto reply = client->Rerank("q", {"x"});
  ASSERT_FALSE(reply.has_value());
  EXPECT_EQ(reply.error().code(), StatusCode::kIOError);
  EXPECT_EQ(reply.error().message().find("timeout after"), std::string::npos)
      << reply.error().ToString();
  EXPECT_EQ(waits, (std::vector<int>{20, 40}));  // two retries, 20 then 40 ms apart
}

TEST(RerankClientTest, ClientErrorIsNotRetried) {
  ScriptedHttpServer server({{400, R"({"error":{"message":"model not found"}})"}});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits));
  auto reply = client->Rerank("q", kDocs);
  ASSERT_FALSE(reply.has_value());
  EXPECT_EQ(reply.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(reply.error().message().find("model not found"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(RerankClientTest, NoDocumentsNoRequest) {
  ScriptedHttpServer server(std::vector<ScriptedReply>{});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits));
  auto reply = client->Rerank("q", {});
  ASSERT_TRUE(reply.has_value());
  EXPECT_TRUE(reply->scores.empty());
  EXPECT_TRUE(server.requests().empty());
}

// Malformed replies: an error naming the field, never a crash or a partial result.
TEST(RerankClientTest, MalformedRepliesNameTheField) {
  struct Case {
    std::string body;
    std::string expected;  // a substring of the message
  };
  const std::vector<Case> cases = {
      {"not json", "not JSON"},
      {R"("a string")", "not a JSON object or list"},
      {R"({"data":[]})", "field \"results\" is missing"},
      {R"({"results":{}})", "field \"results\" is not a list"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1}]})",
       "has 2 entries for 3 documents"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1},{"index":3,"relevance_score":1}]})",
       "field \"results[2].index\": 3 is out of range"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1},{"index":-1,"relevance_score":1}]})",
       "field \"results[2].index\": -1 is out of range"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":0,"relevance_score":1},{"index":2,"relevance_score":1}]})",
       "field \"results[1].index\": 0 appears twice"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1.0,"relevance_score":1},{"index":2,"relevance_score":1}]})",
       "field \"results[1].index\" is not an integer"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1},{"index":2,"relevance_score":1}]})",
       "field \"results[1].relevance_score\" is missing"},
      {R"({"results":[{"index":0,"relevance_score":"NaN"},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1}]})",
       "field \"results[0].relevance_score\" is not a number"},
      {R"({"results":[{"index":0,"relevance_score":null},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1}]})",
       "field \"results[0].relevance_score\" is not a number"},
      // A number too large for a double is refused by the JSON parser itself (the finite check
      // behind it is defence in depth).
      {R"({"results":[{"index":0,"relevance_score":1e999},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1}]})",
       "not JSON"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1},7]})",
       "field \"results[2]\" is not an object"},
      {R"([{"index":0,"score":1},{"index":1,"relevance_score":1},{"index":2,"score":1}])",
       "field \"[1].score\" is missing"},
  };
  for (const Case& c : cases) {
    auto parsed = ParseRerankReply(c.body, 3);
    ASSERT_FALSE(parsed.has_value()) << c.body;
    EXPECT_EQ(parsed.error().code(), StatusCode::kIOError) << c.body;
    EXPECT_NE(parsed.error().message().find(c.expected), std::string::npos)
        << c.body << " → " << parsed.error().ToString();
    EXPECT_EQ(parsed.error().message().rfind("rerank client: malformed reply: ", 0), 0u)
        << parsed.error().ToString();
  }
  // And the same through a request.
  ScriptedHttpServer server({{200, cases[5].body}});
  std::vector<int> waits;
  auto client = MustCreate(Options(server, &waits));
  auto reply = client->Rerank("q", kDocs);
  ASSERT_FALSE(reply.has_value());
  EXPECT_NE(reply.error().message().find("out of range"), std::string::npos);
}

TEST(RerankClientTest, CreateValidatesEveryField) {
  RerankClientOptions o;
  o.endpoint.base_url = "http://127.0.0.1:1/v1";
  struct Case {
    std::function<void(RerankOptions&)> change;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](RerankOptions& r) { r.pool = -1; }, "field \"rerank.pool\": -1 is out of range"},
      {[](RerankOptions& r) { r.pool = 0; }, "field \"rerank.pool\": 0 is out of range"},
      {[](RerankOptions& r) { r.pool = 101; }, "field \"rerank.pool\": 101 is out of range"},
      {[](RerankOptions& r) { r.budget_ms = 0; }, "field \"rerank.budget_ms\": 0 is out of range"},
      {[](RerankOptions& r) { r.budget_ms = -5; },
       "field \"rerank.budget_ms\": -5 is out of range"},
      {[](RerankOptions& r) { r.format = "openai"; },
       "field \"rerank.format\": unknown value \"openai\""},
      {[](RerankOptions& r) { r.base_url = "127.0.0.1:8000"; }, "has no scheme"},
      {[](RerankOptions& r) { r.base_url = "ftp://host/v1"; }, "scheme \"ftp\" is not supported"},
      {[](RerankOptions& r) { r.base_url = "http:///v1"; }, "has no host"},
      {[](RerankOptions& r) { r.base_url = ""; }, "field \"rerank.base_url\": empty"},
  };
  for (const Case& c : cases) {
    RerankClientOptions bad = o;
    c.change(bad.endpoint);
    auto client = RerankClient::Create(bad);
    ASSERT_FALSE(client.has_value()) << c.expected;
    EXPECT_EQ(client.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(client.error().message().find(c.expected), std::string::npos)
        << client.error().ToString();
  }
}

// The environment overrides Options::rerank; its bad values name the variable.
TEST(RerankClientTest, ResolveReadsAndValidatesTheEnvironment) {
  RerankOptions given;
  given.base_url = "http://127.0.0.1:9/v1";
  ::setenv("ENGRAM_RERANK_POOL", "7", 1);
  ::setenv("ENGRAM_RERANK_MODEL", "env-model", 1);
  auto resolved = ResolveRerankOptions(given);
  ASSERT_TRUE(resolved.has_value()) << resolved.error().ToString();
  EXPECT_EQ(resolved->pool, 7);
  EXPECT_EQ(resolved->model, "env-model");
  EXPECT_EQ(resolved->base_url, given.base_url);
  ::setenv("ENGRAM_RERANK_POOL", "abc", 1);
  auto bad = ResolveRerankOptions(given);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().ToString().find("$ENGRAM_RERANK_POOL: \"abc\" is not an integer") !=
                std::string::npos,
            true)
      << bad.error().ToString();
  ::unsetenv("ENGRAM_RERANK_POOL");
  ::unsetenv("ENGRAM_RERANK_MODEL");
  ::setenv("ENGRAM_RERANK_BUDGET_MS", "0", 1);
  bad = ResolveRerankOptions(given);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("$ENGRAM_RERANK_BUDGET_MS: 0 is out of range"),
            std::string::npos);
  ::unsetenv("ENGRAM_RERANK_BUDGET_MS");
  ::setenv("ENGRAM_RERANK_BASE_URL", "localhost:8000", 1);
  bad = ResolveRerankOptions(given);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("$ENGRAM_RERANK_BASE_URL"), std::string::npos)
      << bad.error().ToString();
  ::unsetenv("ENGRAM_RERANK_BASE_URL");
  // Options' own bad values name the field; an empty base_url (no reranker) is fine.
  given.base_url.clear();
  given.pool = -3;
  bad = ResolveRerankOptions(given);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("field \"rerank.pool\""), std::string::npos);
  given.pool = 20;
  EXPECT_TRUE(ResolveRerankOptions(given).has_value());
}

}  // namespace
}  // namespace engram::providers
