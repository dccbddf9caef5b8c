// tests/mcp_tap_test.cc — `engram mcp-tap` as an MCP client starts it: bytes pass through unchanged,
// every tools/call becomes an event of its session, and a tap killed with SIGKILL loses no record
// its journal took (`mcp-tap drain` delivers the rest, each once). docs/capture.md.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "raw_db.h"
#include "tap_events.h"
#include "test_util.h"

namespace engram {
namespace {

using json = nlohmann::json;
using test::Call;
using test::CliResult;
using test::EngramBinary;
using test::RunCli;
using test::TempDir;
using test::ToolEvents;

std::string Line(const json& j) { return j.dump() + "\n"; }

std::string Handshake() {
  return Line({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
               {"params", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                           {"clientInfo", {{"name", "test"}, {"version", "1"}}}}}}) +
         Line({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

TEST(McpTapTest, BytesPassThroughUnchanged) {
  TempDir dir;
  std::string input = Handshake() + Line(Call(1, "echo", {{"text", "héllo"}}));
  input += std::string("not json at all \xff\xfe bytes that are not UTF-8\n");
  input += "{\"big\":\"" + std::string(1 << 20, 'x') + "\"}\n";
  input += "a last line without its newline";
  // `cat` is a server that answers every message with itself: what the client reads must be
  // exactly what it wrote, whatever the bytes.
  CliResult r = RunCli({"--db", dir.File("cap.db"), "mcp-tap", "-n", "cap", "--", "cat"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.Describe().substr(0, 2000);
  EXPECT_TRUE(r.out == input) << "stdout differs from stdin (" << r.out.size() << " vs " << input.size() << " bytes)";
}

TEST(McpTapTest, EveryToolCallBecomesAnEventOfItsSession) {
  TempDir dir;
  const std::string served = dir.File("served.db"), cap = dir.File("cap.db");
  ASSERT_EQ(RunCli({"--db", served, "remember", "The deploy key is in vault path secret/deploy", "-n", "ns"}).exit_code, 0);
  std::string input = Handshake();
  input += Line(Call(1, "memory_recall", {{"query", "deploy key"}},
                     {{"baggage", "engram.session_id=agent-run-7,engram.task_id=rotate-keys"}}));
  input += Line(Call(2, "no_such_tool", json::object()));
  input += Line(Call(3, "memory_recall", {{"query", std::string(300, 'q')}},
                     {{"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}));
  input += Line({{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/list"}});
  CliResult direct = RunCli({"--db", served, "mcp", "--namespace", "ns", "--no-worker"}, input);
  CliResult tapped = RunCli({"--db", cap, "mcp-tap", "-n", "cap", "--inline-bytes", "64", "--", EngramBinary(), "--db",
                             served, "mcp", "--namespace", "ns", "--no-worker"},
                            input);
  ASSERT_EQ(tapped.exit_code, 0) << tapped.Describe();
  EXPECT_EQ(std::count(tapped.out.begin(), tapped.out.end(), '\n'), std::count(direct.out.begin(), direct.out.end(), '\n'));

  const auto events = ToolEvents(cap, "cap");
  ASSERT_EQ(events.size(), 3u);
  std::map<std::string, json> by_request;
  for (const auto& [id, e] : events) by_request[e["capture"].value("request_id", "")] = e;
  const json& first = by_request["1"];
  EXPECT_EQ(first.value("session", ""), "agent-run-7");
  EXPECT_EQ(first.value("tool_name", ""), "memory_recall");
  EXPECT_EQ(first["capture"]["correlation"].value("task_id", ""), "rotate-keys");
  EXPECT_EQ(first["capture"].value("outcome", ""), "ok");
  EXPECT_NE(first.value("content", "").find("tool memory_recall({\"query\":\"deploy key\"}) → ok"), std::string::npos);
  // The result is over --inline-bytes: kept by reference, and the reference reads back.
  const std::string ref = first["capture"].value("result_ref", "");
  ASSERT_EQ(ref.rfind("sha256:", 0), 0u) << first.dump();
  CliResult payload = RunCli({"--db", cap, "mcp-tap", "payload", ref});
  ASSERT_EQ(payload.exit_code, 0) << payload.Describe();
  EXPECT_NE(payload.out.find("secret/deploy"), std::string::npos);

  // Forgetting the call's event takes its payload out of the journal (at the next prune, drain or
  // tap start).
  CliResult forget = RunCli({"--db", cap, "forget", first.value("id", ""), "--yes"});
  ASSERT_EQ(forget.exit_code, 0) << forget.Describe();
  CliResult prune = RunCli({"--db", cap, "mcp-tap", "prune", "--json"});
  ASSERT_EQ(prune.exit_code, 0) << prune.Describe();
  EXPECT_EQ(json::parse(prune.out).value("forgotten_calls", 0), 1) << prune.out;
  EXPECT_NE(RunCli({"--db", cap, "mcp-tap", "payload", ref}).exit_code, 0);

  const json& unknown = by_request["2"];
  EXPECT_EQ(unknown["capture"].value("outcome", ""), "rpc_error");
  EXPECT_EQ(unknown.value("session", "").rfind("mcp-tap-", 0), 0u);  // no correlation: the connection

  const json& traced = by_request["3"];
  EXPECT_EQ(traced.value("session", ""), "trace-4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(traced["capture"].value("args_bytes", 0), 312);  // {"query":"q…q"}: the whole size, not the summary's
  EXPECT_EQ(traced["capture"].value("args_ref", "").rfind("sha256:", 0), 0u);

  CliResult status = RunCli({"--db", cap, "mcp-tap", "status", "--json"});
  ASSERT_EQ(status.exit_code, 0) << status.Describe();
  const json s = json::parse(status.out);
  EXPECT_EQ(s.value("delivered", 0), 3);
  EXPECT_EQ(s.value("pending", -1), 0);
}

// Calls captured in a session with an open explicit episode become its steps, each once: the
// episode started through the CLI, the calls made through the tap (the session from the baggage),
// then the journal drained again.
TEST(McpTapTest, CapturedCallsBecomeStepsOfTheOpenEpisode) {
  TempDir dir;
  const std::string served = dir.File("served.db"), cap = dir.File("cap.db");
  ASSERT_EQ(RunCli({"--db", served, "remember", "The deploy key is in vault path secret/deploy", "-n", "ns"}).exit_code, 0);
  CliResult start = RunCli({"--db", cap, "--json", "episode", "start", "-n", "cap", "rotate the deploy key", "--session",
                            "agent-run-9"});
  ASSERT_EQ(start.exit_code, 0) << start.Describe();
  const std::string episode = json::parse(start.out)["id"].get<std::string>();
  const json baggage = {{"baggage", "engram.session_id=agent-run-9"}};
  std::string input = Handshake();
  input += Line(Call(1, "memory_recall", {{"query", "deploy key"}}, baggage));
  input += Line(Call(2, "no_such_tool", json::object(), baggage));
  input += Line(Call(3, "memory_recall", {{"query", "other session"}},
                     {{"baggage", "engram.session_id=agent-run-10"}}));  // no episode open there
  CliResult tapped = RunCli({"--db", cap, "mcp-tap", "-n", "cap", "--", EngramBinary(), "--db", served, "mcp",
                             "--namespace", "ns", "--no-worker"},
                            input);
  ASSERT_EQ(tapped.exit_code, 0) << tapped.Describe();
  ASSERT_EQ(RunCli({"--db", cap, "mcp-tap", "drain", "-n", "cap"}).exit_code, 0);

  CliResult got = RunCli({"--db", cap, "--json", "episode", "get", "-n", "cap", episode});
  ASSERT_EQ(got.exit_code, 0) << got.Describe();
  const json e = json::parse(got.out);
  ASSERT_EQ(e["steps"].size(), 2u) << e.dump(2);
  std::map<std::string, json> by_tool;
  for (const json& step : e["steps"]) by_tool[step.value("tool_name", "")] = step;
  EXPECT_EQ(by_tool["memory_recall"].value("action", ""), "memory_recall({\"query\":\"deploy key\"})");
  EXPECT_EQ(by_tool["memory_recall"].value("result", "").rfind("ok", 0), 0u);
  EXPECT_EQ(by_tool["no_such_tool"].value("result", "").rfind("rpc_error", 0), 0u);
  std::set<std::string> evidence;
  for (const auto& [id, event] : ToolEvents(cap, "cap")) {
    if (event.value("session", "") == "agent-run-9") evidence.insert(event.value("id", ""));
  }
  EXPECT_EQ(evidence, (std::set<std::string>{by_tool["memory_recall"].value("evidence_event_id", ""),
                                             by_tool["no_such_tool"].value("evidence_event_id", "")}));
  EXPECT_EQ(e["tools_used"].size(), 2u);
}

// `engram args...` with pipes to its stdin and from its stdout (stderr to /dev/null).
struct Piped {
  pid_t pid = -1;
  int in = -1;
  FILE* out = nullptr;
};

Piped StartPiped(const std::vector<std::string>& args) {
  int to[2], from[2];
  Piped p;
  if (pipe(to) != 0 || pipe(from) != 0) return p;
  std::vector<std::string> argv_s = {EngramBinary()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  p.pid = fork();
  if (p.pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    for (int fd : {to[0], to[1], from[0], from[1]}) close(fd);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  p.in = to[1];
  p.out = fdopen(from[0], "r");
  return p;
}

TEST(McpTapTest, AServerThatAnswersAtOnceHasEveryCallPaired) {
  // One call at a time, each answered before the next, by a server that answers as soon as it
  // reads (GNU sed, unbuffered, turns the request line into its response): the response must never reach the
  // recorder before its request, or the call would end as "no_response".
  TempDir dir;
  Piped tap = StartPiped({"--db", dir.File("cap.db"), "mcp-tap", "-n", "cap", "--", "sed", "-u",
                          R"(s|"method":"tools/call"|"result":{}|)"});
  ASSERT_GT(tap.pid, 0);
  constexpr int kCalls = 200;
  char buffer[4096];
  for (int i = 1; i <= kCalls; ++i) {
    const std::string line = Line(Call(i, "t" + std::to_string(i % 7), {{"n", i}}));
    ASSERT_EQ(write(tap.in, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    ASSERT_NE(fgets(buffer, sizeof(buffer), tap.out), nullptr) << "no answer to call " << i;
  }
  close(tap.in);
  fclose(tap.out);
  int status = 0;
  waitpid(tap.pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const auto events = ToolEvents(dir.File("cap.db"), "cap");
  ASSERT_EQ(events.size(), static_cast<size_t>(kCalls));
  int unpaired = 0;
  for (const auto& [id, e] : events) unpaired += e["capture"].value("outcome", "") != "ok";
  EXPECT_EQ(unpaired, 0);
}

TEST(McpTapTest, EveryCallTheClientSawAnsweredSurvivesAKill) {
  // The default commits a call's record before its response reaches the client: a tap killed
  // (SIGKILL) right after the client read an answer has that call, and every one before it, in its
  // journal. (With --async-commit the last calls are usually lost here: their records are
  // committed just after the answer is forwarded.)
  for (int answered : {1, 23}) {
    TempDir dir;
    Piped tap = StartPiped({"--db", dir.File("cap.db"), "mcp-tap", "-n", "cap", "--", "sed", "-u",
                            R"(s|"method":"tools/call"|"result":{}|)"});
    ASSERT_GT(tap.pid, 0);
    char buffer[4096];
    for (int i = 1; i <= answered; ++i) {
      const std::string line = Line(Call(i, "lookup", {{"n", i}}));
      ASSERT_EQ(write(tap.in, line.data(), line.size()), static_cast<ssize_t>(line.size()));
      ASSERT_NE(fgets(buffer, sizeof(buffer), tap.out), nullptr) << "no answer to call " << i;
    }
    kill(tap.pid, SIGKILL);
    waitpid(tap.pid, nullptr, 0);
    close(tap.in);
    fclose(tap.out);
    CliResult drain = RunCli({"--db", dir.File("cap.db"), "mcp-tap", "drain", "-n", "cap", "--json"});
    ASSERT_EQ(drain.exit_code, 0) << drain.Describe();
    std::set<std::string> requests;
    for (const auto& [id, e] : ToolEvents(dir.File("cap.db"), "cap")) requests.insert(e["capture"].value("request_id", ""));
    for (int i = 1; i <= answered; ++i) EXPECT_EQ(requests.count(std::to_string(i)), 1u) << "call " << i << " of " << answered;
  }
}

TEST(McpTapTest, BadFlagsAreRefusedBeforeTheServerStarts) {
  TempDir dir;
  CliResult no_ns = RunCli({"--db", dir.File("cap.db"), "mcp-tap", "--", "cat"}, "");
  EXPECT_EQ(no_ns.exit_code, 2) << no_ns.Describe();
  EXPECT_NE(no_ns.err.find("namespace"), std::string::npos) << no_ns.Describe();
  CliResult no_server = RunCli({"--db", dir.File("cap.db"), "mcp-tap", "-n", "cap", "--", "/no/such/server"}, "");
  EXPECT_NE(no_server.exit_code, 0);
  EXPECT_NE(no_server.err.find("/no/such/server"), std::string::npos) << no_server.Describe();
  CliResult big = RunCli({"--db", dir.File("cap.db"), "mcp-tap", "-n", "cap", "--inline-bytes", "999999", "--", "cat"}, "");
  EXPECT_EQ(big.exit_code, 2) << big.Describe();
}

// Starts `engram args...` with a pipe to its stdin; stdout and stderr to /dev/null.
pid_t StartWithPipe(const std::vector<std::string>& args, int* stdin_fd) {
  int p[2];
  if (pipe(p) != 0) return -1;
  std::vector<std::string> argv_s = {EngramBinary()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(p[0], 0);
    close(p[0]);
    close(p[1]);
    freopen("/dev/null", "w", stdout);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(p[0]);
  *stdin_fd = p[1];
  return pid;
}

TEST(McpTapTest, AKilledTapLosesNoJournaledRecordAndDrainDeliversEachOnce) {
  TempDir dir;
  const std::string served = dir.File("served.db"), cap = dir.File("cap.db");
  ASSERT_EQ(RunCli({"--db", served, "remember", "Lisbon is where the team meets in May", "-n", "ns"}).exit_code, 0);
  // engram's database is locked by another writer for the whole run: the tap's consumer cannot
  // deliver, so the records wait in the journal when the tap is killed.
  ASSERT_EQ(RunCli({"--db", cap, "remember", "an earlier note", "-n", "cap"}).exit_code, 0);
  auto locker = std::make_unique<test::RawDb>(cap);
  locker->Exec("BEGIN IMMEDIATE");
  int in = -1;
  const pid_t tap = StartWithPipe({"--db", cap, "mcp-tap", "-n", "cap", "--", EngramBinary(), "--db", served, "mcp",
                                   "--namespace", "ns", "--no-worker"},
                                  &in);
  ASSERT_GT(tap, 0);
  constexpr int kCalls = 40;
  std::string input = Handshake();
  for (int i = 1; i <= kCalls; ++i) input += Line(Call(i, "memory_recall", {{"query", "Lisbon " + std::to_string(i)}}));
  ASSERT_EQ(write(in, input.data(), input.size()), static_cast<ssize_t>(input.size()));
  // Wait until the journal holds every call, then kill the tap wherever its consumer is.
  int64_t journaled = 0;
  for (int tries = 0; tries < 600 && journaled < kCalls; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CliResult status = RunCli({"--db", cap, "mcp-tap", "status", "--json"});
    if (status.exit_code != 0) continue;
    const json s = json::parse(status.out, nullptr, false);
    if (s.is_object()) journaled = s.value("pending", 0) + s.value("delivered", 0);
  }
  ASSERT_EQ(journaled, kCalls);
  CliResult before = RunCli({"--db", cap, "mcp-tap", "status", "--json"});
  ASSERT_EQ(json::parse(before.out).value("delivered", -1), 0) << before.out;
  kill(tap, SIGKILL);
  waitpid(tap, nullptr, 0);
  close(in);  // the server sees end of file and exits
  locker->Exec("COMMIT");
  locker.reset();

  // A drain told another namespace still delivers each record where its tap was told to (F1).
  CliResult drain = RunCli({"--db", cap, "mcp-tap", "drain", "-n", "elsewhere", "--json"});
  ASSERT_EQ(drain.exit_code, 0) << drain.Describe();
  CliResult elsewhere = RunCli({"--db", cap, "export", "-n", "elsewhere"});  // exit 3: no such namespace
  EXPECT_TRUE(elsewhere.exit_code != 0 || elsewhere.out.find("\"role\":\"tool\"") == std::string::npos)
      << elsewhere.Describe();
  const auto events = ToolEvents(cap, "cap");
  EXPECT_EQ(events.size(), static_cast<size_t>(kCalls));
  std::set<std::string> requests;
  for (const auto& [id, e] : events) requests.insert(e["capture"].value("request_id", ""));
  EXPECT_EQ(requests.size(), static_cast<size_t>(kCalls));
}

}  // namespace
}  // namespace engram
