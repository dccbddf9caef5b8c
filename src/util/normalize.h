// util/normalize.h — text normalisation for identity keys (not for display: values are stored as
// written).
#ifndef ENGRAM_UTIL_NORMALIZE_H_
#define ENGRAM_UTIL_NORMALIZE_H_

#include <string>
#include <string_view>

namespace engram {

// NFKC case folding (ICU), whitespace runs collapsed to one space, leading/trailing whitespace and
// punctuation (ASCII and CJK: .,;:!?。，；：！？、"'“”‘’) removed. "  Hangzhou. " → "hangzhou".
// Invalid UTF-8 is replaced by U+FFFD first. Thread-safe.
std::string NormalizeKey(std::string_view text);

}  // namespace engram

#endif  // ENGRAM_UTIL_NORMALIZE_H_
