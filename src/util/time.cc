#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <date/date.h>
#include <sstream>

namespace engram {

TimestampMs NowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

using Ms = std::chrono::sys_time<std::chrono::milliseconds>;

// kInvalidArgument when `utc_ms` lies outside the years 1–9999 (kMinTimestampMs…kMaxTimestampMs).
Status CheckYearRange(TimestampMs utc_ms) {
  if (utc_ms < kMinTimestampMs || utc_ms > kMaxTimestampMs) {
    return Status::InvalidArgument("timestamp year out of range 1–9999");
  }
  return Status::Ok();
}

// Tries one date::parse format against the whole input.
bool TryParse(const std::string& text, const char* format, Ms* out, std::chrono::minutes* offset) {
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  Ms tp;
  std::chrono::minutes off{0};
  if (offset != nullptr) {
    in >> date::parse(format, tp, off);
  } else {
    in >> date::parse(format, tp);
  }
  if (in.fail()) return false;
  // The whole string must be consumed.
  in.peek();
  if (!in.eof()) return false;
  *out = tp;
  if (offset != nullptr) *offset = off;
  return true;
}

}  // namespace

Result<LocalTimestamp> ParseLocalTimestamp(std::string_view raw) {
  std::string text(raw);
  // Trim spaces.
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
  size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return Error(Status::InvalidArgument("empty timestamp"));
  text.erase(0, start);
  for (char& c : text) {
    if (c == 't') c = 'T';
    if (c == 'z') c = 'Z';
  }
  // A space between date and time is accepted as 'T'.
  if (text.size() > 10 && text[10] == ' ') text[10] = 'T';
  // Fractions finer than milliseconds ("…:00.123456", Python's isoformat) are truncated to ms.
  if (text.size() > 20 && text[19] == '.') {
    size_t digits = 0;
    while (20 + digits < text.size() && std::isdigit(static_cast<unsigned char>(text[20 + digits]))) ++digits;
    if (digits > 3) text.erase(23, digits - 3);
  }

  bool has_z = !text.empty() && text.back() == 'Z';
  if (has_z) text.pop_back();

  Ms tp;
  std::chrono::minutes offset{0};
  // Formats with an offset first (only when no Z), then without.
  static const char* kWithOffset[] = {"%Y-%m-%dT%H:%M:%S%Ez", "%Y-%m-%dT%H:%M:%S%z",
                                      "%Y-%m-%dT%H:%M%Ez", "%Y-%m-%dT%H:%M%z"};
  static const char* kWithoutOffset[] = {"%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"};
  bool parsed = false;
  bool offset_written = has_z;
  if (!has_z) {
    for (const char* f : kWithOffset) {
      if (TryParse(text, f, &tp, &offset)) {
        parsed = true;
        offset_written = true;
        break;
      }
    }
  }
  if (!parsed) {
    offset = std::chrono::minutes{0};
    for (const char* f : kWithoutOffset) {
      if (TryParse(text, f, &tp, nullptr)) {
        parsed = true;
        break;
      }
    }
  }
  if (!parsed) {
    return Error(Status::InvalidArgument(
        "not an ISO-8601 time (expected e.g. 2023-05-08, 2023-05-08T13:56:00Z or "
        "2023-05-08T13:56:00+08:00): \"" +
        std::string(raw.substr(0, 64)) + "\""));
  }
  // Real UTC offsets lie within −12:00 … +14:00; "+25:00" or "+99:99" is a typo, not a time.
  const auto offset_minutes = offset.count();
  if (offset_minutes < kMinUtcOffsetMinutes || offset_minutes > kMaxUtcOffsetMinutes) {
    return Error(Status::InvalidArgument("UTC offset outside −12:00…+14:00: \"" +
                                         std::string(raw.substr(0, 64)) + "\""));
  }
  // date::parse subtracts %z offsets already (the result is UTC); check the year range.
  ENGRAM_RETURN_IF_ERROR(CheckYearRange(tp.time_since_epoch().count()));
  return LocalTimestamp{tp.time_since_epoch().count(), static_cast<int>(offset_minutes), offset_written};
}

Result<TimestampMs> ParseTimestamp(std::string_view text) {
  auto t = ParseLocalTimestamp(text);
  if (!t) return Error(t.error());
  return t->utc_ms;
}

