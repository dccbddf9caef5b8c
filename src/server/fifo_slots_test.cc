#include "server/fifo_slots.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace engram::server {
namespace {

constexpr std::chrono::milliseconds kLong{60000};

// Waits (yielding) until `slots` has `n` callers in line.
void UntilWaiting(FifoSlots& slots, size_t n) {
  while (slots.waiting() != n) std::this_thread::yield();
}

TEST(FifoSlotsTest, FreeSlotsFirstThenCallersInArrivalOrder) {
  FifoSlots slots(2);
  auto a = slots.Acquire(kLong);
  auto b = slots.Acquire(kLong);
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  std::mutex mu;
  std::vector<int> served;
  std::vector<std::thread> callers;
  for (int i = 0; i < 3; ++i) {
    callers.emplace_back([&, i] {
      auto slot = slots.Acquire(kLong);
      ASSERT_TRUE(slot.has_value());
      {
        std::lock_guard lock(mu);
        served.push_back(i);
      }
      slots.Release(*slot);
    });
    UntilWaiting(slots, static_cast<size_t>(i) + 1);  // caller i is in line before caller i + 1 asks
  }
  slots.Release(*a);
  for (auto& t : callers) t.join();
  EXPECT_EQ(served, (std::vector<int>{0, 1, 2}));
  slots.Release(*b);
  // Both free again.
  auto c = slots.Acquire(kLong);
  auto d = slots.Acquire(kLong);
  EXPECT_TRUE(c && d);
}

TEST(FifoSlotsTest, ACallerThatGaveUpLeavesTheLine) {
  FifoSlots slots(1);
  auto held = slots.Acquire(kLong);
  ASSERT_TRUE(held);
  EXPECT_FALSE(slots.Acquire(std::chrono::milliseconds(5)).has_value());
  EXPECT_EQ(slots.waiting(), 0u);
  slots.Release(*held);  // to the free ones, not to the caller that left
  EXPECT_EQ(slots.Acquire(std::chrono::milliseconds(0)), held);
}

}  // namespace
}  // namespace engram::server
