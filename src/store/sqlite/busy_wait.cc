#include "store/sqlite/busy_wait.h"

#include <random>
#include <thread>

namespace engram::sqlite {
namespace {

int Handler(void* self, int count) { return static_cast<BusyWait*>(self)->OnBusy(count); }

}  // namespace

void YieldWriteLock() { std::this_thread::sleep_for(std::chrono::microseconds(kYieldWriteLockUs)); }

void BusyWait::Attach(sqlite3* db) {
  rng_state_ = std::random_device{}() | 1;
  sqlite3_busy_handler(db, timeout_ms_ > 0 ? &Handler : nullptr, this);
}

int BusyWait::OnBusy(int count) {
  const auto now = std::chrono::steady_clock::now();
  if (count == 0) first_ = now;
  if (now - first_ >= std::chrono::milliseconds(timeout_ms_)) return 0;
  // xorshift64: a jitter that needs no lock and no seed per call.
  rng_state_ ^= rng_state_ << 13;
  rng_state_ ^= rng_state_ >> 7;
  rng_state_ ^= rng_state_ << 17;
  const int64_t span = kBusyPollMaxUs - kBusyPollMinUs;
  const int64_t sleep_us = kBusyPollMinUs + static_cast<int64_t>(rng_state_ % static_cast<uint64_t>(span + 1));
  std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
  return 1;
}

}  // namespace engram::sqlite
