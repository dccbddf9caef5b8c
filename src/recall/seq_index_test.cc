#include "recall/seq_index.h"

#include <gtest/gtest.h>

#include <unordered_map>

namespace engram {
namespace {

TEST(SeqIndexTest, FindsWhatWasInserted) {
  SeqIndex index;
  EXPECT_EQ(index.Find(7), nullptr);
  EXPECT_TRUE(index.Insert(7, 0));
  EXPECT_TRUE(index.Insert(-3, 1));
  EXPECT_TRUE(index.Insert(0, 2));
  ASSERT_NE(index.Find(7), nullptr);
  EXPECT_EQ(*index.Find(7), 0u);
  EXPECT_EQ(*index.Find(-3), 1u);
  EXPECT_EQ(*index.Find(0), 2u);
  EXPECT_EQ(index.Find(8), nullptr);
  EXPECT_EQ(index.size(), 3u);
}

TEST(SeqIndexTest, InsertKeepsTheFirstIndexAsEmplaceDoes) {
  SeqIndex index(4);
  EXPECT_TRUE(index.Insert(42, 5));
  EXPECT_FALSE(index.Insert(42, 9));
  EXPECT_EQ(*index.Find(42), 5u);
  EXPECT_EQ(index.size(), 1u);
}

// Through many growths and colliding keys (multiples of a power of two), it answers as
// std::unordered_map does.
TEST(SeqIndexTest, AgreesWithUnorderedMapThroughGrowth) {
  SeqIndex index;
  std::unordered_map<int64_t, size_t> expected;
  for (int64_t i = 0; i < 5000; ++i) {
    const int64_t seq = (i % 3 == 0) ? i * 1024 : 100000 + i;
    EXPECT_EQ(index.Insert(seq, static_cast<size_t>(i)), expected.emplace(seq, i).second);
    EXPECT_EQ(index.Insert(seq, 1), false);  // already there
  }
  EXPECT_EQ(index.size(), expected.size());
  for (int64_t seq = -10; seq < 5000 * 1024 + 10; seq += 7) {
    auto it = expected.find(seq);
    const size_t* found = index.Find(seq);
    ASSERT_EQ(found != nullptr, it != expected.end()) << seq;
    if (found != nullptr) {
      EXPECT_EQ(*found, it->second);
    }
  }
  for (const auto& [seq, i] : expected) {
    ASSERT_EQ(*index.Find(seq), i);
  }
}

}  // namespace
}  // namespace engram
