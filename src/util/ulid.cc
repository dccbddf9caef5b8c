#include "util/ulid.h"

#include <unistd.h>

#include <array>
#include <mutex>
#include <random>

namespace engram {
namespace {

constexpr char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

struct UlidState {
  std::mutex mu;
  std::mt19937_64 rng{std::random_device{}()};
  TimestampMs last_ms = -1;
  std::array<uint8_t, 10> last_random{};
  // The process that seeded `rng`. A forked child inherits the generator's state: without a new
  // seed, parent and children made the same ids in the same millisecond (a UNIQUE failure on
  // events.id when forked writers remembered at once).
  pid_t seeded_by = getpid();
};

UlidState& State() {
  static UlidState state;
  return state;
}

}  // namespace

std::string NewUlid(TimestampMs ms) {
  std::array<uint8_t, 16> bytes{};
  {
    UlidState& st = State();
    std::lock_guard<std::mutex> lock(st.mu);
    if (st.seeded_by != getpid()) {
      st.rng.seed(std::random_device{}());
      st.last_ms = -1;
      st.seeded_by = getpid();
    }
    if (ms <= st.last_ms) {
      // Same (or earlier) millisecond: keep the previous time and increment the random part.
      ms = st.last_ms;
      for (int i = 9; i >= 0; --i) {
        if (++st.last_random[i] != 0) break;
      }
    } else {
      uint64_t a = st.rng(), b = st.rng();
      for (int i = 0; i < 8; ++i) st.last_random[i] = static_cast<uint8_t>(a >> (8 * i));
      for (int i = 0; i < 2; ++i) st.last_random[8 + i] = static_cast<uint8_t>(b >> (8 * i));
      st.last_ms = ms;
    }
    for (int i = 0; i < 6; ++i) bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(ms) >> (8 * (5 - i)));
    for (int i = 0; i < 10; ++i) bytes[6 + i] = st.last_random[i];
  }
  // 128 bits → 26 base32 characters, most significant first (the first carries 3 bits).
  std::string out(26, '0');
  for (int i = 0; i < 26; ++i) {
    int bit = 130 - 5 * (i + 1);  // position of the character's lowest bit, counting from bit 0
    int value = 0;
    for (int b = 4; b >= 0; --b) {
      int pos = bit + b;  // bit index in the 130-bit big number (top 2 bits are zero)
      int v = 0;
      if (pos < 128) v = (bytes[15 - pos / 8] >> (pos % 8)) & 1;
      value = (value << 1) | v;
    }
    out[i] = kAlphabet[value];
  }
  return out;
}

bool IsUlid(const std::string& s) {
  if (s.size() != 26) return false;
  for (char c : s) {
    bool ok = false;
    for (const char* p = kAlphabet; *p; ++p) ok |= (*p == c);
    if (!ok) return false;
  }
  return s[0] <= '7';
}

}  // namespace engram
