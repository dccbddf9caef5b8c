#include "server/metrics.h"

#include <fmt/format.h>

#include <tuple>

namespace engram::server {
namespace {

// A label value escaped as the text format requires (backslash, quote, newline).
std::string Label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

void Metrics::Record(const std::string& route, int status, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_[{route, status}];
  Histogram& h = latency_[{route, status}];
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) ++h.buckets[i];
  }
  ++h.count;
  h.sum += seconds;
}

std::string Metrics::Render(const std::vector<std::tuple<std::string, std::string, double>>& gauges) const {
  std::string out;
  std::lock_guard<std::mutex> lock(mu_);
  out += "# HELP engram_http_requests_total HTTP requests answered, by route template and status.\n";
  out += "# TYPE engram_http_requests_total counter\n";
  for (const auto& [key, n] : counts_) {
    out += fmt::format("engram_http_requests_total{{route=\"{}\",status=\"{}\"}} {}\n", Label(key.first),
                       key.second, n);
  }
  out += "# HELP engram_http_request_duration_seconds Time to answer a request, by route template and status.\n";
  out += "# TYPE engram_http_request_duration_seconds histogram\n";
  for (const auto& [key, h] : latency_) {
    const std::string labels = fmt::format("route=\"{}\",status=\"{}\"", Label(key.first), key.second);
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      out += fmt::format("engram_http_request_duration_seconds_bucket{{{},le=\"{}\"}} {}\n", labels, kBuckets[i],
                         h.buckets[i]);
    }
    out += fmt::format("engram_http_request_duration_seconds_bucket{{{},le=\"+Inf\"}} {}\n", labels, h.count);
    out += fmt::format("engram_http_request_duration_seconds_sum{{{}}} {}\n", labels, h.sum);
    out += fmt::format("engram_http_request_duration_seconds_count{{{}}} {}\n", labels, h.count);
  }
  for (const auto& [name, help, value] : gauges) {
    out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n{} {}\n", name, help, name, name, value);
  }
  return out;
}

}  // namespace engram::server
