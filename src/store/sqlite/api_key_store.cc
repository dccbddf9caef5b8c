#include "store/sqlite/api_key_store.h"

#include <fmt/format.h>

#include "store/sqlite/string_list.h"

namespace engram::sqlite {
namespace {

constexpr const char* kColumns = "SELECT id, namespaces, access, label, created_at, revoked_at FROM api_keys ";

}  // namespace

Status ApiKeyStore::Insert(const ApiKeyInfo& key, std::string_view secret_hash) {
  auto st = db_.Cached(
      "INSERT INTO api_keys(id, secret_hash, access, namespaces, label, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  if (!st) return st.error();
  const std::string namespaces = StringListToJson(key.namespaces);
  (*st)->Bind(1, key.id).Bind(2, secret_hash).Bind(3, key.access).Bind(4, namespaces).Bind(5, key.label);
  (*st)->Bind(6, key.created_at);
  return (*st)->Run();
}

Result<std::vector<ApiKeyInfo>> ApiKeyStore::Rows(Statement& st) {
  std::vector<ApiKeyInfo> out;
  while (true) {
    auto row = st.Step();
    if (!row) {
      st.Reset();
      return Error(row.error());
    }
    if (!*row) break;
    ApiKeyInfo k{.id = st.Text(0), .namespaces = StringListFromJson(st.Text(1)), .access = st.Text(2),
                 .label = st.Text(3), .created_at = st.Int(4)};
    if (!st.IsNull(5)) k.revoked_at = st.Int(5);
    out.push_back(std::move(k));
  }
  st.Reset();
  return out;
}

Result<std::vector<ApiKeyInfo>> ApiKeyStore::List(bool include_revoked) {
  auto st = db_.Cached(std::string(kColumns) + (include_revoked ? "" : "WHERE revoked_at IS NULL ") +
                       "ORDER BY created_at, id");
  if (!st) return Error(st.error());
  return Rows(**st);
}

Result<ApiKeyInfo> ApiKeyStore::Get(std::string_view id) {
  auto st = db_.Cached(std::string(kColumns) + "WHERE id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  auto rows = Rows(**st);
  if (!rows) return Error(rows.error());
  if (rows->empty()) return Error(Status::NotFound(fmt::format("no API key with id \"{}\"", id)));
  return rows->front();
}

Result<ApiKeyInfo> ApiKeyStore::FindActiveByHash(std::string_view secret_hash) {
  auto st = db_.Cached(std::string(kColumns) + "WHERE secret_hash = ? AND revoked_at IS NULL");
  if (!st) return Error(st.error());
  (*st)->Bind(1, secret_hash);
  auto rows = Rows(**st);
  if (!rows) return Error(rows.error());
  if (rows->empty()) return Error(Status::NotFound("no such key"));
  return rows->front();
}

Status ApiKeyStore::Revoke(std::string_view id, TimestampMs now) {
  auto st = db_.Cached("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
  if (!st) return st.error();
  (*st)->Bind(1, now).Bind(2, id);
  return (*st)->Run();
}

}  // namespace engram::sqlite
