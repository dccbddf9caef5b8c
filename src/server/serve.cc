#include "server/serve.h"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "server/engine_pool.h"
#include "server/http_server.h"
#include "server/key_auth.h"
#include "server/log.h"
#include "server/ops_routes.h"
#include "server/rate_limiter.h"
#include "server/rest_routes.h"

namespace engram::server {
namespace {

// Extraction and maintenance, as `engram worker` does, on its own read-write Engine (its own
// connection: a long extraction batch never holds up the REST writer).
void RunWorker(const Options& options, const ServerConfig& config, const std::atomic<bool>& stop) {
  Options worker_options = options;
  worker_options.open_mode = OpenMode::kReadWrite;
  auto engine = Engine::Open(worker_options);
  if (!engine) {
    LogJson("error", "worker: cannot open the database", {{"error", engine.error().ToString()}});
    return;
  }
  auto last_maintain = std::chrono::steady_clock::now();
  while (!stop) {
    const auto now = std::chrono::steady_clock::now();
    if (config.maintain_every_ms > 0 && now - last_maintain >= std::chrono::milliseconds(config.maintain_every_ms)) {
      last_maintain = now;
      auto pass = (*engine)->Maintain(MaintainRequest{.all_namespaces = true});
      if (!pass) LogJson("warn", "worker: maintenance failed", {{"error", pass.error().ToString()}});
    }
    auto report = (*engine)->Process(/*drain=*/false);
    if (!report) {
      LogJson("warn", "worker: extraction failed", {{"error", report.error().ToString()}});
    } else if (report->batches > 0) {
      LogJson("info", "worker: extracted", {{"batches", report->batches}});
    }
    for (int64_t waited = 0; waited < config.worker_poll_ms && !stop; waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

// Waits for SIGTERM/SIGINT (blocked in every thread) and stops the listener.
void WaitForSignal(HttpServer& server, const std::atomic<bool>& stop) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  const timespec tick{0, 200 * 1000 * 1000};
  while (!stop) {
    int sig = sigtimedwait(&set, nullptr, &tick);
    if (sig == SIGTERM || sig == SIGINT) {
      LogJson("info", "stopping: finishing the requests in flight", {{"signal", sig == SIGTERM ? "SIGTERM" : "SIGINT"}});
      server.Stop();
      return;
    }
  }
}

struct Policy {
  double rate = 0;
  double burst = 1;
};

Policy RatePolicy(const ServerConfig& c, bool loopback) {
  Policy p;
  p.rate = c.rate_limit_rps < 0 ? (loopback ? 0 : 100) : c.rate_limit_rps;
  p.burst = c.rate_limit_burst > 0 ? c.rate_limit_burst : std::max(1.0, 2 * p.rate);
  return p;
}

}  // namespace

Status Serve(const ServeOptions& options) {
  const ServerConfig& config = options.config;
  ENGRAM_RETURN_IF_ERROR(ValidateServerConfig(config));
  // Engine::Open lets a bad distiller through (reads do not need it); a server that would fail
  // every distillation refuses to start instead.
  ENGRAM_RETURN_IF_ERROR(Engine::ValidateDistiller(options.engine).WithContext("refusing to start"));
  std::string host;
  int port = 0;
  ENGRAM_RETURN_IF_ERROR(ParseListen(config.listen, &host, &port));
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // before any thread starts: they inherit the mask
  signal(SIGPIPE, SIG_IGN);                    // a client that hung up is an error return, not an exit

  auto pool = EnginePool::Open(options.engine, config.readers);
  if (!pool) return pool.error();
  KeyAuthenticator auth(**pool, std::chrono::milliseconds(1000));
  auto keys = auth.KeysExist();
  if (!keys) return keys.error();
  const bool loopback = IsLoopbackHost(host);
  if (!*keys && !loopback) {
    return Status::InvalidArgument(fmt::format(
        "field \"listen\": refusing to listen on {} without API keys (create one with `engram keys create`, "
        "or listen on 127.0.0.1)", config.listen));
  }
  if (!*keys) LogJson("warn", "no API keys: listening on loopback only, every caller is the owner", {{"listen", config.listen}});

  HttpServer server({.host = host, .port = port, .threads = config.threads,
                     .max_body_bytes = static_cast<size_t>(config.max_body_bytes),
                     .max_uri_bytes = static_cast<size_t>(config.max_uri_bytes),
                     .io_timeout_ms = static_cast<int>(config.io_timeout_ms), .log_requests = config.log_requests});
  server.SetAuthenticator([&auth](const HttpRequest& r) { return auth.Authenticate(r.Header("authorization")); });
  const Policy policy = RatePolicy(config, loopback);
  RateLimiter limiter(policy.rate, policy.burst);
  server.SetRateCheck([&limiter](const api::Principal& p) { return limiter.Admit(p.owner ? "owner" : p.key_id); });
  // Backups a caller asks for go to one folder beside the database, never elsewhere.
  std::error_code made;
  std::filesystem::create_directories(options.engine.db_path + ".backups", made);
  RestRoutes rest(**pool, std::chrono::milliseconds(config.request_timeout_ms), options.engine.db_path + ".backups");
  server.Mount("", "/v1/", [&rest](const HttpRequest& r) { return rest.Handle(r); }, true,
               [](const HttpRequest& r) { return RestRoutes::RouteOf(r.method, r.path); });
  MountOpsRoutes(server, **pool);
  if (options.mount) options.mount(server, **pool);
  ENGRAM_RETURN_IF_ERROR(server.Bind());
  if (!options.port_file.empty()) std::ofstream(options.port_file) << server.port() << "\n";
  LogJson("info", "listening", {{"host", host}, {"port", server.port()}, {"readers", config.readers},
                                {"keys", *keys}, {"rate_limit_rps", policy.rate}});

  std::atomic<bool> stop{false};
  std::thread worker;
  if (config.worker) worker = std::thread([&] { RunWorker(options.engine, config, stop); });
  std::thread signals([&] { WaitForSignal(server, stop); });
  Status st = server.Run();
  stop = true;
  signals.join();
  if (worker.joinable()) worker.join();
  LogJson("info", "stopped");
  return st;
}

}  // namespace engram::server
