// store/sqlite/fts_merge.h — merges an FTS5 index's segments in many short write transactions.
//
// Every commit that writes an FTS5 table adds a segment that later queries visit; `optimize`
// merges them all in one statement, which holds the write lock for as long as rewriting the
// whole index takes (seconds at tens of thousands of rows: every other writer waits, B43).
// FTS5's 'merge' command with a negative page count is the incremental form of it
// (sqlite.org/fts5.html, "The 'merge' Command"): each call merges about that many pages, with
// segments of all levels taken as one level, and a call that changes fewer than 2 rows
// (sqlite3_total_changes) found nothing left to merge.
#ifndef ENGRAM_STORE_SQLITE_FTS_MERGE_H_
#define ENGRAM_STORE_SQLITE_FTS_MERGE_H_

#include <chrono>
#include <cstdint>
#include <string_view>

#include "engram/status.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

// Pages one merge step writes: a few ms of work on this machine.
inline constexpr int kFtsMergePagesPerStep = 64;

// Merges `table`'s segments, kFtsMergePagesPerStep pages per write transaction, the write lock
// given up between two (YieldWriteLock), until a step finds nothing to merge, `max_steps` steps
// ran, or `deadline` (steady clock) passed before a step. Returns the steps that merged
// something. Errors: from SQLite (what was merged before stays merged). The caller must not be
// inside a transaction. Not thread-safe.
Result<int64_t> MergeFtsSegments(Database& db, std::string_view table, int64_t max_steps,
                                 std::chrono::steady_clock::time_point deadline =
                                     std::chrono::steady_clock::time_point::max());

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_FTS_MERGE_H_
