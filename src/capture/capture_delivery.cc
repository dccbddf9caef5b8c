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
  e.namespace_name = options.namespace_name;
  e.session_id = SessionOf(record, options.fallback_session.empty() ? "mcp-tap-" + record.connection_id
                                                                    : options.fallback_session);
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

Result<DeliveryReport> DeliverDue(Engine& engine, CaptureJournal& journal, const DeliveryOptions& options, int limit) {
  DeliveryReport report;
  auto due = journal.Due(NowMs(), limit);
  if (!due) return Error(due.error());
  for (const JournalEntry& entry : *due) {
    auto stored = engine.Ingest(EventOf(entry.record, options));
    if (stored) {
      ENGRAM_RETURN_IF_ERROR(journal.MarkDelivered(entry.seq, stored->event.id, NowMs()));
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

}  // namespace engram::capture
