// lifecycle/forget.h — forgetting: the cascade from the selected events and claims to everything
// derived from them, tombstones first, all in the caller's one write transaction; and unforget.
//
// What survives (docs/forget.md, bug_scenarios.md B20): starting from the selected objects, the
// forgotten set grows to a fixpoint of two rules —
//   * a claim is forgotten when every event that `supports` it is forgotten (no evidence left);
//   * an event is forgotten when it `supports` at least one forgotten claim and every claim it
//     supports is forgotten (it was private evidence of forgotten claims).
// So an event shared with a surviving claim survives, and a claim supported by a surviving event
// survives with its remaining evidence. `contradicts`/`supersedes` links never keep anything
// alive: they are removed with the forgotten object. Events that support no claim at all are
// forgotten only when selected.
//
// For each forgotten object the cascade deletes: events — the row, its full-text row, vectors,
// feedback, extraction jobs, decision records and evidence links; claims — the row, its full-text
// row, vectors, feedback, history (copied into the audit log without content first), decision
// records and evidence links. A session left without events is deleted. An episode step whose
// evidence is a forgotten event keeps its place and tool name and loses its text (action, reason,
// result), and its episode's full-text row is rebuilt. Layer: depends on store/ and below only.
#ifndef ENGRAM_LIFECYCLE_FORGET_H_
#define ENGRAM_LIFECYCLE_FORGET_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/audit_log.h"
#include "store/sqlite/database.h"
#include "store/sqlite/tombstone_store.h"

namespace engram::lifecycle {

// A curated entry (docs/curated.md) whose recording event a forget deleted: the caller takes it
// out of its file once the transaction has committed.
struct CuratedEntryRef {
  std::string target;  // "memory" or "user"
  std::string entry;   // the event's content: the entry as it was written
};

struct ForgetStores {
  sqlite::Database& db;
  sqlite::TombstoneStore& tombstones;
  sqlite::AuditLog& audit;
};

// Runs the forget described by `request` inside the caller's write transaction: selects, closes
// the set under the two rules above, and — unless it is a preview (request.preview, or a query
// without confirm) — writes one tombstone per object, then the audit rows, then deletes. The
// request must already be validated (Engine::Forget). For a `query` selector, `query_ids` holds
// the ids the query selected (engine/forget_query.h). A preview changes nothing but temp tables.
// Errors: kNotFound (unknown namespace, session, or an id that is neither stored nor forgotten);
// others from SQLite — any error means the caller must roll back (nothing is half-applied).
// When `curated` is given, the curated entries of the forgotten events are appended to it (not in
// a preview). Ids of episodes or rules (experience memory) are forgotten as
// ForgetExperienceInTransaction does, with "id" as their reason: their rows go, one tombstone each.
Result<ForgetReport> ForgetInTransaction(ForgetStores& stores, const ForgetRequest& request,
                                         const std::vector<std::string>& query_ids, TimestampMs now,
                                         std::vector<CuratedEntryRef>* curated = nullptr);

// An episode or rule that experience forgetting deletes (experience/experience_forget_score.h).
struct ForgottenExperience {
  std::string object_type;  // episode or rule
  int64_t seq = 0;
  std::string id;
};

// Deletes episodes and rules of one namespace inside the caller's write transaction, the way the
// cascade above deletes events: one tombstone each first (object_type episode or rule; no hash —
// content_hash is what ingest refuses events by), then the audit rows (one operation, one per object: ids only),
// then the rows — an episode's steps, full-text row, rule support rows and access row, then the
// episode; a rule's support, history and access rows, then the rule. Rule counts that an episode
// supported must be taken out by the caller first (experience/rule_lifecycle.h RemoveEpisode).
// Returns the report (events and claims 0; items and tombstone ids in `objects` order). Errors: from
// SQLite — the caller must roll back.
Result<ForgetReport> ForgetExperienceInTransaction(ForgetStores& stores, int64_t namespace_id,
                                                   const std::vector<ForgottenExperience>& objects,
                                                   std::string_view reason, std::string_view actor, TimestampMs now,
                                                   std::string_view why = "forget_score");

// Removes the tombstone `id` (or the newest tombstone of the object with this id) and audits it,
// inside the caller's write transaction: content equal to the forgotten object may be stored
// again. Nothing forgotten comes back by itself. Returns the removed tombstone.
// Errors: kNotFound; others from SQLite.
Result<Tombstone> UnforgetInTransaction(ForgetStores& stores, std::string_view id, std::string_view actor,
                                        std::string_view reason, TimestampMs now);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_FORGET_H_
