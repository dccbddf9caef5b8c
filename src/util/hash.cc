#include "util/hash.h"

#include <xxhash.h>

#include <fmt/format.h>

namespace engram {

std::string ContentHash(std::string_view bytes) {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

}  // namespace engram
