// The dense recall channel through the Engine: vectors stored with their model id, a model change
// (B45) turning the channel off with a message while full text keeps working, reindex turning it
// back on, and forgotten events never coming back from the in-memory matrix.
#include "recall/dense_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engram/engine.h"
#include "providers/word_vectors.h"
#include "store/sqlite/database.h"
#include "store/sqlite/vector_store.h"
#include "test_util.h"

namespace engram {
namespace {

using test::TempDir;

EventInput Turn(const std::string& content, const std::string& ts, const std::string& ns = "u1") {
  EventInput e;
  e.namespace_name = ns;
  e.session_id = "s1";
  e.role = "user";
  e.speaker = "Mia";
  e.content = content;
  e.occurred_at = ts;
  return e;
}

const std::vector<EventInput>& Corpus() {
  static const std::vector<EventInput> corpus = {
      Turn("I adore photography and old cameras", "2024-01-01T10:00:00Z"),
      Turn("We cooked pasta with tomato sauce", "2024-01-01T10:01:00Z"),
      Turn("The train to Berlin was late again", "2024-01-01T10:02:00Z"),
      Turn("My sister plays the violin", "2024-01-01T10:03:00Z"),
  };
  return corpus;
}

std::unique_ptr<Engine> OpenWith(const TempDir& dir, const std::string& embedder, const std::string& model = "") {
  Options options;
  options.db_path = dir.File("m.db");
  options.extractor = "none";
  options.embedder = embedder;
  options.embedder_model = model;
  auto engine = Engine::Open(options);
  EXPECT_TRUE(engine.has_value()) << engine.error().ToString();
  return engine ? std::move(*engine) : nullptr;
}

RecallQuery Query(const std::string& text) {
  RecallQuery q;
  q.text = text;
  q.namespace_name = "u1";
  q.limit = 10;
  q.include_claims = false;
  return q;
}

bool HasChannel(const RecallItem& item, const std::string& channel) {
  return std::any_of(item.channels.begin(), item.channels.end(),
                     [&](const ChannelScore& c) { return c.channel == channel; });
}

std::vector<sqlite::VectorModelUsage> Models(const TempDir& dir) {
  Options options;
  options.db_path = dir.File("m.db");
  auto db = sqlite::Database::Open(options);
  EXPECT_TRUE(db.has_value());
  sqlite::VectorStore store(**db);
  auto models = store.ModelsInUse(1);
  EXPECT_TRUE(models.has_value());
  return models ? *models : std::vector<sqlite::VectorModelUsage>{};
}

const char* const kTinyWords[] = {"i",     "adore",  "photography", "and",    "old",         "cameras",
                                  "we",    "cooked", "pasta",       "train",  "berlin",      "sister",
                                  "violin", "mia",   "photographs", "camera"};

// A 3-dimensional word-vector file with the corpus's words (a stand-in for the GloVe file).
std::string TinyGlove(const TempDir& dir) {
  std::vector<providers::WordVectorEntry> entries;
  uint32_t rank = 0;
  for (const char* w : kTinyWords) {
    float x = static_cast<float>(rank % 3), y = static_cast<float>((rank + 1) % 3);
    entries.push_back({w, rank++, {x + 0.5f, y + 0.25f, 1.0f}});
  }
  const std::string path = dir.File("tiny.ewv");
  EXPECT_OK(providers::WriteWordVectors(path, "glove-tiny-3d", 3, providers::WordVectorType::kFloat32,
                                        std::move(entries)));
  return path;
}

TEST(DenseIndexTest, VectorsAreStoredWithModelIdAndTheDenseChannelFindsWhatFullTextMisses) {
  TempDir dir;
  auto engine = OpenWith(dir, "hash");
  ASSERT_NE(engine, nullptr);
  ASSERT_OK(engine->IngestBatch(Corpus()));
  // "photographs" stems to "photograph", which the event's "photography" does not match; the
  // character n-grams do.
  ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(Query("photographs")));
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_FALSE(r.items.empty());
  EXPECT_EQ(r.items[0].text, "I adore photography and old cameras");
  EXPECT_TRUE(HasChannel(r.items[0], "dense"));
  EXPECT_FALSE(HasChannel(r.items[0], "turn"));

  auto models = Models(dir);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].model_id, "hash-ngram-256/1");
  EXPECT_EQ(models[0].dim, 256);
  EXPECT_EQ(models[0].events, 4);

  // Without an embedder the same query finds nothing and nothing is embedded.
  engine.reset();
  auto plain = OpenWith(dir, "none");
  ASSERT_OK_AND_ASSIGN(RecallResult none, plain->Recall(Query("photographs")));
  EXPECT_TRUE(none.items.empty());
  EXPECT_TRUE(none.warnings.empty());
}

