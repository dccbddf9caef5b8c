#include "store/sqlite/audit_log.h"

namespace engram::sqlite {

Status AuditLog::Append(const AuditEntry& e, std::optional<int64_t> namespace_id) {
  auto st = db_.Cached(
      "INSERT INTO audit_log(at, actor, action, object_type, object_id, namespace_id, reason, detail) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!st) return st.error();
  Statement& q = **st;
  q.Bind(1, e.at).Bind(2, e.actor).Bind(3, e.action).Bind(4, e.object_type).Bind(5, e.object_id);
  if (namespace_id) {
    q.Bind(6, *namespace_id);
  } else {
    q.BindNull(6);
  }
  q.Bind(7, e.reason).Bind(8, e.detail_json.empty() ? std::string_view("{}") : e.detail_json);
  return q.Run();
}

Result<std::vector<AuditEntry>> AuditLog::ForObject(std::string_view object_id, int64_t after_seq, int limit) {
  auto st = db_.Cached(
      "SELECT a.seq, a.at, a.actor, a.action, a.object_type, a.object_id, coalesce(n.name, ''), a.reason, "
      "a.detail FROM audit_log a LEFT JOIN namespaces n ON n.id = a.namespace_id WHERE a.object_id = ?1 "
      "AND a.seq > ?2 ORDER BY a.seq LIMIT ?3");
  if (!st) return Error(st.error());
  (*st)->Bind(1, object_id).Bind(2, after_seq).Bind(3, static_cast<int64_t>(limit));
  std::vector<AuditEntry> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **st;
    out.push_back({q.Int(0), q.Int(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5), q.Text(6), q.Text(7), q.Text(8)});
  }
  return out;
}

}  // namespace engram::sqlite
