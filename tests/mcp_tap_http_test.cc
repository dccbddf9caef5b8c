// tests/mcp_tap_http_test.cc — `engram mcp-tap --listen --upstream` as a streamable-HTTP MCP client
// meets it: in front of a stand-in MCP server (tests/stand_in_mcp_server.h), answers pass unchanged,
// every tools/call becomes an event (idempotency key mcp-tap:<capture id>), and a proxy killed with
// SIGKILL loses no call whose answer the client read. docs/capture.md.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "stand_in_mcp_server.h"
#include "tap_events.h"
#include "test_util.h"

namespace engram {
namespace {

using json = nlohmann::json;
using test::Call;
using test::RunCli;
using test::StandInMcpServer;
using test::TempDir;
using test::ToolEvents;

// `engram --db DB mcp-tap -n cap --listen 127.0.0.1:0 --upstream URL [extra]`, its output in
// dir/tap.log; stopped (SIGKILL) when destroyed if still running.
class TapProcess {
 public:
  TapProcess(const TempDir& dir, const std::string& db, const std::string& upstream,
             std::vector<std::string> extra = {})
      : port_file_(dir.File("tap.port")), log_(dir.File("tap.log")) {
    std::vector<std::string> args = {test::EngramBinary(), "--db", db, "mcp-tap", "-n", "cap", "--listen",
                                     "127.0.0.1:0", "--port-file", port_file_, "--upstream", upstream};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      execv(argv[0], argv.data());
      _exit(127);
    }
    for (int i = 0; i < 200 && port_ == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      std::ifstream(port_file_) >> port_;
    }
  }
  ~TapProcess() {
    if (pid_ > 0) Signal(SIGKILL);
  }
  int port() const { return port_; }
  std::string log() const { return test::ReadFile(log_); }
  // Sends `sig` and waits for the exit; returns the exit status (waitpid's).
  int Signal(int sig) {
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }

