// cli/server_commands.cc — `engram serve` (REST and MCP over HTTP), `engram mcp` (MCP over
// stdio) and `engram keys` (API keys). Filled in by the servers work (issue 13).
#include "cli/cli_common.h"

namespace engram::cli {

void AddServerCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {}

}  // namespace engram::cli
