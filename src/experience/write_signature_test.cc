#include "experience/write_signature.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::experience {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(WriteSignatureTest, ReadToolsByTheirFirstWord) {
  for (const char* name : {"get_user_details", "find_user_id_by_zip", "list_all_product_types", "calculate", "think",
                           "searchFlights", "lookup-order", "Read.File", "fetch"}) {
    EXPECT_TRUE(IsReadToolName(name)) << name;
  }
  for (const char* name : {"cancel_pending_order", "book_reservation", "transfer_to_human_agents", "send_email",
                           "getaway_booking", "updateRecord", ""}) {
    EXPECT_FALSE(IsReadToolName(name)) << name;
  }
}

TEST(WriteSignatureTest, TypesAreSortedDistinctNames) {
  EXPECT_EQ(WriteSignatureType({"modify_items", "cancel", "modify_items"}), "cancel+modify_items");
  EXPECT_EQ(WriteSignatureType({}), kReadOnlyType);
  EXPECT_EQ(WriteSignatureType({""}), kReadOnlyType);
  EXPECT_THAT(TypeComponents("modify_items+cancel"), ElementsAre("cancel", "modify_items"));
  EXPECT_THAT(TypeComponents("refund"), ElementsAre("refund"));
  EXPECT_THAT(TypeComponents(""), IsEmpty());
  EXPECT_THAT(TypeComponents("a++b+"), ElementsAre("a", "b"));
}

TEST(WriteSignatureTest, JaccardOfComponents) {
  EXPECT_DOUBLE_EQ(TypeJaccard("a+b", "b+a"), 1.0);
  EXPECT_DOUBLE_EQ(TypeJaccard("a+b", "a"), 0.5);
  EXPECT_DOUBLE_EQ(TypeJaccard("a+b", "c"), 0.0);
  EXPECT_DOUBLE_EQ(TypeJaccard("", ""), 1.0);
  EXPECT_DOUBLE_EQ(TypeJaccard("a", ""), 0.0);
}

}  // namespace
}  // namespace engram::experience
