// store/sqlite/busy_wait.h — how a connection waits for a lock another connection holds.
//
// SQLite's own busy handler (sqlite3_busy_timeout) sleeps 1, 2, 5, 10, ... up to 100 ms between
// attempts. A writer that waits behind a long run of short transactions (a drain commits every
// few tens of ms and gives the lock up for a few ms in between) then mostly sleeps through the
// gaps and can wait for seconds although the lock is free every few ms (bug_scenarios.md B43).
// This handler tries again every kBusyPollMinMs..kBusyPollMaxMs (jittered, so that waiting
// processes do not move in lockstep) until the busy timeout has passed since the first try.
#ifndef ENGRAM_STORE_SQLITE_BUSY_WAIT_H_
#define ENGRAM_STORE_SQLITE_BUSY_WAIT_H_

#include <sqlite3.h>

#include <chrono>
#include <cstdint>

namespace engram::sqlite {

// Poll interval bounds, in microseconds. A poll is one attempt at a file lock (a system call),
// so 8 waiting processes cost a few thousand system calls a second.
inline constexpr int64_t kBusyPollMinUs = 500;
inline constexpr int64_t kBusyPollMaxUs = 2000;

// How long a connection that commits many short transactions in a row (a drain, a chunked
// maintenance step) pauses between two of them, in microseconds: longer than the longest poll
// interval, so that a connection waiting for the write lock sees it free and takes it.
inline constexpr int64_t kYieldWriteLockUs = 3000;

// Sleeps kYieldWriteLockUs. Call between two write transactions, never inside one. Thread-safe.
void YieldWriteLock();

// The state of one connection's busy handler. Lives as long as the connection.
class BusyWait {
 public:
  explicit BusyWait(int timeout_ms) : timeout_ms_(timeout_ms) {}

  // Installs the handler on `db` (replaces any busy timeout). `this` must outlive `db`'s use.
  void Attach(sqlite3* db);

  // The handler: `count` is 0 on the first call of a wait. Sleeps one poll interval and returns
  // 1 (try again) while less than the timeout has passed since that first call, else 0 (SQLite
  // returns SQLITE_BUSY). Thread-compatible (one connection, one thread at a time).
  int OnBusy(int count);

 private:
  int timeout_ms_;
  std::chrono::steady_clock::time_point first_{};
  uint64_t rng_state_ = 0;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_BUSY_WAIT_H_
