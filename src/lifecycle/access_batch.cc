#include "lifecycle/access_batch.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "store/sqlite/experience_access_store.h"

namespace engram::lifecycle {

void AccessBatch::Record(const std::vector<std::string>& claim_ids, TimestampMs at) {
  for (const std::string& id : claim_ids) Add(id, 1, at);
}

void AccessBatch::Add(const std::string& claim_id, int64_t count, TimestampMs last) {
  if (count < 1 || claim_id.empty()) return;
  if (pending_.empty()) oldest_ = last;
  oldest_ = std::min(oldest_, last);
  Hits& h = pending_[claim_id];
  h.count += count;
  h.last = std::max(h.last, last);
}

std::string AccessBatch::Serialize() const {
  std::string out;
  for (const auto& [id, hits] : pending_) out += fmt::format("{} {} {}\n", id, hits.count, hits.last);
  return out;
}

int64_t AccessBatch::Parse(std::string_view text) {
  int64_t added = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) break;  // a torn last line
    std::string line(text.substr(0, end));
    text.remove_prefix(end + 1);
    char id[128];
    long long count = 0, last = 0;
    char extra = 0;
    if (std::sscanf(line.c_str(), "%127s %lld %lld %c", id, &count, &last, &extra) != 3) continue;
    Add(id, count, last);
    ++added;
  }
  return added;
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
  sqlite::ExperienceAccessStore experience(db);
  for (const auto& [id, hits] : pending_) {
    (*st)->Bind(1, id).Bind(2, hits.count).Bind(3, hits.last);
    ENGRAM_RETURN_IF_ERROR((*st)->Run());
    if (sqlite3_changes(db.handle()) > 0) {
      ++updated;
      continue;
    }
    // Not a claim: an episode or rule that experience recall returned (its forget score).
    auto added = experience.AddHits(id, hits.count, hits.last);
    if (!added) return Error(added.error());
    updated += *added ? 1 : 0;
  }
  return updated;
}

void AccessBatch::Clear() {
  pending_.clear();
  oldest_ = 0;
}

}  // namespace engram::lifecycle
