// capture/http_tap_test.cc — the HTTP face of the tap in process, between an httplib client and a
// stand-in streamable-HTTP MCP server: bytes pass unchanged (JSON, SSE, a GET event stream, bad
// bodies), each tools/call of a POST is journaled with its outcome, an unreachable upstream is a 502.
#include "capture/http_tap.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "stand_in_mcp_server.h"
#include "tap_events.h"
#include "test_util.h"
#include "util/time.h"

namespace engram::capture {
namespace {

using json = nlohmann::json;
using test::Call;
using test::StandInMcpServer;
using test::TempDir;

// A tap in front of `upstream`, run on a thread of its own until the fixture ends.
class RunningTap {
 public:
  explicit RunningTap(const std::string& upstream, const std::string& journal, size_t max_message_bytes = 64 << 20) {
    HttpTapOptions options;
    options.upstream = upstream;
    options.journal_path = journal;
    options.connection_id = "unused";
    options.delivery.namespace_name = "ns";
    options.max_message_bytes = max_message_bytes;
    options.flush_ms = 0;
    options.connect_timeout_ms = 2000;
    auto tap = HttpTap::Open(options);
    EXPECT_TRUE(tap.has_value()) << tap.error().message();
    tap_ = std::move(*tap);
    thread_ = std::thread([this] { report_ = tap_->Run(); });
  }
  ~RunningTap() { Stop(); }
  TapReport Stop() {
    if (thread_.joinable()) {
      tap_->Stop();
      thread_.join();
    }
    return report_;
  }
  httplib::Client Client() const { return httplib::Client("127.0.0.1", tap_->port()); }

 private:
  std::unique_ptr<HttpTap> tap_;
  std::thread thread_;
  TapReport report_;
};

// A stand-in server, a tap in front of it journaling to a scratch file, and a client of each.
struct Rig {
  explicit Rig(size_t max_message_bytes = 64 << 20) : tap(upstream.url(), dir.File("journal"), max_message_bytes) {}
  std::string journal() const { return dir.File("journal"); }

