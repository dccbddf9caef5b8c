// capture/line_splitter.h — cuts a byte stream into the newline-delimited messages of MCP's stdio
// transport (each JSON-RPC message is one line, UTF-8, no embedded newline). A line longer than the
// cap is not kept (it is counted and skipped to its end), so a misbehaving peer cannot make the tap
// hold unbounded memory; the bytes themselves are forwarded by the tap regardless. Also the lines
// of a server-sent event stream (capture/sse_splitter.h).
#ifndef ENGRAM_CAPTURE_LINE_SPLITTER_H_
#define ENGRAM_CAPTURE_LINE_SPLITTER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace engram::capture {

class LineSplitter {
 public:
  // `keep_empty`: empty lines are passed on too (they end an SSE event); by default they are
  // skipped.
  explicit LineSplitter(size_t max_line_bytes, bool keep_empty = false)
      : max_line_bytes_(max_line_bytes), keep_empty_(keep_empty) {}

  // Feeds bytes; calls `on_line` with each complete line (without "\n" and a trailing "\r").
  void Feed(std::string_view bytes, const std::function<void(std::string&&)>& on_line);
  // The unterminated rest at the end of the stream, as a last line when not empty.
  void Finish(const std::function<void(std::string&&)>& on_line);

  int64_t oversized() const { return oversized_; }

 private:
  size_t max_line_bytes_;
  bool keep_empty_;
  std::string partial_;
  bool skipping_ = false;  // inside a line over the cap: dropped up to its newline
  int64_t oversized_ = 0;
};

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_LINE_SPLITTER_H_
