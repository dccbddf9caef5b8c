#include "experience/sharing_gate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

namespace engram::experience {

GateDecision EvaluateSharingGate(const std::vector<AgentTally>& tallies, const ExperienceOptions& options) {
  std::map<std::string, AgentTally> by_agent;
  for (const AgentTally& t : tallies) {
    if (t.agent_id.empty() || t.decided <= 0) continue;
    AgentTally& sum = by_agent[t.agent_id];
    sum.decided += t.decided;
    sum.succeeded += t.succeeded;
  }
  GateDecision d;
  for (const auto& [agent, t] : by_agent) {
    d.source_agents.push_back(agent);
    d.decided += t.decided;
    d.succeeded += t.succeeded;
  }
  d.agents = static_cast<int64_t>(d.source_agents.size());
  d.success_rate = d.decided > 0 ? static_cast<double>(d.succeeded) / static_cast<double>(d.decided) : 0.0;
  // A small tolerance so that 7 of 10 passes a 0.7 gate despite binary floating point.
  d.shared = d.agents >= options.share_min_agents && d.success_rate + 1e-9 >= options.share_min_success_rate;
  return d;
}

std::string DescribeGate(const GateDecision& d, std::string_view outcome) {
  return fmt::format("{} of {} decided episodes of {} agent{} {} ({})", d.succeeded, d.decided, d.agents,
                     d.agents == 1 ? "" : "s", outcome, fmt::join(d.source_agents, ", "));
}

}  // namespace engram::experience
