// bench/working_bench.h — `engram-bench working`: W-1 of ../shared/data/taubench/SOURCE.md. Each of
// the 200 τ-bench airline trajectories becomes a session — the task's instruction as the user's
// first turn, then the recorded turns (the system prompt left out, "###STOP###" stripped) — and
// its working memory is rendered at 50%, 20% and 10% of the session's tokens. Every constraint
// found must be in the summary word for word (survival) and every constraint shown must be a
// sentence some user turn said (none invented). The same-run baseline keeps, under the same
// budget, the newest turns verbatim (what a context window that drops old turns keeps).
#ifndef ENGRAM_BENCH_WORKING_BENCH_H_
#define ENGRAM_BENCH_WORKING_BENCH_H_

#include <string>

namespace engram::bench {

struct WorkingBenchOptions {
  std::string data_dir;  // holds airline_trajectories_gpt4o.json
  bool json = false;     // one JSON object instead of tables
  std::string dump_path; // one JSON line per trajectory: the constraints found and retracted
};

// Runs W-1 and prints the report on stdout (errors on stderr). Returns the exit code: 0, 1 for an
// engine or data error.
int RunWorkingBench(const WorkingBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_WORKING_BENCH_H_
