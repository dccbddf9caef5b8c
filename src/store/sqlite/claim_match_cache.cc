#include "store/sqlite/claim_match_cache.h"

#include <algorithm>

#include "store/sqlite/best_hits.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/term_match_cache.h"

namespace engram::sqlite {
namespace {

using Standing = ClaimStanding::Status;

// A status that was true of the world at some time: what history and as_of searches show
// ('active','superseded','disputed','expired').
bool EverHeld(Standing s) {
  return s == Standing::kActive || s == Standing::kSuperseded || s == Standing::kDisputed || s == Standing::kExpired;
}

}  // namespace

std::optional<ClaimStanding::Status> ClaimStanding::ParseStatus(std::string_view text) {
  if (text == "active") return Status::kActive;
  if (text == "disputed") return Status::kDisputed;
  if (text == "superseded") return Status::kSuperseded;
  if (text == "expired") return Status::kExpired;
  if (text == "archived") return Status::kArchived;
  if (text == "retracted") return Status::kRetracted;
  return std::nullopt;
}

bool VisibleAt(const ClaimStanding& c, const ClaimVisibility& v, TimestampMs now) {
  bool visible = false;
  if (v.as_of) {
    const TimestampMs t = *v.as_of;
    visible = c.valid_from <= t && (!c.valid_to || t < *c.valid_to) && EverHeld(c.status);
  } else if (v.include_history) {
    visible = EverHeld(c.status);
  } else {
    // Current: not closed in valid time and not past its TTL.
    visible = (c.status == Standing::kActive || c.status == Standing::kDisputed) && (!c.valid_to || *c.valid_to > now) &&
              (!c.expires_at || *c.expires_at > now);
  }
  if (v.valid_until && !(c.valid_from < *v.valid_until)) return false;
  if (v.valid_since && c.valid_to && !(*c.valid_to > *v.valid_since)) return false;
  return visible;
}

bool ClaimMatchCache::Answers(const ClaimVisibility& v) {
  return !v.archived_only && !v.any_status && !v.known_as_of;
}

void ClaimMatchCache::Clear() {
  phrases_.clear();
  too_large_.clear();
  rows_ = 0;
}

void ClaimMatchCache::UseParameters(double k1, double b) {
  if (parameters_ && parameters_->first == k1 && parameters_->second == b) return;
  Clear();
  parameters_ = std::pair{k1, b};
}

const std::string& ClaimMatchCache::Key(int64_t namespace_id, std::string_view phrase) const {
  key_.assign(reinterpret_cast<const char*>(&namespace_id), sizeof namespace_id);
  key_.append(phrase);
  return key_;
}

const std::vector<ClaimMatchCache::Row>* ClaimMatchCache::Find(int64_t namespace_id, std::string_view phrase) const {
  auto it = phrases_.find(Key(namespace_id, phrase));
  return it == phrases_.end() ? nullptr : &it->second;
}

size_t ClaimMatchCache::EntryUnits(std::string_view phrase) {
  // An entry's key, its vector and its hash node (about 100 bytes with a short key), counted in
  // rows, so that phrases without rows also fill the memo.
  return 2 + phrase.size() / sizeof(Row);
}

std::vector<std::string_view> ClaimMatchCache::Missing(int64_t namespace_id,
                                                       const std::vector<std::string_view>& phrases) const {
  return DistinctMissing(phrases, [&](std::string_view p) { return Find(namespace_id, p) != nullptr; });
}

void ClaimMatchCache::Remember(int64_t namespace_id, const std::vector<std::string_view>& phrases,
                               std::vector<std::vector<Row>> rows) {
  size_t units = 0;
  for (size_t i = 0; i < phrases.size() && i < rows.size(); ++i) units += rows[i].size() + EntryUnits(phrases[i]);
  if (units > kMaxRows) {
    for (std::string_view p : phrases) too_large_.insert(Key(namespace_id, p));
    return;
  }
  if (rows_ + units > kMaxRows) {
    phrases_.clear();
    rows_ = 0;
  }
  for (size_t i = 0; i < phrases.size() && i < rows.size(); ++i) {
    if (Find(namespace_id, phrases[i]) != nullptr) continue;  // a phrase given twice
    rows[i].shrink_to_fit();
    rows_ += rows[i].size() + EntryUnits(phrases[i]);
    phrases_.emplace(Key(namespace_id, phrases[i]), std::move(rows[i]));
  }
}

bool ClaimMatchCache::TooLarge(int64_t namespace_id, const std::vector<std::string_view>& phrases) const {
  if (too_large_.empty()) return false;
  for (std::string_view p : phrases) {
    if (too_large_.contains(Key(namespace_id, p))) return true;
  }
  return false;
}

std::optional<std::vector<SearchHit>> ClaimMatchCache::Search(int64_t namespace_id,
                                                              const std::vector<std::string_view>& phrases,
                                                              const ClaimVisibility& v, TimestampMs now,
                                                              int limit) const {
  if (!Answers(v)) return std::nullopt;
  std::vector<const std::vector<Row>*> lists;
  lists.reserve(phrases.size());
  for (std::string_view p : phrases) {
    const std::vector<Row>* rows = Find(namespace_id, p);
    if (rows == nullptr) return std::nullopt;
    lists.push_back(rows);
  }
  // Each claim's shares, added in phrase order from 0 (engram_bm25's sum); the claims that are
  // not visible are dropped after (their rows are still walked: a claim's phrases all count).
  std::vector<SearchHit> hits;
  std::vector<const ClaimStanding*> standing;
  std::unordered_map<int64_t, size_t> at;  // seq → index in hits
  for (const std::vector<Row>* rows : lists) {
    for (const Row& row : *rows) {
      auto [it, added] = at.try_emplace(row.seq, hits.size());
      if (added) {
        hits.push_back({row.seq, 0.0});
        standing.push_back(&row.standing);
      }
      hits[it->second].score += row.share;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < hits.size(); ++i) {
    if (VisibleAt(*standing[i], v, now)) hits[kept++] = hits[i];
  }
  hits.resize(kept);
  KeepBest(hits, limit);
  return hits;
}

}  // namespace engram::sqlite
