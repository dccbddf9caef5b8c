#include "experience/agent_area.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/sqlite/sharing_store.h"

namespace engram::experience {

Result<AgentArea> AgentArea::Load(sqlite::Database& db, int64_t namespace_id, std::string agent_id,
                                  const ExperienceOptions& options) {
  AgentArea area(db, namespace_id, std::move(agent_id), options);
  auto types = sqlite::SharingStore(db).AgentTaskTypes(namespace_id, area.agent_id_);
  if (!types) return Error(types.error());
  area.own_types_ = std::move(*types);
  return area;
}

Placement AgentArea::Shared(const GateDecision& d, const std::string& task_type, std::string_view outcome) const {
  Placement p{.area = "shared", .source_agents = d.source_agents};
  p.why = fmt::format("shared: {}", DescribeGate(d, outcome));
  if (!own_types_.empty() && !own_types_.contains(task_type)) {
    p.weight = options_.shared_other_type_weight;
    p.why += fmt::format("; counted at {}× because agent {} has done tasks of other types, none of type {}",
                         p.weight, agent_id_, task_type);
  }
  return p;
}

Result<std::optional<Placement>> AgentArea::ForEpisode(const Episode& episode) {
  if (episode.agent_id == agent_id_) return Placement{.area = "own"};
  if (episode.task_type.empty()) return std::optional<Placement>();
  auto cached = type_gates_.find(episode.task_type);
  if (cached == type_gates_.end()) {
    auto tallies = sqlite::SharingStore(db_).TypeTallies(namespace_id_, episode.task_type);
    if (!tallies) return Error(tallies.error());
    cached = type_gates_.emplace(episode.task_type, EvaluateSharingGate(*tallies, options_)).first;
  }
  if (!cached->second.shared) return std::optional<Placement>();
  return Shared(cached->second, episode.task_type, "succeeded");
}

Result<std::optional<Placement>> AgentArea::ForRule(const Rule& rule) {
  auto tallies = sqlite::SharingStore(db_).RuleTallies(rule.seq);
  if (!tallies) return Error(tallies.error());
  const bool own = std::any_of(tallies->begin(), tallies->end(),
                               [&](const AgentTally& t) { return t.agent_id == agent_id_; });
  if (own) return Placement{.area = "own"};
  const GateDecision d = EvaluateSharingGate(*tallies, options_);
  if (!d.shared) return std::optional<Placement>();
  return Shared(d, rule.task_type, "ended as it predicts");
}

}  // namespace engram::experience
