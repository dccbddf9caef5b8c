// lifecycle/compact.h — `engram compact`: makes the bytes of forgotten content leave the files.
//
// After a forget, deleted rows are zeroed in their pages (secure_delete is on), but full-text
// segments still hold the deleted terms until they are merged, freed pages may linger in the WAL,
// and the WAL keeps old frames until it is reset. Compact (1) rewrites the full-text indexes
// (events, claims, episodes) into one segment each (FTS5 'optimize': deleted terms are dropped),
// (2) VACUUMs the database into a fresh file, (3) checkpoints and truncates the WAL to 0 bytes.
// When it returns OK, no byte of the database, -wal or -shm file holds the content of a forgotten
// object (tested by lifecycle/compact_test.cc with a canary string). Layer: depends on store/ and
// below only.
#ifndef ENGRAM_LIFECYCLE_COMPACT_H_
#define ENGRAM_LIFECYCLE_COMPACT_H_

#include <string_view>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/audit_log.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

// Runs the three steps above and appends an audit row (action "compact"). Must not be called
// inside a transaction. Takes the write lock for the optimize and VACUUM steps.
// Errors: kBusy when another connection holds a read snapshot and the WAL could not be truncated
// (run again when it is gone; the earlier steps are done and harmless to repeat), or the lock
// stayed taken; kIOError and others from SQLite.
Result<CompactReport> Compact(sqlite::Database& db, sqlite::AuditLog& audit, std::string_view actor);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_COMPACT_H_
