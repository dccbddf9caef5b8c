// tests/serve_test.cc — `engram serve` end to end: the real binary on an ephemeral loopback port,
// driven with cpp-httplib. Operations routes, limits (413, 414, 429), request ids, API keys (401,
// 403), DNS-rebinding checks, namespace isolation (B23, B24, B26, B28, B46 with the same outcomes
// as through the CLI), SIGTERM drain, kill -9 durability, two servers on one file.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "serve_process.h"
#include "test_util.h"

namespace engram::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using nlohmann::json;

// Every byte but unreserved ASCII as %XX (a namespace as one path segment).
std::string PercentEncode(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
      out += static_cast<char>(ch);
    } else {
      out += fmt::format("%{:02X}", ch);
    }
  }
  return out;
}

class ServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CliResult made = RunCli({"--db", db(), "remember", "--namespace", "setup", "created"});
    ASSERT_EQ(made.exit_code, 0) << made.Describe();
  }
  std::string db() const { return dir_.File("m.db"); }

  // Creates a key with `engram keys create`; returns its secret.
  std::string CreateKey(const std::string& ns, const std::string& access) {
    CliResult r = RunCli({"--db", db(), "--json", "keys", "create", "--namespace", ns, "--access", access});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return r.exit_code == 0 ? json::parse(r.out)["secret"].get<std::string>() : "";
  }

  static httplib::Headers Bearer(const std::string& secret) { return {{"Authorization", "Bearer " + secret}}; }
  static json Body(const httplib::Result& r) { return json::parse(r->body); }

  TempDir dir_;
};

TEST_F(ServeTest, OperationsRoutesAndRequestIds) {
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  auto health = c->Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_FALSE(health->get_header_value("X-Request-Id").empty());
  auto ready = c->Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);
  auto version = c->Get("/version");
  ASSERT_TRUE(version);
  EXPECT_TRUE(Body(version).contains("sqlite"));
  auto echoed = c->Get("/v1/namespaces/setup/claims", {{"X-Request-Id", "my-id-7"}});
  ASSERT_TRUE(echoed);
  EXPECT_EQ(echoed->status, 200) << echoed->body;
  EXPECT_EQ(echoed->get_header_value("X-Request-Id"), "my-id-7");
  auto metrics = c->Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(metrics->body, HasSubstr("engram_http_requests_total{route=\"GET /v1/namespaces/{namespace}/claims\""));
  EXPECT_THAT(metrics->body, HasSubstr("engram_queue_depth"));
  auto doc = c->Get("/openapi.json");
  ASSERT_TRUE(doc);
  EXPECT_EQ(Body(doc)["openapi"], "3.1.0");
  auto mcp = c->Get("/mcp");
  ASSERT_TRUE(mcp);
  EXPECT_EQ(mcp->status, 405);
  EXPECT_EQ(mcp->get_header_value("Allow"), "POST");
  EXPECT_EQ(server.Stop(), 0);
  EXPECT_THAT(server.Log(), HasSubstr("\"msg\":\"request\""));
  EXPECT_THAT(server.Log(), HasSubstr("loopback only"));
}

