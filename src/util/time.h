// util/time.h — UTC timestamps: parsing ISO-8601 input and formatting output.
#ifndef ENGRAM_UTIL_TIME_H_
#define ENGRAM_UTIL_TIME_H_

#include <string>
#include <string_view>

#include "engram/status.h"
#include "engram/types.h"

namespace engram {

// Milliseconds since the epoch, now (system clock).
TimestampMs NowMs();

// Parses an ISO-8601 date or date-time and returns UTC milliseconds. Accepted forms:
//   "2023-05-08", "2023-05-08T13:56", "2023-05-08T13:56:00", "2023-05-08 13:56:00.250" (finer
//   fractions, "…:00.123456", are truncated to milliseconds),
//   each optionally followed by "Z" or an offset "+08:00" / "-0500".
// Input without an offset is taken as UTC (ParseTimestampAtOffset reads it in another calendar).
// Errors: kInvalidArgument naming the expected form, for an offset outside −12:00…+14:00, or for
// an instant outside the years 1–9999 (UTC).
Result<TimestampMs> ParseTimestamp(std::string_view text);

// The range every time engram parses or stores lies in: 0001-01-01T00:00:00Z and
// 9999-12-31T23:59:59.999Z in ms since the epoch (years 1–9999, UTC).
constexpr TimestampMs kMinTimestampMs = -62135596800000;
constexpr TimestampMs kMaxTimestampMs = 253402300799999;

// Real UTC offsets lie within −12:00 … +14:00 (minutes).
constexpr int kMinUtcOffsetMinutes = -12 * 60;
constexpr int kMaxUtcOffsetMinutes = 14 * 60;

// A parsed time and the UTC offset it was written with (0 for "Z" or no offset).
struct LocalTimestamp {
  TimestampMs utc_ms = 0;
  int utc_offset_minutes = 0;
  bool offset_written = false;  // "Z" or an offset was written (false: the text named no offset)
};

// ParseTimestamp that also returns the offset written ("2023-05-08T01:00:00+08:00" →
// {2023-05-07T17:00Z, 480}). Errors: as ParseTimestamp.
Result<LocalTimestamp> ParseLocalTimestamp(std::string_view text);

// ParseTimestamp for text written in a known calendar: a time or date without "Z" or an offset
// is read as local time at `default_offset_minutes` ("2023-05-07" at +08:00 →
// 2023-05-06T16:00:00Z); a written offset wins. Errors: as ParseTimestamp (the year range is
// checked on the UTC instant), and kInvalidArgument for a default offset outside −12:00…+14:00.
Result<TimestampMs> ParseTimestampAtOffset(std::string_view text, int default_offset_minutes);

// "+08:00", "-05:00", "+0530", "+08", "+8", "+5:30" or "Z" → minutes east of UTC (480, −300, 330,
// 480, 480, 330, 0).
// Errors: kInvalidArgument for another form or an offset outside −12:00…+14:00.
Result<int> ParseUtcOffset(std::string_view text);

// "2023-05-08T13:56:00.000Z".
std::string FormatTimestamp(TimestampMs ms);

// The local wall time at `utc_offset_minutes` with its offset, floored to the second:
// "2023-05-08T01:00:00+08:00" ("…Z" at offset 0). The offset is clamped to −12:00…+14:00.
std::string FormatLocalTimestamp(TimestampMs ms, int utc_offset_minutes);

}  // namespace engram

#endif  // ENGRAM_UTIL_TIME_H_
