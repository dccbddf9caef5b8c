#include "write/extraction_worker.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>

#include "store/sqlite/busy_wait.h"
#include "util/time.h"
#include "write/admission.h"
#include "write/claim_writer.h"
#include "write/kin_slot.h"

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
  drain_horizon_ = 0;
  if (drain) {
    std::lock_guard<std::mutex> lock(db_mutex_);
    auto last = jobs_.LastId();
    if (!last) return Error(last.error());
    // Nothing enqueued yet: -1 matches no job (0 would mean "any").
    drain_horizon_ = *last > 0 ? *last : -1;
  }
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
  LeaseClock clock{fmt::format("{:08x}{:08x}", random(), random()), NowMs()};

  // Several windows share the transaction of phase 1 and, as far as max_transaction_ms allows,
  // those of phase 3, so that the fsyncs of a durable commit are paid once per group.
  std::vector<Window> windows;
  ENGRAM_RETURN_IF_ERROR(LeaseWindows(drain, clock.token, &windows));
  if (windows.empty()) return Status::Ok();
  *found = true;

  // Phase 2: extract, without holding the database (an LLM call may take seconds).
  ExtractWindows(&clock, &windows, report);

  // Phase 3: each window's claims and the completion of its jobs — or its failure — are written
  // together, in short transactions that each first check the window's lease is still held. The
  // write lock is given up between two of them: a waiting writer takes it there.
  std::set<int64_t> held_back;
  for (size_t next = 0; next < windows.size();) {
    if (next > 0) sqlite::YieldWriteLock();
    const size_t from = next;
    Status st = CommitSome(&clock, windows, &next, &held_back, report);
    if (!st.ok()) {
      FailWindows(clock.token, windows, from, st, report);
      if (st.code() == StatusCode::kBusy) return Status::Ok();
      return st;
    }
  }
  return Status::Ok();
}

void ExtractionWorker::FailWindows(const std::string& token, const std::vector<Window>& windows, size_t from,
                                   const Status& error, ProcessReport* report) {
  // A store error: nothing of these windows was written. Report it, never a false success, and
  // record it on the jobs (backoff, then `failed` after max_attempts) so that one bad window
  // cannot keep the queue leased and retried forever. If even that fails, the leases expire.
  report->errors.push_back(error.ToString());
  for (size_t i = from; i < windows.size(); ++i) report->jobs_failed += static_cast<int64_t>(windows[i].jobs.size());
  std::lock_guard<std::mutex> lock(db_mutex_);
  const TimestampMs now = NowMs();
  db_.WriteTransaction([&]() -> Status {
    for (size_t i = from; i < windows.size(); ++i) {
      ENGRAM_RETURN_IF_ERROR(jobs_.Fail(windows[i].jobs, token, now, error.ToString(), options_.max_attempts,
                                        options_.backoff_ms));
    }
    return Status::Ok();
  });
}

Status ExtractionWorker::CommitSome(LeaseClock* clock, const std::vector<Window>& windows, size_t* next,
                                    std::set<int64_t>* held_back, ProcessReport* report) {
  std::lock_guard<std::mutex> lock(db_mutex_);
  const TimestampMs now = NowMs();
  ProcessReport delta;
  std::vector<std::string> errors;
  std::set<int64_t> held;
  LeaseClock renewed;
  size_t end = *next;
  // The body may run again (a busy commit is retried): it starts from the caller's state each time.
  Status st = db_.WriteTransaction([&]() -> Status {
    delta = ProcessReport{};
    errors.clear();
    held = *held_back;
    renewed = *clock;
    end = *next;
    const auto opened = std::chrono::steady_clock::now();
    const auto budget = std::chrono::milliseconds(options_.max_transaction_ms);
    ENGRAM_RETURN_IF_ERROR(RenewIfDue(&renewed, now));
    do {
      ENGRAM_RETURN_IF_ERROR(CommitWindow(renewed.token, now, windows[end], &held, &delta, &errors));
      ++end;
    } while (end < windows.size() && std::chrono::steady_clock::now() - opened < budget);
    return Status::Ok();
  });
  ENGRAM_RETURN_IF_ERROR(st);
  *next = end;
  *held_back = std::move(held);
  *clock = renewed;
  report->claims_created += delta.claims_created;
  report->claims_confirmed += delta.claims_confirmed;
  report->claims_superseded += delta.claims_superseded;
  report->claims_disputed += delta.claims_disputed;
  report->candidates_rejected += delta.candidates_rejected;
  report->jobs_failed += delta.jobs_failed;
  report->errors.insert(report->errors.end(), errors.begin(), errors.end());
  return Status::Ok();
}

