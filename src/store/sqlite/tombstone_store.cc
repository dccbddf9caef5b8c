#include "store/sqlite/tombstone_store.h"

#include "util/hash.h"

namespace engram::sqlite {
namespace {

constexpr const char* kTombstoneColumns =
    "SELECT t.id, n.name, t.object_type, t.object_id, coalesce(t.content_hash, ''), "
    "coalesce(t.idempotency_hash, ''), coalesce(t.fact_hash, ''), t.reason, t.selector, t.operation_id, "
    "t.actor, t.created_at, t.rowid FROM tombstones t JOIN namespaces n ON n.id = t.namespace_id ";

Tombstone ReadTombstone(const Statement& st) {
  Tombstone t;
  t.id = st.Text(0);
  t.namespace_name = st.Text(1);
  t.object_type = st.Text(2);
  t.object_id = st.Text(3);
  t.content_hash = st.Text(4);
  t.idempotency_hash = st.Text(5);
  t.fact_hash = st.Text(6);
  t.reason = st.Text(7);
  t.selector_json = st.Text(8);
  t.operation_id = st.Text(9);
  t.actor = st.Text(10);
  t.created_at = st.Int(11);
  t.seq = st.Int(12);
  return t;
}

Result<std::optional<std::string>> FirstText(Statement& st) {
  auto row = st.Step();
  if (!row) return Error(row.error());
  if (!*row) return std::optional<std::string>();
  std::string id = st.Text(0);
  st.Reset();
  return std::optional<std::string>(std::move(id));
}

}  // namespace

Status TombstoneStore::Insert(int64_t namespace_id, const Tombstone& t) {
  auto st = db_.Cached(
      "INSERT INTO tombstones(id, namespace_id, object_type, object_id, content_hash, idempotency_hash, "
      "fact_hash, reason, selector, operation_id, actor, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!st) return st.error();
  Statement& q = **st;
  q.Bind(1, t.id).Bind(2, namespace_id).Bind(3, t.object_type).Bind(4, t.object_id);
  q.BindOptional(5, t.content_hash).BindOptional(6, t.idempotency_hash).BindOptional(7, t.fact_hash);
  q.Bind(8, t.reason).Bind(9, t.selector_json.empty() ? std::string_view("{}") : t.selector_json);
  q.Bind(10, t.operation_id).Bind(11, t.actor).Bind(12, t.created_at);
  return q.Run();
}

Result<std::optional<std::string>> TombstoneStore::FindForEvent(int64_t namespace_id,
                                                                std::string_view content_hash,
                                                                std::string_view idempotency_key) {
  // Two partial-index seeks.
  auto st = db_.Cached(
      "SELECT id FROM tombstones WHERE namespace_id = ?1 AND idempotency_hash = ?2 UNION ALL "
      "SELECT id FROM tombstones WHERE namespace_id = ?1 AND content_hash = ?3 LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, ContentHash(idempotency_key)).Bind(3, content_hash);
  return FirstText(**st);
}

Result<std::optional<std::string>> TombstoneStore::FindForFact(int64_t namespace_id, std::string_view fact_hash) {
  auto st = db_.Cached("SELECT id FROM tombstones WHERE namespace_id = ? AND fact_hash = ? LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, fact_hash);
  return FirstText(**st);
}

Result<std::optional<Tombstone>> TombstoneStore::Find(std::string_view id) {
  auto st = db_.Cached(std::string(kTombstoneColumns) +
                       "WHERE t.id = ?1 OR t.object_id = ?1 ORDER BY t.id = ?1 DESC, t.created_at DESC, "
                       "t.id DESC LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return std::optional<Tombstone>();
  Tombstone t = ReadTombstone(**st);
  (*st)->Reset();
  return std::optional<Tombstone>(std::move(t));
}

Result<std::vector<Tombstone>> TombstoneStore::List(std::optional<int64_t> namespace_id, std::string_view object_id,
                                                    int limit, int64_t after_seq) {
  auto st = db_.Cached(std::string(kTombstoneColumns) +
                       "WHERE (?1 IS NULL OR t.namespace_id = ?1) AND (?2 = '' OR t.object_id = ?2) "
                       "AND (?4 = 0 OR t.rowid < ?4) ORDER BY t.rowid DESC LIMIT ?3");
  if (!st) return Error(st.error());
  if (namespace_id) {
    (*st)->Bind(1, *namespace_id);
  } else {
    (*st)->BindNull(1);
  }
  (*st)->Bind(2, object_id).Bind(3, static_cast<int64_t>(limit)).Bind(4, after_seq);
  std::vector<Tombstone> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back(ReadTombstone(**st));
  }
  return out;
}

Result<bool> TombstoneStore::Delete(std::string_view id) {
  auto st = db_.Cached("DELETE FROM tombstones WHERE id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return sqlite3_changes(db_.handle()) > 0;
}

}  // namespace engram::sqlite
