// bench/recall_qps_bench.h — `engram-bench recall-qps`: in-process recall throughput, the figure
// beside the HTTP one of bench/serve_bench.sh (same database, same questions, same limit), so the
// ratio shows what the HTTP layer costs. See bench/README.md.
#ifndef ENGRAM_BENCH_RECALL_QPS_BENCH_H_
#define ENGRAM_BENCH_RECALL_QPS_BENCH_H_

#include <string>

namespace engram::bench {

struct RecallQpsBenchOptions {
  std::string db_path;       // an existing engram database (opened read-only)
  std::string queries_path;  // one "namespace<TAB>question" a line
  int threads = 2;           // one read-only Engine (connection) per thread
  double seconds = 10;       // measured time after a 1 s warm-up
  // > 0: each thread makes exactly this many recalls, all measured, with no warm-up and no time
  // limit (`seconds` is ignored): a fixed amount of work, for instruction counts under callgrind.
  int recalls = 0;
  int limit = 10;            // RecallQuery::limit (the default, what an agent asks for)
  // Each recall through the REST route's code without the socket: api::Invoke of the recall
  // capability and the JSON body text (what the HTTP layer adds on top is then the rest).
  bool through_api = false;
  bool json = false;
};

// Each thread recalls the questions round-robin from its own offset for `seconds`; prints recalls/s
// and latency p50/p99 (ms). Returns the exit code: 0, 1 (a file cannot be read, a recall fails).
int RunRecallQpsBench(const RecallQpsBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_RECALL_QPS_BENCH_H_
