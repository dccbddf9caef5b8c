#include "experience/task_terms.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace engram::experience {
namespace {

using ::testing::ElementsAre;

TEST(TaskTermsTest, DropsStopwordsAndEntities) {
  auto analyzer = text::Analyzer::Create(TextAnalysis::kFull);
  ASSERT_TRUE(analyzer.has_value());
  EXPECT_THAT(TaskTerms(**analyzer,
                        "Your name is Omar Anderson and your zip code is 19031. Return #W6067464 via "
                        "credit_card_4190576: Electric Kettles; omar.anderson@example.com"),
              ElementsAre("name", "omar", "anderson", "zip", "code", "return", "via", "electr", "kettl"));
  EXPECT_THAT(TaskTerms(**analyzer, "退货 2024-05-01"), ElementsAre("退货"));
  EXPECT_TRUE(TaskTerms(**analyzer, "the 42").empty());
}

TEST(TaskTermsTest, EntityLikeUnits) {
  EXPECT_TRUE(IsEntityLike("W6067464"));
  EXPECT_TRUE(IsEntityLike("a@b"));
  EXPECT_TRUE(IsEntityLike("2L"));
  EXPECT_FALSE(IsEntityLike("kettle"));
  EXPECT_FALSE(IsEntityLike("credit_card"));
}

}  // namespace
}  // namespace engram::experience
