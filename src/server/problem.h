// server/problem.h — the one error shape of the REST face: RFC 9457 application/problem+json
//   {"type", "title", "status", "detail", "code", "field"?, "request_id"}
// with the HTTP status from HttpStatusFor (status.h), refined only for the listener's own limits
// (413 body, 414 URI, 405 method). Thread-safe (pure functions).
#ifndef ENGRAM_SERVER_PROBLEM_H_
#define ENGRAM_SERVER_PROBLEM_H_

#include <string>

#include "codec/json_codec.h"
#include "engram/status.h"
#include "server/http_exchange.h"

namespace engram::server {

inline constexpr const char* kProblemContentType = "application/problem+json";

// The problem document of `status` (not OK). `http_status` 0 = HttpStatusFor(status.code()).
// "field" is present when the message names one (api::FieldOfMessage).
OrderedJson ProblemJson(const Status& status, const std::string& request_id, int http_status = 0);

// The same as a response (content type application/problem+json, X-Request-Id set by the listener).
HttpResponse ProblemResponse(const Status& status, const std::string& request_id, int http_status = 0);

// The JSON Schema of a problem document (for the OpenAPI document).
OrderedJson ProblemSchema();

}  // namespace engram::server

#endif  // ENGRAM_SERVER_PROBLEM_H_
