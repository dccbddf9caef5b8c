// store/sqlite/open_target.h — the checks made before SQLite touches a file, and the flags it is
// opened with, for each Options::open_mode (docs/integrity.md).
#ifndef ENGRAM_STORE_SQLITE_OPEN_TARGET_H_
#define ENGRAM_STORE_SQLITE_OPEN_TARGET_H_

#include <string>

#include "engram/options.h"
#include "engram/status.h"

namespace engram::sqlite {

// How to call sqlite3_open_v2 for one database.
struct OpenTarget {
  std::string filename;    // the path, or an SQLite URI when flags has SQLITE_OPEN_URI
  int flags = 0;           // SQLITE_OPEN_* flags
  bool read_only = false;  // opened SQLITE_OPEN_READONLY
  bool immutable = false;  // opened with immutable=1 (a read-only folder without -wal and -shm)
  bool exists = false;     // the file was there before this open
};

// Checks options.db_path for options.open_mode and says how to open it. ":memory:" opens in
// memory, read-write. Otherwise, in this order:
//   the folder must exist: kNotFound naming it (created first for kCreate with create_folders;
//     kIOError when that fails);
//   a missing file: kNotFound, except for kCreate (flags then include SQLITE_OPEN_CREATE);
//   an existing file must look like an SQLite database (CheckSqliteHeader): kCorruption, the file
//     untouched;
//   kReadWrite / kCreate: the file and its folder must be writable: kIOError ("read-only");
//   kReadOnly: SQLITE_OPEN_READONLY, and immutable when the folder cannot be written and holds
//     neither DB-wal nor DB-shm (SQLite could not create them; nothing can be writing then).
// Errors: kInvalidArgument (empty path, a folder given as the file), kNotFound, kCorruption,
// kIOError. Thread-safe.
Result<OpenTarget> ResolveOpenTarget(const Options& options);

// Reads the first 100 bytes of the existing file at `path`: OK when they are an SQLite header
// ("SQLite format 3\0" and a valid page size). Errors: kCorruption ("... is empty (0 bytes)",
// "... is not an SQLite database"), kIOError (unreadable). Thread-safe.
Status CheckSqliteHeader(const std::string& path);

// `path` as the path part of an SQLite URI: '%', '?' and '#' percent-encoded
// (sqlite.org/uri.html).
std::string SqliteUriPath(const std::string& path);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_OPEN_TARGET_H_
