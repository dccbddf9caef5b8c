#include "util/normalize.h"

#include <gtest/gtest.h>

namespace engram {
namespace {

TEST(NormalizeKeyTest, FoldsTrimsAndCollapses) {
  EXPECT_EQ(NormalizeKey("  Hangzhou. "), "hangzhou");
  EXPECT_EQ(NormalizeKey("Dark   Mode"), "dark mode");
  EXPECT_EQ(NormalizeKey("「浅色模式」。"), "浅色模式");
  EXPECT_EQ(NormalizeKey("ＶＳ Ｃｏｄｅ"), "vs code");
  EXPECT_EQ(NormalizeKey("李雷"), "李雷");
  EXPECT_EQ(NormalizeKey(""), "");
  EXPECT_EQ(NormalizeKey("..."), "");
}

TEST(NormalizeKeyTest, SurvivesInvalidUtf8) { EXPECT_FALSE(NormalizeKey("a\xff" "b").empty()); }

}  // namespace
}  // namespace engram
