// capture/tap_pipeline.cc — see tap_pipeline.h.
#include "capture/tap_pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "util/time.h"

namespace engram::capture {
namespace {

using Clock = CallMatcher::Clock;

// Messages held for the recorder at most (bytes): beyond it the producers wait for the recorder
// (back-pressure, never a lost record).
constexpr size_t kMaxQueuedBytes = size_t{256} << 20;
constexpr int kDeliveryBatch = 100;
// After a delivery the consumer lets records gather this long (unless the traffic has ended): each
// delivery is a write transaction on the journal, and a recorder's commit that comes meanwhile
// waits for it, holding a response back (bench/RESULTS.md, T-1 over HTTP: added p50 4.2 → 1.8 ms).
constexpr auto kDeliveryPause = std::chrono::milliseconds(25);

}  // namespace

Result<std::unique_ptr<TapPipeline>> TapPipeline::Start(const TapOptions& options) {
  std::unique_ptr<TapPipeline> p(new TapPipeline(options));
  if (p->options_.delivery.journal_path.empty()) p->options_.delivery.journal_path = options.journal_path;
  auto recorder_journal = CaptureJournal::Open(options.journal_path);
  if (!recorder_journal) return Error(recorder_journal.error());
  auto consumer_journal = CaptureJournal::Open(options.journal_path);
  if (!consumer_journal) return Error(consumer_journal.error());
  p->recorder_journal_ = std::move(*recorder_journal);
  p->consumer_journal_ = std::move(*consumer_journal);
  p->recorder_ = std::thread([raw = p.get()] { raw->Record(); });
  if (p->options_.open_engine) p->consumer_ = std::thread([raw = p.get()] { raw->Consume(); });
  return p;
}

TapPipeline::~TapPipeline() {
  if (!finished_) Finish();
}

uint64_t TapPipeline::Submit(SeenMessage&& message) {
  std::unique_lock lock(queue_mu_);
  room_.wait(lock, [&] { return queued_bytes_ < kMaxQueuedBytes; });
  queued_bytes_ += message.bytes.size();
  queue_.push_back(std::move(message));
  ready_.notify_one();
  return ++tickets_;
}

void TapPipeline::WaitRecorded(uint64_t ticket) {
  std::unique_lock lock(queue_mu_);
  advanced_.wait(lock, [&] { return recorded_through_ >= ticket; });
}

void TapPipeline::CountNotCaptured(int64_t n) {
  std::lock_guard lock(queue_mu_);
  not_captured_ += n;
}

void TapPipeline::Advance(uint64_t ticket) {
  std::lock_guard lock(queue_mu_);
  recorded_through_ = std::max(recorded_through_, ticket);
  advanced_.notify_all();
}

// Every message queued, once there is at least one (waits for it); false when the pipeline is
// closed and nothing is left.
bool TapPipeline::PopAll(std::deque<SeenMessage>* out) {
  std::unique_lock lock(queue_mu_);
  ready_.wait(lock, [&] { return !queue_.empty() || closed_; });
  if (queue_.empty()) return false;
  out->swap(queue_);
  queue_.clear();
  queued_bytes_ = 0;
  room_.notify_all();
  return true;
}

void TapPipeline::Note(const std::string& message) {
  std::lock_guard lock(mu_);
  std::cerr << "engram mcp-tap: " << message << std::endl;
}

// Each record keeps where this tap delivers it (ToolCallRecord::namespace_name).
void TapPipeline::Address(std::vector<ToolCallRecord>* records) const {
  for (ToolCallRecord& r : *records) {
    r.namespace_name = options_.delivery.namespace_name;
    r.fallback_session = options_.delivery.fallback_session;
  }
}

// Group commit: every record the recorder completed since its last commit, in one transaction. When
// the journal refuses the group, each record is tried alone, so one bad record costs only itself.
void TapPipeline::Commit(const std::vector<ToolCallRecord>& records) {
  if (records.empty()) return;
  if (recorder_journal_->AppendAll(records, options_.payloads).ok()) {
    report_.captured += static_cast<int64_t>(records.size());
  } else {
    for (const ToolCallRecord& record : records) {
      const Status st = recorder_journal_->Append(record, options_.payloads);
      if (st.ok()) {
        ++report_.captured;
        continue;
      }
      ++report_.journal_errors;
      Note(fmt::format("the journal refused the record of {} ({}): {}", record.tool_name, record.capture_id,
                       st.message()));
    }
  }
  committed_.notify_all();
}

void TapPipeline::RecordOne(SeenMessage& seen, std::vector<ToolCallRecord>* done) {
  auto it = matchers_.find(seen.exchange);
  if (seen.end) {
    if (it == matchers_.end()) return;
    for (ToolCallRecord& r : it->second.Close()) done->push_back(std::move(r));
    malformed_ += it->second.malformed();
    matchers_.erase(it);
    return;
  }
  const nlohmann::json message = nlohmann::json::parse(seen.bytes, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    // Only a client's message can be a lost call; a server may send anything (it should not).
    unparsable_ += seen.direction == Direction::kClientToServer && seen.bytes.find("tools/call") != std::string::npos;
    return;
  }
  if (it == matchers_.end()) it = matchers_.emplace(seen.exchange, CallMatcher(seen.connection)).first;
  for (ToolCallRecord& r : it->second.Observe(seen.direction, message, seen.seen, seen.seen_unix_ms)) {
    done->push_back(std::move(r));
  }
  if (seen.direction == Direction::kClientToServer) ShareCancellations(seen, message, done);
}

// A client cancels a call in a message of its own — in streamable HTTP, a POST apart from the
// call's — so a cancellation also reaches the other open exchanges of the same connection (an MCP
// session; an exchange that is its own connection has none).
void TapPipeline::ShareCancellations(const SeenMessage& seen, const nlohmann::json& message,
                                     std::vector<ToolCallRecord>* done) {
  for (const nlohmann::json& one : message.is_array() ? message : nlohmann::json::array({message})) {
    if (!one.is_object()) continue;
    const auto method = one.find("method");
    if (method == one.end() || *method != "notifications/cancelled") continue;
    for (auto& [exchange, matcher] : matchers_) {
      if (exchange == seen.exchange || matcher.connection_id() != seen.connection) continue;
      for (ToolCallRecord& r : matcher.Observe(Direction::kClientToServer, one, seen.seen, seen.seen_unix_ms)) {
        done->push_back(std::move(r));
      }
    }
  }
}

void TapPipeline::Record() {
  std::deque<SeenMessage> batch;
  uint64_t through = 0;
  while (PopAll(&batch)) {
    std::vector<ToolCallRecord> done;
    for (SeenMessage& seen : batch) RecordOne(seen, &done);
    Address(&done);
    through += batch.size();  // tickets follow the queue's order
    batch.clear();
    Commit(done);
    Advance(through);
  }
  std::vector<ToolCallRecord> rest;
  for (auto& [exchange, matcher] : matchers_) {
    for (ToolCallRecord& r : matcher.Close()) rest.push_back(std::move(r));
    malformed_ += matcher.malformed();
  }
  matchers_.clear();
  Address(&rest);
  Commit(rest);
  Advance(UINT64_MAX);
  std::lock_guard lock(mu_);
  report_.not_captured += malformed_ + unparsable_;
  recording_done_ = true;
  flush_deadline_ = Clock::now() + std::chrono::milliseconds(options_.flush_ms);
  committed_.notify_all();
}

void TapPipeline::Consume() {
  auto engine = options_.open_engine();
  if (!engine) {
    report_.engine_error = engine.error().message();
    Note(fmt::format("records stay in the journal ({}): cannot open engram: {}", options_.journal_path,
                     engine.error().message()));
    return;
  }
  if (auto pruned = PruneForgotten(**engine, *consumer_journal_); !pruned) {
    Note(fmt::format("cannot prune the payloads of forgotten calls: {}", pruned.error().message()));
  }
  while (true) {
    auto delivered = DeliverDue(**engine, *consumer_journal_, options_.delivery, kDeliveryBatch);
    if (!delivered) {
      Note(fmt::format("delivery stopped: {}", delivered.error().message()));
      return;
    }
    report_.delivery.delivered += delivered->delivered;
    report_.delivery.retried += delivered->retried;
    report_.delivery.dead += delivered->dead;
    auto next = consumer_journal_->NextDue();
    std::unique_lock lock(mu_);
    if (recording_done_ && Clock::now() >= flush_deadline_) return;  // the rest: `engram mcp-tap drain`
    if (delivered->delivered + delivered->retried + delivered->dead > 0) {
      committed_.wait_for(lock, kDeliveryPause, [&] { return recording_done_; });
      continue;
    }
    if (recording_done_ && (!next || *next == 0 || Clock::now() >= flush_deadline_)) return;
    const TimestampMs wait_ms = next && *next > 0 ? std::clamp<TimestampMs>(*next - NowMs(), 1, 500) : 500;
    const auto until = Clock::now() + std::chrono::milliseconds(wait_ms);
    committed_.wait_until(lock, recording_done_ ? std::min(until, flush_deadline_) : until);
  }
}

TapReport TapPipeline::Finish() {
  finished_ = true;
  {
    std::lock_guard lock(queue_mu_);
    closed_ = true;
    ready_.notify_all();
  }
  if (recorder_.joinable()) recorder_.join();
  if (consumer_.joinable()) consumer_.join();
  std::lock_guard lock(queue_mu_);
  report_.not_captured += not_captured_;
  not_captured_ = 0;
  return report_;
}

}  // namespace engram::capture
