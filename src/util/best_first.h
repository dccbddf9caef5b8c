// util/best_first.h — the best k of a range, sorted, the rest left unordered: std::partial_sort's
// contract at O(n + k log k) instead of O(n log k).
//
// Why not std::partial_sort: it keeps a heap of k and sifts most of the n elements through it,
// one unpredictable branch per level; recall ranks ~900 candidates for 10 to 100 best several
// times a query, and perf showed those sifts (std::__adjust_heap) at 3 % of a recall's cycles
// (issue 13). std::nth_element partitions in linear time, and only the k are sorted.
//
// With a strict total order (ties broken by a unique key, as every caller's comparator does) the
// first k are exactly partial_sort's, in the same order.
#ifndef ENGRAM_UTIL_BEST_FIRST_H_
#define ENGRAM_UTIL_BEST_FIRST_H_

#include <algorithm>

namespace engram {

// Puts the elements of [first, last) that `better` orders first into [first, middle), sorted by
// `better`; [middle, last) holds the others in unspecified order. As std::partial_sort.
template <class It, class Better>
void SortBest(It first, It middle, It last, Better better) {
  if (middle == first) return;
  if (middle != last) std::nth_element(first, middle - 1, last, better);
  std::sort(first, middle, better);
}

}  // namespace engram

#endif  // ENGRAM_UTIL_BEST_FIRST_H_
