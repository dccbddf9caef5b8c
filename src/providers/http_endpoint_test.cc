#include "providers/http_endpoint.h"

#include <gtest/gtest.h>

#include <string>

namespace engram::providers {
namespace {

TEST(ParseEndpointTest, SplitsSchemeHostPortAndPath) {
  auto e = ParseEndpoint("http://127.0.0.1:8080/v1/", "/rerank", "rerank");
  ASSERT_TRUE(e.has_value()) << e.error().ToString();
  EXPECT_EQ(e->scheme_host_port, "http://127.0.0.1:8080");
  EXPECT_EQ(e->path, "/v1/rerank");
  auto v6 = ParseEndpoint("https://[::1]:443", "/embeddings", "embeddings");
  ASSERT_TRUE(v6.has_value()) << v6.error().ToString();
  EXPECT_EQ(v6->scheme_host_port, "https://[::1]:443");
  EXPECT_TRUE(ParseEndpoint("HTTP://example.com/v1", "/x", "c").has_value());
}

TEST(ParseEndpointTest, RejectsWhatCannotBeAnEndpointWithoutEchoingCredentials) {
  for (const char* bad : {"example.com/v1", "ftp://example.com", "http://", "http:///v1",
                          "http:// bad host", "http://127.0.0.1:99999", "http://127.0.0.1:abc/v1",
                          "http://127.0.0.1:0", "http://127.0.0.1:/v1", "http://[::1/v1",
                          "http://127.0.0.1:9/v1?x=1", "http://127.0.0.1:9/v1#f", "http://:80/v1"}) {
    auto e = ParseEndpoint(bad, "/rerank", "rerank");
    ASSERT_FALSE(e.has_value()) << bad;
    EXPECT_EQ(e.error().code(), StatusCode::kInvalidArgument) << bad;
  }
  auto creds = ParseEndpoint("http://user:pw@127.0.0.1:9/v1", "/rerank", "rerank");
  ASSERT_FALSE(creds.has_value());
  EXPECT_EQ(creds.error().message().find("pw"), std::string::npos) << creds.error().ToString();
}

}  // namespace
}  // namespace engram::providers
