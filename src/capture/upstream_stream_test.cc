// capture/upstream_stream_test.cc — one request to the upstream, its body handed over as it
// arrives: status and headers first, the body's bytes unchanged (gzip not decoded), an unreachable
// upstream an error, a cancelled stream ended.
#include "capture/upstream_stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace engram::capture {
namespace {

class Upstream {
 public:
  Upstream() {
    server_.Get("/drip", [this](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("text/event-stream", [this](size_t, httplib::DataSink& sink) {
        if (stopping_) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return sink.write("data: x\n\n", 9);
      });
    });
    server_.Post("/gz", [](const httplib::Request& req, httplib::Response& res) {
      res.status = 201;
      res.set_header("Content-Encoding", "gzip");  // bytes the tap must not decode
      res.set_content(req.body, "application/octet-stream");
    });
    server_.Post("/empty", [](const httplib::Request&, httplib::Response& res) {
      res.status = 204;
      res.set_header("Mcp-Session-Id", "s1");
    });
    server_.Get("/plain", [](const httplib::Request&, httplib::Response& res) { res.set_content("hello", "text/plain"); });
    server_.Post("/silent", [this](const httplib::Request&, httplib::Response& res) {  // no status line for 5 s
      for (int i = 0; i < 500 && !stopping_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      res.status = 200;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~Upstream() {
    stopping_ = true;
    server_.stop();
    thread_.join();
  }
  UpstreamOptions options() const { return {.scheme_host_port = "http://127.0.0.1:" + std::to_string(port_)}; }

 private:
  httplib::Server server_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  int port_ = 0;
};

TEST(UpstreamStreamTest, StatusHeadersAndTheBodyAsItWasSent) {
  Upstream upstream;
  const std::string bytes("\x1f\x8b not really gzip \x00\xff", 21);
  auto s = UpstreamStream::Open(upstream.options(), {.method = "POST", .target = "/gz", .headers = {}, .body = bytes});
  ASSERT_EQ(s->error(), "");
  EXPECT_EQ(s->status(), 201);
  auto encoding = s->headers().find("Content-Encoding");
  ASSERT_NE(encoding, s->headers().end());
  EXPECT_EQ(encoding->second, "gzip");
  std::string body, chunk;
  while (s->Next(&chunk)) body += chunk;
  EXPECT_EQ(body, bytes);
  EXPECT_FALSE(s->broken());
}

TEST(UpstreamStreamTest, AnEndlessStreamComesInPiecesAndCancelEndsIt) {
  Upstream upstream;
  auto s = UpstreamStream::Open(upstream.options(), {.method = "GET", .target = "/drip", .headers = {}, .body = ""});
  ASSERT_EQ(s->error(), "");
  std::string chunk;
  ASSERT_TRUE(s->Next(&chunk));
  EXPECT_EQ(chunk.substr(0, 5), "data:");
  s->Cancel();
  EXPECT_FALSE(s->Next(&chunk));
  EXPECT_TRUE(s->broken());
}

TEST(UpstreamStreamTest, AnUnreachableUpstreamIsAnError) {
  int port = 0;
  {
    Upstream gone;
    port = std::stoi(gone.options().scheme_host_port.substr(17));
  }
  auto s = UpstreamStream::Open({.scheme_host_port = "http://127.0.0.1:" + std::to_string(port)},
                                {.method = "GET", .target = "/", .headers = {}, .body = ""});
  EXPECT_NE(s->error(), "");
  std::string chunk;
  EXPECT_FALSE(s->Next(&chunk));
}

TEST(UpstreamStreamTest, F2_AnAnswerWithoutABodyKeepsItsStatusAndHeaders) {
  Upstream upstream;
  auto s = UpstreamStream::Open(upstream.options(), {.method = "POST", .target = "/empty", .headers = {}, .body = "{}"});
  ASSERT_EQ(s->error(), "");
  EXPECT_EQ(s->status(), 204);
  auto session = s->headers().find("Mcp-Session-Id");
  ASSERT_NE(session, s->headers().end());
  EXPECT_EQ(session->second, "s1");
  std::string chunk;
  EXPECT_FALSE(s->Next(&chunk));
  EXPECT_FALSE(s->broken());
  auto head = UpstreamStream::Open(upstream.options(), {.method = "HEAD", .target = "/plain", .headers = {}, .body = ""});
  ASSERT_EQ(head->error(), "");
  EXPECT_EQ(head->status(), 200);
}

TEST(UpstreamStreamTest, F3_CancelEndsTheWaitForAStatusLineThatNeverComes) {
  Upstream upstream;
  auto s = UpstreamStream::Start(upstream.options(), {.method = "POST", .target = "/silent", .headers = {}, .body = "{}"});
  const auto t0 = std::chrono::steady_clock::now();
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    s->Cancel();
  });
  s->WaitAnswered();
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
  EXPECT_NE(s->error(), "");
  EXPECT_TRUE(s->broken());
}

}  // namespace
}  // namespace engram::capture
