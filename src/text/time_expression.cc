#include "text/time_expression.h"

#include <date/date.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>

namespace engram::text {
namespace {

using Precision = TimeMention::Precision;
using date::sys_days;

// Days are kept as plain day counts since the epoch (int64) and converted through date.h only for
// calendar arithmetic, so that no input can overflow date's int-based day type.
constexpr int64_t kMsPerDay = 86'400'000;
// Reference times outside years 1000–9000 are not resolved (nothing sensible to say about them).
constexpr int64_t kMinDay = -354'285;   // 1000-01-01
constexpr int64_t kMaxDay = 2'567'735;  // 9000-01-01

struct DayRange {
  int64_t start = 0;  // days since the epoch
  int64_t end = 0;    // exclusive
  Precision precision = Precision::kDay;
  bool year_implied = false;  // TimeMention::year_implied
};

// The shift of local wall time at `utc_offset_minutes` (clamped to −12:00…+14:00) from UTC, ms.
int64_t OffsetMs(int utc_offset_minutes) {
  return static_cast<int64_t>(std::clamp(utc_offset_minutes, -12 * 60, 14 * 60)) * 60000;
}

// The day since the epoch that holds `ms` (floor division: negative times too).
int64_t DayOfMs(TimestampMs ms) { return ms >= 0 ? ms / kMsPerDay : -((-ms - 1) / kMsPerDay) - 1; }

// `r` marked as a date whose year was not written.
std::optional<DayRange> YearImplied(std::optional<DayRange> r) {
  if (r) r->year_implied = true;
  return r;
}

int64_t DayOf(const date::year_month_day& ymd) {
  return sys_days(ymd).time_since_epoch().count();
}

date::year_month_day Ymd(int64_t day) {
  return date::year_month_day(sys_days(date::days(static_cast<int>(day))));
}

// 0 = Monday … 6 = Sunday.
int IsoWeekdayIndex(int64_t day) {
  unsigned c = date::weekday(sys_days(date::days(static_cast<int>(day)))).c_encoding();  // Sun = 0
  return static_cast<int>((c + 6) % 7);
}

DayRange Days(int64_t start, int64_t count) { return {start, start + count, Precision::kDay}; }

DayRange Week(int64_t ref_day, int offset_weeks) {
  int64_t monday = ref_day - IsoWeekdayIndex(ref_day) + 7LL * offset_weeks;
  return {monday, monday + 7, Precision::kWeek};
}

DayRange Weekend(int64_t ref_day, int offset_weeks) {
  int64_t monday = ref_day - IsoWeekdayIndex(ref_day) + 7LL * offset_weeks;
  return {monday + 5, monday + 7, Precision::kDay};
}

// The calendar month `offset` months from (year, month).
DayRange Month(int year, unsigned month, int offset) {
  date::year_month ym = date::year(year) / date::month(month) + date::months(offset);
  int64_t start = DayOf(ym / date::day(1));
  int64_t end = DayOf((ym + date::months(1)) / date::day(1));
  return {start, end, Precision::kMonth};
}

DayRange Year(int year) {
  return {DayOf(date::year(year) / 1 / 1), DayOf(date::year(year + 1) / 1 / 1), Precision::kYear};
}

std::optional<DayRange> Date(int year, unsigned month, unsigned day) {
  date::year_month_day ymd = date::year(year) / date::month(month) / date::day(day);
  if (!ymd.ok()) return std::nullopt;
  return Days(DayOf(ymd), 1);
}

// The day `n` units before (n < 0: after) the reference day, with a range of one unit.
DayRange UnitsAgo(int64_t ref_day, char unit, int n) {
  switch (unit) {
    case 'd':
      return Days(ref_day - n, 1);
    case 'w':
      return {ref_day - 7LL * n, ref_day - 7LL * n + 7, Precision::kWeek};
    default: {
      date::year_month_day ymd = Ymd(ref_day);
      date::year_month ym = ymd.year() / ymd.month();
      ym -= unit == 'm' ? date::months(n) : date::years(n);
      // Clamp the day of month (31 March minus one month is the last day of February).
      date::day last = (ym / date::last).day();
      date::year_month_day shifted = ym / std::min(ymd.day(), last);
      int64_t start = DayOf(shifted);
      date::year_month next = ym + (unit == 'm' ? date::months(1) : date::months(12));
      int64_t end = DayOf(next / std::min(ymd.day(), (next / date::last).day()));
      return {start, end, unit == 'm' ? Precision::kMonth : Precision::kYear};
    }
  }
}

TimeMention MakeMention(std::string_view text, size_t b, size_t e, const DayRange& r) {
  TimeMention m;
  m.phrase = std::string(text.substr(b, e - b));
  m.byte_start = b;
  m.byte_end = e;
  m.start = r.start * kMsPerDay;
  m.end = r.end * kMsPerDay;
  m.precision = r.precision;
  m.year_implied = r.year_implied;
  return m;
}

// ---------------------------------------------------------------------------------------------
// English

struct Token {
  size_t b = 0;
  size_t e = 0;
  std::string lower;      // ASCII lower case
  bool digits = false;    // only ASCII digits
  bool capital = false;   // first letter upper case
  std::string_view gap;   // the bytes between the previous token and this one
};

bool IsAsciiAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> out;
  size_t i = 0;
  size_t prev_end = 0;
  while (i < text.size()) {
    if (!IsAsciiAlnum(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    Token t;
    t.b = i;
    while (i < text.size() && IsAsciiAlnum(static_cast<unsigned char>(text[i]))) ++i;
    t.e = i;
    t.lower.reserve(t.e - t.b);
    t.digits = true;
    for (size_t k = t.b; k < t.e; ++k) {
      char c = text[k];
      if (c < '0' || c > '9') t.digits = false;
      t.lower.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
    t.capital = text[t.b] >= 'A' && text[t.b] <= 'Z';
    t.gap = text.substr(prev_end, t.b - prev_end);
    prev_end = t.e;
    out.push_back(std::move(t));
  }
  return out;
}

bool IsSpaceGap(std::string_view gap) {
  if (gap.empty()) return false;
  for (char c : gap) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

// Spaces with at most one comma.
bool IsCommaGap(std::string_view gap) {
  int commas = 0;
  bool any = false;
  for (char c : gap) {
    if (c == ',') {
      ++commas;
    } else if (c != ' ' && c != '\t') {
      return false;
    }
    any = true;
  }
  return any && commas <= 1;
}

int MonthNumber(std::string_view w) {
  static constexpr std::pair<std::string_view, int> kMonths[] = {
      {"january", 1}, {"jan", 1},  {"february", 2},  {"feb", 2},      {"march", 3},
      {"mar", 3},     {"april", 4}, {"apr", 4},      {"may", 5},      {"june", 6},
      {"jun", 6},     {"july", 7},  {"jul", 7},      {"august", 8},   {"aug", 8},
      {"september", 9}, {"sep", 9}, {"sept", 9},     {"october", 10}, {"oct", 10},
      {"november", 11}, {"nov", 11}, {"december", 12}, {"dec", 12}};
  for (const auto& [name, n] : kMonths) {
    if (w == name) return n;
  }
  return 0;
}

bool IsFullMonthName(std::string_view w) {
  static constexpr std::string_view kAbbreviations[] = {"jan", "feb", "mar", "apr", "jun", "jul",
                                                        "aug", "sep", "sept", "oct", "nov", "dec"};
  return MonthNumber(w) > 0 && std::find(std::begin(kAbbreviations), std::end(kAbbreviations), w) ==
                                   std::end(kAbbreviations);
}

// 0 = Monday … 6 = Sunday; -1 when not a weekday name.
int WeekdayIndex(std::string_view w) {
  static constexpr std::string_view kDays[] = {"monday", "tuesday",  "wednesday", "thursday",
                                               "friday", "saturday", "sunday"};
  for (int i = 0; i < 7; ++i) {
    if (w == kDays[i]) return i;
  }
  return -1;
}

// a/an/one … twelve or 1–999; 0 when not a count.
int CountWord(const Token& t) {
  if (t.digits) {
    if (t.lower.size() > 3) return 0;
    return std::stoi(t.lower);
  }
  static constexpr std::string_view kWords[] = {"one", "two",   "three", "four",  "five",   "six",
                                                "seven", "eight", "nine",  "ten", "eleven", "twelve"};
  if (t.lower == "a" || t.lower == "an") return 1;
  for (int i = 0; i < 12; ++i) {
    if (t.lower == kWords[i]) return i + 1;
  }
  return 0;
}

// "8", "08", "8th", "1st", "22nd", "3rd" → 8, 8, 8, 1, 22, 3; 0 otherwise.
unsigned DayNumber(const Token& t) {
  std::string_view w = t.lower;
  size_t n = 0;
  while (n < w.size() && w[n] >= '0' && w[n] <= '9') ++n;
  if (n == 0 || n > 2) return 0;
  std::string_view suffix = w.substr(n);
  if (!suffix.empty() && suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th") {
    return 0;
  }
  unsigned d = 0;
  for (size_t k = 0; k < n; ++k) d = d * 10 + static_cast<unsigned>(w[k] - '0');
  return d >= 1 && d <= 31 ? d : 0;
}

int YearNumber(const Token& t) {
  if (!t.digits || t.lower.size() != 4) return 0;
  int y = std::stoi(t.lower);
  return y >= 1900 && y <= 2199 ? y : 0;
}

int UnitOf(std::string_view w) {
  if (w == "day" || w == "days") return 'd';
  if (w == "week" || w == "weeks") return 'w';
  if (w == "month" || w == "months") return 'm';
  if (w == "year" || w == "years") return 'y';
  return 0;
}

bool IsMonthPreposition(std::string_view w) {
  static constexpr std::string_view kWords[] = {"in",     "on",   "since", "until", "till",
                                                "by",     "before", "after", "during", "from",
                                                "of",     "early", "mid",   "late",  "through"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool IsYearPreposition(std::string_view w) {
  static constexpr std::string_view kWords[] = {"in",   "since", "until",  "till",  "by",
                                                "before", "after", "during", "from", "of"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

// "start", "beginning", "end", "middle": a part of the span named after "of".
bool IsPartOfSpan(std::string_view w) {
  return w == "start" || w == "beginning" || w == "end" || w == "middle";
}

class EnglishScanner {
 public:
  EnglishScanner(std::string_view text, int64_t ref_day)
      : text_(text), toks_(Tokenize(text)), ref_day_(ref_day), ref_ymd_(Ymd(ref_day)) {}

  void Scan(std::vector<TimeMention>* out) {
    size_t i = 0;
    while (i < toks_.size()) {
      size_t end_tok = 0;
      size_t first_tok = i;
      std::optional<DayRange> r = Match(i, &first_tok, &end_tok);
      if (r && r->end > r->start) {
        out->push_back(MakeMention(text_, toks_[first_tok].b, toks_[end_tok - 1].e, *r));
        i = end_tok;
      } else {
        ++i;
      }
    }
  }

 private:
  bool Is(size_t i, std::string_view w) const { return i < toks_.size() && toks_[i].lower == w; }
  // Token i exists and is separated from token i - 1 by spaces only.
  bool Next(size_t i) const { return i < toks_.size() && IsSpaceGap(toks_[i].gap); }
  bool NextIs(size_t i, std::string_view w) const { return Next(i) && toks_[i].lower == w; }
  std::string_view Prev(size_t i) const {
    return i > 0 && IsSpaceGap(toks_[i].gap) ? std::string_view(toks_[i - 1].lower) : "";
  }
  int ref_year() const { return static_cast<int>(ref_ymd_.year()); }
  unsigned ref_month() const { return static_cast<unsigned>(ref_ymd_.month()); }

  std::optional<DayRange> Match(size_t i, size_t* first, size_t* end) {
    const std::string& w = toks_[i].lower;
    *first = i;
    // The day before yesterday / after tomorrow.
    if (w == "the" && NextIs(i + 1, "day") && Next(i + 3)) {
      if (NextIs(i + 2, "before") && toks_[i + 3].lower == "yesterday") {
        *end = i + 4;
        return Days(ref_day_ - 2, 1);
      }
      if (NextIs(i + 2, "after") && toks_[i + 3].lower == "tomorrow") {
        *end = i + 4;
        return Days(ref_day_ + 2, 1);
      }
    }
    // A part of a span: "the start of the month", "the end of last year", "the beginning of March"
    // (the whole span: its part is no finer a time for valid time).
    if (w == "the" && Next(i + 1) && IsPartOfSpan(toks_[i + 1].lower) && NextIs(i + 2, "of") && Next(i + 3)) {
      if (Is(i + 3, "the") && Next(i + 4)) {
        const std::string& unit = toks_[i + 4].lower;
        *end = i + 5;
        if (unit == "week") return Week(ref_day_, 0);
        if (unit == "month") return Month(ref_year(), ref_month(), 0);
        if (unit == "year") return Year(ref_year());
      }
      size_t inner_first = 0, inner_end = 0;
      if (std::optional<DayRange> r = Match(i + 3, &inner_first, &inner_end); r && inner_first == i + 3) {
        *first = i;
        *end = inner_end;
        return r;
      }
      *first = i;
    }
    if (w == "yesterday" || w == "today" || w == "tonight" || w == "tomorrow") {
      *end = i + 1;
      int64_t offset = w == "yesterday" ? -1 : w == "tomorrow" ? 1 : 0;
      return Days(ref_day_ + offset, 1);
    }
    if (w == "this" && Next(i + 1)) {
      const std::string& n = toks_[i + 1].lower;
      if (n == "morning" || n == "afternoon" || n == "evening") {
        *end = i + 2;
        return Days(ref_day_, 1);
      }
      if (n == "past" && Next(i + 2) && (Is(i + 2, "week") || Is(i + 2, "weekend"))) {
        *end = i + 3;
        return Is(i + 2, "week") ? Week(ref_day_, -1) : Weekend(ref_day_, -1);
      }
    }
    if ((w == "last" || w == "this" || w == "next") && Next(i + 1)) {
      std::string_view prev = Prev(i);
      // "the last week" / "the next year" mean a span relative to something else: skip.
      if (prev == "the") return std::nullopt;
      const std::string& n = toks_[i + 1].lower;
      int offset = w == "last" ? -1 : w == "next" ? 1 : 0;
      *end = i + 2;
      if (w == "last" && n == "night") return Days(ref_day_ - 1, 1);
      if (n == "week") return Week(ref_day_, offset);
      if (n == "weekend") return Weekend(ref_day_, offset);
      if (n == "month") return Month(ref_year(), ref_month(), offset);
      if (n == "year") return Year(ref_year() + offset);
      int wd = WeekdayIndex(n);
      if (wd >= 0 && w == "last") {
        int back = (IsoWeekdayIndex(ref_day_) - wd + 7) % 7;
        if (back == 0) back = 7;
        return Days(ref_day_ - back, 1);
      }
      int month = MonthNumber(n);
      if (month > 0 && IsFullMonthName(n)) {  // "last mar" is not a month
        // Written "last May 2022" is a plain date.
        if (Next(i + 2) && YearNumber(toks_[i + 2]) > 0) return std::nullopt;
        if (w == "this") return Month(ref_year(), static_cast<unsigned>(month), 0);
        int year = ref_year();
        if (w == "last") {
          if (static_cast<unsigned>(month) >= ref_month()) --year;
        } else if (static_cast<unsigned>(month) <= ref_month()) {
          ++year;
        }
        return Month(year, static_cast<unsigned>(month), 0);
      }
    }
    // N units ago.
    if (int n = CountWord(toks_[i]); n > 0 && Next(i + 1) && NextIs(i + 2, "ago")) {
      if (int unit = UnitOf(toks_[i + 1].lower); unit != 0) {
        bool plural = toks_[i + 1].lower.back() == 's';
        if ((n == 1) == !plural || toks_[i].digits) {
          *end = i + 3;
          return UnitsAgo(ref_day_, static_cast<char>(unit), n);
        }
      }
    }
    // ISO dates: 2023-05-08, 2023/05/08.
    if (int y = YearNumber(toks_[i]); y > 0 && i + 2 < toks_.size()) {
      std::string_view g1 = toks_[i + 1].gap;
      std::string_view g2 = toks_[i + 2].gap;
      if ((g1 == "-" || g1 == "/") && g2 == g1 && toks_[i + 1].digits && toks_[i + 2].digits &&
          toks_[i + 1].lower.size() <= 2 && toks_[i + 2].lower.size() <= 2) {
        // Not part of a longer digit/hyphen run ("2023-05-08-1").
        bool tail_ok = i + 3 >= toks_.size() || !(toks_[i + 3].gap == g1);
        bool head_ok = i == 0 || !(toks_[i].gap == "-" || toks_[i].gap == "/");
        if (tail_ok && head_ok) {
          *end = i + 3;
          return Date(y, static_cast<unsigned>(std::stoi(toks_[i + 1].lower)),
                      static_cast<unsigned>(std::stoi(toks_[i + 2].lower)));
        }
        return std::nullopt;
      }
    }
    // Month first: May 8, 2023 / May 8 / May 2023 / (in) May.
    if (int month = MonthNumber(w); month > 0) {
      std::string_view prev = Prev(i);
      bool after_prep = IsMonthPreposition(prev);
      bool ambiguous = (w == "may" || w == "march" || w == "mar") && !toks_[i].capital;
      if (ambiguous && !after_prep) return std::nullopt;
      size_t j = i + 1;
      if (Next(j) && DayNumber(toks_[j]) > 0 && !(toks_[j].digits && toks_[j].lower.size() == 4)) {
        unsigned day = DayNumber(toks_[j]);
        if (j + 1 < toks_.size() && IsCommaGap(toks_[j + 1].gap) && YearNumber(toks_[j + 1]) > 0) {
          *end = j + 2;
          return Date(YearNumber(toks_[j + 1]), static_cast<unsigned>(month), day);
        }
        *end = j + 1;
        return YearImplied(Date(ref_year(), static_cast<unsigned>(month), day));
      }
      if (j < toks_.size() && IsCommaGap(toks_[j].gap) && YearNumber(toks_[j]) > 0) {
        *end = j + 1;
        return Month(YearNumber(toks_[j]), static_cast<unsigned>(month), 0);
      }
      // "May of 2026": the year is written.
      if (NextIs(j, "of") && Next(j + 1) && YearNumber(toks_[j + 1]) > 0) {
        *end = j + 2;
        return Month(YearNumber(toks_[j + 1]), static_cast<unsigned>(month), 0);
      }
      // A bare month: only after a preposition, and not an abbreviation ("in mar").
      if (after_prep && IsFullMonthName(w)) {
        *end = i + 1;
        if (prev == "early" || prev == "mid" || prev == "late") *first = i - 1;
        return YearImplied(Month(ref_year(), static_cast<unsigned>(month), 0));
      }
      return std::nullopt;
    }
    // Day first: 8 May 2023 / 8th of May / the 8th of May 2023.
    if (unsigned day = DayNumber(toks_[i]); day > 0) {
      size_t j = i + 1;
      if (NextIs(j, "of")) ++j;
      if (Next(j) && MonthNumber(toks_[j].lower) > 0) {
        const Token& mt = toks_[j];
        int month = MonthNumber(mt.lower);
        bool has_year = j + 1 < toks_.size() && IsCommaGap(toks_[j + 1].gap) &&
                        YearNumber(toks_[j + 1]) > 0;
        bool ambiguous = (mt.lower == "may" || mt.lower == "march" || mt.lower == "mar") &&
                         !mt.capital;
        if (ambiguous && !has_year) return std::nullopt;
        if (i > 0 && Prev(i) == "the") *first = i - 1;
        if (has_year) {
          *end = j + 2;
          return Date(YearNumber(toks_[j + 1]), static_cast<unsigned>(month), day);
        }
        *end = j + 1;
        return YearImplied(Date(ref_year(), static_cast<unsigned>(month), day));
      }
    }
    // A year after a preposition: in 2023.
    if (int y = YearNumber(toks_[i]); y > 0 && IsYearPreposition(Prev(i))) {
      // Not a count ("in 2023 steps" is unusual; "2023 people" is not a year).
      if (Next(i + 1) && UnitOf(toks_[i + 1].lower) != 0) return std::nullopt;
      *end = i + 1;
      return Year(y);
    }
    return std::nullopt;
  }

  std::string_view text_;
  std::vector<Token> toks_;
  int64_t ref_day_;
  date::year_month_day ref_ymd_;
};

// ---------------------------------------------------------------------------------------------
// Chinese

bool StartsWith(std::string_view text, size_t p, std::string_view lit) {
  return text.size() - p >= lit.size() && text.compare(p, lit.size(), lit) == 0;
}

// Length in bytes of the UTF-8 sequence starting at p (1 for invalid bytes).
size_t CharLen(std::string_view text, size_t p) {
  unsigned char c = static_cast<unsigned char>(text[p]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (p + n > text.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[p + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

// A Chinese digit (〇零一二两三四五六七八九) at p: its value, or -1.
int CnDigit(std::string_view text, size_t p, size_t* len) {
  static constexpr std::pair<std::string_view, int> kDigits[] = {
      {"〇", 0}, {"零", 0}, {"一", 1}, {"二", 2}, {"两", 2}, {"三", 3},
      {"四", 4}, {"五", 5}, {"六", 6}, {"七", 7}, {"八", 8}, {"九", 9}};
  for (const auto& [lit, v] : kDigits) {
    if (StartsWith(text, p, lit)) {
      *len = lit.size();
      return v;
    }
  }
  return -1;
}

// A number at p: ASCII digits (up to 4), or Chinese numerals up to 99 (十, 十二, 二十, 二十三),
// or four Chinese digits read digit by digit (二〇二三). Returns -1 when none; *end is set past it.
int ParseNumber(std::string_view text, size_t p, size_t* end) {
  size_t q = p;
  if (q < text.size() && text[q] >= '0' && text[q] <= '9') {
    int v = 0;
    while (q < text.size() && text[q] >= '0' && text[q] <= '9') {
      if (q - p >= 4) return -1;
      v = v * 10 + (text[q] - '0');
      ++q;
    }
    *end = q;
    return v;
  }
  // Digit by digit (years).
  {
    size_t r = p;
    int v = 0;
    int count = 0;
    size_t len = 0;
    int d;
    while (r < text.size() && (d = CnDigit(text, r, &len)) >= 0 && count < 4) {
      v = v * 10 + d;
      r += len;
      ++count;
    }
    if (count == 4 && !StartsWith(text, r, "十")) {
      *end = r;
      return v;
    }
  }
  size_t len = 0;
  int tens = 0;
  int first = CnDigit(text, q, &len);
  if (first >= 0) {
    q += len;
    if (StartsWith(text, q, "十")) {
      tens = first;
      q += std::string_view("十").size();
    } else {
      *end = q;
      return first;
    }
  } else if (StartsWith(text, q, "十")) {
    tens = 1;
    q += std::string_view("十").size();
  } else {
    return -1;
  }
  if (tens == 0) return -1;  // "零十"
  int ones = 0;
  if (q < text.size()) {
    int d = CnDigit(text, q, &len);
    if (d > 0) {
      ones = d;
      q += len;
    }
  }
  *end = q;
  return tens * 10 + ones;
}

class ChineseScanner {
 public:
  ChineseScanner(std::string_view text, int64_t ref_day)
      : text_(text), ref_day_(ref_day), ref_ymd_(Ymd(ref_day)) {}

  void Scan(std::vector<TimeMention>* out) {
    size_t p = 0;
    while (p < text_.size()) {
      unsigned char c = static_cast<unsigned char>(text_[p]);
      // Every Chinese pattern starts with an ASCII digit or a three-byte character.
      if ((c >= '0' && c <= '9') || (c >> 4) == 14) {
        size_t end = 0;
        std::optional<DayRange> r = Match(p, &end);
        if (r && r->end > r->start && end > p) {
          out->push_back(MakeMention(text_, p, end, *r));
          p = end;
          continue;
        }
      }
      // Skip the rest of an ASCII digit run, so "12月" is never read from its "2".
      if (c >= '0' && c <= '9') {
        while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9') ++p;
        continue;
      }
      p += CharLen(text_, p);
    }
  }

 private:
  int ref_year() const { return static_cast<int>(ref_ymd_.year()); }
  unsigned ref_month() const { return static_cast<unsigned>(ref_ymd_.month()); }

  bool Lit(size_t* q, std::string_view lit) const {
    if (!StartsWith(text_, *q, lit)) return false;
    *q += lit.size();
    return true;
  }
  template <size_t N>
  bool AnyLit(size_t* q, const std::string_view (&lits)[N]) const {
    for (std::string_view lit : lits) {
      if (Lit(q, lit)) return true;
    }
    return false;
  }

  // After a year: optional month, then optional day. Returns the range and sets *end.
  // ASCII spaces may stand between the numbers and 年/月/日 ("2026 年 6 月 1 日").
  size_t SkipBlanks(size_t q) const {
    while (q < text_.size() && text_[q] == ' ') ++q;
    return q;
  }

  std::optional<DayRange> MonthDayOfYear(int year, size_t q, size_t* end, bool need_month) {
    size_t after_num = 0;
    int month = ParseNumber(text_, SkipBlanks(q), &after_num);
    after_num = month >= 0 ? SkipBlanks(after_num) : after_num;
    if (month >= 1 && month <= 12 && StartsWith(text_, after_num, "月")) {
      size_t r = SkipBlanks(after_num + std::string_view("月").size());
      size_t after_day = 0;
      int day = ParseNumber(text_, r, &after_day);
      after_day = day >= 0 ? SkipBlanks(after_day) : after_day;
      if (day >= 1 && day <= 31 &&
          (StartsWith(text_, after_day, "日") || StartsWith(text_, after_day, "号"))) {
        *end = after_day + 3;
        return Date(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
      }
      Lit(&r, "份");
      *end = r;
      return Month(year, static_cast<unsigned>(month), 0);
    }
    if (need_month) return std::nullopt;
    *end = q;
    return Year(year);
  }

  std::optional<DayRange> Match(size_t p, size_t* end) {
    size_t q = p;
    // Relative days.
    static constexpr std::pair<std::string_view, int> kDays[] = {
        {"大前天", -3}, {"大后天", 3},  {"前天", -2}, {"后天", 2},  {"昨天", -1}, {"昨日", -1},
        {"昨晚", -1},   {"今天", 0},    {"今日", 0},  {"今晚", 0},  {"今早", 0},  {"明天", 1},
        {"明日", 1},    {"明晚", 1},    {"明早", 1}};
    for (const auto& [lit, offset] : kDays) {
      if (StartsWith(text_, p, lit)) {
        *end = p + lit.size();
        return Days(ref_day_ + offset, 1);
      }
    }
    // Relative years, optionally followed by a month and day: 去年五月, 明年三月八号.
    static constexpr std::pair<std::string_view, int> kYears[] = {
        {"前年", -2}, {"去年", -1}, {"今年", 0}, {"明年", 1}, {"后年", 2}};
    for (const auto& [lit, offset] : kYears) {
      if (StartsWith(text_, p, lit)) {
        return MonthDayOfYear(ref_year() + offset, p + lit.size(), end, false);
      }
    }
    // Weeks: 上周, 上个星期, 这周, 本周, 下周, …, optionally + weekday or 末.
    {
      int offset = 0;
      bool rel = false;
      if (Lit(&q, "上")) {
        offset = -1;
        rel = true;
      } else if (Lit(&q, "下")) {
        offset = 1;
        rel = true;
      } else if (Lit(&q, "这") || Lit(&q, "本")) {
        rel = true;
      }
      if (rel) {
        size_t r = q;
        Lit(&r, "个");
        static constexpr std::string_view kWeekWords[] = {"星期", "礼拜", "周"};
        size_t w = r;
        if (AnyLit(&w, kWeekWords)) {
          if (Lit(&w, "末")) {
            *end = w;
            return Weekend(ref_day_, offset);
          }
          static constexpr std::pair<std::string_view, int> kWeekdays[] = {
              {"一", 0}, {"二", 1}, {"三", 2}, {"四", 3}, {"五", 4}, {"六", 5}, {"日", 6}, {"天", 6}};
          for (const auto& [lit, idx] : kWeekdays) {
            if (StartsWith(text_, w, lit)) {
              *end = w + lit.size();
              int64_t monday = ref_day_ - IsoWeekdayIndex(ref_day_) + 7LL * offset;
              return Days(monday + idx, 1);
            }
          }
          // "本周年" and the like are not weeks.
          if (StartsWith(text_, w, "年")) return std::nullopt;
          *end = w;
          return Week(ref_day_, offset);
        }
        size_t m = q;
        if (Lit(&m, "个月") || Lit(&m, "月")) {
          // 上月 / 上个月 / 本月 / 这个月 / 下个月 (not "这月" alone: rare and ambiguous).
          if (StartsWith(text_, p, "这月")) return std::nullopt;
          *end = m;
          return Month(ref_year(), ref_month(), offset);
        }
        q = p;
      }
    }
    // Numbers: years, months, days, and "N units ago/later".
    size_t after_num = 0;
    int n = ParseNumber(text_, p, &after_num);
    if (n < 0) return std::nullopt;
    q = after_num;
    if (n >= 1000 && n <= 2199 && StartsWith(text_, SkipBlanks(q), "年")) q = SkipBlanks(q);
    if (StartsWith(text_, q, "年") && n >= 1000 && n <= 2199) {
      int year = n;
      if (year < 1900) return std::nullopt;
      return MonthDayOfYear(year, q + std::string_view("年").size(), end, false);
    }
    if (n >= 1 && n <= 12 && StartsWith(text_, q, "月")) {
      return YearImplied(MonthDayOfYear(ref_year(), p, end, true));
    }
    if (n >= 1 && n < 1000) {
      char unit = 0;
      size_t r = q;
      if (Lit(&r, "天")) {  // not 日: "8日前" is "before the 8th"
        unit = 'd';
      } else if (Lit(&r, "个星期") || Lit(&r, "星期") || Lit(&r, "周") || Lit(&r, "个礼拜")) {
        unit = 'w';
      } else if (Lit(&r, "个月")) {
        unit = 'm';
      } else if (n < 200 && Lit(&r, "年")) {
        unit = 'y';
      }
      if (unit != 0) {
        static constexpr std::string_view kBefore[] = {"之前", "以前", "前"};
        static constexpr std::string_view kAfter[] = {"之后", "以后", "后"};
        if (AnyLit(&r, kBefore)) {
          *end = r;
          return UnitsAgo(ref_day_, unit, n);
        }
        if (AnyLit(&r, kAfter)) {
          *end = r;
          return UnitsAgo(ref_day_, unit, -n);
        }
      }
    }
    return std::nullopt;
  }

  std::string_view text_;
  int64_t ref_day_;
  date::year_month_day ref_ymd_;
};

}  // namespace

std::vector<TimeMention> FindTimeMentions(std::string_view text, TimestampMs reference,
                                          int utc_offset_minutes) {
  // The calendar arithmetic below works in UTC days; for another offset it runs on local wall
  // time (the reference shifted by the offset) and the ranges found are shifted back.
  const int64_t shift = OffsetMs(utc_offset_minutes);
  if (shift != 0) {
    std::vector<TimeMention> local = FindTimeMentions(text, reference + shift, 0);
    for (TimeMention& m : local) {
      m.start -= shift;
      m.end -= shift;
    }
    return local;
  }
  std::vector<TimeMention> out;
  int64_t ref_day = DayOfMs(reference);
  if (ref_day < kMinDay || ref_day > kMaxDay || text.empty()) return out;
  EnglishScanner(text, ref_day).Scan(&out);
  // Chinese patterns need non-ASCII bytes.
  bool any_non_ascii = std::any_of(text.begin(), text.end(),
                                   [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  if (any_non_ascii) {
    size_t english = out.size();
    ChineseScanner(text, ref_day).Scan(&out);
    if (english > 0 && out.size() > english) {
      std::sort(out.begin(), out.end(), [](const TimeMention& a, const TimeMention& b) {
        return a.byte_start != b.byte_start ? a.byte_start < b.byte_start
                                            : a.byte_end > b.byte_end;
      });
      std::vector<TimeMention> kept;
      for (auto& m : out) {
        if (kept.empty() || m.byte_start >= kept.back().byte_end) kept.push_back(std::move(m));
      }
      out = std::move(kept);
    }
  }
  return out;
}

TimeMention PreviousYearOf(const TimeMention& mention, int utc_offset_minutes) {
  const int64_t shift = OffsetMs(utc_offset_minutes);
  auto day_of = [&](TimestampMs t) { return DayOfMs(t + shift); };
  // The same month and day one year earlier; Feb 29 goes back to the last leap year's.
  auto year_before = [](int64_t day) {
    date::year_month_day earlier = Ymd(day) - date::years{1};
    for (int back = 1; !earlier.ok() && back < 8; ++back) earlier = earlier - date::years{1};
    return DayOf(earlier);
  };
  TimeMention out = mention;
  const int64_t start_day = year_before(day_of(mention.start));
  const int64_t end_day = mention.precision == Precision::kDay
                              ? start_day + (day_of(mention.end) - day_of(mention.start))
                              : year_before(day_of(mention.end));
  out.start = start_day * kMsPerDay - shift;
  out.end = end_day * kMsPerDay - shift;
  return out;
}

std::string_view PrecisionName(TimeMention::Precision precision) {
  switch (precision) {
    case Precision::kDay:
      return "day";
    case Precision::kWeek:
      return "week";
    case Precision::kMonth:
      return "month";
    case Precision::kYear:
      return "year";
  }
  return "day";
}

}  // namespace engram::text
