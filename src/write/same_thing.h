// write/same_thing.h — the older current claim a newer statement of change is about when the
// grammar read the two into different attributes (issue 16). "I'm on the Basic plan for my cloud
// storage" (a free statement) and "Upgraded my cloud storage to Premium" (an act), "The team chat
// is on Slack" (a copula's value) and "The team chat moved to Discord" (a place), 家里宽带是100兆的
// and 前几天把宽带升到了500兆 (a version of no thing): no slot of the lexicon holds both, yet the
// newer names the thing the older was about and says it changed. A careful reader keeps the older
// as history, not as the current state; so does this.
//
// The newer candidate must:
// * state a current value (claim_identity.h StatesCurrentValue: no plan, wish, report, past,
//   requirement or denial) and say a change: read as one by the fact frame (a change or a
//   correction), or its evidence reads as a change, lasting or temporary
//   (extraction/change_statement.h ReadNowStance: a word of the present, "now", 现在, counts);
//   never a state said with its end ("for the next few days, reach me at 555-0199", 这几天, "during
//   the renovation": text::NowStance::kBounded), which is how things stand for that span;
// * name no value it replaces (that case is the writer's ReplacedClaims).
// The older claim must:
// * be current and affirmed, said strictly before (valid time), and be the candidate's subject's
//   (one of its 200 most recent) or, for a person's change, a thing's stated by a copula or a
//   thing's attribute (one of the namespace's 50 most recent: "my gym is Anytime Fitness", then
//   "Anytime Fitness closed down, so I signed up with Planet Fitness"); for a named thing's change
//   ("The team chat moved to Discord"), a free statement that names it, or its own value said
//   with no attribute named ("The team chat is on Slack": `is`), never another named attribute of
//   it or another thing's ("We upgraded us-east to kubernetes 1.29" is not eu-west's);
// * state a value a change can end: a free statement (`explicit_memory` or `statement`, kept whole
//   when the grammar read nothing from it), a single-valued attribute (PredicateRegistry), or what
//   the speaker uses or prefers — not an act (did, started, joined), nor what someone is doing or
//   does by habit: in conversation those are activities, several at once (on LoCoMo, closing them
//   by shared words closed "doing: watching movies" with "started on a book");
// * be named by the newer as one thing, not by a shared word (write/thing_phrase.h): a thing
//   phrase of each with the same head, the newer's modifiers said in the older and the older's
//   owners in the newer ("the third-floor printer" after "the office printer on the third floor";
//   not "my bank password" after "my bank is Chase", not "my car" after "my wife's car"); or, in
//   Chinese, the newer clause's topic as a whole word of both (表弟不干厨师了 after 我表弟在餐馆当厨师);
//   the newer's clauses that restate ("still", "unchanged", 还是, 仍然) name nothing;
// * not be another's: the newer names no one through the speaker whom the older does not ("my
//   wife switched her car"), nor a thing as his, her or their;
// * not be told of as earlier: no date in the newer ends before the older was said ("In 2015 I
//   changed my email");
// * not be restated: the older's value has a term the newer does not say (a newer that only ends
//   it, "I left Spotify last month", closes it);
// * not say how things usually are (a habit, qualified habitual, or with "usually", 平时) when the
//   newer says its value lasts a while only ("For a while I'm parking on level 5"): a temporary
//   change leaves the usual current, and recall answers "where do I usually park?" with it.
// Or, with word vectors installed (`kin`, write/kin_change.h), the value of the speaker's change
// (write/change_value.h, by its head or its names) is kin to the older claim's value, not said by
// the newer itself, at most kMaxKinWords of them: "switched to Firefox last week after the adblock
// mess" after "Chrome is my main browser", "I switched over to KPMG in March" after "My employer is
// Deloitte" — the grammar reads no attribute from a bare name, but the name is of the older
// value's kind. The older is a state of the speaker's that a change replaces (lives_in, employer,
// job, uses, school, status, prefers, a copula's value), never a favourite, relation, hometown,
// thing's place, habit, activity, possession or statement kept whole; the candidate holds the kin
// value in its own value (it becomes the successor).
// Or, whatever the attribute, the newer says the speaker ended a thing the older names
// (write/ended_thing.h: "Ditched coffee completely" after "I drink black coffee every morning",
// 星辰科技我已经辞了 after 我在星辰科技上班); then the older may also be a habit, an activity or a
// possession (never closed by a shared word), the newer may be read as a denial ("no longer owns
// civic") and may say the older's value again (it names it as what ended), and a temporary value
// beside the ending does not keep the usual ("sold the civic, taking the bus for now").
// Of several, the newest is closed. The candidate is then written as a change (a time it names
// before the older's statement does not make it a late older fact: claim_writer.cc
// ChangeReportedLate), under its own attribute: only a value named as replaced says which
// attribute a change is of.
//
// Measured (bench/RESULTS.md, sessions 23 and 24): on 306 pairs written to break it (230 that change
// nothing), 13 false closes against 8 of the grammar alone, 28 of 56 changes closed against 14; on
// 235 pairs written to break the ending rule, 3 of 144 false closes (as before it) and 54 of 91
// endings closed against 6.
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
#include "write/kin_change.h"

namespace engram {

// The older claim `candidate` changes (above), said before `said_at` (ms since the epoch, valid
// time of the candidate's first source event), single-valued attributes as `registry` says, kin
// words as `kin` reads them (null or unavailable: none); nullopt when there is none or the
// candidate says no change. Errors: from SQLite.
Result<std::optional<sqlite::StoredClaim>> SameThingClaim(sqlite::ClaimStore& store, int64_t namespace_id,
                                                          const extraction::CandidateClaim& candidate,
                                                          TimestampMs said_at, const PredicateRegistry& registry,
                                                          const KinLookup* kin);

}  // namespace engram

#endif  // ENGRAM_WRITE_SAME_THING_H_
