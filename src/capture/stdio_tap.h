// capture/stdio_tap.h — `engram mcp-tap -- SERVER_COMMAND...`: the MCP client starts the tap in
// place of a stdio server; the tap starts the server as its child and passes every byte between
// them unchanged, in both directions. Off that path, a recorder thread parses copies of the
// messages, pairs each `tools/call` with its response (CallMatcher) and commits the record to the
// journal; a consumer thread delivers journaled records to engram as events (DeliverDue). So a slow
// or failing engram never slows or breaks the client's conversation with its server, and what the
// journal has acknowledged survives the tap being killed (`engram mcp-tap drain` delivers it).
// docs/capture.md; design: ../shared/reference/experience_memory.md §3.
//
// One tap process is one connection. Signals: SIGINT, SIGTERM and SIGHUP are passed to the server;
// the tap exits with the server's exit code (128 + signal when the server was killed).
#ifndef ENGRAM_CAPTURE_STDIO_TAP_H_
#define ENGRAM_CAPTURE_STDIO_TAP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "capture/capture_delivery.h"
#include "capture/capture_journal.h"
#include "engram/engine.h"

namespace engram::capture {

struct StdioTapOptions {
  std::vector<std::string> command;  // the server's program (looked up in PATH) and its arguments
  std::string journal_path;          // the journal file (created when missing; its folder must exist)
  std::string connection_id;         // names this connection in records ("" = a new ULID)
  PayloadPolicy payloads;
  DeliveryOptions delivery;
  // Opens the engine the consumer delivers to (on the consumer's thread); nullptr: journal only.
  std::function<Result<std::unique_ptr<Engine>>()> open_engine;
  // true: a server's line that completes a tools/call reaches the client only once the call's
  // record is committed to the journal, so killing the tap (kill -9) loses no call the client saw
  // answered; it costs the response one journal commit (group-committed with the calls answered
  // at the same time). false: the record is committed just after the response is forwarded, and a
  // killed tap loses the calls of its last uncommitted group (docs/capture.md).
  bool commit_before_response = true;
  int flush_ms = 2000;  // after the server's output ends, how long the consumer may go on delivering
  size_t max_line_bytes = size_t{64} << 20;  // longer messages are forwarded but not captured
  int in_fd = 0;   // what the client writes (the tap's stdin)
  int out_fd = 1;  // what the client reads (the tap's stdout)
};

struct StdioTapReport {
  int exit_code = 0;        // the server's (128 + signal number when a signal ended it)
  int64_t captured = 0;     // tools/call records committed to the journal
  int64_t not_captured = 0;  // tools/call requests without a tool name, oversized or unparsable lines
  int64_t journal_errors = 0;  // records the journal refused (reported on stderr; the bytes went through)
  DeliveryReport delivery;  // what the consumer delivered while the tap ran
  std::string engine_error;  // the consumer could not open the engine (records stay pending)
};

// Runs the server and the tap until the server's output ends and it exits. Errors (before anything
// is forwarded): kInvalidArgument (no command), the journal's Open errors, kNotFound / kIOError when
// the server cannot be started.
Result<StdioTapReport> RunStdioTap(const StdioTapOptions& options);

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_STDIO_TAP_H_
