// capture/upstream_stream.h — one request of the HTTP tap to the upstream MCP server, whose
// response body is read as it comes (a `text/event-stream` may stay open for minutes): the request
// runs on a thread of its own (cpp-httplib's client), Open returns once the status and headers are
// in, and Next hands over the body's bytes, unchanged, as they arrive. Nothing is decompressed.
#ifndef ENGRAM_CAPTURE_UPSTREAM_STREAM_H_
#define ENGRAM_CAPTURE_UPSTREAM_STREAM_H_

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace engram::capture {

struct UpstreamRequest {
  std::string method;
  std::string target;  // path and query, as sent to the upstream
  httplib::Headers headers;
  std::string body;
};

struct UpstreamOptions {
  std::string scheme_host_port;     // "http://127.0.0.1:8080"
  int connect_timeout_ms = 10000;   // to connect, and to send the request
  int read_timeout_ms = 300000;     // the longest silence within a response (an idle SSE stream is cut)
};

class UpstreamStream {
 public:
  // Sends `request`; returns once the upstream's status and headers arrived, or the request failed
  // (then error() says why). Never null.
  static std::unique_ptr<UpstreamStream> Open(const UpstreamOptions& options, UpstreamRequest request);
  // Open in two halves, so that a caller can make the stream cancellable (keep it where Cancel
  // reaches it) before waiting: Start sends and returns at once; WaitAnswered returns once the
  // status and headers arrived, the request failed, or Cancel came first (then error() says so).
  static std::unique_ptr<UpstreamStream> Start(const UpstreamOptions& options, UpstreamRequest request);
  void WaitAnswered();
  ~UpstreamStream();  // Cancel, then waits for the request's thread
  UpstreamStream(const UpstreamStream&) = delete;
  UpstreamStream& operator=(const UpstreamStream&) = delete;

  // "" when the upstream answered (so far); else cpp-httplib's reason ("Could not establish
  // connection", "Read Timeout", ...). Thread-safe.
  std::string error();
  int status() const { return status_; }
  const httplib::Headers& headers() const { return headers_; }

  // The next bytes of the body (waits for them); false at its end, or when it broke off (broken()).
  bool Next(std::string* chunk);
  // The body ended before it was whole: the upstream failed or went silent midway, or Cancel.
  bool broken();
  // Stops the request (shuts its socket down): Next returns false. Thread-safe.
  void Cancel();

 private:
  explicit UpstreamStream(const UpstreamOptions& options);
  void Send(UpstreamRequest request);

  httplib::Client client_;
  std::mutex mu_;
  std::condition_variable changed_;
  bool answered_ = false;  // status and headers are in (or the request failed)
  bool done_ = false;      // the request's thread is over
  bool cancelled_ = false;
  std::deque<std::string> chunks_;
  size_t queued_bytes_ = 0;
  std::string error_;
  int status_ = 0;
  httplib::Headers headers_;
  std::thread thread_;
};

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_UPSTREAM_STREAM_H_