  StandInMcpServer upstream;
  TempDir dir;
  RunningTap tap;
  httplib::Client direct{"127.0.0.1", upstream.port()};
  httplib::Client proxied = tap.Client();
};

httplib::Headers McpHeaders(const std::string& session = "") {
  httplib::Headers h = {{"Accept", "application/json, text/event-stream"}, {"Accept-Encoding", "gzip, br"}};
  if (!session.empty()) h.emplace("Mcp-Session-Id", session);
  return h;
}

// The journal's records by request id.
std::map<std::string, ToolCallRecord> Journaled(const std::string& path) {
  auto journal = CaptureJournal::Open(path);
  EXPECT_TRUE(journal.has_value());
  auto due = (*journal)->Due(NowMs() + 1000, 1000);
  EXPECT_TRUE(due.has_value());
  std::map<std::string, ToolCallRecord> out;
  for (const JournalEntry& e : *due) out[e.record.request_id] = e.record;
  return out;
}

TEST(HttpTapTest, JsonAnswersPassUnchangedAndEachCallIsJournaledWithItsOutcome) {
  Rig rig;
  httplib::Client& proxied = rig.proxied;
  const json init = {{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", json::object()}};
  auto via = proxied.Post("/mcp", McpHeaders(), init.dump(), "application/json");
  ASSERT_TRUE(via) << httplib::to_string(via.error());
  EXPECT_EQ(via->get_header_value("Mcp-Session-Id"), "stand-in-session");
  const std::string session = via->get_header_value("Mcp-Session-Id");
  const std::vector<json> calls = {Call(1, "echo", {{"text", "héllo"}}), Call(2, "fail", json::object()),
                                   Call(3, "nope", json::object())};
  for (const json& call : calls) {
    auto a = proxied.Post("/mcp", McpHeaders(session), call.dump(), "application/json");
    auto b = rig.direct.Post("/mcp", McpHeaders(session), call.dump(), "application/json");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->status, b->status);
    EXPECT_EQ(a->body, b->body);
    EXPECT_EQ(a->get_header_value("Content-Type"), "application/json");
    EXPECT_FALSE(a->has_header("Content-Encoding"));  // not gzipped on the way, though the client accepts it
  }
  // A notification: 202 without a body, passed as it is.
  auto note = proxied.Post("/mcp", McpHeaders(session), R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                           "application/json");
  ASSERT_TRUE(note);
  EXPECT_EQ(note->status, 202);
  EXPECT_EQ(note->body, "");
  const TapReport report = rig.tap.Stop();
  EXPECT_EQ(report.captured, 3);
  auto records = Journaled(rig.journal());
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records["1"].outcome, "ok");
  EXPECT_EQ(records["1"].tool_name, "echo");
  EXPECT_EQ(records["1"].result_preview, "héllo");
  EXPECT_EQ(records["1"].connection_id, "stand-in-session");
  EXPECT_EQ(records["2"].outcome, "tool_error");
  EXPECT_EQ(records["3"].outcome, "rpc_error");
  EXPECT_EQ(records["3"].rpc_error_code, -32602);
}

TEST(HttpTapTest, EventStreamsPassUnchangedAndTheirResponsesAreJournaled) {
  Rig rig;
  httplib::Client& proxied = rig.proxied;
  httplib::Client& direct = rig.direct;
  const json batch = json::array({Call(7, "echo", {{"text", "a"}}), Call(8, "fail", json::object())});
  for (const std::string& body : {Call(6, "echo", {{"text", "sse"}}).dump(), batch.dump()}) {
    auto a = proxied.Post("/sse", McpHeaders(), body, "application/json");
    auto b = direct.Post("/sse", McpHeaders(), body, "application/json");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->get_header_value("Content-Type"), "text/event-stream");
    EXPECT_EQ(a->body, b->body);
  }
  // A GET event stream (the server's own messages) passes too; it is not recorded.
  auto get_a = proxied.Get("/sse", McpHeaders());
  auto get_b = direct.Get("/sse", McpHeaders());
  ASSERT_TRUE(get_a && get_b);
  EXPECT_EQ(get_a->body, get_b->body);
  EXPECT_NE(get_a->body.find("note 2"), std::string::npos);
  rig.tap.Stop();
  auto records = Journaled(rig.journal());
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records["6"].outcome, "ok");
  EXPECT_EQ(records["7"].outcome, "ok");
  EXPECT_EQ(records["8"].outcome, "tool_error");
  // Without an Mcp-Session-Id, the connection is the exchange: the batch's two calls share one.
  EXPECT_EQ(records["7"].connection_id, records["8"].connection_id);
  EXPECT_NE(records["6"].connection_id, records["7"].connection_id);
}

TEST(HttpTapTest, BadBodiesPassByteForByteAndAreCountedNotRecorded) {
  Rig rig(/*max_message_bytes=*/200);
  httplib::Client& proxied = rig.proxied;
  const std::string invalid = "{\"method\":\"tools/call\", not json \xff\xfe";
  const std::string big = Call(1, "echo", {{"text", std::string(500, 'x')}}).dump();
  auto a = proxied.Post("/mcp", McpHeaders(), invalid, "application/json");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 400);
  auto b = proxied.Post("/mcp", McpHeaders(), big, "application/json");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->status, 200);
  EXPECT_NE(b->body.find(std::string(500, 'x')), std::string::npos);  // an answer over the cap streams on
  EXPECT_EQ(rig.upstream.bodies(), (std::vector<std::string>{invalid, big}));
  const TapReport report = rig.tap.Stop();
  EXPECT_EQ(report.captured, 0);
  EXPECT_EQ(report.not_captured, 2);
}

