#include "lifecycle/resurrect.h"

#include <nlohmann/json.hpp>

namespace engram::lifecycle {

Result<std::vector<std::string>> ResurrectInTransaction(sqlite::Database& db, sqlite::ClaimStore& claims,
                                                        sqlite::AuditLog& audit, int64_t ns,
                                                        std::string_view match, int limit, TimestampMs now,
                                                        std::string_view actor, double bm25_k1, double bm25_b) {
  std::vector<std::string> out;
  if (match.empty() || limit <= 0) return out;
  sqlite::ClaimVisibility archived;
  archived.archived_only = true;
  auto hits = claims.Search(match, ns, archived, now, limit, bm25_k1, bm25_b);
  if (!hits) return Error(hits.error());
  if (hits->empty()) return out;
  std::vector<int64_t> seqs;
  for (const auto& h : *hits) seqs.push_back(h.seq);
  auto loaded = claims.GetBySeqs(seqs);
  if (!loaded) return Error(loaded.error());
  auto revive = db.Cached(
      "UPDATE claims SET status = 'active', activation = 1.0, decay_below_since = NULL, "
      "last_accessed_at = ?2 WHERE seq = ?1 AND status = 'archived'");
  if (!revive) return Error(revive.error());
  for (size_t i = 0; i < loaded->size(); ++i) {
    const Claim& c = (*loaded)[i];
    // Blocked when the same fact or the slot's value is current again under another claim.
    auto same = claims.CurrentByFactHash(ns, c.fact_hash);
    if (!same) return Error(same.error());
    if (same->has_value()) continue;
    if (!c.conflict_key.empty()) {
      auto holder = claims.ActiveByConflictKey(ns, c.conflict_key);
      if (!holder) return Error(holder.error());
      if (holder->has_value()) continue;
    }
    (*revive)->Bind(1, seqs[i]).Bind(2, now);
    ENGRAM_RETURN_IF_ERROR((*revive)->Run());
    Claim after = c;
    after.status = "active";
    const std::string reason = "recall found nothing current; archived claim matched the question";
    ENGRAM_RETURN_IF_ERROR(claims.AddHistory(seqs[i], now, actor, "resurrected", reason,
                                             sqlite::ClaimSnapshotJson(c), sqlite::ClaimSnapshotJson(after)));
    AuditEntry entry;
    entry.at = now;
    entry.actor = std::string(actor);
    entry.action = "resurrected";
    entry.object_type = "claim";
    entry.object_id = c.id;
    entry.reason = reason;
    entry.detail_json = nlohmann::json({{"status_before", "archived"}, {"status_after", "active"}}).dump();
    ENGRAM_RETURN_IF_ERROR(audit.Append(entry, ns));
    out.push_back(c.id);
  }
  return out;
}

}  // namespace engram::lifecycle
