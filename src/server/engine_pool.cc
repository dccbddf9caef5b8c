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
  std::vector<Engine*> engines;
  for (int i = 0; i < readers; ++i) {
    auto reader = Engine::Open(read_options);
    if (!reader) return Error(reader.error());
    engines.push_back(reader->get());
    pool->readers_.push_back(std::move(*reader));
  }
  pool->reader_threads_ = std::make_unique<ReaderThreads>(std::move(engines));
  return pool;
}

Status EnginePool::Run(bool write, std::chrono::milliseconds budget, const ReaderThreads::Work& work) {
  if (write || readers_.empty()) {
    std::unique_lock lock(writer_->mu, std::defer_lock);
    if (!lock.try_lock_for(budget)) {
      return Status::DeadlineExceeded(
          fmt::format("the writer stayed busy for the request's time budget ({} ms)", budget.count()));
    }
    work(*writer_->engine);
    return Status::Ok();
  }
  if (!reader_threads_->Run(budget, work)) {
    return Status::DeadlineExceeded(
        fmt::format("no reader was free within the request's time budget ({} ms)", budget.count()));
  }
  return Status::Ok();
}

}  // namespace engram::server
