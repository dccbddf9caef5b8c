#include "util/best_first.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace engram {
namespace {

// SortBest leaves the first k exactly as std::partial_sort does under a strict total order, and
// the rest a permutation of the others: every k from 0 to n, many ties in the first key.
TEST(SortBestTest, FirstKAsPartialSortAndNothingLost) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> score(0, 5);
  using Row = std::pair<int, int>;  // (score, unique id)
  auto better = [](const Row& a, const Row& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
  for (int n = 0; n < 60; ++n) {
    std::vector<Row> rows;
    for (int i = 0; i < n; ++i) rows.emplace_back(score(rng), i);
    std::shuffle(rows.begin(), rows.end(), rng);
    for (int k = 0; k <= n; ++k) {
      std::vector<Row> expected = rows, got = rows;
      std::partial_sort(expected.begin(), expected.begin() + k, expected.end(), better);
      SortBest(got.begin(), got.begin() + k, got.end(), better);
      ASSERT_TRUE(std::equal(expected.begin(), expected.begin() + k, got.begin())) << n << " " << k;
      std::sort(expected.begin() + k, expected.end(), better);
      std::sort(got.begin() + k, got.end(), better);
      ASSERT_EQ(expected, got) << n << " " << k;
    }
  }
}

}  // namespace
}  // namespace engram
