#include "store/sqlite/job_store.h"

#include <fmt/format.h>

#include <algorithm>

namespace engram::sqlite {
namespace {

std::string IdList(const std::vector<LeasedJob>& jobs) {
  std::string list = "[";
  for (size_t i = 0; i < jobs.size(); ++i) list += (i ? "," : "") + std::to_string(jobs[i].id);
  return list + "]";
}

// A job is ready when pending and due, or leased under another token with an expired lease (its
// worker died or hung). Leases of dead owners are released to pending before anything is picked.
constexpr const char* kReady =
    "((j.status = 'pending' AND j.available_at <= ?1) OR "
    " (j.status = 'leased' AND j.lease_expires_at <= ?1 AND j.lease_token IS NOT ?9))";

Liveness OwnerLiveness(std::string_view owner) {
  auto identity = ParseProcessIdentity(owner);
  return identity ? CheckLiveness(*identity) : Liveness::kUnknown;
}

std::string OwnerName(std::string_view owner) {
  auto identity = ParseProcessIdentity(owner);
  return identity ? DescribeProcess(*identity) : std::string();
}

}  // namespace

Status JobStore::EnqueueExtraction(int64_t ns, int64_t session_rowid, int64_t event_seq, TimestampMs now) {
  auto st = db_.Cached(
      "INSERT INTO jobs(kind, namespace_id, session_id, event_seq, status, available_at, created_at, "
      "updated_at) VALUES ('extract', ?, ?, ?, 'pending', ?, ?, ?)");
  if (!st) return st.error();
  (*st)->Bind(1, ns).Bind(2, session_rowid).Bind(3, event_seq).Bind(4, now).Bind(5, now).Bind(6, now);
  return (*st)->Run();
}

Result<std::vector<LeasedJob>> JobStore::LeaseBatch(const LeaseRequest& r) {
  auto released = ReleaseDeadLeases(r.now);
  if (!released) return Error(released.error());
  auto blocked = BlockedSessions(r.now, r.token);
  if (!blocked) return Error(blocked.error());
  auto picked = r.ignore_wait ? OldestReadySession(r, *blocked) : PickWaitedSession(r, *blocked);
  if (!picked) return Error(picked.error());
  if (!picked->has_value()) return std::vector<LeasedJob>{};
  return LeaseFromSession(r, **picked);
}

Result<std::string> JobStore::BlockedSessions(TimestampMs now, std::string_view token) {
  // Both sets are small: leases in flight (a few windows per worker) and windows in backoff.
  auto st = db_.Cached(
      "SELECT json_group_array(session_id) FROM ("
      "SELECT session_id FROM jobs INDEXED BY jobs_status_id "
      "WHERE status = 'leased' AND lease_expires_at > ?1 AND lease_token IS NOT ?2 UNION "
      "SELECT session_id FROM jobs INDEXED BY jobs_ready WHERE status = 'pending' AND available_at > ?1)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, now).Bind(2, token);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  std::string blocked = *row ? (*st)->Text(0) : "[]";
  (*st)->Reset();
  return blocked;
}

Result<std::optional<int64_t>> JobStore::OldestReadySession(const LeaseRequest& r, const std::string& blocked) {
  // Two walks of jobs_status_id in id order, each stopping at its first ready job of a session that
  // is not blocked. INDEXED BY: without it (no ANALYZE statistics) SQLite picks jobs_ready for the
  // pending walk — a range on available_at that reads every pending job and sorts them by id, once
  // per lease, which made a drain quadratic in the backlog (65% of a 20k-event scale run).
  auto st = db_.Cached(
      "SELECT session_id, id FROM (SELECT session_id, id FROM jobs INDEXED BY jobs_status_id "
      "WHERE status = 'pending' AND available_at <= ?1 AND session_id NOT IN (SELECT value FROM json_each(?2)) "
      "AND (?4 = 0 OR id <= ?4) ORDER BY id LIMIT 1) UNION ALL "
      "SELECT session_id, id FROM (SELECT session_id, id FROM jobs INDEXED BY jobs_status_id "
      "WHERE status = 'leased' AND lease_expires_at <= ?1 AND lease_token IS NOT ?3 "
      "AND session_id NOT IN (SELECT value FROM json_each(?2)) AND (?4 = 0 OR id <= ?4) "
      "ORDER BY id LIMIT 1) ORDER BY 2 LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, r.now).Bind(2, blocked).Bind(3, r.token).Bind(4, r.max_job_id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  std::optional<int64_t> out;
  if (*row) out = (*st)->Int(0);
  (*st)->Reset();
  return out;
}

Result<std::optional<int64_t>> JobStore::PickWaitedSession(const LeaseRequest& r, const std::string& blocked) {
  auto pick = db_.Cached(fmt::format(
      "SELECT j.session_id FROM jobs j WHERE {} AND j.session_id NOT IN (SELECT value FROM json_each(?5)) "
      "GROUP BY j.session_id HAVING ?2 OR count(*) >= ?3 OR min(j.created_at) <= ?1 - ?4 "
      "ORDER BY min(j.id) LIMIT 1",
      kReady));
  if (!pick) return Error(pick.error());
  (*pick)->Bind(1, r.now).Bind(2, static_cast<int64_t>(r.ignore_wait)).Bind(3, static_cast<int64_t>(r.max_events));
  (*pick)->Bind(4, r.max_wait_ms).Bind(5, blocked).Bind(9, r.token);
  auto row = (*pick)->Step();
  if (!row) return Error(row.error());
  std::optional<int64_t> session;
  if (*row) session = (*pick)->Int(0);
  (*pick)->Reset();
  return session;
}

Result<std::vector<LeasedJob>> JobStore::LeaseFromSession(const LeaseRequest& r, int64_t session) {
  // The session's open jobs outside this batch in event order; the window ends before the first
  // one that is not ready (none is, for a session that is not blocked: this is the guard).
  auto jobs = db_.Cached(fmt::format(
      "SELECT j.id, j.namespace_id, j.session_id, j.event_seq, j.attempts, {} FROM jobs j "
      "JOIN events e ON e.seq = j.event_seq WHERE j.session_id = ?2 AND j.status IN ('pending', 'leased') "
      "AND (j.status = 'pending' OR j.lease_token IS NOT ?9) ORDER BY e.occurred_at, e.seq LIMIT ?3",
      kReady));
  if (!jobs) return Error(jobs.error());
  (*jobs)->Bind(1, r.now).Bind(2, session).Bind(3, static_cast<int64_t>(r.max_events)).Bind(9, r.token);
  std::vector<LeasedJob> out;
  while (true) {
    auto next = (*jobs)->Step();
    if (!next) return Error(next.error());
    if (!*next) break;
    const Statement& q = **jobs;
    if (q.Int(5) == 0) break;
    out.push_back({q.Int(0), q.Int(1), q.Int(2), q.Int(3), static_cast<int>(q.Int(4)) + 1});
  }
  (*jobs)->Reset();
  auto lease = db_.Cached(
      "UPDATE jobs SET status = 'leased', lease_token = ?1, lease_owner = ?5, lease_expires_at = ?2, "
      "attempts = attempts + 1, updated_at = ?3 WHERE id IN (SELECT value FROM json_each(?4))");
  if (!lease) return Error(lease.error());
  const std::string owner = r.owner.empty() ? FormatProcessIdentity(SelfIdentity()) : r.owner;
  (*lease)->Bind(1, r.token).Bind(2, r.now + r.lease_ms).Bind(3, r.now).Bind(4, IdList(out)).Bind(5, owner);
  ENGRAM_RETURN_IF_ERROR((*lease)->Run());
  return out;
}

Result<std::map<std::string, Liveness>> JobStore::LeaseOwners() {
  auto st = db_.Cached(
      "SELECT DISTINCT coalesce(lease_owner, '') FROM jobs INDEXED BY jobs_status_id WHERE status = 'leased'");
  if (!st) return Error(st.error());
  std::map<std::string, Liveness> owners;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    std::string owner = (*st)->Text(0);
    owners.emplace(owner, OwnerLiveness(owner));
  }
  return owners;
}

Result<int64_t> JobStore::ReleaseLeases(std::string_view condition, TimestampMs now, int64_t id,
                                        std::string_view arg, std::string_view why) {
  // ?3 is bound even when `condition` does not use it (SQLite ignores a parameter it lacks).
  auto st = db_.Cached(fmt::format(
      "UPDATE jobs SET status = 'pending', lease_token = NULL, lease_owner = NULL, lease_expires_at = NULL, "
      "available_at = ?1, updated_at = ?1, last_error = ?4 WHERE status = 'leased' AND (?2 = 0 OR id = ?2) AND {}",
      condition));
  if (!st) return Error(st.error());
  (*st)->Bind(1, now).Bind(2, id).Bind(3, arg).Bind(4, why);
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return static_cast<int64_t>(sqlite3_changes(db_.handle()));
}

Result<int64_t> JobStore::ReleaseDeadLeases(TimestampMs now) { return ReleaseDeadLeases(now, 0); }

Result<int64_t> JobStore::LastId() {
  auto st = db_.Cached("SELECT coalesce(max(id), 0) FROM jobs");
  if (!st) return Error(st.error());
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  const int64_t id = *row ? (*st)->Int(0) : 0;
  (*st)->Reset();
  return id;
}

Result<int64_t> JobStore::ReleaseDeadLeases(TimestampMs now, int64_t id) {
  auto owners = LeaseOwners();
  if (!owners) return Error(owners.error());
  int64_t released = 0;
  for (const auto& [owner, liveness] : *owners) {
    if (liveness != Liveness::kDead) continue;
    auto n = ReleaseLeases("lease_owner = ?3", now, id, owner,
                           fmt::format("the lease owner ({}) is no longer running", OwnerName(owner)));
    if (!n) return Error(n.error());
    released += *n;
  }
  return released;
}

Status JobStore::Renew(std::string_view token, TimestampMs now, int64_t lease_ms) {
  auto st = db_.Cached(
      "UPDATE jobs SET lease_expires_at = ?2 WHERE status = 'leased' AND lease_token = ?1");
  if (!st) return st.error();
  (*st)->Bind(1, token).Bind(2, now + lease_ms);
  return (*st)->Run();
}

Result<bool> JobStore::StillLeased(const std::vector<LeasedJob>& jobs, std::string_view token) {
  auto st = db_.Cached(
      "SELECT count(*) FROM jobs WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'leased' "
      "AND lease_token = ?2");
  if (!st) return Error(st.error());
  (*st)->Bind(1, IdList(jobs)).Bind(2, token);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  int64_t held = (*st)->Int(0);
  (*st)->Reset();
  return held == static_cast<int64_t>(jobs.size());
}

Status JobStore::Complete(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now) {
  auto held = StillLeased(jobs, token);
  if (!held) return held.error();
  if (!*held) return Status::Busy("lease lost: another worker took these jobs over");
  auto st = db_.Cached(
      "UPDATE jobs SET status = 'done', lease_token = NULL, lease_owner = NULL, lease_expires_at = NULL, "
      "last_error = NULL, "
      "updated_at = ?2 WHERE id IN (SELECT value FROM json_each(?1))");
  if (!st) return st.error();
  (*st)->Bind(1, IdList(jobs)).Bind(2, now);
  return (*st)->Run();
}

Status JobStore::Fail(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now,
                      std::string_view error, int max_attempts, int64_t base_backoff_ms) {
  auto st = db_.Cached(
      "UPDATE jobs SET status = CASE WHEN attempts >= ?3 THEN 'failed' ELSE 'pending' END, "
      "available_at = ?4 + ?5 * (1 << min(attempts - 1, 16)), lease_token = NULL, lease_owner = NULL, "
      "lease_expires_at = NULL, "
      "last_error = ?6, updated_at = ?4 WHERE id IN (SELECT value FROM json_each(?1)) AND lease_token = ?2");
  if (!st) return st.error();
  (*st)->Bind(1, IdList(jobs)).Bind(2, token).Bind(3, static_cast<int64_t>(max_attempts)).Bind(4, now);
  (*st)->Bind(5, base_backoff_ms).Bind(6, error);
  return (*st)->Run();
}

Status JobStore::Release(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now) {
  auto st = db_.Cached(
      "UPDATE jobs SET status = 'pending', attempts = max(attempts - 1, 0), lease_token = NULL, lease_owner = NULL, "
      "lease_expires_at = NULL, available_at = ?3, updated_at = ?3 "
      "WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'leased' AND lease_token = ?2");
  if (!st) return st.error();
  (*st)->Bind(1, IdList(jobs)).Bind(2, token).Bind(3, now);
  return (*st)->Run();
}

Result<std::vector<JobInfo>> JobStore::List(std::string_view status, int limit, TimestampMs now, int64_t after_id) {
  auto st = db_.Cached(
      "SELECT j.id, j.kind, j.status, n.name, s.external_id, e.id, j.attempts, coalesce(j.last_error, ''), "
      "j.updated_at, coalesce(j.lease_owner, ''), coalesce(j.lease_expires_at, 0) FROM jobs j "
      "JOIN namespaces n ON n.id = j.namespace_id JOIN sessions s ON s.id = j.session_id "
      "JOIN events e ON e.seq = j.event_seq WHERE ((?1 = '' AND j.status <> 'done') OR j.status = ?1) "
      "AND j.id > ?3 ORDER BY j.id LIMIT ?2");
  if (!st) return Error(st.error());
  (*st)->Bind(1, status).Bind(2, static_cast<int64_t>(limit)).Bind(3, after_id);
  std::vector<JobInfo> out;
  std::map<std::string, Liveness> owners;  // each owner checked once per listing
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **st;
    JobInfo job;
    job.id = q.Int(0);
    job.kind = q.Text(1);
    job.status = q.Text(2);
    job.namespace_name = q.Text(3);
    job.session_id = q.Text(4);
    job.event_id = q.Text(5);
    job.attempts = static_cast<int>(q.Int(6));
    job.last_error = q.Text(7);
    job.updated_at = q.Int(8);
    if (job.status == "leased") {
      const std::string owner = q.Text(9);
      auto known = owners.try_emplace(owner, Liveness::kUnknown);
      if (known.second) known.first->second = OwnerLiveness(owner);
      job.lease_owner = OwnerName(owner);
      job.lease_owner_alive = std::string(LivenessName(known.first->second));
      job.lease_expires_at = q.Int(10);
      job.lease_stale = known.first->second == Liveness::kDead || job.lease_expires_at <= now;
    }
    out.push_back(std::move(job));
  }
  return out;
}

Result<JobCounts> JobStore::Counts(TimestampMs now) {
  JobCounts counts;
  auto pending = db_.QueryInt("SELECT count(*) FROM jobs WHERE status = 'pending'");
  if (!pending) return Error(pending.error());
  counts.pending = *pending;
  auto failed = db_.QueryInt("SELECT count(*) FROM jobs WHERE status = 'failed'");
  if (!failed) return Error(failed.error());
  counts.failed = *failed;
  auto st = db_.Cached(
      "SELECT coalesce(lease_owner, ''), count(*), coalesce(sum(lease_expires_at <= ?1), 0) "
      "FROM jobs INDEXED BY jobs_status_id WHERE status = 'leased' GROUP BY 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, now);
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const int64_t leased = (*st)->Int(1);
    counts.leased += leased;
    counts.stale_leases += OwnerLiveness((*st)->Text(0)) == Liveness::kDead ? leased : (*st)->Int(2);
  }
  return counts;
}

Result<int64_t> JobStore::Retry(int64_t id, TimestampMs now) {
  auto st = db_.Cached(
      "UPDATE jobs SET status = 'pending', attempts = 0, available_at = ?2, updated_at = ?2 "
      "WHERE status = 'failed' AND (?1 = 0 OR id = ?1)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id).Bind(2, now);
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  const int64_t failed = static_cast<int64_t>(sqlite3_changes(db_.handle()));
  auto dead = ReleaseDeadLeases(now, id);
  if (!dead) return Error(dead.error());
  auto expired = ReleaseLeases("lease_expires_at <= ?1", now, id, "", "the lease expired");
  if (!expired) return Error(expired.error());
  return failed + *dead + *expired;
}

}  // namespace engram::sqlite
