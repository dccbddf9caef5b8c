#include "server/reader_threads.h"

#include <algorithm>
#include <utility>

namespace engram::server {

// A call waiting in line or running; lives on the caller's stack until Run returns.
struct ReaderThreads::Call {
  enum class State { kWaiting, kRunning, kDone };
  const Work* work = nullptr;
  State state = State::kWaiting;
  std::exception_ptr error;
  std::condition_variable changed;
};

ReaderThreads::ReaderThreads(std::vector<Engine*> readers) {
  threads_.reserve(readers.size());
  for (Engine* engine : readers) threads_.emplace_back([this, engine] { Serve(*engine); });
}

void ReaderThreads::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    // Calls still in line are refused: their callers see a deadline, not a hang.
    for (Call* call : line_) call->changed.notify_one();
  }
  arrived_.notify_all();
}

ReaderThreads::~ReaderThreads() {
  Stop();
  for (std::thread& t : threads_) t.join();
  // The refused callers leave the line under mu_: wait until every one has returned from Run.
  std::unique_lock lock(mu_);
  all_left_.wait(lock, [this] { return callers_ == 0; });
}

bool ReaderThreads::Run(std::chrono::milliseconds budget, const Work& work) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  Call call;
  call.work = &work;
  std::unique_lock lock(mu_);
  ++callers_;
  // Runs last, with mu_ held (every return and throw below holds it).
  struct Leave {
    ReaderThreads* self;
    ~Leave() {
      if (--self->callers_ == 0 && self->stop_) self->all_left_.notify_all();
    }
  } leave{this};
  if (stop_ || threads_.empty()) return false;
  line_.push_back(&call);
  arrived_.notify_one();
  call.changed.wait_until(lock, deadline, [&] { return stop_ || call.state != Call::State::kWaiting; });
  if (call.state == Call::State::kWaiting) {  // not taken in time, or stopping: leave the line
    line_.erase(std::find(line_.begin(), line_.end(), &call));
    return false;
  }
  call.changed.wait(lock, [&] { return call.state == Call::State::kDone; });
  if (call.error) std::rethrow_exception(call.error);
  return true;
}

size_t ReaderThreads::waiting() {
  std::lock_guard lock(mu_);
  return line_.size();
}

void ReaderThreads::Serve(Engine& engine) {
  std::unique_lock lock(mu_);
  while (true) {
    arrived_.wait(lock, [this] { return stop_ || !line_.empty(); });
    if (stop_) return;
    Call* call = line_.front();
    line_.pop_front();
    call->state = Call::State::kRunning;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*call->work)(engine);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    call->error = std::move(error);
    call->state = Call::State::kDone;
    call->changed.notify_one();  // under the lock: `call` lives until its wait returns
  }
}

}  // namespace engram::server
