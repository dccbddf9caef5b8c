// bench/memorybank_bench.h — `engram-bench memorybank`: exchange retrieval on MemoryBank /
// SiliconFriend (protocol P9 of ../shared/reference/benchmarks.md §5; metric of
// ../shared/data/memorybank/SOURCE.md) through the public Engine API. See bench/README.md.
#ifndef ENGRAM_BENCH_MEMORYBANK_BENCH_H_
#define ENGRAM_BENCH_MEMORYBANK_BENCH_H_

#include <string>

namespace engram::bench {

struct MemoryBankBenchOptions {
  std::string data_dir;   // the memorybank folder (holding cn/, en/ and the gold files)
  std::string lang;       // "cn" or "en"
  std::string gold_path;  // gold JSONL; "" = <data_dir>/gold_<lang>_dev.jsonl
  bool json = false;      // print one JSON object instead of tables
  bool dump_misses = false;  // also list every question some configuration misses at k = 5
  int limit_users = 0;       // score only the first N users of the gold file; 0 = all
};

// For every user of the gold file: ingests the user's history into a fresh temporary database,
// runs extraction (Process), asks each answerable question with gold evidence through
// Engine::Recall (claims and events, then events only) and through a plain BM25 scorer over the
// exchanges (and over single turns); scores recall@k and hit@k over exchanges for k = 1, 3, 5, 10.
// Prints the report on stdout (errors on stderr). Returns the process exit code: 0 on success,
// ExitCodeFor(code) of the failing Status otherwise (2 for malformed input or a bad --lang, 1 for
// an unreadable file or an engine failure).
int RunMemoryBankBench(const MemoryBankBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_MEMORYBANK_BENCH_H_
