#include "store/sqlite/sharing_store.h"

namespace engram::sqlite {

Result<std::set<std::string>> FirstColumnSet(Statement& q) {
  std::set<std::string> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.insert(q.Text(0));
  }
  return out;
}

Result<std::vector<AgentTally>> SharingStore::Tallies(Statement& q) {
  std::vector<AgentTally> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back({q.Text(0), q.Int(1), q.Int(2)});
  }
  return out;
}

Result<std::vector<AgentTally>> SharingStore::TypeTallies(int64_t namespace_id, std::string_view task_type) {
  auto st = db_.Cached(
      "SELECT agent_id, count(*), sum(outcome = 'success') FROM episodes WHERE namespace_id = ?1 "
      "AND task_type = ?2 AND status = 'ended' AND outcome IN ('success', 'failure') AND agent_id != '' "
      "GROUP BY agent_id ORDER BY agent_id");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, task_type);
  return Tallies(**st);
}

Result<std::vector<AgentTally>> SharingStore::RuleTallies(int64_t rule_seq) {
  auto st = db_.Cached(
      "SELECT e.agent_id, count(*), sum(s.confirmed) FROM rule_support s JOIN episodes e ON e.seq = s.episode_seq "
      "WHERE s.rule_seq = ?1 AND e.agent_id != '' GROUP BY e.agent_id ORDER BY e.agent_id");
  if (!st) return Error(st.error());
  (*st)->Bind(1, rule_seq);
  return Tallies(**st);
}

Result<std::set<std::string>> SharingStore::AgentTaskTypes(int64_t namespace_id, std::string_view agent_id) {
  auto st = db_.Cached(
      "SELECT DISTINCT task_type FROM episodes WHERE namespace_id = ?1 AND agent_id = ?2 AND task_type != ''");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, agent_id);
  return FirstColumnSet(**st);
}

}  // namespace engram::sqlite
