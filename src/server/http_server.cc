#include "server/http_server.h"

#include <fmt/format.h>
#include <httplib.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <random>

#include "server/log.h"
#include "server/problem.h"
#include "server/url.h"

namespace engram::server {
namespace {

std::string Lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The client's X-Request-Id when it is 1–128 printable ASCII characters, or a new one.
std::string RequestId(const std::string& given) {
  bool usable = !given.empty() && given.size() <= 128;
  for (char c : given) usable = usable && c > 32 && c < 127 && c != '"' && c != '\\';
  if (usable) return given;
  static const uint32_t prefix = std::random_device{}();
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{:08x}-{:010x}", prefix, counter.fetch_add(1) + 1);
}

// The host part of a Host header or of an origin's authority ("[::1]:8420" → "::1").
std::string HostPart(std::string authority) {
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    return close == std::string::npos ? authority : authority.substr(1, close - 1);
  }
  size_t colon = authority.rfind(':');
  return colon == std::string::npos ? authority : authority.substr(0, colon);
}

// On a loopback listener: a Host that is not loopback, or an Origin of another site, is DNS
// rebinding or a web page reaching in (MCP 2025-06-18 transports: validate Origin).
std::optional<Status> RebindingCheck(const HttpRequest& request) {
  const std::string host = request.Header("host");
  if (!host.empty() && !IsLoopbackHost(Lower(HostPart(host)))) {
    return Status::PermissionDenied(fmt::format("Host \"{}\" is not a loopback name", host.substr(0, 100)));
  }
  const std::string origin = request.Header("origin");
  if (origin.empty() || origin == "null") return std::nullopt;
  size_t scheme = origin.find("://");
  std::string authority = scheme == std::string::npos ? "" : origin.substr(scheme + 3);
  if (!IsLoopbackHost(Lower(HostPart(authority)))) {
    return Status::PermissionDenied(fmt::format("Origin \"{}\" is not a loopback origin", origin.substr(0, 100)));
  }
  return std::nullopt;
}

HttpRequest FromHttplib(const httplib::Request& req) {
  // The path as sent (percent-encoded): a %2F inside a namespace stays inside its segment.
  const std::string raw_path = req.target.substr(0, req.target.find('?'));
  HttpRequest r{.method = req.method, .path = raw_path.empty() ? req.path : raw_path, .body = req.body,
                .remote_addr = req.remote_addr};
  // From the target only: httplib also puts the fields of a form-encoded body into params.
  const size_t question = req.target.find('?');
  if (question != std::string::npos) r.query = ParseQuery(std::string_view(req.target).substr(question + 1));
  for (const auto& [k, v] : req.headers) r.headers[Lower(k)] = v;
  r.request_id = RequestId(r.Header("x-request-id"));
  return r;
}

}  // namespace

