// bench/main.cc — `engram-bench`: reproducible benchmarks of the engram engine.
//
//   engram-bench locomo --data ../shared/data/locomo/locomo_dev.json [--json]
//                       [--limit-conversations N]
//   engram-bench memorybank --data ../shared/data/memorybank --lang cn|en [--gold FILE] [--json]
//                           [--dump-misses] [--limit-users N]
#include <CLI/CLI.hpp>

#include "locomo_bench.h"
#include "memorybank_bench.h"

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
  locomo_cmd->add_flag("--ablation", locomo.ablation,
                       "also run engram with each event channel (window, date, speaker, claim keys) off in turn");
  locomo_cmd->add_flag("--budgets", locomo.budgets,
                       "also score engram's context packets under 512, 1024, 2048 and 4096 token budgets");
  locomo_cmd
      ->add_option("--limit-conversations", locomo.limit_conversations,
                   "score only the first N conversations (0 = all)")
      ->check(CLI::NonNegativeNumber);

  engram::bench::MemoryBankBenchOptions memorybank;
  CLI::App* memorybank_cmd = app.add_subcommand(
      "memorybank",
      "MemoryBank (SiliconFriend) exchange retrieval, Chinese or English: recall@1/3/5/10 and "
      "hit@k over the exchanges of each dev user, for the engram defaults (with and without the "
      "claims channel) and a plain BM25 baseline (character bigrams for Chinese), with Recall "
      "latency");
  memorybank_cmd
      ->add_option("--data", memorybank.data_dir,
                   "the memorybank folder (holding cn/memory_bank_cn.json, en/memory_bank_en.json)")
      ->required();
  memorybank_cmd->add_option("--lang", memorybank.lang, "cn or en")->required();
  memorybank_cmd->add_option("--gold", memorybank.gold_path,
                             "gold evidence JSONL (default: DATA/gold_<lang>_dev.jsonl)");
  memorybank_cmd->add_flag("--json", memorybank.json, "print one JSON object instead of tables");
  memorybank_cmd->add_flag("--dump-misses", memorybank.dump_misses,
                           "also list each question some configuration misses at k = 5");
  memorybank_cmd
      ->add_option("--limit-users", memorybank.limit_users,
                   "score only the first N users of the gold file (0 = all)")
      ->check(CLI::NonNegativeNumber);

  CLI11_PARSE(app, argc, argv);

  if (locomo_cmd->parsed()) return engram::bench::RunLocomoBench(locomo);
  if (memorybank_cmd->parsed()) return engram::bench::RunMemoryBankBench(memorybank);
  return 1;
}
