// util/hash.h — content hashes (XXH3-128, xxhash 0.8).
#ifndef ENGRAM_UTIL_HASH_H_
#define ENGRAM_UTIL_HASH_H_

#include <string>
#include <string_view>

namespace engram {

// 32 lowercase hex digits of XXH3-128 over the bytes. Not cryptographic: used for dedup keys.
std::string ContentHash(std::string_view bytes);

}  // namespace engram

#endif  // ENGRAM_UTIL_HASH_H_
