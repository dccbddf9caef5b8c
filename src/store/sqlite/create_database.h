// store/sqlite/create_database.h — a new database appears at its path complete, or not at all.
#ifndef ENGRAM_STORE_SQLITE_CREATE_DATABASE_H_
#define ENGRAM_STORE_SQLITE_CREATE_DATABASE_H_

#include "engram/options.h"
#include "engram/status.h"

namespace engram::sqlite {

// Creates the engram database at options.db_path when nothing is there (OpenMode::kCreate): builds
// it — WAL, every migration, options.analysis, the WAL folded back — as
// "<path>.creating-<pid>-<n>" in the same folder, then links it to the path with link(2), which
// never replaces a file (a process that linked first wins; this one's copy is discarded), and
// syncs the folder. So no process ever sees an empty or half-made file at the path, and a file
// that is there is never initialised. A process killed while building leaves its
// ".creating-" file behind (never read by engram; safe to delete). OK at once when the path
// exists (the open checks it) or is ":memory:".
// Errors: kNotFound (missing folder unless options.create_folders), kIOError, kBusy. Thread-safe.
Status CreateDatabaseIfMissing(const Options& options);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_CREATE_DATABASE_H_
