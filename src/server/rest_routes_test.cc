// server/rest_routes_test.cc — the REST routes without a socket: matching, argument gathering
// (path, typed query, header, strict body), the problem+json of each input error naming the field,
// 404/405, authorization, Idempotency-Key replay and cursor paging.
#include "server/rest_routes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "api/registry.h"
#include "test_util.h"

namespace engram::server {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

class RestRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Engine::Open({.db_path = dir_.File("m.db"), .open_mode = OpenMode::kCreate}));
    auto pool = EnginePool::Open({.db_path = dir_.File("m.db"), .open_mode = OpenMode::kReadWrite}, 1);
    ASSERT_TRUE(pool) << pool.error().ToString();
    pool_ = std::move(*pool);
    routes_ = std::make_unique<RestRoutes>(*pool_, std::chrono::milliseconds(5000));
  }
  HttpResponse Call(const std::string& method, const std::string& path, const std::string& body = "",
                    std::multimap<std::string, std::string> query = {},
                    std::map<std::string, std::string> headers = {}) {
    HttpRequest r{.method = method, .path = path, .query = std::move(query), .headers = std::move(headers),
                  .body = body, .request_id = "rid-1", .principal = principal_};
    return routes_->Handle(r);
  }
  static json Body(const HttpResponse& r) { return json::parse(r.body); }

  test::TempDir dir_;
  std::unique_ptr<EnginePool> pool_;
  std::unique_ptr<RestRoutes> routes_;
  api::Principal principal_ = api::Principal::Owner();
};

TEST(MatchPathTemplateTest, SegmentsAndDecoding) {
  std::map<std::string, std::string> p;
  EXPECT_TRUE(MatchPathTemplate("/v1/namespaces/{namespace}/recall", "/v1/namespaces/team%2Falpha/recall", &p));
  EXPECT_EQ(p["namespace"], "team/alpha");
  EXPECT_FALSE(MatchPathTemplate("/v1/namespaces/{namespace}/recall", "/v1/namespaces/a/b/recall", &p));
  EXPECT_TRUE(MatchPathTemplate("/v1/namespaces/{namespace}/events:batch", "/v1/namespaces/a/events:batch", &p));
  EXPECT_FALSE(MatchPathTemplate("/v1/namespaces/{namespace}/events:batch", "/v1/namespaces/a/events", &p));
}

TEST_F(RestRoutesTest, IngestThenGetRoundTrip) {
  HttpResponse r = Call("POST", "/v1/namespaces/alice/events", R"({"session_id":"s1","role":"user","content":"hi"})");
  ASSERT_EQ(r.status, 201) << r.body;
  const std::string id = Body(r)["event"]["id"];
  HttpResponse got = Call("GET", "/v1/namespaces/alice/events/" + id);
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(Body(got)["content"], "hi");
}

TEST_F(RestRoutesTest, InvalidJsonWrongTypeAndUnknownFieldAre400NamingTheField) {
  struct Case {
    std::string body;
    std::string field;
  } cases[] = {{"{not json", "body"},
               {"[1,2]", "body"},
               {R"({"session_id":"s1","role":"user","content":5})", "content"},
               {R"({"session_id":"s1","role":"user","content":"x","colour":"red"})", "colour"},
               {R"({"session_id":"s1","role":"user","content":"x","namespace":"bob"})", "namespace"},
               {R"({"session_id":"s1","role":"user","content":"x","idempotency_key":"k"})", "idempotency_key"}};
  for (const Case& c : cases) {
    HttpResponse r = Call("POST", "/v1/namespaces/alice/events", c.body);
    EXPECT_EQ(r.status, 400) << c.body;
    EXPECT_EQ(r.content_type, "application/problem+json");
    json p = Body(r);
    EXPECT_EQ(p["field"], c.field) << r.body;
    EXPECT_EQ(p["code"], "invalid_argument");
    EXPECT_EQ(p["status"], 400);
    EXPECT_EQ(p["request_id"], "rid-1");
    for (const char* k : {"type", "title", "detail"}) EXPECT_TRUE(p.contains(k)) << k;
  }
}

