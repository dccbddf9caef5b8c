// server/http_exchange.h — one HTTP request and its response, independent of the HTTP library, so
// that what answers a request (REST routes, the MCP endpoint /mcp) can be written and tested
// without a socket. The listener (server/http_server.h) fills a request after authenticating it
// and sends back the response.
#ifndef ENGRAM_SERVER_HTTP_EXCHANGE_H_
#define ENGRAM_SERVER_HTTP_EXCHANGE_H_

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "api/principal.h"

namespace engram::server {

struct HttpRequest {
  std::string method;  // GET, POST, DELETE, ...
  std::string path;    // without the query string, percent-encoded as sent ("/v1/namespaces/a%2Fb/recall")
  std::map<std::string, std::string> path_params;     // {namespace}, {id} of the matched route
  std::multimap<std::string, std::string> query;      // decoded query parameters
  std::map<std::string, std::string> headers;         // names lower-cased
  std::string body;
  std::string remote_addr;
  std::string request_id;  // the client's X-Request-Id, or one the server made
  api::Principal principal;  // who the API key (or loopback without keys) says is calling

  // The header's value, "" when absent. `name` lower-case.
  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

}  // namespace engram::server

#endif  // ENGRAM_SERVER_HTTP_EXCHANGE_H_
