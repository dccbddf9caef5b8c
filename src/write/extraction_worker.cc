#include "write/extraction_worker.h"

#include <fmt/format.h>

#include <random>

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
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  const std::string token = fmt::format("{:016x}", rng());

  // Phase 1: lease a window and read its events and session.
  std::vector<sqlite::LeasedJob> jobs;
  std::vector<Event> batch;
  std::vector<int64_t> seqs;
  SessionInfo session;
  {
    std::lock_guard<std::mutex> lock(db_mutex_);
    Status st = db_.WriteTransaction([&]() -> Status {
      sqlite::LeaseRequest request;
      request.now = NowMs();
      request.max_events = options_.batch_events;
      request.max_wait_ms = options_.batch_wait_ms;
      request.ignore_wait = drain;
      request.lease_ms = options_.lease_ms;
      request.token = token;
      auto leased = jobs_.LeaseBatch(request);
      if (!leased) return leased.error();
      jobs = std::move(*leased);
      return Status::Ok();
    });
    ENGRAM_RETURN_IF_ERROR(st);
    if (jobs.empty()) return Status::Ok();
    *found = true;
    for (const auto& j : jobs) seqs.push_back(j.event_seq);
    auto events = events_.GetBySeqs(seqs);
    if (!events) return events.error();
    batch = std::move(*events);
    auto info = events_.GetSession(jobs.front().session_rowid);
    if (!info) return info.error();
    session = std::move(*info);
  }
  report->batches += 1;
  report->events += static_cast<int64_t>(batch.size());

  // Phase 2: extract, without holding the database (an LLM call may take seconds).
  Result<std::vector<extraction::CandidateClaim>> candidates = std::vector<extraction::CandidateClaim>{};
  if (session.kind != "heartbeat" && session.kind != "subagent") candidates = extractor_.Extract(batch);

  // Phase 3: write claims and complete the jobs in one transaction, or record the failure.
  std::lock_guard<std::mutex> lock(db_mutex_);
  const TimestampMs now = NowMs();
  if (!candidates) {
    std::string error = fmt::format("{}: {}", extractor_.Name(), candidates.error().ToString());
    report->jobs_failed += static_cast<int64_t>(jobs.size());
    report->errors.push_back(error);
    return db_.WriteTransaction([&] {
      return jobs_.Fail(jobs, token, now, error, options_.max_attempts, options_.backoff_ms);
    });
  }
  ProcessReport delta;
  Status st = db_.WriteTransaction([&]() -> Status {
    delta = ProcessReport{};
    auto held = jobs_.StillLeased(jobs, token);
    if (!held) return held.error();
    if (!*held) return Status::Busy("lease lost: another worker took these jobs over");
    const int64_t ns = jobs.front().namespace_id;
    if (session.kind == "heartbeat" || session.kind == "subagent") {
      for (int64_t seq : seqs) {
        ENGRAM_RETURN_IF_ERROR(claims_.AddDecision(ns, seq, std::nullopt, now, "rejected", kReasonSessionKind,
                                                   session.kind + " session: events kept, no claims", "{}"));
      }
    }
    for (const extraction::CandidateClaim& c : *candidates) {
      AdmissionDecision admission = Admit(c, batch, session.kind);
      if (!admission.admitted) {
        std::optional<int64_t> event_seq;
        if (!c.source_events.empty() && c.source_events.front() < seqs.size()) {
          event_seq = seqs[c.source_events.front()];
        }
        ENGRAM_RETURN_IF_ERROR(claims_.AddDecision(ns, event_seq, std::nullopt, now, "rejected",
                                                   admission.reason, admission.detail, CandidateJson(c)));
        delta.candidates_rejected += 1;
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
      auto outcome = WriteClaim(claims_, registry_, in);
      if (!outcome) return outcome.error();
      if (outcome->decision == kDecisionDuplicate || outcome->decision == kDecisionMerged) {
        delta.claims_confirmed += 1;
      } else {
        delta.claims_created += 1;
      }
      if (outcome->decision == kDecisionDisputed) delta.claims_disputed += 1;
      delta.claims_superseded += outcome->superseded;
    }
    return jobs_.Complete(jobs, token, now);
  });
  if (!st.ok()) {
    // A lost lease or a store error: nothing of this batch was written; report it, don't fake success.
    report->errors.push_back(st.ToString());
    report->jobs_failed += static_cast<int64_t>(jobs.size());
    if (st.code() == StatusCode::kBusy) return Status::Ok();
    return st;
  }
  report->claims_created += delta.claims_created;
  report->claims_confirmed += delta.claims_confirmed;
  report->claims_superseded += delta.claims_superseded;
  report->claims_disputed += delta.claims_disputed;
  report->candidates_rejected += delta.candidates_rejected;
  return Status::Ok();
}

}  // namespace engram
