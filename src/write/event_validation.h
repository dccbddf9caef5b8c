// write/event_validation.h — the one validation of EventInput shared by every entry point.
#ifndef ENGRAM_WRITE_EVENT_VALIDATION_H_
#define ENGRAM_WRITE_EVENT_VALIDATION_H_

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/event_store.h"

namespace engram {

// Limits (bytes of UTF-8 unless stated).
inline constexpr size_t kMaxContentBytes = 1'000'000;
inline constexpr size_t kMaxNameChars = 200;  // namespace, session id, speaker, keys (code points)
inline constexpr size_t kMaxMetadataBytes = 64 * 1024;

// Checks a short identifier-like field (namespace, session id, speaker, keys): valid UTF-8, not
// blank, no control characters, at most kMaxNameChars code points; empty is an error only when
// `required`. The one rule for names at every entry point. Errors: kInvalidArgument naming `field`.
Status ValidateNameField(std::string_view field, std::string_view value, bool required);

// Checks `input` and turns it into a row ready to store, with a new ULID, recorded_at = now, the
// content hash, the default origin class for the role, and the idempotency key (given, or
// "auto:" + hash of namespace-independent identity: session, role, speaker, occurred_at, content).
// Errors: kInvalidArgument whose message starts with `field "<name>": `.
Result<sqlite::EventRow> ValidateEventInput(const EventInput& input, TimestampMs now);

// The text the full-text index sees for an event: "speaker: content", plus
// " [image: caption]" when metadata has "image_caption" (LoCoMo shares photos this way).
std::string IndexedText(const Event& event);

}  // namespace engram

#endif  // ENGRAM_WRITE_EVENT_VALIDATION_H_
