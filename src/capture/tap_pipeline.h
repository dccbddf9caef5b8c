// capture/tap_pipeline.h — what both faces of `engram mcp-tap` (the stdio tap, the HTTP reverse
// proxy) share once a transport has cut its bytes into messages: a recorder thread that parses
// copies of the messages, pairs each `tools/call` with its response (a CallMatcher per exchange)
// and group-commits the records to the journal; and a consumer thread that delivers journaled
// records to engram as events (DeliverDue). The transport forwards the bytes itself and, to keep
// the promise that a call the client saw answered is never lost, waits (WaitRecorded) before
// forwarding what completes a call. docs/capture.md.
#ifndef ENGRAM_CAPTURE_TAP_PIPELINE_H_
#define ENGRAM_CAPTURE_TAP_PIPELINE_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "capture/call_matcher.h"
#include "capture/capture_delivery.h"
#include "capture/capture_journal.h"
#include "engram/engine.h"

namespace engram::capture {

// The options both faces of the tap take (the CLI fills them from the same flags).
struct TapOptions {
  std::string journal_path;   // the journal file (created when missing; its folder must exist)
  std::string connection_id;  // stdio: names the one connection in records ("" = a new ULID)
  PayloadPolicy payloads;
  DeliveryOptions delivery;
  // Opens the engine the consumer delivers to (on the consumer's thread); nullptr: journal only.
  std::function<Result<std::unique_ptr<Engine>>()> open_engine;
  // true: a response that completes a tools/call reaches the client only once the call's record
  // is committed to the journal, so killing the tap (kill -9) loses no call the client saw
  // answered; it costs the response one journal commit (group-committed with the calls answered
  // at the same time). false: the record is committed just after the response is forwarded, and a
  // killed tap loses the calls of its last uncommitted group (docs/capture.md).
  bool commit_before_response = true;
  int flush_ms = 2000;  // once the traffic ends, how long the consumer may go on delivering
  size_t max_message_bytes = size_t{64} << 20;  // longer messages are forwarded but not captured
};

struct TapReport {
  int64_t captured = 0;        // tools/call records committed to the journal
  int64_t not_captured = 0;    // tools/call requests without a tool name, oversized or unparsable messages
  int64_t journal_errors = 0;  // records the journal refused (reported on stderr; the bytes went through)
  DeliveryReport delivery;     // what the consumer delivered while the tap ran
  std::string engine_error;    // the consumer could not open the engine (records stay pending)
};

// A copy of one message that passed the tap, for the recorder.
struct SeenMessage {
  std::string exchange;    // the CallMatcher that pairs it: a stdio connection, one HTTP POST
  std::string connection;  // the records' connection id (an MCP session, the exchange, ...)
  Direction direction = Direction::kClientToServer;
  std::string bytes;  // one JSON-RPC message or batch, as it passed
  CallMatcher::Clock::time_point seen;
  TimestampMs seen_unix_ms = 0;
  bool end = false;  // no bytes: the exchange is over; its calls still waiting are "no_response"
};

class TapPipeline {
 public:
  // Opens the journal twice (the recorder's and the consumer's connections) and starts the
  // recorder and (with options.open_engine) the consumer. Errors: the journal's Open errors.
  static Result<std::unique_ptr<TapPipeline>> Start(const TapOptions& options);
  ~TapPipeline();  // Finish, when not called yet
  TapPipeline(const TapPipeline&) = delete;
  TapPipeline& operator=(const TapPipeline&) = delete;

  // Queues a copy for the recorder; returns its ticket (1, 2, ... in queue order) for
  // WaitRecorded. Blocks while 256 MiB are queued (back-pressure, never a lost record). A message
  // must be queued before the peer can answer it (a request before the server reads it), so the
  // recorder never sees an answer first. Thread-safe.
  uint64_t Submit(SeenMessage&& message);
  // Returns once the recorder has read every message up to `ticket` and committed (or seen the
  // journal refuse) the records they completed. Thread-safe.
  void WaitRecorded(uint64_t ticket);
  // Counts messages the transport could not pass to the recorder (over max_message_bytes).
  // Thread-safe.
  void CountNotCaptured(int64_t n);
  // No more messages: the recorder ends every exchange still open ("no_response"), then the
  // consumer delivers for up to flush_ms more. Returns what was captured and delivered. Call once,
  // after every producer is done.
  TapReport Finish();

 private:
  explicit TapPipeline(const TapOptions& options) : options_(options) {}
  bool PopAll(std::deque<SeenMessage>* out);
  void Record();
  void RecordOne(SeenMessage& message, std::vector<ToolCallRecord>* done);
  void ShareCancellations(const SeenMessage& seen, const nlohmann::json& message, std::vector<ToolCallRecord>* done);
  void Consume();
  void Address(std::vector<ToolCallRecord>* records) const;
  void Commit(const std::vector<ToolCallRecord>& records);
  void Advance(uint64_t ticket);
  void Note(const std::string& message);

  TapOptions options_;
  std::unique_ptr<CaptureJournal> recorder_journal_;
  std::unique_ptr<CaptureJournal> consumer_journal_;
  std::map<std::string, CallMatcher> matchers_;  // by exchange (the recorder's)
  int64_t unparsable_ = 0;                       // the recorder's
  int64_t malformed_ = 0;                        // of the matchers already closed (the recorder's)

  std::mutex queue_mu_;  // the queue and the tickets
  std::condition_variable ready_, room_, advanced_;
  std::deque<SeenMessage> queue_;
  size_t queued_bytes_ = 0;
  uint64_t tickets_ = 0;
  uint64_t recorded_through_ = 0;
  bool closed_ = false;
  int64_t not_captured_ = 0;

  std::mutex mu_;  // the report and what the consumer waits on
  std::condition_variable committed_;
  TapReport report_;
  bool recording_done_ = false;
  CallMatcher::Clock::time_point flush_deadline_{};
  bool finished_ = false;

  std::thread recorder_;
  std::thread consumer_;
};

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_TAP_PIPELINE_H_
