// server/metrics.h — request counts and latency histograms per route and status, rendered in the
// Prometheus text format (version 0.0.4) for /metrics.
//
// Thread-safe (one mutex; a record is a map lookup and a few additions).
#ifndef ENGRAM_SERVER_METRICS_H_
#define ENGRAM_SERVER_METRICS_H_

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace engram::server {

class Metrics {
 public:
  // Upper bounds of the latency buckets, seconds (Prometheus client defaults, finer below 10 ms).
  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                      0.05,   0.1,   0.25,   0.5,   1.0,  2.5};

  // One answered request: `route` is the route template ("POST /v1/namespaces/{namespace}/recall")
  // or "unmatched"; `seconds` its handling time.
  void Record(const std::string& route, int status, double seconds);

  // engram_http_requests_total{route,status}, engram_http_request_duration_seconds{route,status}
  // (histogram: a 429 or 400 answered in microseconds stays apart from the 200s of its route),
  // then `gauges` as given (name, help, value) — queue depth, worker lag.
  std::string Render(const std::vector<std::tuple<std::string, std::string, double>>& gauges) const;

 private:
  struct Histogram {
    std::array<uint64_t, kBuckets.size()> buckets{};
    uint64_t count = 0;
    double sum = 0;
  };
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, uint64_t> counts_;
  std::map<std::pair<std::string, int>, Histogram> latency_;  // by (route, status)
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_METRICS_H_
