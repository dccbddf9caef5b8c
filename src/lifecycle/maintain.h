// lifecycle/maintain.h — the maintenance pass ("sleep") over one namespace: TTL, expiry,
// activation decay, archive and convergence of duplicate claims. See docs/lifecycle.md.
//
// The pass works in short write transactions of at most `batch` claims each, run through the
// caller's BatchRunner (the Engine takes its mutex and the write lock per batch, then lets go),
// so writers interleave with it and readers never wait for it (WAL: a reader keeps its snapshot
// while a batch commits). Every step is idempotent for a given `now`: an interrupted pass is
// finished by the next one. Every transition writes a claim_history row (actor, action, reason,
// before/after snapshots) and an audit_log row (ids, statuses and numbers, never content).
// Layer: depends on store/ and lifecycle/ttl, decay only.
#ifndef ENGRAM_LIFECYCLE_MAINTAIN_H_
#define ENGRAM_LIFECYCLE_MAINTAIN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/audit_log.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

// Runs `body` in one write transaction (and whatever locking the caller needs around it).
using BatchRunner = std::function<Status(const std::function<Status()>& body)>;

struct MaintainContext {
  sqlite::Database& db;
  sqlite::ClaimStore& claims;
  sqlite::AuditLog& audit;
  BatchRunner run_batch;
  TimestampMs now = 0;           // ms UTC: the pass's clock
  std::string actor = "maintain";
  int batch = 500;               // claims per write transaction (≥ 1)
};

// (id, name) of the namespace named `name`, or of every namespace when `name` is empty, by id.
// Errors: kNotFound (unknown namespace); others from SQLite.
Result<std::vector<std::pair<int64_t, std::string>>> MaintainedNamespaces(sqlite::Database& db,
                                                                          std::string_view name);

// The TTL step alone, inside the caller's transaction: sets expires_at and ttl_version of up to
// `limit` claims of the namespace (every namespace when namespace_id is 0) whose TTL was not
// computed yet (new claims). Returns how many. Used after writes so that recall hides a claim past
// its TTL before the next pass.
Result<int64_t> AssignTtlInTransaction(sqlite::Database& db, int64_t namespace_id, int limit);

// The pass over one namespace, in this order: TTL for new claims; expiry (active or disputed
// claims whose expires_at ≤ now become "expired", valid_to closed at expires_at); decay (the
// activation of every active/disputed claim recomputed, lifecycle/decay.h; stored when it moved by
// ≥ 0.005 or crossed the threshold); archive (claims whose activation stayed below the threshold
// for the grace period, protected classes never: status "archived", vectors deleted, FTS row and
// history kept); convergence (active/disputed claims with the same polarity key and negation —
// the same fact under the claim keys of write/claim_identity.h — are folded into the oldest active
// one: evidence moved to it, the others "superseded" by it).
// Errors: from SQLite; a failed batch rolls back alone (earlier batches stay committed).
Result<MaintainNamespaceReport> MaintainNamespace(MaintainContext& ctx, int64_t namespace_id,
                                                  const std::string& namespace_name);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_MAINTAIN_H_
