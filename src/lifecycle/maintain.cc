#include "lifecycle/maintain.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "lifecycle/decay.h"
#include "lifecycle/ttl.h"
#include "util/time.h"

namespace engram::lifecycle {
namespace {

std::vector<std::string> ParseQualifiers(const std::string& json) {
  std::vector<std::string> out;
  auto q = nlohmann::json::parse(json, nullptr, false);
  if (q.is_array()) {
    for (const auto& v : q) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  return out;
}

std::string Detail(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One transition: history row with before/after snapshots, then the audit row.
Status Record(MaintainContext& ctx, int64_t ns, int64_t seq, const Claim& before, const Claim& after,
              std::string_view action, const std::string& reason, const nlohmann::json& detail) {
  ENGRAM_RETURN_IF_ERROR(ctx.claims.AddHistory(seq, ctx.now, ctx.actor, action, reason,
                                               sqlite::ClaimSnapshotJson(before),
                                               sqlite::ClaimSnapshotJson(after)));
  AuditEntry entry;
  entry.at = ctx.now;
  entry.actor = ctx.actor;
  entry.action = std::string(action);
  entry.object_type = "claim";
  entry.object_id = before.id;
  entry.reason = reason;
  entry.detail_json = Detail(detail);
  return ctx.audit.Append(entry, ns);
}

// Helpful ratings per claim seq — on the claim, or on an event it was read from — up to `now`.
struct Helpful {
  int64_t count = 0;
  TimestampMs last = 0;
};

Result<std::map<int64_t, Helpful>> HelpfulRatings(sqlite::Database& db, int64_t ns, TimestampMs now) {
  std::map<int64_t, Helpful> out;
  auto st = db.Cached(
      "SELECT f.owner_seq, count(*), max(f.created_at) FROM feedback f WHERE f.namespace_id = ?1 "
      "AND f.owner_type = 'claim' AND f.helpful = 1 AND f.created_at <= ?2 GROUP BY f.owner_seq "
      "UNION ALL "
      "SELECT ce.claim_seq, count(*), max(f.created_at) FROM feedback f JOIN claim_evidence ce "
      "ON ce.event_seq = f.owner_seq AND ce.relation = 'supports' WHERE f.namespace_id = ?1 "
      "AND f.owner_type = 'event' AND f.helpful = 1 AND f.created_at <= ?2 GROUP BY ce.claim_seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, now);
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    Helpful& h = out[(*st)->Int(0)];
    h.count += (*st)->Int(1);
    h.last = std::max(h.last, (*st)->Int(2));
  }
  return out;
}

Status ExpireStep(MaintainContext& ctx, int64_t ns, MaintainNamespaceReport& report) {
  while (true) {
    int64_t done = 0;
    ENGRAM_RETURN_IF_ERROR(ctx.run_batch([&]() -> Status {
      done = 0;
      auto st = ctx.db.Cached(
          "SELECT seq, id FROM claims WHERE namespace_id = ? AND status IN ('active','disputed') "
          "AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at, seq LIMIT ?");
      if (!st) return st.error();
      (*st)->Bind(1, ns).Bind(2, ctx.now).Bind(3, static_cast<int64_t>(ctx.batch));
      std::vector<std::pair<int64_t, std::string>> due;
      while (true) {
        auto row = (*st)->Step();
        if (!row) return row.error();
        if (!*row) break;
        due.emplace_back((*st)->Int(0), (*st)->Text(1));
      }
      auto update = ctx.db.Cached(
          "UPDATE claims SET status = 'expired', decay_below_since = NULL, valid_to = CASE WHEN "
          "valid_to IS NULL OR valid_to > expires_at THEN max(expires_at, valid_from) ELSE valid_to END "
          "WHERE seq = ?");
      if (!update) return update.error();
      for (const auto& [seq, id] : due) {
        auto stored = ctx.claims.Get(id);
        if (!stored) return stored.error();
        const Claim& before = stored->claim;
        (*update)->Bind(1, seq);
        ENGRAM_RETURN_IF_ERROR((*update)->Run());
        auto after_row = ctx.claims.Get(id);
        if (!after_row) return after_row.error();
        const Claim& after = after_row->claim;
        const LifecycleClass cls = ClassOf(before);
        const bool stated = before.valid_to.has_value() && before.expires_at == before.valid_to;
        std::string reason;
        if (stated) {
          reason = fmt::format("valid_to {} passed", FormatTimestamp(*before.valid_to));
        } else {
          reason = fmt::format("ttl: {} claim, importance {:.2f} -> {} days from valid_from (HL-Mem table)",
                               ClassName(cls), before.importance, TtlDays(cls, before.importance).value_or(0));
        }
        nlohmann::json detail = {{"status_before", before.status},
                                 {"status_after", "expired"},
                                 {"expires_at", before.expires_at.value_or(0)},
                                 {"class", std::string(ClassName(cls))}};
        ENGRAM_RETURN_IF_ERROR(Record(ctx, ns, seq, before, after, "expired", reason, detail));
        ++done;
      }
      return Status::Ok();
    }));
    report.expired += done;
    if (done < ctx.batch) return Status::Ok();
  }
}

Status DecayStep(MaintainContext& ctx, int64_t ns, MaintainNamespaceReport& report) {
  // Read under the runner too: the connection is only used inside run_batch.
  std::map<int64_t, Helpful> ratings;
  ENGRAM_RETURN_IF_ERROR(ctx.run_batch([&]() -> Status {
    auto r = HelpfulRatings(ctx.db, ns, ctx.now);
    if (!r) return r.error();
    ratings = std::move(*r);
    return Status::Ok();
  }));
  const std::map<int64_t, Helpful>* helpful = &ratings;
  int64_t after_seq = 0;
  while (true) {
    int64_t read = 0;
    int64_t decayed = 0, archived = 0, vectors = 0;
    int64_t last_seq = after_seq;
    ENGRAM_RETURN_IF_ERROR(ctx.run_batch([&]() -> Status {
      read = decayed = archived = vectors = 0;
      last_seq = after_seq;
      auto st = ctx.db.Cached(
          "SELECT seq, id, scope, qualifiers, extractor, max(recorded_from, valid_from), last_accessed_at, "
          "access_count, activation, decay_below_since FROM claims WHERE namespace_id = ? AND status IN "
          "('active','disputed') AND seq > ? ORDER BY seq LIMIT ?");
      if (!st) return st.error();
      (*st)->Bind(1, ns).Bind(2, after_seq).Bind(3, static_cast<int64_t>(ctx.batch));
      struct Row {
        int64_t seq;
        std::string id;
        LifecycleClass cls;
        DecayInput in;
        double stored_activation;
        std::optional<TimestampMs> stored_below;
      };
      std::vector<Row> rows;
      while (true) {
        auto row = (*st)->Step();
        if (!row) return row.error();
        if (!*row) break;
        const sqlite::Statement& q = **st;
        Row r;
        r.seq = q.Int(0);
        r.id = q.Text(1);
        r.cls = ClassOf(q.Text(2), ParseQualifiers(q.Text(3)), q.Text(4));
        r.in.lifecycle_class = r.cls;
        r.in.last_use = q.Int(5);
        if (!q.IsNull(6)) r.in.last_use = std::max(r.in.last_use, q.Int(6));
        r.in.access_count = q.Int(7);
        auto h = helpful->find(r.seq);
        if (h != helpful->end()) {
          r.in.helpful = h->second.count;
          r.in.last_use = std::max(r.in.last_use, h->second.last);
        }
        r.stored_activation = q.Double(8);
        if (!q.IsNull(9)) r.stored_below = q.Int(9);
        rows.push_back(std::move(r));
      }
      read = static_cast<int64_t>(rows.size());
      auto set = ctx.db.Cached("UPDATE claims SET activation = ?2, decay_below_since = ?3 WHERE seq = ?1");
      if (!set) return set.error();
      auto archive = ctx.db.Cached(
          "UPDATE claims SET status = 'archived', activation = ?2, decay_below_since = ?3 WHERE seq = ?1");
      if (!archive) return archive.error();
      auto drop = ctx.db.Cached("DELETE FROM vectors WHERE owner_type = 'claim' AND owner_seq = ?");
      if (!drop) return drop.error();
      for (const Row& r : rows) {
        last_seq = r.seq;
        const DecayState state = Decay(r.in, ctx.now);
        auto bind = [&](sqlite::Statement& q) {
          q.Bind(1, r.seq).Bind(2, state.activation);
          if (state.below_since) {
            q.Bind(3, *state.below_since);
          } else {
            q.BindNull(3);
          }
        };
        if (state.archive) {
          auto stored = ctx.claims.Get(r.id);
          if (!stored) return stored.error();
          bind(**archive);
          ENGRAM_RETURN_IF_ERROR((*archive)->Run());
          (*drop)->Bind(1, r.seq);
          ENGRAM_RETURN_IF_ERROR((*drop)->Run());
          const int64_t dropped = sqlite3_changes(ctx.db.handle());
          vectors += dropped;
          Claim after = stored->claim;
          after.status = "archived";
          const std::string reason = fmt::format(
              "activation {:.4f} below {} since {} (grace {} days); {} claim, half-life {} days",
              state.activation, kArchiveThreshold, FormatTimestamp(*state.below_since), kArchiveGraceDays,
              ClassName(r.cls), HalfLifeDays(r.cls));
          nlohmann::json detail = {{"status_before", stored->claim.status},
                                   {"status_after", "archived"},
                                   {"activation", state.activation},
                                   {"below_since", *state.below_since},
                                   {"last_use", r.in.last_use},
                                   {"vectors_dropped", dropped}};
          ENGRAM_RETURN_IF_ERROR(Record(ctx, ns, r.seq, stored->claim, after, "archived", reason, detail));
          ++archived;
          continue;
        }
        const bool moved = std::fabs(state.activation - r.stored_activation) >= 0.005;
        if (moved || state.below_since != r.stored_below) {
          bind(**set);
          ENGRAM_RETURN_IF_ERROR((*set)->Run());
          ++decayed;
        }
      }
      return Status::Ok();
    }));
    report.decayed += decayed;
    report.archived += archived;
    report.vectors_dropped += vectors;
    after_seq = last_seq;
    if (read < ctx.batch) return Status::Ok();
  }
}

Status ConvergeStep(MaintainContext& ctx, int64_t ns, MaintainNamespaceReport& report) {
  while (true) {
    int64_t groups = 0, folded = 0;
    ENGRAM_RETURN_IF_ERROR(ctx.run_batch([&]() -> Status {
      groups = folded = 0;
      auto st = ctx.db.Cached(
          "SELECT polarity_key, negated FROM claims WHERE namespace_id = ? AND status IN ('active','disputed') "
          "GROUP BY polarity_key, negated HAVING count(*) > 1 LIMIT ?");
      if (!st) return st.error();
      (*st)->Bind(1, ns).Bind(2, static_cast<int64_t>(ctx.batch));
      std::vector<std::pair<std::string, int64_t>> keys;
      while (true) {
        auto row = (*st)->Step();
        if (!row) return row.error();
        if (!*row) break;
        keys.emplace_back((*st)->Text(0), (*st)->Int(1));
      }
      groups = static_cast<int64_t>(keys.size());
      auto members = ctx.db.Cached(
          "SELECT seq, id FROM claims WHERE namespace_id = ? AND polarity_key = ? AND negated = ? "
          "AND status IN ('active','disputed') ORDER BY status = 'active' DESC, seq");
      if (!members) return members.error();
      auto move = ctx.db.Cached(
          "INSERT OR IGNORE INTO claim_evidence(claim_seq, event_seq, relation, created_at) "
          "SELECT ?1, event_seq, relation, ?3 FROM claim_evidence WHERE claim_seq = ?2");
      if (!move) return move.error();
      auto close = ctx.db.Cached(
          "UPDATE claims SET status = 'superseded', superseded_by_id = ?2, recorded_to = ?3, "
          "decay_below_since = NULL WHERE seq = ?1");
      if (!close) return close.error();
      for (const auto& [key, negated] : keys) {
        (*members)->Reset();  // stepped to the end by the previous group
        (*members)->Bind(1, ns).Bind(2, key).Bind(3, negated);
        std::vector<std::pair<int64_t, std::string>> group;
        while (true) {
          auto row = (*members)->Step();
          if (!row) return row.error();
          if (!*row) break;
          group.emplace_back((*members)->Int(0), (*members)->Text(1));
        }
        for (size_t i = 1; i < group.size(); ++i) {
          const auto& [seq, id] = group[i];
          auto stored = ctx.claims.Get(id);
          if (!stored) return stored.error();
          (*move)->Bind(1, group[0].first).Bind(2, seq).Bind(3, ctx.now);
          ENGRAM_RETURN_IF_ERROR((*move)->Run());
          (*close)->Bind(1, seq).Bind(2, group[0].second).Bind(3, ctx.now);
          ENGRAM_RETURN_IF_ERROR((*close)->Run());
          Claim after = stored->claim;
          after.status = "superseded";
          after.superseded_by_id = group[0].second;
          after.recorded_to = ctx.now;
          nlohmann::json detail = {{"status_before", stored->claim.status},
                                   {"status_after", "superseded"},
                                   {"kept", group[0].second}};
          ENGRAM_RETURN_IF_ERROR(Record(ctx, ns, seq, stored->claim, after, "converged",
                                        "same claim keys as " + group[0].second + " (evidence moved to it)",
                                        detail));
          ++folded;
        }
      }
      return Status::Ok();
    }));
    report.converged += folded;
    if (groups < ctx.batch) return Status::Ok();
  }
}

}  // namespace

Result<std::vector<std::pair<int64_t, std::string>>> MaintainedNamespaces(sqlite::Database& db,
                                                                          std::string_view name) {
  auto st = db.Cached("SELECT id, name FROM namespaces WHERE ?1 = '' OR name = ?1 ORDER BY id");
  if (!st) return Error(st.error());
  (*st)->Bind(1, name);
  std::vector<std::pair<int64_t, std::string>> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.emplace_back((*st)->Int(0), (*st)->Text(1));
  }
  if (!name.empty() && out.empty()) {
    return Error(Status::NotFound(fmt::format("no namespace \"{}\"", name)));
  }
  return out;
}

Result<int64_t> AssignTtlInTransaction(sqlite::Database& db, int64_t namespace_id, int limit) {
  auto st = db.Cached(
      "SELECT seq, scope, qualifiers, extractor, importance, valid_from, valid_to FROM claims "
      "WHERE ttl_version = 0 AND (?1 = 0 OR namespace_id = ?1) LIMIT ?2");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, static_cast<int64_t>(limit));
  std::vector<std::pair<int64_t, std::optional<TimestampMs>>> computed;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const sqlite::Statement& q = **st;
    Claim c;
    c.scope = q.Text(1);
    c.qualifiers = ParseQualifiers(q.Text(2));
    c.extractor = q.Text(3);
    c.importance = q.Double(4);
    c.valid_from = q.Int(5);
    if (!q.IsNull(6)) c.valid_to = q.Int(6);
    computed.emplace_back(q.Int(0), ExpiresAt(c));
  }
  auto update = db.Cached("UPDATE claims SET expires_at = ?2, ttl_version = ?3 WHERE seq = ?1");
  if (!update) return Error(update.error());
  for (const auto& [seq, expires] : computed) {
    (*update)->Bind(1, seq).Bind(3, static_cast<int64_t>(kTtlVersion));
    if (expires) {
      (*update)->Bind(2, *expires);
    } else {
      (*update)->BindNull(2);
    }
    ENGRAM_RETURN_IF_ERROR((*update)->Run());
  }
  return static_cast<int64_t>(computed.size());
}

Result<MaintainNamespaceReport> MaintainNamespace(MaintainContext& ctx, int64_t ns, const std::string& name) {
  MaintainNamespaceReport report;
  report.namespace_name = name;
  ctx.batch = std::max(ctx.batch, 1);
  while (true) {
    int64_t n = 0;
    ENGRAM_RETURN_IF_ERROR(ctx.run_batch([&]() -> Status {
      auto r = AssignTtlInTransaction(ctx.db, ns, ctx.batch);
      if (!r) return r.error();
      n = *r;
      return Status::Ok();
    }));
    report.ttl_assigned += n;
    if (n < ctx.batch) break;
  }
  ENGRAM_RETURN_IF_ERROR(ExpireStep(ctx, ns, report));
  ENGRAM_RETURN_IF_ERROR(DecayStep(ctx, ns, report));
  ENGRAM_RETURN_IF_ERROR(ConvergeStep(ctx, ns, report));
  return report;
}

}  // namespace engram::lifecycle