TEST_F(ServeTest, LimitsHaveTheirOwnStatusAndProblem) {
  ServeProcess server(db(), dir_.path(), {"--no-worker"}, {{"ENGRAM_MAX_BODY_BYTES", "2048"}});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  const std::string big = json{{"session_id", "s"}, {"role", "user"}, {"content", std::string(5000, 'x')}}.dump();
  auto r413 = c->Post("/v1/namespaces/a/events", big, "application/json");
  ASSERT_TRUE(r413);
  EXPECT_EQ(r413->status, 413);
  EXPECT_EQ(r413->get_header_value("Content-Type"), "application/problem+json");
  EXPECT_EQ(Body(r413)["status"], 413);
  auto r414 = c->Get("/v1/namespaces/a/claims?subject=" + std::string(5000, 'y'));
  ASSERT_TRUE(r414);
  EXPECT_EQ(r414->status, 414);
  EXPECT_EQ(Body(r414)["code"], "resource_exhausted");
  auto bad = c->Post("/v1/namespaces/a/recall", "{\"query\":", "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(Body(bad)["field"], "body");
  auto wrong = c->Post("/v1/namespaces/a/recall", R"({"query":"x","limit":"ten"})", "application/json");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(Body(wrong)["field"], "limit");
  auto unknown = c->Post("/v1/namespaces/a/recall", R"({"query":"x","colour":1})", "application/json");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(Body(unknown)["field"], "colour");
  auto missing = c->Get("/v1/nowhere");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  auto method = c->Delete("/v1/namespaces/a/recall");
  ASSERT_TRUE(method);
  EXPECT_EQ(method->status, 405);
  EXPECT_EQ(method->get_header_value("Allow"), "POST");
}

TEST_F(ServeTest, RateLimitIs429WithRetryAfterAndRateLimitHeaders) {
  WriteFile(dir_.File("c.toml"), "[rate_limit]\nrequests_per_second = 0.5\nburst = 2\n");
  ServeProcess server(db(), dir_.path(), {"--no-worker", "--config", dir_.File("c.toml")});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  int limited = 0;
  for (int i = 0; i < 4; ++i) {
    auto r = c->Get("/v1/namespaces/setup/claims");
    ASSERT_TRUE(r);
    // Every limited response says where the caller stands: a bucket of 2, refilled at 0.5/s.
    EXPECT_EQ(r->get_header_value("X-RateLimit-Limit"), "2") << i;
    EXPECT_FALSE(r->get_header_value("X-RateLimit-Remaining").empty()) << i;
    EXPECT_FALSE(r->get_header_value("X-RateLimit-Reset").empty()) << i;
    if (i == 0) {
      EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "1");
    }
    if (r->status == 429) {
      ++limited;
      EXPECT_FALSE(r->get_header_value("Retry-After").empty());
      EXPECT_EQ(r->get_header_value("X-RateLimit-Remaining"), "0");
      EXPECT_EQ(Body(r)["code"], "resource_exhausted");
    }
  }
  EXPECT_GE(limited, 2);
  auto health = c->Get("/healthz");
  EXPECT_EQ(health->status, 200) << "operations routes are not rate limited";
}

