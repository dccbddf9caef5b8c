// capture/capture_delivery.cc — see capture_delivery.h.
#include "capture/capture_delivery.h"

#include <nlohmann/json.hpp>

#include "util/time.h"

namespace engram::capture {
namespace {

bool Permanent(StatusCode code) {
  return code == StatusCode::kInvalidArgument || code == StatusCode::kPermissionDenied ||
         code == StatusCode::kResourceExhausted;
}

}  // namespace

EventInput EventOf(const ToolCallRecord& record, const DeliveryOptions& options) {
  nlohmann::json metadata = {{"capture", ToJson(record)}};
  if (!record.args_ref.empty() || !record.result_ref.empty()) metadata["journal"] = options.journal_path;
  EventInput e;
  // The record's own destination when it has one (F1: a second tap, or a drain, on the same
  // journal delivered another tap's records into its own namespace).
  e.namespace_name = record.namespace_name.empty() ? options.namespace_name : record.namespace_name;
  const std::string& fallback = record.namespace_name.empty() ? options.fallback_session : record.fallback_session;
  e.session_id = SessionOf(record, fallback.empty() ? "mcp-tap-" + record.connection_id : fallback);
  e.role = "tool";
  e.content = DescribeForRecall(record);
  e.occurred_at = FormatTimestamp(record.started_at);
  e.idempotency_key = "mcp-tap:" + record.capture_id;
  e.metadata_json = metadata.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  e.session_source = "mcp-tap";
  e.tool_name = record.tool_name;
  e.tool_call_id = record.capture_id;
  return e;
}

namespace {

// One record at a time: what the group could not store (one invalid event refuses the whole batch).
Result<DeliveryReport> DeliverEach(Engine& engine, CaptureJournal& journal, const DeliveryOptions& options,
                                   const std::vector<JournalEntry>& due) {
  DeliveryReport report;
  for (const JournalEntry& entry : due) {
    auto stored = engine.Ingest(EventOf(entry.record, options));
    if (stored) {
      ENGRAM_RETURN_IF_ERROR(journal.MarkDelivered({{entry.seq, stored->event.id}}, NowMs()));
      ++report.delivered;
      continue;
    }
    const bool permanent = Permanent(stored.error().code());
    ENGRAM_RETURN_IF_ERROR(journal.MarkFailed(entry.seq, stored.error().message(), permanent, NowMs()));
    const bool dead = permanent || entry.attempts + 1 >= kMaxDeliveryAttempts;
    ++(dead ? report.dead : report.retried);
  }
  return report;
}

}  // namespace

Result<DeliveryReport> DeliverDue(Engine& engine, CaptureJournal& journal, const DeliveryOptions& options, int limit) {
  auto due = journal.Due(NowMs(), limit);
  if (!due) return Error(due.error());
  if (due->empty()) return DeliveryReport{};
  std::vector<EventInput> inputs;
  for (const JournalEntry& entry : *due) inputs.push_back(EventOf(entry.record, options));
  // The group in one transaction of engram's and one of the journal's (a kill between the two
  // delivers the group again: the idempotency keys return the events already stored).
  auto stored = engine.IngestBatch(inputs);
  if (!stored) return DeliverEach(engine, journal, options, *due);
  std::vector<std::pair<int64_t, std::string>> acks;
  for (size_t i = 0; i < due->size(); ++i) acks.emplace_back((*due)[i].seq, (*stored)[i].event.id);
  ENGRAM_RETURN_IF_ERROR(journal.MarkDelivered(acks, NowMs()));
  return DeliveryReport{.delivered = static_cast<int64_t>(acks.size())};
}

Result<PruneReport> PruneForgotten(Engine& engine, CaptureJournal& journal) {
  return journal.PruneForgotten([&engine](const std::string& event_id) -> Result<bool> {
    auto event = engine.GetEvent(event_id);
    if (event) return true;
    if (event.error().code() == StatusCode::kNotFound) return false;
    return Error(event.error());
  });
}

}  // namespace engram::capture
