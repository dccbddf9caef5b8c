// server/engine_pool.h — the Engines a server process calls: one read-write Engine for every
// capability that writes, and a pool of read-only Engines (OpenMode::kReadOnly, each its own
// SQLite connection, WAL) so that recalls run in parallel. An Engine serialises the calls on its
// connection, so a caller holds a lease on one while its call runs.
//
// Thread-safe.
#ifndef ENGRAM_SERVER_ENGINE_POOL_H_
#define ENGRAM_SERVER_ENGINE_POOL_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "engram/engine.h"

namespace engram::server {

class EnginePool {
 public:
  // One Engine held for one call; released on destruction.
  class Lease {
   public:
    Lease(Engine& engine, std::timed_mutex& mu) : engine_(&engine), mu_(&mu) {}
    Lease(Lease&& other) noexcept : engine_(other.engine_), mu_(other.mu_) { other.mu_ = nullptr; }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (mu_ != nullptr) mu_->unlock();
    }
    Engine& engine() const { return *engine_; }

   private:
    Engine* engine_;
    std::timed_mutex* mu_;
  };

  // Opens the writer with `options` (its open_mode: kReadWrite or kCreate; pending migrations
  // run) and then `readers` read-only Engines (0 = reads go to the writer). Errors: Engine::Open's.
  static Result<std::unique_ptr<EnginePool>> Open(const Options& options, int readers);

  // An Engine for a call that only reads (`write` false) or writes, waiting at most `budget` for
  // one to be free. Errors: kDeadlineExceeded when none was free within the budget.
  Result<Lease> Acquire(bool write, std::chrono::milliseconds budget);

  // The writer, for the in-process worker and maintenance (they take the same lease).
  Result<Lease> AcquireWriter(std::chrono::milliseconds budget) { return Acquire(true, budget); }

  size_t readers() const { return readers_.size(); }

 private:
  struct Slot {
    std::unique_ptr<Engine> engine;
    std::timed_mutex mu;
  };
  std::unique_ptr<Slot> writer_;
  std::vector<std::unique_ptr<Slot>> readers_;
  std::atomic<size_t> next_{0};
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_ENGINE_POOL_H_
