// experience/agent_area.h — what one agent may see of a namespace's experience (docs/experience.md,
// "Sharing between agents"): its private area (its own episodes, and the rules its episodes
// support) and the shared area (episode types and rules that pass the sharing gate,
// experience/sharing_gate.h). Another agent's private experience is not offered. A shared
// experience of a task type the agent has never done, while it has done others, is down-weighted
// (ExperienceOptions::shared_other_type_weight); an agent with no typed episode is not "of other
// task types" and gets full weight. Gates are read from the store when asked (cached per type and
// rule for one recall), inside the caller's transaction. Not thread-safe.
#ifndef ENGRAM_EXPERIENCE_AGENT_AREA_H_
#define ENGRAM_EXPERIENCE_AGENT_AREA_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"
#include "engram/types.h"
#include "experience/sharing_gate.h"
#include "store/sqlite/database.h"

namespace engram::experience {

// Where an experience stands for the agent.
struct Placement {
  std::string area;  // own or shared
  std::vector<std::string> source_agents;  // shared: the gate's agents
  double weight = 1;
  std::string why;  // shared: the gate's evidence and the down-weight, for ExperienceRule/Episode::why
};

class AgentArea {
 public:
  // The area of `agent_id` (not empty) in the namespace. Errors: from SQLite.
  static Result<AgentArea> Load(sqlite::Database& db, int64_t namespace_id, std::string agent_id,
                                const ExperienceOptions& options);

  // The episode's placement, or nullopt when the agent may not see it (another agent's, of a type
  // that is not shared). Errors: from SQLite.
  Result<std::optional<Placement>> ForEpisode(const Episode& episode);
  // The rule's placement (rule.seq must be set), or nullopt. Errors: from SQLite.
  Result<std::optional<Placement>> ForRule(const Rule& rule);

 private:
  AgentArea(sqlite::Database& db, int64_t namespace_id, std::string agent_id, const ExperienceOptions& options)
      : db_(db), namespace_id_(namespace_id), agent_id_(std::move(agent_id)), options_(options) {}
  // The shared placement of an experience of `task_type` that passed the gate `d`.
  Placement Shared(const GateDecision& d, const std::string& task_type, std::string_view outcome) const;

  sqlite::Database& db_;
  int64_t namespace_id_;
  std::string agent_id_;
  const ExperienceOptions& options_;
  std::set<std::string> own_types_;
  std::map<std::string, GateDecision> type_gates_;
};

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_AGENT_AREA_H_
