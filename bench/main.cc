// bench/main.cc — `engram-bench`: reproducible benchmarks of the engram engine.
//
//   engram-bench locomo --data ../shared/data/locomo/locomo_dev.json [--json]
//                       [--limit-conversations N] [--observation-claims]
//   engram-bench memorybank --data ../shared/data/memorybank --lang cn|en [--gold FILE] [--json]
//                           [--dump-misses] [--limit-users N]
//   engram-bench scale --events N [--queries Q] [--seed S] [--json] [--db PATH [--reuse]] [--keep]
//                      [--no-claims] [--batch B]
//   engram-bench maintenance --events N [--queries Q] [--seed S] [--json]
//   engram-bench recall-qps --db FILE --queries TSV [--threads T] [--seconds S | --recalls N]
//                           [--through-api] [--json]
//   engram-bench state --data ../shared/data/hlmem_state [--split dev] [--json] [--dump-misses]
//   engram-bench experience exp1|exp2|boundary|share --data ../shared/data/taubench [--queries FILE] [--json]
//                           [--variant NAME:key=value,...] [--read-prefix P ...] [--dump FILE]
//   engram-bench working --data ../shared/data/taubench [--json] [--dump FILE]
#include <CLI/CLI.hpp>

#include "experience_bench.h"
#include "locomo_bench.h"
#include "maintenance_bench.h"
#include "memorybank_bench.h"
#include "recall_qps_bench.h"
#include "scale_bench.h"
#include "state_bench.h"
#include "working_bench.h"

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
  locomo_cmd->add_option("--variant", locomo.variants,
                         "an extra configuration NAME:key=value,... (engram with RecallWeights fields, embedder, "
                         "extractor or claims_channel changed); repeatable");
  locomo_cmd->add_option("--only", locomo.only, "run only the configurations with these names")->delimiter(',');
  locomo_cmd->add_option("--dump", locomo.dump_path,
                         "write one JSON line per question and configuration (gold, top 10 items, channel ranks) to FILE");
  locomo_cmd->add_flag("--observation-claims", locomo.observation_claims,
                       "also run engram_observations: the LLM extractor path answered by a loopback stand-in model "
                       "that returns LoCoMo's own GPT-3.5 observation facts (applies to every configuration with "
                       "extractor=llm)");
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

  engram::bench::ScaleBenchOptions scale;
  CLI::App* scale_cmd = app.add_subcommand(
      "scale",
      "speed at scale: one synthetic namespace of N generated chat events (deterministic, no data "
      "files; see bench/README.md), ingest and extraction rates, recall latency p50/p95/p99 of Q "
      "generated questions, recall@10 of their gold events, answerability, store size and peak "
      "RSS per phase");
  scale_cmd->add_option("--events", scale.events, "N: events to generate and ingest")
      ->required()
      ->check(CLI::PositiveNumber);
  scale_cmd->add_option("--queries", scale.queries, "Q: questions to ask (default 300)")
      ->check(CLI::PositiveNumber);
  scale_cmd->add_option("--seed", scale.seed, "generator seed (default 1)");
  scale_cmd->add_option("--batch", scale.batch, "events per IngestBatch (default 1000)")
      ->check(CLI::PositiveNumber);
  scale_cmd->add_flag("--json", scale.json, "print one JSON object instead of tables");
  scale_cmd->add_option("--db", scale.db_path,
                        "write the database to this new file and keep it (default: a temporary "
                        "folder, removed at the end)");
  scale_cmd->add_flag("--keep", scale.keep, "keep the temporary database (its path on stderr)");
  scale_cmd->add_flag("--reuse", scale.reuse,
                      "--db names a store kept by an earlier run with the same --seed, --events and "
                      "--batch: replay its ingest (idempotent) and measure recall again");
  scale_cmd->add_flag("--no-claims", scale.no_claims,
                      "skip extraction (Process): events only, no claims");
  scale_cmd->add_flag("--compare-exhaustive", scale.compare_exhaustive,
                      "ask each question again with pruned matching and without it, back to back: "
                      "latency of both and the number of questions whose items differ");

  engram::bench::MaintenanceBenchOptions maintenance;
  CLI::App* maintenance_cmd = app.add_subcommand(
      "maintenance",
      "lifecycle maintenance vs recall: recall latency p50/p95/p99 on one connection, alone, while "
      "another connection runs maintenance passes back to back, and while it holds the write lock");
  maintenance_cmd->add_option("--events", maintenance.events, "N: synthetic events (default 10000)")
      ->check(CLI::PositiveNumber);
  maintenance_cmd->add_option("--queries", maintenance.queries, "Q: recalls per phase (default 500)")
      ->check(CLI::PositiveNumber);
  maintenance_cmd->add_option("--seed", maintenance.seed, "generator seed (default 1)");
  maintenance_cmd->add_flag("--json", maintenance.json, "print one JSON object instead of a table");

  engram::bench::RecallQpsBenchOptions qps;
  CLI::App* qps_cmd = app.add_subcommand(
      "recall-qps", "in-process recall throughput: T threads, each with its own read-only Engine");
  qps_cmd->add_option("--db", qps.db_path, "an existing engram database")->required();
  qps_cmd->add_option("--queries", qps.queries_path, "one namespace<TAB>question a line")->required();
  qps_cmd->add_option("--threads", qps.threads, "threads (default 2)")->check(CLI::PositiveNumber);
  qps_cmd->add_option("--seconds", qps.seconds, "measured seconds (default 10)")->check(CLI::PositiveNumber);
  qps_cmd->add_option("--recalls", qps.recalls, "a fixed number of recalls per thread instead of --seconds")
      ->check(CLI::PositiveNumber);
  qps_cmd->add_flag("--through-api", qps.through_api,
                    "recall through api::Invoke and the JSON body (REST minus the socket)");
  qps_cmd->add_flag("--json", qps.json, "print one JSON object");
  engram::bench::StateBenchOptions state;
  CLI::App* state_cmd = app.add_subcommand(
      "state",
      "HL-Mem's state-lifecycle benchmark: each bundle one session of its own namespace; atomic, "
      "coordinate and supersede-edge precision and recall, counterexample supersedes, stale "
      "injection, historical recall, claim inflation, and how often recall ranks an older value first "
      "for a current-state question");
  state_cmd->add_option("--data", state.data_dir, "the hlmem_state folder (v0300_state_<split>_*.jsonl)")
      ->required();
  state_cmd->add_option("--split", state.split, "split name (default dev)");
  state_cmd->add_flag("--json", state.json, "print one JSON object instead of a table");
  state_cmd->add_flag("--dump-misses", state.dump_misses,
                      "list unmatched assertions, wrong edges, inflated claims and older-first answers on stderr");

  engram::bench::ExperienceBenchOptions experience;
  CLI::App* experience_cmd = app.add_subcommand(
      "experience",
      "experience recall on τ-bench (../shared/data/taubench/SOURCE.md): exp1 — retail tasks as episodes, "
      "leave-one-out (or --queries FILE against all of train+dev): Hit@5, MRR, P@5 micro/macro, nDCG@10, vote@5, "
      "latency; exp2 — the airline trajectories with their outcomes, leave one task out: success-same-type P@5, "
      "failed-same-type@5, MRR, failures as avoid rules; each with its BM25 baseline of the same run; share — the "
      "sharing gate, trial = agent, one trial held out in turn: precision of the promoted types and rules on it, "
      "against no gate and a majority gate");
  experience_cmd->add_option("protocol", experience.protocol,
                             "exp1, exp2, boundary (task boundaries of the airline streams: boundary F1) or share")
      ->required();
  experience_cmd->add_option("--data", experience.data_dir, "the taubench folder")->required();
  experience_cmd->add_option("--queries", experience.queries_path,
                             "exp1: a task file (the retail format) whose every task is a query against train+dev");
  experience_cmd->add_flag("--json", experience.json, "print one JSON object instead of a table");
  experience_cmd->add_option("--variant", experience.variants,
                             "an extra engram configuration NAME:key=value,... (ExperienceOptions fields); repeatable");
  experience_cmd->add_option("--read-prefix", experience.read_prefixes,
                             "action names with this prefix are reads (default: get_ find_ list_ calculate think)");
  experience_cmd->add_option("--dump", experience.dump_path, "one JSON line per query and configuration to FILE");

  engram::bench::WorkingBenchOptions working;
  CLI::App* working_cmd = app.add_subcommand(
      "working", "W-1: working memory of the τ-bench airline trajectories compacted to 50/20/10% of their tokens: "
                 "constraints kept verbatim, none invented, against keeping the newest turns");
  working_cmd->add_option("--data", working.data_dir, "the taubench folder (airline_trajectories_gpt4o.json)")
      ->required();
  working_cmd->add_flag("--json", working.json, "print one JSON object instead of a table");
  working_cmd->add_option("--dump", working.dump_path, "write each session's constraints (one JSON line each) to FILE");

  CLI11_PARSE(app, argc, argv);
  if (working_cmd->parsed()) return engram::bench::RunWorkingBench(working);
  if (locomo_cmd->parsed()) return engram::bench::RunLocomoBench(locomo);
  if (memorybank_cmd->parsed()) return engram::bench::RunMemoryBankBench(memorybank);
  if (scale_cmd->parsed()) return engram::bench::RunScaleBench(scale);
  if (maintenance_cmd->parsed()) return engram::bench::RunMaintenanceBench(maintenance);
  if (qps_cmd->parsed()) return engram::bench::RunRecallQpsBench(qps);
  if (state_cmd->parsed()) return engram::bench::RunStateBench(state);
  if (experience_cmd->parsed()) return engram::bench::RunExperienceBench(experience);
  return 1;
}