TEST_F(RestRoutesTest, QueryParametersAreTyped) {
  HttpResponse r = Call("GET", "/v1/namespaces/alice/claims", "", {{"limit", "abc"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["field"], "limit");
  r = Call("GET", "/v1/namespaces/alice/claims", "", {{"include_history", "maybe"}});
  EXPECT_EQ(Body(r)["field"], "include_history");
  r = Call("GET", "/v1/namespaces/alice/claims", "", {{"bogus", "1"}});
  EXPECT_EQ(Body(r)["field"], "bogus");
  r = Call("GET", "/v1/namespaces/alice/claims", "", {{"limit", "5"}, {"include_history", "true"}});
  EXPECT_EQ(r.status, 200) << r.body;
  r = Call("GET", "/v1/namespaces/alice/claims", R"({"limit":5})");
  EXPECT_EQ(r.status, 400) << "a GET takes no body";
  EXPECT_EQ(Body(r)["field"], "body");
}

TEST_F(RestRoutesTest, UnknownRouteIs404AndWrongMethodIs405WithAllow) {
  HttpResponse r = Call("GET", "/v1/nothing/here");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["code"], "not_found");
  r = Call("DELETE", "/v1/namespaces/alice/recall");
  EXPECT_EQ(r.status, 405);
  ASSERT_FALSE(r.headers.empty());
  EXPECT_EQ(r.headers[0].first, "Allow");
  EXPECT_EQ(r.headers[0].second, "POST");
}

TEST_F(RestRoutesTest, AKeyForAliceCannotReadOrWriteBob) {
  principal_ = api::Principal{.key_id = "ek_a", .grants = {{"alice", api::Access::kWrite}}};
  EXPECT_EQ(Call("POST", "/v1/namespaces/alice/memories", R"({"text":"I live in City-A."})").status, 201);
  HttpResponse r = Call("POST", "/v1/namespaces/bob/recall", R"({"query":"where"})");
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(Body(r)["code"], "permission_denied");
  EXPECT_EQ(Call("POST", "/v1/namespaces/bob/memories", R"({"text":"x"})").status, 403);
  EXPECT_EQ(Call("GET", "/v1/admin/stats").status, 403) << "admin needs an admin key";
}

TEST_F(RestRoutesTest, IdempotencyKeyReplayStoresNothingNew) {
  const std::string body = R"({"session_id":"s1","role":"user","content":"once"})";
  HttpResponse first = Call("POST", "/v1/namespaces/alice/events", body, {}, {{"idempotency-key", "k-1"}});
  ASSERT_EQ(first.status, 201) << first.body;
  HttpResponse again = Call("POST", "/v1/namespaces/alice/events", body, {}, {{"idempotency-key", "k-1"}});
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_TRUE(Body(again)["duplicate"].get<bool>());
  EXPECT_EQ(Body(again)["event"]["id"], Body(first)["event"]["id"]);
}

TEST_F(RestRoutesTest, CursorPagingHasNoGapsOrRepeats) {
  const char* facts[] = {"My sister is called Ana.", "My favourite colour is green.", "I work at Initech.",
                         "I live in Lisbon.",        "My dog is called Rex.",         "I speak Portuguese.",
                         "My cat is called Miso."};
  for (const char* f : facts) {
    ASSERT_EQ(Call("POST", "/v1/namespaces/alice/memories", json{{"text", f}}.dump()).status, 201) << f;
  }
  std::set<std::string> seen;
  std::string cursor;
  int pages = 0;
  do {
    std::multimap<std::string, std::string> q{{"limit", "3"}};
    if (!cursor.empty()) q.emplace("cursor", cursor);
    HttpResponse r = Call("GET", "/v1/namespaces/alice/claims", "", q);
    ASSERT_EQ(r.status, 200) << r.body;
    json page = Body(r);
    for (const auto& c : page["items"]) EXPECT_TRUE(seen.insert(c["id"].get<std::string>()).second);
    cursor = page["next_cursor"].is_null() ? "" : page["next_cursor"].get<std::string>();
    ASSERT_LT(++pages, 10);
  } while (!cursor.empty());
  EXPECT_EQ(seen.size(), 7u);
}

TEST_F(RestRoutesTest, EveryCapabilityHasARoute) {
  std::set<std::string> routes;
  for (const std::string& r : RestRoutes::Routes()) EXPECT_TRUE(routes.insert(r).second) << r;
  EXPECT_EQ(routes.size(), api::AllCapabilities().size());
  EXPECT_EQ(RestRoutes::RouteOf("POST", "/v1/namespaces/x/recall"), "POST /v1/namespaces/{namespace}/recall");
  EXPECT_EQ(RestRoutes::RouteOf("GET", "/v1/namespaces/x/recall"), "");
}

}  // namespace
}  // namespace engram::server
