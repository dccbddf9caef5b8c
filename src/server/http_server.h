// server/http_server.h — the HTTP listener (cpp-httplib): a thread pool, the limits of a request,
// request ids, the loopback Host/Origin checks, authentication and rate limits, structured access
// logs and metrics, and handlers mounted by path prefix (the REST routes at /v1/, the operations
// routes, /mcp).
//
// Every request is answered by the mounted handler whose prefix is the longest match of its path
// (an exact path for a prefix without a trailing '/'). Before the handler runs, in this order:
//   414 when the target (path and query) is longer than max_uri_bytes;
//   403 on a loopback listener when Host is not a loopback name or Origin is not a loopback origin
//       (DNS rebinding);
//   401 when the mount is authenticated and the Authenticator refuses (Authorization: Bearer);
//   429 with Retry-After when the caller's token bucket is empty.
// A rate-limited caller's responses (the 429s and the others) carry X-RateLimit-Limit (the
// bucket's size, requests), X-RateLimit-Remaining (whole requests left) and X-RateLimit-Reset
// (seconds until the bucket is full again).
// A body over max_body_bytes is 413. A response carries X-Request-Id (the client's, or a new one).
// Each answered request logs one JSON object on stderr: {ts, level, msg:"request", request_id,
// method, route, status, ms, key}.
//
// Thread-safe: Mount and the setters before Bind; Stop from any thread.
#ifndef ENGRAM_SERVER_HTTP_SERVER_H_
#define ENGRAM_SERVER_HTTP_SERVER_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engram/status.h"
#include "server/http_exchange.h"
#include "server/metrics.h"
#include "server/rate_limiter.h"

namespace engram::server {

struct ListenerOptions {
  std::string host = "127.0.0.1";
  int port = 8420;                      // 0 = an ephemeral port (see HttpServer::port)
  int threads = 64;                     // one per open connection (keep-alive holds its thread)
  size_t max_body_bytes = 8u << 20;     // 413 above
  size_t max_uri_bytes = 4096;          // 414 above (path and query)
  int io_timeout_ms = 10000;            // socket read/write timeout (a client that stalls is dropped)
  bool log_requests = true;             // the access log line of each request
};

// Who is calling, from the request's headers; an error is the response (401).
using Authenticator = std::function<Result<api::Principal>(const HttpRequest&)>;
// The caller's quota after this request (refused: 429), or nullopt when it is not limited.
using RateCheck = std::function<std::optional<RateQuota>(const api::Principal&)>;
// The route of a request for logs and metrics, "METHOD template" ("" = "METHOD prefix").
using RouteNamer = std::function<std::string(const HttpRequest&)>;

// True for 127.0.0.0/8, ::1 and "localhost".
bool IsLoopbackHost(const std::string& host);

class HttpServer {
 public:
  explicit HttpServer(ListenerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Serves `handler` for `method` ("" = every method) under `path_prefix`. `authenticated`: the
  // Authenticator runs first (and the rate limiter).
  void Mount(const std::string& method, const std::string& path_prefix, HttpHandler handler,
             bool authenticated = true, RouteNamer namer = nullptr);
  void SetAuthenticator(Authenticator authenticator) { authenticator_ = std::move(authenticator); }
  void SetRateCheck(RateCheck check) { limiter_ = std::move(check); }

  // Binds options.host:options.port. Errors: kIOError (address in use, no permission).
  Status Bind();
  // The bound port (after Bind).
  int port() const { return port_; }
  // Accepts and answers requests until Stop; in-flight requests are finished before it returns.
  Status Run();
  // Stops accepting; Run returns once the requests in flight are answered. Thread-safe; not
  // async-signal-safe (call it from a thread that waited for the signal).
  void Stop();

  Metrics& metrics() { return metrics_; }

 private:
  struct Mounted {
    std::string method;
    std::string prefix;
    HttpHandler handler;
    bool authenticated;
    RouteNamer namer;
  };
  struct Impl;
  const Mounted* FindMount(const std::string& method, const std::string& path, bool* path_known) const;
  HttpResponse Answer(HttpRequest& request, std::string* route) const;
  std::optional<HttpResponse> Guard(HttpRequest& request, const Mounted& mount, std::vector<std::pair<std::string, std::string>>* quota_headers) const;

  ListenerOptions options_;
  std::vector<Mounted> mounts_;
  Authenticator authenticator_;
  RateCheck limiter_;
  Metrics metrics_;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_HTTP_SERVER_H_
