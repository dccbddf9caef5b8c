// lifecycle/ttl.h — time to live of a claim: when a temporary fact stops being current.
//
// A pure function of the claim (no clock, no database): its lifecycle class (from scope,
// qualifiers and extractor), its importance and its valid time. The table is HL-Mem's
// (../shared/reference/hlmem_hindsight.md §A5, "TTL"): a temporal claim lives 3 days when its
// importance is < 0.4, 7 days when ≤ 0.7, 14 days otherwise; permanent claims have no TTL; an
// explicit valid_to overrides the table. engram's scopes (identity, preference, ...) say what a
// fact is about, not how long it lasts, so "temporal" is the `temporary` qualifier ("for now",
// "temporarily", "暂时"); HL-Mem's one-day slots (state.service_health) have no engram
// counterpart yet. The anchor is valid_from (the source event's time unless the text dated the
// fact; HL-Mem anchors at observed_at, which engram does not store separately). See
// docs/lifecycle.md. Layer: depends on include/engram only. Thread-safe (pure functions).
#ifndef ENGRAM_LIFECYCLE_TTL_H_
#define ENGRAM_LIFECYCLE_TTL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/types.h"

namespace engram::lifecycle {

inline constexpr int64_t kDayMs = 86'400'000;  // one day in ms

// HL-Mem §A5 TTL table, in days, and its importance bounds.
inline constexpr int64_t kTemporalTtlLowDays = 3;    // importance < kTtlLowImportance
inline constexpr int64_t kTemporalTtlMidDays = 7;    // importance ≤ kTtlMidImportance
inline constexpr int64_t kTemporalTtlHighDays = 14;  // otherwise
inline constexpr double kTtlLowImportance = 0.4;
inline constexpr double kTtlMidImportance = 0.7;

// Which TTL table computed claims.expires_at (claims.ttl_version; 0 = not computed yet). A change
// of the table bumps it, and a schema migration resets ttl_version to 0 so the next pass
// recomputes.
inline constexpr int kTtlVersion = 1;

// How a claim ages. Protected classes (identity, explicit) never auto-retire: no TTL from the
// table and never archived by decay (HL-Mem: `identity.*` and `memory.explicit`).
enum class LifecycleClass {
  kTemporal,   // qualifier "temporary"
  kPermanent,  // everything else
  kIdentity,   // scope "identity" (name, age, lives_in, job, ...)
  kExplicit,   // written by `engram remember` (scope "explicit" or extractor "explicit...")
};

// The class of a claim. Identity and explicit win over the temporary qualifier.
LifecycleClass ClassOf(std::string_view scope, const std::vector<std::string>& qualifiers,
                       std::string_view extractor);
inline LifecycleClass ClassOf(const Claim& c) { return ClassOf(c.scope, c.qualifiers, c.extractor); }

// "temporal", "permanent", "identity", "explicit".
std::string_view ClassName(LifecycleClass c);

// True for identity and explicit.
bool IsProtected(LifecycleClass c);

// The TTL from the table in days (importance 0–1), or nullopt when the class has none.
std::optional<int64_t> TtlDays(LifecycleClass c, double importance);

// When the claim stops being current, ms UTC: its valid_to when set (an explicit end wins, for
// every class), else valid_from + TtlDays · kDayMs for a temporal claim, else nullopt (no TTL).
std::optional<TimestampMs> ExpiresAt(const Claim& c);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_TTL_H_