Status ExtractionWorker::RenewIfDue(LeaseClock* clock, TimestampMs now) {
  if (now - clock->renewed_at < options_.lease_ms / 2) return Status::Ok();
  ENGRAM_RETURN_IF_ERROR(jobs_.Renew(clock->token, now, options_.lease_ms));
  clock->renewed_at = now;
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
    request.max_job_id = drain_horizon_;
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

void ExtractionWorker::ExtractWindows(LeaseClock* clock, std::vector<Window>* windows, ProcessReport* report) {
  for (Window& w : *windows) {
    if (NowMs() - clock->renewed_at >= options_.lease_ms / 2) {
      // A heartbeat: best effort (a renewal lost to contention is retried before the next window;
      // the lease is checked again before anything is written).
      std::lock_guard<std::mutex> lock(db_mutex_);
      LeaseClock renewed = *clock;
      Status st = db_.WriteTransaction([&] {
        renewed = *clock;
        return RenewIfDue(&renewed, NowMs());
      });
      if (st.ok()) *clock = renewed;
    }
    report->batches += 1;
    report->events += static_cast<int64_t>(w.events.size());
    if (w.session.kind != "heartbeat" && w.session.kind != "subagent") {
      w.candidates = extractor_.Extract(w.events);
      if (w.candidates) {
        for (const extraction::CandidateClaim& c : *w.candidates) w.admissions.push_back(Admit(c, w.events, w.session.kind));
      }
    }
  }
}

Status ExtractionWorker::CommitWindow(const std::string& token, TimestampMs now, const Window& w,
                                      std::set<int64_t>* held_back, ProcessReport* delta,
                                      std::vector<std::string>* errors) {
  const int64_t session = w.jobs.front().session_rowid;
  if (held_back->count(session) != 0) return jobs_.Release(w.jobs, token, now);
  auto held = jobs_.StillLeased(w.jobs, token);
  if (!held) return held.error();
  if (!*held) {
    // Another worker took this window over after our lease expired: write nothing of it.
    errors->push_back("lease lost: another worker took these jobs over");
    delta->jobs_failed += static_cast<int64_t>(w.jobs.size());
    held_back->insert(session);
    return Status::Ok();
  }
  if (!w.candidates) {
    std::string error = fmt::format("{}: {}", extractor_.Name(), w.candidates.error().ToString());
    errors->push_back(error);
    delta->jobs_failed += static_cast<int64_t>(w.jobs.size());
    held_back->insert(session);
    return jobs_.Fail(w.jobs, token, now, error, options_.max_attempts, options_.backoff_ms);
  }
  ENGRAM_RETURN_IF_ERROR(WriteWindow(w.jobs.front().namespace_id, w.events, w.seqs, w.session, *w.candidates,
                                     w.admissions, now, delta));
  return jobs_.Complete(w.jobs, token, now);
}

Status ExtractionWorker::WriteWindow(int64_t ns, const std::vector<Event>& batch, const std::vector<int64_t>& seqs,
                                     const SessionInfo& session,
                                     const std::vector<extraction::CandidateClaim>& candidates,
                                     const std::vector<AdmissionDecision>& admissions, TimestampMs now,
                                     ProcessReport* delta) {
  const bool no_claims = session.kind == "heartbeat" || session.kind == "subagent";
  if (no_claims) {
    for (int64_t seq : seqs) {
      ENGRAM_RETURN_IF_ERROR(claims_.AddDecision(ns, seq, std::nullopt, now, "rejected", kReasonSessionKind,
                                                 session.kind + " session: events kept, no claims", "{}"));
    }
  }
  // Each turn's candidates, then what it says in older claims' slots (write/kin_slot.h), which
  // reads the claims its candidates wrote.
  for (size_t k = 0; k < batch.size(); ++k) {
    for (size_t i = 0; i < candidates.size(); ++i) {
      const std::vector<size_t>& from = candidates[i].source_events;
      if (std::min(from.empty() ? 0 : from.front(), batch.size() - 1) != k) continue;
      ENGRAM_RETURN_IF_ERROR(WriteCandidate(ns, batch, seqs, candidates[i], admissions[i], now, delta));
    }
    if (no_claims || options_.kin == nullptr || batch[k].role != "user") continue;
    const Event& e = batch[k];
    const KinSlotTurn turn{e.content, e.speaker.empty() ? e.role : e.speaker, e.occurred_at, k, ReadValues(candidates, k)};
    auto kin_slots = KinSlotCandidates(claims_, ns, turn, *options_.kin);
    if (!kin_slots) return kin_slots.error();
    for (const extraction::CandidateClaim& c : *kin_slots) {
      ENGRAM_RETURN_IF_ERROR(WriteCandidate(ns, batch, seqs, c, Admit(ScreenContent(c, batch), session.kind), now, delta));
    }
  }
  return Status::Ok();
}

Status ExtractionWorker::WriteCandidate(int64_t ns, const std::vector<Event>& batch, const std::vector<int64_t>& seqs,
                                        const extraction::CandidateClaim& c, const AdmissionDecision& admission,
                                        TimestampMs now, ProcessReport* delta) {
  if (!admission.admitted) {
    std::optional<int64_t> event_seq;
    if (!c.source_events.empty() && c.source_events.front() < seqs.size()) event_seq = seqs[c.source_events.front()];
    ENGRAM_RETURN_IF_ERROR(claims_.AddDecision(ns, event_seq, std::nullopt, now, "rejected", admission.reason,
                                               admission.detail, CandidateJson(c)));
    delta->candidates_rejected += 1;
    return Status::Ok();
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
  in.kin = options_.kin;
  auto outcome = WriteClaim(claims_, tombstones_, registry_, in);
  if (!outcome) return outcome.error();
  if (outcome->decision == kDecisionForgotten || outcome->decision == kDecisionChangesNothing) {
    delta->candidates_rejected += 1;
    return Status::Ok();
  }
  if (outcome->decision == kDecisionDuplicate || outcome->decision == kDecisionMerged) {
    delta->claims_confirmed += 1;
  } else {
    delta->claims_created += 1;
  }
  if (outcome->decision == kDecisionDisputed) delta->claims_disputed += 1;
  delta->claims_superseded += outcome->superseded;
  return Status::Ok();
}

}  // namespace engram
