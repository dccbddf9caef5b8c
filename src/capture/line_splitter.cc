// capture/line_splitter.cc — see line_splitter.h.
#include "capture/line_splitter.h"

namespace engram::capture {

void LineSplitter::Feed(std::string_view bytes, const std::function<void(std::string&&)>& on_line) {
  while (!bytes.empty()) {
    const size_t nl = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, nl);
    if (!skipping_) {
      if (partial_.size() + piece.size() > max_line_bytes_) {
        skipping_ = true;
        ++oversized_;
        partial_.clear();
        partial_.shrink_to_fit();
      } else {
        partial_.append(piece);
      }
    }
    if (nl == std::string_view::npos) return;
    if (!skipping_) {
      if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
      if (keep_empty_ || !partial_.empty()) on_line(std::move(partial_));
    }
    partial_.clear();
    skipping_ = false;
    bytes.remove_prefix(nl + 1);
  }
}

void LineSplitter::Finish(const std::function<void(std::string&&)>& on_line) {
  if (!skipping_ && !partial_.empty()) on_line(std::move(partial_));
  partial_.clear();
  skipping_ = false;
}

}  // namespace engram::capture
