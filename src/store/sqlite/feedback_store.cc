#include "store/sqlite/feedback_store.h"

#include <fmt/format.h>

#include <string>

#include "util/utf8.h"

namespace engram::sqlite {

Result<FeedbackTarget> FeedbackStore::Resolve(std::string_view item_type, std::string_view item_id) {
  const bool claim = item_type == "claim";
  auto st = db_.Cached(claim ? "SELECT c.seq, c.namespace_id, n.name FROM claims c "
                               "JOIN namespaces n ON n.id = c.namespace_id WHERE c.id = ?"
                             : "SELECT e.seq, e.namespace_id, n.name FROM events e "
                               "JOIN namespaces n ON n.id = e.namespace_id WHERE e.id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, item_id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) {
    return Error(Status::NotFound(
        fmt::format("no {} with id \"{}\"", item_type, TruncateCodePoints(item_id, 80))));
  }
  FeedbackTarget t{(*st)->Int(0), (*st)->Int(1), (*st)->Text(2)};
  (*st)->Reset();
  return t;
}

Status FeedbackStore::Record(const FeedbackTarget& target, std::string_view item_type,
                             std::string_view query_hash, bool helpful, TimestampMs now) {
  auto st = db_.Cached(
      "INSERT INTO feedback(namespace_id, owner_type, owner_seq, query_hash, helpful, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(owner_type, owner_seq, query_hash) DO UPDATE SET "
      "helpful = excluded.helpful, created_at = excluded.created_at");
  if (!st) return st.error();
  (*st)->Bind(1, target.namespace_id).Bind(2, item_type).Bind(3, target.seq).Bind(4, query_hash);
  (*st)->Bind(5, static_cast<int64_t>(helpful ? 1 : 0)).Bind(6, now);
  return (*st)->Run();
}

Result<FeedbackCounts> FeedbackStore::Counts(std::string_view item_type, int64_t seq) {
  auto st = db_.Cached(
      "SELECT coalesce(sum(helpful), 0), coalesce(sum(1 - helpful), 0) FROM feedback "
      "WHERE owner_type = ? AND owner_seq = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, item_type).Bind(2, seq);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  FeedbackCounts c{(*st)->Int(0), (*st)->Int(1)};
  (*st)->Reset();
  return c;
}

Result<bool> FeedbackStore::HasRatings(int64_t namespace_id) {
  auto any = db_.Cached("SELECT 1 FROM feedback WHERE namespace_id = ? LIMIT 1");
  if (!any) return Error(any.error());
  (*any)->Bind(1, namespace_id);
  auto has = (*any)->Step();
  if (!has) return Error(has.error());
  (*any)->Reset();
  return *has;
}

Result<std::unordered_map<int64_t, double>> FeedbackStore::EventUtility(
    int64_t namespace_id, const std::vector<int64_t>& seqs) {
  std::unordered_map<int64_t, double> out;
  auto any = db_.Cached("SELECT 1 FROM feedback WHERE namespace_id = ? LIMIT 1");
  if (!any) return Error(any.error());
  (*any)->Bind(1, namespace_id);
  auto has = (*any)->Step();
  if (!has) return Error(has.error());
  (*any)->Reset();
  if (!*has || seqs.empty()) return out;
  const std::string list = JsonIntArray(seqs);
  auto st = db_.Cached(
      "SELECT f.owner_seq, sum(2 * f.helpful - 1) FROM json_each(?) j JOIN feedback f "
      "ON f.owner_type = 'event' AND f.owner_seq = j.value GROUP BY f.owner_seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, list);
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out[(*st)->Int(0)] = static_cast<double>((*st)->Int(1));
  }
  return out;
}

}  // namespace engram::sqlite
