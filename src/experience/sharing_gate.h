// experience/sharing_gate.h — when an experience (the episodes of a task type, or a rule) leaves
// the private areas of the agents that made it and enters the namespace's shared area
// (docs/experience.md, "Sharing between agents").
//
// DESIGN.md ("Experience layer", Sharing): "an experience enters the shared area after ≥ 70%
// success over ≥ 3 agents, keeps its source agents, and is down-weighted for agents of other task
// types". The gate reads the decided episodes (success or failure) of the experience, grouped by
// the agent that had them: it passes when at least ExperienceOptions::share_min_agents distinct
// agents contributed and the success rate over all their decided episodes (pooled) is at least
// ExperienceOptions::share_min_success_rate. For a rule, "success" is an episode that ended as the
// rule predicts (success for a do rule, failure for an avoid rule). The gate is re-read on every
// recall, so an experience is demoted as soon as later evidence takes it below the gate.
// Thread safety: pure functions.
#ifndef ENGRAM_EXPERIENCE_SHARING_GATE_H_
#define ENGRAM_EXPERIENCE_SHARING_GATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "store/sqlite/sharing_store.h"

namespace engram::experience {

// The decided episodes of one agent for one experience (store/sqlite/sharing_store.h).
using sqlite::AgentTally;

struct GateDecision {
  bool shared = false;
  int64_t agents = 0;      // distinct agents with at least one decided episode
  int64_t decided = 0;     // their decided episodes
  int64_t succeeded = 0;
  double success_rate = 0;  // succeeded / decided (0 when none)
  std::vector<std::string> source_agents;  // the contributing agents, sorted
};

// The gate over `tallies` (one per agent; tallies of one agent given twice are added up; empty
// agent ids and agents with no decided episode are ignored) with the options' thresholds.
GateDecision EvaluateSharingGate(const std::vector<AgentTally>& tallies, const ExperienceOptions& options);

// "3 of 4 decided episodes of 3 agents succeeded (a, b, c)" (outcome "succeeded"): the evidence of
// a decision, for `why`.
std::string DescribeGate(const GateDecision& decision, std::string_view outcome);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_SHARING_GATE_H_