TEST_F(ServeTest, KeysAuthenticateAndScopeNamespaces) {
  const std::string alice = CreateKey("alice", "write");
  const std::string bob = CreateKey("bob", "write");
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  auto none = c->Post("/v1/namespaces/alice/recall", R"({"query":"x"})", "application/json");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 401);
  EXPECT_EQ(Body(none)["code"], "unauthenticated");
  auto bad = c->Post("/v1/namespaces/alice/recall", Bearer("ek_0000000000000000.ffff"), R"({"query":"x"})",
                     "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 401);
  // B24: only City-A for alice, and alice's key never reads bob.
  ASSERT_EQ(c->Post("/v1/namespaces/alice/memories", Bearer(alice), R"({"text":"I live in City-A."})",
                    "application/json")->status, 201);
  ASSERT_EQ(c->Post("/v1/namespaces/bob/memories", Bearer(bob), R"({"text":"I live in City-B."})",
                    "application/json")->status, 201);
  auto recall = c->Post("/v1/namespaces/alice/recall", Bearer(alice), R"({"query":"Where do I live?"})",
                        "application/json");
  ASSERT_EQ(recall->status, 200) << recall->body;
  EXPECT_THAT(recall->body, HasSubstr("City-A"));
  EXPECT_THAT(recall->body, Not(HasSubstr("City-B")));
  auto cross = c->Post("/v1/namespaces/bob/recall", Bearer(alice), R"({"query":"Where do I live?"})",
                       "application/json");
  EXPECT_EQ(cross->status, 403);
  EXPECT_EQ(Body(cross)["code"], "permission_denied");
  EXPECT_EQ(c->Get("/v1/admin/stats", Bearer(alice))->status, 403);
  EXPECT_EQ(c->Get("/metrics")->status, 401) << "metrics need a key once keys exist";
  EXPECT_EQ(c->Get("/healthz")->status, 200);
  // Revoked: refused within the cache time (1 s).
  CliResult list = RunCli({"--db", db(), "--json", "keys", "list"});
  ASSERT_EQ(list.exit_code, 0) << list.Describe();
  const std::string alice_id = alice.substr(0, alice.find('.'));
  ASSERT_EQ(RunCli({"--db", db(), "keys", "revoke", alice_id}).exit_code, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_EQ(c->Post("/v1/namespaces/alice/recall", Bearer(alice), R"({"query":"x"})", "application/json")->status,
            401);
}

// B27 and B47 over REST: a blank namespace is 400 naming the field; every namespace is an admin
// route, asked for by name (/v1/admin/sessions, /v1/admin/tombstones, export and maintain with
// all_namespaces), and a key's grant decides; lists page with cursor / next_cursor.
TEST_F(ServeTest, B27_B47_ScopesAndPagesOverRest) {
  ASSERT_EQ(RunCli({"--db", db(), "remember", "--namespace", "other", "I live in Lima."}).exit_code, 0);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(RunCli({"--db", db(), "remember", "--namespace", "setup", "--session", "s" + std::to_string(i),
                      "note " + std::to_string(i)})
                  .exit_code,
              0);
  }
  {
    ServeProcess server(db(), dir_.path(), {"--no-worker"});
    ASSERT_TRUE(server.Start()) << server.Log();
    auto c = server.Client();
    for (const char* path : {"/v1/namespaces/%20/sessions", "/v1/namespaces/%20/tombstones",
                             "/v1/namespaces/%20/claims", "/v1/admin/export", "/v1/admin/export?namespace=%20"}) {
      auto r = c->Get(path);
      ASSERT_TRUE(r) << path;
      EXPECT_EQ(r->status, 400) << path << " " << r->body;
      EXPECT_EQ(Body(r)["field"], "namespace") << path << " " << r->body;
    }
    auto maintain = c->Post("/v1/admin/maintain", "{}", "application/json");
    EXPECT_EQ(maintain->status, 400) << maintain->body;
    EXPECT_EQ(c->Post("/v1/admin/maintain", R"({"all_namespaces":true})", "application/json")->status, 200);
    auto dump = c->Get("/v1/admin/export?all_namespaces=true");
    ASSERT_EQ(dump->status, 200) << dump->body;
    EXPECT_THAT(dump->body, HasSubstr("Lima"));
    auto all = c->Get("/v1/admin/sessions");
    ASSERT_EQ(all->status, 200) << all->body;
    EXPECT_EQ(Body(all)["items"].size(), 5u) << all->body;
    // Pages: three sessions of setup written in s0, s1, s2 after "explicit" of SetUp.
    std::vector<std::string> paged;
    std::string next = "/v1/namespaces/setup/sessions?limit=2";
    for (int page = 0; page < 5 && !next.empty(); ++page) {
      auto r = c->Get(next);
      ASSERT_EQ(r->status, 200) << r->body;
      json body = Body(r);
      for (const json& s : body["items"]) paged.push_back(s["session_id"].get<std::string>());
      next = body["next_cursor"].is_null()
                 ? ""
                 : "/v1/namespaces/setup/sessions?limit=2&cursor=" + body["next_cursor"].get<std::string>();
    }
    EXPECT_EQ(paged, (std::vector<std::string>{"s2", "s1", "s0", "explicit"}));
    EXPECT_EQ(Body(c->Get("/v1/admin/jobs?limit=1"))["next_cursor"].is_null(), true);
    EXPECT_EQ(server.Stop(), 0);
  }
  const std::string alice = CreateKey("setup", "write");
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  EXPECT_EQ(c->Get("/v1/admin/sessions", Bearer(alice))->status, 403);
  EXPECT_EQ(c->Get("/v1/admin/tombstones", Bearer(alice))->status, 403);
  EXPECT_EQ(c->Get("/v1/admin/export?all_namespaces=true", Bearer(alice))->status, 403);
  EXPECT_EQ(c->Get("/v1/namespaces/setup/sessions", Bearer(alice))->status, 200);
  EXPECT_EQ(c->Get("/v1/namespaces/other/sessions", Bearer(alice))->status, 403);
}

