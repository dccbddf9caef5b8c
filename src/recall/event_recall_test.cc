// Recall's pruned matching (ExhaustiveMatchRows, PendingMatches): with most matching rows left
// unread, recall must return exactly what the exhaustive path returns — same items, same order,
// same fused scores — whatever the query: a frequent term that matches most events, rare terms,
// ties (identical turns in different sessions), Chinese, another namespace sharing the words,
// session and time filters, a named day, the claims channel with its stand-in filter, a limit
// above the candidates, feedback ratings, and the speaker channel's per-row bound (speakers whose
// names are also ordinary words or stopwords, a two-word name, a Chinese name, two speakers).
#include "recall/event_recall.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engram/engine.h"
#include "recall/turn_scorer.h"
#include "test_util.h"
#include "util/time.h"

namespace engram {
namespace {

using test::TempDir;

// Restores the default threshold when a test ends.
class ExhaustiveRows {
 public:
  ExhaustiveRows() : saved_(ExhaustiveMatchRows()) {}
  ~ExhaustiveRows() { SetExhaustiveMatchRowsForTesting(saved_); }

 private:
  size_t saved_;
};

// A deterministic corpus: two namespaces, 16 sessions each of 10–24 turns (more events than a
// named range lists: "in January 2024" is a broad range); "coffee" in about two turns of three,
// rare names and places, a Chinese session, and repeated turns (ties). Speakers:
// Mia, Noah and Ava, and in a few sessions "Mary Ann" (two words), "Will" (a stopword), "Tea"
// (a word of the content), "Paris Kyoto" (two content words) and "小明" (Chinese).
std::vector<EventInput> Corpus() {
  static const char* kFiller[] = {"coffee", "tea", "walk", "garden", "music", "coffee", "book"};
  static const char* kRare[] = {"Paris", "violin", "marathon", "Kyoto", "sailing", "Lisbon"};
  std::vector<EventInput> out;
  uint32_t state = 12345;
  auto next = [&]() {
    state = state * 1103515245u + 12345u;
    return (state >> 16) & 0x7fff;
  };
  for (const char* ns : {"u1", "u2"}) {
    for (int s = 0; s < 16; ++s) {
      const int turns = 10 + static_cast<int>(next() % 15);
      for (int t = 0; t < turns; ++t) {
        EventInput e;
        e.namespace_name = ns;
        e.session_id = "s" + std::to_string(s);
        e.role = t % 2 == 0 ? "user" : "assistant";
        e.speaker = t % 2 == 0 ? (s % 3 == 0 ? "Mia" : "Noah") : "Ava";
        if (t % 2 == 0 && (s == 1 || s == 8)) e.speaker = "Mary Ann";
        if (t % 2 == 0 && s == 7) e.speaker = "Will";
        if (t % 2 == 0 && s == 5) e.speaker = "小明";
        if (t % 2 == 1 && s == 10) e.speaker = "Tea";
        if (t % 2 == 1 && s == 4) e.speaker = "Paris Kyoto";
        e.occurred_at = fmt::format("2024-01-{:02d}T10:{:02d}:00Z", 1 + s, t);
        std::string text;
        if (s == 5) {
          static const char* kZh[] = {"我喜欢喝咖啡", "我们在北京喝咖啡", "咖啡很好喝",
                                      "明天去上海"};
          text = kZh[next() % 4];
        } else if (t % 7 == 3) {
          text = "I had coffee with my friend.";  // the same turn in many sessions: ties
        } else {
          const int words = 2 + static_cast<int>(next() % 6);
          for (int w = 0; w < words; ++w) {
            if (!text.empty()) text += ' ';
            text += next() % 9 == 0 ? kRare[next() % 6] : kFiller[next() % 7];
          }
          if (next() % 4 != 0) text = "I like coffee and " + text;
          // A move that a later session's replaces: the earlier evidence turns stale (the hit
          // filter refuses it).
          if (next() % 5 == 0) text += s < 6 ? ". I moved to Paris last week." : ". I moved to Lisbon last week.";
        }
        e.content = text;
        out.push_back(std::move(e));
      }
    }
  }
  return out;
}

struct Run {
  std::vector<std::string> ids;
  std::vector<double> scores;
  int64_t matched = 0;
  int64_t read = -1;  // -1: the exhaustive path ran
};

Run Ask(Engine& engine, const RecallQuery& q) {
  auto r = engine.Recall(q);
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  Run out;
  if (!r) return out;
  for (const RecallItem& item : r->items) {
    out.ids.push_back(item.id);
    out.scores.push_back(item.score);
  }
  for (const RecallStage& s : r->stages) {
    if (s.name == "matched") out.matched = s.count;
    if (s.name == "read") out.read = s.count;
  }
  return out;
}

std::vector<RecallQuery> Queries() {
  std::vector<RecallQuery> out;
  auto add = [&](const std::string& text, int limit, bool claims) {
    RecallQuery q;
    q.text = text;
    q.namespace_name = "u1";
    q.limit = limit;
    q.include_claims = claims;
    q.now = *ParseTimestamp("2024-02-01T00:00:00Z");
    out.push_back(q);
    return &out.back();
  };
  for (bool claims : {false, true}) {
    for (int limit : {1, 3, 10, 40, 1000}) {
      add("coffee", limit, claims);                          // the frequent term alone: ties
      add("Did Mia drink coffee in Paris?", limit, claims);  // rare + frequent + a speaker
      add("coffee tea walk garden", limit, claims);          // frequent terms only
      add("violin marathon coffee", limit, claims);
      add("咖啡 北京", limit, claims);                                       // Chinese
      add("What did Noah say about coffee on January 3rd?", limit, claims);  // a named day
      // Two speakers: the one named first scores 1, the others less (a read row of an earlier
      // named speaker demotes the candidates already ranked).
      add("What did Ava tell Mia about coffee?", limit, claims);
      add("What did Mia tell Noah and Ava about coffee and tea?", limit, claims);
      // Speaker names that are words of the content, a stopword, two words, Chinese; a name
      // given in part only (not named).
      add("What did Tea say about coffee?", limit, claims);
      add("Did Will drink coffee with Noah?", limit, claims);
      add("What did Mary Ann tell Mia about coffee in Paris?", limit, claims);
      add("What did Ann say about coffee?", limit, claims);
      add("Was Kyoto mentioned with Paris and coffee?", limit, claims);
      add("小明 喜欢 咖啡", limit, claims);
      add("What did Ava tell Tea and Mary Ann about tea and coffee?", limit, claims);
      // A range too broad to list its events (a pending row may score in the date channel).
      add("What did Noah say about coffee in January 2024?", limit, claims);
      add("Where did Noah move, Paris or Lisbon?", limit, claims);  // stale evidence
    }
  }
  RecallQuery* q = add("coffee friend", 10, false);
  q->session_id = "s4";
  q = add("coffee music", 10, false);
  q->since = *ParseTimestamp("2024-01-03T00:00:00Z");
  q->until = *ParseTimestamp("2024-01-07T00:00:00Z");
  return out;
}

std::unique_ptr<Engine> OpenFilled(const TempDir& dir, const std::string& embedder = "none",
                                   double dense_weight = RecallWeights{}.dense,
                                   double window_weight = RecallWeights{}.window) {
  Options options;
  options.db_path = dir.File("m.db");
  options.embedder = embedder;
  options.recall.window_pool = 4;  // a small pool: most matching rows are outside it
  options.recall.dense = dense_weight;
  options.recall.window = window_weight;
  auto engine = Engine::Open(options);
  EXPECT_TRUE(engine.has_value()) << engine.error().ToString();
  if (!engine) return nullptr;
  auto ingested = (*engine)->IngestBatch(Corpus());
  EXPECT_TRUE(ingested.has_value()) << ingested.error().ToString();
  auto processed = (*engine)->Process(true);
  EXPECT_TRUE(processed.has_value()) << processed.error().ToString();
  return std::move(*engine);
}

void ExpectSameAsExhaustive(Engine& engine, bool expect_pruning) {
  bool pruned_somewhere = false;
  for (const RecallQuery& q : Queries()) {
    SetExhaustiveMatchRowsForTesting(1000000);
    const Run full = Ask(engine, q);
    EXPECT_EQ(full.read, -1) << q.text;
    for (size_t rows : {1, 2, 7, 30}) {
      SetExhaustiveMatchRowsForTesting(rows);
      const Run pruned = Ask(engine, q);
      SCOPED_TRACE(q.text + " limit " + std::to_string(q.limit) + " claims " +
                   std::to_string(q.include_claims) + " exhaustive rows " + std::to_string(rows));
      EXPECT_EQ(pruned.ids, full.ids);
      ASSERT_EQ(pruned.scores.size(), full.scores.size());
      for (size_t i = 0; i < full.scores.size(); ++i)
        EXPECT_EQ(pruned.scores[i], full.scores[i]) << i;
      if (pruned.read >= 0 && pruned.read < pruned.matched) pruned_somewhere = true;
    }
  }
  EXPECT_EQ(pruned_somewhere, expect_pruning);
}

TEST(PrunedMatchTest, SameItemsAndScoresAsExhaustive) {
  ExhaustiveRows restore;
  TempDir dir;
  auto engine = OpenFilled(dir);
  ASSERT_NE(engine, nullptr);
  ExpectSameAsExhaustive(*engine, /*expect_pruning=*/true);
}

TEST(PrunedMatchTest, UnreadRowsThatCanStillBeKeptAreRead) {
  // A heavy dense channel (character n-gram hashing vectors) and no window channel lift rows far
  // below the pool in turn score above the last kept item: the fused-score bound must send the
  // pruned path back for them.
  ExhaustiveRows restore;
  TempDir dir;
  auto engine = OpenFilled(dir, "hash", /*dense_weight=*/3.0, /*window_weight=*/0.0);
  ASSERT_NE(engine, nullptr);
  ExpectSameAsExhaustive(*engine, /*expect_pruning=*/true);
}

TEST(PrunedMatchTest, FeedbackRatingsReadEveryRowAndStayExact) {
  ExhaustiveRows restore;
  TempDir dir;
  auto engine = OpenFilled(dir);
  ASSERT_NE(engine, nullptr);
  // Rate an item of a frequent-term query unhelpful: a negative utility moves the feedback
  // channel's scale, so the pruned path reads every pending row.
  RecallQuery q;
  q.text = "coffee";
  q.namespace_name = "u1";
  q.include_claims = false;
  auto r = engine->Recall(q);
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  ASSERT_FALSE(r->items.empty());
  FeedbackInput f;
  f.feedback_id = r->items.back().feedback_id;
  f.helpful = false;
  f.namespace_name = q.namespace_name;  // required (B27)
  ASSERT_TRUE(engine->Feedback(f).has_value());
  ExpectSameAsExhaustive(*engine, /*expect_pruning=*/false);
}

// The window channel reads a small session's whole layout and a larger one around each centre
// (WholeSessionEvents); both must give every candidate the same window. With every session read
// around its centres (0), and with the corpus' sessions of 10–24 turns split between the two ways
// (15), recall returns the items and scores of the default, on the exhaustive and pruned paths.
TEST(WindowLayoutTest, SameItemsAndScoresWhetherSessionsAreReadWholeOrAroundEachCentre) {
  ExhaustiveRows restore;
  const int saved = WholeSessionEvents();
  TempDir dir;
  auto engine = OpenFilled(dir);
  ASSERT_NE(engine, nullptr);
  for (size_t rows : {size_t{1000000}, size_t{7}}) {
    SetExhaustiveMatchRowsForTesting(rows);
    for (const RecallQuery& q : Queries()) {
      SetWholeSessionEventsForTesting(saved);
      const ::engram::Run whole = Ask(*engine, q);
      for (int events : {0, 15}) {
        SetWholeSessionEventsForTesting(events);
        const ::engram::Run around = Ask(*engine, q);
        SCOPED_TRACE(q.text + " rows " + std::to_string(rows) + " whole-session events " + std::to_string(events));
        EXPECT_EQ(around.ids, whole.ids);
        EXPECT_EQ(around.scores, whole.scores);
      }
    }
  }
  SetWholeSessionEventsForTesting(saved);
}

}  // namespace
}  // namespace engram
