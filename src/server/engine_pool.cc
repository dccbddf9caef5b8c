#include "server/engine_pool.h"

#include <fmt/format.h>

namespace engram::server {

Result<std::unique_ptr<EnginePool>> EnginePool::Open(const Options& options, int readers) {
  auto pool = std::make_unique<EnginePool>();
  auto writer = Engine::Open(options);
  if (!writer) return Error(writer.error());
  pool->writer_ = std::make_unique<Slot>();
  pool->writer_->engine = std::move(*writer);
  Options read_options = options;
  read_options.open_mode = OpenMode::kReadOnly;
  for (int i = 0; i < readers; ++i) {
    auto reader = Engine::Open(read_options);
    if (!reader) return Error(reader.error());
    auto slot = std::make_unique<Slot>();
    slot->engine = std::move(*reader);
    pool->readers_.push_back(std::move(slot));
  }
  return pool;
}

Result<EnginePool::Lease> EnginePool::Acquire(bool write, std::chrono::milliseconds budget) {
  if (write || readers_.empty()) {
    if (!writer_->mu.try_lock_for(budget)) {
      return Error(Status::DeadlineExceeded(
          fmt::format("the writer stayed busy for the request's time budget ({} ms)", budget.count())));
    }
    return Lease(*writer_->engine, writer_->mu);
  }
  // A free reader if there is one; otherwise wait for the next in turn.
  const size_t start = next_.fetch_add(1, std::memory_order_relaxed);
  for (size_t i = 0; i < readers_.size(); ++i) {
    Slot& slot = *readers_[(start + i) % readers_.size()];
    if (slot.mu.try_lock()) return Lease(*slot.engine, slot.mu);
  }
  Slot& slot = *readers_[start % readers_.size()];
  if (!slot.mu.try_lock_for(budget)) {
    return Error(Status::DeadlineExceeded(
        fmt::format("no reader was free within the request's time budget ({} ms)", budget.count())));
  }
  return Lease(*slot.engine, slot.mu);
}

}  // namespace engram::server
