// capture/stdio_tap.cc — see stdio_tap.h.
#include "capture/stdio_tap.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

#include "capture/call_matcher.h"
#include "capture/child_process.h"
#include "capture/line_splitter.h"
#include "util/time.h"
#include "util/ulid.h"

namespace engram::capture {
namespace {

using Clock = CallMatcher::Clock;

// Messages held for the recorder at most (bytes): beyond it the pumps wait for the recorder
// (back-pressure, never a lost record).
constexpr size_t kMaxQueuedBytes = size_t{256} << 20;
constexpr size_t kReadChunk = 64 * 1024;
constexpr int kDeliveryBatch = 100;

std::atomic<pid_t> g_server_pid{-1};

void ForwardSignal(int sig) {
  const pid_t pid = g_server_pid.load();
  if (pid > 0) kill(pid, sig);
}

void InstallSignalForwarding() {
  struct sigaction sa {};
  sa.sa_handler = ForwardSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a peer that went away is a write error, not the tap's death
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

struct SeenLine {
  Direction direction;
  std::string line;
  Clock::time_point seen;
  TimestampMs seen_unix_ms;
  uint64_t ticket = 0;  // a server line's place in its stream (1, 2, ...); 0 for a client line
};

// How far the recorder got: every server line up to `through` has been matched and the records it
// completed committed (or refused by the journal). The server pump waits on it to forward.
class RecordedThrough {
 public:
  void Advance(uint64_t ticket) {
    std::lock_guard lock(mu_);
    through_ = std::max(through_, ticket);
    advanced_.notify_all();
  }
  void WaitFor(uint64_t ticket) {
    std::unique_lock lock(mu_);
    advanced_.wait(lock, [&] { return through_ >= ticket; });
  }

 private:
  std::mutex mu_;
  std::condition_variable advanced_;
  uint64_t through_ = 0;
};

// The pumps' copies of the messages, for the recorder. Two producers; closed when both are done.
class LineQueue {
 public:
  void Push(SeenLine&& line) {
    std::unique_lock lock(mu_);
    room_.wait(lock, [&] { return bytes_ < kMaxQueuedBytes; });
    bytes_ += line.line.size();
    lines_.push_back(std::move(line));
    ready_.notify_one();
  }
  void ProducerDone() {
    std::lock_guard lock(mu_);
    ++done_;
    ready_.notify_all();
  }
  // Every line queued, once there is at least one (waits for it); false when both producers are
  // done and nothing is left.
  bool PopAll(std::deque<SeenLine>* out) {
    std::unique_lock lock(mu_);
    ready_.wait(lock, [&] { return !lines_.empty() || done_ == 2; });
    if (lines_.empty()) return false;
    out->swap(lines_);
    lines_.clear();
    bytes_ = 0;
    room_.notify_all();
    return true;
  }

 private:
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<SeenLine> lines_;
  size_t bytes_ = 0;
  int done_ = 0;
};

// One run of the tap: the child, the two pumps, the recorder and the consumer.
class TapRun {
 public:
  TapRun(const StdioTapOptions& options, ChildProcess child, std::unique_ptr<CaptureJournal> recorder_journal,
         std::unique_ptr<CaptureJournal> consumer_journal)
      : options_(options),
        child_(std::move(child)),
        recorder_journal_(std::move(recorder_journal)),
        consumer_journal_(std::move(consumer_journal)),
        matcher_(options.connection_id) {}

  StdioTapReport Run();

 private:
  void PumpClientToServer();
  void PumpServerToClient();
  void Record();
  void Consume();
  void Commit(const std::vector<ToolCallRecord>& records);
  void Note(const std::string& message);

  const StdioTapOptions& options_;
  ChildProcess child_;
  std::unique_ptr<CaptureJournal> recorder_journal_;
  std::unique_ptr<CaptureJournal> consumer_journal_;
  CallMatcher matcher_;
  LineQueue queue_;
  LineSplitter up_lines_{options_.max_line_bytes};
  LineSplitter down_lines_{options_.max_line_bytes};
  uint64_t down_tickets_ = 0;  // server lines queued (the server pump's counter)
  RecordedThrough recorded_;
  int wake_[2] = {-1, -1};  // written when the server has exited: the client pump stops waiting
  StdioTapReport report_;
  std::mutex mu_;  // guards what the consumer waits on
  std::condition_variable committed_;
  bool recording_done_ = false;
  Clock::time_point flush_deadline_{};
};

void TapRun::Note(const std::string& message) {
  std::lock_guard lock(mu_);
  std::cerr << "engram mcp-tap: " << message << std::endl;
}

void TapRun::PumpClientToServer() {
  std::string buffer(kReadChunk, '\0');
  bool server_open = true;
  pollfd fds[2] = {{options_.in_fd, POLLIN, 0}, {wake_[0], POLLIN, 0}};
  while (server_open) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents) break;  // the server exited
    const ssize_t n = read(options_.in_fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the client closed its end
    const auto seen = Clock::now();
    const TimestampMs unix_ms = NowMs();
    // Queued before the server can read it: the response, which the server writes after reading
    // the request, is always queued after it, so the recorder never sees an answer first.
    up_lines_.Feed({buffer.data(), static_cast<size_t>(n)}, [&](std::string&& line) {
      queue_.Push({Direction::kClientToServer, std::move(line), seen, unix_ms});
    });
    server_open = WriteAll(child_.stdin_fd(), buffer.data(), static_cast<size_t>(n));
  }
  child_.CloseStdin();
  up_lines_.Finish([&](std::string&& line) {
    queue_.Push({Direction::kClientToServer, std::move(line), Clock::now(), NowMs()});
  });
  queue_.ProducerDone();
}

void TapRun::PumpServerToClient() {
  std::string buffer(kReadChunk, '\0');
  bool client_open = true;
  while (true) {
    const ssize_t n = read(child_.stdout_fd(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the server closed its output
    const auto seen = Clock::now();
    const TimestampMs unix_ms = NowMs();
    const std::string_view chunk(buffer.data(), static_cast<size_t>(n));
    if (!options_.commit_before_response && client_open) client_open = WriteAll(options_.out_fd, chunk.data(), chunk.size());
    const uint64_t before = down_tickets_;
    down_lines_.Feed(chunk, [&](std::string&& line) {
      queue_.Push({Direction::kServerToClient, std::move(line), seen, unix_ms, ++down_tickets_});
    });
    if (options_.commit_before_response) {
      // The chunk goes out once the records its complete lines finished are committed; the bytes
      // are the server's, unchanged (a partial last line goes with them: no client acts on it
      // before its newline, which comes in a later chunk that waits for its own record).
      if (down_tickets_ > before) recorded_.WaitFor(down_tickets_);
      // A client that went away: the server's output is still read (so it never blocks) and recorded.
      if (client_open) client_open = WriteAll(options_.out_fd, chunk.data(), chunk.size());
    }
  }
  down_lines_.Finish([&](std::string&& line) {
    queue_.Push({Direction::kServerToClient, std::move(line), Clock::now(), NowMs(), ++down_tickets_});
  });
  queue_.ProducerDone();
}

// Group commit: every record the recorder completed since its last commit, in one transaction. When
// the journal refuses the group, each record is tried alone, so one bad record costs only itself.
void TapRun::Commit(const std::vector<ToolCallRecord>& records) {
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

void TapRun::Record() {
  std::deque<SeenLine> lines;
  int64_t unparsable = 0;
  while (queue_.PopAll(&lines)) {
    std::vector<ToolCallRecord> done;
    uint64_t through = 0;
    for (SeenLine& seen : lines) {
      through = std::max(through, seen.ticket);
      const nlohmann::json message = nlohmann::json::parse(seen.line, nullptr, /*allow_exceptions=*/false);
      if (message.is_discarded()) {
        // Only a client's line can be a lost call; a server may print anything (it should not).
        unparsable += seen.direction == Direction::kClientToServer && seen.line.find("tools/call") != std::string::npos;
        continue;
      }
      for (ToolCallRecord& r : matcher_.Observe(seen.direction, message, seen.seen, seen.seen_unix_ms)) {
        done.push_back(std::move(r));
      }
    }
    lines.clear();
    Commit(done);
    recorded_.Advance(through);
  }
  Commit(matcher_.Close());
  recorded_.Advance(UINT64_MAX);
  report_.not_captured = matcher_.malformed() + unparsable + up_lines_.oversized();
  std::lock_guard lock(mu_);
  recording_done_ = true;
  flush_deadline_ = Clock::now() + std::chrono::milliseconds(options_.flush_ms);
  committed_.notify_all();
}

void TapRun::Consume() {
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
    if (delivered->delivered + delivered->retried + delivered->dead > 0) continue;
    if (recording_done_ && (!next || *next == 0 || Clock::now() >= flush_deadline_)) return;
    const TimestampMs wait_ms = next && *next > 0 ? std::clamp<TimestampMs>(*next - NowMs(), 1, 500) : 500;
    const auto until = Clock::now() + std::chrono::milliseconds(wait_ms);
    committed_.wait_until(lock, recording_done_ ? std::min(until, flush_deadline_) : until);
  }
}

StdioTapReport TapRun::Run() {
  if (pipe2(wake_, O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
  g_server_pid = child_.pid();
  std::thread up([this] { PumpClientToServer(); });
  std::thread down([this] { PumpServerToClient(); });
  std::thread recorder([this] { Record(); });
  std::thread consumer;
  if (options_.open_engine) consumer = std::thread([this] { Consume(); });
  down.join();
  report_.exit_code = child_.Wait();
  g_server_pid = -1;
  if (wake_[1] >= 0) WriteAll(wake_[1], "x", 1);
  up.join();
  recorder.join();
  if (consumer.joinable()) consumer.join();
  for (int fd : wake_) {
    if (fd >= 0) close(fd);
  }
  return report_;
}

}  // namespace

Result<StdioTapReport> RunStdioTap(const StdioTapOptions& given) {
  StdioTapOptions options = given;
  if (options.connection_id.empty()) options.connection_id = NewUlid(NowMs());
  if (options.delivery.journal_path.empty()) options.delivery.journal_path = options.journal_path;
  auto recorder_journal = CaptureJournal::Open(options.journal_path);
  if (!recorder_journal) return Error(recorder_journal.error());
  auto consumer_journal = CaptureJournal::Open(options.journal_path);
  if (!consumer_journal) return Error(consumer_journal.error());
  InstallSignalForwarding();
  auto child = ChildProcess::Start(options.command);
  if (!child) return Error(child.error());
  TapRun run(options, std::move(*child), std::move(*recorder_journal), std::move(*consumer_journal));
  return run.Run();
}

}  // namespace engram::capture
