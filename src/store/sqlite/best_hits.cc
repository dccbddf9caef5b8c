#include "store/sqlite/best_hits.h"

#include <algorithm>
#include <cstddef>

#include "util/best_first.h"

namespace engram::sqlite {

Result<std::vector<SearchHit>> BestHits(Statement& q, int limit) {
  std::vector<SearchHit> hits;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    hits.push_back({q.Int(0), q.Double(1)});
  }
  KeepBest(hits, limit);
  return hits;
}

void KeepBest(std::vector<SearchHit>& hits, int limit) {
  auto better = [](const SearchHit& x, const SearchHit& y) {
    return x.score != y.score ? x.score > y.score : x.seq < y.seq;
  };
  const size_t keep = std::min(hits.size(), static_cast<size_t>(std::max(limit, 0)));
  SortBest(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(keep), hits.end(), better);
  hits.resize(keep);
}

}  // namespace engram::sqlite