bool IsLoopbackHost(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

struct HttpServer::Impl {
  httplib::Server server;
};

HttpServer::HttpServer(ListenerOptions options) : options_(std::move(options)), impl_(std::make_unique<Impl>()) {}

HttpServer::~HttpServer() = default;

void HttpServer::Mount(const std::string& method, const std::string& path_prefix, HttpHandler handler,
                       bool authenticated, RouteNamer namer) {
  mounts_.push_back({method, path_prefix, std::move(handler), authenticated, std::move(namer)});
}

const HttpServer::Mounted* HttpServer::FindMount(const std::string& method, const std::string& path,
                                                 bool* path_known) const {
  const Mounted* best = nullptr;
  *path_known = false;
  for (const Mounted& m : mounts_) {
    const bool prefix = !m.prefix.empty() && m.prefix.back() == '/';
    if (prefix ? path.rfind(m.prefix, 0) != 0 : path != m.prefix) continue;
    *path_known = true;
    if (!m.method.empty() && m.method != method) continue;
    if (best == nullptr || m.prefix.size() > best->prefix.size()) best = &m;
  }
  return best;
}

std::optional<HttpResponse> HttpServer::Guard(HttpRequest& request, const Mounted& mount,
                                              std::vector<std::pair<std::string, std::string>>* quota_headers) const {
  if (!mount.authenticated) return std::nullopt;
  if (authenticator_) {
    auto who = authenticator_(request);
    if (!who) {
      HttpResponse r = ProblemResponse(who.error(), request.request_id);
      if (r.status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer");
      return r;
    }
    request.principal = std::move(*who);
  } else {
    request.principal = api::Principal::Owner();
  }
  if (limiter_) {
    if (auto quota = limiter_(request.principal)) {
      *quota_headers = {{"X-RateLimit-Limit", std::to_string(quota->limit)},
                        {"X-RateLimit-Remaining", std::to_string(quota->remaining)},
                        {"X-RateLimit-Reset", std::to_string(quota->reset_seconds)}};
      if (!quota->allowed) {
        const double wait = quota->retry_after_seconds;
        HttpResponse r = ProblemResponse(
            Status::ResourceExhausted(fmt::format("rate limit of this key reached; retry in {:.1f} s", wait)),
            request.request_id);
        r.headers.emplace_back("Retry-After", std::to_string(static_cast<int>(std::ceil(wait))));
        return r;
      }
    }
  }
  return std::nullopt;
}

HttpResponse HttpServer::Answer(HttpRequest& request, std::string* route) const {
  if (IsLoopbackHost(options_.host)) {
    if (auto denied = RebindingCheck(request)) return ProblemResponse(*denied, request.request_id);
  }
  bool path_known = false;
  const Mounted* mount = FindMount(request.method, request.path, &path_known);
  if (mount == nullptr) {
    if (request.path == "/mcp" && request.method != "POST") {
      HttpResponse r = ProblemResponse(Status::InvalidArgument("/mcp takes POST only"), request.request_id, 405);
      r.headers.emplace_back("Allow", "POST");
      return r;
    }
    return ProblemResponse(Status::NotFound(fmt::format("no route {} {}", request.method, request.path)),
                           request.request_id, path_known ? 405 : 404);
  }
  *route = mount->namer ? mount->namer(request) : std::string();
  if (route->empty()) *route = request.method + " " + mount->prefix;
  std::vector<std::pair<std::string, std::string>> quota_headers;
  HttpResponse response;
  if (auto refused = Guard(request, *mount, &quota_headers)) {
    response = std::move(*refused);
  } else {
    response = mount->handler(request);
  }
  for (auto& header : quota_headers) response.headers.push_back(std::move(header));
  return response;
}

Status HttpServer::Bind() {
  httplib::Server& s = impl_->server;
  const int threads = options_.threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  s.set_payload_max_length(options_.max_body_bytes);
  s.set_keep_alive_max_count(100000);
  // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm holds the
  // body until the client's delayed ACK (40 ms on Linux), which capped a keep-alive connection at
  // about 25 requests a second.
  s.set_tcp_nodelay(true);
  s.set_read_timeout(std::chrono::milliseconds(options_.io_timeout_ms));
  s.set_write_timeout(std::chrono::milliseconds(options_.io_timeout_ms));
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    const auto start = std::chrono::steady_clock::now();
    HttpRequest request = FromHttplib(req);
    std::string route = "unmatched";
    HttpResponse response =
        req.target.size() > options_.max_uri_bytes
            ? ProblemResponse(Status::ResourceExhausted(fmt::format("the request target is over {} bytes",
                                                                    options_.max_uri_bytes)),
                              request.request_id, 414)
            : Answer(request, &route);
    res.status = response.status;
    for (const auto& [k, v] : response.headers) res.set_header(k, v);
    res.set_header("X-Request-Id", request.request_id);
    res.set_content(response.body, response.content_type);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    metrics_.Record(route, response.status, seconds);
    if (options_.log_requests) {
      LogJson(response.status >= 500 ? "error" : "info", "request",
              {{"request_id", request.request_id}, {"method", request.method}, {"route", route},
               {"status", response.status}, {"ms", std::round(seconds * 1e5) / 100},
               {"key", request.principal.owner ? "owner" : request.principal.key_id}});
    }
  };
  for (auto add : {&httplib::Server::Get, &httplib::Server::Delete, &httplib::Server::Options}) {
    (s.*add)(".*", handle);
  }
  s.Post(".*", httplib::Server::Handler(handle));
  s.Put(".*", httplib::Server::Handler(handle));
  s.Patch(".*", httplib::Server::Handler(handle));
  // The listener's own refusals (413 body, 414 beyond httplib's URI limit, 400 unparsable) have
  // no body yet: give them the problem shape.
  s.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    const std::string id = RequestId(req.get_header_value("X-Request-Id"));
    Status st = res.status == 413   ? Status::ResourceExhausted("the request body is over the size limit")
                : res.status == 414 ? Status::ResourceExhausted("the request target is too long")
                                    : Status::InvalidArgument("the request could not be read");
    res.set_content(Dump(ProblemJson(st, id, res.status)), kProblemContentType);
    res.set_header("X-Request-Id", id);
    return httplib::Server::HandlerResponse::Handled;
  }));
  s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(Dump(ProblemJson(Status::Internal("unexpected exception"), "", 500)), kProblemContentType);
  });
  const int port = options_.port == 0 ? s.bind_to_any_port(options_.host)
                                      : (s.bind_to_port(options_.host, options_.port) ? options_.port : -1);
  if (port < 0) {
    return Status::IOError(fmt::format("cannot listen on {}:{} (in use, or not an address of this machine)",
                                       options_.host, options_.port));
  }
  port_ = port;
  return Status::Ok();
}

Status HttpServer::Run() {
  if (!impl_->server.listen_after_bind()) {
    return Status::IOError(fmt::format("the listener on {}:{} failed", options_.host, port_));
  }
  return Status::Ok();
}

void HttpServer::Stop() { impl_->server.stop(); }

}  // namespace engram::server
