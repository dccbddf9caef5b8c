// store/sqlite/audit_log.h — the audit log: every lifecycle transition (forget, unforget,
// compact) with time, actor, action, object and reason, and details that are ids, counts and
// statuses, never content. Callers own transactions.
#ifndef ENGRAM_STORE_SQLITE_AUDIT_LOG_H_
#define ENGRAM_STORE_SQLITE_AUDIT_LOG_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

class AuditLog {
 public:
  explicit AuditLog(Database& db) : db_(db) {}

  // Appends one row (entry.seq and entry.namespace_name are ignored). detail_json "" means {}.
  Status Append(const AuditEntry& entry, std::optional<int64_t> namespace_id);

  // Rows about this object id in the order they were written (seq; a forget copies a claim's history
  // in its order before its own row), at most `limit`, with a seq above `after_seq` (keyset
  // paging; 0 = from the first). Errors: from SQLite.
  Result<std::vector<AuditEntry>> ForObject(std::string_view object_id, int64_t after_seq, int limit);

 private:
  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_AUDIT_LOG_H_
