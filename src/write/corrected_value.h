// write/corrected_value.h — which earlier statement a bare correction corrects (issue 16): "correction:
// it's Heathrow" after "My flight to Lisbon leaves from Gatwick", "wait, it's 1989" after "I was born
// in 1988", "不对，是A1032" after "我的工号是A1023", "actually it's Tuesday" after "My dentist
// appointment is on Monday at 3".
//
// A correction that names neither its attribute nor what it replaces says again a value of the kind
// it corrects: a time for a time, a code for a code of the same shape, a number for a number, a
// name for a name of its kind. Of the speaker's recent statements, the newest that holds a value of
// the correction's kind is the one corrected; the value it holds is the one replaced. Kinds:
// * a time: the correction is a time expression (text/time_expression.h: "Tuesday", "8 pm",
//   "3月18号"), and so is a part of the older value;
// * a code or a number: the correction holds a digit, and the older a token of the same shape
//   (letters as letters, digits as digits, other characters as themselves, case ignored: "A1032" and
//   "A1023", "1989" and "1988", "gate C7" and "gate B12": the token holding the digit);
// * a name or a word of a kind: a word of the correction and one of the older value are kin
//   (write/kin_change.h: "Heathrow" and "Gatwick"), or — the older being a value the grammar read, not
//   a statement kept whole — they share a word beside the one replaced ("O positive" and "A
//   positive").
// A statement kept whole (explicit_memory, statement) is read by its names and tokens only: its
// other words are about many things.
// A bare correction says its value and nothing else the older does not say (SaysOnlyTheValue):
// "Correction: room 310" after "My gym locker is number 204" corrects a room, "typo, 4417" the
// code; "the plumber comes Tuesday" after "My dentist appointment is on Monday" is the plumber's.
//
// Thread safety: pure; the kin lookup's functions are the caller's.
#ifndef ENGRAM_WRITE_CORRECTED_VALUE_H_
#define ENGRAM_WRITE_CORRECTED_VALUE_H_

#include <optional>
#include <string>
#include <string_view>

#include "write/kin_change.h"

namespace engram {

// A part of an older value that a correction replaces, and the part of the correction that
// replaces it, both verbatim ("B12" and "C7" of "My flight lands at gate B12" and "gate C7").
struct CorrectedPair {
  std::string older;
  std::string newer;
};

// The part of `older` (a claim's value, or a statement kept whole when `whole_statement`) that
// `correction` (a bare correction's value) corrects, and what replaces it (above); nullopt when
// `older` holds no value of its kind. `kin` may be unavailable (names then match by a shared word
// only). Never fails.
std::optional<CorrectedPair> CorrectedPart(std::string_view correction, std::string_view older, bool whole_statement,
                                           const KinLookup* kin);

// True when `correction` says a time (a date, weekday or time of day) or holds a digit: a value
// of a kind, which corrects only a value of its kind ("My mistake, Tuesday" never becomes a
// favourite colour). Never fails.
bool SaysATimeOrANumber(std::string_view correction);

// True when `correction` (the sentence saying the correction), but for `newer_part` (its value),
// says only words `older` says or that stand around a correction's value ("sorry, I meant", "it's",
// "not", 是, 应该, 说错了): "sorry, I meant gate C7, not B12" after "My flight lands at gate B12";
// not "Correction: room 310" after "My gym locker is number 204", nor 说错了，那趟航班是9点的 after
// 我每天早上7点起床. Never fails.
// With `chinese_too` false only its English words are read (a Chinese sentence words the same
// thing in characters the older need not hold: 我家在 for 我住在).
bool SaysOnlyTheValue(std::string_view correction, std::string_view newer_part, std::string_view older,
                      bool chinese_too);

}  // namespace engram

#endif  // ENGRAM_WRITE_CORRECTED_VALUE_H_
