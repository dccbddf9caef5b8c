// server/openapi.h — the OpenAPI 3.1 document of `engram serve`, generated from the capability
// registry (api::AllCapabilities) and the operations routes (server/ops_routes.h), never written
// by hand: paths with their parameters (path, query, header; ParamSchema), the JSON request body
// (api::InputSchema, body fields only, additionalProperties false: the REST face is strict), the
// result schema of each capability, the problem+json shape of every error, bearer security.
//
// The committed snapshot is docs/openapi.json; regenerate it with
//   build/engram serve --print-openapi > docs/openapi.json
// (server/openapi_test.cc compares them). Thread-safe.
#ifndef ENGRAM_SERVER_OPENAPI_H_
#define ENGRAM_SERVER_OPENAPI_H_

#include "codec/json_codec.h"

namespace engram::server {

OrderedJson OpenApiDocument();

}  // namespace engram::server

#endif  // ENGRAM_SERVER_OPENAPI_H_
