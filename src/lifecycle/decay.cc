#include "lifecycle/decay.h"

#include <algorithm>
#include <cmath>

namespace engram::lifecycle {

double HalfLifeDays(LifecycleClass c) {
  switch (c) {
    case LifecycleClass::kTemporal:
      return kHalfLifeTemporalDays;
    case LifecycleClass::kIdentity:
      return kHalfLifeIdentityDays;
    case LifecycleClass::kPermanent:
    case LifecycleClass::kExplicit:
      return kHalfLifePermanentDays;
  }
  return kHalfLifePermanentDays;
}

DecayState Decay(const DecayInput& in, TimestampMs now) {
  DecayState out;
  const double base = std::clamp(in.base, 0.0, 1.0);
  const double half_life = HalfLifeDays(in.lifecycle_class);
  const int64_t access_bonus = std::min(kMaxAccessBonusDays, std::max<int64_t>(in.access_count, 0) / kAccessesPerBonusDay);
  const int64_t helpful_bonus =
      std::min(kMaxHelpfulBonusDays, (std::max<int64_t>(in.helpful, 0) / kHelpfulPerBonus) * kHelpfulBonusDays);
  out.bonus_days = static_cast<double>(access_bonus + helpful_bonus);
  const double idle_days = static_cast<double>(std::max<TimestampMs>(now - in.last_use, 0)) / static_cast<double>(kDayMs);
  const double inactive_days = std::max(0.0, idle_days - out.bonus_days);
  out.activation = base * std::exp2(-inactive_days / half_life);
  if (base <= kArchiveThreshold) {
    // Never above the threshold: below since the last use.
    out.below_since = in.last_use;
  } else if (out.activation < kArchiveThreshold) {
    // base · 2^(−d / h) = threshold  ⇔  d = h · log2(base / threshold); ms are whole.
    const double crossing_days = out.bonus_days + half_life * std::log2(base / kArchiveThreshold);
    out.below_since = in.last_use + static_cast<TimestampMs>(std::ceil(crossing_days * static_cast<double>(kDayMs)));
  }
  out.archive = out.below_since.has_value() && !IsProtected(in.lifecycle_class) &&
                now - *out.below_since >= kArchiveGraceDays * kDayMs;
  return out;
}

}  // namespace engram::lifecycle
