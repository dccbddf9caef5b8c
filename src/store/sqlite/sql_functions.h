// store/sqlite/sql_functions.h — SQL functions engram adds to every connection.
//
//   iso_time(ms) → "2023-05-08T13:56:00.000Z" (util/time.h FormatTimestamp) for an INTEGER of ms
//   since the epoch, UTC; NULL for NULL. Deterministic. Used where SQL writes JSON for people and
//   other programs (export), so that every time engram prints is ISO-8601 with Z.
#ifndef ENGRAM_STORE_SQLITE_SQL_FUNCTIONS_H_
#define ENGRAM_STORE_SQLITE_SQL_FUNCTIONS_H_

#include <sqlite3.h>

#include "engram/status.h"

namespace engram::sqlite {

// Registers the functions on `db`. Errors: kInternal when SQLite refuses (out of memory).
Status RegisterSqlFunctions(sqlite3* db);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_SQL_FUNCTIONS_H_
