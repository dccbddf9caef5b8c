// lifecycle/resurrect.h — bringing archived claims back when a question finds nothing current.
//
// HL-Mem's resurrection cold path (../shared/reference/hlmem_hindsight.md §A4 item 10; off by
// default since its 1.1.5, and off by default here: LifecycleOptions::resurrect_archived): when
// recall is insufficient, archived claims alone are searched by full text and the best matches
// become active again, with their activation back to 1 and a fresh last use. A claim whose fact
// or single-valued slot is now held by another current claim stays archived (the newer one wins).
// Each resurrection writes a claim_history row and an audit_log row (action "resurrected").
// Layer: store/ only.
#ifndef ENGRAM_LIFECYCLE_RESURRECT_H_
#define ENGRAM_LIFECYCLE_RESURRECT_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/audit_log.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

// Inside the caller's write transaction: searches the namespace's archived claims with the FTS5
// expression `match` and makes up to `limit` of them active at `now` (ms UTC). Returns the ids of
// the claims brought back, best match first (empty when none matched or all were blocked).
// Errors: from SQLite (the caller rolls back).
Result<std::vector<std::string>> ResurrectInTransaction(sqlite::Database& db, sqlite::ClaimStore& claims,
                                                        sqlite::AuditLog& audit, int64_t namespace_id,
                                                        std::string_view match, int limit, TimestampMs now,
                                                        std::string_view actor, double bm25_k1, double bm25_b);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_RESURRECT_H_