TEST(HttpTapTest, AnUnreachableUpstreamIsA502AndNoCallIsAnswered) {
  TempDir dir;
  int closed_port = 0;
  {
    StandInMcpServer gone;  // a port that was just free: nothing listens there now
    closed_port = gone.port();
  }
  RunningTap tap("http://127.0.0.1:" + std::to_string(closed_port) + "/mcp", dir.File("journal"));
  httplib::Client proxied = tap.Client();
  auto r = proxied.Post("/mcp", McpHeaders(), Call(1, "echo", json::object()).dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_NE(r->body.find("did not answer"), std::string::npos) << r->body;
  tap.Stop();
  for (const auto& [id, record] : Journaled(dir.File("journal"))) EXPECT_EQ(record.outcome, "no_response");
}

TEST(HttpTapTest, ConcurrentPostsWithTheSameIdsArePairedWithinTheirExchange) {
  // JSON-RPC ids are the client's: four clients of one MCP session reuse ids 1..25 at once. Each
  // POST is its own exchange, so each answer meets its own request.
  Rig rig;
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&rig, c] {
      httplib::Client client = rig.tap.Client();
      for (int i = 1; i <= 25; ++i) {
        const std::string text = std::to_string(c) + "/" + std::to_string(i);
        auto r = client.Post(c % 2 ? "/sse" : "/mcp", McpHeaders("s"), Call(i, "echo", {{"text", text}}).dump(),
                             "application/json");
        EXPECT_TRUE(r && r->status == 200);
      }
    });
  }
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(rig.tap.Stop().captured, 100);
  auto journal = CaptureJournal::Open(rig.journal());
  ASSERT_TRUE(journal.has_value());
  auto due = (*journal)->Due(NowMs() + 1000, 1000);
  ASSERT_TRUE(due.has_value());
  ASSERT_EQ(due->size(), 100u);
  for (const JournalEntry& e : *due) {
    EXPECT_EQ(e.record.outcome, "ok");
    EXPECT_EQ(e.record.args_json, json({{"text", e.record.result_preview}}).dump()) << "an answer met another request";
  }
}

TEST(HttpTapTest, StopCutsAnEventStreamThatNeverEnds) {
  httplib::Server endless;
  endless.Get("/mcp", [](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/event-stream", [](size_t, httplib::DataSink& sink) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return sink.write(": ping\n\n", 8);
    });
  });
  const int port = endless.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { endless.listen_after_bind(); });
  TempDir dir;
  auto tap = std::make_unique<RunningTap>("http://127.0.0.1:" + std::to_string(port) + "/mcp", dir.File("journal"));
  std::atomic<bool> got_bytes{false};
  std::thread reader([&] {
    httplib::Client client = tap->Client();
    client.Get("/mcp", [&](const char*, size_t) {
      got_bytes = true;
      return true;
    });
  });
  while (!got_bytes) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  tap->Stop();  // returns: the stream was cut, not waited for
  reader.join();
  tap.reset();
  endless.stop();
  serving.join();
}

// An upstream answer without a Content-Type passes without one: httplib's server gave a 404's plain
// body "text/plain". An empty 404 and a body over the cap (streamed on) pass without one as well.
TEST(HttpTapTest, AnAnswerWithoutContentTypePassesWithoutOne) {
  httplib::Server untyped;
  untyped.Post("/gone", [](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.body = "no such session\n";
  });
  untyped.Post("/empty", [](const httplib::Request&, httplib::Response& res) { res.status = 404; });
  untyped.Post("/long", [](const httplib::Request&, httplib::Response& res) { res.body = std::string(500, 'x'); });
  // The stand-in's own server adds "text/plain" as well: this takes it out again.
  untyped.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) { res.headers.erase("Content-Type"); });
  const int port = untyped.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { untyped.listen_after_bind(); });
  TempDir dir;
  auto tap = std::make_unique<RunningTap>("http://127.0.0.1:" + std::to_string(port) + "/mcp", dir.File("journal"),
                                          /*max_message_bytes=*/200);
  httplib::Client proxied = tap->Client();
  httplib::Client direct("127.0.0.1", port);
  for (const char* path : {"/gone", "/empty", "/long"}) {
    auto a = proxied.Post(path, McpHeaders(), "{}", "application/json");
    auto b = direct.Post(path, McpHeaders(), "{}", "application/json");
    ASSERT_TRUE(a && b) << path;
    EXPECT_FALSE(b->has_header("Content-Type")) << path << ": the stand-in sent one";
    EXPECT_FALSE(a->has_header("Content-Type")) << path << ": \"" << a->get_header_value("Content-Type") << "\"";
    EXPECT_EQ(a->status, b->status) << path;
    EXPECT_EQ(a->body, b->body) << path;
  }
  tap.reset();
  untyped.stop();
  serving.join();
}

TEST(HttpTapTest, ABadUpstreamUrlIsRefused) {
  TempDir dir;
  HttpTapOptions options;
  options.upstream = "ftp://example/mcp";
  options.journal_path = dir.File("journal");
  auto tap = HttpTap::Open(options);
  ASSERT_FALSE(tap.has_value());
  EXPECT_NE(tap.error().message().find("upstream"), std::string::npos) << tap.error().message();
}

}  // namespace
}  // namespace engram::capture
