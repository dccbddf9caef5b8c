#include "server/metrics.h"

#include <gtest/gtest.h>

namespace engram::server {
namespace {

TEST(MetricsTest, LatencyHistogramsArePerRouteAndStatus) {
  Metrics m;
  const std::string route = "POST /v1/namespaces/{namespace}/recall";
  m.Record(route, 200, 0.002);
  m.Record(route, 200, 0.004);
  m.Record(route, 429, 0.00001);
  const std::string text = m.Render({});
  EXPECT_NE(text.find("engram_http_requests_total{route=\"" + route + "\",status=\"200\"} 2"), std::string::npos);
  EXPECT_NE(text.find("engram_http_request_duration_seconds_count{route=\"" + route + "\",status=\"200\"} 2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("engram_http_request_duration_seconds_count{route=\"" + route + "\",status=\"429\"} 1"),
            std::string::npos);
  // The 429 answered in 10 µs is in the first bucket; the 200s are not.
  EXPECT_NE(text.find("engram_http_request_duration_seconds_bucket{route=\"" + route +
                      "\",status=\"429\",le=\"0.0005\"} 1"),
            std::string::npos);
  EXPECT_NE(text.find("engram_http_request_duration_seconds_bucket{route=\"" + route +
                      "\",status=\"200\",le=\"0.0005\"} 0"),
            std::string::npos);
}

}  // namespace
}  // namespace engram::server
