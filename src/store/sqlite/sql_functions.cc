#include "store/sqlite/sql_functions.h"

#include <string>

#include "util/time.h"

namespace engram::sqlite {
namespace {

extern "C" void IsoTime(sqlite3_context* context, int argc, sqlite3_value** argv) {
  if (argc != 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(context);
    return;
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
    sqlite3_result_error(context, "iso_time: expected INTEGER ms since the epoch", -1);
    return;
  }
  const std::string text = FormatTimestamp(sqlite3_value_int64(argv[0]));
  sqlite3_result_text(context, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

}  // namespace

Status RegisterSqlFunctions(sqlite3* db) {
  int rc = sqlite3_create_function_v2(db, "iso_time", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      nullptr, IsoTime, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return Status::Internal(std::string("register iso_time: ") + sqlite3_errstr(rc));
  return Status::Ok();
}

}  // namespace engram::sqlite
