#include "store/sqlite/sqlite_version.h"

#include <sqlite3.h>

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

namespace engram::sqlite {

namespace {
constexpr int kFirstAffected = 3007000;  // 3.7.0, the first release with WAL
constexpr int kFixed = 3051003;          // 3.51.3
// Backports of the fix to older branches: [first fixed patch, next minor) of that branch.
struct Backport {
  int fixed;
  int branch_end;
};
constexpr Backport kBackports[] = {{3044006, 3045000}, {3050007, 3051000}};

bool AllowedByEnvironment() {
  const char* v = std::getenv("ENGRAM_ALLOW_AFFECTED_SQLITE");
  return v != nullptr && std::string_view(v) == "1";
}
}  // namespace

bool HasWalResetBug(int version_number) {
  if (version_number < kFirstAffected || version_number >= kFixed) return false;
  for (const Backport& b : kBackports) {
    if (version_number >= b.fixed && version_number < b.branch_end) return false;
  }
  return true;
}

std::string RunningSqliteVersion() { return sqlite3_libversion(); }

Status CheckSqliteVersion(bool allow_affected, int version_number) {
  if (version_number == 0) version_number = sqlite3_libversion_number();
  if (!HasWalResetBug(version_number)) return Status::Ok();
  if (allow_affected || AllowedByEnvironment()) return Status::Ok();
  return Status::IOError(fmt::format(
      "SQLite {} has the WAL-reset bug (https://sqlite.org/wal.html#walresetbug), which can lose "
      "committed writes when several processes share a database; engram refuses to run on it. "
      "Build engram with its bundled SQLite (make build), or set ENGRAM_ALLOW_AFFECTED_SQLITE=1 "
      "to accept the risk",
      fmt::format("{}.{}.{}", version_number / 1000000, version_number / 1000 % 1000, version_number % 1000)));
}

}  // namespace engram::sqlite
