// bench/main.cc — `engram-bench`: reproducible benchmarks of the engram engine.
//
//   engram-bench locomo --data ../shared/data/locomo/locomo_dev.json [--json]
//                       [--limit-conversations N]
#include <CLI/CLI.hpp>

#include "locomo_bench.h"

int main(int argc, char** argv) {
  CLI::App app{"engram-bench: retrieval quality and speed of the engram memory engine"};
  app.require_subcommand(1);

  engram::bench::LocomoBenchOptions locomo;
  CLI::App* locomo_cmd = app.add_subcommand(
      "locomo",
      "LoCoMo evidence retrieval and fact extraction: turn-level and session-level recall per "
      "category, fact coverage, claims per turn, bytes stored, query latency, ingest and extraction "
      "speed, for the engram defaults (with and without the claims channel) and a plain BM25 "
      "baseline");
  locomo_cmd->add_option("--data", locomo.data_path, "LoCoMo JSON file (a list of samples)")
      ->required();
  locomo_cmd->add_flag("--json", locomo.json, "print one JSON object instead of tables");
  locomo_cmd
      ->add_option("--limit-conversations", locomo.limit_conversations,
                   "score only the first N conversations (0 = all)")
      ->check(CLI::NonNegativeNumber);

  CLI11_PARSE(app, argc, argv);

  if (locomo_cmd->parsed()) return engram::bench::RunLocomoBench(locomo);
  return 1;
}