 private:
  std::string port_file_, log_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// A stand-in server and the tap in front of it, capturing into a scratch cap.db.
struct Rig {
  StandInMcpServer upstream;
  TempDir dir;
  std::string cap = dir.File("cap.db");
  TapProcess tap{dir, cap, upstream.url()};
};

httplib::Headers McpHeaders() {
  return {{"Accept", "application/json, text/event-stream"}, {"Mcp-Session-Id", "stand-in-session"}};
}

TEST(McpTapHttpTest, EveryToolCallThroughTheProxyBecomesAnEventOnce) {
  Rig rig;
  TapProcess& tap = rig.tap;
  const std::string& cap = rig.cap;
  ASSERT_GT(tap.port(), 0) << tap.log();
  httplib::Client proxied("127.0.0.1", tap.port());
  httplib::Client direct("127.0.0.1", rig.upstream.port());
  const std::vector<std::pair<std::string, json>> calls = {
      {"/mcp", Call(1, "echo", {{"text", "Lisbon in May"}}, {{"baggage", "engram.session_id=agent-run-3"}})},
      {"/mcp", Call(2, "fail", json::object())},
      {"/sse", Call(3, "nope", json::object())},
      {"/sse", Call(4, "echo", {{"text", "by event stream"}})}};
  for (const auto& [path, call] : calls) {
    auto a = proxied.Post(path, McpHeaders(), call.dump(), "application/json");
    auto b = direct.Post(path, McpHeaders(), call.dump(), "application/json");
    ASSERT_TRUE(a && b) << tap.log();
    EXPECT_EQ(a->status, b->status);
    EXPECT_EQ(a->body, b->body);
  }
  const int status = tap.Signal(SIGTERM);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << tap.log();

  std::map<std::string, json> by_request;
  for (const auto& [id, e] : ToolEvents(cap, "cap")) by_request[e["capture"].value("request_id", "")] = e;
  ASSERT_EQ(by_request.size(), 4u) << tap.log();
  EXPECT_EQ(by_request["1"].value("session", ""), "agent-run-3");
  EXPECT_EQ(by_request["2"].value("session", ""), "mcp-tap-stand-in-session");  // the MCP session
  EXPECT_EQ(by_request["1"]["capture"].value("outcome", ""), "ok");
  EXPECT_EQ(by_request["2"]["capture"].value("outcome", ""), "tool_error");
  EXPECT_EQ(by_request["3"]["capture"].value("outcome", ""), "rpc_error");
  EXPECT_EQ(by_request["4"]["capture"].value("outcome", ""), "ok");
  for (const auto& [request, e] : by_request) {
    EXPECT_EQ(e.value("idempotency_key", ""), "mcp-tap:" + e["capture"].value("capture_id", "")) << e.dump();
  }
}

TEST(McpTapHttpTest, EveryCallTheClientSawAnsweredSurvivesAKill) {
  // The default commits a call's record before its answer leaves the proxy (a JSON body, or the
  // SSE event that carries it): a proxy killed right after the client read an answer has that call,
  // and every one before it, in its journal.
  for (const char* path : {"/mcp", "/sse"}) {
    Rig rig;
    TapProcess& tap = rig.tap;
    const std::string& cap = rig.cap;
    ASSERT_GT(tap.port(), 0) << tap.log();
    httplib::Client proxied("127.0.0.1", tap.port());
    constexpr int kAnswered = 25;
    for (int i = 1; i <= kAnswered; ++i) {
      const std::string call = Call(i, "echo", {{"text", std::to_string(i)}}).dump();
      auto r = proxied.Post(path, McpHeaders(), call, "application/json");
      ASSERT_TRUE(r && r->status == 200) << "call " << i << "\n" << tap.log();
    }
    tap.Signal(SIGKILL);
    test::CliResult drain = RunCli({"--db", cap, "mcp-tap", "drain", "-n", "cap", "--json"});
    ASSERT_EQ(drain.exit_code, 0) << drain.Describe();
    std::set<std::string> requests;
    for (const auto& [id, e] : ToolEvents(cap, "cap")) requests.insert(e["capture"].value("request_id", ""));
    for (int i = 1; i <= kAnswered; ++i) EXPECT_EQ(requests.count(std::to_string(i)), 1u) << path << " call " << i;
  }
}

TEST(McpTapHttpTest, AnUnreachableUpstreamIsA502) {
  TempDir dir;
  int closed_port = 0;
  {
    StandInMcpServer gone;
    closed_port = gone.port();
  }
  TapProcess tap(dir, dir.File("cap.db"), "http://127.0.0.1:" + std::to_string(closed_port) + "/mcp");
  ASSERT_GT(tap.port(), 0) << tap.log();
  httplib::Client proxied("127.0.0.1", tap.port());
  auto r = proxied.Post("/mcp", McpHeaders(), Call(1, "echo", json::object()).dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502);
  EXPECT_NE(r->body.find("did not answer"), std::string::npos) << r->body;
  tap.Signal(SIGTERM);
  for (const auto& [id, e] : ToolEvents(dir.File("cap.db"), "cap")) {
    EXPECT_EQ(e["capture"].value("outcome", ""), "no_response") << e.dump();
  }
}

TEST(McpTapHttpTest, BadFlagsAreRefused) {
  TempDir dir;
  const std::vector<std::string> tap = {"--db", dir.File("cap.db"), "mcp-tap", "-n", "cap"};
  auto run = [&](std::vector<std::string> flags) {
    flags.insert(flags.begin(), tap.begin(), tap.end());
    return RunCli(flags);
  };
  test::CliResult no_upstream = run({"--listen", "127.0.0.1:0"});
  EXPECT_EQ(no_upstream.exit_code, 2) << no_upstream.Describe();
  EXPECT_NE(no_upstream.err.find("upstream"), std::string::npos) << no_upstream.Describe();
  test::CliResult both = run({"--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1/mcp", "--", "cat"});
  EXPECT_EQ(both.exit_code, 2) << both.Describe();
  test::CliResult bad_listen = run({"--listen", "nowhere", "--upstream", "http://127.0.0.1:1/mcp"});
  EXPECT_EQ(bad_listen.exit_code, 2) << bad_listen.Describe();
}

}  // namespace
}  // namespace engram
