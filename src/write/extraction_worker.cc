#include "write/extraction_worker.h"

#include <fmt/format.h>

#include <random>
#include <set>

#include "util/time.h"
#include "write/admission.h"
#include "write/claim_writer.h"

namespace engram {

ExtractionWorker::ExtractionWorker(sqlite::Database& db, std::mutex& db_mutex,
                                   extraction::Extractor& extractor, const PredicateRegistry& registry,
                                   ExtractionWorkerOptions options)
    : db_(db),
      db_mutex_(db_mutex),
      events_(db),
      claims_(db),
      jobs_(db),
      tombstones_(db),
      extractor_(extractor),
      registry_(registry),
      options_(options) {}

Result<ProcessReport> ExtractionWorker::Run(bool drain, int64_t max_batches) {
  ProcessReport report;
  for (int64_t n = 0; max_batches == 0 || n < max_batches; ++n) {
    bool found = false;
    ENGRAM_RETURN_IF_ERROR(ProcessBatch(drain, &found, &report));
    if (!found) break;
  }
  return report;
}

Status ExtractionWorker::ProcessBatch(bool drain, bool* found, ProcessReport* report) {
  // Drawn from the OS for each batch: a seeded generator would hand a forked child and its parent
  // the same tokens, and each would take the other's lease for its own.
  std::random_device random;
  const std::string token = fmt::format("{:08x}{:08x}", random(), random());

  // Several windows share the transactions of phases 1 and 3, so the fsyncs of a durable commit
  // are paid once per group, not once per window.
  std::vector<Window> windows;
  const TimestampMs leased_at = NowMs();
  ENGRAM_RETURN_IF_ERROR(LeaseWindows(drain, token, &windows));
  if (windows.empty()) return Status::Ok();
  *found = true;

  // Phase 2: extract, without holding the database (an LLM call may take seconds).
  ExtractWindows(token, leased_at, &windows, report);

  // Phase 3: for each window, write its claims and complete its jobs — or record its failure — in
  // one transaction that first checks every lease is still held.
  std::lock_guard<std::mutex> lock(db_mutex_);
  const TimestampMs now = NowMs();
  ProcessReport delta;
  std::vector<std::string> errors;
  Status st = db_.WriteTransaction([&]() -> Status {
    delta = ProcessReport{};
    errors.clear();
    return CommitWindows(token, now, windows, &delta, &errors);
  });
  if (!st.ok()) {
    // A store error: nothing of these windows was written. Report it, never a false success, and
    // record it on the jobs (backoff, then `failed` after max_attempts) so that one bad window
    // cannot keep the queue leased and retried forever. If even that fails, the leases expire.
    report->errors.push_back(st.ToString());
    for (const Window& w : windows) report->jobs_failed += static_cast<int64_t>(w.jobs.size());
    db_.WriteTransaction([&]() -> Status {
      for (const Window& w : windows) {
        ENGRAM_RETURN_IF_ERROR(jobs_.Fail(w.jobs, token, now, st.ToString(), options_.max_attempts, options_.backoff_ms));
      }
      return Status::Ok();
    });
    if (st.code() == StatusCode::kBusy) return Status::Ok();
    return st;
  }
  report->claims_created += delta.claims_created;
  report->claims_confirmed += delta.claims_confirmed;
  report->claims_superseded += delta.claims_superseded;
  report->claims_disputed += delta.claims_disputed;
  report->candidates_rejected += delta.candidates_rejected;
  report->jobs_failed += delta.jobs_failed;
  report->errors.insert(report->errors.end(), errors.begin(), errors.end());
  return Status::Ok();
}

Status ExtractionWorker::LeaseWindows(bool drain, const std::string& token,
                                      std::vector<Window>* windows) {
  std::lock_guard<std::mutex> lock(db_mutex_);
  Status st = db_.WriteTransaction([&]() -> Status {
    windows->clear();
    sqlite::LeaseRequest request;
    request.now = NowMs();
    request.max_events = options_.batch_events;
    request.max_wait_ms = options_.batch_wait_ms;
    request.ignore_wait = drain;
    request.lease_ms = options_.lease_ms;
    request.token = token;
    for (size_t w = 0; w < options_.windows_per_transaction; ++w) {
      auto leased = jobs_.LeaseBatch(request);
      if (!leased) return leased.error();
      if (leased->empty()) break;
      Window window;
      window.jobs = std::move(*leased);
      windows->push_back(std::move(window));
    }
    return Status::Ok();
  });
  ENGRAM_RETURN_IF_ERROR(st);
  for (Window& w : *windows) {
    for (const auto& j : w.jobs) w.seqs.push_back(j.event_seq);
    auto events = events_.GetBySeqs(w.seqs);
    if (!events) return events.error();
    w.events = std::move(*events);
    auto info = events_.GetSession(w.jobs.front().session_rowid);
    if (!info) return info.error();
    w.session = std::move(*info);
  }
  return Status::Ok();
}

void ExtractionWorker::ExtractWindows(const std::string& token, TimestampMs leased_at,
                                      std::vector<Window>* windows, ProcessReport* report) {
  TimestampMs renewed_at = leased_at;
  for (Window& w : *windows) {
    if (NowMs() - renewed_at >= options_.lease_ms / 2) {
      // A heartbeat: best effort (a renewal lost to contention is retried before the next window;
      // the lease is checked again before anything is written).
      std::lock_guard<std::mutex> lock(db_mutex_);
      const TimestampMs now = NowMs();
      Status renewed = db_.WriteTransaction([&] { return jobs_.Renew(token, now, options_.lease_ms); });
      if (renewed.ok()) renewed_at = now;
    }
    report->batches += 1;
    report->events += static_cast<int64_t>(w.events.size());
    if (w.session.kind != "heartbeat" && w.session.kind != "subagent") {
      w.candidates = extractor_.Extract(w.events);
    }
  }
}

Status ExtractionWorker::CommitWindows(const std::string& token, TimestampMs now,
                                       const std::vector<Window>& windows, ProcessReport* delta,
                                       std::vector<std::string>* errors) {
  std::set<int64_t> held_back;  // sessions with a window not written: their later windows wait
  for (const Window& w : windows) {
    const int64_t session = w.jobs.front().session_rowid;
    if (held_back.count(session) != 0) {
      ENGRAM_RETURN_IF_ERROR(jobs_.Release(w.jobs, token, now));
      continue;
    }
    auto held = jobs_.StillLeased(w.jobs, token);
    if (!held) return held.error();
    if (!*held) {
      // Another worker took this window over after our lease expired: write nothing of it.
      errors->push_back("lease lost: another worker took these jobs over");
      delta->jobs_failed += static_cast<int64_t>(w.jobs.size());
      held_back.insert(session);
      continue;
    }
    if (!w.candidates) {
      std::string error = fmt::format("{}: {}", extractor_.Name(), w.candidates.error().ToString());
      errors->push_back(error);
      delta->jobs_failed += static_cast<int64_t>(w.jobs.size());
      ENGRAM_RETURN_IF_ERROR(
          jobs_.Fail(w.jobs, token, now, error, options_.max_attempts, options_.backoff_ms));
      held_back.insert(session);
      continue;
    }
    ENGRAM_RETURN_IF_ERROR(WriteWindow(w.jobs.front().namespace_id, w.events, w.seqs, w.session,
                                       *w.candidates, now, delta));
    ENGRAM_RETURN_IF_ERROR(jobs_.Complete(w.jobs, token, now));
  }
  return Status::Ok();
}

Status ExtractionWorker::WriteWindow(int64_t ns, const std::vector<Event>& batch, const std::vector<int64_t>& seqs,
                                     const SessionInfo& session,
                                     const std::vector<extraction::CandidateClaim>& candidates, TimestampMs now,
                                     ProcessReport* delta) {
  if (session.kind == "heartbeat" || session.kind == "subagent") {
    for (int64_t seq : seqs) {
      ENGRAM_RETURN_IF_ERROR(claims_.AddDecision(ns, seq, std::nullopt, now, "rejected", kReasonSessionKind,
                                                 session.kind + " session: events kept, no claims", "{}"));
    }
  }
  for (const extraction::CandidateClaim& c : candidates) {
    AdmissionDecision admission = Admit(c, batch, session.kind);
    if (!admission.admitted) {
      std::optional<int64_t> event_seq;
      if (!c.source_events.empty() && c.source_events.front() < seqs.size()) event_seq = seqs[c.source_events.front()];
      ENGRAM_RETURN_IF_ERROR(claims_.AddDecision(ns, event_seq, std::nullopt, now, "rejected", admission.reason,
                                                 admission.detail, CandidateJson(c)));
      delta->candidates_rejected += 1;
      continue;
    }
    ClaimWriteInput in;
    in.namespace_id = ns;
    in.namespace_name = batch.front().namespace_name;
    in.candidate = &c;
    in.admission = admission;
    for (size_t index : c.source_events) in.source_event_seqs.push_back(seqs[index]);
    in.source_time = batch[c.source_events.front()].occurred_at;
    in.extractor = extractor_.Name();
    in.actor = "worker:" + extractor_.Name();
    in.now = now;
    auto outcome = WriteClaim(claims_, tombstones_, registry_, in);
    if (!outcome) return outcome.error();
    if (outcome->decision == kDecisionForgotten) {
      delta->candidates_rejected += 1;
      continue;
    }
    if (outcome->decision == kDecisionDuplicate || outcome->decision == kDecisionMerged) {
      delta->claims_confirmed += 1;
    } else {
      delta->claims_created += 1;
    }
    if (outcome->decision == kDecisionDisputed) delta->claims_disputed += 1;
    delta->claims_superseded += outcome->superseded;
  }
  return Status::Ok();
}

}  // namespace engram
