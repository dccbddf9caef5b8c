#include "store/sqlite/database.h"

#include "store/sqlite/sql_functions.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "store/sqlite/sqlite_version.h"
#include "store/sqlite/open_target.h"

namespace engram::sqlite {

Status StatusFromSqlite(int rc, sqlite3* db, std::string_view what) {
  std::string msg = fmt::format("{}: {}", what, db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE: return Status::Ok();
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return Status::Busy(msg);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return Status::Corruption(msg);
    case SQLITE_CONSTRAINT: return Status::AlreadyExists(msg);
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_PERM: return Status::IOError(msg);
    default: return Status::Internal(msg);
  }
}

// ---- Statement -------------------------------------------------------------------------------

Statement::Statement(Statement&& other) noexcept : stmt_(other.stmt_) { other.stmt_ = nullptr; }

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = other.stmt_;
    other.stmt_ = nullptr;
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Result<Statement> Statement::Prepare(sqlite3* db, std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                              &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return Error(StatusFromSqlite(rc, db, fmt::format("prepare \"{}\"", sql.substr(0, 80))));
  }
  return Statement(stmt);
}

Statement& Statement::Bind(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}
Statement& Statement::Bind(int index, double value) {
  sqlite3_bind_double(stmt_, index, value);
  return *this;
}
Statement& Statement::Bind(int index, std::string_view value) {
  sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}
Statement& Statement::BindNull(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}
Statement& Statement::BindOptional(int index, std::string_view value) {
  return value.empty() ? BindNull(index) : Bind(index, value);
}

Result<bool> Statement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3* db = sqlite3_db_handle(stmt_);
  Status st = StatusFromSqlite(rc, db, "step");
  sqlite3_reset(stmt_);
  return Error(st);
}

Result<std::vector<int64_t>> Statement::Ints() {
  std::vector<int64_t> out;
  while (true) {
    auto row = Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back(Int(0));
  }
  Reset();
  return out;
}

Status Statement::Run() {
  auto r = Step();
  if (!r) return r.error();
  sqlite3_reset(stmt_);
  return Status::Ok();
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t Statement::Int(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::Double(int column) const { return sqlite3_column_double(stmt_, column); }
std::string Statement::Text(int column) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (p == nullptr) return {};
  return std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}
std::string_view Statement::Blob(int column) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
  if (p == nullptr) return {};
  return std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}
bool Statement::IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

std::string JsonIntArray(const std::vector<int64_t>& ids) {
  std::string list = "[";
  for (size_t i = 0; i < ids.size(); ++i) list += (i ? "," : "") + std::to_string(ids[i]);
  return list + "]";
}

// ---- Database --------------------------------------------------------------------------------

Database::Database(sqlite3* db, std::string path, const Options& options)
    : db_(db),
      path_(std::move(path)),
      options_(options),
      checkpointer_(path_, options.checkpoint_wal_frames),
      busy_wait_(options.busy_timeout_ms) {
  checkpointer_.Attach(db_);
  busy_wait_.Attach(db_);
}

Database::~Database() {
  if (!options_.lock_wait_log.empty() && transactions_ > 0) {
    // One line, appended in one write(2) with O_APPEND, so lines of concurrent processes never mix.
    const std::string line =
        fmt::format("{{\"pid\":{},\"transactions\":{},\"wait_total_ms\":{:.3f},\"wait_max_ms\":{:.3f},"
                    "\"hold_total_ms\":{:.3f},\"hold_max_ms\":{:.3f}}}\n",
                    getpid(), transactions_, wait_total_us_ / 1000.0, wait_max_us_ / 1000.0,
                    hold_total_us_ / 1000.0, hold_max_us_ / 1000.0);
    const int fd = open(options_.lock_wait_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
      (void)!write(fd, line.data(), line.size());
      close(fd);
    }
  }
  cache_.clear();
  // No checkpoint here: only the checkpointer checkpoints (after its commits), and the last
  // connection to close folds the WAL back itself (SQLite does, under an exclusive lock).
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Result<std::unique_ptr<Database>> Database::Open(const Options& options) {
  ENGRAM_RETURN_IF_ERROR(CheckSqliteVersion(options.allow_affected_sqlite));
  // The open mode's file checks and flags (store/sqlite/open_target.h): nothing SQLite would
  // create or initialise is opened unless the mode allows it.
  auto target = ResolveOpenTarget(options);
  if (!target) return Error(target.error());
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(target->filename.c_str(), &db, target->flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    Status st = StatusFromSqlite(rc, db, fmt::format("open {}", options.db_path));
    sqlite3_close_v2(db);
    return Error(st);
  }
  if (!target->read_only && sqlite3_db_readonly(db, "main") == 1) {
    sqlite3_close_v2(db);
    return Error(Status::IOError(fmt::format("database \"{}\" can only be opened read-only", options.db_path)));
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, options.busy_timeout_ms);  // until the Database installs BusyWait
  if (Status functions = RegisterSqlFunctions(db); !functions.ok()) {
    sqlite3_close_v2(db);
    return Error(functions);
  }
  std::unique_ptr<Database> database(new Database(db, options.db_path, options));
  database->read_only_ = target->read_only;

  // Journal mode: read first; setting WAL again can unlink WAL files other connections hold.
  // Switching a fresh file to WAL needs an exclusive lock, and SQLite reports a conflict there as
  // busy without waiting (to avoid deadlock), so two processes opening a new file at once retry
  // with jitter like writers do.
  // A read-only connection never sets it (that is a write).
  Status setup = database->RetryOnBusy([&]() -> Status {
    auto mode = database->QueryText("PRAGMA journal_mode");
    if (!mode) return mode.error();
    if (*mode != "wal" && !target->read_only) {
      auto set = database->QueryText("PRAGMA journal_mode=WAL");
      if (!set) return set.error();
    }
    return database->Exec("PRAGMA foreign_keys=ON; PRAGMA secure_delete=ON; PRAGMA synchronous=FULL;");
  });
  if (!setup.ok()) return Error(setup.WithContext(fmt::format("open {}", options.db_path)));
  const int64_t mmap_bytes = options.mmap_bytes > 0 ? options.mmap_bytes : 0;
  Status mapped = database->Exec(fmt::format("PRAGMA mmap_size={}", mmap_bytes));
  if (!mapped.ok()) return Error(mapped.WithContext(fmt::format("open {}", options.db_path)));
  return database;
}

Status Database::Exec(std::string_view sql) {
  char* err = nullptr;
  std::string s(sql);
  int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err != nullptr ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    Status st = StatusFromSqlite(rc, nullptr, fmt::format("{} [{}]", msg, s.substr(0, 60)));
    return st;
  }
  return Status::Ok();
}