Result<TimestampMs> ParseTimestampAtOffset(std::string_view text, int default_offset_minutes) {
  if (default_offset_minutes < kMinUtcOffsetMinutes || default_offset_minutes > kMaxUtcOffsetMinutes) {
    return Error(Status::InvalidArgument(
        fmt::format("UTC offset of {} minutes is outside −12:00…+14:00", default_offset_minutes)));
  }
  auto t = ParseLocalTimestamp(text);
  if (!t) return Error(t.error());
  if (t->offset_written) return t->utc_ms;
  // As ParseTimestamp checks the instant a written offset gives: years 1–9999 in UTC.
  const TimestampMs utc = t->utc_ms - static_cast<TimestampMs>(default_offset_minutes) * 60000;
  ENGRAM_RETURN_IF_ERROR(CheckYearRange(utc));
  return utc;
}

Result<int> ParseUtcOffset(std::string_view raw) {
  std::string text(raw);
  auto bad = [&] {
    return Error(Status::InvalidArgument("not a UTC offset (expected e.g. +08:00, -05:00, +0530 or Z): \"" +
                                         std::string(raw.substr(0, 64)) + "\""));
  };
  if (text == "Z" || text == "z") return 0;
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return bad();
  // "+H", "+HH", "+H:MM", "+HH:MM" or "+HHMM" (as ParseTimestamp accepts after a time).
  std::string hour_digits, minute_digits;
  const size_t colon = text.find(':');
  if (colon != std::string::npos) {
    hour_digits = text.substr(1, colon - 1);
    minute_digits = text.substr(colon + 1);
    if (minute_digits.size() != 2) return bad();
  } else if (text.size() == 5) {
    hour_digits = text.substr(1, 2);
    minute_digits = text.substr(3, 2);
  } else {
    hour_digits = text.substr(1);
  }
  if (hour_digits.empty() || hour_digits.size() > 2) return bad();
  for (const std::string* part : {&hour_digits, &minute_digits}) {
    for (char c : *part) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return bad();
    }
  }
  const int hours = std::stoi(hour_digits);
  const int minutes = minute_digits.empty() ? 0 : std::stoi(minute_digits);
  if (minutes >= 60) return bad();
  const int offset = (text[0] == '-' ? -1 : 1) * (hours * 60 + minutes);
  if (offset < kMinUtcOffsetMinutes || offset > kMaxUtcOffsetMinutes) {
    return Error(Status::InvalidArgument("UTC offset outside −12:00…+14:00: \"" + std::string(raw.substr(0, 64)) + "\""));
  }
  return offset;
}

namespace {

// Writes `value` as `width` decimal digits (zero-padded; value < 10^width) at `out`.
void PutDigits(char* out, int64_t value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
}

}  // namespace

std::string FormatTimestamp(TimestampMs ms) {
  // The years 1–9999 by hand (what a recall packet's items print: date::format cost 16,000
  // instructions a call, 3% of a REST recall); date::format elsewhere, for the same text.
  if (ms < kMinTimestampMs || ms > kMaxTimestampMs) {
    Ms tp{std::chrono::milliseconds{ms}};
    return date::format("%Y-%m-%dT%H:%M:%SZ", tp);
  }
  constexpr int64_t kDayMs = 86400000;
  const int64_t days = ms >= 0 ? ms / kDayMs : -((-ms + kDayMs - 1) / kDayMs);  // floor
  const int64_t in_day = ms - days * kDayMs;
  const date::year_month_day ymd{date::sys_days{date::days{days}}};
  std::string out = "0000-00-00T00:00:00.000Z";
  PutDigits(&out[0], static_cast<int>(ymd.year()), 4);
  PutDigits(&out[5], static_cast<unsigned>(ymd.month()), 2);
  PutDigits(&out[8], static_cast<unsigned>(ymd.day()), 2);
  PutDigits(&out[11], in_day / 3600000, 2);
  PutDigits(&out[14], in_day / 60000 % 60, 2);
  PutDigits(&out[17], in_day / 1000 % 60, 2);
  PutDigits(&out[20], in_day % 1000, 3);
  return out;
}

std::string FormatLocalTimestamp(TimestampMs ms, int utc_offset_minutes) {
  utc_offset_minutes = std::clamp(utc_offset_minutes, kMinUtcOffsetMinutes, kMaxUtcOffsetMinutes);
  const TimestampMs local = ms + static_cast<TimestampMs>(utc_offset_minutes) * 60000;
  const int magnitude = utc_offset_minutes < 0 ? -utc_offset_minutes : utc_offset_minutes;
  const std::string offset =
      utc_offset_minutes == 0
          ? "Z"
          : fmt::format("{}{:02}:{:02}", utc_offset_minutes < 0 ? '-' : '+', magnitude / 60, magnitude % 60);
  return date::format("%Y-%m-%dT%H:%M:%S", date::floor<std::chrono::seconds>(Ms{std::chrono::milliseconds{local}})) +
         offset;
}

}  // namespace engram
