#include "store/sqlite/vector_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace engram::sqlite {
namespace {

using Hits = std::vector<std::pair<int64_t, float>>;

class VectorStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.db_path = ":memory:";
    auto db = Database::Open(options);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_ = std::move(*db);
    ASSERT_TRUE(db_->Exec("CREATE TABLE namespaces (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                          " created_at INTEGER NOT NULL) STRICT;"
                          "INSERT INTO namespaces VALUES (1, 'a', 0), (2, 'b', 0);")
                    .ok());
    Status st = db_->Exec(VectorStore::kVectorSchemaSql);
    ASSERT_TRUE(st.ok()) << st.ToString();
    store_ = std::make_unique<VectorStore>(*db_);
  }

  void Put(VectorOwner owner, int64_t seq, int64_t ns, const std::string& model,
           std::vector<float> v) {
    Status st = store_->Put(owner, seq, ns, model, v);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  Hits TopK(VectorOwner owner, int64_t ns, const std::string& model, std::vector<float> q, int k) {
    auto hits = store_->TopK(owner, ns, model, q, k);
    EXPECT_TRUE(hits.has_value()) << hits.error().ToString();
    return hits.value_or(Hits{});
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<VectorStore> store_;
};

TEST_F(VectorStoreTest, PutGetRoundTripIsBitExactAndReplaces) {
  const std::vector<float> v = {0.1f, -0.25f, 1e-30f, 3.0f};
  Put(VectorOwner::kEvent, 7, 1, "m/1", v);
  auto got = store_->Get(VectorOwner::kEvent, 7, "m/1");
  ASSERT_TRUE(got.has_value());
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ(**got, v);
  EXPECT_FALSE(store_->Get(VectorOwner::kClaim, 7, "m/1")->has_value());
  EXPECT_FALSE(store_->Get(VectorOwner::kEvent, 7, "other")->has_value());

  Put(VectorOwner::kEvent, 7, 1, "m/1", {1.0f, 0.0f, 0.0f, 0.0f});
  EXPECT_EQ(**store_->Get(VectorOwner::kEvent, 7, "m/1"),
            (std::vector<float>{1.0f, 0.0f, 0.0f, 0.0f}));
  EXPECT_EQ(*store_->Count(1, "m/1"), 1);
}

TEST_F(VectorStoreTest, TopKRanksByDotProductWithTiesBySeq) {
  Put(VectorOwner::kEvent, 1, 1, "m", {1.0f, 0.0f});
  Put(VectorOwner::kEvent, 2, 1, "m", {0.0f, 1.0f});
  Put(VectorOwner::kEvent, 3, 1, "m", {0.6f, 0.8f});
  Put(VectorOwner::kEvent, 4, 1, "m", {1.0f, 0.0f});  // ties with 1
  Put(VectorOwner::kEvent, 5, 1, "m", {-1.0f, 0.0f});

  EXPECT_EQ(TopK(VectorOwner::kEvent, 1, "m", {1.0f, 0.0f}, 3),
            (Hits{{1, 1.0f}, {4, 1.0f}, {3, 0.6f}}));
  Hits all = TopK(VectorOwner::kEvent, 1, "m", {1.0f, 0.0f}, 100);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all.back(), (std::pair<int64_t, float>{5, -1.0f}));
  EXPECT_TRUE(TopK(VectorOwner::kEvent, 1, "m", {1.0f, 0.0f}, 0).empty());
  EXPECT_TRUE(TopK(VectorOwner::kEvent, 1, "m", {1.0f, 0.0f}, -3).empty());
}