Result<Statement*> Database::Cached(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    auto stmt = Statement::Prepare(db_, sql);
    if (!stmt) return Error(stmt.error());
    it = cache_.emplace(sql, std::make_unique<Statement>(std::move(*stmt))).first;
  }
  it->second->Reset();
  return it->second.get();
}

Status Database::RetryOnBusy(const std::function<Status()>& body) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  std::uniform_int_distribution<int> jitter(options_.retry_jitter_min_ms, options_.retry_jitter_max_ms);
  Status st;
  for (int attempt = 0; attempt < options_.max_write_attempts; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(jitter(rng)));
    st = body();
    if (st.code() != StatusCode::kBusy) return st;
  }
  return st;
}

Status Database::WriteTransaction(const std::function<Status()>& body) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  std::uniform_int_distribution<int> jitter(options_.retry_jitter_min_ms, options_.retry_jitter_max_ms);
  Status last;
  const auto first_try = std::chrono::steady_clock::now();
  for (int attempt = 0; attempt < options_.max_write_attempts; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(jitter(rng)));
    Status begin = Exec("BEGIN IMMEDIATE");
    if (!begin.ok()) {
      last = begin;
      if (begin.code() == StatusCode::kBusy) continue;
      return begin;
    }
    const int64_t waited_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                  std::chrono::steady_clock::now() - first_try).count();
    ++transactions_;
    wait_total_us_ += waited_us;
    wait_max_us_ = std::max(wait_max_us_, waited_us);
    const auto locked_at = std::chrono::steady_clock::now();
    Status st = body();
    if (!st.ok()) {
      Exec("ROLLBACK");
      if (st.code() == StatusCode::kBusy) {
        last = st;
        continue;
      }
      return st;
    }
    Status commit = Exec("COMMIT");
    if (!commit.ok()) {
      Exec("ROLLBACK");
      last = commit;
      if (commit.code() == StatusCode::kBusy) continue;
      return commit;
    }
    const int64_t held_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now() - locked_at).count();
    hold_total_us_ += held_us;
    hold_max_us_ = std::max(hold_max_us_, held_us);
    checkpointer_.MaybeCheckpoint(db_);
    return Status::Ok();
  }
  return Status::Busy(fmt::format("database stayed locked after {} attempts: {}",
                                  options_.max_write_attempts, last.message()));
}

Status Database::ReadTransaction(const std::function<Status()>& body) {
  ENGRAM_RETURN_IF_ERROR(Exec("BEGIN"));
  Status st = body();
  Exec(st.ok() ? "COMMIT" : "ROLLBACK");
  return st;
}

Result<int64_t> Database::QueryInt(std::string_view sql) {
  auto stmt = Statement::Prepare(db_, sql);
  if (!stmt) return Error(stmt.error());
  auto row = stmt->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no row: {}", sql)));
  return stmt->Int(0);
}

Result<std::string> Database::QueryText(std::string_view sql) {
  auto stmt = Statement::Prepare(db_, sql);
  if (!stmt) return Error(stmt.error());
  auto row = stmt->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no row: {}", sql)));
  return stmt->Text(0);
}

}  // namespace engram::sqlite
