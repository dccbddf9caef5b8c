#include "store/sqlite/experience_access_store.h"

#include "store/sqlite/sharing_store.h"

namespace engram::sqlite {
namespace {

std::optional<TimestampMs> OptInt(const Statement& q, int column) {
  if (q.IsNull(column)) return std::nullopt;
  return q.Int(column);
}

}  // namespace

Result<bool> ExperienceAccessStore::AddHits(std::string_view id, int64_t count, TimestampMs last) {
  // The WHERE true keeps SQLite's parser from reading ON CONFLICT as a join constraint.
  auto st = db_.Cached(
      "INSERT INTO experience_access(object_id, object_type, namespace_id, access_count, last_accessed_at) "
      "SELECT * FROM (SELECT id, 'episode', namespace_id, ?2, ?3 FROM episodes WHERE id = ?1 UNION ALL "
      "SELECT id, 'rule', namespace_id, ?2, ?3 FROM rules WHERE id = ?1) WHERE true "
      "ON CONFLICT(object_id) DO UPDATE SET access_count = access_count + excluded.access_count, "
      "last_accessed_at = max(coalesce(last_accessed_at, 0), excluded.last_accessed_at)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id).Bind(2, count).Bind(3, last);
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return sqlite3_changes(db_.handle()) > 0;
}

Result<std::vector<ExperienceAccessRow>> ExperienceAccessStore::Rows(int64_t namespace_id) {
  auto st = db_.Cached(
      "SELECT 'episode', e.seq, e.id, e.task_type, coalesce(e.ended_at, e.started_at), "
      "coalesce(a.access_count, 0), a.last_accessed_at, a.cold_at, e.outcome, '', 0, 0, 0 "
      "FROM episodes e LEFT JOIN experience_access a ON a.object_id = e.id "
      "WHERE e.namespace_id = ?1 AND e.status = 'ended' UNION ALL "
      "SELECT 'rule', r.seq, r.id, r.task_type, r.created_at, coalesce(a.access_count, 0), "
      "a.last_accessed_at, a.cold_at, '', r.polarity, r.support, r.success_count, r.failure_count "
      "FROM rules r LEFT JOIN experience_access a ON a.object_id = r.id WHERE r.namespace_id = ?1");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, namespace_id);
  std::vector<ExperienceAccessRow> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    ExperienceAccessRow r;
    r.object_type = q.Text(0);
    r.seq = q.Int(1);
    r.id = q.Text(2);
    r.task_type = q.Text(3);
    r.made_at = q.Int(4);
    r.access_count = q.Int(5);
    r.last_accessed_at = OptInt(q, 6);
    r.cold_at = OptInt(q, 7);
    r.outcome = q.Text(8);
    r.rule_counts.polarity = q.Text(9);
    r.rule_counts.support = q.Int(10);
    r.rule_counts.success_count = q.Int(11);
    r.rule_counts.failure_count = q.Int(12);
    out.push_back(std::move(r));
  }
  return out;
}

Status ExperienceAccessStore::SetCold(int64_t namespace_id, std::string_view object_type, std::string_view id,
                                      std::optional<TimestampMs> at) {
  auto st = db_.Cached(
      "INSERT INTO experience_access(object_id, object_type, namespace_id, cold_at) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT(object_id) DO UPDATE SET cold_at = excluded.cold_at");
  if (!st) return st.error();
  (*st)->Bind(1, id).Bind(2, object_type).Bind(3, namespace_id);
  if (at) {
    (*st)->Bind(4, *at);
  } else {
    (*st)->BindNull(4);
  }
  return (*st)->Run();
}

Result<std::set<std::string>> ExperienceAccessStore::ColdIds(int64_t namespace_id) {
  auto st = db_.Cached(
      "SELECT object_id FROM experience_access WHERE namespace_id = ?1 AND object_type IN ('episode', 'rule') "
      "AND cold_at IS NOT NULL");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id);
  return FirstColumnSet(**st);
}

Result<std::vector<ColdExperience>> ExperienceAccessStore::ListCold(int64_t namespace_id, int limit) {
  auto st = db_.Cached(
      "SELECT a.object_type, a.object_id, coalesce(e.task_type, r.task_type, ''), coalesce(e.goal, r.text, ''), "
      "a.cold_at, a.access_count, a.last_accessed_at FROM experience_access a "
      "LEFT JOIN episodes e ON a.object_type = 'episode' AND e.id = a.object_id "
      "LEFT JOIN rules r ON a.object_type = 'rule' AND r.id = a.object_id "
      "WHERE a.namespace_id = ?1 AND a.object_type IN ('episode', 'rule') AND a.cold_at IS NOT NULL "
      "ORDER BY a.cold_at, a.object_id LIMIT ?2");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, namespace_id).Bind(2, static_cast<int64_t>(limit));
  std::vector<ColdExperience> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back({q.Text(0), q.Text(1), q.Text(2), q.Text(3), q.Int(4), q.Int(5), OptInt(q, 6)});
  }
  return out;
}

}  // namespace engram::sqlite
