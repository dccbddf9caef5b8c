// mcp/result_cap.h — the hard cap on what one tool result may carry, so no recall can flood a
// model's context (issue 13: a 70k-token read_graph against a 25k cap).
#ifndef ENGRAM_MCP_RESULT_CAP_H_
#define ENGRAM_MCP_RESULT_CAP_H_

#include <cstddef>
#include <cstdint>

#include "codec/json_codec.h"

namespace engram::mcp {

// The cap on structuredContent, compact, in bytes. The text block mirrors it, so a whole
// CallToolResult stays under 64 KiB (≈ 16k tokens), below the 25k-token cap of common clients.
constexpr size_t kMaxStructuredBytes = 30 * 1024;
// The cap on one item's text when a single item is over the cap alone (memory_get reads it whole).
constexpr size_t kMinClippedTextBytes = 256;

// Keeps `body` (a recall packet: {"items": [...], "truncated", "next_cursor", ...}) under
// `max_bytes` compact: items are dropped from the end, at item boundaries; when the first item
// alone is too big its text is clipped (UTF-8 safe) and it gets "text_clipped": true. When an item
// was dropped, sets "truncated": true and "next_cursor" to the cursor of the first dropped item
// (`offset` = the rank of body's first item, from the request's cursor). Returns whether it cut.
bool CapRecallPacket(OrderedJson& body, int64_t offset, size_t max_bytes = kMaxStructuredBytes);

// The longest prefix of `text` of at most `max_bytes` bytes that ends on a UTF-8 boundary.
std::string Utf8Prefix(const std::string& text, size_t max_bytes);

}  // namespace engram::mcp

#endif  // ENGRAM_MCP_RESULT_CAP_H_
