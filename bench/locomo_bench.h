// bench/locomo_bench.h — `engram-bench locomo`: LoCoMo evidence retrieval and fact coverage
// (protocols P1, P2 and P4 of ../shared/reference/benchmarks.md §5) through the public Engine
// API. See bench/README.md.
#ifndef ENGRAM_BENCH_LOCOMO_BENCH_H_
#define ENGRAM_BENCH_LOCOMO_BENCH_H_

#include <string>
#include <vector>

namespace engram::bench {

struct LocomoBenchOptions {
  std::string data_path;        // a LoCoMo JSON file (list of samples)
  bool json = false;            // print one JSON object instead of tables
  int limit_conversations = 0;  // score only the first N conversations; 0 = all
  bool ablation = false;        // also run `engram` with each event channel turned off in turn
  bool budgets = false;         // also score `engram` packets packed under 512/1k/2k/4k tokens (P3)
  // Extra configurations, each "NAME:key=value,key=value": `engram` with the named settings
  // changed. Keys: the RecallWeights fields (turn, window, dense, date, speaker, claims, feedback,
  // window_radius, window_pool), embedder (none|glove|hash), extractor (rules|llm|none),
  // claims_channel (0|1) and recall_after (N: one recall after the first N events, then the rest).
  std::vector<std::string> variants;
  // Run only the configurations with these names (empty = all).
  std::vector<std::string> only;
  // When not empty: one JSON line per scored question and configuration written here (config,
  // sample, question index, category, question, gold dia_ids, the top 10 items with their dia_ids,
  // score and per-channel ranks): the raw material of a failure analysis.
  std::string dump_path;
  // Adds the configuration `engram_observations` (engram defaults with extractor "llm") and points
  // every configuration whose extractor is "llm" (variants included) at a loopback stand-in model
  // that answers each extraction request with LoCoMo's own GPT-3.5 observation facts of the
  // request's turns (bench/observation_chat_server.h): ENGRAM_LLM_BASE_URL / ENGRAM_LLM_MODEL are
  // set for those configurations only and restored after each. The report adds what the stand-in
  // served, what the LLM extractor dropped (by reason) and what admission rejected (by reason).
  bool observation_claims = false;
};

// Runs every configuration (engram defaults with the claims channel, the same events only, then the
// plain BM25 baseline) over the conversations of `options.data_path`, each conversation in a fresh
// temporary database: ingest, extraction (Process), fact coverage of the claims, the questions and
// the bytes stored. Prints the report on stdout (errors on stderr). Returns the process exit code: 0 on success, ExitCodeFor(code) of the
// failing Status otherwise (2 for a malformed file, 1 for an unreadable one or an engine failure).
int RunLocomoBench(const LocomoBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_LOCOMO_BENCH_H_
