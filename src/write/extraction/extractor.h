// write/extraction/extractor.h — what every extractor (rules, LLM) produces from a batch of events:
// candidate claims, before admission, dedup and conflict resolution decide what is stored.
#ifndef ENGRAM_WRITE_EXTRACTION_EXTRACTOR_H_
#define ENGRAM_WRITE_EXTRACTION_EXTRACTOR_H_

#include <optional>
#include <string>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::extraction {

// Qualifier names (CandidateClaim::qualifiers holds a subset, sorted, no duplicates).
inline constexpr const char* kQualNegated = "negated";      // "I don't like X", "不喜欢", "no longer"
inline constexpr const char* kQualTemporary = "temporary";  // "for now", "temporarily", "暂时"
inline constexpr const char* kQualHabitual = "habitual";    // "every morning", "每天"
inline constexpr const char* kQualPlanned = "planned";      // "plan to", "going to", "打算"
inline constexpr const char* kQualPast = "past";            // "used to", "以前"
inline constexpr const char* kQualReported = "reported";    // said by someone else ("my friend said he...")
inline constexpr const char* kQualHypothetical = "hypothetical";  // a wish or condition ("要是…就好了")
inline constexpr const char* kQualRequired = "required";    // a requirement ("must stay on v2.0")
// A qualifier "key=value" (`deployment=blue`, `instance=node-a`, `when=on fridays`) is part of
// the fact's identity: claims that differ in one are different slots (claim_identity.h).
inline constexpr char kCoordinateSeparator = '=';

// Scopes (what kind of fact; drives TTL and ranking later).
inline constexpr const char* kScopes[] = {"identity", "preference", "possession", "relationship",
                                          "activity", "habit",      "state",      "explicit"};

// Canonical predicates (snake_case, English, whatever the source language). Extractors should use
// these; other predicates are allowed but are always additive (never supersede).
//   identity:     name, age, birthday, hometown, lives_in, job, employer, school
//   preference:   likes (negated = dislikes/hates), prefers, favorite (slot = what: "color", "颜色")
//   possession:   owns (negated = sold / no longer has)
//   relationship: has_relation (slot = "wife", "friend", "sister", "同事", ...; value = the name)
//   activity:     went_to, joined, attended, started, finished, plans_to, did
//   habit:        habit (value = the activity, with kQualHabitual)
//   state:        uses (slot = category when known: "ui_theme", "editor"), status
//   explicit:     explicit_memory (value = the whole statement), from `engram remember TEXT`
//   state:        statement (value = the whole statement of a change the grammar could not read;
//                 CandidateClaim::successor_only)
// The predicate of a statement of change kept whole (CandidateClaim::successor_only).
inline constexpr const char* kPredicateStatement = "statement";

struct CandidateClaim {
  std::string subject;    // who it is about: the speaker's name (or the role when unnamed), or a
                          // named third person ("Mei"); kept byte for byte
  std::string predicate;  // canonical predicate above
  std::string slot;       // sub-key for favorite / has_relation / uses; "" otherwise
  std::string value;      // in the source language, byte for byte ("Hangzhou", "杭州", "dark mode")
  std::string text;       // a readable statement in the source language ("Lin lives in Hangzhou")
  std::vector<std::string> qualifiers;
  std::optional<TimestampMs> valid_from;  // when the fact became true, resolved against the
                                          // event's occurred_at (never against now)
  std::optional<TimestampMs> valid_to;    // when it stops being true, if stated
  std::string time_phrase;  // the time expression as written ("yesterday", "上周"), "" if none
  std::string scope;        // one of kScopes
  double confidence = 0.8;  // 0–1
  double importance = 0.5;  // 0–1
  std::vector<size_t> source_events;  // indexes into the batch given to Extract; at least one
  std::string evidence_span;  // a verbatim substring of the first source event's content
  // The value this claim replaces, when the source says so ("from Lisbon", "instead of coffee",
  // "not Monday"): the current claim of the subject holding it is superseded, whatever its
  // predicate; "" when not said.
  std::string replaces_value;
  bool correction = false;  // "actually", "不对": the supersede's reason is "correction"
  // The source states a change ("moved to", "升级到", "is now"): dated before the current value's
  // statement, it still replaces a value whose start was never said (claim_writer.h).
  bool change = false;
  // The source named no thing for a thing's attribute ("bumped it to 3.12", "上周末升到 8.0 了"):
  // `subject` is the speaker or a pronoun, and the claim writer gives it the subject of the
  // attribute said last (write/subject_resolution.h).
  bool subject_unsaid = false;
  // A statement of change the grammar read nothing from ("Model hosting got migrated over to GCP
  // last sprint"), kept whole (predicate kPredicateStatement): the claim writer stores it only when
  // it changes an older claim about the same thing (write/same_thing.h), as that claim's successor
  // in the speaker's words, and drops it otherwise (most such sentences change nothing stored).
  bool successor_only = false;
};

class Extractor {
 public:
  virtual ~Extractor() = default;
  // "rules/1", "llm/<model>": recorded on every claim it produces.
  virtual std::string Name() const = 0;
  // Candidates from a batch of events of one session, in time order. Events whose role is not
  // "user" may be used as context but must not make the user the subject of what the assistant
  // said (bug_scenarios.md B48). Errors: kIOError / kBusy for a provider failure (the job is
  // retried), kInvalidArgument for output that cannot be parsed after repair. Thread-compatible.
  virtual Result<std::vector<CandidateClaim>> Extract(const std::vector<Event>& batch) = 0;
};

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_EXTRACTOR_H_
