// capture/http_tap.cc — see http_tap.h.
#include "capture/http_tap.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include "capture/sse_splitter.h"
#include "capture/tap_signals.h"
#include "providers/http_endpoint.h"
#include "util/time.h"
#include "util/ulid.h"

namespace engram::capture {
namespace {

using Clock = CallMatcher::Clock;

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Headers that concern one hop, not the message (RFC 9110 §7.6.1), the ones httplib sets itself
// (Host, Content-Length) and the pseudo-headers its server adds to a request (the peer's address).
// Accept-Encoding is not forwarded either: the upstream then sends its body unencoded, which the
// recorder can read (the client gets it as the upstream sent it). Nor Expect: httplib's server has
// answered a client's "100-continue" already, and its client would not wait for one.
bool IsHopByHop(std::string_view name) {
  for (std::string_view hop :
       {"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization", "TE", "Trailer",
        "Transfer-Encoding", "Upgrade", "Host", "Content-Length", "Accept-Encoding", "Expect", "REMOTE_ADDR",
        "REMOTE_PORT", "LOCAL_ADDR", "LOCAL_PORT"}) {
    if (SameName(name, hop)) return true;
  }
  return false;
}

// `headers` without the hop-by-hop ones, nor those the Connection header names.
httplib::Headers Forwardable(const httplib::Headers& headers) {
  std::vector<std::string> listed;
  for (auto [it, end] = headers.equal_range("Connection"); it != end; ++it) {
    size_t start = 0;
    while (start <= it->second.size()) {
      size_t comma = it->second.find(',', start);
      if (comma == std::string::npos) comma = it->second.size();
      std::string token = it->second.substr(start, comma - start);
      token.erase(0, token.find_first_not_of(" \t"));
      token.erase(token.find_last_not_of(" \t") + 1);
      if (!token.empty()) listed.push_back(std::move(token));
      start = comma + 1;
    }
  }
  httplib::Headers out;
  for (const auto& [name, value] : headers) {
    if (IsHopByHop(name)) continue;
    if (std::any_of(listed.begin(), listed.end(), [&](const std::string& l) { return SameName(l, name); })) continue;
    out.emplace(name, value);
  }
  return out;
}

// Marks a response whose upstream sent no Content-Type (Handle), for the post-routing hook to take
// out the "text/plain" httplib's server adds to such a body. Never on the wire (the hook removes
// it), and no upstream header can have this name: a parsed header's name ends at its first ':'.
constexpr const char* kUntyped = "engram-tap:untyped";

void DropContentTypeWhereUpstreamSentNone(const httplib::Request&, httplib::Response& res) {
  if (!res.has_header(kUntyped)) return;
  res.headers.erase(kUntyped);
  res.headers.erase("Content-Type");
}

bool IsEventStream(std::string_view content_type) {
  return content_type.size() >= 17 && SameName(content_type.substr(0, 17), "text/event-stream");
}

// One exchange as the recorder sees it: a POST's request and the messages of its response, paired
// by one CallMatcher. Its end (every call it left unanswered is "no_response") is queued when the
// last owner lets go: the handler, or the content provider that streams the response after it.
struct Exchange {
  TapPipeline* pipeline = nullptr;  // null: not recorded (not a POST)
  std::string id;
  std::string connection;

  uint64_t Seen(Direction direction, std::string bytes, Clock::time_point seen, TimestampMs seen_unix_ms) const {
    return pipeline->Submit({.exchange = id, .connection = connection, .direction = direction,
                             .bytes = std::move(bytes), .seen = seen, .seen_unix_ms = seen_unix_ms});
  }
  ~Exchange() {
    if (pipeline != nullptr) pipeline->Submit({.exchange = id, .connection = connection, .end = true});
  }
};

// Streams the rest of an upstream body to the client, chunk by chunk as it comes (httplib's
// content provider, called until it calls sink.done() or returns false). With a splitter, each
// SSE event is recorded, and with `hold` the chunk that completes events goes out only once the
// recorder has committed what they completed.
struct BodyPump {
  std::shared_ptr<UpstreamStream> stream;
  std::shared_ptr<Exchange> exchange;
  std::shared_ptr<SseSplitter> splitter;  // null: the body is not recorded
  bool hold = true;
  std::string first;  // bytes already read from the stream, sent first

  bool operator()(size_t /*offset*/, httplib::DataSink& sink) {
    std::string chunk = std::move(first);
    first.clear();
    if (chunk.empty() && !stream->Next(&chunk)) {
      if (stream->broken()) return false;  // the client sees the body cut, not a complete one
      sink.done();
      return true;
    }
    if (splitter == nullptr) return sink.write(chunk.data(), chunk.size());
    if (!hold && !sink.write(chunk.data(), chunk.size())) return false;
    uint64_t ticket = 0;
    splitter->Feed(chunk, [&](std::string&& data) {
      ticket = exchange->Seen(Direction::kServerToClient, std::move(data), Clock::now(), NowMs());
    });
    if (!hold) return true;
    if (ticket > 0) exchange->pipeline->WaitRecorded(ticket);
    return sink.write(chunk.data(), chunk.size());
  }
};

}  // namespace

struct HttpTap::Impl {
  HttpTapOptions options;
  providers::Endpoint upstream;
  std::unique_ptr<TapPipeline> pipeline;
  httplib::Server server;
  std::mutex mu;                     // guards what follows
  std::set<UpstreamStream*> open;    // the upstream requests in flight (Stop cuts them)
  bool stopping = false;
  bool listening = false;            // Run has started (or decided not to start) the listener
  bool run_done = false;

