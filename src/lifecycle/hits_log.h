// lifecycle/hits_log.h — recall hits kept in a file beside the database, so that recall never
// writes the database (docs/lifecycle.md, "Recall hits").
//
// "<db>-hits" holds lines "<claim id> <count> <last ms>". A reader appends its hits in one write(2)
// with O_APPEND (no database lock, no transaction); a maintenance pass takes the whole file away
// (rename, then an exclusive flock that waits for appends in flight) and writes its counts into
// the claims. Appends hold a shared flock and reopen when a fold renamed the file under them, so
// a hit is never appended to a file already read. A crash between taking and committing loses
// those hits: they are a lifecycle signal, not acknowledged data.
#ifndef ENGRAM_LIFECYCLE_HITS_LOG_H_
#define ENGRAM_LIFECYCLE_HITS_LOG_H_

#include <cstdint>
#include <string>

#include "engram/status.h"
#include "lifecycle/access_batch.h"

namespace engram::lifecycle {

class HitsLog {
 public:
  // A log larger than this takes no more appends until a pass folds it (hits are dropped: with
  // the worker's default 10-minute pass it is never reached; ≈ 400,000 claim hits).
  static constexpr int64_t kMaxBytes = int64_t{16} << 20;

  // The log of the database at `db_path`: "<db_path>-hits".
  explicit HitsLog(const std::string& db_path) : path_(db_path + "-hits") {}

  const std::string& path() const { return path_; }

  // Appends the hits of `batch` (nothing when it is empty). Errors: kIOError. Thread-safe.
  Status Append(const AccessBatch& batch) const;

  // Moves every hit of the log into `batch` and removes it from the log. Returns the lines taken
  // (0 when there is no log). Errors: kIOError. Thread-safe.
  Result<int64_t> TakeInto(AccessBatch& batch) const;

 private:
  std::string path_;
};

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_HITS_LOG_H_
