// util/ulid.h — ULIDs (https://github.com/ulid/spec): 48-bit millisecond time + 80 random bits,
// 26 characters of Crockford base32, lexicographically sortable by time.
#ifndef ENGRAM_UTIL_ULID_H_
#define ENGRAM_UTIL_ULID_H_

#include <string>

#include "engram/types.h"

namespace engram {

// A new ULID for time `ms`. Ids made by one process within the same millisecond are strictly
// increasing (the random part is incremented, as the spec's monotonic mode says). Thread-safe.
std::string NewUlid(TimestampMs ms);

// True when `s` is 26 Crockford base32 characters (upper case).
bool IsUlid(const std::string& s);

}  // namespace engram

#endif  // ENGRAM_UTIL_ULID_H_
