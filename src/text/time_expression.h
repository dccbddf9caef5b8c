// text/time_expression.h — finds time expressions in English and Chinese text and resolves them to
// UTC ranges against a reference time.
//
// The reference is the moment the text was said: for an event, its occurred_at (UTC ms); for a
// query, the time the query is about (usually now). Relative expressions are always resolved
// against the reference, never against the wall clock (bug_scenarios.md B35). Days are the
// calendar days of the speaker's UTC offset (default 0: UTC days): "yesterday" asked at
// 01:00 +08:00 is the day before in Shanghai, not in London.
//
// Precision first: only expressions whose meaning is certain are emitted. Bare weekdays ("on
// Tuesday"), "next Tuesday", "a few days ago", "recently", seasons and the modal "may" are not
// time mentions. What is recognised (case-insensitive unless noted):
//   English
//     yesterday, today, tonight, tomorrow, last night, this morning/afternoon/evening,
//     the day before yesterday, the day after tomorrow                          → kDay
//     last/this/next week                       (ISO weeks, Monday to Sunday)   → kWeek
//     last/this/next weekend, this past weekend (Saturday and Sunday of the previous / current /
//                                               next ISO week; 2-day range)     → kDay
//     last/this/next month, last/this/next year                                 → kMonth / kYear
//     last Monday … last Sunday   (the most recent such day strictly before the reference day)
//     N days/weeks/months/years ago, N = digits, a/an/one … twelve  → the day N units before the
//                                  reference day, with a range of one unit and the unit's precision
//     2023-05-08, 2023/05/08, May 8, 2023, May 8th 2023, 8 May 2023, the 8th of May 2023 → kDay
//     May 8, 8 May (no year: the reference's year)                                      → kDay
//     May 2023, in/on/since/until/... May (a bare month only right after one of in, on, since,
//       until, till, by, before, after, during, from, of, early, mid, late, last, this, next;
//       "may" and "march" written in lower case need such a word even before a day number)
//       → kMonth; a month without a year is in the reference's year, except "last May" (the most
//       recent May strictly before the reference month) and "next May" (the first one after it)
//     in/since/until/by/during/before/after/from/of 2023 (1900–2199)                  → kYear
//   Chinese
//     昨天/昨日/昨晚, 今天/今日/今晚/今早/今天早上, 明天/明日/明晚, 前天, 后天, 大前天, 大后天 → kDay
//     上周/上星期/上个星期/上礼拜, 这周/本周/这个星期, 下周/下星期/下个星期 (+ 一…日/天: that
//       weekday of the week → kDay), 上周末/这周末/本周末/下周末                        → kWeek / kDay
//     上个月/上月, 这个月/本月, 下个月/下月 → kMonth; 去年/今年/明年/前年/后年 → kYear
//     N天前, N周前/N个星期前/N星期前, N个月前, N年前 (N = digits or 一…九十九, 两), and
//       N天后/N周后/N个月后/N年后 (after the reference) → the unit's precision
//     2023年5月8日/号, 2023年5月, 2023年, 5月8日/号, 五月, 去年五月, 明年三月八号 (a month or day
//       without a year is in the reference's year; 去年/今年/明年 give the year)  → kDay/kMonth/kYear
//
// Thread safety: a pure function; safe from any thread.
#ifndef ENGRAM_TEXT_TIME_EXPRESSION_H_
#define ENGRAM_TEXT_TIME_EXPRESSION_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engram/types.h"

namespace engram::text {

// One resolved time expression.
struct TimeMention {
  enum class Precision { kDay, kWeek, kMonth, kYear };

  std::string phrase;     // the expression as written: text.substr(byte_start, byte_end - byte_start)
  size_t byte_start = 0;  // byte offsets into the text given to FindTimeMentions
  size_t byte_end = 0;
  TimestampMs start = 0;  // [start, end): the range meant, in UTC ms since the epoch; start is a
  TimestampMs end = 0;    // midnight at the offset given to FindTimeMentions, and end > start
  Precision precision = Precision::kDay;  // the calendar unit of the expression
  // The year was not written ("May 8", "in May", "5月8日", "五月"), so it is the reference's
  // year, even when that date is still ahead of the reference (see PreviousYearOf).
  bool year_implied = false;
};

// Every time expression of `text` (UTF-8; invalid bytes are skipped, never fatal), resolved
// against `reference` (UTC ms; for an event, its occurred_at) in the calendar of
// `utc_offset_minutes` (minutes east of UTC, −720…+840; clamped to that range): days, weeks,
// months and years begin at local midnight there. Returns mentions in text order;
// they never overlap (the longest expression wins). Never fails; text without a recognised
// expression gives an empty vector. Linear in the size of the text.
std::vector<TimeMention> FindTimeMentions(std::string_view text, TimestampMs reference,
                                          int utc_offset_minutes = 0);

// `mention` (a day or month whose year was implied) one calendar year earlier: start and end (UTC
// ms) moved to the same local month and day a year before, in the calendar of
// `utc_offset_minutes` (pass the offset FindTimeMentions used): "Dec 31st" said on 2027-01-01
// means 2027-12-31, and the occurrence just past is 2026-12-31. Feb 29 goes back to the last leap
// year's Feb 29. Phrase, byte offsets, precision and year_implied are kept. Meant for kDay and
// kMonth mentions (the only ones with an implied year). Pure.
TimeMention PreviousYearOf(const TimeMention& mention, int utc_offset_minutes = 0);

// "day", "week", "month", "year".
std::string_view PrecisionName(TimeMention::Precision precision);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_TIME_EXPRESSION_H_
