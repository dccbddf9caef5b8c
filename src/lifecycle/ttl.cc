#include "lifecycle/ttl.h"

#include <algorithm>

namespace engram::lifecycle {

LifecycleClass ClassOf(std::string_view scope, const std::vector<std::string>& qualifiers,
                       std::string_view extractor) {
  if (scope == "explicit" || extractor.substr(0, 8) == "explicit") return LifecycleClass::kExplicit;
  if (scope == "identity") return LifecycleClass::kIdentity;
  if (std::find(qualifiers.begin(), qualifiers.end(), "temporary") != qualifiers.end()) {
    return LifecycleClass::kTemporal;
  }
  return LifecycleClass::kPermanent;
}

std::string_view ClassName(LifecycleClass c) {
  switch (c) {
    case LifecycleClass::kTemporal:
      return "temporal";
    case LifecycleClass::kPermanent:
      return "permanent";
    case LifecycleClass::kIdentity:
      return "identity";
    case LifecycleClass::kExplicit:
      return "explicit";
  }
  return "permanent";
}

bool IsProtected(LifecycleClass c) {
  return c == LifecycleClass::kIdentity || c == LifecycleClass::kExplicit;
}

std::optional<int64_t> TtlDays(LifecycleClass c, double importance) {
  if (c != LifecycleClass::kTemporal) return std::nullopt;
  if (importance < kTtlLowImportance) return kTemporalTtlLowDays;
  if (importance <= kTtlMidImportance) return kTemporalTtlMidDays;
  return kTemporalTtlHighDays;
}

std::optional<TimestampMs> ExpiresAt(const Claim& c) {
  if (c.valid_to) return *c.valid_to;
  auto days = TtlDays(ClassOf(c), c.importance);
  if (!days) return std::nullopt;
  return c.valid_from + *days * kDayMs;
}

}  // namespace engram::lifecycle
