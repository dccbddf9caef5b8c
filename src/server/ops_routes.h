// server/ops_routes.h — the operations routes of `engram serve`:
//   GET /healthz       liveness: {"status": "ok"}, no database work
//   GET /readyz        readiness: the database opens and its schema is current; 503 otherwise
//   GET /version       GetVersionInfo: {"engram", "sqlite", "sqlite_has_wal_reset_bug"}
//   GET /metrics       Prometheus text: request counts and latency histograms (server/metrics.h),
//                      engram_queue_depth (pending extraction jobs), engram_worker_lag_seconds
//   GET /openapi.json  the OpenAPI 3.1 document (server/openapi.h)
// /metrics needs a key when keys exist; the others are public.
//
// Thread-safe.
#ifndef ENGRAM_SERVER_OPS_ROUTES_H_
#define ENGRAM_SERVER_OPS_ROUTES_H_

#include <string>
#include <vector>

#include "server/engine_pool.h"
#include "server/http_server.h"

namespace engram::server {

struct OpsRoute {
  std::string method;
  std::string path;
  std::string summary;
  std::string content_type;  // of a 200 answer
  bool authenticated = false;
};

// The routes above, in that order.
const std::vector<OpsRoute>& OpsRoutes();

// Mounts them on `server`.
void MountOpsRoutes(HttpServer& server, EnginePool& pool);

}  // namespace engram::server

#endif  // ENGRAM_SERVER_OPS_ROUTES_H_
