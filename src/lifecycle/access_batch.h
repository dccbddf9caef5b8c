// lifecycle/access_batch.h — recall hits counted in memory, written to the hits log beside the
// database (lifecycle/hits_log.h) and folded into claims by a maintenance pass.
//
// Recall reads and must never write the database, so a hit is not written where it happens: the
// Engine records the recalled claim ids here, appends them to the hits log when due and when it is
// destroyed, and Maintain moves the log's hits back here and writes them (access_count += hits,
// last_accessed_at = latest hit) in its own write transaction. Hits not yet in the log are lost if
// the process dies — they only feed activation (a softer decay), never correctness. Not
// thread-safe: the Engine serialises calls.
#ifndef ENGRAM_LIFECYCLE_ACCESS_BATCH_H_
#define ENGRAM_LIFECYCLE_ACCESS_BATCH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

class AccessBatch {
 public:
  // Counts one hit for each claim id at `at` (ms UTC).
  void Record(const std::vector<std::string>& claim_ids, TimestampMs at);

  // True when `max_claims` claims are pending, or the oldest pending hit is `max_age_ms` old at
  // `now` (ms UTC). False when nothing is pending.
  bool Due(TimestampMs now, int max_claims, int64_t max_age_ms) const;

  // Adds `count` hits of one claim, the latest at `last` (ms UTC). A count below 1 adds nothing.
  void Add(const std::string& claim_id, int64_t count, TimestampMs last);

  size_t pending() const { return pending_.size(); }

  // The pending hits as text, one claim a line: "<claim id> <count> <last ms>\n".
  std::string Serialize() const;
  // Adds every well-formed line of `text` (Serialize's format); a torn or malformed line (a
  // process killed mid-write) is skipped. Returns the lines added.
  int64_t Parse(std::string_view text);

  // Writes the pending hits inside the caller's write transaction; returns the claims, episodes and
  // rules updated (ids are ULIDs, unique across them; a forgotten id updates nothing). Episode and
  // rule hits are experience recall's accesses (experience/experience_forget_score.h). Call
  // Clear() once the transaction committed.
  Result<int64_t> WriteInTransaction(sqlite::Database& db) const;
  void Clear();

 private:
  struct Hits {
    int64_t count = 0;
    TimestampMs last = 0;
  };
  std::unordered_map<std::string, Hits> pending_;
  TimestampMs oldest_ = 0;
};

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_ACCESS_BATCH_H_
