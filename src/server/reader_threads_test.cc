// ReaderThreads: calls run on the readers' own threads, in the order they arrived; a call not
// taken within its budget leaves the line unrun; what a call throws reaches its caller.
#include "server/reader_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace engram::server {
namespace {

constexpr std::chrono::milliseconds kLong{60000};

// Stand-ins for Engines: only their addresses are used.
Engine* FakeEngine(int i) { return reinterpret_cast<Engine*>(static_cast<uintptr_t>(0x1000 * (i + 1))); }

void UntilWaiting(ReaderThreads& readers, size_t n) {
  while (readers.waiting() != n) std::this_thread::yield();
}

TEST(ReaderThreadsTest, CallsRunOnTheReadersOwnThreadInArrivalOrder) {
  ReaderThreads readers({FakeEngine(0)});
  std::atomic<bool> release{false};
  std::atomic<bool> started{false};
  std::thread::id reader_thread;
  std::thread first([&] {
    EXPECT_TRUE(readers.Run(kLong, [&](Engine& e) {
      EXPECT_EQ(&e, FakeEngine(0));
      reader_thread = std::this_thread::get_id();
      started = true;
      while (!release) std::this_thread::yield();
    }));
  });
  while (!started) std::this_thread::yield();
  std::mutex mu;
  std::vector<int> served;
  std::vector<std::thread> callers;
  for (int i = 0; i < 3; ++i) {
    callers.emplace_back([&, i] {
      EXPECT_TRUE(readers.Run(kLong, [&](Engine&) {
        EXPECT_EQ(std::this_thread::get_id(), reader_thread);
        std::lock_guard lock(mu);
        served.push_back(i);
      }));
    });
    UntilWaiting(readers, static_cast<size_t>(i) + 1);  // caller i is in line before caller i + 1
  }
  release = true;
  first.join();
  for (auto& t : callers) t.join();
  EXPECT_EQ(served, (std::vector<int>{0, 1, 2}));
  EXPECT_NE(reader_thread, std::this_thread::get_id());
}

TEST(ReaderThreadsTest, ACallNotTakenInTimeLeavesTheLineUnrun) {
  ReaderThreads readers({FakeEngine(0)});
  std::atomic<bool> release{false};
  std::atomic<bool> started{false};
  std::thread holder([&] {
    readers.Run(kLong, [&](Engine&) {
      started = true;
      while (!release) std::this_thread::yield();
    });
  });
  while (!started) std::this_thread::yield();
  bool ran = false;
  EXPECT_FALSE(readers.Run(std::chrono::milliseconds(5), [&](Engine&) { ran = true; }));
  EXPECT_EQ(readers.waiting(), 0u);
  release = true;
  holder.join();
  EXPECT_FALSE(ran);
}

TEST(ReaderThreadsTest, WhatACallThrowsReachesItsCallerAndTheReaderServesOn) {
  ReaderThreads readers({FakeEngine(0), FakeEngine(1)});
  EXPECT_THROW(readers.Run(kLong, [](Engine&) { throw std::runtime_error("bad"); }), std::runtime_error);
  int after = 0;
  EXPECT_TRUE(readers.Run(kLong, [&](Engine&) { after = 7; }));
  EXPECT_EQ(after, 7);
}

TEST(ReaderThreadsTest, ManyCallersEachGetTheirOwnResult) {
  ReaderThreads readers({FakeEngine(0), FakeEngine(1)});
  std::vector<std::thread> callers;
  std::vector<int> right(8, 0);
  for (int i = 0; i < 8; ++i) {
    callers.emplace_back([&, i] {
      for (int k = 0; k < 200; ++k) {
        int got = -1;
        if (readers.Run(kLong, [&](Engine&) { got = i * 1000 + k; }) && got == i * 1000 + k) right[i] += 1;
      }
    });
  }
  for (auto& c : callers) c.join();
  for (int r : right) EXPECT_EQ(r, 200);
}

TEST(ReaderThreadsTest, StoppingRefusesTheCallsInLineAndWaitsForTheirCallers) {
  auto readers = std::make_unique<ReaderThreads>(std::vector<Engine*>{FakeEngine(0)});
  std::atomic<bool> release{false};
  std::atomic<bool> started{false};
  std::thread holder([&] {
    EXPECT_TRUE(readers->Run(kLong, [&](Engine&) {
      started = true;
      while (!release) std::this_thread::yield();
    }));
  });
  while (!started) std::this_thread::yield();
  bool ran = false;
  std::atomic<bool> refused{false};
  std::thread waiting([&] { refused = !readers->Run(kLong, [&](Engine&) { ran = true; }); });
  UntilWaiting(*readers, 1);
  readers->Stop();  // refuses the call in line; the running one goes on
  waiting.join();
  EXPECT_TRUE(refused);
  EXPECT_FALSE(readers->Run(kLong, [&](Engine&) { ran = true; }));  // and every later one
  std::thread stopper([&] { readers.reset(); });  // waits for the call running
  release = true;
  stopper.join();
  holder.join();
  EXPECT_FALSE(ran);
}

TEST(ReaderThreadsTest, NoReadersRunsNothing) {
  ReaderThreads readers({});
  bool ran = false;
  EXPECT_FALSE(readers.Run(std::chrono::milliseconds(5), [&](Engine&) { ran = true; }));
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace engram::server
