#include "providers/word_kin.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace engram::providers {
namespace {

// A word-vector file written by the test: "chrome" and "firefox" point one way, "leeds" and
// "bristol" another; "get" and "the" are among the most frequent words.
class WordKinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::unsetenv("ENGRAM_WORD_KIN");  // the options below, not the environment, say which file
    path_ = std::string(std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp") + "/engram-word-kin-" +
            std::to_string(::getpid()) + ".ewv";
    std::vector<WordVectorEntry> entries = {
        {"the", 0, {1, 1, 1, 1}},          {"get", 40, {1, 0.9f, 0, 0}},
        {"chrome", 5000, {1, 0.1f, 0, 0}}, {"firefox", 6000, {0.9f, 0.2f, 0, 0}},
        {"leeds", 7000, {0, 0, 1, 0.1f}},  {"bristol", 8000, {0, 0.1f, 0.9f, 0}},
        {"mess", 9000, {0, 1, 0, 1}},      {"2019", 9500, {1, 0.1f, 0, 0}},
        // Two frequent words 0.6 apart: hubs, not kin; two rare ones as far apart are.
        {"goes", 1342, {1, 0, 0, 0}},      {"today", 358, {0.6f, 0.8f, 0, 0}},
        {"brooklyn", 12000, {0, 0, 0.6f, 0.8f}}, {"queens", 13000, {0, 0, 1, 0}},
    };
    ASSERT_TRUE(WriteWordVectors(path_, "kin-test", 4, WordVectorType::kFloat32, entries).ok());
    auto kin = WordKin::Open(path_);
    ASSERT_TRUE(kin) << kin.error().ToString();
    kin_ = std::move(*kin);
  }
  void TearDown() override { ::unlink(path_.c_str()); }

  std::string path_;
  std::unique_ptr<WordKin> kin_;
};

TEST_F(WordKinTest, CandidatesAreKnownRareWordsWithALetter) {
  EXPECT_EQ(kin_->KinCandidates("Chrome, the browser I GET; since 2019, Firefox's mess"),
            (std::vector<std::string>{"chrome", "firefox", "mess"}));
  EXPECT_TRUE(kin_->KinCandidates("我住在北京").empty());
  EXPECT_TRUE(kin_->KinCandidates("").empty());
}

TEST_F(WordKinTest, TwoThingsOfOneKindAreKin) {
  ASSERT_TRUE(kin_->Cosine("chrome", "firefox"));
  EXPECT_GE(*kin_->Cosine("chrome", "firefox"), WordKin::kMinCosine);
  EXPECT_LT(*kin_->Cosine("chrome", "leeds"), WordKin::kMinCosine);
  EXPECT_FALSE(kin_->Cosine("chrome", "get"));    // too frequent
  EXPECT_FALSE(kin_->Cosine("chrome", "2019"));   // no letter
  EXPECT_FALSE(kin_->Cosine("chrome", "safari"));  // not in the file
  EXPECT_TRUE(kin_->AreKin("chrome", "firefox"));
  EXPECT_FALSE(kin_->AreKin("chrome", "chrome"));
  EXPECT_NEAR(*kin_->Cosine("goes", "today"), 0.6f, 1e-3);
  EXPECT_FALSE(kin_->AreKin("goes", "today"));  // frequent: kMinCosineCommon
  EXPECT_NEAR(*kin_->Cosine("brooklyn", "queens"), 0.6f, 1e-3);
  EXPECT_TRUE(kin_->AreKin("brooklyn", "queens"));
  EXPECT_FALSE(kin_->FindKin({"goes"}, {"today"}));

  auto pair = kin_->FindKin({"chrome", "main"}, {"adblock", "firefox", "mess"});
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->first, "chrome");
  EXPECT_EQ(pair->second, "firefox");
  EXPECT_FALSE(kin_->FindKin({"chrome"}, {"bristol", "mess"}));
  // The same word on both sides is no kin; another word of the older's kind still is.
  EXPECT_FALSE(kin_->FindKin({"chrome"}, {"chrome"}));
  EXPECT_TRUE(kin_->FindKin({"leeds"}, {"bristol", "leeds"}));
}

TEST_F(WordKinTest, NamesAreCapitalisedWhereNoSentenceStarts) {
  EXPECT_EQ(kin_->KinNames("moved over to Firefox. Chrome was slow; Leeds too"), (std::vector<std::string>{"firefox"}));
  EXPECT_EQ(kin_->KinNames("I left Leeds for Bristol, and Safari"), (std::vector<std::string>{"bristol", "leeds"}));
  EXPECT_TRUE(kin_->KinNames("chrome and firefox, lower case").empty());
  EXPECT_TRUE(kin_->KinNames("").empty());
}

TEST_F(WordKinTest, TheConfiguredFileOrNone) {
  auto none = OpenConfiguredWordKin("none");
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, nullptr);
  auto given = OpenConfiguredWordKin(path_);
  ASSERT_TRUE(given);
  EXPECT_NE(*given, nullptr);
  auto missing = OpenConfiguredWordKin(path_ + ".missing");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace engram::providers
