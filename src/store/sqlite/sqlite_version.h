// store/sqlite/sqlite_version.h — which SQLite engram runs on, and whether that release has the
// WAL-reset bug.
//
// The bug (https://sqlite.org/wal.html#walresetbug): in WAL mode, a checkpoint that starts just
// after another one finished can miss a concurrent writer's reset of the WAL and leave a wrong
// field in the WAL-index header; a later checkpoint then skips frames, so committed transactions
// are lost and indexes point at pages that were never copied. Affected: every release from 3.7.0
// through 3.51.2; fixed in 3.51.3 and later, and in the backports 3.44.6 and 3.50.7. engram's
// load (many short-lived processes on one file, each committing and checkpointing) meets it:
// bench/RESULTS.md, session 8. engram is built with a fixed amalgamation (scripts/fetch_sqlite.sh);
// this check guards builds against another library (ENGRAM_SQLITE=system) or a preloaded one.
#ifndef ENGRAM_STORE_SQLITE_SQLITE_VERSION_H_
#define ENGRAM_STORE_SQLITE_SQLITE_VERSION_H_

#include <string>

#include "engram/status.h"

namespace engram::sqlite {

// True when SQLite `version_number` (as sqlite3_libversion_number(): 3053002 for 3.53.2) is a
// release with the WAL-reset bug. Pure; thread-safe.
bool HasWalResetBug(int version_number);

// The running library's version, e.g. "3.53.2". Thread-safe.
std::string RunningSqliteVersion();

// OK when SQLite `version_number` (default: the running library's) is not affected, or when
// `allow_affected` (Options::allow_affected_sqlite) or $ENGRAM_ALLOW_AFFECTED_SQLITE=1 says to go
// on anyway. Errors: kIOError naming the version, the bug and how to get a fixed build.
Status CheckSqliteVersion(bool allow_affected, int version_number = 0);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_SQLITE_VERSION_H_
