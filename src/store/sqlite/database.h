// store/sqlite/database.h — one SQLite connection with engram's settings, prepared-statement
// helpers and write transactions that retry on contention.
#ifndef ENGRAM_STORE_SQLITE_DATABASE_H_
#define ENGRAM_STORE_SQLITE_DATABASE_H_

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <string_view>
#include <unordered_map>

#include "engram/options.h"
#include "engram/status.h"
#include "store/sqlite/busy_wait.h"
#include "store/sqlite/checkpointer.h"

namespace engram::sqlite {

// Maps an SQLite result code to a Status: SQLITE_BUSY/LOCKED → kBusy, SQLITE_CORRUPT/NOTADB →
// kCorruption, SQLITE_CONSTRAINT → kAlreadyExists, I/O and CANTOPEN/FULL → kIOError, else kInternal.
Status StatusFromSqlite(int rc, sqlite3* db, std::string_view what);

// A prepared statement. Movable, not copyable; finalised on destruction.
class Statement {
 public:
  Statement() = default;
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  static Result<Statement> Prepare(sqlite3* db, std::string_view sql);

  // Binds parameter `index` (1-based). Text is bound as UTF-8 and copied by SQLite.
  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, double value);
  Statement& Bind(int index, std::string_view value);
  Statement& BindNull(int index);
  // Binds NULL when `value` is empty, the text otherwise.
  Statement& BindOptional(int index, std::string_view value);

  // Advances: true when a row is ready, false when done. Errors: mapped from SQLite.
  Result<bool> Step();
  // Steps once and expects no row (INSERT/UPDATE/DDL).
  Status Run();
  // Steps to the end and returns column 0 of every row as an integer, then resets.
  Result<std::vector<int64_t>> Ints();
  void Reset();

  int64_t Int(int column) const;
  double Double(int column) const;
  std::string Text(int column) const;  // "" for NULL
  // The column's bytes, valid until the next Step or Reset ({} for NULL).
  std::string_view Blob(int column) const;
  bool IsNull(int column) const;

 private:
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  sqlite3_stmt* stmt_ = nullptr;
};

// One connection. Not thread-safe: the Engine serialises calls.
// `[1,2,3]`: a list of row ids for `json_each(?)` joins (one rowid seek per id, no temporary
// index as an IN list would build).
std::string JsonIntArray(const std::vector<int64_t>& ids);

class Database {
 public:
  // Opens options.db_path as options.open_mode allows (ResolveOpenTarget, store/sqlite/open_target.h:
  // a missing file is created only for kCreate; an empty or non-SQLite file is refused untouched;
  // kReadOnly opens SQLITE_OPEN_READONLY), then applies: WAL (kept when the file already says WAL;
  // never downgraded; a read-only connection keeps whatever the file says), foreign_keys=ON,
  // secure_delete=ON, synchronous=FULL (a commit is on disk before Ingest returns, so an
  // acknowledged write survives a crash or power loss), a busy handler that tries again every 0.5–2 ms
  // for up to options.busy_timeout_ms (store/sqlite/busy_wait.h); SQLite's automatic checkpoint is replaced by the
  // checkpointer. Refuses a SQLite with the WAL-reset bug unless options.allow_affected_sqlite.
  // Errors: kInvalidArgument (empty path), kNotFound (no file or folder), kIOError (read-only for a
  // writing mode; an affected SQLite), kCorruption (not a database).
  static Result<std::unique_ptr<Database>> Open(const Options& options);
  ~Database();

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }
  // True when opened OpenMode::kReadOnly: every write fails (kIOError).
  bool read_only() const { return read_only_; }

  // Runs SQL with no result rows (several statements allowed).
  Status Exec(std::string_view sql);

  // A cached prepared statement, reset and with bindings cleared. Valid until the Database dies.
  Result<Statement*> Cached(const std::string& sql);

  // Runs `body` inside BEGIN IMMEDIATE … COMMIT. When taking the write lock or committing reports
  // busy, rolls back, sleeps a uniformly random retry_jitter_min_ms..retry_jitter_max_ms and tries
  // again, up to max_write_attempts times (the jitter breaks the lock convoy of SQLite's own busy
  // handler; reference: Hermes state.db). Any error from `body` rolls back and is returned; `body`
  // is re-run from the start on a retry, so it must not keep state across attempts.
  // After a commit, the WAL is checkpointed when it is over Options::checkpoint_wal_frames and this
  // process is the file's checkpointer (store/sqlite/checkpointer.h; errors ignored).
  // Errors: whatever `body` returns; kBusy when every attempt found the database locked.
  Status WriteTransaction(const std::function<Status()>& body);

  // Runs `body` again (after a random retry_jitter_min_ms..retry_jitter_max_ms pause) while it
  // returns kBusy, up to max_write_attempts times. `body` must be safe to repeat.
  Status RetryOnBusy(const std::function<Status()>& body);

  // Runs `body` inside a read transaction (BEGIN … COMMIT) so that it sees one snapshot.
  Status ReadTransaction(const std::function<Status()>& body);

  // Single-value helpers.
  Result<int64_t> QueryInt(std::string_view sql);
  Result<std::string> QueryText(std::string_view sql);

 private:
  Database(sqlite3* db, std::string path, const Options& options);

  sqlite3* db_;
  std::string path_;
  Options options_;
  Checkpointer checkpointer_;
  BusyWait busy_wait_;
  bool read_only_ = false;
  std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
  // Write-lock waits of WriteTransaction (Options::lock_wait_log), and how long each committed
  // transaction held the lock (BEGIN IMMEDIATE taken to COMMIT done), in microseconds.
  int64_t transactions_ = 0;
  int64_t wait_total_us_ = 0;
  int64_t wait_max_us_ = 0;
  int64_t hold_total_us_ = 0;
  int64_t hold_max_us_ = 0;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_DATABASE_H_