  void Handle(const httplib::Request& req, httplib::Response& res);
  std::shared_ptr<UpstreamStream> Forward(UpstreamRequest request);
  std::shared_ptr<Exchange> Record(const httplib::Request& req);
  void AnswerWhole(std::shared_ptr<UpstreamStream> stream, std::shared_ptr<Exchange> exchange,
                   const std::string& type, httplib::Response& res);
  void BadGateway(const std::string& why, httplib::Response& res);
  std::string Target(const std::string& target) const;
};

std::string HttpTap::Impl::Target(const std::string& target) const {
  if (target != "/" && target.rfind("/?", 0) != 0) return target;
  return (upstream.path.empty() ? "/" : upstream.path) + target.substr(1);
}

std::shared_ptr<UpstreamStream> HttpTap::Impl::Forward(UpstreamRequest request) {
  // Registered before waiting for the status line, so that Stop (SIGTERM) cancels a request whose
  // upstream never answers (F3: the tap waited for the 300 s read timeout).
  UpstreamStream* raw = UpstreamStream::Start({.scheme_host_port = upstream.scheme_host_port,
                                               .connect_timeout_ms = options.connect_timeout_ms,
                                               .read_timeout_ms = options.read_timeout_ms},
                                              std::move(request))
                            .release();
  std::shared_ptr<UpstreamStream> stream(raw, [this](UpstreamStream* s) {
    {
      std::lock_guard lock(mu);
      open.erase(s);
    }
    delete s;
  });
  {
    std::lock_guard lock(mu);
    if (stopping) raw->Cancel();
    open.insert(raw);
  }
  raw->WaitAnswered();
  return stream;
}

// A POST is one exchange: its body is queued for the recorder before the upstream can read it (so
// its answer is never seen first). Other methods are not recorded.
std::shared_ptr<Exchange> HttpTap::Impl::Record(const httplib::Request& req) {
  auto exchange = std::make_shared<Exchange>();
  if (req.method != "POST") return exchange;
  const TimestampMs now = NowMs();
  exchange->pipeline = pipeline.get();
  exchange->id = NewUlid(now);
  exchange->connection = req.get_header_value("Mcp-Session-Id");
  if (exchange->connection.empty()) exchange->connection = exchange->id;
  if (req.body.size() > options.max_message_bytes) {
    pipeline->CountNotCaptured(1);
  } else {
    exchange->Seen(Direction::kClientToServer, req.body, Clock::now(), now);
  }
  return exchange;
}

void HttpTap::Impl::BadGateway(const std::string& why, httplib::Response& res) {
  const std::string text = fmt::format("engram mcp-tap: the upstream MCP server {}{} did not answer: {}",
                                       upstream.scheme_host_port, upstream.path, why);
  std::cerr << text << std::endl;
  res.status = 502;
  res.headers.clear();
  res.set_content(text + "\n", "text/plain; charset=utf-8");
}

// A body that is not an event stream (JSON, an error page, nothing) is one message: read whole (up
// to max_message_bytes), recorded, then sent with its length. A longer one is streamed on as it
// comes, not recorded.
void HttpTap::Impl::AnswerWhole(std::shared_ptr<UpstreamStream> stream, std::shared_ptr<Exchange> exchange,
                                const std::string& type, httplib::Response& res) {
  std::string body, chunk;
  while (body.size() <= options.max_message_bytes && stream->Next(&chunk)) body += chunk;
  if (body.size() > options.max_message_bytes) {
    res.set_chunked_content_provider(type, BodyPump{.stream = std::move(stream), .exchange = std::move(exchange),
                                                    .splitter = nullptr, .first = std::move(body)});
    return;
  }
  if (stream->broken()) return BadGateway(stream->error().empty() ? "the response broke off" : stream->error(), res);
  if (exchange->pipeline != nullptr) {
    const uint64_t ticket = exchange->Seen(Direction::kServerToClient, body, Clock::now(), NowMs());
    if (options.commit_before_response) pipeline->WaitRecorded(ticket);
  }
  if (!type.empty()) res.set_header("Content-Type", type);
  res.body = std::move(body);
}

void HttpTap::Impl::Handle(const httplib::Request& req, httplib::Response& res) {
  UpstreamRequest request{.method = req.method, .target = Target(req.target), .headers = Forwardable(req.headers),
                          .body = req.body};
  // httplib's server would gzip the response for a client that accepts it, changing its bytes: the
  // request object is the server's own (not const), and nothing reads the header after this.
  const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
  std::shared_ptr<Exchange> exchange = Record(req);
  std::shared_ptr<UpstreamStream> stream = Forward(std::move(request));
  if (const std::string error = stream->error(); !error.empty()) return BadGateway(error, res);
  res.status = stream->status();
  std::string type;
  for (const auto& [name, value] : Forwardable(stream->headers())) {
    if (SameName(name, "Content-Type")) {
      type = value;
    } else {
      res.headers.emplace(name, value);
    }
  }
  if (type.empty()) res.headers.emplace(kUntyped, "1");
  if (!IsEventStream(type)) return AnswerWhole(std::move(stream), std::move(exchange), type, res);
  std::shared_ptr<SseSplitter> splitter;
  if (exchange->pipeline != nullptr) splitter = std::make_shared<SseSplitter>(options.max_message_bytes);
  res.set_chunked_content_provider(type, BodyPump{.stream = std::move(stream), .exchange = std::move(exchange),
                                                  .splitter = std::move(splitter),
                                                  .hold = options.commit_before_response});
}

HttpTap::HttpTap(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpTap::~HttpTap() = default;

Result<std::unique_ptr<HttpTap>> HttpTap::Open(const HttpTapOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  auto upstream = providers::ParseEndpoint(options.upstream, "", "field \"upstream\"");
  if (!upstream) return Error(upstream.error());
  impl->upstream = *upstream;
  auto pipeline = TapPipeline::Start(impl->options);
  if (!pipeline) return Error(pipeline.error());
  impl->pipeline = std::move(*pipeline);
  httplib::Server& s = impl->server;
  const size_t threads = static_cast<size_t>(std::max(1, options.threads));
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.set_tcp_nodelay(true);
  s.set_keep_alive_max_count(100000);
  auto handle = [raw = impl.get()](const httplib::Request& req, httplib::Response& res) { raw->Handle(req, res); };
  s.Get(".*", handle).Post(".*", handle).Put(".*", handle).Patch(".*", handle).Delete(".*", handle);
  s.Options(".*", handle);
  // httplib's server gives a body without a type "Content-Type: text/plain" once the handler has
  // run; this hook runs after that, before the headers go out.
  s.set_post_routing_handler(DropContentTypeWhereUpstreamSentNone);
  const int port = options.port == 0 ? s.bind_to_any_port(options.host)
                                     : (s.bind_to_port(options.host, options.port) ? options.port : -1);
  if (port < 0) {
    return Error(
        Status::IOError(fmt::format("cannot listen on {}:{}: {}", options.host, options.port, strerror(errno))));
  }
  std::unique_ptr<HttpTap> tap(new HttpTap(std::move(impl)));
  tap->port_ = port;
  return tap;
}

TapReport HttpTap::Run() {
  bool listen = false;
  {
    std::lock_guard lock(impl_->mu);
    listen = !impl_->stopping;
    impl_->listening = true;
  }
  if (listen) impl_->server.listen_after_bind();
  {
    std::lock_guard lock(impl_->mu);
    impl_->run_done = true;
  }
  return impl_->pipeline->Finish();
}

void HttpTap::Stop() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
    for (UpstreamStream* s : impl_->open) s->Cancel();
  }
  // httplib's stop does nothing until the listener runs: wait for Run to start it (or to end).
  while (true) {
    {
      std::lock_guard lock(impl_->mu);
      if (!impl_->listening || impl_->run_done) return;
    }
    if (impl_->server.is_running()) {
      impl_->server.stop();
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

namespace {

int g_signal_pipe = -1;  // the write end: a signal wakes the thread that stops the tap

void OnStopSignal(int) {
  const char byte = 's';
  [[maybe_unused]] const ssize_t n = write(g_signal_pipe, &byte, 1);
}

}  // namespace

Result<TapReport> RunHttpTap(const HttpTapOptions& options, const std::string& port_file) {
  auto tap = HttpTap::Open(options);
  if (!tap) return Error(tap.error());
  if (!port_file.empty()) std::ofstream(port_file) << (*tap)->port() << "\n";
  int wake[2];
  if (pipe2(wake, O_CLOEXEC) != 0) return Error(Status::IOError(fmt::format("pipe: {}", strerror(errno))));
  g_signal_pipe = wake[1];
  HandleTapSignals(OnStopSignal);
  std::thread stopper([&] {
    pollfd fd{wake[0], POLLIN, 0};
    while (poll(&fd, 1, -1) < 0 && errno == EINTR) {
    }
    (*tap)->Stop();
  });
  TapReport report = (*tap)->Run();
  OnStopSignal(0);  // Run can end without a signal (the listener failed): the stopper ends too
  stopper.join();
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_DFL);
  close(wake[0]);
  close(wake[1]);
  return report;
}

}  // namespace engram::capture
