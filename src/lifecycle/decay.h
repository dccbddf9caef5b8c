// lifecycle/decay.h — activation: how present a claim still is, decaying with a half-life and
// recovered by use.
//
// HL-Mem's default model, activation_halflife (../shared/reference/hlmem_hindsight.md §A5,
// "Decay"):
//
//   activation = clamp(base, 0, 1) · 2^(−inactive_days / half_life_days)
//
// with half-lives of 45 days (temporal), 90 days (permanent) and 365 days (identity); a claim is
// archived once its activation has stayed below 0.05 for a grace period of 7 days. inactive_days
// counts from the claim's last use — the latest of when it was recorded, when it became valid (a
// fact dated ahead does not age before its time), its last recall hit and its last helpful
// rating (on the claim, or on an event it was read from) — so a hit or a helpful
// rating resets the clock and the activation recovers to `base`. Frequent use also earns retention
// days, taken from HL-Mem's legacy_linear model (same section): +1 day per 5 recall hits (at most
// 30) and +14 days per 3 helpful ratings (at most 180), subtracted from inactive_days. Identity
// and explicit claims decay (for ranking) but are never archived. Confidence is never changed.
// Pure functions; `now` is always explicit (ms UTC). Layer: include/engram and lifecycle/ttl.h.
// Thread-safe.
#ifndef ENGRAM_LIFECYCLE_DECAY_H_
#define ENGRAM_LIFECYCLE_DECAY_H_

#include <cstdint>
#include <optional>

#include "engram/types.h"
#include "lifecycle/ttl.h"

namespace engram::lifecycle {

// HL-Mem §A5 activation_halflife constants.
inline constexpr double kHalfLifeTemporalDays = 45;
inline constexpr double kHalfLifePermanentDays = 90;
inline constexpr double kHalfLifeIdentityDays = 365;
inline constexpr double kArchiveThreshold = 0.05;
inline constexpr int64_t kArchiveGraceDays = 7;
// HL-Mem §A5 legacy_linear retention bonuses.
inline constexpr int64_t kAccessesPerBonusDay = 5;
inline constexpr int64_t kMaxAccessBonusDays = 30;
inline constexpr int64_t kHelpfulPerBonus = 3;
inline constexpr int64_t kHelpfulBonusDays = 14;
inline constexpr int64_t kMaxHelpfulBonusDays = 180;

// The half-life of a class, in days (explicit claims age like permanent ones).
double HalfLifeDays(LifecycleClass c);

struct DecayInput {
  LifecycleClass lifecycle_class = LifecycleClass::kPermanent;
  TimestampMs last_use = 0;  // ms UTC: max(recorded_from, valid_from, last hit, last helpful rating)
  int64_t access_count = 0;  // recall hits
  int64_t helpful = 0;       // helpful ratings
  double base = 1.0;         // activation right after a use
};

struct DecayState {
  double activation = 1.0;  // 0–1 at `now`
  double bonus_days = 0;    // retention days earned by use
  // When the activation fell (or falls, if in the future) below kArchiveThreshold, ms UTC; nullopt
  // when it is above at `now`.
  std::optional<TimestampMs> below_since;
  bool archive = false;  // below for at least kArchiveGraceDays and not protected
};

// The activation at `now` (ms UTC). A `now` before last_use counts as no inactivity.
DecayState Decay(const DecayInput& in, TimestampMs now);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_DECAY_H_
