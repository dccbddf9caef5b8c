// mcp/read_only_request.h — whether an MCP message only reads, so that a server can answer it on a
// read-only Engine (server::EnginePool's readers) instead of waiting for the writer.
#ifndef ENGRAM_MCP_READ_ONLY_REQUEST_H_
#define ENGRAM_MCP_READ_ONLY_REQUEST_H_

#include <string_view>

namespace engram::mcp {

// True when `body` is one JSON-RPC request (not a batch) that writes nothing: a protocol method
// that does not touch the Engine (initialize, ping, tools/list, server/discover, notifications),
// or a tools/call of a tool whose capability needs read access only (recall, get, explain,
// history, session search). False for a write tool, an unknown tool (the conformance fixtures), a
// batch and anything that does not parse: those take the writer, as before. Thread-safe.
bool IsReadOnlyRequest(std::string_view body);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_READ_ONLY_REQUEST_H_
