// server/engine_pool.h — the Engines a server process calls: one read-write Engine for every
// capability that writes, and read-only Engines (OpenMode::kReadOnly, each its own SQLite
// connection, WAL, each on a thread of its own: ReaderThreads) so that recalls run in parallel.
// An Engine serialises the calls on its connection; Run hands a call the Engine for its whole
// work (the call and the building of its reply).
//
// Thread-safe.
#ifndef ENGRAM_SERVER_ENGINE_POOL_H_
#define ENGRAM_SERVER_ENGINE_POOL_H_

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "engram/engine.h"
#include "server/reader_threads.h"

namespace engram::server {

class EnginePool {
 public:
  // Opens the writer with `options` (its open_mode: kReadWrite or kCreate; pending migrations
  // run) and then `readers` read-only Engines (0 = reads go to the writer). Errors: Engine::Open's.
  static Result<std::unique_ptr<EnginePool>> Open(const Options& options, int readers);

  // Runs `work` on an Engine for a call that only reads (`write` false: the first reader free, on
  // its own thread, in the order calls arrived) or writes (the writer, on the caller's thread),
  // and returns when it has returned (throwing what it throws). Errors: kDeadlineExceeded, `work`
  // not run, when no Engine was free within `budget`.
  Status Run(bool write, std::chrono::milliseconds budget, const ReaderThreads::Work& work);

  size_t readers() const { return readers_.size(); }

 private:
  struct Slot {
    std::unique_ptr<Engine> engine;
    std::timed_mutex mu;
  };
  std::unique_ptr<Slot> writer_;
  std::vector<std::unique_ptr<Engine>> readers_;
  std::unique_ptr<ReaderThreads> reader_threads_;  // of readers_; destroyed before them
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_ENGINE_POOL_H_
