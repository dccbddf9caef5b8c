// bench/experience_bench.h — `engram-bench experience exp1|exp2`: experience recall on τ-bench
// (../shared/data/taubench/SOURCE.md, protocols EXP-1 and EXP-2), through the public Engine API,
// each with its plain BM25 baseline computed in the same run. See bench/README.md.
//
//   EXP-1  every retail train+dev task is a successful episode (goal = instruction, steps = its
//          gold actions); each task's instruction is a query, leave-one-out (the query's episode
//          is excluded: never returned, never learnt from). Relevant = the same write signature.
//          With --queries FILE, every task of FILE is a query against all of train+dev.
//          Metrics: Hit@5, MRR (first relevant within 50), P@5 micro and macro (over write
//          signatures), nDCG@10 with gain = Jaccard of write signatures, vote@5 (the most common
//          signature of the top 5 — ties to the better ranked — is the query's), type accuracy
//          (the inferred type is the query's), abstentions (queries with no relevant episode,
//          left out of every mean), recall latency p50/p95 (wall, ms) and CPU per query.
//   EXP-2  the 200 airline trajectories are episodes (goal = the user's first message, steps = the
//          agent's tool calls with their results, outcome = reward, task type = the task's gold
//          write signature, declared); leave one task out (its 4 trials); query = each trial's
//          first user message. Relevant = a successful trial of the same signature. Metrics:
//          success-same-type P@5, failed-same-type@5, MRR, and failures as avoid rules (the share of
//          failed episodes some avoid rule of their type counts, and of queries whose type has
//          failures in other tasks that get, among their rules, an avoid rule of their type that a
//          failure of another task supports).
// The query's task type is never given: engram infers it from the text.
#ifndef ENGRAM_BENCH_EXPERIENCE_BENCH_H_
#define ENGRAM_BENCH_EXPERIENCE_BENCH_H_

#include <optional>
#include <string>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::bench {

struct ExperienceBenchOptions {
  std::string protocol;      // exp1 or exp2
  std::string data_dir;      // ../shared/data/taubench
  std::string queries_path;  // exp1: a task file whose every task is a query (no leave-one-out)
  bool json = false;
  // Extra engram configurations "NAME:key=value,...", keys of ExperienceOptions (similarity,
  // type_match, recency, recency_days, steps_weight, type_model_epochs, type_model_l2,
  // distill_every).
  std::vector<std::string> variants;
  // Action names starting with one of these are reads (SOURCE.md: get_, find_, list_, calculate,
  // think); everything else is in the write signature.
  std::vector<std::string> read_prefixes = {"get_", "find_", "list_", "calculate", "think"};
  std::string dump_path;  // one JSON line per query and configuration
};

// Runs the benchmark and prints the report on stdout (errors on stderr). Returns the exit code: 0,
// 1 for an engine or data error, 2 for bad options. Protocol "share" is RunSharingBench.
int RunExperienceBench(const ExperienceBenchOptions& options);

// One airline trajectory as EXP-2 reads it (goal = the user's first message, steps = the agent's
// tool calls with their results), with its task and trial.
struct AirlineTrial {
  std::string task_id;
  int trial = 0;
  std::string signature;  // the task's gold write signature ("a+b", "read_only")
  bool success = false;   // reward 1
  std::optional<double> reward;
  std::string goal;
  std::vector<EpisodeStepInput> steps;
};

// The 200 trajectories of <data_dir>/airline_trajectories_gpt4o.json. Errors: the file's.
Result<std::vector<AirlineTrial>> ReadAirlineTrials(const ExperienceBenchOptions& options);

// `engram-bench experience share` (bench/sharing_bench.cc, bench/README.md): the sharing gate on
// the airline trajectories, trial = agent, one trial held out in turn.
int RunSharingBench(const ExperienceBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_EXPERIENCE_BENCH_H_
