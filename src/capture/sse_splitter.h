// capture/sse_splitter.h — cuts a `text/event-stream` body (server-sent events, the form a
// streamable-HTTP MCP server may answer a POST or a GET in) into the data of its events: each
// event's `data:` lines joined with "\n", passed on at the blank line that ends it (WHATWG HTML
// §9.2.6 "Interpreting an event stream"; lines end in LF or CRLF). Comments, `event:`, `id:` and
// `retry:` fields are skipped; an event without data is not passed on, nor one left unterminated
// when the stream ends. An event over the cap is not kept (counted); the bytes themselves are
// forwarded by the tap regardless. Not thread-safe: one per stream.
#ifndef ENGRAM_CAPTURE_SSE_SPLITTER_H_
#define ENGRAM_CAPTURE_SSE_SPLITTER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "capture/line_splitter.h"

namespace engram::capture {

class SseSplitter {
 public:
  explicit SseSplitter(size_t max_event_bytes) : lines_(max_event_bytes, /*keep_empty=*/true), max_(max_event_bytes) {}

  // Feeds bytes; calls `on_event` with the data of each event they complete.
  void Feed(std::string_view bytes, const std::function<void(std::string&&)>& on_event);

  // Events over the cap (or with a line over it), not passed on.
  int64_t oversized() const { return oversized_; }

 private:
  void OnLine(std::string&& line, const std::function<void(std::string&&)>& on_event);

  LineSplitter lines_;
  size_t max_;
  std::string data_;
  bool has_data_ = false;
  bool too_big_ = false;
  int64_t oversized_ = 0;
  int64_t long_lines_ = 0;  // lines_.oversized() when the last line was read
};

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_SSE_SPLITTER_H_
