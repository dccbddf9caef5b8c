// write/same_thing.h — the older current claim a newer statement of change is about when the
// grammar read the two into different attributes (issue 16). "I'm on the Basic plan for my cloud
// storage" (a free statement) and "Upgraded my cloud storage to Premium" (an act), "I work at
// Spotify on the recommendations team" (employer) and "Today was my first day at Stripe, I left
// Spotify last month", 家里宽带是100兆的 and 前几天把宽带升到了500兆: no slot of the lexicon holds both, yet the
// newer names the thing the older was about and says it changed. A careful reader keeps the older
// as history, not as the current state; so does this.
//
// The newer candidate must:
// * state a current value (claim_identity.h StatesCurrentValue: no plan, wish, report, past,
//   requirement or denial) and say a change: read as one by the fact frame (a change or a
//   correction), or its evidence reads as a change, lasting or temporary
//   (extraction/change_statement.h ReadNowStance: a word of the present, "now", 现在, counts);
//   never a state said with its end ("for the next few days, reach me at 555-0199", 这几天:
//   text::NowStance::kBounded), which is how things stand for that span, not a new value;
// * name no value it replaces (that case is the writer's ReplacedClaims).
// The older claim must:
// * be current and affirmed, said strictly before (valid time), and be the candidate's subject's
//   (one of its 200 most recent) or, unless the candidate is itself about a thing ("We upgraded
//   us-east to kubernetes 1.29" is us-east's), a thing's stated by a copula or a thing's attribute
//   (one of the namespace's 50 most recent: "my gym is Anytime Fitness", then "Anytime Fitness
//   closed down, so I signed up with Planet Fitness");
// * state a value a change can end: a free statement (`explicit_memory`, kept whole when the
//   grammar read nothing from it), a single-valued attribute (PredicateRegistry), or what the
//   speaker uses or prefers — not an act (did, started, joined), nor what someone is doing or does
//   by habit: in conversation those are activities, several at once (on LoCoMo, closing them by
//   shared words closed "doing: watching movies" with "started on a book");
// * share with the newer's value or evidence (its words verbatim) at least one content term
//   (text::Analyzer query terms that are no function terms, text/stopwords.h) of its value, its
//   slot or, for a thing's, its name — beyond the subject's own words;
// * differ from it: the newer's value has a term the older does not hold, and the older's value
//   has a term the newer's evidence does not hold (a restatement closes nothing);
// * not say how things usually are (a habit, qualified habitual, or with "usually", 平时) when the
//   newer says its value lasts a while only ("For a while I'm parking on level 5"): a temporary
//   change leaves the usual current, and recall answers "where do I usually park?" with it.
// Of several, the one sharing the most terms wins, the newest on a tie. The candidate is then
// written as a change (a time it names before the older's statement does not make it a late
// older fact: claim_writer.cc ChangeReportedLate).
//
// Thread safety: as ClaimStore (one connection, one thread); the analyzer is one per thread.
#ifndef ENGRAM_WRITE_SAME_THING_H_
#define ENGRAM_WRITE_SAME_THING_H_

#include <cstdint>
#include <optional>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/claim_store.h"
#include "write/claim_identity.h"
#include "write/extraction/extractor.h"

namespace engram {

// The older claim `candidate` changes (above), said before `said_at` (ms since the epoch, valid
// time of the candidate's first source event), single-valued attributes as `registry` says;
// nullopt when there is none or the candidate says no change. Errors: from SQLite.
Result<std::optional<sqlite::StoredClaim>> SameThingClaim(sqlite::ClaimStore& store, int64_t namespace_id,
                                                          const extraction::CandidateClaim& candidate,
                                                          TimestampMs said_at, const PredicateRegistry& registry);

}  // namespace engram

#endif  // ENGRAM_WRITE_SAME_THING_H_
