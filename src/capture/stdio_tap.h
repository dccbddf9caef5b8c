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

#include <string>
#include <vector>

#include "capture/tap_pipeline.h"

namespace engram::capture {

// The common options (journal, payloads, delivery, commit_before_response, flush_ms: after the
// server's output ends; max_message_bytes: the longest line captured) and the stdio ones.
struct StdioTapOptions : TapOptions {
  std::vector<std::string> command;  // the server's program (looked up in PATH) and its arguments
  int in_fd = 0;   // what the client writes (the tap's stdin)
  int out_fd = 1;  // what the client reads (the tap's stdout)
};

struct StdioTapReport : TapReport {
  int exit_code = 0;  // the server's (128 + signal number when a signal ended it)
};

// Runs the server and the tap until the server's output ends and it exits. Errors (before anything
// is forwarded): kInvalidArgument (no command), the journal's Open errors, kNotFound / kIOError when
// the server cannot be started.
Result<StdioTapReport> RunStdioTap(const StdioTapOptions& options);

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_STDIO_TAP_H_
