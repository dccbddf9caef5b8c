#include "lifecycle/access_batch.h"

#include <algorithm>

namespace engram::lifecycle {

void AccessBatch::Record(const std::vector<std::string>& claim_ids, TimestampMs at) {
  if (claim_ids.empty()) return;
  if (pending_.empty()) oldest_ = at;
  for (const std::string& id : claim_ids) {
    Hits& h = pending_[id];
    h.count += 1;
    h.last = std::max(h.last, at);
  }
}

bool AccessBatch::Due(TimestampMs now, int max_claims, int64_t max_age_ms) const {
  if (pending_.empty()) return false;
  return static_cast<int64_t>(pending_.size()) >= max_claims || now - oldest_ >= max_age_ms;
}

Result<int64_t> AccessBatch::WriteInTransaction(sqlite::Database& db) const {
  auto st = db.Cached(
      "UPDATE claims SET access_count = access_count + ?2, "
      "last_accessed_at = max(coalesce(last_accessed_at, 0), ?3) WHERE id = ?1");
  if (!st) return Error(st.error());
  int64_t updated = 0;
  for (const auto& [id, hits] : pending_) {
    (*st)->Bind(1, id).Bind(2, hits.count).Bind(3, hits.last);
    ENGRAM_RETURN_IF_ERROR((*st)->Run());
    updated += sqlite3_changes(db.handle());
  }
  return updated;
}

void AccessBatch::Clear() {
  pending_.clear();
  oldest_ = 0;
}

}  // namespace engram::lifecycle
