// lifecycle/ttl_test.cc — the TTL table (HL-Mem §A5) and its classes.
#include "lifecycle/ttl.h"

#include <gtest/gtest.h>

namespace engram::lifecycle {
namespace {

Claim Make(const std::string& scope, std::vector<std::string> qualifiers, double importance,
           const std::string& extractor = "rules/1") {
  Claim c;
  c.scope = scope;
  c.qualifiers = std::move(qualifiers);
  c.importance = importance;
  c.extractor = extractor;
  c.valid_from = 1'700'000'000'000;
  return c;
}

TEST(TtlTest, TemporalClaimsFollowHlMemTable) {
  EXPECT_EQ(TtlDays(LifecycleClass::kTemporal, 0.0), 3);
  EXPECT_EQ(TtlDays(LifecycleClass::kTemporal, 0.39), 3);
  EXPECT_EQ(TtlDays(LifecycleClass::kTemporal, 0.4), 7);
  EXPECT_EQ(TtlDays(LifecycleClass::kTemporal, 0.7), 7);
  EXPECT_EQ(TtlDays(LifecycleClass::kTemporal, 0.71), 14);
  EXPECT_EQ(TtlDays(LifecycleClass::kTemporal, 1.0), 14);
  EXPECT_FALSE(TtlDays(LifecycleClass::kPermanent, 0.1).has_value());
  EXPECT_FALSE(TtlDays(LifecycleClass::kIdentity, 0.1).has_value());
  EXPECT_FALSE(TtlDays(LifecycleClass::kExplicit, 0.1).has_value());
}

TEST(TtlTest, ClassComesFromQualifierScopeAndExtractor) {
  EXPECT_EQ(ClassOf(Make("preference", {"temporary"}, 0.6)), LifecycleClass::kTemporal);
  EXPECT_EQ(ClassOf(Make("preference", {"negated"}, 0.6)), LifecycleClass::kPermanent);
  EXPECT_EQ(ClassOf(Make("identity", {"temporary"}, 0.8)), LifecycleClass::kIdentity);
  EXPECT_EQ(ClassOf(Make("explicit", {}, 0.8, "explicit")), LifecycleClass::kExplicit);
  EXPECT_EQ(ClassOf(Make("state", {"temporary"}, 0.6, "explicit+rules/1")), LifecycleClass::kExplicit);
  EXPECT_TRUE(IsProtected(LifecycleClass::kIdentity));
  EXPECT_TRUE(IsProtected(LifecycleClass::kExplicit));
  EXPECT_FALSE(IsProtected(LifecycleClass::kTemporal));
  EXPECT_FALSE(IsProtected(LifecycleClass::kPermanent));
}

TEST(TtlTest, ExpiresAtAnchorsAtValidFrom) {
  Claim c = Make("state", {"temporary"}, 0.6);
  EXPECT_EQ(ExpiresAt(c), c.valid_from + 7 * kDayMs);
  EXPECT_FALSE(ExpiresAt(Make("state", {}, 0.6)).has_value());
  EXPECT_FALSE(ExpiresAt(Make("identity", {"temporary"}, 0.8)).has_value());
}

TEST(TtlTest, ExplicitValidToWinsForEveryClass) {
  for (Claim c : {Make("state", {"temporary"}, 0.2), Make("state", {}, 0.6), Make("identity", {}, 0.8),
                  Make("explicit", {}, 0.8, "explicit")}) {
    c.valid_to = c.valid_from + 100 * kDayMs;
    EXPECT_EQ(ExpiresAt(c), *c.valid_to) << c.scope;
  }
}

}  // namespace
}  // namespace engram::lifecycle
