// util/utf8.h — UTF-8 validation and small text helpers.
#ifndef ENGRAM_UTIL_UTF8_H_
#define ENGRAM_UTIL_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace engram {

// True when `s` is well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF).
// On failure, *bad_offset (if given) is the byte offset of the first bad sequence.
bool IsValidUtf8(std::string_view s, size_t* bad_offset = nullptr);

// True when `s` contains only whitespace (ASCII and Unicode White_Space) or is empty.
bool IsBlank(std::string_view s);

// Number of Unicode code points in valid UTF-8.
size_t CodePointCount(std::string_view s);

// At most `max_chars` code points of `s` (valid UTF-8), with "…" appended when cut.
std::string TruncateCodePoints(std::string_view s, size_t max_chars);

}  // namespace engram

#endif  // ENGRAM_UTIL_UTF8_H_
