// capture/sse_splitter.cc — see sse_splitter.h.
#include "capture/sse_splitter.h"

namespace engram::capture {

void SseSplitter::Feed(std::string_view bytes, const std::function<void(std::string&&)>& on_event) {
  lines_.Feed(bytes, [&](std::string&& line) { OnLine(std::move(line), on_event); });
}

void SseSplitter::OnLine(std::string&& line, const std::function<void(std::string&&)>& on_event) {
  if (lines_.oversized() != long_lines_) {  // a line of this event was over the cap
    long_lines_ = lines_.oversized();
    too_big_ = true;
  }
  if (line.empty()) {  // the event ends
    if (has_data_ && !too_big_) on_event(std::move(data_));
    oversized_ += too_big_;
    data_.clear();
    has_data_ = too_big_ = false;
    return;
  }
  const size_t colon = line.find(':');
  if (colon == 0) return;  // a comment (keep-alive pings)
  if (line.compare(0, colon, "data") != 0) return;
  std::string_view value = colon == std::string::npos ? std::string_view() : std::string_view(line).substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (too_big_) return;
  if (has_data_) data_ += '\n';
  data_.append(value);
  has_data_ = true;
  if (data_.size() > max_) {
    too_big_ = true;
    data_.clear();
    data_.shrink_to_fit();
  }
}

}  // namespace engram::capture
