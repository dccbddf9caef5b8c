// store/sqlite/data_version_watch.h — tells a per-connection memo whether the database is still
// the one it was filled from: PRAGMA data_version (moves on a commit by any other connection, in
// this or another process) and sqlite3_total_changes64 (moves on every row this connection
// changes, committed or rolled back).
#ifndef ENGRAM_STORE_SQLITE_DATA_VERSION_WATCH_H_
#define ENGRAM_STORE_SQLITE_DATA_VERSION_WATCH_H_

#include <cstdint>

#include "store/sqlite/database.h"

namespace engram::sqlite {

class DataVersionWatch {
 public:
  enum class Verdict {
    kUnusable,   // outside a transaction, inside a write transaction (uncommitted rows), or
                 // the version cannot be read
    kChanged,    // the database changed since the last Check (or this is the first): start again
    kUnchanged,  // nothing was committed or changed since the last Check
  };

  // Call inside a read transaction: PRAGMA data_version is a statement, so it takes the
  // transaction's snapshot first (a file-control read before the first statement of a deferred
  // transaction would see the previous one) and the verdict describes the snapshot being read.
  // Not thread-safe (as the connection).
  Verdict Check(Database& db);

 private:
  bool known_ = false;
  int64_t data_version_ = 0;
  int64_t total_changes_ = 0;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_DATA_VERSION_WATCH_H_
