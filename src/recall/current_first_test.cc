#include "recall/current_first.h"

#include <gtest/gtest.h>

namespace engram {
namespace {

CurrentFirstKey Key(TimestampMs at, std::vector<std::string> held, std::string speaker = "user",
                    std::string slot = "") {
  CurrentFirstKey k;
  k.said_at = at;
  k.held = std::move(held);
  k.speaker = std::move(speaker);
  k.slot = std::move(slot);
  return k;
}

TEST(CurrentFirstTest, NewerStatementHoldingTheSameTermsGoesFirst) {
  // "Where am I based?": "Home base for me is Austin", then "I'm now based out of Raleigh".
  std::vector<CurrentFirstKey> keys = {Key(100, {"base"}), Key(200, {"base"})};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, ABetterMatchIsNeverPassed) {
  std::vector<CurrentFirstKey> keys = {Key(100, {"cluster", "search"}), Key(200, {"search"})};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, OtherSpeakersAndOlderItemsKeepTheirPlace) {
  std::vector<CurrentFirstKey> keys = {Key(100, {"pet"}, "Ana"), Key(200, {"pet"}, "Ben"), Key(50, {"pet"}, "Ana")};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{0, 1, 2}));
}

TEST(CurrentFirstTest, ClaimsOfOneSlotOrderByTimeWhateverTheyHold) {
  std::vector<CurrentFirstKey> keys = {Key(100, {"editor", "use"}, "user", "u|uses|editor"),
                                       Key(300, {}, "user", "u|uses|editor")};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, AnExtractedFactIsPassedOnlyByItsOwnSlot) {
  // "I work at Oracle" (a claim), later "I really wish I worked at Valve" (no fact read).
  std::vector<CurrentFirstKey> keys = {Key(100, {"work"}, "user", "u|employer|"), Key(200, {"work"})};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{0, 1}));
  // An event or a memory read as no fact is passed by a newer claim that answers as well.
  std::vector<CurrentFirstKey> memory_first = {Key(100, {"work"}), Key(200, {"work"}, "user", "u|employer|")};
  EXPECT_EQ(CurrentFirstOrder(memory_first, 2), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, ACurrentClaimPassesTheEvidenceOfWhatItReplaced) {
  CurrentFirstKey old_event = Key(100, {"emma", "live", "sister"}, "user");
  old_event.event_id = "e1";
  CurrentFirstKey claim = Key(200, {"emma", "live"}, "user", "Emma|lives_in|");
  claim.replaced_events = {"e1"};
  EXPECT_EQ(CurrentFirstOrder({old_event, claim}, 2), (std::vector<size_t>{1, 0}));
  claim.replaced_events = {"e7"};
  EXPECT_EQ(CurrentFirstOrder({old_event, claim}, 2), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, MovesOnlyPastARunOfItemsItAnswersAsWell) {
  // The newest item passes the one right above it, not the better match above that.
  std::vector<CurrentFirstKey> keys = {Key(100, {"a", "b"}), Key(110, {"a"}), Key(300, {"a"})};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{0, 2, 1}));
}

TEST(CurrentFirstTest, ValuesOfAMultiValuedAttributeAreNotOneSlot) {
  // "周立喜欢中国菜和日本料理" then "周立喜欢拍摄风景": no conflict key, and the older holds the question.
  std::vector<CurrentFirstKey> keys = {Key(100, {"喜欢", "菜系"}), Key(200, {"喜欢"})};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, ItemsHoldingLessThanHalfTheQuestionAreNotPassed) {
  // "我喜欢哪些菜系？" (six terms): a newer "我喜欢…" holding two of them does not pass an older one.
  std::vector<CurrentFirstKey> keys = {Key(100, {"喜欢", "我喜"}), Key(200, {"喜欢", "我喜"})};
  EXPECT_EQ(CurrentFirstOrder(keys, 6), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(CurrentFirstOrder(keys, 4), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, AnItemHoldingNoTermIsNotTheSameThing) {
  std::vector<CurrentFirstKey> keys = {Key(100, {}), Key(200, {"x"})};
  EXPECT_EQ(CurrentFirstOrder(keys, 2), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, KeyOfAClaimIsItsFirstSupportingStatement) {
  RecallItem claim;
  claim.type = "claim";
  claim.subject = "user";
  claim.predicate = "lives_in";
  claim.valid_from = 5;
  EvidenceRef e;
  e.relation = "supports";
  e.occurred_at = 42;
  e.speaker = "Lin";
  claim.evidence.push_back(e);
  CurrentFirstKey k = CurrentFirstKeyOf(claim);
  EXPECT_EQ(k.said_at, 42);
  EXPECT_EQ(k.speaker, "Lin");
  EXPECT_TRUE(k.slot.empty());  // the caller gives the conflict key
  RecallItem event;
  event.occurred_at = 7;
  event.role = "user";
  EXPECT_EQ(CurrentFirstKeyOf(event).speaker, "user");
  EXPECT_TRUE(CurrentFirstKeyOf(event).slot.empty());
}

}  // namespace
}  // namespace engram
