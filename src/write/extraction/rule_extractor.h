// write/extraction/rule_extractor.h — the default extractor: offline, deterministic, no model.
//
// Each sentence is read twice, and the readings merged:
//   * the fact frame (fact_frame_reader.h, issue 16): a grammar of clause kinds, subjects, parts,
//     attributes and values whose words are data (data/lexicon/*.tsv). Its frames become claims
//     through FrameToCandidate (frame_claims.h), the same code the LLM extractor's answers go
//     through. Only facts and changes may change a current value; plans, requirements,
//     quotations, wishes, denials and narrated past get a qualifier that keeps them out of every
//     conflict. Subjects are resolved ("component-00", "Priya", "my husband", the API the speaker
//     bumped), never defaulted to the speaker when the clause names someone or something else.
//     A de-identified context header (【去标识…】 … 【当前评测事件】) is never evidence.
//   * the phrase patterns below (rules_english.cc, rules_chinese.cc), for what the grammar does
//     not read yet (relations, activities, ages, habits, possession). A pattern claim is dropped
//     when a frame of its sentence overrules it (the same words, a named thing's clause, a kind
//     the patterns cannot tell); a question or a wish makes no claim at all.
//
// The phrase patterns:
//
// Who a claim is about (CandidateClaim::subject):
//   * the speaker: Event::speaker when set, else the role ("user"); "I", "we", "my wife and I",
//     "我", "我们" and subject-less sentences ("Joined a travel club.") are the speaker;
//   * a named third person: "my sister Mei lives in Hangzhou" gives has_relation(slot "sister",
//     value "Mei") for the speaker and lives_in "Hangzhou" for subject "Mei"; "Person-P works at
//     Org-O" gives subject "Person-P"; 我妹妹小梅住在杭州 gives subject 小梅;
//   * reported speech: "my friend said he moved to Paris" gives subject "my friend" (or the
//     friend's name when given) with qualifier "reported"; 我朋友说他搬到了巴黎 likewise.
// Which events count: role "user" events. Role "assistant" events only when the assistant is a
// named participant of a multi-party chat (its Event::speaker is set and the batch has another
// named speaker); the subject is then that name, never the user (bug_scenarios.md B48). Tool and
// system events never produce claims. Questions ("Do you like X?") produce nothing.
//
// What is read (predicates of extractor.h):
//   identity      name, age, birthday, hometown, lives_in (live in, moved to, 住在, 搬到), job,
//                 employer (work at/for, 在X工作), school (study at, 在X上学)
//   preference    likes (like, love, enjoy, adore, be into, be a fan of; hate/dislike/can't
//                 stand and 不喜欢/讨厌 → negated), prefers, favorite (slot = what)
//   possession    owns (own, have, have got, bought, got a, adopted; sold/lost → negated)
//   relationship  has_relation (slot = relation word as written, value = the name)
//   activity      went_to, joined, attended, started, finished, plans_to (plan to, going to,
//                 will, thinking of, hoping to, 打算, 准备, 计划, 想), did (other past-tense verbs:
//                 "painted a sunset"), doing (progressive and perfect-progressive: "I'm learning
//                 the guitar", "I've been writing articles")
//   habit         habit (slot = the verb's base form, value = its object; "I drink X every
//                 morning", "I stopped drinking X" → negated, 每天喝咖啡, 不再喝咖啡)
//   state         uses (slot from a small lexicon: ui_theme, editor, os, browser, shell, language;
//                 "switched to light mode", 换成浅色模式), status (married, vegetarian, retired …)
// Qualifiers: negated (not, n't, never, no longer, 不, 没, 不再), temporary (for now, temporarily,
// 暂时, 先), habitual (every day/morning/week, usually, always, often, 每天, 经常), planned (plan to,
// going to, will, thinking of, a future time, 打算, 准备, 想), past (used to, 以前), reported.
//
// Values are byte-exact spans of the event content, trimmed of punctuation, leading articles and
// time expressions, and cut at clause boundaries (commas, "and", "but", "because", 。，, 因为…).
// Time: text::FindTimeMentions on the content with reference = occurred_at; a mention in the
// claim's sentence sets valid_from (its start) and time_phrase; otherwise valid_from is the
// event's occurred_at. `text` is a statement in the source language ("Lin lives in Hangzhou",
// "Lin 住在杭州"), with a resolved date appended when a time was mentioned. evidence_span is the
// sentence (a verbatim substring of the event content). Confidence 0.55–0.9 by pattern strength;
// importance 0.8 for identity, 0.7 relationship, 0.6 preference/state, 0.4–0.5 otherwise.
//
// Thread safety: Extract keeps no state between calls and may be called from several threads at
// once (the lexicons are immutable statics).
#ifndef ENGRAM_WRITE_EXTRACTION_RULE_EXTRACTOR_H_
#define ENGRAM_WRITE_EXTRACTION_RULE_EXTRACTOR_H_

#include <string>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "write/extraction/extractor.h"

namespace engram::extraction {

class RuleExtractor final : public Extractor {
 public:
  RuleExtractor() = default;

  // "rules/1".
  std::string Name() const override;

  // Candidate claims of `batch` (see the file comment), in event order and, within an event, in
  // text order. source_events holds the index of the event in `batch`. Any content is accepted
  // (invalid UTF-8 and huge texts included: at most the first 64 KiB of an event is read).
  // Errors: kInternal only when the grammar fails on a text (a defect; the message names it): the
  // batch's jobs are retried and then left failed, the events stay.
  Result<std::vector<CandidateClaim>> Extract(const std::vector<Event>& batch) override;

 private:
  Result<std::vector<CandidateClaim>> ExtractBatch(const std::vector<Event>& batch);
};

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_RULE_EXTRACTOR_H_
