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

// A job is ready when pending and due, or leased with an expired lease (its worker died).
constexpr const char* kReady =
    "((j.status = 'pending' AND j.available_at <= ?1) OR "
    " (j.status = 'leased' AND j.lease_expires_at <= ?1))";

}  // namespace

Status JobStore::EnqueueExtraction(int64_t ns, int64_t session_rowid, int64_t event_seq, TimestampMs now) {
  auto st = db_.Cached(
      "INSERT INTO jobs(kind, namespace_id, session_id, event_seq, status, available_at, created_at, "
      "updated_at) VALUES ('extract', ?, ?, ?, 'pending', ?, ?, ?)");
  if (!st) return st.error();
  (*st)->Bind(1, ns).Bind(2, session_rowid).Bind(3, event_seq).Bind(4, now).Bind(5, now).Bind(6, now);
  return (*st)->Run();
}

Result<std::optional<int64_t>> JobStore::OldestReadySession(TimestampMs now) {
  // Two walks of jobs_status_id in id order, each stopping at its first ready job. INDEXED BY:
  // without it (no ANALYZE statistics) SQLite picks jobs_ready for the pending walk — a range on
  // available_at that reads every pending job and sorts them by id, once per lease, which made a
  // drain quadratic in the backlog (65% of a 20k-event scale run).
  auto st = db_.Cached(
      "SELECT session_id, id FROM (SELECT session_id, id FROM jobs INDEXED BY jobs_status_id "
      "WHERE status = 'pending' AND available_at <= ?1 ORDER BY id LIMIT 1) UNION ALL "
      "SELECT session_id, id FROM (SELECT session_id, id FROM jobs INDEXED BY jobs_status_id "
      "WHERE status = 'leased' AND lease_expires_at <= ?1 ORDER BY id LIMIT 1) ORDER BY 2 LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, now);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  std::optional<int64_t> out;
  if (*row) out = (*st)->Int(0);
  (*st)->Reset();
  return out;
}

Result<std::vector<LeasedJob>> JobStore::LeaseBatch(const LeaseRequest& r) {
  int64_t session = 0;
  if (r.ignore_wait) {
    // Draining: the session of the oldest ready job, found in one index seek per kind.
    auto oldest = OldestReadySession(r.now);
    if (!oldest) return Error(oldest.error());
    if (!oldest->has_value()) return std::vector<LeasedJob>{};
    session = **oldest;
  } else {
    auto picked = PickWaitedSession(r);
    if (!picked) return Error(picked.error());
    if (!picked->has_value()) return std::vector<LeasedJob>{};
    session = **picked;
  }
  return LeaseFromSession(r, session);
}

Result<std::optional<int64_t>> JobStore::PickWaitedSession(const LeaseRequest& r) {
  auto pick = db_.Cached(fmt::format(
      "SELECT j.session_id FROM jobs j WHERE {} GROUP BY j.session_id "
      "HAVING ?2 OR count(*) >= ?3 OR min(j.created_at) <= ?1 - ?4 ORDER BY min(j.id) LIMIT 1",
      kReady));
  if (!pick) return Error(pick.error());
  (*pick)->Bind(1, r.now).Bind(2, static_cast<int64_t>(r.ignore_wait)).Bind(3, static_cast<int64_t>(r.max_events));
  (*pick)->Bind(4, r.max_wait_ms);
  auto row = (*pick)->Step();
  if (!row) return Error(row.error());
  std::optional<int64_t> session;
  if (*row) session = (*pick)->Int(0);
  (*pick)->Reset();
  return session;
}

Result<std::vector<LeasedJob>> JobStore::LeaseFromSession(const LeaseRequest& r, int64_t session) {
  auto jobs = db_.Cached(fmt::format(
      "SELECT j.id, j.namespace_id, j.session_id, j.event_seq, j.attempts FROM jobs j "
      "JOIN events e ON e.seq = j.event_seq WHERE j.session_id = ?2 AND {} "
      "ORDER BY e.occurred_at, e.seq LIMIT ?3",
      kReady));
  if (!jobs) return Error(jobs.error());
  (*jobs)->Bind(1, r.now).Bind(2, session).Bind(3, static_cast<int64_t>(r.max_events));
  std::vector<LeasedJob> out;
  while (true) {
    auto next = (*jobs)->Step();
    if (!next) return Error(next.error());
    if (!*next) break;
    const Statement& q = **jobs;
    out.push_back({q.Int(0), q.Int(1), q.Int(2), q.Int(3), static_cast<int>(q.Int(4)) + 1});
  }
  auto lease = db_.Cached(
      "UPDATE jobs SET status = 'leased', lease_token = ?1, lease_expires_at = ?2, attempts = attempts + 1, "
      "updated_at = ?3 WHERE id IN (SELECT value FROM json_each(?4))");
  if (!lease) return Error(lease.error());
  (*lease)->Bind(1, r.token).Bind(2, r.now + r.lease_ms).Bind(3, r.now).Bind(4, IdList(out));
  ENGRAM_RETURN_IF_ERROR((*lease)->Run());
  return out;
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
      "UPDATE jobs SET status = 'done', lease_token = NULL, lease_expires_at = NULL, last_error = NULL, "
      "updated_at = ?2 WHERE id IN (SELECT value FROM json_each(?1))");
  if (!st) return st.error();
  (*st)->Bind(1, IdList(jobs)).Bind(2, now);
  return (*st)->Run();
}

Status JobStore::Fail(const std::vector<LeasedJob>& jobs, std::string_view token, TimestampMs now,
                      std::string_view error, int max_attempts, int64_t base_backoff_ms) {
  auto st = db_.Cached(
      "UPDATE jobs SET status = CASE WHEN attempts >= ?3 THEN 'failed' ELSE 'pending' END, "
      "available_at = ?4 + ?5 * (1 << min(attempts - 1, 16)), lease_token = NULL, lease_expires_at = NULL, "
      "last_error = ?6, updated_at = ?4 WHERE id IN (SELECT value FROM json_each(?1)) AND lease_token = ?2");
  if (!st) return st.error();
  (*st)->Bind(1, IdList(jobs)).Bind(2, token).Bind(3, static_cast<int64_t>(max_attempts)).Bind(4, now);
  (*st)->Bind(5, base_backoff_ms).Bind(6, error);
  return (*st)->Run();
}

Result<std::vector<JobInfo>> JobStore::List(std::string_view status, int limit) {
  auto st = db_.Cached(
      "SELECT j.id, j.kind, j.status, n.name, s.external_id, e.id, j.attempts, coalesce(j.last_error, ''), "
      "j.updated_at FROM jobs j JOIN namespaces n ON n.id = j.namespace_id JOIN sessions s ON s.id = j.session_id "
      "JOIN events e ON e.seq = j.event_seq WHERE (?1 = '' AND j.status <> 'done') OR j.status = ?1 "
      "ORDER BY j.id LIMIT ?2");
  if (!st) return Error(st.error());
  (*st)->Bind(1, status).Bind(2, static_cast<int64_t>(limit));
  std::vector<JobInfo> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **st;
    out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5), static_cast<int>(q.Int(6)),
                   q.Text(7), q.Int(8)});
  }
  return out;
}

Result<int64_t> JobStore::Retry(int64_t id, TimestampMs now) {
  auto st = db_.Cached(
      "UPDATE jobs SET status = 'pending', attempts = 0, available_at = ?2, updated_at = ?2 "
      "WHERE status = 'failed' AND (?1 = 0 OR id = ?1)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id).Bind(2, now);
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return static_cast<int64_t>(sqlite3_changes(db_.handle()));
}

}  // namespace engram::sqlite
