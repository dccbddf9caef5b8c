#include "text/time_expression.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "util/time.h"

namespace engram::text {
namespace {

using P = TimeMention::Precision;

TimestampMs Ms(const char* iso) {
  auto t = ParseTimestamp(iso);
  EXPECT_TRUE(t.has_value()) << iso;
  return t.value_or(0);
}

// 2026-03-10 is a Tuesday.
const TimestampMs kRef = Ms("2026-03-10T09:00:00Z");

std::string Day(TimestampMs ms) { return FormatTimestamp(ms).substr(0, 10); }

// The only mention of `text`: "phrase|start|end|precision" with dates as YYYY-MM-DD.
std::string One(std::string_view text, TimestampMs ref = kRef) {
  std::vector<TimeMention> all = FindTimeMentions(text, ref);
  if (all.size() != 1) return "count=" + std::to_string(all.size());
  const TimeMention& m = all[0];
  EXPECT_EQ(m.phrase, text.substr(m.byte_start, m.byte_end - m.byte_start));
  return m.phrase + "|" + Day(m.start) + "|" + Day(m.end) + "|" +
         std::string(PrecisionName(m.precision));
}

TEST(TimeExpressionTest, B35RelativeDaysResolveAgainstTheReference) {
  EXPECT_EQ(One("I visited City-A yesterday."), "yesterday|2026-03-09|2026-03-10|day");
  EXPECT_EQ(One("I visited City-A last Tuesday."), "last Tuesday|2026-03-03|2026-03-04|day");
  EXPECT_EQ(One("I visited City-A two weeks ago."), "two weeks ago|2026-02-24|2026-03-03|week");
  // The same text on another reference day gives another date: never the wall clock.
  EXPECT_EQ(One("I visited City-A yesterday.", Ms("2023-05-08T23:59:59Z")),
            "yesterday|2023-05-07|2023-05-08|day");
}

// A date without a year is in the reference's year and says so (year_implied), so that a reader
// can take the occurrence just past instead (PreviousYearOf; breaker D2: "Dec 31st" asked on New
// Year's Day).
TEST(TimeExpressionTest, YearlessDatesSayTheirYearWasImplied) {
  const TimestampMs new_year = Ms("2027-01-01T09:00:00Z");
  auto implied = [&](std::string_view text) {
    std::vector<TimeMention> all = FindTimeMentions(text, new_year);
    if (all.size() != 1) return std::string("count=") + std::to_string(all.size());
    return std::string(all[0].year_implied ? "implied " : "written ") + Day(all[0].start);
  };
  EXPECT_EQ(implied("on Dec 31st"), "implied 2027-12-31");
  EXPECT_EQ(implied("on the 31st of December"), "implied 2027-12-31");
  EXPECT_EQ(implied("in December"), "implied 2027-12-01");
  EXPECT_EQ(implied("12月31日"), "implied 2027-12-31");
  EXPECT_EQ(implied("十二月"), "implied 2027-12-01");
  EXPECT_EQ(implied("on Dec 31, 2026"), "written 2026-12-31");
  EXPECT_EQ(implied("in December 2026"), "written 2026-12-01");
  EXPECT_EQ(implied("last December"), "written 2026-12-01");
  EXPECT_EQ(implied("去年12月"), "written 2026-12-01");
  EXPECT_EQ(implied("yesterday"), "written 2026-12-31");
  EXPECT_EQ(implied("in May of 2026"), "written 2026-05-01");

  auto earlier = [&](std::string_view text, TimestampMs ref, int offset) {
    std::vector<TimeMention> all = FindTimeMentions(text, ref, offset);
    if (all.size() != 1) return std::string("count=") + std::to_string(all.size());
    TimeMention m = PreviousYearOf(all[0], offset);
    EXPECT_EQ(m.phrase, all[0].phrase);
    EXPECT_EQ(m.precision, all[0].precision);
    return FormatTimestamp(m.start) + "|" + FormatTimestamp(m.end);
  };
  EXPECT_EQ(earlier("on Dec 31st", new_year, 0), "2026-12-31T00:00:00.000Z|2027-01-01T00:00:00.000Z");
  EXPECT_EQ(earlier("in December", new_year, 0), "2026-12-01T00:00:00.000Z|2027-01-01T00:00:00.000Z");
  // Local days: midnight in Shanghai is 16:00Z the day before.
  EXPECT_EQ(earlier("12月31日", new_year, 480), "2026-12-30T16:00:00.000Z|2026-12-31T16:00:00.000Z");
  // A leap day goes back to the last leap year's.
  EXPECT_EQ(earlier("on Feb 29", Ms("2028-01-10T09:00:00Z"), 0),
            "2024-02-29T00:00:00.000Z|2024-03-01T00:00:00.000Z");
  EXPECT_EQ(earlier("in February", Ms("2028-01-10T09:00:00Z"), 0),
            "2027-02-01T00:00:00.000Z|2027-03-01T00:00:00.000Z");
}

// Calendar words are the speaker's local days: at 01:00 on 8 May in Shanghai (+08:00) it is still
// 7 May in UTC, but "yesterday" is 7 May local = [6 May 16:00Z, 7 May 16:00Z).
TEST(TimeExpressionTest, DaysFollowTheUtcOffset) {
  const TimestampMs asked = Ms("2023-05-08T01:00:00+08:00");
  auto at = [&](std::string_view text, int offset) {
    std::vector<TimeMention> all = FindTimeMentions(text, asked, offset);
    if (all.size() != 1) return "count=" + std::to_string(all.size());
    return FormatTimestamp(all[0].start) + "|" + FormatTimestamp(all[0].end);
  };
  EXPECT_EQ(at("yesterday", 480), "2023-05-06T16:00:00.000Z|2023-05-07T16:00:00.000Z");
  EXPECT_EQ(at("yesterday", 0), "2023-05-06T00:00:00.000Z|2023-05-07T00:00:00.000Z");
  EXPECT_EQ(at("today", 480), "2023-05-07T16:00:00.000Z|2023-05-08T16:00:00.000Z");
  EXPECT_EQ(at("昨天", 480), "2023-05-06T16:00:00.000Z|2023-05-07T16:00:00.000Z");
  // Weeks, months and explicit dates begin at local midnight too; west of UTC as well.
  EXPECT_EQ(at("in May 2023", 480), "2023-04-30T16:00:00.000Z|2023-05-31T16:00:00.000Z");
  EXPECT_EQ(at("on May 4th", -300), "2023-05-04T05:00:00.000Z|2023-05-05T05:00:00.000Z");
  // The default is UTC; impossible offsets are clamped to −12:00…+14:00.
  EXPECT_EQ(FindTimeMentions("yesterday", asked)[0].start, Ms("2023-05-06"));
  EXPECT_EQ(at("yesterday", 100000), at("yesterday", 14 * 60));
}

TEST(TimeExpressionTest, EnglishDays) {
  EXPECT_EQ(One("today is nice"), "today|2026-03-10|2026-03-11|day");
  EXPECT_EQ(One("Tonight we dance"), "Tonight|2026-03-10|2026-03-11|day");
  EXPECT_EQ(One("see you tomorrow!"), "tomorrow|2026-03-11|2026-03-12|day");
  EXPECT_EQ(One("last night was fun"), "last night|2026-03-09|2026-03-10|day");
  EXPECT_EQ(One("this morning I ran"), "this morning|2026-03-10|2026-03-11|day");
  EXPECT_EQ(One("the day before yesterday"), "the day before yesterday|2026-03-08|2026-03-09|day");
  EXPECT_EQ(One("the day after tomorrow"), "the day after tomorrow|2026-03-12|2026-03-13|day");
  EXPECT_EQ(One("yesterday's game"), "yesterday|2026-03-09|2026-03-10|day");
}

TEST(TimeExpressionTest, EnglishWeeksMonthsYears) {
  EXPECT_EQ(One("last week"), "last week|2026-03-02|2026-03-09|week");
  EXPECT_EQ(One("this week"), "this week|2026-03-09|2026-03-16|week");
  EXPECT_EQ(One("next week"), "next week|2026-03-16|2026-03-23|week");
  EXPECT_EQ(One("last weekend"), "last weekend|2026-03-07|2026-03-09|day");
  EXPECT_EQ(One("this past weekend"), "this past weekend|2026-03-07|2026-03-09|day");
  EXPECT_EQ(One("this weekend"), "this weekend|2026-03-14|2026-03-16|day");
  EXPECT_EQ(One("next weekend"), "next weekend|2026-03-21|2026-03-23|day");
  EXPECT_EQ(One("last month"), "last month|2026-02-01|2026-03-01|month");
  EXPECT_EQ(One("this month"), "this month|2026-03-01|2026-04-01|month");
  EXPECT_EQ(One("next month"), "next month|2026-04-01|2026-05-01|month");
  EXPECT_EQ(One("last year"), "last year|2025-01-01|2026-01-01|year");
  EXPECT_EQ(One("next year"), "next year|2027-01-01|2028-01-01|year");
  // Across a year boundary.
  EXPECT_EQ(One("last month", Ms("2026-01-15T00:00:00Z")), "last month|2025-12-01|2026-01-01|month");
  // A part of a span is that span (session 43: "Kaiser Permanente at the start of the month").
  EXPECT_EQ(One("at the start of the month"), "the start of the month|2026-03-01|2026-04-01|month");
  EXPECT_EQ(One("by the end of the year"), "the end of the year|2026-01-01|2027-01-01|year");
  EXPECT_EQ(One("at the end of last year"), "the end of last year|2025-01-01|2026-01-01|year");
  EXPECT_EQ(One("at the beginning of March"), "the beginning of March|2026-03-01|2026-04-01|month");
  EXPECT_EQ(One("at the start of the race"), "count=0");
}

TEST(TimeExpressionTest, LastWeekdayIsStrictlyBeforeTheReferenceDay) {
  EXPECT_EQ(One("last Monday"), "last Monday|2026-03-09|2026-03-10|day");
  EXPECT_EQ(One("last friday"), "last friday|2026-03-06|2026-03-07|day");
  EXPECT_EQ(One("last Wednesday"), "last Wednesday|2026-03-04|2026-03-05|day");
  // Bare and "next" weekdays are ambiguous: not emitted.
  EXPECT_EQ(One("on Tuesday"), "count=0");
  EXPECT_EQ(One("next Tuesday"), "count=0");
}

TEST(TimeExpressionTest, UnitsAgo) {
  EXPECT_EQ(One("3 days ago"), "3 days ago|2026-03-07|2026-03-08|day");
  EXPECT_EQ(One("a week ago"), "a week ago|2026-03-03|2026-03-10|week");
  EXPECT_EQ(One("twelve months ago"), "twelve months ago|2025-03-10|2025-04-10|month");
  EXPECT_EQ(One("one year ago"), "one year ago|2025-03-10|2026-03-10|year");
  EXPECT_EQ(One("a month ago", Ms("2026-03-31T00:00:00Z")), "a month ago|2026-02-28|2026-03-31|month");
  EXPECT_EQ(One("a few days ago"), "count=0");
}

TEST(TimeExpressionTest, EnglishDates) {
  EXPECT_EQ(One("on 2023-05-08 we met"), "2023-05-08|2023-05-08|2023-05-09|day");
  EXPECT_EQ(One("2023/5/8"), "2023/5/8|2023-05-08|2023-05-09|day");
  EXPECT_EQ(One("May 8, 2023"), "May 8, 2023|2023-05-08|2023-05-09|day");
  EXPECT_EQ(One("May 8th 2023"), "May 8th 2023|2023-05-08|2023-05-09|day");
  EXPECT_EQ(One("8 May 2023"), "8 May 2023|2023-05-08|2023-05-09|day");
  EXPECT_EQ(One("on the 8th of May, 2023"), "the 8th of May, 2023|2023-05-08|2023-05-09|day");
  EXPECT_EQ(One("since May 8"), "May 8|2026-05-08|2026-05-09|day");
  EXPECT_EQ(One("in May 2023"), "May 2023|2023-05-01|2023-06-01|month");
  EXPECT_EQ(One("in May"), "May|2026-05-01|2026-06-01|month");
  EXPECT_EQ(One("in early June"), "early June|2026-06-01|2026-07-01|month");
  EXPECT_EQ(One("last May"), "last May|2025-05-01|2025-06-01|month");
  EXPECT_EQ(One("last February"), "last February|2026-02-01|2026-03-01|month");
  EXPECT_EQ(One("next May"), "next May|2026-05-01|2026-06-01|month");
  EXPECT_EQ(One("in 2023"), "2023|2023-01-01|2024-01-01|year");
  EXPECT_EQ(One("Feb 30, 2023"), "count=0");  // not a real date
}

TEST(TimeExpressionTest, ModalMayIsNotAMonth) {
  EXPECT_EQ(One("I may go there"), "count=0");
  EXPECT_EQ(One("May I ask?"), "count=0");
  EXPECT_EQ(One("you may 2 times"), "count=0");
  EXPECT_EQ(One("we march on"), "count=0");
  EXPECT_EQ(One("2023 people came"), "count=0");
}

TEST(TimeExpressionTest, ChineseDays) {
  EXPECT_EQ(One("我昨天去了杭州"), "昨天|2026-03-09|2026-03-10|day");
  EXPECT_EQ(One("今天很好"), "今天|2026-03-10|2026-03-11|day");
  EXPECT_EQ(One("前天"), "前天|2026-03-08|2026-03-09|day");
  EXPECT_EQ(One("明天见"), "明天|2026-03-11|2026-03-12|day");
  EXPECT_EQ(One("大前天"), "大前天|2026-03-07|2026-03-08|day");
}

TEST(TimeExpressionTest, ChineseWeeksMonthsYears) {
  EXPECT_EQ(One("我上周去了北京"), "上周|2026-03-02|2026-03-09|week");
  EXPECT_EQ(One("上星期"), "上星期|2026-03-02|2026-03-09|week");
  EXPECT_EQ(One("上个星期"), "上个星期|2026-03-02|2026-03-09|week");
  EXPECT_EQ(One("下周"), "下周|2026-03-16|2026-03-23|week");
  EXPECT_EQ(One("本周"), "本周|2026-03-09|2026-03-16|week");
  EXPECT_EQ(One("上周二"), "上周二|2026-03-03|2026-03-04|day");
  EXPECT_EQ(One("下星期天"), "下星期天|2026-03-22|2026-03-23|day");
  EXPECT_EQ(One("上周末"), "上周末|2026-03-07|2026-03-09|day");
  EXPECT_EQ(One("上个月"), "上个月|2026-02-01|2026-03-01|month");
  EXPECT_EQ(One("下个月"), "下个月|2026-04-01|2026-05-01|month");
  EXPECT_EQ(One("去年"), "去年|2025-01-01|2026-01-01|year");
  EXPECT_EQ(One("今年"), "今年|2026-01-01|2027-01-01|year");
  EXPECT_EQ(One("明年"), "明年|2027-01-01|2028-01-01|year");
  EXPECT_EQ(One("我上班了"), "count=0");
}

TEST(TimeExpressionTest, ChineseUnitsAgoAndDates) {
  EXPECT_EQ(One("三天前"), "三天前|2026-03-07|2026-03-08|day");
  EXPECT_EQ(One("两周前"), "两周前|2026-02-24|2026-03-03|week");
  EXPECT_EQ(One("3个月前"), "3个月前|2025-12-10|2026-01-10|month");
  EXPECT_EQ(One("十二个月前"), "十二个月前|2025-03-10|2025-04-10|month");
  EXPECT_EQ(One("两年前"), "两年前|2024-03-10|2025-03-10|year");
  EXPECT_EQ(One("三天后"), "三天后|2026-03-13|2026-03-14|day");
  EXPECT_EQ(One("五月"), "五月|2026-05-01|2026-06-01|month");
  EXPECT_EQ(One("去年五月"), "去年五月|2025-05-01|2025-06-01|month");
  EXPECT_EQ(One("2023年5月8日"), "2023年5月8日|2023-05-08|2023-05-09|day");
  EXPECT_EQ(One("2023年5月"), "2023年5月|2023-05-01|2023-06-01|month");
  EXPECT_EQ(One("2023年"), "2023年|2023-01-01|2024-01-01|year");
  EXPECT_EQ(One("5月8日"), "5月8日|2026-05-08|2026-05-09|day");
  EXPECT_EQ(One("十二月二十五号"), "十二月二十五号|2026-12-25|2026-12-26|day");
  EXPECT_EQ(One("二〇二三年"), "二〇二三年|2023-01-01|2024-01-01|year");
  EXPECT_EQ(One("我们一起去"), "count=0");
  EXPECT_EQ(One("三个人"), "count=0");
}

TEST(TimeExpressionTest, SeveralMentionsInOrderWithoutOverlap) {
  std::string text = "Last week I was in Paris; 昨天 I came back and on May 8, 2023 I left.";
  std::vector<TimeMention> all = FindTimeMentions(text, kRef);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].phrase, "Last week");
  EXPECT_EQ(all[1].phrase, "昨天");
  EXPECT_EQ(all[2].phrase, "May 8, 2023");
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[i - 1].byte_end, all[i].byte_start);
}

