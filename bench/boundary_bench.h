// bench/boundary_bench.h — `engram-bench experience boundary`: task boundaries on τ-bench
// (../shared/data/taubench/SOURCE.md, "Task boundaries"), through the public Engine API.
//
// The 200 airline trajectories are concatenated per trial (trial 0..3 = the seeds, tasks in
// task_id order) into one stream each, `###STOP###` stripped: user and assistant turns as events
// of role user / assistant, every tool call with its result as a role "tool" event written exactly
// as `engram mcp-tap` writes it (capture/capture_delivery.h; isError when the result starts with
// "Error", as bench/tools/tap_replay.py's stub answers). Events are 10 s apart, task changes
// included: time says nothing about the boundaries. Each stream goes into one session, event by
// event, and Engine::SegmentEpisodes runs after every event (the clock at the event: never idle),
// then once with close. The same streams are also ingested at once and segmented once, in another
// namespace: both must give the same episodes.
//
// A turn is a user or assistant event; a boundary is the turn that starts a task. Gold: the first
// turn of every trajectory but a stream's first. Predicted: the first turn of every detected
// episode but a stream's first. Boundary F1 with ±1 turn (greedy one-to-one matching), precision
// and recall, beside two same-run baselines: a boundary after every user turn that contains
// "thank" or "bye" (SOURCE.md's closing count), and a fixed-length split at the mean trajectory
// length in turns (an oracle length). The buffer: how many boundaries waited for the text after
// them and how they were decided.
#ifndef ENGRAM_BENCH_BOUNDARY_BENCH_H_
#define ENGRAM_BENCH_BOUNDARY_BENCH_H_

#include <string>

namespace engram::bench {

struct BoundaryBenchOptions {
  std::string data_dir;  // ../shared/data/taubench
  bool json = false;
  int tolerance = 1;  // turns
};

// Runs the benchmark and prints the report on stdout (errors on stderr). Returns the exit code: 0,
// 1 for an engine or data error.
int RunBoundaryBench(const BoundaryBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_BOUNDARY_BENCH_H_
