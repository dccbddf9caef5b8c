// server/engine_pool.h — the Engines a server process calls: one read-write Engine for every
// capability that writes, and a pool of read-only Engines (OpenMode::kReadOnly, each its own
// SQLite connection, WAL) so that recalls run in parallel. An Engine serialises the calls on its
// connection, so a caller holds a lease on one while its call runs.
//
// Thread-safe.
#ifndef ENGRAM_SERVER_ENGINE_POOL_H_
#define ENGRAM_SERVER_ENGINE_POOL_H_

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "engram/engine.h"
#include "server/fifo_slots.h"

namespace engram::server {

class EnginePool {
 public:
  // One Engine held for one call; released on destruction.
  class Lease {
   public:
    // The writer, held through its mutex.
    Lease(Engine& engine, std::timed_mutex& mu) : engine_(&engine), mu_(&mu) {}
    // Reader `slot` of `readers`.
    Lease(Engine& engine, FifoSlots& readers, size_t slot) : engine_(&engine), readers_(&readers), slot_(slot) {}
    Lease(Lease&& other) noexcept
        : engine_(other.engine_), mu_(other.mu_), readers_(other.readers_), slot_(other.slot_) {
      other.mu_ = nullptr;
      other.readers_ = nullptr;
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (mu_ != nullptr) mu_->unlock();
      if (readers_ != nullptr) readers_->Release(slot_);
    }
    Engine& engine() const { return *engine_; }

   private:
    Engine* engine_;
    std::timed_mutex* mu_ = nullptr;
    FifoSlots* readers_ = nullptr;
    size_t slot_ = 0;
  };

  // Opens the writer with `options` (its open_mode: kReadWrite or kCreate; pending migrations
  // run) and then `readers` read-only Engines (0 = reads go to the writer). Errors: Engine::Open's.
  static Result<std::unique_ptr<EnginePool>> Open(const Options& options, int readers);

  // An Engine for a call that only reads (`write` false) or writes, waiting at most `budget` for
  // one to be free. Readers are handed out in the order asked (FifoSlots). Errors:
  // kDeadlineExceeded when none was free within the budget.
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
  std::vector<std::unique_ptr<Engine>> readers_;
  std::unique_ptr<FifoSlots> free_readers_;  // of readers_
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_ENGINE_POOL_H_
