#include "experience/rule_confidence.h"

#include <algorithm>
#include <cmath>

namespace engram::experience {

double WilsonLowerBound(int64_t confirmed, int64_t trials) {
  if (trials <= 0) return 0.0;
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(std::clamp<int64_t>(confirmed, 0, trials)) / n;
  const double z2 = kWilsonZ * kWilsonZ;
  const double centre = p + z2 / (2 * n);
  const double margin = kWilsonZ * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return std::max(0.0, (centre - margin) / (1 + z2 / n));
}

}  // namespace engram::experience
