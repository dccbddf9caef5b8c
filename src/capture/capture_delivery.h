// capture/capture_delivery.h — the journal's consumer: each due record becomes one engram event
// (role "tool"), written with the idempotency key "mcp-tap:<capture id>" so that a record delivered
// twice (the consumer was killed between the event's commit and the journal's acknowledgement) is
// stored once. docs/capture.md.
#ifndef ENGRAM_CAPTURE_CAPTURE_DELIVERY_H_
#define ENGRAM_CAPTURE_CAPTURE_DELIVERY_H_

#include <cstdint>
#include <string>

#include "capture/capture_journal.h"
#include "engram/engine.h"

namespace engram::capture {

struct DeliveryOptions {
  std::string namespace_name;    // required
  // The session of a record whose request carried no engram.session_id baggage and no traceparent
  // (the tap's --session); "" = "mcp-tap-<the record's connection id>".
  std::string fallback_session;
  std::string journal_path;      // named in the event's metadata when a payload is there by reference
};

struct DeliveryReport {
  int64_t delivered = 0;  // events written (or found written before: idempotent replays)
  int64_t retried = 0;    // failed, to be tried again later
  int64_t dead = 0;       // refused by engram as invalid, or out of attempts: dead letters
};

// The event a record becomes: content = DescribeForRecall, tool_name, tool_call_id = capture id,
// occurred_at = when the request passed the tap, metadata {"capture": the record, "journal": path
// when a payload is by reference}, the session from SessionOf.
EventInput EventOf(const ToolCallRecord& record, const DeliveryOptions& options);

// Delivers up to `limit` due records, oldest first. An error of engram that another try cannot fix
// (kInvalidArgument, kPermissionDenied, kResourceExhausted for a too-large event) makes the record
// a dead letter at once; others (busy, I/O, ...) are retried with backoff. Errors: only the
// journal's own (the records stay pending).
Result<DeliveryReport> DeliverDue(Engine& engine, CaptureJournal& journal, const DeliveryOptions& options, int limit);

// CaptureJournal::PruneForgotten against `engine`: a call's event is gone when GetEvent says
// kNotFound (forgotten, or never there). Errors: the journal's; the engine's other errors.
Result<PruneReport> PruneForgotten(Engine& engine, CaptureJournal& journal);

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_CAPTURE_DELIVERY_H_
