// capture/stdio_tap.cc — see stdio_tap.h.
#include "capture/stdio_tap.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <thread>

#include "capture/call_matcher.h"
#include "capture/child_process.h"
#include "capture/line_splitter.h"
#include "capture/tap_signals.h"
#include "util/time.h"
#include "util/ulid.h"

namespace engram::capture {
namespace {

using Clock = CallMatcher::Clock;

constexpr size_t kReadChunk = 64 * 1024;

std::atomic<pid_t> g_server_pid{-1};

void ForwardSignal(int sig) {
  const pid_t pid = g_server_pid.load();
  if (pid > 0) kill(pid, sig);
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

// One run of the tap: the child and the two pumps; the pipeline records and delivers.
class TapRun {
 public:
  TapRun(const StdioTapOptions& options, ChildProcess child, std::unique_ptr<TapPipeline> pipeline)
      : options_(options), child_(std::move(child)), pipeline_(std::move(pipeline)) {}

  StdioTapReport Run();

 private:
  void PumpClientToServer();
  void PumpServerToClient();
  uint64_t Queue(Direction direction, std::string&& line, Clock::time_point seen, TimestampMs seen_unix_ms);

  const StdioTapOptions& options_;
  ChildProcess child_;
  std::unique_ptr<TapPipeline> pipeline_;
  LineSplitter up_lines_{options_.max_message_bytes};
  LineSplitter down_lines_{options_.max_message_bytes};
  int wake_[2] = {-1, -1};  // written when the server has exited: the client pump stops waiting
};

uint64_t TapRun::Queue(Direction direction, std::string&& line, Clock::time_point seen, TimestampMs seen_unix_ms) {
  return pipeline_->Submit({.exchange = options_.connection_id, .connection = options_.connection_id,
                            .direction = direction, .bytes = std::move(line), .seen = seen,
                            .seen_unix_ms = seen_unix_ms});
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
    up_lines_.Feed({buffer.data(), static_cast<size_t>(n)},
                   [&](std::string&& line) { Queue(Direction::kClientToServer, std::move(line), seen, unix_ms); });
    server_open = WriteAll(child_.stdin_fd(), buffer.data(), static_cast<size_t>(n));
  }
  child_.CloseStdin();
  up_lines_.Finish(
      [&](std::string&& line) { Queue(Direction::kClientToServer, std::move(line), Clock::now(), NowMs()); });
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
    uint64_t ticket = 0;
    down_lines_.Feed(chunk,
                     [&](std::string&& line) { ticket = Queue(Direction::kServerToClient, std::move(line), seen, unix_ms); });
    if (options_.commit_before_response) {
      // The chunk goes out once the records its complete lines finished are committed; the bytes
      // are the server's, unchanged (a partial last line goes with them: no client acts on it
      // before its newline, which comes in a later chunk that waits for its own record).
      if (ticket > 0) pipeline_->WaitRecorded(ticket);
      // A client that went away: the server's output is still read (so it never blocks) and recorded.
      if (client_open) client_open = WriteAll(options_.out_fd, chunk.data(), chunk.size());
    }
  }
  down_lines_.Finish(
      [&](std::string&& line) { Queue(Direction::kServerToClient, std::move(line), Clock::now(), NowMs()); });
}

StdioTapReport TapRun::Run() {
  if (pipe2(wake_, O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
  g_server_pid = child_.pid();
  std::thread up([this] { PumpClientToServer(); });
  std::thread down([this] { PumpServerToClient(); });
  down.join();
  StdioTapReport report;
  report.exit_code = child_.Wait();
  g_server_pid = -1;
  if (wake_[1] >= 0) WriteAll(wake_[1], "x", 1);
  up.join();
  for (int fd : wake_) {
    if (fd >= 0) close(fd);
  }
  pipeline_->CountNotCaptured(up_lines_.oversized());
  static_cast<TapReport&>(report) = pipeline_->Finish();
  return report;
}

}  // namespace

Result<StdioTapReport> RunStdioTap(const StdioTapOptions& given) {
  StdioTapOptions options = given;
  if (options.connection_id.empty()) options.connection_id = NewUlid(NowMs());
  auto pipeline = TapPipeline::Start(options);
  if (!pipeline) return Error(pipeline.error());
  HandleTapSignals(ForwardSignal);
  auto child = ChildProcess::Start(options.command);
  if (!child) return Error(child.error());
  TapRun run(options, std::move(*child), std::move(*pipeline));
  return run.Run();
}

}  // namespace engram::capture
