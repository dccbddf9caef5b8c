#include "codec/compact_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace engram {
namespace {

std::string Nlohmann(const OrderedJson& j) {
  return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

std::string Compact(const OrderedJson& j) {
  std::string out;
  AppendCompactJson(j, &out);
  return out;
}

TEST(CompactJsonTest, ScalarsAsNlohmannWritesThem) {
  const double kDoubles[] = {0.0,  -0.0,   0.1,     1.0,      3.0,     -2.5,        1e-5,
                             1e21, 1e300, 5e-324, 0.8404580304556165, 1.938457570342432, 123456789.125,
                             std::numeric_limits<double>::max(), std::nan(""),
                             std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (double d : kDoubles) EXPECT_EQ(Compact(OrderedJson(d)), Nlohmann(OrderedJson(d))) << d;
  const int64_t kInts[] = {0, 1, -1, 42, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  for (int64_t i : kInts) EXPECT_EQ(Compact(OrderedJson(i)), Nlohmann(OrderedJson(i)));
  EXPECT_EQ(Compact(OrderedJson(std::numeric_limits<uint64_t>::max())),
            Nlohmann(OrderedJson(std::numeric_limits<uint64_t>::max())));
  EXPECT_EQ(Compact(OrderedJson(nullptr)), "null");
  EXPECT_EQ(Compact(OrderedJson(true)), "true");
  EXPECT_EQ(Compact(OrderedJson(false)), "false");
}

TEST(CompactJsonTest, StringsEscapedAsNlohmannEscapesThem) {
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c) every_ascii.push_back(static_cast<char>(c));
  const std::string kStrings[] = {
      "", "plain", every_ascii, "quote \" and \\ backslash", "暂时换成浅色模式 😀 שלום",
      "tab\there\nnew line\r\f\b\x01\x1f\x7f", "\xe2\x80\x8b zero width",
      // not UTF-8: nlohmann's replacement characters
      "ab\xff" "cd", "\xc0\xaf", "\xed\xa0\x80", "cut \xe6\x9a", "\xf4\x90\x80\x80"};
  for (const std::string& s : kStrings) {
    EXPECT_EQ(Compact(OrderedJson(s)), Nlohmann(OrderedJson(s))) << s;
    OrderedJson keyed = OrderedJson::object();
    keyed[s] = s;
    EXPECT_EQ(Compact(keyed), Nlohmann(keyed)) << s;
  }
}

TEST(CompactJsonTest, NestedDocumentsKeepOrderAndShape) {
  OrderedJson j = OrderedJson::object();
  j["z"] = 1;
  j["a"] = OrderedJson::array({1, 2.5, "x", nullptr, OrderedJson::object(), OrderedJson::array()});
  j["m"] = OrderedJson::object({{"k", OrderedJson::array({OrderedJson::object({{"deep", false}})})}});
  j["empty"] = OrderedJson::object();
  EXPECT_EQ(Compact(j), Nlohmann(j));
  EXPECT_EQ(Compact(OrderedJson::array()), "[]");
  EXPECT_EQ(Compact(OrderedJson::object()), "{}");
}

// Each escaped or non-ASCII byte at every offset of a word-at-a-time scan.
TEST(CompactJsonTest, EscapesAtEveryOffset) {
  const std::string kMarks[] = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", " ", "\x7f", "é", "\xff", "中"};
  for (const std::string& mark : kMarks) {
    for (size_t pos = 0; pos < 40; ++pos) {
      const std::string s = std::string(pos, 'a') + mark + std::string(pos % 11, 'b') + mark + "tail";
      ASSERT_EQ(Compact(OrderedJson(s)), Nlohmann(OrderedJson(s))) << pos;
    }
  }
}

// Random byte strings (mostly valid UTF-8, some not) and random doubles, in one document.
TEST(CompactJsonTest, RandomDocumentsMatchNlohmann) {
  std::mt19937_64 rng(13);
  const std::string pieces[] = {"a", "Z", " ", "\"", "\\", "\n", "\x01", "é", "中", "😀", "\xff", "\xe4\xb8", "\x80"};
  for (int round = 0; round < 300; ++round) {
    OrderedJson doc = OrderedJson::array();
    for (int k = 0; k < 20; ++k) {
      std::string s;
      const int n = static_cast<int>(rng() % 12);
      for (int i = 0; i < n; ++i) s += pieces[rng() % std::size(pieces)];
      doc.push_back(s);
      const double d = std::ldexp(static_cast<double>(rng() % 1000000) - 500000.0, static_cast<int>(rng() % 80) - 40);
      doc.push_back(d);
      doc.push_back(static_cast<int64_t>(rng()));
    }
    ASSERT_EQ(Compact(doc), Nlohmann(doc)) << round;
  }
}

}  // namespace
}  // namespace engram
