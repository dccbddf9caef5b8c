// capture/upstream_stream.cc — see upstream_stream.h.
#include "capture/upstream_stream.h"

#include <chrono>

namespace engram::capture {
namespace {

// Body bytes read ahead of the client at most: beyond it the upstream is read no further until the
// client has taken some (back-pressure).
constexpr size_t kMaxQueuedBytes = size_t{4} << 20;
// httplib's Client::stop does nothing while the request has no socket yet: Cancel repeats it.
constexpr auto kRestop = std::chrono::milliseconds(10);

}  // namespace

UpstreamStream::UpstreamStream(const UpstreamOptions& options) : client_(options.scheme_host_port) {
  client_.set_decompress(false);  // the client gets the upstream's bytes, encoded as they were
  client_.set_tcp_nodelay(true);
  client_.set_connection_timeout(std::chrono::milliseconds(options.connect_timeout_ms));
  client_.set_write_timeout(std::chrono::milliseconds(options.connect_timeout_ms));
  client_.set_read_timeout(std::chrono::milliseconds(options.read_timeout_ms));
}

std::unique_ptr<UpstreamStream> UpstreamStream::Start(const UpstreamOptions& options, UpstreamRequest request) {
  std::unique_ptr<UpstreamStream> s(new UpstreamStream(options));
  s->thread_ = std::thread([raw = s.get(), r = std::move(request)]() mutable { raw->Send(std::move(r)); });
  return s;
}

void UpstreamStream::WaitAnswered() {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return answered_ || cancelled_; });
  if (answered_) return;
  error_ = "cancelled before the upstream answered (the tap is stopping)";
  answered_ = true;
}

std::unique_ptr<UpstreamStream> UpstreamStream::Open(const UpstreamOptions& options, UpstreamRequest request) {
  auto s = Start(options, std::move(request));
  s->WaitAnswered();
  return s;
}

void UpstreamStream::Send(UpstreamRequest request) {
  httplib::Request req;
  req.method = std::move(request.method);
  req.path = std::move(request.target);
  req.headers = std::move(request.headers);
  req.body = std::move(request.body);
  req.response_handler = [this](const httplib::Response& res) {
    std::lock_guard lock(mu_);
    if (cancelled_) return false;
    status_ = res.status;
    headers_ = res.headers;
    answered_ = true;
    changed_.notify_all();
    return true;
  };
  req.content_receiver = [this](const char* data, size_t size, uint64_t, uint64_t) {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return queued_bytes_ < kMaxQueuedBytes || cancelled_; });
    if (cancelled_) return false;
    chunks_.emplace_back(data, size);
    queued_bytes_ += size;
    changed_.notify_all();
    return true;
  };
  const httplib::Result result = client_.send(req);
  std::lock_guard lock(mu_);
  if (!result) error_ = httplib::to_string(result.error());
  // A body httplib kept instead of passing it to the receiver (it does so for some statuses).
  if (result && !result->body.empty()) {
    queued_bytes_ += result->body.size();
    chunks_.push_back(result->body);
  }
  // A response without a body (204, 304, an answer to HEAD): httplib calls no response_handler.
  if (result && !answered_ && !cancelled_) {
    status_ = result->status;
    headers_ = result->headers;
    answered_ = true;
  }
  if (!answered_ && error_.empty()) error_ = "no response";
  answered_ = done_ = true;
  changed_.notify_all();
}

bool UpstreamStream::Next(std::string* chunk) {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return !chunks_.empty() || done_ || cancelled_; });
  if (chunks_.empty() || cancelled_) return false;
  *chunk = std::move(chunks_.front());
  chunks_.pop_front();
  queued_bytes_ -= chunk->size();
  changed_.notify_all();
  return true;
}

std::string UpstreamStream::error() {
  std::lock_guard lock(mu_);
  return error_;
}

bool UpstreamStream::broken() {
  std::lock_guard lock(mu_);
  return cancelled_ || !error_.empty();
}

void UpstreamStream::Cancel() {
  {
    std::lock_guard lock(mu_);
    cancelled_ = true;
    changed_.notify_all();
  }
  client_.stop();
}

UpstreamStream::~UpstreamStream() {
  Cancel();
  std::unique_lock lock(mu_);
  while (!done_) {
    lock.unlock();
    client_.stop();
    lock.lock();
    changed_.wait_for(lock, kRestop, [&] { return done_; });
  }
  lock.unlock();
  thread_.join();
}

}  // namespace engram::capture
