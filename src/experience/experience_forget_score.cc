#include "experience/experience_forget_score.h"

#include <algorithm>
#include <cmath>

namespace engram::experience {

double ForgetScore(const ForgetScoreInput& input, TimestampMs now, const ExperienceOptions& options) {
  constexpr double kMsPerDay = 86400000.0;
  const double days = std::max<double>(0.0, static_cast<double>(now - input.last_access) / kMsPerDay);
  const double recency = std::exp(-days / options.forget_access_days);
  const double accesses = std::log(static_cast<double>(std::max<int64_t>(0, input.accesses)) + 1.0);
  return kForgetRecencyWeight * recency + kForgetAccessWeight * accesses +
         kForgetSuccessWeight * std::clamp(input.success_rate, 0.0, 1.0);
}

double EpisodeSuccessRate(std::string_view outcome) {
  if (outcome == "success") return 1.0;
  if (outcome == "partial") return 0.5;
  return 0.0;
}

double RuleSuccessRate(const Rule& rule) {
  if (rule.support <= 0) return 0.0;
  const int64_t confirmed = rule.polarity == "avoid" ? rule.failure_count : rule.success_count;
  return static_cast<double>(confirmed) / static_cast<double>(rule.support);
}

ForgetVerdict Judge(double score, const ExperienceOptions& options) {
  if (score < options.forget_delete_below) return ForgetVerdict::kDelete;
  if (score < options.forget_cold_below) return ForgetVerdict::kCold;
  return ForgetVerdict::kWarm;
}

}  // namespace engram::experience
