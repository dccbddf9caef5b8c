// server/reader_threads.h — the server's read-only Engines, each with a thread of its own, and
// one line of calls waiting for them: a call runs on the first reader free, in the order the
// calls arrived, while the request's thread waits.
//
// Why threads of their own: cpp-httplib gives each connection a thread, so 32 connections meant
// 40 threads taking turns on 2 readers. Each request's work ran on whichever thread won a reader,
// with that thread's allocator cache (tcmalloc's are per thread) and the core's caches cold for
// it: a recall cost 1.26 ms of CPU at 2 connections and 1.58 ms at 32 (`perf stat` on the
// server, issue 13), tcmalloc's central free lists 19 % of the profile against 6 %. Handing a
// released reader to the next waiting thread also left it idle for two wake-ups between calls;
// a reader's thread now takes the next call from the line itself.
//
// Why one line in arrival order: a reader per mutex let a request that came later take a reader
// first, and p99 was 4–8× p50 at 32 connections.
//
// Thread-safe.
#ifndef ENGRAM_SERVER_READER_THREADS_H_
#define ENGRAM_SERVER_READER_THREADS_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "engram/engine.h"

namespace engram::server {

class ReaderThreads {
 public:
  using Work = std::function<void(Engine&)>;

  // Starts a thread for each of `readers` (not owned; they outlive this object).
  explicit ReaderThreads(std::vector<Engine*> readers);
  // Waits for the calls running, refuses those still in line (Run returns false), joins, and
  // returns once every caller has left Run. No Run may start after it has begun.
  ~ReaderThreads();
  ReaderThreads(const ReaderThreads&) = delete;
  ReaderThreads& operator=(const ReaderThreads&) = delete;

  // Refuses the calls in line and every later one (their Run returns false); the calls running
  // finish. The destructor stops first.
  void Stop();

  // Runs `work` on the first reader free, after the calls that arrived before it, and returns
  // true when it has returned (throwing what it threw); false, without running it, when no
  // reader took it within `budget` or the readers are stopping.
  bool Run(std::chrono::milliseconds budget, const Work& work);

  // Calls in line, not yet taken by a reader.
  size_t waiting();

 private:
  struct Call;
  void Serve(Engine& engine);

  std::mutex mu_;
  std::condition_variable arrived_;  // a call in line, or stop_
  std::condition_variable all_left_;  // callers_ reached 0 while stopping
  std::deque<Call*> line_;
  size_t callers_ = 0;  // inside Run
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_READER_THREADS_H_
