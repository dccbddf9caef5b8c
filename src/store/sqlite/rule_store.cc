#include "store/sqlite/rule_store.h"

#include "store/sqlite/string_list.h"

namespace engram::sqlite {
namespace {

constexpr const char* kRuleColumns =
    "SELECT r.seq, r.namespace_id, r.rule_key, r.id, n.name, r.task_type, r.polarity, r.kind, r.tools, r.text, "
    "r.support, r.success_count, r.failure_count, r.confidence, r.status, r.status_reason, r.version, "
    "r.supersedes_id, r.superseded_by_id, r.conflicts_with, r.created_at, r.updated_at "
    "FROM rules r JOIN namespaces n ON n.id = r.namespace_id ";

StoredRule ReadRule(const Statement& q) {
  StoredRule s;
  Rule& r = s.rule;
  r.seq = q.Int(0);
  s.namespace_id = q.Int(1);
  s.key = q.Text(2);
  r.id = q.Text(3);
  r.namespace_name = q.Text(4);
  r.task_type = q.Text(5);
  r.polarity = q.Text(6);
  r.kind = q.Text(7);
  r.tools = StringListFromJson(q.Text(8));
  r.text = q.Text(9);
  r.support = q.Int(10);
  r.success_count = q.Int(11);
  r.failure_count = q.Int(12);
  r.confidence = q.Double(13);
  r.status = q.Text(14);
  r.status_reason = q.Text(15);
  r.version = static_cast<int>(q.Int(16));
  r.supersedes_id = q.Text(17);
  r.superseded_by_id = q.Text(18);
  r.conflicts_with = StringListFromJson(q.Text(19));
  r.created_at = q.Int(20);
  r.updated_at = q.Int(21);
  if (s.key.rfind(kLlmKeyPrefix, 0) == 0) {
    r.source = "llm";
    const size_t model_end = s.key.find('|', kLlmKeyPrefix.size());
    r.source_model = s.key.substr(kLlmKeyPrefix.size(), model_end == std::string::npos ? std::string::npos
                                                                                      : model_end - kLlmKeyPrefix.size());
  }
  return s;
}

Result<std::vector<StoredRule>> ReadRules(Statement& q) {
  std::vector<StoredRule> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back(ReadRule(q));
  }
  return out;
}

}  // namespace

