// store/sqlite/fts_merge.h — merges an FTS5 index's small segments in many short write
// transactions, so that a merge after a drain costs what the drain wrote, not the index's size.
//
// Every commit that writes an FTS5 table adds a segment that later queries visit; FTS5's
// automerge keeps up to `automerge` (4) segments per level, so an index can hold a dozen or more.
// `optimize`, and 'merge' with a negative page count (its incremental form), rewrite every segment
// into one: their cost follows the index's size (at 104k claims, 48% of a 2,000-event drain was
// that merge, B43). 'merge' with a positive page count merges only levels holding at least
// `usermerge` segments, and any merge already started (sqlite.org/fts5.html, "The 'merge'
// Command"): with usermerge 2 the new small segments are merged with each other and with the
// levels of similar size they reach, LSM-like, leaving about one segment per level, and the large
// old segments are rewritten only as often as a level-wise merge reaches them. A call that changes
// fewer than 2 rows (sqlite3_total_changes) found nothing to merge.
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
// FTS5's usermerge for these merges: the fewest segments of one level that a step merges (2, the
// smallest FTS5 allows; its default 4 equals automerge's, so a step would find nearly nothing).
inline constexpr int kFtsUserMerge = 2;

// Sets `table`'s usermerge to kFtsUserMerge (a persistent FTS5 option; written only when it
// differs), then merges its segments, kFtsMergePagesPerStep pages per write transaction, the
// write lock given up between two (YieldWriteLock), until a step finds nothing to merge,
// `max_steps` steps ran, or `deadline` (steady clock) passed before a step. Returns the steps that
// merged something. Errors: from SQLite (what was merged before stays merged). The caller must
// not be inside a transaction. Not thread-safe.
Result<int64_t> MergeFtsSegments(Database& db, std::string_view table, int64_t max_steps,
                                 std::chrono::steady_clock::time_point deadline =
                                     std::chrono::steady_clock::time_point::max());

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_FTS_MERGE_H_
