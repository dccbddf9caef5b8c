#include "server/problem.h"

#include "api/args.h"
#include "api/schema.h"

namespace engram::server {
namespace {

std::string Title(int http_status) {
  switch (http_status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 503: return "Service Unavailable";
    default: return http_status >= 500 ? "Internal Server Error" : "Error";
  }
}

}  // namespace

OrderedJson ProblemJson(const Status& status, const std::string& request_id, int http_status) {
  const int code = http_status != 0 ? http_status : HttpStatusFor(status.code());
  const std::string name(StatusCodeName(status.code()));
  OrderedJson j{{"type", "https://engram.dev/problems/" + name},
                {"title", Title(code)},
                {"status", code},
                {"detail", status.message()},
                {"code", name}};
  std::string field = api::FieldOfMessage(status.message());
  if (!field.empty()) j["field"] = field;
  j["request_id"] = request_id;
  return j;
}

HttpResponse ProblemResponse(const Status& status, const std::string& request_id, int http_status) {
  OrderedJson j = ProblemJson(status, request_id, http_status);
  return HttpResponse{.status = j["status"].get<int>(), .content_type = kProblemContentType, .body = Dump(j)};
}

OrderedJson ProblemSchema() {
  return api::Object({{"type", api::StringType("a URI naming the problem type")},
                      {"title", api::StringType("the HTTP status in words")},
                      {"status", api::IntegerType("the HTTP status")},
                      {"detail", api::StringType("what went wrong, naming the field when one is at fault")},
                      {"code", api::StringType("the stable error code (invalid_argument, not_found, ...)")},
                      {"field", api::StringType("the argument at fault")},
                      {"request_id", api::StringType("the request id (X-Request-Id)")}},
                     {"type", "title", "status", "detail", "code", "request_id"});
}

}  // namespace engram::server
