// bench/scale_bench.h — `engram-bench scale`: ingest, extraction and recall cost of one large
// synthetic namespace (issue 4, "Speed": 100k and 1M events). See bench/README.md.
#ifndef ENGRAM_BENCH_SCALE_BENCH_H_
#define ENGRAM_BENCH_SCALE_BENCH_H_

#include <cstdint>
#include <string>

namespace engram::bench {

struct ScaleBenchOptions {
  int64_t events = 10000;  // N: events generated and ingested into one namespace
  int queries = 300;       // Q: recall questions (about 10% of them have no answer)
  uint64_t seed = 1;       // generator seed: the same seed and N give the same events and queries
  bool json = false;       // print one JSON object instead of tables
  std::string db_path;     // "" = a temporary folder, removed at the end; else this file (must not
                           // exist), kept
  bool keep = false;       // keep the temporary folder (its path is printed on stderr)
  bool reuse = false;      // db_path must exist, written by an earlier run with the same seed,
                           // events and batch: ingest replays (idempotency keys return the stored
                           // events), so only recall is measured anew
  bool no_claims = false;  // skip Process(drain): no extraction, no claims channel content
  int batch = 1000;        // events per IngestBatch
  // After the recall phase, ask every question again twice in a row — recall as built, then with
  // recall's pruned matching off (ExhaustiveMatchRows = ∞) — and report both latencies and how
  // many questions got different items or scores (must be 0).
  bool compare_exhaustive = false;
};

// Generates N synthetic chat events (see the generator comment in scale_bench.cc), ingests them
// with IngestBatch, runs Process(drain = true) unless no_claims, then asks Q generated questions
// single-threaded through Engine::Recall (limit 10) and reports ingest and extraction rates,
// recall latency p50/p95/p99, recall@10 of the gold events, answerability counts, the database
// size (bytes) and the peak RSS (ru_maxrss, KiB) after each phase. Report on stdout, errors on
// stderr. Returns the process exit code: 0 on success, 2 for a bad option, 1 for an engine failure.
int RunScaleBench(const ScaleBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_SCALE_BENCH_H_
