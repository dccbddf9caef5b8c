#include "write/claim_identity.h"

#include <gtest/gtest.h>

namespace engram {
namespace {

extraction::CandidateClaim Make(std::string subject, std::string predicate, std::string value,
                                std::vector<std::string> qualifiers = {}, std::string slot = "") {
  extraction::CandidateClaim c;
  c.subject = std::move(subject);
  c.predicate = std::move(predicate);
  c.value = std::move(value);
  c.qualifiers = std::move(qualifiers);
  c.slot = std::move(slot);
  return c;
}

TEST(ClaimKeysTest, SameFactSameHashWhateverTheSpelling) {
  PredicateRegistry reg;
  auto a = ComputeClaimKeys(Make("Lin", "lives_in", "Hangzhou"), reg);
  auto b = ComputeClaimKeys(Make("lin", "lives_in", " Hangzhou. "), reg);
  EXPECT_EQ(a.fact_hash, b.fact_hash);
  EXPECT_EQ(a.conflict_key, "lin|lives_in|");
}

TEST(ClaimKeysTest, NegationFlipsTheHashButKeepsThePolarityKey) {
  PredicateRegistry reg;
  auto love = ComputeClaimKeys(Make("U1", "likes", "cuisine-A"), reg);
  auto hate = ComputeClaimKeys(Make("U1", "likes", "cuisine-A", {"negated"}), reg);
  EXPECT_NE(love.fact_hash, hate.fact_hash);
  EXPECT_EQ(love.polarity_key, hate.polarity_key);
  EXPECT_TRUE(love.conflict_key.empty());  // likes is additive
}

TEST(ClaimKeysTest, RegistryDecidesWhatIsSingleValued) {
  PredicateRegistry reg;
  EXPECT_TRUE(reg.IsSingleValued("employer", ""));
  EXPECT_FALSE(reg.IsSingleValued("went_to", ""));
  EXPECT_TRUE(reg.IsSingleValued("favorite", "color"));
  EXPECT_FALSE(reg.IsSingleValued("favorite", ""));
  EXPECT_TRUE(reg.IsSingleValued("has_relation", "wife"));
  EXPECT_FALSE(reg.IsSingleValued("has_relation", "friend"));
  reg.AddSingleValued("ui_theme");
  EXPECT_TRUE(reg.IsSingleValued("ui_theme", ""));
}

TEST(ClaimKeysTest, AChineseRelativeSaidShortOrDoubledIsOneSubject) {
  EXPECT_EQ(SubjectKey("我姐"), SubjectKey("我姐姐"));
  EXPECT_EQ(SubjectKey("我的妈妈"), SubjectKey("我妈"));
  EXPECT_NE(SubjectKey("我姐"), SubjectKey("我哥"));
  EXPECT_EQ(SubjectKey("Priya"), SubjectKey("priya"));
}

TEST(NearCopyTest, TrailingClauseIsANearCopy) {
  EXPECT_TRUE(IsNearCopy("a summer trip with the whole family, including children and elderly relatives",
                         "a summer trip with the whole family, including children and elderly relatives; "
                         "it is usually a family trip"));
}

TEST(NearCopyTest, ProtectedAtomsForbidMerging) {
  EXPECT_FALSE(IsNearCopy("meeting at 10:30 in room 4", "meeting at 11:30 in room 4"));
  EXPECT_FALSE(IsNearCopy("uses python 3.11", "uses python 3.12"));
  EXPECT_FALSE(IsNearCopy("config at /etc/a.conf", "config at /etc/b.conf"));
  EXPECT_FALSE(IsNearCopy("likes the dark theme", "does not like the dark theme"));
  EXPECT_FALSE(IsNearCopy("dinner with Alice and Bob", "dinner with Alice and Carol"));
  EXPECT_FALSE(IsNearCopy("喜欢浅色模式", "不喜欢浅色模式"));
}

TEST(NearCopyTest, TheSameNumbersInAnotherOrderAreAnotherValue) {
  EXPECT_FALSE(IsNearCopy("3 月 5 号", "5 月 3 号"));
  EXPECT_FALSE(NearCopyOf("3/5 at gate 5").Matches("5/3 at gate 3"));
  EXPECT_TRUE(IsNearCopy("room 4 at 10:30", "room 4, at 10:30"));
}

TEST(NearCopyTest, UnrelatedValuesAreNot) {
  EXPECT_FALSE(IsNearCopy("hiking", "painting"));
  EXPECT_TRUE(IsNearCopy("浅色模式", "浅色模式"));
}

}  // namespace
}  // namespace engram
