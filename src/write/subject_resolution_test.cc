#include "write/subject_resolution.h"

#include <gtest/gtest.h>

namespace engram {
namespace {

TEST(SubjectResolutionTest, NamesPartOfWholeWordsInOrder) {
  EXPECT_TRUE(NamesPartOf("VPN", "VPN gateway"));
  EXPECT_TRUE(NamesPartOf("search", "the Search cluster"));
  EXPECT_TRUE(NamesPartOf("build farm", "the build farm mirror"));
  EXPECT_TRUE(NamesPartOf("支付", "支付服务"));
  EXPECT_FALSE(NamesPartOf("VPN", "VPNs gateway"));
  EXPECT_FALSE(NamesPartOf("farm build", "the build farm mirror"));
  EXPECT_FALSE(NamesPartOf("VPN gateway", "VPN gateway"));  // the same name is not a part
  EXPECT_FALSE(NamesPartOf("", "anything"));
  EXPECT_FALSE(NamesPartOf("component-0", "component-01"));  // identifiers are whole
}

}  // namespace
}  // namespace engram
