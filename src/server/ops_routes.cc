#include "server/ops_routes.h"

#include <chrono>
#include <tuple>

#include "server/openapi.h"
#include "server/problem.h"
#include "util/time.h"

namespace engram::server {
namespace {

HttpResponse Json(const OrderedJson& body, int status = 200) {
  return HttpResponse{.status = status, .body = Dump(body)};
}

HttpResponse Ready(EnginePool& pool, const HttpRequest& request) {
  Status read = Status::Ok();
  Status ran = pool.Run(/*write=*/false, std::chrono::milliseconds(2000), [&](Engine& engine) {
    auto jobs = engine.ListJobs("pending", 1);  // one indexed read: the file answers
    if (!jobs) read = jobs.error();
  });
  if (!ran.ok()) return ProblemResponse(Status::Busy(ran.message()), request.request_id, 503);
  if (!read.ok()) return ProblemResponse(read, request.request_id, 503);
  return Json({{"status", "ready"}});
}

// Pending extraction jobs (capped at 10,000) and the age of the oldest one (s).
std::vector<std::tuple<std::string, std::string, double>> QueueGauges(EnginePool& pool) {
  Result<std::vector<JobInfo>> pending = Error(Status::Busy("no reader"));
  Status ran = pool.Run(/*write=*/false, std::chrono::milliseconds(2000),
                        [&](Engine& engine) { pending = engine.ListJobs("pending", 10000); });
  if (!ran.ok() || !pending) return {};
  double lag = 0;
  if (!pending->empty()) lag = static_cast<double>(NowMs() - pending->front().updated_at) / 1000.0;
  return {{"engram_queue_depth", "Extraction jobs waiting (pending; counted up to 10000).",
           static_cast<double>(pending->size())},
          {"engram_worker_lag_seconds", "Age of the oldest pending extraction job, seconds.", lag < 0 ? 0 : lag}};
}

}  // namespace

const std::vector<OpsRoute>& OpsRoutes() {
  static const std::vector<OpsRoute> routes = {
      {"GET", "/healthz", "Liveness: the process answers (no database work).", "application/json"},
      {"GET", "/readyz", "Readiness: the database opens with the current schema; 503 otherwise.",
       "application/json"},
      {"GET", "/version", "The engram and SQLite versions of this server.", "application/json"},
      {"GET", "/metrics", "Prometheus metrics: requests, latencies, queue depth, worker lag.",
       "text/plain; version=0.0.4", true},
      {"GET", "/openapi.json", "This OpenAPI 3.1 document.", "application/json"},
  };
  return routes;
}

void MountOpsRoutes(HttpServer& server, EnginePool& pool) {
  server.Mount("GET", "/healthz", [](const HttpRequest&) { return Json({{"status", "ok"}}); }, false);
  server.Mount("GET", "/readyz", [&pool](const HttpRequest& r) { return Ready(pool, r); }, false);
  server.Mount("GET", "/version", [](const HttpRequest&) {
    VersionInfo v = GetVersionInfo();
    return Json({{"engram", v.engram}, {"sqlite", v.sqlite}, {"sqlite_has_wal_reset_bug", v.sqlite_has_wal_reset_bug}});
  }, false);
  server.Mount("GET", "/metrics", [&server, &pool](const HttpRequest&) {
    return HttpResponse{.content_type = "text/plain; version=0.0.4", .body = server.metrics().Render(QueueGauges(pool))};
  });
  server.Mount("GET", "/openapi.json", [](const HttpRequest&) {
    static const std::string document = Dump(OpenApiDocument());
    return HttpResponse{.body = document};
  }, false);
}

}  // namespace engram::server
