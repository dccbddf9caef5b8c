// util/sha256.h — SHA-256 (OpenSSL EVP) and random secrets, for API keys: what a server stores
// of a key is its digest, never the key itself.
#ifndef ENGRAM_UTIL_SHA256_H_
#define ENGRAM_UTIL_SHA256_H_

#include <string>
#include <string_view>

#include "engram/status.h"

namespace engram {

// 64 lowercase hex digits of SHA-256 over the bytes. Thread-safe.
std::string Sha256Hex(std::string_view bytes);

// `bytes` cryptographically random bytes as 2×bytes lowercase hex digits (OpenSSL RAND_bytes).
// Errors: kInternal when the random source fails. Thread-safe.
Result<std::string> RandomHex(int bytes);

}  // namespace engram

#endif  // ENGRAM_UTIL_SHA256_H_