TEST(DenseIndexTest, B45ModelChangeDisablesTheDenseChannelWithAMessageUntilReindex) {
  TempDir dir;
  const std::string glove = TinyGlove(dir);
  {
    auto engine = OpenWith(dir, "glove", glove);
    ASSERT_NE(engine, nullptr);
    ASSERT_OK(engine->IngestBatch(Corpus()));
    ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(Query("violin")));
    EXPECT_TRUE(r.warnings.empty());
    auto models = Models(dir);
    ASSERT_EQ(models.size(), 1u);
    EXPECT_EQ(models[0].model_id, "glove-tiny-3d-sif/1");
    EXPECT_EQ(models[0].dim, 3);
  }
  // Restart with another model (256 dimensions): the channel is off, full text still answers.
  auto engine = OpenWith(dir, "hash");
  ASSERT_NE(engine, nullptr);
  ASSERT_OK(engine->Ingest(Turn("The violin lesson moved to Friday", "2024-01-02T10:00:00Z")));
  ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(Query("violin")));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("glove-tiny-3d-sif/1"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("hash-ngram-256/1"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("engram reindex"), std::string::npos) << r.warnings[0];
  ASSERT_EQ(r.items.size(), 2u);
  for (const RecallItem& item : r.items) EXPECT_FALSE(HasChannel(item, "dense"));
  // Nothing was embedded with the new model next to the old one.
  ASSERT_EQ(Models(dir).size(), 1u);

  ASSERT_OK_AND_ASSIGN(int64_t embedded, engine->Reindex("u1"));
  EXPECT_EQ(embedded, 5);
  auto models = Models(dir);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].model_id, "hash-ngram-256/1");
  EXPECT_EQ(models[0].events, 5);
  ASSERT_OK_AND_ASSIGN(RecallResult after, engine->Recall(Query("violin")));
  EXPECT_TRUE(after.warnings.empty());
  ASSERT_FALSE(after.items.empty());
  EXPECT_TRUE(HasChannel(after.items[0], "dense"));

  EXPECT_EQ(engine->Reindex("nope").error().code(), StatusCode::kNotFound);
  auto plain = OpenWith(dir, "none");
  EXPECT_EQ(plain->Reindex("u1").error().code(), StatusCode::kInvalidArgument);
}

TEST(DenseIndexTest, SifFitIsStoredAndReusedAcrossProcesses) {
  TempDir dir;
  const std::string glove = TinyGlove(dir);
  std::vector<std::string> first;
  {
    auto engine = OpenWith(dir, "glove", glove);
    ASSERT_OK(engine->IngestBatch(Corpus()));
    ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(Query("camera photographs")));
    for (const RecallItem& item : r.items) first.push_back(item.id);
  }
  auto engine = OpenWith(dir, "glove", glove);
  ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(Query("camera photographs")));
  std::vector<std::string> second;
  for (const RecallItem& item : r.items) second.push_back(item.id);
  EXPECT_EQ(first, second);
  EXPECT_FALSE(first.empty());
}

TEST(DenseIndexTest, MissingGloveFileKeepsFullTextAndSaysWhy) {
  TempDir dir;
  auto engine = OpenWith(dir, "glove", dir.File("missing.ewv"));
  ASSERT_NE(engine, nullptr);
  ASSERT_OK(engine->IngestBatch(Corpus()));
  ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(Query("violin")));
  ASSERT_EQ(r.items.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("engram models install glove"), std::string::npos) << r.warnings[0];
  Options bad;
  bad.db_path = dir.File("m.db");
  bad.embedder = "word2vec";
  EXPECT_EQ(Engine::Open(bad).error().code(), StatusCode::kInvalidArgument);
}

TEST(DenseIndexTest, ForgottenEventsAreNeverReturnedAndNewEventsJoinTheMatrix) {
  TempDir dir;
  auto engine = OpenWith(dir, "hash");
  ASSERT_OK_AND_ASSIGN(auto stored, engine->IngestBatch(Corpus()));
  ASSERT_OK_AND_ASSIGN(RecallResult before, engine->Recall(Query("photographs")));
  ASSERT_FALSE(before.items.empty());
  const std::string photo_id = stored[0].event.id;
  EXPECT_EQ(before.items[0].id, photo_id);

  ForgetRequest forget;
  forget.ids = {photo_id};
  forget.namespace_name = stored[0].event.namespace_name;
  ASSERT_OK(engine->Forget(forget));
  ASSERT_OK_AND_ASSIGN(RecallResult after, engine->Recall(Query("photographs")));
  for (const RecallItem& item : after.items) EXPECT_NE(item.id, photo_id);

  ASSERT_OK_AND_ASSIGN(IngestResult added,
                       engine->Ingest(Turn("Photographing birds at dawn", "2024-01-03T10:00:00Z")));
  ASSERT_OK_AND_ASSIGN(RecallResult again, engine->Recall(Query("photographs")));
  ASSERT_FALSE(again.items.empty());
  EXPECT_EQ(again.items[0].id, added.event.id);
  for (const RecallItem& item : again.items) EXPECT_NE(item.id, photo_id);
}

