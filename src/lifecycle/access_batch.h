// lifecycle/access_batch.h — recall hits counted in memory and written in one short write.
//
// Recall is a read transaction and must stay fast, so a hit is not written when it happens: the
// Engine records the recalled claim ids here and writes them (access_count += hits,
// last_accessed_at = latest hit) when a flush is due, in Maintain, and when it is destroyed.
// Hits not yet written are lost if the process dies — they only feed activation (a softer decay),
// never correctness. Not thread-safe: the Engine serialises calls.
#ifndef ENGRAM_LIFECYCLE_ACCESS_BATCH_H_
#define ENGRAM_LIFECYCLE_ACCESS_BATCH_H_

#include <cstdint>
#include <string>
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

  size_t pending() const { return pending_.size(); }

  // Writes the pending hits inside the caller's write transaction; returns the claims updated (a
  // forgotten id updates nothing). Call Clear() once the transaction committed.
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
