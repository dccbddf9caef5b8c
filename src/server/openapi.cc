#include "server/openapi.h"

#include "api/registry.h"
#include "api/schema.h"
#include "engram/engine.h"
#include "server/ops_routes.h"
#include "server/problem.h"

namespace engram::server {
namespace {

const char* InName(api::ParamIn in) {
  switch (in) {
    case api::ParamIn::kPath: return "path";
    case api::ParamIn::kQuery: return "query";
    case api::ParamIn::kHeader: return "header";
    case api::ParamIn::kBody: return "body";
  }
  return "body";
}

OrderedJson Parameters(const api::Capability& c) {
  OrderedJson out = OrderedJson::array();
  for (const api::ParamSpec& p : c.params) {
    if (p.in == api::ParamIn::kBody) continue;
    OrderedJson schema = api::ParamSchema(p);
    schema.erase("description");
    OrderedJson param{{"name", p.in == api::ParamIn::kHeader ? p.header : p.name},
                      {"in", InName(p.in)},
                      {"required", p.in == api::ParamIn::kPath || p.required},
                      {"description", p.description},
                      {"schema", std::move(schema)}};
    out.push_back(std::move(param));
  }
  return out;
}

OrderedJson ProblemResponseRef() {
  return {{"description", "an error (RFC 9457 problem details)"},
          {"content", {{kProblemContentType, {{"schema", {{"$ref", "#/components/schemas/Problem"}}}}}}}};
}

OrderedJson Operation(const api::Capability& c) {
  OrderedJson op{{"operationId", c.name},
                 {"tags", OrderedJson::array({c.group})},
                 {"summary", c.description},
                 {"x-engram-access", std::string(api::AccessName(c.access))}};
  OrderedJson params = Parameters(c);
  if (!params.empty()) op["parameters"] = std::move(params);
  OrderedJson body = api::InputSchema(c.params, {}, /*body_only=*/true);
  if (c.rest.method != "GET" && c.rest.method != "DELETE" && !body["properties"].empty()) {
    const bool required = body.contains("required");
    body["additionalProperties"] = false;
    op["requestBody"] = {{"required", required}, {"content", {{"application/json", {{"schema", std::move(body)}}}}}};
  }
  OrderedJson ok{{"description", "the result"},
                 {"content", {{"application/json", {{"schema", c.result_schema}}}}}};
  OrderedJson responses{{"200", ok}};
  if (c.access == api::Access::kWrite && c.rest.method == "POST") {
    responses["201"] = ok;
    responses["201"]["description"] = "the result; something new was stored";
  }
  responses["default"] = ProblemResponseRef();
  op["responses"] = std::move(responses);
  return op;
}

OrderedJson OpsOperation(const OpsRoute& r) {
  OrderedJson schema = r.content_type == "application/json" ? OrderedJson{{"type", "object"}}
                                                            : OrderedJson{{"type", "string"}};
  OrderedJson op{{"operationId", r.path == "/openapi.json" ? std::string("openapi") : r.path.substr(1)},
                 {"tags", OrderedJson::array({"operations"})},
                 {"summary", r.summary},
                 {"responses",
                  {{"200", {{"description", "ok"}, {"content", {{r.content_type, {{"schema", schema}}}}}}},
                   {"default", ProblemResponseRef()}}}};
  if (!r.authenticated) op["security"] = OrderedJson::array();
  return op;
}

}  // namespace

OrderedJson OpenApiDocument() {
  OrderedJson paths = OrderedJson::object();
  for (const api::Capability& c : api::AllCapabilities()) {
    std::string method = c.rest.method;
    for (char& ch : method) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    paths[c.rest.path][method] = Operation(c);
  }
  for (const OpsRoute& r : OpsRoutes()) paths[r.path]["get"] = OpsOperation(r);
  return {{"openapi", "3.1.0"},
          {"info",
           {{"title", "engram"},
            {"version", GetVersionInfo().engram},
            {"description", "Long-term memory for LLM agents: the REST face of the capability layer. Errors are "
                            "application/problem+json; see docs/server.md."}}},
          {"paths", std::move(paths)},
          {"components",
           {{"schemas", {{"Problem", ProblemSchema()}}},
            {"securitySchemes", {{"bearer", {{"type", "http"}, {"scheme", "bearer"}}}}}}},
          {"security", OrderedJson::array({{{"bearer", OrderedJson::array()}}})}};
}

}  // namespace engram::server
