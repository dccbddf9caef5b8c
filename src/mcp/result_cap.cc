#include "mcp/result_cap.h"

#include <string>

#include "api/common.h"

namespace engram::mcp {
namespace {

size_t Size(const OrderedJson& j) { return Dump(j).size(); }

// Clips the text (and drops the evidence) of the only item so that `body` fits.
void ClipOnlyItem(OrderedJson& body, size_t max_bytes) {
  OrderedJson& item = body["items"][0];
  if (item.contains("evidence")) item["evidence"] = OrderedJson::array();
  const size_t size = Size(body);
  if (size <= max_bytes) return;
  item["text_clipped"] = true;
  const std::string text = item.value("text", std::string());
  const size_t over = Size(body) - max_bytes + 3;  // + the "…" appended
  size_t keep = text.size() > over ? text.size() - over : 0;
  if (keep < kMinClippedTextBytes) keep = std::min(text.size(), kMinClippedTextBytes);
  item["text"] = Utf8Prefix(text, keep) + "…";
}

}  // namespace

std::string Utf8Prefix(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  // Step back over continuation bytes (10xxxxxx) to the start of a code point.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

bool CapRecallPacket(OrderedJson& body, int64_t offset, size_t max_bytes) {
  if (!body.contains("items") || !body["items"].is_array() || Size(body) <= max_bytes) return false;
  OrderedJson& items = body["items"];
  const size_t before = items.size();
  while (items.size() > 1 && Size(body) > max_bytes) items.erase(items.size() - 1);
  if (items.size() == 1 && Size(body) > max_bytes) ClipOnlyItem(body, max_bytes);
  if (items.size() < before) {
    body["truncated"] = true;
    body["next_cursor"] = api::MakeCursor(offset + static_cast<int64_t>(items.size()));
  }
  return true;
}

}  // namespace engram::mcp
