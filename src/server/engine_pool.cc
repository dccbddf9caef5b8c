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
    pool->readers_.push_back(std::move(*reader));
  }
  pool->free_readers_ = std::make_unique<FifoSlots>(pool->readers_.size());
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
  auto slot = free_readers_->Acquire(budget);
  if (!slot) {
    return Error(Status::DeadlineExceeded(
        fmt::format("no reader was free within the request's time budget ({} ms)", budget.count())));
  }
  return Lease(*readers_[*slot], *free_readers_, *slot);
}

}  // namespace engram::server
