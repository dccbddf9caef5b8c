// bench/state_bench.h — `engram-bench state`: HL-Mem's state-lifecycle benchmark (issue 16). Each
// bundle of ../shared/data/hlmem_state (SOURCE.md there) is one session of its own namespace,
// events in order, text verbatim; after extraction the claims are scored as HL-Mem's protocol
// scorer defines it, and one current-state question per slot checks which value recall ranks
// first.
#ifndef ENGRAM_BENCH_STATE_BENCH_H_
#define ENGRAM_BENCH_STATE_BENCH_H_

#include <string>

namespace engram::bench {

struct StateBenchOptions {
  std::string data_dir;      // holds v0300_state_<split>_corpus.jsonl and _gold.jsonl
  std::string split = "dev";
  bool json = false;         // one JSON object instead of tables
  bool dump_misses = false;  // list every unmatched gold assertion, wrong edge and inflated claim
};

// Runs the benchmark and prints the report on stdout (errors on stderr). Metrics (SOURCE.md):
//   atomic P/R       claims matched one-to-one to gold assertions: the claim's evidence is the
//                    assertion's source event and its value contains the state value (NFKC, case
//                    folded, no spaces); a placeholder value (never in the text: counterexamples,
//                    controls) is matched by the content it names — a claim of that event about
//                    the subject the gold coordinate names, or, without one, the identifier the
//                    event names
//   coordinate P/R   matched state claims with the gold subject, slot and qualifiers, slots and
//                    qualifier keys renamed consistently (each gold name to the engram name it is
//                    matched with most often); P over matched claims of state assertions, R over
//                    state assertions
//   edge P/R         supersede links (old → new) against expected_supersede_edges
//   counterexample supersedes, stale injection (current claims — active, valid time still open —
//   whose assertion is historical, over current matched state claims), historical recall, inflation (unmatched claims over assertions),
//   older value first (questions whose first item naming a value of the slot names an old one)
// Returns the exit code: 0, 1 for an engine or data error, 2 for bad options.
int RunStateBench(const StateBenchOptions& options);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_STATE_BENCH_H_
