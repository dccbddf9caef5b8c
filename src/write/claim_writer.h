// write/claim_writer.h — stores one admitted candidate claim: exact dedup, near-copy merge,
// negation flips, single-valued conflicts (supersede, backfill or dispute), evidence, history and
// the decision record — all inside the caller's write transaction, so that two concurrent writers
// of the same fact make one claim (bug_scenarios.md B13).
#ifndef ENGRAM_WRITE_CLAIM_WRITER_H_
#define ENGRAM_WRITE_CLAIM_WRITER_H_

#include <optional>
#include <string>
#include <vector>

#include "engram/types.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/tombstone_store.h"
#include "write/admission.h"
#include "write/claim_identity.h"
#include "write/extraction/extractor.h"
#include "write/kin_change.h"

namespace engram {

// Decision codes recorded for stored candidates.
inline constexpr const char* kDecisionCreated = "created";
inline constexpr const char* kDecisionDuplicate = "duplicate";    // exact fact: evidence added
inline constexpr const char* kDecisionMerged = "merged";          // near-copy: evidence added
inline constexpr const char* kDecisionSuperseded = "superseded";  // created, closing older claims
inline constexpr const char* kDecisionDisputed = "disputed";      // created as disputed
inline constexpr const char* kDecisionBackfill = "backfill";      // an older fact that arrived late
// The fact was forgotten (a tombstone of the namespace has its fact hash): nothing stored, the
// outcome's claim is empty. Unforget lifts it (docs/forget.md).
inline constexpr const char* kDecisionForgotten = "rejected:forgotten";
// A statement of change kept only as a successor (CandidateClaim::successor_only) that changes no
// older claim: nothing stored.
inline constexpr const char* kDecisionChangesNothing = "rejected:changes_nothing";

struct ClaimWriteOutcome {
  std::string decision;  // one of the codes above
  Claim claim;           // the claim created, or the existing one that absorbed the candidate
  int superseded = 0;    // claims this write closed
};

struct ClaimWriteInput {
  int64_t namespace_id = 0;
  const extraction::CandidateClaim* candidate = nullptr;
  AdmissionDecision admission;
  std::vector<int64_t> source_event_seqs;  // seqs of candidate->source_events
  TimestampMs source_time = 0;             // occurred_at of the first source event
  std::string namespace_name;
  std::string extractor;  // "rules/1", "explicit", ...
  std::string actor;      // who is writing: "worker", "cli", ...
  TimestampMs now = 0;
  // Kin words for write/same_thing.h (a newer change naming another thing of the older value's
  // kind); null = none. Called inside the write transaction.
  const KinLookup* kin = nullptr;
};

// A fact with a tombstone in the namespace is refused first (kDecisionForgotten).
// Errors: those of the store (kBusy, kIOError); kAlreadyExists should not happen (the funnel checks
// first) and means a bug.
Result<ClaimWriteOutcome> WriteClaim(sqlite::ClaimStore& store, sqlite::TombstoneStore& tombstones,
                                     const PredicateRegistry& registry, const ClaimWriteInput& input);

// The words a claim of `predicate`/`slot` is indexed with beside its text
// (extraction::Lexicon::SearchWords; sqlite::StoredClaim::search_words): every path that writes a
// claim's full-text row uses them, so that an imported claim is found as a written one is.
std::string ClaimSearchWords(const std::string& predicate, const std::string& slot);

// The candidate as JSON (recorded with each decision).
std::string CandidateJson(const extraction::CandidateClaim& c);

}  // namespace engram

#endif  // ENGRAM_WRITE_CLAIM_WRITER_H_
