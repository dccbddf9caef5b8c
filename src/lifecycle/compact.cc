#include "lifecycle/compact.h"

#include <sys/stat.h>

#include <chrono>
#include <fmt/format.h>

#include "util/time.h"

namespace engram::lifecycle {
namespace {

int64_t FileSize(const std::string& path) {
  struct stat sb;
  if (stat(path.c_str(), &sb) != 0) return 0;
  return static_cast<int64_t>(sb.st_size);
}

int64_t TotalBytes(const std::string& path) { return FileSize(path) + FileSize(path + "-wal"); }

}  // namespace

Result<CompactReport> Compact(sqlite::Database& db, sqlite::AuditLog& audit, std::string_view actor) {
  const auto start = std::chrono::steady_clock::now();
  CompactReport report;
  report.file_bytes_before = TotalBytes(db.path());

  // 1. One segment per full-text index: the terms of deleted rows are dropped while merging.
  ENGRAM_RETURN_IF_ERROR(db.WriteTransaction([&] {
    return db.Exec("INSERT INTO event_fts(event_fts) VALUES ('optimize');"
                   "INSERT INTO claim_fts(claim_fts) VALUES ('optimize');"
                   "INSERT INTO episode_fts(episode_fts) VALUES ('optimize');");
  }));
  // 2. A fresh file: no free page, no slack space. VACUUM cannot run inside a transaction; it
  // waits for the write lock like any writer.
  ENGRAM_RETURN_IF_ERROR(db.RetryOnBusy([&] { return db.Exec("VACUUM"); }));
  // The audit row goes in before the checkpoint so that the truncated WAL holds nothing after it.
  report.file_bytes_after = TotalBytes(db.path());
  ENGRAM_RETURN_IF_ERROR(db.WriteTransaction([&] {
    AuditEntry e;
    e.at = NowMs();
    e.actor = std::string(actor);
    e.action = "compact";
    e.object_type = "database";
    e.detail_json = fmt::format(R"({{"file_bytes_before":{},"file_bytes_after_vacuum":{}}})",
                                report.file_bytes_before, report.file_bytes_after);
    return audit.Append(e, std::nullopt);
  }));
  // 3. Every frame into the main file, then the WAL cut to 0 bytes (old frames held old pages).
  Status checkpoint = db.RetryOnBusy([&]() -> Status {
    int log_frames = 0, checkpointed = 0;
    int rc = sqlite3_wal_checkpoint_v2(db.handle(), nullptr, SQLITE_CHECKPOINT_TRUNCATE, &log_frames, &checkpointed);
    if (rc != SQLITE_OK) return sqlite::StatusFromSqlite(rc, db.handle(), "wal_checkpoint(TRUNCATE)");
    return Status::Ok();
  });
  if (!checkpoint.ok()) {
    return Error(checkpoint.WithContext(
        "compact: the full-text indexes were merged and the file vacuumed, but the WAL could not be "
        "truncated (another connection is reading); run compact again"));
  }
  report.wal_truncated = FileSize(db.path() + "-wal") == 0;
  report.file_bytes_after = TotalBytes(db.path());
  report.took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace engram::lifecycle
