// server/openapi_test.cc — the OpenAPI document against the routes the server serves (both ways)
// and against its committed snapshot docs/openapi.json. After a deliberate change, regenerate:
//   build/engram serve --print-openapi > docs/openapi.json
#include "server/openapi.h"

#include <gtest/gtest.h>

#include <set>

#include "server/ops_routes.h"
#include "server/rest_routes.h"
#include "test_util.h"

namespace engram::server {
namespace {

std::set<std::string> ServedRoutes() {
  std::set<std::string> out;
  for (const std::string& r : RestRoutes::Routes()) out.insert(r);
  for (const OpsRoute& r : OpsRoutes()) out.insert(r.method + " " + r.path);
  return out;
}

std::set<std::string> DocumentedRoutes(const OrderedJson& doc) {
  std::set<std::string> out;
  for (const auto& [path, item] : doc["paths"].items()) {
    for (const auto& [method, op] : item.items()) {
      std::string m = method;
      for (char& c : m) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out.insert(m + " " + path);
    }
  }
  return out;
}

TEST(OpenApiTest, EveryServedRouteIsDocumentedAndViceVersa) {
  OrderedJson doc = OpenApiDocument();
  EXPECT_EQ(doc["openapi"], "3.1.0");
  EXPECT_EQ(DocumentedRoutes(doc), ServedRoutes());
}

TEST(OpenApiTest, PathParametersAreDeclaredAndErrorsAreProblems) {
  OrderedJson doc = OpenApiDocument();
  for (const auto& [path, item] : doc["paths"].items()) {
    for (const auto& [method, op] : item.items()) {
      std::set<std::string> declared;
      for (const auto& p : op.value("parameters", OrderedJson::array())) {
        if (p["in"] == "path") declared.insert(p["name"].get<std::string>());
      }
      for (size_t open = path.find('{'); open != std::string::npos; open = path.find('{', open + 1)) {
        const std::string name = path.substr(open + 1, path.find('}', open) - open - 1);
        EXPECT_TRUE(declared.count(name)) << method << " " << path << " {" << name << "}";
      }
      EXPECT_TRUE(op["responses"].contains("default")) << path;
    }
  }
  EXPECT_TRUE(doc["components"]["schemas"].contains("Problem"));
  EXPECT_EQ(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
}

TEST(OpenApiTest, MatchesTheCommittedSnapshot) {
  const std::string path = std::string(ENGRAM_SOURCE_DIR) + "/docs/openapi.json";
  const std::string committed = test::ReadFile(path);
  ASSERT_FALSE(committed.empty()) << path << " is missing: build/engram serve --print-openapi > docs/openapi.json";
  EXPECT_EQ(OrderedJson::parse(committed), OpenApiDocument())
      << "the document changed: review it, then run build/engram serve --print-openapi > docs/openapi.json";
}

}  // namespace
}  // namespace engram::server
