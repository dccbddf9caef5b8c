#include "providers/hashing_embedder.h"

#include <gtest/gtest.h>
#include <xxhash.h>

#include <cmath>
#include <string>
#include <vector>

namespace engram::providers {
namespace {

using Features = std::vector<std::string>;

std::unique_ptr<HashingEmbedder> Make(int dimension = HashingEmbedder::kDefaultDimension) {
  auto embedder = HashingEmbedder::Create(dimension);
  EXPECT_TRUE(embedder.has_value()) << embedder.error().ToString();
  return std::move(*embedder);
}

float Cosine(HashingEmbedder& e, const std::string& a, const std::string& b) {
  std::vector<float> va, vb;
  e.EmbedOne(a, va);
  e.EmbedOne(b, vb);
  return Dot(va.data(), vb.data(), va.size());
}

TEST(HashingEmbedderTest, ModelIdAndDimension) {
  EXPECT_EQ(Make()->ModelId(), "hash-ngram-256/1");
  EXPECT_EQ(Make()->Dimension(), 256);
  EXPECT_EQ(Make(64)->ModelId(), "hash-ngram-64/1");
}

TEST(HashingEmbedderTest, RejectsDimensionOutOfRange) {
  for (int d : {-1, 0, 1, HashingEmbedder::kMaxDimension + 1}) {
    auto e = HashingEmbedder::Create(d);
    ASSERT_FALSE(e.has_value()) << d;
    EXPECT_EQ(e.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(e.error().message().find(std::to_string(d)), std::string::npos);
  }
}

TEST(HashingEmbedderTest, WordFeaturesAreMarkedThreeToFiveGrams) {
  auto e = Make();
  EXPECT_EQ(e->Features("Cat"), (Features{"<ca", "<cat", "<cat>", "cat", "cat>", "at>"}));
  EXPECT_EQ(e->Features("a"), (Features{"<a>"}));
  EXPECT_EQ(e->Features("go, ok"), (Features{"<go", "<go>", "go>", "<ok", "<ok>", "ok>"}));
}

TEST(HashingEmbedderTest, CjkFeaturesAreOneToThreeGramsWithoutMarkers) {
  auto e = Make();
  EXPECT_EQ(e->Features("浅色"), (Features{"浅", "浅色", "色"}));
  EXPECT_EQ(e->Features("杭州市"), (Features{"杭", "杭州", "杭州市", "州", "州市", "市"}));
  // CJK punctuation separates runs; a word run next to a CJK run is its own run.
  EXPECT_EQ(e->Features("杭州，ok"), (Features{"杭", "杭州", "州", "<ok", "<ok>", "ok>"}));
  EXPECT_EQ(e->Features("v2年"), (Features{"<v2", "<v2>", "v2>", "年"}));
}

TEST(HashingEmbedderTest, NormalisesWithNfkcCaseFolding) {
  auto e = Make();
  EXPECT_EQ(e->Features("ＣＡＴ"), e->Features("cat"));
  EXPECT_EQ(e->Features("Straße"), e->Features("strasse"));
  EXPECT_EQ(e->Features("CAFE\u0301"), e->Features("café"));  // composed by NFKC
}

TEST(HashingEmbedderTest, ZeroWidthCharactersDoNotSplitWords) {
  auto e = Make();
  EXPECT_EQ(e->Features("pass\u200bword"), e->Features("password"));
  EXPECT_EQ(e->Features("soft\u00adhyphen"), e->Features("softhyphen"));
}

TEST(HashingEmbedderTest, InvalidUtf8SeparatesAndNeverFails) {
  auto e = Make();
  EXPECT_EQ(e->Features("ab\xff"
                        "cd"),
            e->Features("ab cd"));
  EXPECT_EQ(e->Features(std::string("ab\0cd", 5)), e->Features("ab cd"));
  std::vector<float> v;
  e->EmbedOne("\xc3\x28\xa0\xa1\xf0\x28\x8c\xbc", v);
  ASSERT_EQ(v.size(), 256u);
}

TEST(HashingEmbedderTest, VectorsAreUnitLengthOrZero) {
  auto e = Make();
  auto vectors = e->Embed({"The user lives in Hangzhou.", "", "!!! ... ???", "我住在杭州"});
  ASSERT_TRUE(vectors.has_value());
  ASSERT_EQ(vectors->size(), 4u);
  for (const auto& v : *vectors) ASSERT_EQ(v.size(), 256u);
  EXPECT_NEAR(Dot((*vectors)[0].data(), (*vectors)[0].data(), 256), 1.0f, 1e-5);
  EXPECT_NEAR(Dot((*vectors)[3].data(), (*vectors)[3].data(), 256), 1.0f, 1e-5);
  for (float x : (*vectors)[1]) EXPECT_EQ(x, 0.0f);
  for (float x : (*vectors)[2]) EXPECT_EQ(x, 0.0f);
  EXPECT_TRUE(e->Embed({})->empty());
}

TEST(HashingEmbedderTest, SignedHashingFollowsXxh3) {
  // One feature: the vector is ±1 at XXH3_64bits("<a>") mod D, the sign from the hash's top bit.
  auto e = Make(64);
  std::vector<float> v;
  e->EmbedOne("a", v);
  uint64_t h = XXH3_64bits("<a>", 3);
  for (size_t i = 0; i < v.size(); ++i) {
    float expected = i == h % 64 ? ((h >> 63) != 0 ? -1.0f : 1.0f) : 0.0f;
    EXPECT_EQ(v[i], expected) << i;
  }
}

TEST(HashingEmbedderTest, DeterministicAcrossInstances) {
  auto a = Make();
  auto b = Make();
  const std::string text = "Deploys go through cdm-xxc on Fridays; 部署在周五。";
  std::vector<float> va, vb;
  a->EmbedOne(text, va);
  b->EmbedOne(text, vb);
  EXPECT_EQ(va, vb);
}

TEST(HashingEmbedderTest, SimilarTextsScoreHigherThanUnrelatedOnes) {
  auto e = Make();
  EXPECT_GT(Cosine(*e, "the user lives in Hangzhou", "user lives in hangzhou city"),
            Cosine(*e, "the user lives in Hangzhou", "quarterly revenue report was late"));
  EXPECT_GT(Cosine(*e, "我住在杭州", "我现在住在杭州市"), Cosine(*e, "我住在杭州", "今天天气很好"));
  EXPECT_GT(Cosine(*e, "deployment failed", "deployments failing"),
            Cosine(*e, "deployment failed", "lunch menu"));
}

TEST(HashingEmbedderTest, VectorHelpers) {
  std::vector<float> v = {3.0f, 4.0f};
  EXPECT_TRUE(L2Normalize(v));
  EXPECT_FLOAT_EQ(v[0], 0.6f);
  EXPECT_FLOAT_EQ(v[1], 0.8f);
  std::vector<float> zero = {0.0f, 0.0f};
  EXPECT_FALSE(L2Normalize(zero));
  std::vector<float> bad = {NAN, 1.0f};
  EXPECT_FALSE(L2Normalize(bad));
  EXPECT_EQ(bad, (std::vector<float>{0.0f, 0.0f}));
}

}  // namespace
}  // namespace engram::providers
