// bench/plain_bm25.h — the plain BM25 baseline of the benchmarks: BM25Okapi exactly as rank_bm25
// 0.2.2 computes it, over documents already split into tokens (each benchmark tokenises as its
// protocol says). Header-only; a value, not synchronised.
#ifndef ENGRAM_BENCH_PLAIN_BM25_H_
#define ENGRAM_BENCH_PLAIN_BM25_H_

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace engram::bench {

struct PlainBm25Parameters {
  double k1 = 1.5;        // rank_bm25's defaults (benchmarks.md §5.3)
  double b = 0.75;
  double epsilon = 0.25;  // a negative idf becomes epsilon × the mean idf
  // Lucene's idf, ln(1 + (N − n + 0.5) / (n + 0.5)), always positive (epsilon unused): the form of
  // engram_bm25 (store/sqlite/fts5_tokenizer.h).
  bool lucene_idf = false;
};

// idf = ln((N − n + 0.5) / (n + 0.5)), a negative idf replaced by ε × the mean idf over the
// vocabulary (or Lucene's idf), every query token counted (a repeated token twice), terms unknown
// to the corpus worth 0.
class PlainBm25 {
 public:
  PlainBm25(std::vector<std::vector<std::string>> docs, PlainBm25Parameters parameters) : p_(parameters) {
    const double n_docs = static_cast<double>(docs.size());
    double total_len = 0;
    std::unordered_map<std::string, int> doc_freq;
    for (const auto& doc : docs) {
      std::unordered_map<std::string, int> tf;
      for (const std::string& t : doc) ++tf[t];
      for (const auto& [t, n] : tf) ++doc_freq[t];
      lengths_.push_back(static_cast<double>(doc.size()));
      total_len += static_cast<double>(doc.size());
      tf_.push_back(std::move(tf));
    }
    avg_len_ = docs.empty() ? 0 : total_len / n_docs;
    double idf_sum = 0;
    std::vector<std::string> negative;
    for (const auto& [t, n] : doc_freq) {
      double idf = p_.lucene_idf ? std::log(1 + (n_docs - n + 0.5) / (n + 0.5))
                                 : std::log(n_docs - n + 0.5) - std::log(n + 0.5);
      idf_[t] = idf;
      idf_sum += idf;
      if (idf < 0) negative.push_back(t);
    }
    const double eps = doc_freq.empty() ? 0 : p_.epsilon * idf_sum / static_cast<double>(doc_freq.size());
    for (const std::string& t : negative) idf_[t] = eps;
  }

  // The score of every document, in document order.
  std::vector<double> Scores(const std::vector<std::string>& query) const {
    std::vector<double> score(tf_.size(), 0.0);
    for (const std::string& q : query) {
      auto idf = idf_.find(q);
      if (idf == idf_.end()) continue;
      for (size_t d = 0; d < tf_.size(); ++d) {
        auto f = tf_[d].find(q);
        if (f == tf_[d].end()) continue;
        const double tf = f->second;
        score[d] += idf->second * tf * (p_.k1 + 1) / (tf + p_.k1 * (1 - p_.b + p_.b * lengths_[d] / avg_len_));
      }
    }
    return score;
  }

  // Documents with a positive score, best first; ties by document order.
  std::vector<size_t> Rank(const std::vector<std::string>& query) const {
    const std::vector<double> score = Scores(query);
    std::vector<size_t> ranked;
    for (size_t d = 0; d < score.size(); ++d) {
      if (score[d] > 0) ranked.push_back(d);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
    return ranked;
  }

 private:
  PlainBm25Parameters p_;
  std::vector<std::unordered_map<std::string, int>> tf_;
  std::vector<double> lengths_;
  double avg_len_ = 0;
  std::unordered_map<std::string, double> idf_;
};

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_PLAIN_BM25_H_
