// write/extraction/statement_topics.h — what a statement or a question is about, for recall's
// current-first order and later-change search (RecallContext::topics_of, docs/retrieval.md
// "Topics"): the topics its words name (data/lexicon/topics.tsv through Lexicon::Topics), the
// topic "version" when it names a version by its shape ("Postgres 16", "JDK 21", "v3.2", "3.12"),
// the people it names through the speaker (relations.tsv: text::kPersonTopic + "brother"; a short
// kin word right after 我, markers.tsv `kin_after_speaker`: "@姐" for 我姐的工作是什么), and
// text::kSpeakerTopic when it speaks of the speaker (a first-person word; in Chinese, which drops
// the subject, 我 or no clause opening with 他/她/你, a relation word, 老王/小李 or a Latin name).
//
// Thread safety: pure (the lexicon is immutable); safe from any thread.
#ifndef ENGRAM_WRITE_EXTRACTION_STATEMENT_TOPICS_H_
#define ENGRAM_WRITE_EXTRACTION_STATEMENT_TOPICS_H_

#include <string>
#include <string_view>
#include <vector>

namespace engram::extraction {

// The topic a version said by its shape gives (a topic of topics.tsv).
inline constexpr std::string_view kVersionTopic = "version";

// True when `text` (UTF-8) names a version by its shape: a dotted number ("3.12", "v1.1",
// "14.21"), "v" and a number ("v3"), or a one- or two-digit number after a name with a capital
// letter that is no month or weekday ("PostgreSQL 13", "iOS 17", "JDK 21"; not "May 5", not
// "I'm 34").
bool NamesAVersion(std::string_view text);

// True when `text` opens with a verb in the past tense, its subject left out as chat leaves out
// "I" ("moved over to Firefox", "Jumped ship to KPMG", "ok so, switched to…", "Got promoted"): the
// first word that is not a word of discourse (markers.tsv `discourse`: "so", "finally", "update")
// ends in "ed" and has at least five letters, or is an irregular past (`verb_form`: got, took,
// bought). Never fails.
bool OpensWithAPastVerb(std::string_view text);

// The topics of `text` (above), sorted, each once; empty when it names none.
std::vector<std::string> StatementTopics(std::string_view text);

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_STATEMENT_TOPICS_H_
