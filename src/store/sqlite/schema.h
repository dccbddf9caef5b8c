// store/sqlite/schema.h — the database layout and its forward-only migrations.
#ifndef ENGRAM_STORE_SQLITE_SCHEMA_H_
#define ENGRAM_STORE_SQLITE_SCHEMA_H_

#include "engram/options.h"
#include "engram/status.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

// The schema version this build writes (PRAGMA user_version).
inline constexpr int kSchemaVersion = 16;

// Brings the database to kSchemaVersion, all pending migrations run in one write transaction. A new
// database records `analysis` (its text analysis is fixed from then on). Errors: kCorruption when
// the file's version is newer than this build or it holds tables that are not engram's; others
// from SQLite.
Status Migrate(Database& db, TextAnalysis analysis);

// The open-time health check of an existing file (docs/integrity.md), reads only: its schema can be
// read (every definition parses), it is an engram database (user_version at least 1, the meta
// table names its text analysis) and not newer than this build; with `read_only`, not older
// either (a read-only open cannot migrate). Errors: kCorruption saying which of these failed (an
// SQLite file without engram's schema is "not an engram database"), kIOError, kBusy.
Status CheckEngramDatabase(Database& db, bool read_only);

// The text analysis recorded in the database's meta table.
Result<TextAnalysis> StoredTextAnalysis(Database& db);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_SCHEMA_H_
