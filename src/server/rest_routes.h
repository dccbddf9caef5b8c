// server/rest_routes.h — the REST routes, generated from the capability registry
// (api::AllCapabilities): each capability's RestBinding is one route. A request is matched to its
// route ({name} segments become path parameters), its arguments are gathered — path parameters,
// query parameters converted to their ParamSpec's type, header parameters (Idempotency-Key), the
// JSON body — and validated strictly (api::ParseArgs via api::Invoke); the caller is authorized
// (api::Authorize) before any Engine is called. Errors are problem+json (server/problem.h).
//
// Thread-safe: Handle may be called from many threads at once.
#ifndef ENGRAM_SERVER_REST_ROUTES_H_
#define ENGRAM_SERVER_REST_ROUTES_H_

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "api/capability.h"
#include "server/engine_pool.h"
#include "server/http_exchange.h"

namespace engram::server {

// "{name}" segments of `path_template` match one segment of `path` (percent-encoded as sent:
// "team%2Falpha" is one segment, decoded to "team/alpha"), others literally. Fills `params` on a
// match.
bool MatchPathTemplate(const std::string& path_template, const std::string& path,
                       std::map<std::string, std::string>* params);

// The capability's arguments as one JSON object: path parameters, query parameters (typed as their
// ParamSpec says), header parameters and the fields of the JSON body. Errors: kInvalidArgument
// naming the field — the body is not a JSON object (field "body"), a query value of the wrong type,
// an unknown query parameter, a body field that belongs in the path or a header, a body on GET.
Result<nlohmann::json> GatherArgs(const api::Capability& capability, const HttpRequest& request);

class RestRoutes {
 public:
  // `budget`: how long a request may wait for an Engine (then 408).
  RestRoutes(EnginePool& pool, std::chrono::milliseconds budget) : pool_(pool), budget_(budget) {}

  // Answers a request under /v1/: the capability's reply (its status, body or raw body), or a
  // problem: 404 (no route), 405 with Allow (the path exists with other methods), 400, 403, and
  // whatever the capability returns.
  HttpResponse Handle(const HttpRequest& request) const;

  // The route template a request matches, "METHOD /v1/..." — or "" (for metrics labels).
  static std::string RouteOf(const std::string& method, const std::string& path);

  // Every route as "METHOD path-template", in registry order.
  static std::vector<std::string> Routes();

 private:
  EnginePool& pool_;
  std::chrono::milliseconds budget_;
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_REST_ROUTES_H_
