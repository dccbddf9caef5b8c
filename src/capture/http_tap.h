// capture/http_tap.h — `engram mcp-tap --listen HOST:PORT --upstream URL`: the tap's second face, a
// reverse proxy in front of a streamable-HTTP MCP server. Every request (method, path, query,
// headers but the hop-by-hop ones, body) is forwarded to the upstream, and its response (status,
// headers, body: JSON, or a `text/event-stream` carrying several messages, or a GET's long-lived
// event stream) comes back unchanged, as it arrives (no Content-Type when the upstream sent none). Off that path, the TapPipeline records each
// `tools/call` of a POST with its response, which in streamable HTTP comes back in that POST's
// response body: each POST is one exchange for pairing; the records' connection is the request's
// Mcp-Session-Id, else the exchange. docs/capture.md.
//
// With commit_before_response (the default), the bytes that complete a response — a JSON body, or
// the SSE event carrying it — go out only once the call's record is committed. An upstream that
// cannot be reached, or that fails before its status and headers, is a 502 with a plain-text body
// (no call is recorded as answered). A request body is forwarded whatever it holds (invalid JSON,
// over max_message_bytes: passed through, not recorded, counted).
#ifndef ENGRAM_CAPTURE_HTTP_TAP_H_
#define ENGRAM_CAPTURE_HTTP_TAP_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "capture/tap_pipeline.h"
#include "capture/upstream_stream.h"

namespace engram::capture {

struct HttpTapOptions : TapOptions {
  std::string host = "127.0.0.1";  // where the tap listens
  int port = 0;                    // 0: a port the OS picks (HttpTap::port)
  // The upstream's URL, http or https: "http://127.0.0.1:8080/mcp". Paths pass unchanged, but a
  // request for "/" goes to this URL's path.
  std::string upstream;
  int threads = 64;  // requests served at once (an open GET event stream holds one)
  int connect_timeout_ms = 10000;
  int read_timeout_ms = 300000;  // the longest silence within an upstream response
};

class HttpTap {
 public:
  // Checks the upstream URL, starts the pipeline and binds the listener. Errors: kInvalidArgument
  // (field "upstream"), the journal's Open errors, kIOError (cannot listen on host:port).
  static Result<std::unique_ptr<HttpTap>> Open(const HttpTapOptions& options);
  ~HttpTap();
  HttpTap(const HttpTap&) = delete;
  HttpTap& operator=(const HttpTap&) = delete;

  int port() const { return port_; }
  // Serves until Stop; then finishes the pipeline (every exchange still open ends, the consumer
  // delivers for up to flush_ms) and returns what was captured.
  TapReport Run();
  // Stops listening and cuts the upstream streams still open (a GET event stream); Run returns once
  // the requests in flight are over. Thread-safe (not async-signal-safe).
  void Stop();

 private:
  struct Impl;
  explicit HttpTap(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

// `engram mcp-tap --listen`: Open, the bound port written to `port_file` when not "", Run until
// SIGINT, SIGTERM or SIGHUP. Errors: Open's.
Result<TapReport> RunHttpTap(const HttpTapOptions& options, const std::string& port_file);

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_HTTP_TAP_H_
