// bench/maintenance_bench.h — `engram-bench maintenance`: recall latency on one connection while
// another connection runs the lifecycle maintenance pass, or holds the write lock outright
// (issue 5: "It never blocks recall"). See bench/README.md.
#ifndef ENGRAM_BENCH_MAINTENANCE_BENCH_H_
#define ENGRAM_BENCH_MAINTENANCE_BENCH_H_

#include <cstdint>

namespace engram::bench {

struct MaintenanceBenchOptions {
  int64_t events = 10000;  // N: synthetic user events ("I like X Y.", a third "for now": temporary)
  int queries = 500;       // Q: recalls per phase
  uint64_t seed = 1;       // generator seed
  bool json = false;       // one JSON object instead of a table
};

// Builds one namespace of N events in a temporary database (IngestBatch, then Process(drain) with
// the rules extractor), then runs three phases of Q recalls (Engine::Recall, limit 10, events and
// claims) on connection A, single-threaded, and reports p50/p95/p99/max in ms per phase:
//   baseline  — nothing else runs;
//   maintain  — a thread with its own Engine (connection B) runs Maintain passes back to back over
//               every claim, each pass one simulated day later (every activation is rewritten, in
//               write transactions of 500 claims), until the recalls are done;
//   write_lock — connection B holds BEGIN IMMEDIATE with an UPDATE of every claim, uncommitted, for
//               the whole phase (the worst case: the write lock never released).
// Also the passes completed, their claims updated and the mean pass time. Returns the exit code:
// 0 on success, 2 for a bad option, else the failure's code.
int RunMaintenanceBench(const MaintenanceBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_MAINTENANCE_BENCH_H_