Result<int64_t> RuleStore::Insert(int64_t namespace_id, const StoredRule& s) {
  const Rule& r = s.rule;
  auto st = db_.Cached(
      "INSERT INTO rules(id, namespace_id, task_type, polarity, kind, tools, rule_key, text, support, success_count, "
      "failure_count, confidence, status, status_reason, version, supersedes_id, superseded_by_id, conflicts_with, "
      "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, r.id).Bind(2, namespace_id).Bind(3, r.task_type).Bind(4, r.polarity).Bind(5, r.kind);
  q.Bind(6, StringListToJson(r.tools)).Bind(7, s.key).Bind(8, r.text).Bind(9, r.support).Bind(10, r.success_count);
  q.Bind(11, r.failure_count).Bind(12, r.confidence).Bind(13, r.status).Bind(14, r.status_reason);
  q.Bind(15, static_cast<int64_t>(r.version)).BindOptional(16, r.supersedes_id).BindOptional(17, r.superseded_by_id);
  q.Bind(18, StringListToJson(r.conflicts_with)).Bind(19, r.created_at).Bind(20, r.updated_at);
  ENGRAM_RETURN_IF_ERROR(q.Run());
  return sqlite3_last_insert_rowid(db_.handle());
}

Status RuleStore::Update(const StoredRule& s) {
  const Rule& r = s.rule;
  auto st = db_.Cached(
      "UPDATE rules SET support = ?2, success_count = ?3, failure_count = ?4, confidence = ?5, status = ?6, "
      "status_reason = ?7, superseded_by_id = ?8, conflicts_with = ?9, updated_at = ?10 WHERE seq = ?1");
  if (!st) return st.error();
  Statement& q = **st;
  q.Bind(1, r.seq).Bind(2, r.support).Bind(3, r.success_count).Bind(4, r.failure_count).Bind(5, r.confidence);
  q.Bind(6, r.status).Bind(7, r.status_reason).BindOptional(8, r.superseded_by_id);
  q.Bind(9, StringListToJson(r.conflicts_with)).Bind(10, r.updated_at);
  return q.Run();
}

Result<std::optional<StoredRule>> RuleStore::Get(std::string_view id) {
  auto st = db_.Cached(std::string(kRuleColumns) + "WHERE r.id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  auto rules = ReadRules(**st);
  if (!rules) return Error(rules.error());
  if (rules->empty()) return std::optional<StoredRule>();
  return std::optional<StoredRule>(std::move(rules->front()));
}

Result<std::vector<StoredRule>> RuleStore::CurrentOfType(int64_t namespace_id, std::string_view task_type) {
  auto st = db_.Cached(std::string(kRuleColumns) +
                       "WHERE r.namespace_id = ? AND r.task_type = ? AND r.superseded_by_id IS NULL ORDER BY r.seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, task_type);
  return ReadRules(**st);
}

Result<std::vector<StoredRule>> RuleStore::List(int64_t namespace_id, std::string_view task_type,
                                                std::string_view status, bool include_deprecated, int limit,
                                                int64_t after_seq) {
  auto st = db_.Cached(std::string(kRuleColumns) +
                       "WHERE r.namespace_id = ?1 AND r.seq > ?2 AND (?3 = '' OR r.task_type = ?3) "
                       "AND (?4 = '' OR r.status = ?4) AND (?4 != '' OR ?5 OR r.status != 'deprecated') "
                       "ORDER BY r.seq LIMIT ?6");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, namespace_id).Bind(2, after_seq).Bind(3, task_type).Bind(4, status);
  q.Bind(5, static_cast<int64_t>(include_deprecated ? 1 : 0)).Bind(6, static_cast<int64_t>(limit));
  return ReadRules(q);
}

Result<bool> RuleStore::AddSupport(int64_t rule_seq, int64_t episode_seq, std::string_view outcome, bool confirmed) {
  auto st = db_.Cached(
      "INSERT OR IGNORE INTO rule_support(rule_seq, episode_seq, outcome, confirmed) VALUES (?, ?, ?, ?)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, rule_seq).Bind(2, episode_seq).Bind(3, outcome).Bind(4, static_cast<int64_t>(confirmed ? 1 : 0));
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return sqlite3_changes(db_.handle()) > 0;
}

Result<std::vector<int64_t>> RuleStore::RemoveSupportOf(int64_t episode_seq) {
  auto st = db_.Cached("DELETE FROM rule_support WHERE episode_seq = ? RETURNING rule_seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, episode_seq);
  return (*st)->Ints();
}

Result<std::vector<RuleSupportRow>> RuleStore::Support(int64_t rule_seq, int limit) {
  auto st = db_.Cached(
      "SELECT s.episode_seq, e.id, s.outcome, s.confirmed FROM (SELECT * FROM rule_support WHERE rule_seq = ?1 "
      "ORDER BY id DESC LIMIT CASE WHEN ?2 > 0 THEN ?2 ELSE -1 END) s JOIN episodes e ON e.seq = s.episode_seq "
      "ORDER BY s.id");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, rule_seq).Bind(2, static_cast<int64_t>(limit));
  std::vector<RuleSupportRow> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Int(3) != 0});
  }
  return out;
}

Status RuleStore::AddHistory(int64_t rule_seq, TimestampMs at, std::string_view action, std::string_view reason,
                             std::string_view episode_id) {
  auto st = db_.Cached("INSERT INTO rule_history(rule_seq, at, action, reason, episode_id) VALUES (?, ?, ?, ?, ?)");
  if (!st) return st.error();
  (*st)->Bind(1, rule_seq).Bind(2, at).Bind(3, action).Bind(4, reason).Bind(5, episode_id);
  return (*st)->Run();
}

Result<std::vector<RuleChange>> RuleStore::History(int64_t rule_seq) {
  auto st = db_.Cached("SELECT at, action, reason, episode_id FROM rule_history WHERE rule_seq = ? ORDER BY seq");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, rule_seq);
  std::vector<RuleChange> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Text(3)});
  }
  return out;
}

Result<int64_t> RuleStore::AddPendingEpisodes(int64_t namespace_id, std::string_view task_type, int64_t delta) {
  auto st = db_.Cached(
      "INSERT INTO experience_types(namespace_id, task_type, pending_episodes) VALUES (?1, ?2, max(?3, 0)) "
      "ON CONFLICT(namespace_id, task_type) DO UPDATE SET pending_episodes = max(pending_episodes + ?3, 0) "
      "RETURNING pending_episodes");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, task_type).Bind(3, delta);
  auto rows = (*st)->Ints();
  if (!rows) return Error(rows.error());
  return rows->empty() ? int64_t{0} : rows->front();
}

Status RuleStore::MarkDistilled(int64_t namespace_id, std::string_view task_type, TimestampMs at) {
  auto st = db_.Cached(
      "INSERT INTO experience_types(namespace_id, task_type, pending_episodes, distilled_at) VALUES (?1, ?2, 0, ?3) "
      "ON CONFLICT(namespace_id, task_type) DO UPDATE SET pending_episodes = 0, distilled_at = ?3");
  if (!st) return st.error();
  (*st)->Bind(1, namespace_id).Bind(2, task_type).Bind(3, at);
  return (*st)->Run();
}

}  // namespace engram::sqlite
