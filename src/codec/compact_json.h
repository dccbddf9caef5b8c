// codec/compact_json.h — one-line JSON text of an OrderedJson, byte for byte what
// `j.dump(-1, ' ', false, error_handler_t::replace)` writes, in a fraction of its instructions:
// runs of characters that need no escape are copied whole, where nlohmann's serializer decodes and
// checks every byte (0.43 M instructions of a 9 KB recall packet, 6 % of a REST recall).
#ifndef ENGRAM_CODEC_COMPACT_JSON_H_
#define ENGRAM_CODEC_COMPACT_JSON_H_

#include <string>

#include "codec/json_codec.h"

namespace engram {

// Appends the compact JSON text of `j` to *out: no whitespace, non-ASCII characters as they are,
// numbers as nlohmann writes them, a string that is not valid UTF-8 written by nlohmann's own
// serializer (U+FFFD for the bad bytes). Thread-safe (no shared state); does not throw but
// std::bad_alloc.
void AppendCompactJson(const OrderedJson& j, std::string* out);

}  // namespace engram

#endif  // ENGRAM_CODEC_COMPACT_JSON_H_