TEST_F(ServeTest, B23ConcurrentWritesLandInTheirOwnNamespace) {
  const std::string s1 = CreateKey("S-1", "write");
  const std::string s2 = CreateKey("S-2", "write");
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 20; ++i) {
    threads.emplace_back([&, i] {
      auto c = server.Client();
      const std::string ns = i % 2 == 0 ? "S-1" : "S-2";
      const std::string text = fmt::format("Note MARK-{}-{} for the record.", i % 2 == 0 ? "S1" : "S2", i);
      // As a client does: a connection the loaded listener dropped (Debian's httplib listens with
      // a backlog of 5) is retried, safely, with the same Idempotency-Key.
      httplib::Headers headers = Bearer(i % 2 == 0 ? s1 : s2);
      headers.emplace("Idempotency-Key", fmt::format("b23-{}", i));
      auto post = [&] {
        return c->Post("/v1/namespaces/" + ns + "/memories", headers, json{{"text", text}}.dump(), "application/json");
      };
      httplib::Result r = post();
      for (int attempt = 1; attempt < 3 && !r; ++attempt) r = post();
      if (r && (r->status == 201 || r->status == 200)) {
        ++ok;
      } else {
        ADD_FAILURE() << "write " << i << ": " << (r ? std::to_string(r->status) + " " + r->body : httplib::to_string(r.error()));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok, 20);
  auto c = server.Client();
  for (const auto& [ns, key, mine, other] : {std::tuple{"S-1", s1, "MARK-S1", "MARK-S2"},
                                              std::tuple{"S-2", s2, "MARK-S2", "MARK-S1"}}) {
    auto page = c->Get(std::string("/v1/namespaces/") + ns + "/claims?limit=100", Bearer(key));
    ASSERT_EQ(page->status, 200) << page->body;
    int count = 0;
    const json items = Body(page)["items"];
    for (const auto& claim : items) {
      const std::string text = claim.dump();
      EXPECT_THAT(text, Not(HasSubstr(other)));
      count += text.find(mine) != std::string::npos ? 1 : 0;
    }
    EXPECT_EQ(count, 10) << ns << ": " << page->body.substr(0, 2000);
  }
}

TEST_F(ServeTest, B26UnknownNamespaceWriteIsReadable) {
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  auto w = c->Post("/v1/namespaces/S-does-not-exist/memories", R"({"text":"The fact is kiwi."})", "application/json");
  ASSERT_EQ(w->status, 201) << w->body;
  auto r = c->Post("/v1/namespaces/S-does-not-exist/recall", R"({"query":"kiwi"})", "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_THAT(r->body, HasSubstr("kiwi"));
}

TEST_F(ServeTest, B28NamespaceIdsHaveTheSameOutcomeAsTheCli) {
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  for (const std::string& ns : {std::string("session-agent:main:main"), std::string("\\_"),
                                std::string("user@example.invalid"), std::string("team/alpha"), std::string("名前"),
                                std::string("a b"), std::string(300, 'n'), std::string("")}) {
    CliResult cli = RunCli({"--db", db(), "remember", "--namespace", ns, "fact about " + ns.substr(0, 10)});
    auto rest = c->Post("/v1/namespaces/" + PercentEncode(ns) + "/memories",
                        json{{"text", "fact about " + ns.substr(0, 10)}}.dump(), "application/json");
    ASSERT_TRUE(rest);
    const bool cli_ok = cli.exit_code == 0;
    const bool rest_ok = rest->status == 201 || rest->status == 200;
    EXPECT_EQ(cli_ok, rest_ok) << "namespace \"" << ns << "\": CLI " << cli.Describe() << "\nREST " << rest->status
                               << " " << rest->body;
    if (!rest_ok) {
      EXPECT_EQ(rest->status, 400) << rest->body;
    }
  }
}

TEST_F(ServeTest, B46CodeLikeContentRoundTripsByteIdentical) {
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  const std::string snippet =
      "int main() { std::string s = \"{\\\"a\\\": 1}\\n\"; }\n\tpath\\to\\u0000-like \xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D "
      "\xF0\x9F\x98\x80";
  auto w = c->Post("/v1/namespaces/b46/events", json{{"session_id", "s"}, {"role", "user"}, {"content", snippet}}.dump(),
                   "application/json");
  ASSERT_EQ(w->status, 201) << w->body;
  const std::string id = Body(w)["event"]["id"];
  auto got = c->Get("/v1/namespaces/b46/events/" + id);
  ASSERT_EQ(got->status, 200);
  EXPECT_EQ(Body(got)["content"], snippet);
  auto nul = c->Post("/v1/namespaces/b46/events",
                     json{{"session_id", "s"}, {"role", "user"}, {"content", std::string("a\0b", 3)}}.dump(),
                     "application/json");
  EXPECT_EQ(nul->status, 400) << "a NUL byte is rejected with a clear error";
}

TEST_F(ServeTest, RefusesNonLoopbackWithoutKeysAndChecksHostAndOrigin) {
  ServeProcess open(db(), dir_.path(), {"--no-worker", "--listen", "0.0.0.0:0"});
  EXPECT_FALSE(open.Start());
  EXPECT_NE(open.exit_code(), 0);
  EXPECT_THAT(open.Log(), HasSubstr("refusing"));
  ServeProcess server(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(server.Start()) << server.Log();
  auto c = server.Client();
  EXPECT_EQ(c->Get("/v1/namespaces/setup/claims", {{"Host", "evil.example"}})->status, 403);
  EXPECT_EQ(c->Get("/v1/namespaces/setup/claims", {{"Origin", "http://evil.example"}})->status, 403);
  EXPECT_EQ(c->Get("/v1/namespaces/setup/claims", {{"Origin", "http://localhost:3000"}})->status, 200);
}

// Posts batches until told to stop; records the event ids of every acknowledged batch.
struct Writer {
  std::mutex mu;
  std::vector<std::string> acked;
  std::atomic<int> server_errors{0};
  std::atomic<bool> stop{false};
  std::string last;  // the last refusal, for failure messages

  void Run(const ServeProcess& server, const std::string& ns, int batch, int tag) {
    auto c = server.Client();
    for (int n = 0; !stop; ++n) {
      json events = json::array();
      for (int i = 0; i < batch; ++i) {
        events.push_back({{"session_id", "s"}, {"role", "user"},
                          {"content", fmt::format("writer {} batch {} item {}", tag, n, i)}});
      }
      auto r = c->Post("/v1/namespaces/" + ns + "/events:batch", json{{"events", events}}.dump(), "application/json");
      if (!r) {  // the server went away
        std::lock_guard<std::mutex> lock(mu);
        last = "request failed: " + httplib::to_string(r.error());
        return;
      }
      if (r->status >= 500) ++server_errors;
      std::lock_guard<std::mutex> lock(mu);
      if (r->status != 201) {
        last = std::to_string(r->status) + " " + r->body.substr(0, 300);
        continue;
      }
      const json results = json::parse(r->body)["results"];
      for (const auto& item : results) acked.push_back(item["event"]["id"]);
    }
  }
};

int MissingEvents(const ServeProcess& server, const std::string& ns, const std::vector<std::string>& ids) {
  auto c = server.Client();
  int missing = 0;
  for (const std::string& id : ids) {
    auto r = c->Get("/v1/namespaces/" + ns + "/events/" + id);
    missing += r && r->status == 200 ? 0 : 1;
  }
  return missing;
}

TEST_F(ServeTest, SigtermDrainsInFlightRequestsAndExitsZero) {
  ServeProcess server(db(), dir_.path());
  ASSERT_TRUE(server.Start()) << server.Log();
  Writer w;
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) threads.emplace_back([&, t] { w.Run(server, "drain", 200, t); });
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_EQ(server.Stop(SIGTERM), 0) << server.Log();
  w.stop = true;
  for (auto& t : threads) t.join();
  EXPECT_EQ(w.server_errors, 0);
  ASSERT_FALSE(w.acked.empty()) << w.last << "\n" << server.Log();
  EXPECT_THAT(server.Log(), HasSubstr("stopping"));
  ServeProcess again(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(again.Start()) << again.Log();
  EXPECT_EQ(MissingEvents(again, "drain", w.acked), 0);
}

TEST_F(ServeTest, AcknowledgedWritesSurviveKill9) {
  ServeProcess server(db(), dir_.path());
  ASSERT_TRUE(server.Start()) << server.Log();
  Writer w;
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) threads.emplace_back([&, t] { w.Run(server, "k9", 20, t); });
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  server.Stop(SIGKILL);
  w.stop = true;
  for (auto& t : threads) t.join();
  ASSERT_FALSE(w.acked.empty()) << w.last << "\n" << server.Log();
  ServeProcess again(db(), dir_.path(), {"--no-worker"});
  ASSERT_TRUE(again.Start()) << again.Log();
  EXPECT_EQ(MissingEvents(again, "k9", w.acked), 0) << w.acked.size() << " acknowledged";
}

TEST_F(ServeTest, TwoServersOnOneFileLoseNothing) {
  ServeProcess a(db(), dir_.path());
  ServeProcess b(db(), dir_.path());
  ASSERT_TRUE(a.Start()) << a.Log();
  ASSERT_TRUE(b.Start()) << b.Log();
  Writer w;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { w.Run(t % 2 == 0 ? a : b, "two", 10, t); });
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  w.stop = true;
  for (auto& t : threads) t.join();
  EXPECT_EQ(w.server_errors, 0);
  EXPECT_EQ(MissingEvents(b, "two", w.acked), 0);
  EXPECT_EQ(a.Stop(), 0);
  EXPECT_EQ(b.Stop(), 0);
  EXPECT_THAT(a.Log() + b.Log(), Not(HasSubstr("database is locked")));
}

}  // namespace
}  // namespace engram::test