// The stored SIF fit of namespace 1 under the tiny model: {"through_seq", "generation", "component"}.
nlohmann::json StoredFit(const TempDir& dir) {
  Options options;
  options.db_path = dir.File("m.db");
  auto db = sqlite::Database::Open(options);
  EXPECT_TRUE(db.has_value());
  if (!db) return {};
  auto st = (*db)->Cached("SELECT value FROM meta WHERE key = 'dense_fit/1/glove-tiny-3d-sif/1'");
  EXPECT_TRUE(st.has_value());
  auto row = (*st)->Step();
  EXPECT_TRUE(row.has_value() && *row) << "no stored fit";
  return row && *row ? nlohmann::json::parse((*st)->Text(0)) : nlohmann::json{};
}

TEST(DenseIndexTest, AFitMadeOnTheFirstEventsIsMadeAgainAsTheNamespaceDoubles) {
  TempDir dir;
  const std::string glove = TinyGlove(dir);
  auto engine = OpenWith(dir, "glove", glove);
  int minute = 0;
  auto add = [&](int n) {
    for (int i = 0; i < n; ++i, ++minute) {
      const std::string text = i % 2 == 0 ? "We cooked pasta" : "My sister plays the violin";
      auto added = engine->Ingest(Turn(text, fmt::format("2024-01-01T{:02d}:{:02d}:00Z", minute / 60, minute % 60)));
      ASSERT_TRUE(added.has_value()) << added.error().ToString();
    }
  };
  add(2);
  ASSERT_OK_AND_ASSIGN(RecallResult r1, engine->Recall(Query("violin")));
  nlohmann::json fit = StoredFit(dir);
  EXPECT_EQ(fit["through_seq"], 2);
  EXPECT_EQ(fit["generation"], 1);
  // Two texts are no corpus: no principal component is removed, and the cosines, all near the
  // common direction's, find nothing that full text did not.
  EXPECT_TRUE(fit["component"].empty());
  ASSERT_OK_AND_ASSIGN(RecallResult unrelated, engine->Recall(Query("photographs camera")));
  EXPECT_TRUE(unrelated.items.empty());
  EXPECT_EQ(unrelated.answerability, "no_evidence");

  add(1);  // 3 events: not yet twice the 2 of the fit
  ASSERT_OK_AND_ASSIGN(RecallResult r2, engine->Recall(Query("violin")));
  EXPECT_EQ(StoredFit(dir)["generation"], 1);

  add(1);  // 4 events: fitted again on all of them, every event re-embedded
  ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(Query("violin")));
  fit = StoredFit(dir);
  EXPECT_EQ(fit["through_seq"], 4);
  EXPECT_EQ(fit["generation"], 2);
  ASSERT_FALSE(r.items.empty());
  EXPECT_TRUE(HasChannel(r.items[0], "dense"));
  EXPECT_EQ(Models(dir).at(0).events, 4);

  add(60);  // 64 events: a corpus large enough for the principal component
  ASSERT_OK_AND_ASSIGN(RecallResult r3, engine->Recall(Query("violin")));
  fit = StoredFit(dir);
  EXPECT_EQ(fit["through_seq"], 64);
  EXPECT_EQ(fit["component"].size(), 3u);
  EXPECT_EQ(Models(dir).at(0).events, 64);
  // With its component the channel finds events full text misses again.
  ASSERT_OK_AND_ASSIGN(RecallResult found, engine->Recall(Query("photographs camera")));
  ASSERT_FALSE(found.items.empty());
  EXPECT_TRUE(HasChannel(found.items[0], "dense"));
}

// n events of 2–6 random words of the tiny model, numbered from `from` (one a minute).
std::vector<EventInput> Events(int from, int n, std::mt19937& rng) {
  std::vector<EventInput> out;
  for (int i = from; i < from + n; ++i) {
    std::string text;
    for (int j = 0, words = 2 + static_cast<int>(rng() % 5); j < words; ++j) {
      text += kTinyWords[rng() % std::size(kTinyWords)];
      text += ' ';
    }
    EventInput e;
    e.namespace_name = "u1";
    e.session_id = "s1";
    e.role = "user";
    e.content = text + fmt::format("x{}", i);
    e.occurred_at = fmt::format("2024-01-{:02d}T{:02d}:{:02d}:00Z", 1 + i / 1440, (i / 60) % 24, i % 60);
    out.push_back(std::move(e));
  }
  return out;
}

