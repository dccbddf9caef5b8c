// store/sqlite/sharing_store.h — the counts the sharing gate reads (experience/sharing_gate.h,
// docs/experience.md "Sharing between agents"): per agent, the decided episodes of a task type or
// of a rule's support, and the task types an agent has episodes of. Episodes without an agent
// (agent_id "") belong to no agent and are not counted. Callers own transactions. Not thread-safe.
#ifndef ENGRAM_STORE_SQLITE_SHARING_STORE_H_
#define ENGRAM_STORE_SQLITE_SHARING_STORE_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

// The decided episodes of one agent for one experience.
struct AgentTally {
  std::string agent_id;   // never empty when read from the store
  int64_t decided = 0;    // episodes that ended in success or failure
  int64_t succeeded = 0;  // of them, those that ended as the experience predicts
};

// The first column of every row of `q` as a set of strings. Errors: from SQLite.
Result<std::set<std::string>> FirstColumnSet(Statement& q);

class SharingStore {
 public:
  explicit SharingStore(Database& db) : db_(db) {}

  // Per agent, the ended episodes of the type with outcome success or failure; succeeded = the
  // successes. Errors: from SQLite.
  Result<std::vector<AgentTally>> TypeTallies(int64_t namespace_id, std::string_view task_type);
  // Per agent, the episodes that support the rule; succeeded = those that ended as it predicts.
  Result<std::vector<AgentTally>> RuleTallies(int64_t rule_seq);
  // The task types of the agent's episodes (any status). Errors: from SQLite.
  Result<std::set<std::string>> AgentTaskTypes(int64_t namespace_id, std::string_view agent_id);

 private:
  Result<std::vector<AgentTally>> Tallies(Statement& q);
  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_SHARING_STORE_H_
