// mcp/fixtures.h — the fixture tools of the official conformance suite
// (@modelcontextprotocol/conformance, src/scenarios/server/tools.ts), served only behind the
// test-only flag --conformance-fixtures so the suite can check content types and error results.
// They touch no database.
#ifndef ENGRAM_MCP_FIXTURES_H_
#define ENGRAM_MCP_FIXTURES_H_

#include <optional>
#include <string_view>
#include <vector>

#include "codec/json_codec.h"

namespace engram::mcp {

// The fixture tool definitions, in a fixed order. Thread-safe.
const std::vector<OrderedJson>& FixtureTools();

// The CallToolResult of fixture `name`, or nullopt when it is not a fixture.
std::optional<OrderedJson> CallFixture(std::string_view name);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_FIXTURES_H_
