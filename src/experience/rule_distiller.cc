#include "experience/rule_distiller.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace engram::experience {
namespace {

struct ToolStats {
  int successes = 0;       // successes that called it
  int failures = 0;        // failures that called it
  double first_use = 0;    // Σ over successes of its first-use position (0-based)
};

// The position of each tool's first use.
std::map<std::string, size_t> FirstUses(const std::vector<std::string>& tools) {
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < tools.size(); ++i) first.emplace(tools[i], i);
  return first;
}

}  // namespace

std::vector<RulePattern> DistillPatterns(const std::vector<DistillEpisode>& window) {
  int successes = 0, failures = 0;
  std::map<std::string, ToolStats> stats;
  for (const DistillEpisode& e : window) {
    (e.success ? successes : failures) += 1;
    for (const auto& [tool, at] : FirstUses(e.tools)) {
      ToolStats& s = stats[tool];
      if (e.success) {
        ++s.successes;
        s.first_use += static_cast<double>(at);
      } else {
        ++s.failures;
      }
    }
  }
  std::vector<RulePattern> out;
  // Do: the tools most successes call, by mean first use (ties by name).
  std::vector<std::pair<double, std::string>> common;
  for (const auto& [tool, s] : stats) {
    if (s.successes >= kMinEpisodes && s.successes >= kCommonShare * successes) {
      common.push_back({s.first_use / s.successes, tool});
    }
  }
  std::sort(common.begin(), common.end());
  if (common.size() == 1) {
    out.push_back({"do", "tool", {common[0].second}});
  } else if (common.size() > 1) {
    RulePattern sequence{"do", "sequence", {}};
    for (const auto& c : common) sequence.tools.push_back(c.second);
    out.push_back(std::move(sequence));
  }
  // Avoid: what failures call and successes rarely do; what successes call and failures leave out.
  std::vector<std::pair<double, RulePattern>> avoid;
  const auto share = [](int n, int of) { return of == 0 ? 0.0 : static_cast<double>(n) / of; };
  for (const auto& [tool, s] : stats) {
    const double success_share = share(s.successes, successes);
    if (s.failures >= kMinEpisodes && s.failures >= kFailureShare * failures && success_share <= kRareShare) {
      avoid.push_back({-(share(s.failures, failures) - success_share), {"avoid", "tool", {tool}}});
    }
  }
  for (const auto& [at, tool] : common) {
    const ToolStats& s = stats.at(tool);
    const int skipped = failures - s.failures;
    if (skipped >= kMinEpisodes && skipped >= kFailureShare * failures) {
      const double specificity = share(skipped, failures) - share(successes - s.successes, successes);
      avoid.push_back({-specificity, {"avoid", "omission", {tool}}});
    }
  }
  std::stable_sort(avoid.begin(), avoid.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second.tools < b.second.tools;
  });
  for (size_t i = 0; i < avoid.size() && i < static_cast<size_t>(kMaxAvoidRules); ++i) out.push_back(avoid[i].second);
  return out;
}

bool PatternMatches(const RulePattern& pattern, const std::vector<std::string>& tools) {
  if (pattern.tools.empty()) return false;
  const bool called = std::find(tools.begin(), tools.end(), pattern.tools[0]) != tools.end();
  if (pattern.kind == "tool") return called;
  if (pattern.kind == "omission") return !called;
  const auto first = FirstUses(tools);
  size_t previous = 0;
  for (size_t i = 0; i < pattern.tools.size(); ++i) {
    auto it = first.find(pattern.tools[i]);
    if (it == first.end()) return false;
    if (i > 0 && it->second < previous) return false;
    previous = it->second;
  }
  return true;
}

bool PatternConfirmedBy(const RulePattern& pattern, bool success) { return (pattern.polarity == "do") == success; }

namespace {

// The tools a pattern has called (do rules, avoid-omission rules) and those it forbids (avoid-tool).
std::set<std::string> Called(const RulePattern& p) {
  if (p.polarity == "avoid" && p.kind == "tool") return {};
  return {p.tools.begin(), p.tools.end()};
}

std::set<std::string> Forbidden(const RulePattern& p) {
  if (p.polarity != "avoid" || p.kind != "tool") return {};
  return {p.tools.begin(), p.tools.end()};
}

bool Intersect(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& t) { return b.contains(t); });
}

}  // namespace

bool PatternsConflict(const RulePattern& a, const RulePattern& b) {
  return Intersect(Called(a), Forbidden(b)) || Intersect(Called(b), Forbidden(a));
}

std::string PatternKey(std::string_view task_type, const RulePattern& p) {
  return fmt::format("{}|{}|{}|{}", task_type, p.polarity, p.kind,
                     p.kind != "sequence" && !p.tools.empty() ? p.tools[0] : "");
}

std::string PatternText(std::string_view task_type, const RulePattern& p) {
  std::string action;
  if (p.polarity == "avoid") {
    action = fmt::format("{} {}", p.kind == "omission" ? "avoid finishing without calling" : "avoid calling",
                         p.tools.empty() ? "" : p.tools[0]);
  } else {
    for (size_t i = 0; i < p.tools.size(); ++i) action += fmt::format("{}{}", i == 0 ? "call " : ", then ", p.tools[i]);
  }
  return fmt::format("For tasks of type {}: {}.", task_type, action);
}

}  // namespace engram::experience