TEST_F(VectorStoreTest, TopKStaysInsideOwnerTypeNamespaceAndModel) {
  Put(VectorOwner::kEvent, 1, 1, "m", {1.0f, 0.0f});
  Put(VectorOwner::kClaim, 1, 1, "m", {1.0f, 0.0f});
  Put(VectorOwner::kClaim, 2, 1, "m", {0.0f, 1.0f});
  Put(VectorOwner::kEvent, 9, 2, "m", {1.0f, 0.0f});
  Put(VectorOwner::kEvent, 8, 1, "other", {1.0f, 0.0f});

  EXPECT_EQ(TopK(VectorOwner::kEvent, 1, "m", {1.0f, 0.0f}, 10), (Hits{{1, 1.0f}}));
  EXPECT_EQ(TopK(VectorOwner::kClaim, 1, "m", {1.0f, 0.0f}, 10), (Hits{{1, 1.0f}, {2, 0.0f}}));
  EXPECT_EQ(TopK(VectorOwner::kEvent, 2, "m", {1.0f, 0.0f}, 10), (Hits{{9, 1.0f}}));
  EXPECT_EQ(TopK(VectorOwner::kEvent, 1, "other", {1.0f, 0.0f}, 10), (Hits{{8, 1.0f}}));
  EXPECT_TRUE(TopK(VectorOwner::kEvent, 1, "missing", {1.0f, 0.0f}, 10).empty());
}