TEST(TimeExpressionTest, ReferenceOutOfRangeGivesNothing) {
  EXPECT_TRUE(FindTimeMentions("yesterday", INT64_MAX).empty());
  EXPECT_TRUE(FindTimeMentions("yesterday", INT64_MIN).empty());
  EXPECT_EQ(FindTimeMentions("yesterday", 0).size(), 1u);
}

TEST(TimeExpressionTest, GarbageNeverCrashes) {
  std::mt19937 rng(7);
  const std::vector<std::string> pieces = {"last", " ", "May", "8", ",", "2023", "年", "月", "日",
                                           "上", "周", "个", "前", "\xff", "\xe4\xb8", "-", "/",
                                           "ago", "two", "weeks", "十", "二", "〇", "号", "the"};
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    int n = static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) text += pieces[rng() % pieces.size()];
    for (const TimeMention& m : FindTimeMentions(text, kRef)) {
      ASSERT_LE(m.byte_end, text.size());
      ASSERT_LT(m.byte_start, m.byte_end);
      ASSERT_LT(m.start, m.end);
    }
  }
  std::string huge(1 << 20, 'a');
  for (size_t i = 0; i < huge.size(); i += 7) huge[i] = ' ';
  EXPECT_TRUE(FindTimeMentions(huge, kRef).empty());
}

}  // namespace
}  // namespace engram::text
