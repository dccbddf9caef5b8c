#include "recall/current_first.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

namespace engram {
namespace {

CurrentFirstKey Key(TimestampMs at, std::vector<std::string> held, std::string speaker = "user",
                    std::string slot = "") {
  CurrentFirstKey k;
  k.said_at = at;
  k.held = std::move(held);
  k.speaker = std::move(speaker);
  k.slot = std::move(slot);
  k.content_held = k.held.size();
  return k;
}

// A question of n terms, all of them content terms.
QuestionTermCount Q(size_t n) { return {n, n}; }

TEST(CurrentFirstTest, NewerStatementHoldingTheSameTermsGoesFirst) {
  // "Where am I based?": "Home base for me is Austin", then "I'm now based out of Raleigh".
  std::vector<CurrentFirstKey> keys = {Key(100, {"base"}), Key(200, {"base"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, ABetterMatchIsNeverPassed) {
  std::vector<CurrentFirstKey> keys = {Key(100, {"cluster", "search"}), Key(200, {"search"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, OtherSpeakersAndOlderItemsKeepTheirPlace) {
  std::vector<CurrentFirstKey> keys = {Key(100, {"pet"}, "Ana"), Key(200, {"pet"}, "Ben"), Key(50, {"pet"}, "Ana")};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{0, 1, 2}));
}

TEST(CurrentFirstTest, ClaimsOfOneSlotOrderByTimeWhateverTheyHold) {
  std::vector<CurrentFirstKey> keys = {Key(100, {"editor", "use"}, "user", "u|uses|editor"),
                                       Key(300, {}, "user", "u|uses|editor")};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, AnExtractedFactIsPassedOnlyByItsOwnSlot) {
  // "I work at Oracle" (a claim), later "I really wish I worked at Valve" (no fact read).
  std::vector<CurrentFirstKey> keys = {Key(100, {"work"}, "user", "u|employer|"), Key(200, {"work"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{0, 1}));
  // An event or a memory read as no fact is passed by a newer claim that answers as well.
  std::vector<CurrentFirstKey> memory_first = {Key(100, {"work"}), Key(200, {"work"}, "user", "u|employer|")};
  EXPECT_EQ(CurrentFirstOrder(memory_first, Q(2)), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, ACurrentClaimPassesTheEvidenceOfWhatItReplaced) {
  CurrentFirstKey old_event = Key(100, {"emma", "live", "sister"}, "user");
  old_event.event_id = "e1";
  CurrentFirstKey claim = Key(200, {"emma", "live"}, "user", "Emma|lives_in|");
  claim.replaced_events = {"e1"};
  EXPECT_EQ(CurrentFirstOrder({old_event, claim}, Q(2)), (std::vector<size_t>{1, 0}));
  claim.replaced_events = {"e7"};
  EXPECT_EQ(CurrentFirstOrder({old_event, claim}, Q(2)), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, MovesOnlyPastARunOfItemsItAnswersAsWell) {
  // The newest item passes the one right above it, not the better match above that.
  std::vector<CurrentFirstKey> keys = {Key(100, {"a", "b"}), Key(110, {"a"}), Key(300, {"a"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{0, 2, 1}));
}

TEST(CurrentFirstTest, ValuesOfAMultiValuedAttributeAreNotOneSlot) {
  // "周立喜欢中国菜和日本料理" then "周立喜欢拍摄风景": no conflict key, and the older holds the question.
  std::vector<CurrentFirstKey> keys = {Key(100, {"喜欢", "菜系"}), Key(200, {"喜欢"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, ItemsHoldingLessThanHalfTheQuestionAreNotPassed) {
  // "我喜欢哪些菜系？" (six terms): a newer "我喜欢…" holding two of them does not pass an older one.
  std::vector<CurrentFirstKey> keys = {Key(100, {"喜欢", "我喜"}), Key(200, {"喜欢", "我喜"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(6)), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(CurrentFirstOrder(keys, Q(4)), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, AnItemHoldingNoTermIsNotTheSameThing) {
  std::vector<CurrentFirstKey> keys = {Key(100, {}), Key(200, {"x"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{0, 1}));
}

CurrentFirstKey Change(TimestampMs at, std::vector<std::string> held, std::string slot = "") {
  CurrentFirstKey k = Key(at, std::move(held), "user", std::move(slot));
  k.read_stance = [] { return text::NowStance::kChange; };
  return k;
}

TEST(CurrentFirstTest, ANewerChangeWordedItsOwnWayPassesAnOlderStatement) {
  // "Where are our ML models hosted?": "Our ML models are hosted on AWS", later "Model hosting got
  // migrated over to GCP" (holds two of the three terms).
  std::vector<CurrentFirstKey> keys = {Key(100, {"host", "ml", "model"}), Change(200, {"host", "model"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(3)), (std::vector<size_t>{1, 0}));
  // The same words without a change ("Model hosting is on GCP too") keep their place.
  keys[1].read_stance = [] { return text::NowStance::kPlain; };
  keys[1].stance_.reset();  // read again
  EXPECT_EQ(CurrentFirstOrder(keys, Q(3)), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, ANewerWishOrQuestionPassesNothing) {
  // "Our nightly backups are stored on a NAS", later "I wish our nightly backups were stored
  // somewhere cheaper": the same terms, but a wish says nothing of how things stand.
  std::vector<CurrentFirstKey> keys = {Key(100, {"backup", "nightli", "store"}),
                                       Key(200, {"backup", "nightli", "store"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(3)), (std::vector<size_t>{1, 0}));
  keys[1].read_stance = [] { return text::NowStance::kNotNow; };
  keys[1].stance_.reset();  // read again
  EXPECT_EQ(CurrentFirstOrder(keys, Q(3)), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, AChangeMustStillAnswerTheQuestionAndShareATerm) {
  // Holding less than half of the question's terms: a change about something else.
  std::vector<CurrentFirstKey> few = {Key(100, {"a", "b", "c"}), Change(200, {"a"})};
  EXPECT_EQ(CurrentFirstOrder(few, Q(4)), (std::vector<size_t>{0, 1}));
  // Half of the terms, but none of those the older holds.
  std::vector<CurrentFirstKey> disjoint = {Key(100, {"a", "b"}), Change(200, {"c", "d"})};
  EXPECT_EQ(CurrentFirstOrder(disjoint, Q(4)), (std::vector<size_t>{0, 1}));
  // Nor does an older change pass a newer statement.
  std::vector<CurrentFirstKey> older_change = {Key(200, {"a", "b"}), Change(100, {"a", "b"})};
  EXPECT_EQ(CurrentFirstOrder(older_change, Q(2)), (std::vector<size_t>{0, 1}));
}

// A question of n content terms about `topics`.
QuestionTermCount OnTopics(size_t n, std::vector<std::string> topics) {
  QuestionTermCount q{n, n};
  q.topics = std::move(topics);
  return q;
}

CurrentFirstKey About(CurrentFirstKey k, std::vector<std::string> topics, std::vector<std::string> facts = {}) {
  k.read_topics = [topics] { return topics; };
  k.read_facts = [facts] { return facts; };
  return k;
}

TEST(CurrentFirstTest, AChangeOfTheQuestionsTopicPassesTheAnswerItSharesNoWordWith) {
  // "Who is my employer?" (employer, who): "My employer is Siemens, been there since 2019", later
  // "started at Bosch on monday, new badge and everything": no word of the question, none of the
  // older statement, but both are about work, and the newer states a change.
  std::vector<CurrentFirstKey> keys = {About(Key(100, {"employ"}), {"@", "work"}), About(Change(200, {}), {"@", "work"})};
  EXPECT_EQ(CurrentFirstOrder(keys, OnTopics(2, {"work"})), (std::vector<size_t>{1, 0}));
  // Not when the question asks about another topic, nor when the newer only says how it is.
  EXPECT_EQ(CurrentFirstOrder(keys, OnTopics(2, {"residence"})), (std::vector<size_t>{0, 1}));
  std::vector<CurrentFirstKey> plain = {About(Key(100, {"employ"}), {"work"}), About(Key(200, {}), {"work"})};
  EXPECT_EQ(CurrentFirstOrder(plain, OnTopics(2, {"work"})), (std::vector<size_t>{0, 1}));
  // Nor when the older does not answer the question by its terms (a topic alone is too little).
  std::vector<CurrentFirstKey> unanswered = {About(Key(100, {}), {"@", "work"}), About(Change(200, {}), {"@", "work"})};
  EXPECT_EQ(CurrentFirstOrder(unanswered, OnTopics(2, {"work"})), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, AChangeOfTheTopicAboutSomeoneElseOrAnotherSlotPassesNothing) {
  // "My brother quit his job and joined a bakery" is his change, not the speaker's.
  std::vector<CurrentFirstKey> brother = {About(Key(100, {"work"}), {"@", "work"}),
                                          About(Change(200, {}), {"@", "@brother", "work"})};
  EXPECT_EQ(CurrentFirstOrder(brother, OnTopics(1, {"work"})), (std::vector<size_t>{0, 1}));
  // Unless the question asks about him, or the older statement names him too.
  EXPECT_EQ(CurrentFirstOrder(brother, OnTopics(1, {"@brother", "work"})), (std::vector<size_t>{1, 0}));
  // Facts of other slots read from both: staging's version is not production's.
  std::vector<CurrentFirstKey> slots = {About(Key(100, {"version"}), {"@", "version"}, {"prod|version|"}),
                                        About(Change(200, {}), {"@", "version"}, {"staging|version|"})};
  EXPECT_EQ(CurrentFirstOrder(slots, OnTopics(1, {"version"})), (std::vector<size_t>{0, 1}));
  // Not the speaker's nor the same thing's: "Dana switched to green tea", "The office coffee
  // machine was replaced with an espresso bar" after "I drink oat-milk lattes every morning".
  std::vector<CurrentFirstKey> theirs = {About(Key(100, {"drink", "morn"}), {"@", "drink"}),
                                         About(Change(200, {}), {"drink"})};
  EXPECT_EQ(CurrentFirstOrder(theirs, OnTopics(2, {"drink"})), (std::vector<size_t>{0, 1}));
  // A thing's change without a first person passes when it names the thing the older names.
  std::vector<CurrentFirstKey> thing = {About(Key(100, {"product", "version"}), {"deployment", "version"}),
                                        About(Change(200, {"product"}), {"version"})};
  EXPECT_EQ(CurrentFirstOrder(thing, OnTopics(3, {"deployment", "version"})), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, AChangeOnTheQuestionsTopicNeedNotHoldHalfItsTerms) {
  // "Which React version does the web app use?" (react version web app use): "The web app is built
  // with React 17", later "React was upgraded to 18" (claim "React version 18": react, version).
  std::vector<CurrentFirstKey> keys = {Key(100, {"app", "react", "web"}), About(Change(200, {"react", "version"}), {"version"})};
  EXPECT_EQ(CurrentFirstOrder(keys, Q(5)), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(CurrentFirstOrder(keys, OnTopics(5, {"version"})), (std::vector<size_t>{1, 0}));
}

TEST(CurrentFirstTest, TopicsAndFactsAreReadOnlyWhenCompared) {
  int reads = 0;
  std::vector<CurrentFirstKey> keys = {Key(300, {"a"}), Key(200, {"a"})};
  for (CurrentFirstKey& k : keys) {
    k.read_topics = [&reads] { ++reads; return std::vector<std::string>{"work"}; };
    k.read_facts = [&reads] { ++reads; return std::vector<std::string>{}; };
  }
  EXPECT_EQ(CurrentFirstOrder(keys, OnTopics(1, {"work"})), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(reads, 0);
}

TEST(CurrentFirstTest, AStanceIsReadOnlyWhenAnOrderNeedsIt) {
  int reads = 0;
  std::vector<CurrentFirstKey> keys = {Key(300, {"a"}), Key(200, {"a"}), Key(100, {"a"})};
  for (CurrentFirstKey& k : keys) k.read_stance = [&reads] { ++reads; return text::NowStance::kChange; };
  // No item is newer than one above it, and none answers the question (an older answer may pass a
  // newer statement of nothing now, FactPassesNotNow, which reads the newer's stance).
  EXPECT_EQ(CurrentFirstOrder(keys, Q(3)), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(reads, 0);
  std::vector<CurrentFirstKey> rising = {Key(100, {"a"}), Key(200, {"a"})};
  for (CurrentFirstKey& k : rising) k.read_stance = [&reads] { ++reads; return text::NowStance::kPlain; };
  EXPECT_EQ(CurrentFirstOrder(rising, Q(1)), (std::vector<size_t>{1, 0}));
  EXPECT_EQ(reads, 1);
}

TEST(CurrentFirstTest, AChangeIsMeasuredOnTheQuestionsContentTerms) {
  // "我的健身房在哪？" (我的 的健 健身 身房 房在 在哪: two content terms): "我的健身房在公司楼下", later
  // "健身房换成小区里那家了", which holds only 健身 and 身房.
  CurrentFirstKey older = Key(100, {"健身", "我的", "房在", "的健", "身房"});
  older.content_held = 2;
  std::vector<CurrentFirstKey> keys = {older, Change(200, {"健身", "身房"})};
  EXPECT_EQ(CurrentFirstOrder(keys, QuestionTermCount{6, 2}), (std::vector<size_t>{1, 0}));
  // Counted on all six terms it would hold too few.
  EXPECT_EQ(CurrentFirstOrder(keys, QuestionTermCount{6, 6}), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, AChangePassesAnExtractedFactOnlyHoldingAllItHolds) {
  // "eu-west runs kubernetes 1.27" (a claim of the eu-west slot), later "We upgraded us-east to
  // kubernetes 1.29; eu-west is unchanged" (an event): it does not name the version of eu-west.
  std::vector<CurrentFirstKey> narrower = {Key(100, {"eu", "kubernetes", "version", "west"}, "user",
                                               "eu-west|version|"),
                                           Change(200, {"eu", "kubernetes", "west"})};
  EXPECT_EQ(CurrentFirstOrder(narrower, Q(4)), (std::vector<size_t>{0, 1}));
  std::vector<CurrentFirstKey> all = {Key(100, {"kubernetes", "version"}, "user", "k8s|version|"),
                                      Change(200, {"kubernetes", "version"})};
  EXPECT_EQ(CurrentFirstOrder(all, Q(2)), (std::vector<size_t>{1, 0}));
  // A change that is itself an extracted fact of another slot does not pass it.
  std::vector<CurrentFirstKey> other_slot = {Key(100, {"kubernetes", "version"}, "user", "k8s|version|"),
                                             Change(200, {"kubernetes", "version"}, "helm|version|")};
  EXPECT_EQ(CurrentFirstOrder(other_slot, Q(2)), (std::vector<size_t>{0, 1}));
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

namespace engram {
namespace {

// "老王现在开什么车？": "老王开的是一辆白色的帕萨特", later "老王把帕萨特卖了，换了辆比亚迪汉" — the
// newer change names 帕萨特, which the older said beyond the question's words.
TEST(CurrentFirstTest, AChangeNamingWhatTheOlderSaidPassesIt) {
  auto older = [] {
    CurrentFirstKey k = Key(100, {"老王"});
    k.terms.read = [] { return std::vector<std::string>{"帕萨", "老王", "萨特", "白色"}; };
    return k;
  };
  auto newer = [](text::NowStance stance, std::vector<std::string> changed) {
    CurrentFirstKey k = Key(200, {"老王"});
    k.read_stance = [stance] { return stance; };
    k.changed_terms.read = [changed] { return changed; };
    return k;
  };
  const QuestionTermCount q = Q(5);  // the older does not answer by the question's terms alone
  EXPECT_EQ(CurrentFirstOrder({older(), newer(text::NowStance::kChange, {"帕萨", "老王", "萨特", "比亚"})}, q),
            (std::vector<size_t>{1, 0}));
  // Naming only the question's words, saying no change, or said by someone else: no pass.
  EXPECT_EQ(CurrentFirstOrder({older(), newer(text::NowStance::kChange, {"老王", "比亚"})}, q), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(CurrentFirstOrder({older(), newer(text::NowStance::kPlain, {"帕萨", "萨特"})}, q), (std::vector<size_t>{0, 1}));
  CurrentFirstKey other = newer(text::NowStance::kChange, {"帕萨", "萨特"});
  other.speaker = "Mei";
  EXPECT_EQ(CurrentFirstOrder({older(), other}, q), (std::vector<size_t>{0, 1}));
  // An extracted fact is passed only by its own slot.
  CurrentFirstKey fact = older();
  fact.slot = "老王|owns|";
  EXPECT_EQ(CurrentFirstOrder({fact, newer(text::NowStance::kChange, {"帕萨", "萨特"})}, q), (std::vector<size_t>{0, 1}));
}

// "Where do I work now?": `employer Spotify` (a claim), later "Today was my first day at Stripe, I
// left Spotify last month" — its sentence of change names the fact's value, though it holds no
// term of the question. Naming the subject alone, or half of the value less, does not pass a fact.
TEST(CurrentFirstTest, AChangeNamingAFactsValuePassesIt) {
  auto fact = [](std::vector<std::string> value) {
    CurrentFirstKey k = Key(100, {"work"}, "user", "user|employer|");
    k.value_terms.read = [value] { return value; };
    return k;
  };
  auto newer = [](std::vector<std::string> changed) {
    CurrentFirstKey k = Key(200, {});
    k.read_stance = [] { return text::NowStance::kChange; };
    k.changed_terms.read = [changed] { return changed; };
    return k;
  };
  EXPECT_EQ(CurrentFirstOrder({fact({"spotify"}), newer({"day", "left", "spotify", "stripe"})}, Q(2)),
            (std::vector<size_t>{1, 0}));
  EXPECT_EQ(CurrentFirstOrder({fact({"spotify"}), newer({"day", "stripe"})}, Q(2)), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(CurrentFirstOrder({fact({"music", "spotify", "team", "recommend"}), newer({"spotify", "stripe"})}, Q(2)),
            (std::vector<size_t>{0, 1}));
  // Facts of another slot read from the newer: about something else.
  CurrentFirstKey other = newer({"left", "spotify"});
  other.read_facts = [] { return std::vector<std::string>{"user|lives_in|"}; };
  CurrentFirstKey held = fact({"spotify"});
  held.read_facts = [] { return std::vector<std::string>{"user|employer|"}; };
  EXPECT_EQ(CurrentFirstOrder({held, other}, Q(2)), (std::vector<size_t>{0, 1}));
}

// A stand-in for providers::WordKin::FindKin: kin when the older holds the first word of a pair and
// the newer the second.
QuestionTermCount WithKin(size_t n, std::vector<std::pair<std::string, std::string>> pairs) {
  QuestionTermCount q = Q(n);
  q.kin = [pairs](const std::vector<std::string>& older, const std::vector<std::string>& newer) {
    for (const auto& [a, b] : pairs) {
      if (std::count(older.begin(), older.end(), a) > 0 && std::count(newer.begin(), newer.end(), b) > 0) return true;
    }
    return false;
  };
  return q;
}

CurrentFirstKey WithKinWords(CurrentFirstKey k, std::vector<std::string> words, std::vector<std::string> facts = {},
                             std::vector<std::string> topics = {"@"}) {
  k.kin_words.read = [words] { return words; };
  k.read_facts = [facts] { return facts; };
  k.read_topics = [topics] { return topics; };
  return k;
}

TEST(CurrentFirstTest, ANewerStatementNamingAKinThingPassesTheOlderAnswer) {
  // "Which browser do I use?": "Chrome is my main browser", later "moved over to Firefox after the
  // adblock mess" (no word of the question).
  const QuestionTermCount q = WithKin(2, {{"chrome", "firefox"}});
  std::vector<CurrentFirstKey> keys = {WithKinWords(Key(100, {"browser"}), {"chrome", "main"}),
                                       WithKinWords(Change(200, {}), {"adblock", "firefox", "mess"})};
  EXPECT_EQ(CurrentFirstOrder(keys, q), (std::vector<size_t>{1, 0}));
  // A plain mention of a kin thing ("Firefox has a new logo, I read") says no change.
  std::vector<CurrentFirstKey> plain = {keys[0], WithKinWords(Key(200, {}), {"firefox", "logo"})};
  EXPECT_EQ(CurrentFirstOrder(plain, q), (std::vector<size_t>{0, 1}));
  // Without word vectors, or without a kin word, nothing moves.
  EXPECT_EQ(CurrentFirstOrder(keys, Q(2)), (std::vector<size_t>{0, 1}));
  std::vector<CurrentFirstKey> unrelated = {WithKinWords(Key(100, {"browser"}), {"chrome", "main"}),
                                            WithKinWords(Change(200, {}), {"adblock", "mess"})};
  EXPECT_EQ(CurrentFirstOrder(unrelated, q), (std::vector<size_t>{0, 1}));
  // Nor when the older does not answer the question, or the newer says nothing of now ("If I
  // could, I'd use Firefox").
  std::vector<CurrentFirstKey> unanswered = {WithKinWords(Key(100, {}), {"chrome"}),
                                             WithKinWords(Change(200, {}), {"firefox"})};
  EXPECT_EQ(CurrentFirstOrder(unanswered, q), (std::vector<size_t>{0, 1}));
  CurrentFirstKey wish = WithKinWords(Key(200, {}), {"firefox"});
  wish.read_stance = [] { return text::NowStance::kNotNow; };
  EXPECT_EQ(CurrentFirstOrder({keys[0], wish}, q), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, AKinThingOfSomeoneElsePassesNothing) {
  const QuestionTermCount q = WithKin(2, {{"leeds", "bristol"}});
  // "Where do I live?": "I live in Leeds", later "My sister lives in Bristol now": facts of two
  // subjects, and the newer names someone else.
  std::vector<CurrentFirstKey> sister = {
      WithKinWords(Key(100, {"live"}), {"leeds"}, {"user|lives_in|"}),
      WithKinWords(Change(200, {}), {"bristol", "sister"}, {"my sister|lives_in|"}, {"@", "@sister"})};
  EXPECT_EQ(CurrentFirstOrder(sister, q), (std::vector<size_t>{0, 1}));
  // Another speaker's statement is theirs.
  std::vector<CurrentFirstKey> other = {WithKinWords(Key(100, {"live"}), {"leeds"}),
                                        WithKinWords(Key(200, {}, "Ana"), {"bristol"})};
  EXPECT_EQ(CurrentFirstOrder(other, q), (std::vector<size_t>{0, 1}));
  // Facts of one subject, other attributes: "I work as a backend engineer at Shopify" (job), later
  // "joined Stripe" (employer) is the speaker's still.
  const QuestionTermCount work = WithKin(2, {{"shopify", "stripe"}});
  std::vector<CurrentFirstKey> job = {WithKinWords(Key(100, {"work"}), {"shopify"}, {"user|job|"}),
                                      WithKinWords(Change(200, {}), {"stripe"}, {"user|employer|"})};
  EXPECT_EQ(CurrentFirstOrder(job, work), (std::vector<size_t>{1, 0}));
  // "Sarah moved to Bristol last month" (Sarah's residence) after "I live in Leeds" (the user's).
  std::vector<CurrentFirstKey> sarah = {WithKinWords(Key(100, {"live"}), {"leeds"}, {"user|lives_in|"}),
                                        WithKinWords(Change(200, {}), {"bristol"}, {"sarah|lives_in|"})};
  EXPECT_EQ(CurrentFirstOrder(sarah, q), (std::vector<size_t>{0, 1}));
}

// A statement that says only how things are (RecallContext::says_only_what_is).
CurrentFirstKey SaysWhatIs(CurrentFirstKey k) {
  k.read_only_what_is = [] { return true; };
  return k;
}

TEST(CurrentFirstTest, APlainStatementNamingAKinThingPassesAFactOfWhomItSpeaks) {
  // "Where does Priya live?": `Priya lives_in Toronto`, later "Priya called last night. She's loving
  // Vancouver so far" (no word of change, no fact read).
  QuestionTermCount q = WithKin(2, {{"toronto", "vancouver"}});
  q.named = {"priya"};
  const CurrentFirstKey fact = WithKinWords(Key(100, {"live", "priya"}, "user", "Priya|lives_in|"), {"toronto"},
                                            {"Priya|lives_in|"}, {"@priya"});
  const CurrentFirstKey later = SaysWhatIs(WithKinWords(Key(200, {"priya"}), {"vancouver"}, {}, {"@priya"}));
  EXPECT_EQ(CurrentFirstOrder({fact, later}, q), (std::vector<size_t>{1, 0}));
  // A text remembered whole is a fact as well; a chat turn from which no fact was read is not.
  CurrentFirstKey memory = WithKinWords(Key(100, {"live", "priya"}), {"toronto"}, {}, {"@priya"});
  EXPECT_EQ(CurrentFirstOrder({memory, later}, q), (std::vector<size_t>{0, 1}));
  memory.kept_whole = true;
  EXPECT_EQ(CurrentFirstOrder({memory, later}, q), (std::vector<size_t>{1, 0}));
  // Not when a sentence of it asks, supposes, plans or reports ("Would Priya like Vancouver?").
  CurrentFirstKey asks = later;
  asks.read_only_what_is = [] { return false; };
  asks.only_what_is_.reset();
  EXPECT_EQ(CurrentFirstOrder({fact, asks}, q), (std::vector<size_t>{0, 1}));
  // Nor when it is not said of whom the fact is: "Vancouver is lovely in May" holds no name of the
  // question and does not speak of the speaker.
  const CurrentFirstKey nobodys = SaysWhatIs(WithKinWords(Key(200, {}), {"vancouver"}, {}, {}));
  EXPECT_EQ(CurrentFirstOrder({fact, nobodys}, q), (std::vector<size_t>{0, 1}));
}

TEST(CurrentFirstTest, AnEventAFactWasReadFromPassesALaterStatementOfNothingNow) {
  // "What does our backend run on?": the event "Our backend runs on Django 4.2" (a version fact was
  // read from it), later "Our CTO says the backend should run on FastAPI" (a report) ranked first.
  CurrentFirstKey report = Key(200, {"backend", "run"});
  report.read_stance = [] { return text::NowStance::kNotNow; };
  CurrentFirstKey event = About(Key(100, {"backend", "run"}), {}, {"Django|version|"});
  EXPECT_EQ(CurrentFirstOrder({report, event}, Q(2)), (std::vector<size_t>{1, 0}));
  // A chat turn no fact was read from does not, nor does an event pass a newer claim of a slot.
  EXPECT_EQ(CurrentFirstOrder({report, About(Key(100, {"backend", "run"}), {})}, Q(2)), (std::vector<size_t>{0, 1}));
  CurrentFirstKey claim = Key(200, {"backend", "run"}, "user", "backend|runs_on|");
  claim.read_stance = [] { return text::NowStance::kNotNow; };
  EXPECT_EQ(CurrentFirstOrder({claim, event}, Q(2)), (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace engram