// B45: vectors carry their model id and dimension; a model change never mixes them.
TEST_F(VectorStoreTest, B45DifferentModelsAndDimensionsAreNeverCompared) {
  for (int64_t seq = 1; seq <= 50; ++seq) {
    Put(VectorOwner::kClaim, seq, 1, "openai:big", std::vector<float>(1536, 0.01f));
  }
  // The new model has another dimension: its vectors live next to the old ones.
  Put(VectorOwner::kClaim, 1, 1, "openai:small", std::vector<float>(1024, 0.02f));
  EXPECT_EQ(TopK(VectorOwner::kClaim, 1, "openai:small", std::vector<float>(1024, 1.0f), 10).size(),
            1u);

  // A query of the new dimension against the old model is refused with both sizes named.
  auto mixed =
      store_->TopK(VectorOwner::kClaim, 1, "openai:big", std::vector<float>(1024, 1.0f), 5);
  ASSERT_FALSE(mixed.has_value());
  EXPECT_EQ(mixed.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(mixed.error().message().find("1536"), std::string::npos) << mixed.error().message();
  EXPECT_NE(mixed.error().message().find("1024"), std::string::npos);

  // The same model id with another dimension (a provider swapped the model) is refused on write.
  Status st = store_->Put(VectorOwner::kClaim, 51, 1, "openai:big", std::vector<float>(1024, 0.1f));
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("1536"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("1024"), std::string::npos);
  // ...but another namespace is independent.
  Put(VectorOwner::kClaim, 51, 2, "openai:big", std::vector<float>(1024, 0.1f));

  auto models = store_->ModelsInUse(1);
  ASSERT_TRUE(models.has_value());
  ASSERT_EQ(models->size(), 2u);
  EXPECT_EQ((*models)[0].model_id, "openai:big");
  EXPECT_EQ((*models)[0].dim, 1536);
  EXPECT_EQ((*models)[0].claims, 50);
  EXPECT_EQ((*models)[0].events, 0);
  EXPECT_EQ((*models)[1].model_id, "openai:small");
  EXPECT_EQ((*models)[1].dim, 1024);

  // Re-embedding done: the old model's vectors go.
  EXPECT_EQ(*store_->DeleteModel(1, "openai:big"), 50);
  EXPECT_EQ(store_->ModelsInUse(1)->size(), 1u);
  EXPECT_EQ(*store_->Count(2, "openai:big"), 1);
}

TEST_F(VectorStoreTest, RejectsBadInput) {
  EXPECT_EQ(store_->Put(VectorOwner::kEvent, 1, 1, "", {1.0f}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Put(VectorOwner::kEvent, 1, 1, "m", {}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Put(VectorOwner::kEvent, 1, 1, "m", {1.0f, NAN}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Put(VectorOwner::kEvent, 1, 1, "m", {INFINITY}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(*store_->Count(1, "m"), 0);
  Put(VectorOwner::kEvent, 1, 1, "m", {1.0f, 0.0f});
  EXPECT_EQ(store_->TopK(VectorOwner::kEvent, 1, "m", {}, 3).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->TopK(VectorOwner::kEvent, 1, "m", {NAN, 1.0f}, 3).error().code(),
            StatusCode::kInvalidArgument);
  // The schema itself refuses a blob that does not match its dim, and an unknown owner type.
  EXPECT_FALSE(db_->Exec("INSERT INTO vectors VALUES ('event', 5, 1, 'm', 2, x'00000000')").ok());
  EXPECT_FALSE(db_->Exec("INSERT INTO vectors VALUES ('episode', 5, 1, 'm', 1, x'00000000')").ok());
}

TEST_F(VectorStoreTest, DeletesByOwnerAndNamespace) {
  Put(VectorOwner::kEvent, 1, 1, "a", {1.0f});
  Put(VectorOwner::kEvent, 1, 1, "b", {1.0f, 0.0f});
  Put(VectorOwner::kClaim, 1, 1, "a", {1.0f});
  Put(VectorOwner::kEvent, 2, 1, "a", {1.0f});
  Put(VectorOwner::kEvent, 3, 2, "a", {1.0f});

  EXPECT_EQ(*store_->Delete(VectorOwner::kEvent, 1), 2);  // both models
  EXPECT_EQ(*store_->Delete(VectorOwner::kEvent, 1), 0);
  EXPECT_FALSE(store_->Get(VectorOwner::kEvent, 1, "a")->has_value());
  EXPECT_TRUE(store_->Get(VectorOwner::kClaim, 1, "a")->has_value());
  EXPECT_EQ(*store_->Count(1, "a"), 2);
  EXPECT_EQ(*store_->Count(1, "a", VectorOwner::kEvent), 1);
  EXPECT_EQ(*store_->Count(1, "a", VectorOwner::kClaim), 1);

  EXPECT_EQ(*store_->DeleteNamespace(1), 2);
  EXPECT_EQ(*store_->Count(1, "a"), 0);
  EXPECT_TRUE(store_->ModelsInUse(1)->empty());
  EXPECT_EQ(*store_->Count(2, "a"), 1);
}

TEST_F(VectorStoreTest, TopKMatchesBruteForceOnRandomVectors) {
  // dim 37: not a multiple of the kernel's 8 lanes.
  constexpr int kDim = 37;
  constexpr int kRows = 500;
  std::mt19937 rng(42);
  std::normal_distribution<float> normal;
  std::vector<std::vector<float>> rows(kRows, std::vector<float>(kDim));
  ASSERT_TRUE(db_->Exec("BEGIN").ok());
  for (int r = 0; r < kRows; ++r) {
    for (float& x : rows[r]) x = normal(rng);
    Put(VectorOwner::kEvent, r + 100, 1, "rand", rows[r]);
  }
  ASSERT_TRUE(db_->Exec("COMMIT").ok());
  std::vector<float> q(kDim);
  for (float& x : q) x = normal(rng);

  std::vector<std::pair<float, int64_t>> expected;
  for (int r = 0; r < kRows; ++r) {
    double dot = 0;
    for (int j = 0; j < kDim; ++j) dot += static_cast<double>(q[j]) * rows[r][j];
    expected.push_back({static_cast<float>(dot), r + 100});
  }
  std::sort(expected.begin(), expected.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  Hits hits = TopK(VectorOwner::kEvent, 1, "rand", q, 10);
  ASSERT_EQ(hits.size(), 10u);
  for (size_t i = 0; i < hits.size(); ++i) {
    EXPECT_EQ(hits[i].first, expected[i].second) << i;
    EXPECT_NEAR(hits[i].second, expected[i].first, 1e-4) << i;
  }
}

}  // namespace
}  // namespace engram::sqlite
