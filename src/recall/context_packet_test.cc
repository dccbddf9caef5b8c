#include "recall/context_packet.h"

#include <gtest/gtest.h>

namespace engram {
namespace {

TEST(EstimateTokensTest, CountsWordsByBytesAndCjkByCharacter) {
  EXPECT_EQ(EstimateTokens(""), 0);
  EXPECT_EQ(EstimateTokens("   \n\t"), 0);
  EXPECT_EQ(EstimateTokens("hi"), 1);               // 2 bytes → 1
  EXPECT_EQ(EstimateTokens("hello world"), 4);      // 5 bytes → 2, twice
  EXPECT_EQ(EstimateTokens("我喜欢猫"), 4);          // one per Han character
  EXPECT_EQ(EstimateTokens("我喜欢cats"), 4);       // 3 Han + "cats" (4 bytes → 1)
  EXPECT_EQ(EstimateTokens("\xff\xfe ab"), 1);      // invalid bytes never fail
}

RecallItem Item(std::string text) {
  RecallItem item;
  item.id = "e" + std::to_string(text.size());
  item.text = std::move(text);
  return item;
}

TEST(PackContextTest, KeepsBestItemsThatFitAndSaysWhenItCut) {
  RecallResult r;
  r.items = {Item("aaaa bbbb cccc"), Item("a much longer item that will not fit at all"), Item("dd")};
  r.evidence_strength = 0.8;
  PackContext(r, 5);
  ASSERT_EQ(r.items.size(), 2u);
  EXPECT_EQ(r.items[0].text, "aaaa bbbb cccc");
  EXPECT_EQ(r.items[1].text, "dd");  // a later, smaller item still fits
  EXPECT_EQ(r.used_tokens, 4);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.answerability, "ok");
}

TEST(PackContextTest, ABudgetTooSmallForAnyItemStillSaysEvidenceWasFound) {
  RecallResult r;
  r.items = {Item("some words here")};
  r.evidence_strength = 0.9;
  PackContext(r, 1);
  EXPECT_TRUE(r.items.empty());
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.answerability, "ok");
}

TEST(PackContextTest, NoBudgetKeepsEverything) {
  RecallResult r;
  r.items = {Item("one two"), Item("three")};
  r.evidence_strength = 0.3;
  PackContext(r, 0);
  EXPECT_EQ(r.items.size(), 2u);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.used_tokens, 4);  // one(1) two(1) three(2)
  EXPECT_EQ(r.answerability, "low_confidence");
}

TEST(PackContextTest, NothingFoundIsNoEvidence) {
  RecallResult r;
  r.evidence_strength = 1.0;
  PackContext(r, 100);
  EXPECT_EQ(r.answerability, "no_evidence");
  EXPECT_EQ(r.used_tokens, 0);
}

TEST(PackContextTest, ClaimsCountTheirEvidence) {
  RecallResult r;
  RecallItem claim = Item("Ana likes tea");
  claim.type = "claim";
  EvidenceRef e;
  e.content = "I really like tea";
  claim.evidence.push_back(e);
  r.items = {claim};
  PackContext(r, 0);
  EXPECT_EQ(r.items[0].tokens, EstimateTokens("Ana likes tea") + EstimateTokens("I really like tea"));
}

TEST(FeedbackIdTest, RoundTrips) {
  RecallItem item = Item("x");
  item.id = "01HZX5B9Y7Q3K2M8N4P6R0S1T2";
  item.type = "claim";
  std::string id = MakeFeedbackId(item, "where do I live");
  auto parsed = ParseFeedbackId(id);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  EXPECT_EQ(parsed->item_type, "claim");
  EXPECT_EQ(parsed->item_id, item.id);
  EXPECT_EQ(parsed->query_hash.size(), 16u);
  EXPECT_NE(MakeFeedbackId(item, "where do I work"), id);  // the question is part of the id
}

TEST(FeedbackIdTest, MalformedIdsNameTheProblem) {
  for (const char* bad : {"", "fb2:e:x:0123456789abcdef", "fb1:x:id:0123456789abcdef", "fb1:e::0123456789abcdef",
                          "fb1:e:id:0123", "fb1:e:id:0123456789ABCDEZ", "fb1:e:id"}) {
    auto parsed = ParseFeedbackId(bad);
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_EQ(parsed.error().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(parsed.error().message().find("feedback_id"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace engram
