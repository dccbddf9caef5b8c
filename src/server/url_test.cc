#include "server/url.h"

#include <gtest/gtest.h>

namespace engram::server {
namespace {

TEST(UrlTest, PercentDecode) {
  EXPECT_EQ(PercentDecode("team%2Falpha"), "team/alpha");
  EXPECT_EQ(PercentDecode("%E5%90%8D"), "\xE5\x90\x8D");
  EXPECT_EQ(PercentDecode("a+b"), "a+b");
  EXPECT_EQ(PercentDecode("a+b", true), "a b");
  EXPECT_EQ(PercentDecode("100%"), "100%");
  EXPECT_EQ(PercentDecode("%zz%4"), "%zz%4");
}

TEST(UrlTest, ParseQuery) {
  auto q = ParseQuery("a=1&b=x%20y&a=2&flag&&c=");
  EXPECT_EQ(q.count("a"), 2u);
  EXPECT_EQ(q.find("b")->second, "x y");
  EXPECT_EQ(q.find("flag")->second, "");
  EXPECT_EQ(q.find("c")->second, "");
}

}  // namespace
}  // namespace engram::server
