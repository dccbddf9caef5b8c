#include "recall/asked_attribute.h"

#include <gtest/gtest.h>

#include <utility>

namespace engram {
namespace {

AskedAttributeKey Key(bool answers, std::vector<std::string> held, TimestampMs at = 100) {
  AskedAttributeKey k;
  k.answers = answers;
  k.held = std::move(held);
  k.occurred_at = at;
  return k;
}

TEST(AskedAttributeTest, AnAnsweringClaimPassesItemsThatHoldNoMoreOfTheQuestion) {
  // "What's Sarah's role?": "user's wife is Sarah", then "Sarah works as vice principal" (a job,
  // which holds "role" as the claim of the asked attribute).
  std::vector<AskedAttributeKey> keys = {Key(false, {"sarah"}), Key(true, {"role", "sarah"})};
  EXPECT_EQ(AskedAttributeOrder(keys), (std::vector<size_t>{1, 0}));
}

TEST(AskedAttributeTest, ABetterMatchIsNeverPassed) {
  // The item above holds a term of the question the answering claim does not.
  std::vector<AskedAttributeKey> keys = {Key(false, {"lincoln", "sarah"}), Key(true, {"role", "sarah"})};
  EXPECT_EQ(AskedAttributeOrder(keys), (std::vector<size_t>{0, 1}));
}

TEST(AskedAttributeTest, ANewerItemIsNeverPassed) {
  // A newer statement (an event, or a memory kept whole) may be the change of the job that nothing
  // was read from: current-first order decides between them.
  std::vector<AskedAttributeKey> keys = {Key(false, {"job"}, 200), Key(true, {"job"}, 100)};
  EXPECT_EQ(AskedAttributeOrder(keys), (std::vector<size_t>{0, 1}));
  // An older one is.
  keys = {Key(false, {"job"}, 50), Key(true, {"job"}, 100)};
  EXPECT_EQ(AskedAttributeOrder(keys), (std::vector<size_t>{1, 0}));
  // A newer claim about someone else ("user的妹妹住在杭州" for 我住在哪里？) is no change of it.
  keys = {Key(false, {"住"}, 200), Key(true, {"住"}, 100)};
  keys[0].about_another = true;
  EXPECT_EQ(AskedAttributeOrder(keys), (std::vector<size_t>{1, 0}));
}

TEST(AskedAttributeTest, AnsweringItemsKeepTheirOrderAndStopOthers) {
  std::vector<AskedAttributeKey> keys = {Key(true, {"job"}), Key(false, {"job"}), Key(true, {"job"}),
                                         Key(false, {}), Key(true, {"job"})};
  // The third passes the second and stops under the first; the fifth passes the fourth and the
  // second and stops under the third.
  EXPECT_EQ(AskedAttributeOrder(keys), (std::vector<size_t>{0, 2, 4, 1, 3}));
  EXPECT_TRUE(AskedAttributeOrder({}).empty());
}

TEST(AskedAttributeTest, AClaimIsAboutWhomTheQuestionNames) {
  AskedPerson sarah{.terms = {"role", "sarah"}, .speaker = false};
  EXPECT_TRUE(AboutWhomAsked("Sarah", "user", {"sarah"}, sarah));
  EXPECT_FALSE(AboutWhomAsked("user", "user", {"user"}, sarah));  // the speaker is not asked about
  EXPECT_FALSE(AboutWhomAsked("Sarah Lee", "user", {"lee", "sarah"}, sarah));  // every term of the subject
  EXPECT_FALSE(AboutWhomAsked("", "user", {}, sarah));
  // "What's my job?": the speaker of the claim's evidence, whatever the speaker is called.
  AskedPerson me{.terms = {"job"}, .speaker = true};
  EXPECT_TRUE(AboutWhomAsked("user", "user", {"user"}, me));
  EXPECT_TRUE(AboutWhomAsked("Caroline", "Caroline", {"caroline"}, me));
  EXPECT_FALSE(AboutWhomAsked("Sarah", "user", {"sarah"}, me));
  // "What does my husband do now?" names him through the speaker: the speaker is not asked about.
  AskedPerson husband{.terms = {"husband"}, .speaker = false};
  EXPECT_TRUE(AboutWhomAsked("My husband", "user", {"husband"}, husband));
  EXPECT_FALSE(AboutWhomAsked("user", "user", {"user"}, husband));
}

}  // namespace
}  // namespace engram
