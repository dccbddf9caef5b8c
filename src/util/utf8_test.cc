#include "util/utf8.h"

#include <gtest/gtest.h>

namespace engram {
namespace {

TEST(Utf8Test, Validates) {
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("暂时换成浅色模式 😀 שלום"));
  size_t off = 99;
  EXPECT_FALSE(IsValidUtf8(std::string("ab\xff" "cd"), &off));
  EXPECT_EQ(off, 2u);
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xe6\x9a"));          // truncated
}

TEST(Utf8Test, Blank) {
  EXPECT_TRUE(IsBlank(""));
  EXPECT_TRUE(IsBlank(" \t\n\u3000"));
  EXPECT_FALSE(IsBlank(" x "));
}

TEST(Utf8Test, Truncate) {
  EXPECT_EQ(TruncateCodePoints("浅色模式", 2), "浅色…");
  EXPECT_EQ(TruncateCodePoints("abc", 5), "abc");
  EXPECT_EQ(CodePointCount("浅色ab"), 4u);
}

}  // namespace
}  // namespace engram