// The stored fit and every event vector of the file, by seq.
std::pair<std::string, std::map<int64_t, std::string>> Stored(const std::string& db) {
  Options options;
  options.db_path = db;
  auto d = sqlite::Database::Open(options);
  EXPECT_TRUE(d.has_value());
  std::pair<std::string, std::map<int64_t, std::string>> out;
  if (!d) return out;
  auto fit = (*d)->Cached("SELECT value FROM meta WHERE key LIKE 'dense_fit/%'");
  if (fit && (*fit)->Step().value_or(false)) out.first = (*fit)->Text(0);
  auto rows = (*d)->Cached("SELECT owner_seq, vector FROM vectors WHERE owner_type = 'event'");
  while (rows && (*rows)->Step().value_or(false)) out.second[(*rows)->Int(0)] = std::string((*rows)->Blob(1));
  return out;
}

// Copies the file, re-embeds every event of the copy under its stored fit and counts the vectors
// of the original that differ.
int VectorsOfAnotherFit(const TempDir& dir, const std::string& glove) {
  const auto original = Stored(dir.File("m.db"));
  std::filesystem::create_directories(dir.File("copy"));
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::error_code ec;
    std::filesystem::copy_file(dir.File(std::string("m.db") + suffix), dir.File(std::string("copy/m.db") + suffix),
                               std::filesystem::copy_options::overwrite_existing, ec);
  }
  {
    Options options;
    options.db_path = dir.File("copy/m.db");
    auto d = sqlite::Database::Open(options);
    EXPECT_TRUE(d.has_value());
    if (d) {
      EXPECT_OK((*d)->Exec("DELETE FROM vectors"));
    }
  }
  {
    Options options;
    options.db_path = dir.File("copy/m.db");
    options.extractor = "none";
    options.embedder = "glove";
    options.embedder_model = glove;
    auto engine = Engine::Open(options);
    EXPECT_TRUE(engine.has_value());
    if (engine) {
      EXPECT_TRUE((*engine)->Recall(Query("violin")).has_value());
    }
  }
  const auto again = Stored(dir.File("copy/m.db"));
  EXPECT_EQ(original.first, again.first) << "re-embedding the copy fitted it again";
  int differ = original.second.size() == again.second.size() ? 0 : 1;
  for (const auto& [seq, vector] : again.second) {
    auto it = original.second.find(seq);
    if (it == original.second.end() || it->second != vector) ++differ;
  }
  return differ;
}

// Two engines on one file refitting at the same doubling: the vectors stored at the end must all
// be those of the stored fit. Before the fit was stored by compare-and-swap and CatchUp checked it
// before each write, 4 of 10 such runs left vectors of another fit (up to every one of 20,151)
// under the stored one. A race: a pass is evidence, not proof; a failure is a real mix.
TEST(DenseIndexTest, TwoWritersRefittingAtOnceLeaveOnlyTheStoredFitsVectors) {
  for (int trial = 0; trial < 4; ++trial) {
    TempDir dir;
    const std::string glove = TinyGlove(dir);
    std::mt19937 rng(static_cast<unsigned>(trial));
    auto a = OpenWith(dir, "glove", glove);
    auto b = OpenWith(dir, "glove", glove);
    ASSERT_OK(a->IngestBatch(Events(0, 10000, rng)));
    ASSERT_TRUE(a->Recall(Query("violin")).has_value());  // the fit of 10,000 events
    ASSERT_TRUE(b->Recall(Query("violin")).has_value());
    ASSERT_OK(a->IngestBatch(Events(10000, 10000, rng)));  // both now refit on their next recall
    const std::vector<EventInput> more = Events(20000, 300, rng);
    std::atomic<int> ready{0};
    auto start_together = [&] {
      ++ready;
      while (ready.load() < 2) {
      }
    };
    std::thread recaller([&] {
      start_together();
      auto r = a->Recall(Query("pasta"));
      EXPECT_TRUE(r.has_value()) << r.error().ToString();
    });
    std::thread writer([&] {
      start_together();
      for (size_t i = 0; i < more.size(); ++i) {
        EXPECT_TRUE(b->Ingest(more[i]).has_value());
        if (i == more.size() / 2) {
          EXPECT_TRUE(b->Recall(Query("berlin")).has_value());
        }
      }
      EXPECT_TRUE(b->Recall(Query("violin")).has_value());
    });
    recaller.join();
    writer.join();
    a.reset();
    b.reset();
    EXPECT_EQ(VectorsOfAnotherFit(dir, glove), 0) << "trial " << trial;
  }
}

}  // namespace
}  // namespace engram
