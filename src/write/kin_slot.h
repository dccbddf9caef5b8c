// write/kin_slot.h — a newer turn's claim in an older claim's slot, read from kin words, where
// no rule read the turn (issue 16). "The laptop is on macOS Monterey", weeks later "the laptop is
// running Sonoma now": no phrase of the lexicon reads "running Sonoma" as an operating system, but
// Sonoma is of Monterey's kind (word vectors: providers/word_kin.h), the clause is about the
// laptop and says how it stands now, so the laptop's `uses/os` is now Sonoma. Held-out sets showed
// this kind — the newer turn kept whole while the older value stays current — as the largest
// (bench/heldout, v11 and v12: a third of the failed changes); a phrase per wording does not reach
// phrasings not yet seen, the older claim's slot and the kind of its value do.
//
// A clause of the turn (change_value.h ClauseSpans) gives the older claim `h` a new value when
// * `h` is current and affirmed, said before the turn, of an attribute a value of another kind
//   replaces (lives_in, employer, school, job, uses, prefers, status, `is`; kin_change.h
//   KinReplaceable), and its value holds a kin word (at most kMaxKinWords, write/kin_change.h);
// * the clause says how things stand now, differently from before (extraction::ReadNowStance:
//   a change, or "now"), and is not asked: not the clause a "?" ends ("Now that the orders service
//   runs on PostgreSQL, what's the equivalent of…?" states its first clause), nor one that adds,
//   bounds or limits its change (change_value.h ReplacesNothing), nor says what may be
//   (kin_change.h: "would", "never", "if");
// * the clause is about `h`'s subject: the speaker ("I", "we", "our", "my", or a past tense with
//   the subject left out), and then it names no other person ("my sister is living in Vancouver
//   now"), or what the speaker's value is for ("The orders service runs on PostgreSQL now" after
//   "We use MySQL for the orders service": a word of the older value besides its kin words); or
//   the last word of `h`'s subject ("Priya", "dad", "laptop"), not after another's possessive
//   ("my boss's laptop", "its health insurance"), or "he"/"she" after the turn named it; or, for a
//   thing of the speaker's side (a lower-case subject with no possessive: "laptop", "phone
//   carrier"), the speaker acting ("Finally switched to Sonoma") in a clause that names no one
//   else, nothing of another's and no other thing it was done on ("on the office iMac");
// * for where one lives, works or studies — which a trip, a visit or a client names as well — the
//   clause holds a verb of that attribute (data/lexicon/verbs.tsv: "living in", "joined");
// * the grammar read no claim of the turn whose value holds that name (KinSlotTurn::read_values),
//   but for a deed of change ("did: installed Sonoma") and the speaker's own use of it when `h` is
//   of a thing of the speaker's side;
// * the name stands where the clause's value stands: nothing but a word of grammar or "now" follows
//   its phrase ("a Sonoma wallpaper", "a PostgreSQL contributor" name other things), only linking
//   words stand between the last word naming the subject and it (a copula, a verb or marker of the
//   lexicon for use, change, place or moving, markers.tsv `links`: "is running", "runs on"; not
//   "keeps nagging me to install", "I'm trying", "certified in"), not "in"/"at" for a thing (a
//   place: "I'm in Sonoma now for a wine tasting"), and the clause denies nothing ("not", "n't",
//   "no longer");
// * the sentence holds no marker of a joke, hypothetical, plan, quotation, hedge or take-back
//   (markers.tsv `unreal`, `hypothetical`, `plan`, `quotation`, `uncertain`, `retract`, `undone`);
// * a word the turn writes as a name (KinLookup::names) in the clause is kin to a word of `h`'s
//   value the clause does not say, `h`'s statement does not say that name, and the clause does not
//   say a name of `h`'s value (a clause that names both compares them: "Postgres is faster than
//   MySQL now").
// The claim's value is that name with the names and numbers written beside it ("GitHub Actions",
// "Tesla Model 3"); it keeps `h`'s subject, attribute, slot and qualifiers, is a change, and
// replaces `h`'s value (CandidateClaim::replaces_value), so the claim writer supersedes `h`.
//
// Where no clause does so, a message of moving home names the speaker's new home (`h` of
// lives_in): a name kin to `h`'s value right after the speaker's own move and "to"/"into" ("the move
// to Bristol", "Moving to Leeds went fine"; not "Jake's move", "the office move") or after "in" in a
// clause of the movers or unpacking ("the movers dropped the last boxes off in Raleigh"), its phrase
// ending there; never in a message naming a stay (markers `stay`: a trip, a hotel, a conference), a
// clause asked, planned, wished, quoted, hedged or narrated as past (in its sentence too), naming a
// time ahead or half a year back, naming someone else through the speaker, or denying.
//
// Without word vectors (KinLookup not Available) nothing is read. English only: the installed
// vectors are English words.
//
// Thread safety: as ClaimStore (one connection, one thread); the lexicon is immutable.
#ifndef ENGRAM_WRITE_KIN_SLOT_H_
#define ENGRAM_WRITE_KIN_SLOT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/claim_store.h"
#include "write/extraction/extractor.h"
#include "write/kin_change.h"

namespace engram {

// A claim the grammar read from a turn: whose, of what attribute, and its value.
struct ReadClaim {
  std::string subject;
  std::string predicate;
  std::string value;
};

// One turn whose claims were written: its text, who said it, and when.
struct KinSlotTurn {
  std::string_view text;
  std::string speaker;        // the subject the extractor gives the speaker: the name, else the role ("user")
  TimestampMs said_at = 0;    // valid time of the turn (ms since the epoch)
  size_t source_event = 0;    // the turn's index in the batch its candidates name
  // The claims the grammar read from the turn (its candidates but those kept whole): a name one
  // of their values holds has its role in the turn ("doing: reading about PostgreSQL", "did: tried
  // Firefox"), which is not the older claim's — but for a deed of change ("did: installed Sonoma")
  // and the speaker's use of what their thing now runs ("uses: Sonoma" of "Finally switched to
  // Sonoma" after "My laptop is on macOS Monterey").
  std::vector<ReadClaim> read_values;
};

// The claims of `candidates` (those of source event `event`) the grammar read: all but the
// statements kept whole (explicit_memory, successor-only statements). For KinSlotTurn::read_values.
std::vector<ReadClaim> ReadValues(const std::vector<extraction::CandidateClaim>& candidates, size_t event);

// The older claims at most this many of the namespace's most recent current ones are read.
inline constexpr int kKinSlotLookback = 50;

// The candidates of `turn` in older claims' slots (above), at most one per older claim, each a
// change replacing the older value; empty without word vectors or when no clause qualifies.
// Read after the turn's own candidates were written (an older claim they closed is no longer
// current). Errors: from SQLite.
Result<std::vector<extraction::CandidateClaim>> KinSlotCandidates(sqlite::ClaimStore& store, int64_t namespace_id,
                                                                  const KinSlotTurn& turn, const KinLookup& kin);

}  // namespace engram

#endif  // ENGRAM_WRITE_KIN_SLOT_H_
