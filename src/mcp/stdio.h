// mcp/stdio.h — the stdio transport of MCP: newline-delimited JSON-RPC, one message a line.
#ifndef ENGRAM_MCP_STDIO_H_
#define ENGRAM_MCP_STDIO_H_

#include <iosfwd>

#include "mcp/server.h"

namespace engram::mcp {

// Reads messages from `in` one line at a time and writes each response to `out` as one line,
// flushed at once; nothing else is ever written to `out` (logs go to stderr). Blank lines are
// skipped and a trailing "\r" is dropped. Returns at end of input (the client's way to shut a
// stdio server down). Not thread-safe: one loop per connection.
void ServeStdio(Server& server, Connection& connection, std::istream& in, std::ostream& out);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_STDIO_H_
