// cli/mcp_commands.cc — `engram mcp`: the MCP server over stdio. Filled in by the servers work
// (issue 13).
#include "cli/cli_common.h"

namespace engram::cli {

void AddMcpCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {}

}  // namespace engram::cli
