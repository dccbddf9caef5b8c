#include "server/fifo_slots.h"

#include <algorithm>

namespace engram::server {

FifoSlots::FifoSlots(size_t n) {
  for (size_t i = n; i > 0; --i) free_.push_back(i - 1);
}

std::optional<size_t> FifoSlots::Acquire(std::chrono::milliseconds budget) {
  std::unique_lock lock(mu_);
  if (waiting_.empty() && !free_.empty()) {
    const size_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  Waiter me;
  waiting_.push_back(&me);
  me.cv.wait_until(lock, std::chrono::steady_clock::now() + budget, [&] { return me.slot.has_value(); });
  // Handed a slot (even at the deadline: Release took `me` out of the line), or not: leave it.
  if (!me.slot) waiting_.erase(std::find(waiting_.begin(), waiting_.end(), &me));
  return me.slot;
}

void FifoSlots::Release(size_t slot) {
  std::lock_guard lock(mu_);
  if (waiting_.empty()) {
    free_.push_back(slot);
    return;
  }
  Waiter* first = waiting_.front();
  waiting_.pop_front();
  first->slot = slot;
  first->cv.notify_one();  // under the lock: `first` lives until its wait returns
}

size_t FifoSlots::waiting() {
  std::lock_guard lock(mu_);
  return waiting_.size();
}

}  // namespace engram::server
