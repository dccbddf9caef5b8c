// mcp/protocol.h — the MCP revisions engram speaks and what it says about itself: the legacy
// handshake (initialize, 2025-03-26 / 2025-06-18 / 2025-11-25) and the stateless 2026-07-28
// revision (server/discover, `_meta` on every request and result). Both eras are served at once;
// each request chooses (a `_meta` protocol version means modern, `initialize` means legacy).
#ifndef ENGRAM_MCP_PROTOCOL_H_
#define ENGRAM_MCP_PROTOCOL_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/json_codec.h"

namespace engram::mcp {

inline constexpr std::string_view kModernVersion = "2026-07-28";
inline constexpr std::string_view kNewestLegacyVersion = "2025-11-25";
// serverInfo.name: distinct from the Go project also called engram (whose tools are mem_*).
inline constexpr std::string_view kServerName = "engram-memory";
// The `_meta` keys of 2026-07-28.
inline constexpr const char* kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* kMetaServerInfo = "io.modelcontextprotocol/serverInfo";
inline constexpr const char* kMetaClientInfo = "io.modelcontextprotocol/clientInfo";

// The legacy revisions answered by initialize, newest first.
const std::vector<std::string>& LegacyVersions();
// Every revision, modern first (server/discover's supportedVersions).
std::vector<std::string> SupportedVersions();

// The version initialize answers with: `requested` when engram speaks it, else the newest legacy.
std::string NegotiateLegacyVersion(std::string_view requested);
// Whether JSON-RPC batches are allowed under `version` (only 2025-03-26; removed in 2025-06-18).
bool AllowsBatches(std::string_view version);
// Whether `version` is any revision engram speaks.
bool IsSupportedVersion(std::string_view version);

// The modern protocol version a request names in params._meta, or nullopt (a legacy request).
std::optional<std::string> ModernVersionOf(const nlohmann::json& params);

// {"name": "engram-memory", "title": "engram memory", "version": "<engram version>"}.
OrderedJson ServerInfo();
// Guidance for the model (under 1 KB): memory is data, the namespace rule.
std::string Instructions();
// {"tools": {"listChanged": false}} (+ "logging": {} with the conformance fixtures).
OrderedJson ServerCapabilities(bool fixtures);

// The result of initialize for the client's `params`.
OrderedJson InitializeResult(const nlohmann::json& params, bool fixtures);
// The result of server/discover (2026-07-28): supportedVersions, capabilities, serverInfo,
// instructions, ttlMs, cacheScope.
OrderedJson DiscoverResult(bool fixtures);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_PROTOCOL_H_
