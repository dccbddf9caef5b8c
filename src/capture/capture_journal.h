// capture/capture_journal.h — the tap's durable journal: every captured tool call is committed here
// (SQLite, WAL, synchronous=FULL) before anything else happens to it, then delivered to engram by a
// consumer that acknowledges each record, retries with backoff and moves a record that keeps
// failing (or that engram refuses as invalid) to a dead letter state, kept with its last error.
// Payloads above the tap's threshold are stored once by content hash (SHA-256) and referenced from
// the record ("sha256:<hex>"). Design: ../shared/reference/experience_memory.md §3 (a SQLite WAL
// table with ack, retry and a dead-letter state, in place of the design's Redis Streams).
//
// One CaptureJournal is one connection: not thread-safe. The tap opens one for its recorder and one
// for its consumer; several processes may share a journal file (SQLite's locking).
#ifndef ENGRAM_CAPTURE_CAPTURE_JOURNAL_H_
#define ENGRAM_CAPTURE_CAPTURE_JOURNAL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "capture/call_matcher.h"
#include "engram/status.h"

namespace engram::sqlite {
class Database;
}

namespace engram::capture {

// Delivery attempts before a record that keeps failing is dead (backoff 0.25 s × 2^attempt, ≤ 60 s:
// the last try is about 2 minutes after the first).
inline constexpr int kMaxDeliveryAttempts = 10;

// What the journal keeps of a call's payloads (the tap's --payloads and --inline-bytes).
struct PayloadPolicy {
  bool keep = true;
  size_t inline_bytes = 4096;
};

struct JournalEntry {
  int64_t seq = 0;
  ToolCallRecord record;
  int attempts = 0;
};

struct JournalCounts {
  int64_t pending = 0;
  int64_t delivered = 0;
  int64_t dead = 0;
  int64_t payloads = 0;
  int64_t payload_bytes = 0;
};

struct PruneReport {
  int64_t forgotten_calls = 0;   // delivered calls whose event is gone and that held payloads
  int64_t payloads_deleted = 0;  // payloads no remaining call references
};

struct DeadLetter {
  int64_t seq = 0;
  std::string capture_id;
  std::string tool_name;
  int attempts = 0;
  std::string last_error;
};

class CaptureJournal {
 public:
  // Opens (creating when missing; the folder must exist) the journal at `path`. Errors: kNotFound
  // (no folder), kIOError, kCorruption (a file that is not a journal or not SQLite).
  static Result<std::unique_ptr<CaptureJournal>> Open(const std::string& path);
  ~CaptureJournal();

  // Commits `call` (with whole payloads, as CallMatcher gives it) as a pending record. Its arguments and result (compact JSON) are kept whole in
  // the record up to policy.inline_bytes each, by reference above it, or not at all when
  // !policy.keep (the summary, hash and metadata only). A capture id already journaled is a no-op.
  // Returns once the commit is on disk.
  Status Append(const ToolCallRecord& call, const PayloadPolicy& policy);
  // Append of several records in one transaction (one fsync: the recorder's group commit). All or
  // none are committed.
  Status AppendAll(const std::vector<ToolCallRecord>& calls, const PayloadPolicy& policy);

  // Up to `limit` pending records due at `now_ms`, oldest first.
  Result<std::vector<JournalEntry>> Due(TimestampMs now_ms, int limit);
  // The records were delivered: (seq, engram's event id) each, acknowledged in one transaction.
  Status MarkDelivered(const std::vector<std::pair<int64_t, std::string>>& acks, TimestampMs now_ms);
  // The delivery failed: tried again later with backoff, or dead when `permanent` or after
  // kMaxDeliveryAttempts.
  Status MarkFailed(int64_t seq, const std::string& error, bool permanent, TimestampMs now_ms);
  // Dead records back to pending (attempts reset); returns how many.
  Result<int64_t> RetryDead();

  Result<JournalCounts> Counts();
  Result<std::vector<DeadLetter>> DeadLetters(int limit);
  // A stored payload by reference ("sha256:<hex>"). Errors: kNotFound, kInvalidArgument (not a reference).
  Result<std::string> Payload(const std::string& ref);
  // Forgetting reaches the journal: a delivered record keeps no content of its call (its record is
  // emptied when acknowledged), only its payloads by reference. This deletes the references of
  // every delivered call whose event `is_live` says is gone (forgotten: engram's GetEvent is
  // kNotFound), then every payload no call references any more. SQLite's secure_delete is on, so
  // the bytes are overwritten in the file. Errors: the journal's, or is_live's.
  Result<PruneReport> PruneForgotten(const std::function<Result<bool>(const std::string& event_id)>& is_live);
  // The earliest time a pending record is due (0 when none is pending).
  Result<TimestampMs> NextDue();

 private:
  explicit CaptureJournal(std::unique_ptr<sqlite::Database> db);
  Result<std::string> StorePayload(const std::string& bytes);
  Status Insert(const ToolCallRecord& call, const PayloadPolicy& policy);
  Status AddRefs(const ToolCallRecord& record);

  std::unique_ptr<sqlite::Database> db_;
};

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_CAPTURE_JOURNAL_H_
