// server/route_table_test.cc — FindRoute gives what matching every route's template with
// MatchPathTemplate gives (the matching before the table), for every route's path filled in
// several ways, every method, and paths no route has.
#include "server/route_table.h"

#include <gtest/gtest.h>

#include <set>

#include "api/registry.h"
#include "server/rest_routes.h"

namespace engram::server {
namespace {

// The matching before the table: every route's template split and matched for each request.
RouteMatch Reference(const std::string& method, const std::string& path) {
  auto literals = [](const std::string& t) {
    int n = 0;
    size_t start = 0;
    while (start <= t.size()) {
      size_t end = t.find('/', start);
      if (end == std::string::npos) end = t.size();
      n += end == start || t[start] != '{' ? 1 : 0;
      start = end + 1;
    }
    return n;
  };
  RouteMatch best;
  int best_literals = -1;
  std::set<std::string> allowed;
  for (const api::Capability& c : api::AllCapabilities()) {
    std::map<std::string, std::string> params;
    if (!MatchPathTemplate(c.rest.path, path, &params)) continue;
    allowed.insert(c.rest.method);
    if (c.rest.method != method || literals(c.rest.path) <= best_literals) continue;
    best_literals = literals(c.rest.path);
    best.capability = &c;
    best.params = std::move(params);
  }
  if (best.capability == nullptr) best.allowed.assign(allowed.begin(), allowed.end());
  return best;
}

// `path_template` with each {name} segment replaced by `value`.
std::string Fill(const std::string& path_template, const std::string& value) {
  std::string out;
  size_t i = 0;
  while (i < path_template.size()) {
    if (path_template[i] == '{') {
      const size_t close = path_template.find('}', i);
      if (close != std::string::npos) {
        out += value;
        i = close + 1;
        continue;
      }
    }
    out += path_template[i++];
  }
  return out;
}

void ExpectSame(const std::string& method, const std::string& path) {
  const RouteMatch got = FindRoute(method, path);
  const RouteMatch want = Reference(method, path);
  EXPECT_EQ(got.capability, want.capability) << method << " " << path;
  EXPECT_EQ(got.params, want.params) << method << " " << path;
  EXPECT_EQ(got.allowed, want.allowed) << method << " " << path;
}

TEST(RouteTableTest, AgreesWithMatchingEveryTemplate) {
  const std::vector<std::string> methods = {"GET", "POST", "DELETE", "PUT", "PATCH"};
  const std::vector<std::string> values = {"a",      "team%2Falpha", "",        "sessions",
                                          "search", "x%zz",         "%7Bid%7D"};
  std::set<std::string> paths = {"/",
                                 "",
                                 "/v1",
                                 "/v1/",
                                 "/v1/namespaces",
                                 "/v1/namespaces/a",
                                 "/v1/namespaces/a/recall/",
                                 "/v1//recall",
                                 "/v2/namespaces/a/recall",
                                 "/v1/namespaces/a/b/recall",
                                 "/v1/namespaces/a/events:batc%68"};
  for (const api::Capability& c : api::AllCapabilities()) {
    for (const std::string& v : values) paths.insert(Fill(c.rest.path, v));
    paths.insert(c.rest.path);
  }
  for (const std::string& path : paths) {
    for (const std::string& method : methods) ExpectSame(method, path);
  }
}

TEST(RouteTableTest, RecallRouteAndItsParameter) {
  const RouteMatch m = FindRoute("POST", "/v1/namespaces/team%2Falpha/recall");
  ASSERT_NE(m.capability, nullptr);
  EXPECT_EQ(m.capability->rest.path, "/v1/namespaces/{namespace}/recall");
  EXPECT_EQ(m.params.at("namespace"), "team/alpha");
  const RouteMatch wrong_method = FindRoute("GET", "/v1/namespaces/a/recall");
  EXPECT_EQ(wrong_method.capability, nullptr);
  EXPECT_EQ(wrong_method.allowed, std::vector<std::string>{"POST"});
  EXPECT_TRUE(FindRoute("GET", "/v1/nothing/here").allowed.empty());
}

}  // namespace
}  // namespace engram::server
