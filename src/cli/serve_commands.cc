// cli/serve_commands.cc — `engram serve` (REST, and MCP over streamable HTTP at /mcp), `engram
// keys` (API keys) and `engram config`. Filled in by the servers work (issue 13).
#include "cli/cli_common.h"

namespace engram::cli {

void AddServeCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {}

}  // namespace engram::cli
