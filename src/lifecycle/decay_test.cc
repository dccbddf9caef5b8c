// lifecycle/decay_test.cc — half-life activation, retention bonuses, threshold and grace
// (HL-Mem §A5), with an explicit clock.
#include "lifecycle/decay.h"

#include <gtest/gtest.h>

#include <cmath>

namespace engram::lifecycle {
namespace {

constexpr TimestampMs kT0 = 1'700'000'000'000;

DecayInput Input(LifecycleClass c, int64_t accesses = 0, int64_t helpful = 0) {
  DecayInput in;
  in.lifecycle_class = c;
  in.last_use = kT0;
  in.access_count = accesses;
  in.helpful = helpful;
  return in;
}

TEST(DecayTest, ActivationHalvesEveryHalfLife) {
  EXPECT_DOUBLE_EQ(Decay(Input(LifecycleClass::kPermanent), kT0).activation, 1.0);
  EXPECT_NEAR(Decay(Input(LifecycleClass::kPermanent), kT0 + 90 * kDayMs).activation, 0.5, 1e-12);
  EXPECT_NEAR(Decay(Input(LifecycleClass::kPermanent), kT0 + 180 * kDayMs).activation, 0.25, 1e-12);
  EXPECT_NEAR(Decay(Input(LifecycleClass::kTemporal), kT0 + 45 * kDayMs).activation, 0.5, 1e-12);
  EXPECT_NEAR(Decay(Input(LifecycleClass::kIdentity), kT0 + 365 * kDayMs).activation, 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(Decay(Input(LifecycleClass::kPermanent), kT0 - kDayMs).activation, 1.0)
      << "a clock before the last use is no inactivity";
}

TEST(DecayTest, UseEarnsRetentionDays) {
  // 10 hits = 2 days; 6 helpful = 28 days (HL-Mem legacy_linear bonuses).
  DecayState s = Decay(Input(LifecycleClass::kPermanent, 10, 6), kT0 + 120 * kDayMs);
  EXPECT_DOUBLE_EQ(s.bonus_days, 30);
  EXPECT_NEAR(s.activation, 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(Decay(Input(LifecycleClass::kPermanent, 1000, 0), kT0).bonus_days, 30) << "capped";
  EXPECT_DOUBLE_EQ(Decay(Input(LifecycleClass::kPermanent, 0, 300), kT0).bonus_days, 180) << "capped";
}

TEST(DecayTest, ArchivedOnlyAfterTheGracePeriodBelowThreshold) {
  // Permanent: 0.05 is reached after 90 · log2(20) ≈ 388.97 days.
  const double crossing = 90 * std::log2(20.0);
  DecayState above = Decay(Input(LifecycleClass::kPermanent), kT0 + 388 * kDayMs);
  EXPECT_GT(above.activation, kArchiveThreshold);
  EXPECT_FALSE(above.below_since.has_value());
  DecayState below = Decay(Input(LifecycleClass::kPermanent), kT0 + 390 * kDayMs);
  EXPECT_LT(below.activation, kArchiveThreshold);
  ASSERT_TRUE(below.below_since.has_value());
  EXPECT_NEAR(static_cast<double>(*below.below_since - kT0) / kDayMs, crossing, 1e-6);
  EXPECT_FALSE(below.archive) << "in the grace period";
  EXPECT_FALSE(Decay(Input(LifecycleClass::kPermanent), kT0 + 395 * kDayMs).archive);
  EXPECT_TRUE(Decay(Input(LifecycleClass::kPermanent), kT0 + 396 * kDayMs).archive);
}

TEST(DecayTest, IdentityAndExplicitNeverArchive) {
  for (LifecycleClass c : {LifecycleClass::kIdentity, LifecycleClass::kExplicit}) {
    DecayState s = Decay(Input(c), kT0 + 100 * 365 * kDayMs);
    EXPECT_LT(s.activation, kArchiveThreshold);
    EXPECT_TRUE(s.below_since.has_value());
    EXPECT_FALSE(s.archive);
  }
}

TEST(DecayTest, TemporalClaimsFadeFaster) {
  EXPECT_TRUE(Decay(Input(LifecycleClass::kTemporal), kT0 + 202 * kDayMs).archive);
  EXPECT_FALSE(Decay(Input(LifecycleClass::kPermanent), kT0 + 202 * kDayMs).archive);
}

}  // namespace
}  // namespace engram::lifecycle
