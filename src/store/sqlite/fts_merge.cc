#include "store/sqlite/fts_merge.h"

#include <fmt/format.h>

#include <string>

#include "store/sqlite/busy_wait.h"

namespace engram::sqlite {
namespace {

// The table's usermerge as kFtsUserMerge. FTS5 keeps its options in the %_config table (k, v);
// an option never set has no row there.
Status SetUserMerge(Database& db, std::string_view table) {
  auto current = db.QueryInt(fmt::format("SELECT coalesce((SELECT v FROM {}_config WHERE k = 'usermerge'), 0)", table));
  if (!current) return current.error();
  if (*current == kFtsUserMerge) return Status::Ok();
  return db.WriteTransaction([&] {
    return db.Exec(fmt::format("INSERT INTO {0}({0}, rank) VALUES ('usermerge', {1})", table, kFtsUserMerge));
  });
}

}  // namespace

Result<int64_t> MergeFtsSegments(Database& db, std::string_view table, int64_t max_steps,
                                 std::chrono::steady_clock::time_point deadline) {
  if (std::chrono::steady_clock::now() >= deadline || max_steps < 1) return 0;
  ENGRAM_RETURN_IF_ERROR(SetUserMerge(db, table));
  const std::string sql = fmt::format("INSERT INTO {0}({0}, rank) VALUES ('merge', {1})", table, kFtsMergePagesPerStep);
  int64_t merged = 0;
  for (int64_t step = 0; step < max_steps && std::chrono::steady_clock::now() < deadline; ++step) {
    if (step > 0) YieldWriteLock();
    int64_t changed = 0;
    Status st = db.WriteTransaction([&]() -> Status {
      const int64_t before = sqlite3_total_changes64(db.handle());
      ENGRAM_RETURN_IF_ERROR(db.Exec(sql));
      changed = sqlite3_total_changes64(db.handle()) - before;
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    if (changed < 2) break;
    ++merged;
  }
  return merged;
}

}  // namespace engram::sqlite
