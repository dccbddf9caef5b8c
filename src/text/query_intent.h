// text/query_intent.h — what a question asks about: the current state of things or their history.
//
// "Where do I live?" asks for the current value; "Where did I live before?", "What car did I use
// to drive?", "我之前住在哪里？" ask for values that were replaced. Issue 4: intent changes which
// claims are eligible — a history question also sees superseded and expired claims (each with its
// validity interval) and the events that were their evidence.
#ifndef ENGRAM_TEXT_QUERY_INTENT_H_
#define ENGRAM_TEXT_QUERY_INTENT_H_

#include <string_view>

namespace engram::text {

// True when the question (UTF-8; invalid bytes never match) contains a marker of the past state
// of something: English "used to", "before", "previously", "formerly", "originally", "at first",
// "in the past", "anymore", "any more", "no longer" (whole words, case-insensitive); Chinese 之前,
// 以前, 从前, 原来, 原先, 过去, 曾经, 以往 (substrings). "old" is not a marker: too common.
// Precision over recall: a missed marker only means the question is answered from current claims.
bool AsksAboutHistory(std::string_view question);

// True when the question asks how things stand now ("Where do I live?", "Which version does CI
// run?", "What's the status of the VPN?", "我现在住哪儿？", "项目用的 Java 版本是多少？"): it says
// nothing of the past — no AsksAboutHistory marker, no English past form ("did", "was", "were",
// "had", "ago", "last", "yesterday", "first", "ever"; "when" opening it or beside a verb in -ed or
// went, got…: "What do I listen to when I run?" asks a habit) and no Chinese one (了, 过, 曾, 那次,
// 那天, 时候 but not in 什么时候, 上次, 当时)
// — and, in English, it has a present form ("do", "does", "am", "is", "are", "'s", "'re", "now",
// "currently", "these days", "still", "right now"); a Chinese question
// is in the present unless marked. Recall puts the newest statement first among the items that
// answer such a question equally (recall/current_first.h).
bool AsksAboutPresentState(std::string_view question);

// True when the question asks how things usually are ("Where do I usually work from?", "我平时在哪个
// 办公室上班？"): it holds "usually", "normally", "typically", "generally", "most days", 平时, 平常,
// 一般, 通常 or 往常. A temporary change ("for this week I'm working from Lisbon") does not answer
// it (recall/current_first.h).
bool AsksAboutTheUsual(std::string_view question);

// True when the question names the present moment or a short span around it ("Who's on call right
// now?", "Which number should people call me on at the moment?", "我这几天怎么上班？"): "right now",
// "today", "tonight", "at the moment", "these days", "lately", "this week", "this month", "at
// present" (whole words, case-insensitive); 眼下, 此刻, 这会儿, 这几天, 这两天, 这周, 这个月, 这阵子,
// 最近, 这段时间, 今天. A bare "now", "currently"
// or 现在 does not: "Where do I live now?" asks where one lives, not where one sleeps till Friday.
// A state said with its end ("till Monday") answers only such a question (text/now_stance.h,
// kBounded).
bool NamesThePresent(std::string_view question);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_QUERY_INTENT_H_
