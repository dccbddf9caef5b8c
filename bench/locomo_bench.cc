// bench/locomo_bench.cc — LoCoMo evidence retrieval through the public Engine API.
//
// Protocol (../shared/reference/benchmarks.md §5 P1, P2): one isolated store per conversation,
// every turn ingested as one event (import::ToEventInputs), every question of categories 1–5 with
// gold evidence asked verbatim with Recall(limit 50); returned events are mapped back to their
// dia_id through metadata_json and scored with eval/retrieval_metrics.h. Headline = categories 1–4
// ("overall", n = 760 on the dev split); category 5 (adversarial) is reported on its own.
// Returned claims are mapped to the dia_ids of their `supports` evidence and the union over the
// top-k items is scored (P1).
//
// Write path (§5 P4): after the ingest, Engine::Process(drain) runs extraction (timed); the
// conversation's claims (ListClaims, history included) give the fact coverage — the share of the
// evidence turns of categories 1–4 that are the `supports` evidence of at least one claim — plus
// claims per turn, claims by predicate and the bytes stored.
//
// --observation-claims: the configuration `engram_observations` (and every other configuration
// with extractor "llm") gets its claims from engram's LLM extractor talking to a loopback stand-in
// model that answers with LoCoMo's own GPT-3.5 observation facts (bench/observation_chat_server.h).
#include "locomo_bench.h"
#include "temp_dir.h"
#include "bench_util.h"
#include "locomo_observations.h"
#include "observation_chat_server.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "engram/engine.h"
#include "engram/options.h"
#include "eval/retrieval_metrics.h"
#include "import/locomo.h"
#include "write/admission.h"
#include "write/extraction/extractor.h"
#include "write/extraction/extractor_factory.h"
#include "write/extraction/llm_extractor.h"

namespace engram::bench {
namespace {

using json = nlohmann::ordered_json;

constexpr int kRecallLimit = 50;
constexpr std::array<int, 4> kTurnKs = {5, 10, 20, 50};
constexpr std::array<int, 4> kSessionKs = {1, 3, 5, 10};
constexpr int kContextK = 10;      // turns / tokens / claims "in the top 10 items"
constexpr int kTopPredicates = 10;  // claims by predicate: the most frequent ones
constexpr int kOverall = 0;         // bucket id of categories 1–4 together

// Official LoCoMo category ids (benchmarks.md §1.4), report order.
struct CategoryName {
  int id;
  const char* key;    // JSON key
  const char* label;  // table header
};
constexpr std::array<CategoryName, 6> kCategories = {{{1, "multi_hop", "multi-hop"},
                                                      {2, "temporal", "temporal"},
                                                      {3, "open_domain", "open-dom"},
                                                      {4, "single_hop", "single-hop"},
                                                      {5, "adversarial", "adversarial"},
                                                      {kOverall, "overall", "overall 1-4"}}};

struct Configuration {
  std::string name;
  TextAnalysis analysis;
  double bm25_k1;
  double bm25_b;
  std::string extractor;  // Options::extractor
  bool include_claims;    // RecallQuery::include_claims (the events channel is always on)
  RecallWeights weights = {};  // Options::recall
  std::string embedder = "none";  // Options::embedder (the dense channel)
  // > 0: ingest the first N events, recall once (as an agent does after its first turns), then
  // ingest the rest: what state made at that first recall (the dense channel's SIF fit) does to
  // the questions asked at the end.
  int recall_after = 0;
};

// Every event channel but the plain BM25 of each event turned off.
RecallWeights TurnOnly() {
  RecallWeights w;
  w.window = w.reply = w.dense = w.date = w.speaker = 0;
  return w;
}

// `base` with the settings of "NAME:key=value,..." (LocomoBenchOptions::variants) applied.
Result<Configuration> ParseVariant(Configuration base, const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == 0 || colon == std::string::npos) {
    return Error(Status::InvalidArgument(fmt::format("--variant \"{}\": expected NAME:key=value,...", spec)));
  }
  base.name = spec.substr(0, colon);
  const std::map<std::string, double RecallWeights::*> doubles = {
      {"turn", &RecallWeights::turn},       {"window", &RecallWeights::window},
      {"reply", &RecallWeights::reply},
      {"dense", &RecallWeights::dense},     {"date", &RecallWeights::date},
      {"speaker", &RecallWeights::speaker}, {"claims", &RecallWeights::claims},
      {"feedback", &RecallWeights::feedback}};
  const std::map<std::string, int RecallWeights::*> ints = {{"window_radius", &RecallWeights::window_radius},
                                                            {"window_pool", &RecallWeights::window_pool}};
  std::stringstream settings(spec.substr(colon + 1));
  std::string setting;
  while (std::getline(settings, setting, ',')) {
    const size_t eq = setting.find('=');
    const std::string key = setting.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : setting.substr(eq + 1);
    try {
      if (auto d = doubles.find(key); d != doubles.end()) {
        base.weights.*(d->second) = std::stod(value);
      } else if (auto i = ints.find(key); i != ints.end()) {
        base.weights.*(i->second) = std::stoi(value);
      } else if (key == "filter_named_day") {
        base.weights.filter_named_day = std::stoi(value) != 0;
      } else if (key == "embedder") {
        base.embedder = value;
      } else if (key == "extractor") {
        base.extractor = value;
      } else if (key == "recall_after") {
        base.recall_after = std::stoi(value);
      } else if (key == "claims_channel") {
        base.include_claims = std::stoi(value) != 0;
      } else {
        return Error(Status::InvalidArgument(fmt::format("--variant \"{}\": unknown key \"{}\"", spec, key)));
      }
    } catch (const std::exception&) {
      return Error(Status::InvalidArgument(fmt::format("--variant \"{}\": bad value for \"{}\"", spec, key)));
    }
  }
  return base;
}

Result<std::vector<Configuration>> Configurations(const LocomoBenchOptions& options) {
  Options defaults;
  std::vector<Configuration> configs = {
      {"engram", defaults.analysis, defaults.bm25_k1, defaults.bm25_b, defaults.extractor, true},
      // The same store (extraction included) with the claims channel off: what claims add to, or
      // cost, turn recall.
      {"engram_events", defaults.analysis, defaults.bm25_k1, defaults.bm25_b, defaults.extractor,
       false},
      // The baseline of benchmarks.md §5.3 / retrieval_findings.md: classic BM25Okapi parameters
      // over lowercase alphanumeric words, no extraction, events only.
      {"plain_bm25", TextAnalysis::kPlain, 1.5, 0.75, "none", false, TurnOnly()},
  };
  // `engram` plus the dense channel (SIF-weighted GloVe, weight RecallWeights::dense), only when
  // the word-vector file is installed (`engram models install glove`).
  std::string model = DefaultGloveModelPath();
  if (const char* env = std::getenv("ENGRAM_EMBEDDER_MODEL"); env != nullptr && *env != '\0') model = env;
  if (std::filesystem::exists(model)) {
    configs.insert(configs.begin() + 1, {"engram_dense", defaults.analysis, defaults.bm25_k1, defaults.bm25_b,
                                         defaults.extractor, true, RecallWeights{}, "glove"});
  } else {
    std::cerr << "engram-bench locomo: skipping configuration engram_dense: no word-vector file at " << model
              << " (run `engram models install glove`)\n";
  }
  if (options.ablation) {
    // Each event channel of `engram` turned off in turn (RecallWeights): what each is worth.
    const std::pair<const char*, double RecallWeights::*> channels[] = {
        {"engram_no_window", &RecallWeights::window},
        {"engram_no_reply", &RecallWeights::reply},
        {"engram_no_date", &RecallWeights::date},
        {"engram_no_speaker", &RecallWeights::speaker},
        {"engram_no_claim_keys", &RecallWeights::claims}};
    for (const auto& [name, weight] : channels) {
      Configuration c = configs.front();
      c.name = name;
      c.weights.*weight = 0;
      configs.push_back(c);
    }
  }
  for (const std::string& spec : options.variants) {
    auto variant = ParseVariant(configs.front(), spec);
    if (!variant) return Error(variant.error());
    configs.push_back(std::move(*variant));
  }
  if (options.observation_claims) {
    // engram's defaults with the LLM extractor, the model played by the observation stand-in.
    Configuration c = configs.front();
    c.name = "engram_observations";
    c.extractor = "llm";
    configs.push_back(c);
  }
  if (!options.only.empty()) {
    std::erase_if(configs, [&](const Configuration& c) {
      return std::find(options.only.begin(), options.only.end(), c.name) == options.only.end();
    });
  }
  return configs;
}

const char* AnalysisName(TextAnalysis a) { return a == TextAnalysis::kFull ? "full" : "plain"; }

// Metric names in report order; ScoreQuestion returns values in the same order.
std::vector<std::string> MetricNames() {
  std::vector<std::string> names;
  for (const char* m : {"locomo_recall", "recall_any", "recall_all", "ndcg_any"}) {
    for (int k : kTurnKs) names.push_back(fmt::format("{}@{}", m, k));
  }
  for (int k : kSessionKs) names.push_back(fmt::format("session_recall_all@{}", k));
  return names;
}

// The turns of the first k returned items: the union of their dia_ids, in order of first
// appearance (an event is one turn; a claim is the turns of its `supports` evidence).
std::vector<std::string> TurnsOfTopItems(const std::vector<std::vector<std::string>>& item_turns,
                                         size_t k) {
  std::vector<std::string> turns;
  std::set<std::string> seen;
  for (size_t i = 0; i < item_turns.size() && i < k; ++i) {
    for (const std::string& id : item_turns[i]) {
      if (seen.insert(id).second) turns.push_back(id);
    }
  }
  return turns;
}

// Scores one question. `item_turns` holds the dia_ids of each returned item, best item first.
// Turn metrics at k score the union of the turns of the top k items (P1); the cut-off passed to
// the metric is max(k, size of that union), so that a list of events (one turn each) is scored
// exactly as a plain ranked list of turns, and ndcg ranks the turns in order of first appearance.
// Session metrics rank sessions by the first appearance of any of their turns.
std::vector<double> ScoreQuestion(const std::vector<std::vector<std::string>>& item_turns,
                                  const std::vector<std::string>& gold,
                                  const std::vector<std::string>& gold_sessions) {
  std::array<std::vector<std::string>, kTurnKs.size()> top;
  std::array<int, kTurnKs.size()> cutoff{};
  for (size_t i = 0; i < kTurnKs.size(); ++i) {
    top[i] = TurnsOfTopItems(item_turns, static_cast<size_t>(kTurnKs[i]));
    cutoff[i] = std::max(kTurnKs[i], static_cast<int>(top[i].size()));
  }
  std::vector<double> v;
  for (size_t i = 0; i < kTurnKs.size(); ++i) {
    v.push_back(eval::LocomoRecallAtK(top[i], gold, cutoff[i]));
  }
  for (size_t i = 0; i < kTurnKs.size(); ++i) {
    v.push_back(eval::RecallAnyAtK(top[i], gold, cutoff[i]));
  }
  for (size_t i = 0; i < kTurnKs.size(); ++i) {
    v.push_back(eval::RecallAllAtK(top[i], gold, cutoff[i]));
  }
  for (size_t i = 0; i < kTurnKs.size(); ++i) {
    v.push_back(eval::NdcgAnyAtK(top[i], gold, cutoff[i]));
  }
  std::vector<std::string> ranked_sessions;
  for (const std::string& id : TurnsOfTopItems(item_turns, item_turns.size())) {
    int s = import::LocomoSessionOf(id);
    ranked_sessions.push_back(s == 0 ? std::string() : fmt::format("S{}", s));
  }
  for (int k : kSessionKs) {
    v.push_back(eval::SessionRecallAllAtK(ranked_sessions, gold_sessions, k));
  }
  return v;
}

// Mean of every metric over the questions of one bucket.
struct Bucket {
  std::vector<eval::MeanAccumulator> metrics =
      std::vector<eval::MeanAccumulator>(MetricNames().size());
  int64_t n() const { return metrics.empty() ? 0 : metrics[0].count(); }
  void Add(const std::vector<double>& values) {
    for (size_t i = 0; i < values.size(); ++i) metrics[i].Add(values[i]);
  }
};

// Fact coverage of one bucket of questions (benchmarks.md §5 P4).
struct Coverage {
  int64_t turns = 0;          // distinct evidence turns (per conversation) of the bucket's questions
  int64_t covered_turns = 0;  // ... that are the evidence of at least one fact
  int64_t refs = 0;           // (question, evidence turn) pairs: the unit of the 79.6% reference
  int64_t covered_refs = 0;
  double Share() const {
    return turns > 0 ? static_cast<double>(covered_turns) / static_cast<double>(turns) : 0.0;
  }
  double RefShare() const {
    return refs > 0 ? static_cast<double>(covered_refs) / static_cast<double>(refs) : 0.0;
  }
};
using CoverageByCategory = std::map<int, Coverage>;  // by category id; kOverall = 1–4

// Adds the coverage of one conversation, given the dia_ids that are the evidence of a fact.
void AddCoverage(const import::LocomoConversation& conv, const std::set<std::string>& covered,
                 CoverageByCategory& out) {
  std::map<int, std::set<std::string>> turns;
  for (const import::LocomoQuestion& q : conv.questions) {
    if (q.category < 1 || q.category > 5) continue;
    for (const std::string& id : q.evidence) {
      for (int bucket : {q.category, q.category <= 4 ? kOverall : -1}) {
        if (bucket < 0) continue;
        Coverage& c = out[bucket];
        ++c.refs;
        if (covered.count(id) > 0) ++c.covered_refs;
        turns[bucket].insert(id);
      }
    }
  }
  for (const auto& [bucket, ids] : turns) {
    Coverage& c = out[bucket];
    c.turns += static_cast<int64_t>(ids.size());
    for (const std::string& id : ids) c.covered_turns += covered.count(id) > 0 ? 1 : 0;
  }
}

struct ConversationReport {
  Bucket recall;       // categories 1–4
  Coverage coverage;   // categories 1–4
  int64_t events = 0;
  int64_t claims = 0;  // all statuses
  double extraction_ms = 0;
};

// Token budgets of protocol P3 (benchmarks.md): recall of gold turns inside the packed packet.
constexpr std::array<int, 4> kBudgets = {512, 1024, 2048, 4096};

struct ConfigReport {
  Configuration config;
  bool score_budgets = false;
  std::map<int, eval::MeanAccumulator> budget_recall;  // by budget: LoCoMo recall of the packet
  std::map<int, eval::MeanAccumulator> budget_tokens;  // by budget: used_tokens
  double ingest_ms = 0;
  int64_t events = 0;
  std::vector<double> latencies_ms;
  // CPU time of the calling thread per Recall (CLOCK_THREAD_CPUTIME_ID), ms: unlike wall time it
  // does not grow when other processes share the cores, so it compares builds on a busy machine.
  std::vector<double> cpu_ms;
  // The same questions asked first at the default limit (RecallQuery::limit, 10: what an agent
  // asks for), in a pass of their own before the scored pass: wall and thread-CPU ms.
  std::vector<double> default_limit_latencies_ms;
  std::vector<double> default_limit_cpu_ms;
  eval::MeanAccumulator items_returned;
  int64_t unmapped_items = 0;     // returned items without a known dia_id (should stay 0)
  int64_t claim_items = 0;        // returned items of type "claim" (all positions)
  // Protocol P6: questions (categories 1-4) whose candidates were cut to the one day they name,
  // and how many of those kept no gold turn among the returned items.
  int64_t day_filtered = 0;
  int64_t day_filter_no_gold = 0;
  eval::MeanAccumulator claims_in_context;  // claims among the top kContextK items
  eval::MeanAccumulator turns_in_context;   // distinct turns of the top kContextK items
  eval::MeanAccumulator tokens_in_context;  // whitespace tokens of their text
  std::map<int, Bucket> buckets;  // by category id; kOverall = 1–4
  std::map<std::string, ConversationReport> per_conversation;
  std::vector<std::string> conversation_order;
  // Write path.
  double extraction_ms = 0;  // wall time of Process(drain = true)
  // The extractor alone (Extractor::Extract over the same batches, no store): what Process costs
  // beyond the queue, admission and the writes.
  double extractor_ms = 0;
  int64_t extractor_events = 0;
  int64_t extractor_candidates = 0;
  // The LLM extractor in that extractor-alone pass (LlmExtractionStats summed over the batches;
  // only for extractor "llm"), and Admit() over its candidates: rejections by reason code.
  bool llm_extractor = false;
  int64_t llm_claims_returned = 0;
  int64_t llm_claims_dropped = 0;
  std::map<std::string, int64_t> llm_dropped_by_reason;
  int64_t llm_warnings = 0;  // LlmExtractionStats::warnings lines (drops and normalisations)
  std::vector<std::string> llm_warning_examples;  // the first few
  int64_t llm_repairs = 0;
  int64_t llm_parse_failures = 0;
  int64_t admission_rejected = 0;
  std::map<std::string, int64_t> admission_rejected_by_reason;
  // --observation-claims: the stand-in model (not owned; null when not used by this
  // configuration) and what it served during Process (the extractor-alone pass asks it again).
  const ObservationChatServer* stand_in = nullptr;
  ObservationChatStats stand_in_process;
  ProcessReport process;     // summed over conversations (errors: the first few)
  int64_t claims = 0;        // stored claims, every status (ListClaims with history)
  int64_t active_claims = 0;
  std::map<std::string, int64_t> claims_by_predicate;
  std::set<std::string> claim_extractors;  // Claim::extractor values seen
  CoverageByCategory coverage;
  int64_t file_bytes = 0;  // Stats() of a freshly opened engine, summed over conversations
  int64_t wal_bytes = 0;
  std::ofstream* dump = nullptr;  // LocomoBenchOptions::dump_path, when set
};

// One line of `--dump`: the question, its gold and what the top 10 items were.
json DumpLine(const ConfigReport& report, const std::string& sample_id, size_t qi,
              const import::LocomoQuestion& q, const RecallResult& found,
              const std::vector<std::vector<std::string>>& item_turns) {
  json items = json::array();
  for (size_t i = 0; i < found.items.size() && i < 10; ++i) {
    const RecallItem& item = found.items[i];
    json channels = json::object();
    for (const ChannelScore& c : item.channels) channels[c.channel] = {c.rank, c.score};
    items.push_back({{"type", item.type}, {"dia_ids", item_turns[i]}, {"score", item.score},
                     {"speaker", item.speaker}, {"text", item.text}, {"channels", channels}});
  }
  json stages = json::object();
  for (const RecallStage& s : found.stages) stages[s.name] = s.count;
  json gold_ranks = json::object();  // gold dia_id → 1-based rank of the first item holding it, or null
  for (const std::string& id : q.evidence) {
    gold_ranks[id] = nullptr;
    for (size_t i = 0; i < item_turns.size(); ++i) {
      if (std::find(item_turns[i].begin(), item_turns[i].end(), id) != item_turns[i].end()) {
        gold_ranks[id] = i + 1;
        break;
      }
    }
  }
  return {{"config", report.config.name}, {"sample", sample_id}, {"qa", qi}, {"category", q.category},
          {"question", q.question}, {"gold", q.evidence}, {"gold_ranks", gold_ranks}, {"intent", found.intent},
          {"stages", stages}, {"top", items}};
}

// LoCoMo's own GPT-3.5 `observation` facts, each citing its source dia_id(s): the reference point
// of P4, computed on the same file and questions.
struct ObservationReference {
  bool present = false;  // the file has `observation` fields
  int64_t facts = 0;
  int64_t turns = 0;  // turns of the conversations scored
  CoverageByCategory coverage;
};

// The "dia_id" of a metadata_json object; "" when absent.
std::string DiaIdOfMetadata(const std::string& metadata_json) {
  if (metadata_json.empty()) return "";
  json meta = json::parse(metadata_json, nullptr, /*allow_exceptions=*/false);
  if (!meta.is_object()) return "";
  auto it = meta.find("dia_id");
  if (it == meta.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

// The turns a recalled item stands for: an event's own dia_id; for a claim, the dia_ids of its
// `supports` evidence, in evidence order, without repeats. Empty ids are left out.
std::vector<std::string> DiaIdsOf(const RecallItem& item) {
  std::vector<std::string> ids;
  if (item.type == "claim") {
    for (const EvidenceRef& ev : item.evidence) {
      if (ev.relation != "supports") continue;
      std::string id = DiaIdOfMetadata(ev.metadata_json);
      if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) {
        ids.push_back(std::move(id));
      }
    }
  } else {
    std::string id = DiaIdOfMetadata(item.metadata_json);
    if (!id.empty()) ids.push_back(std::move(id));
  }
  return ids;
}

int64_t WhitespaceTokens(const std::string& text) {
  std::istringstream in(text);
  int64_t n = 0;
  for (std::string word; in >> word;) ++n;
  return n;
}

bool IsScoredCategory(int category) { return category >= 1 && category <= 5; }

Options EngineOptions(const Configuration& config, const std::string& db_path) {
  Options options;
  options.db_path = db_path;
  options.analysis = config.analysis;
  options.bm25_k1 = config.bm25_k1;
  options.bm25_b = config.bm25_b;
  options.extractor = config.extractor;
  options.recall = config.weights;
  options.embedder = config.embedder;
  return options;
}

// Every claim of the namespace, history included.
Result<std::vector<Claim>> AllClaims(Engine& engine, const std::string& namespace_name) {
  constexpr int kPage = 100000;  // ListClaimsQuery's maximum
  std::vector<Claim> all;
  for (int offset = 0;; offset += kPage) {
    ListClaimsQuery query;
    query.namespace_name = namespace_name;
    query.include_history = true;
    query.limit = kPage;
    query.offset = offset;
    Result<std::vector<Claim>> page = engine.ListClaims(query);
    if (!page) return Error(page.error().WithContext("ListClaims"));
    const size_t n = page->size();
    for (Claim& c : *page) all.push_back(std::move(c));
    if (n < static_cast<size_t>(kPage)) break;
  }
  return all;
}

// Adds Process(drain) counters to a running sum.
void AddProcessReport(const ProcessReport& r, ProcessReport& sum) {
  sum.batches += r.batches;
  sum.events += r.events;
  sum.claims_created += r.claims_created;
  sum.claims_confirmed += r.claims_confirmed;
  sum.claims_superseded += r.claims_superseded;
  sum.claims_disputed += r.claims_disputed;
  sum.candidates_rejected += r.candidates_rejected;
  sum.jobs_failed += r.jobs_failed;
  for (const std::string& e : r.errors) {
    if (sum.errors.size() < 5) sum.errors.push_back(e);
  }
}

// Times the configuration's extractor alone over the stored events, batched as the worker does:
// consecutive events of one session, at most Options::extraction_batch_events per batch.
Status TimeExtractorAlone(const std::vector<IngestResult>& ingested, ConfigReport& report) {
  Result<std::unique_ptr<extraction::Extractor>> extractor =
      extraction::MakeExtractor(report.config.extractor);
  if (!extractor) return extractor.error().WithContext("MakeExtractor");
  const auto batch_size = static_cast<size_t>(std::max(1, Options().extraction_batch_events));
  std::vector<std::vector<Event>> batches;
  for (const IngestResult& r : ingested) {
    if (batches.empty() || batches.back().size() >= batch_size ||
        batches.back().back().session_id != r.event.session_id) {
      batches.emplace_back();
    }
    batches.back().push_back(r.event);
  }
  auto* llm = dynamic_cast<extraction::LlmExtractor*>(extractor->get());
  report.llm_extractor = report.llm_extractor || llm != nullptr;
  constexpr size_t kWarningExamples = 5;
  double ms = 0;
  for (const std::vector<Event>& batch : batches) {
    Clock::time_point start = Clock::now();
    Result<std::vector<extraction::CandidateClaim>> found = (*extractor)->Extract(batch);
    ms += MsSince(start);
    if (llm != nullptr) {
      const extraction::LlmExtractionStats& st = llm->last_stats();
      report.llm_claims_returned += st.claims_returned;
      report.llm_claims_dropped += st.claims_dropped;
      for (const auto& [reason, n] : st.dropped_by_reason) report.llm_dropped_by_reason[reason] += n;
      report.llm_warnings += static_cast<int64_t>(st.warnings.size());
      for (const std::string& w : st.warnings) {
        if (report.llm_warning_examples.size() < kWarningExamples) report.llm_warning_examples.push_back(w);
      }
      report.llm_repairs += st.repaired ? 1 : 0;
      report.llm_parse_failures += st.parse_failed ? 1 : 0;
    }
    if (!found) return found.error().WithContext("Extract");
    report.extractor_candidates += static_cast<int64_t>(found->size());
    report.extractor_events += static_cast<int64_t>(batch.size());
    // What admission would make of them (Process applies the same policy; see write/admission.h).
    for (const extraction::CandidateClaim& c : *found) {
      // import::ToEventInputs makes every LoCoMo session "interactive".
      AdmissionDecision decision = Admit(c, batch, "interactive");
      if (!decision.admitted) {
        ++report.admission_rejected;
        ++report.admission_rejected_by_reason[decision.reason];
      }
    }
  }
  report.extractor_ms += ms;
  return Status::Ok();
}

// IngestBatch of `events`; with recall_after = N in (0, size), the first N, one recall of the first
// question (its result unused), then the rest.
Result<std::vector<IngestResult>> EarlyRecallIngest(Engine& engine, const import::LocomoConversation& conv,
                                                    const std::vector<EventInput>& events, int recall_after) {
  if (recall_after <= 0 || static_cast<size_t>(recall_after) >= events.size() || conv.questions.empty()) {
    return engine.IngestBatch(events);
  }
  const auto split = events.begin() + recall_after;
  auto first = engine.IngestBatch(std::vector<EventInput>(events.begin(), split));
  if (!first) return first;
  RecallQuery early;
  early.text = conv.questions.front().question;
  early.namespace_name = conv.sample_id;
  auto recalled = engine.Recall(early);
  if (!recalled) return Error(recalled.error().WithContext("the early recall"));
  auto rest = engine.IngestBatch(std::vector<EventInput>(split, events.end()));
  if (!rest) return rest;
  first->insert(first->end(), rest->begin(), rest->end());
  return first;
}

// Ingests one conversation into a fresh database, runs extraction, measures the claims, asks the
// questions and measures the store; adds to `report`.
Status RunConversation(const import::LocomoConversation& conv, ConfigReport& report) {
  Result<TempDir> dir = TempDir::Create();
  if (!dir) return dir.error();
  const Options options = EngineOptions(report.config, dir->path() + "/locomo.db");
  Result<std::unique_ptr<Engine>> opened = Engine::Open(options);
  if (!opened) return opened.error().WithContext("Engine::Open");
  std::unique_ptr<Engine> engine = std::move(*opened);

  std::vector<EventInput> events = import::ToEventInputs(conv);
  Clock::time_point start = Clock::now();
  Result<std::vector<IngestResult>> ingested = EarlyRecallIngest(*engine, conv, events, report.config.recall_after);
  report.ingest_ms += MsSince(start);
  if (!ingested) return ingested.error().WithContext("IngestBatch");
  for (const IngestResult& r : *ingested) {
    if (r.duplicate) {
      return Status::Internal(
          fmt::format("event {} was stored as a duplicate", r.event.idempotency_key));
    }
  }
  const auto event_count = static_cast<int64_t>(ingested->size());
  report.events += event_count;
  report.conversation_order.push_back(conv.sample_id);
  ConversationReport& conv_report = report.per_conversation[conv.sample_id];
  conv_report.events = event_count;

  // Extraction: every pending event now, timed on its own.
  const ObservationChatStats served_before =
      report.stand_in != nullptr ? report.stand_in->stats() : ObservationChatStats{};
  start = Clock::now();
  Result<ProcessReport> processed = engine->Process(/*drain=*/true);
  const double extraction_ms = MsSince(start);
  if (report.stand_in != nullptr) {
    const ObservationChatStats after = report.stand_in->stats();
    report.stand_in_process.requests += after.requests - served_before.requests;
    report.stand_in_process.bad_requests += after.bad_requests - served_before.bad_requests;
    report.stand_in_process.events += after.events - served_before.events;
    report.stand_in_process.unmatched_events += after.unmatched_events - served_before.unmatched_events;
    report.stand_in_process.claims += after.claims - served_before.claims;
  }
  if (!processed) return processed.error().WithContext("Process");
  report.extraction_ms += extraction_ms;
  conv_report.extraction_ms = extraction_ms;
  AddProcessReport(*processed, report.process);
  if (Status st = TimeExtractorAlone(*ingested, report); !st.ok()) return st;

  Result<std::vector<Claim>> claims = AllClaims(*engine, conv.sample_id);
  if (!claims) return claims.error();
  std::set<std::string> covered;  // dia_ids that support at least one claim
  for (const Claim& c : *claims) {
    if (c.status == "active") ++report.active_claims;
    ++report.claims_by_predicate[c.predicate];
    report.claim_extractors.insert(c.extractor);
    for (const EvidenceRef& ev : c.evidence) {
      if (ev.relation != "supports") continue;
      std::string id = DiaIdOfMetadata(ev.metadata_json);
      if (!id.empty()) covered.insert(std::move(id));
    }
  }
  report.claims += static_cast<int64_t>(claims->size());
  conv_report.claims = static_cast<int64_t>(claims->size());
  AddCoverage(conv, covered, report.coverage);
  CoverageByCategory conv_coverage;
  AddCoverage(conv, covered, conv_coverage);
  conv_report.coverage = conv_coverage[kOverall];

  std::set<std::string> known_ids;
  for (const import::LocomoSession& s : conv.sessions) {
    for (const import::LocomoTurn& t : s.turns) known_ids.insert(t.dia_id);
  }

  // The questions are asked the day after the last session (the file gives no time of asking):
  // relative dates in them ("last week") are read from there, as they were for the speakers.
  TimestampMs asked_at = 0;
  for (const import::LocomoSession& s : conv.sessions) asked_at = std::max(asked_at, s.started_at);
  asked_at += 24LL * 3600 * 1000;
  // The recall query of a question at the default limit (RecallQuery::limit).
  auto question_query = [&](const import::LocomoQuestion& q) {
    RecallQuery query;
    query.text = q.question;
    query.namespace_name = conv.sample_id;
    query.now = asked_at;
    query.include_claims = report.config.include_claims;
    return query;
  };
  // Latency at the default limit, timed only (the scored pass below asks for kRecallLimit items).
  for (const import::LocomoQuestion& q : conv.questions) {
    if (!IsScoredCategory(q.category) || q.evidence.empty()) continue;
    const RecallQuery query = question_query(q);
    start = Clock::now();
    const double cpu_start = ThreadCpuMs();
    Result<RecallResult> found = engine->Recall(query);
    report.default_limit_latencies_ms.push_back(MsSince(start));
    report.default_limit_cpu_ms.push_back(ThreadCpuMs() - cpu_start);
    if (!found) return found.error();
  }
  for (size_t qi = 0; qi < conv.questions.size(); ++qi) {
    const import::LocomoQuestion& q = conv.questions[qi];
    if (!IsScoredCategory(q.category) || q.evidence.empty()) continue;
    RecallQuery query = question_query(q);
    query.limit = kRecallLimit;
    start = Clock::now();
    const double cpu_start = ThreadCpuMs();
    Result<RecallResult> found = engine->Recall(query);
    report.latencies_ms.push_back(MsSince(start));
    report.cpu_ms.push_back(ThreadCpuMs() - cpu_start);
    if (!found) return found.error().WithContext(fmt::format("Recall of qa[{}]", qi));
    report.items_returned.Add(static_cast<double>(found->items.size()));

    std::vector<std::vector<std::string>> item_turns;
    int64_t claims_in_context = 0, tokens_in_context = 0;
    for (size_t i = 0; i < found->items.size(); ++i) {
      const RecallItem& item = found->items[i];
      std::vector<std::string> ids = DiaIdsOf(item);
      if (std::none_of(ids.begin(), ids.end(),
                       [&](const std::string& id) { return known_ids.count(id) > 0; })) {
        ++report.unmapped_items;
      }
      const bool is_claim = item.type == "claim";
      if (is_claim) ++report.claim_items;
      if (i < static_cast<size_t>(kContextK)) {
        claims_in_context += is_claim ? 1 : 0;
        tokens_in_context += WhitespaceTokens(item.text);
      }
      item_turns.push_back(std::move(ids));
    }
    report.claims_in_context.Add(static_cast<double>(claims_in_context));
    report.tokens_in_context.Add(static_cast<double>(tokens_in_context));
    report.turns_in_context.Add(
        static_cast<double>(TurnsOfTopItems(item_turns, static_cast<size_t>(kContextK)).size()));

    std::vector<std::string> gold_sessions;
    for (const std::string& id : q.evidence) {
      int s = import::LocomoSessionOf(id);
      gold_sessions.push_back(s == 0 ? std::string() : fmt::format("S{}", s));
    }
    std::vector<double> values = ScoreQuestion(item_turns, q.evidence, gold_sessions);
    const bool day_filtered = std::any_of(found->stages.begin(), found->stages.end(),
                                          [](const RecallStage& s) { return s.name == "day_filter"; });
    if (day_filtered && q.category <= 4) {
      ++report.day_filtered;
      const std::set<std::string> gold(q.evidence.begin(), q.evidence.end());
      const bool any_gold = std::any_of(item_turns.begin(), item_turns.end(), [&](const auto& ids) {
        return std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return gold.count(id) > 0; });
      });
      report.day_filter_no_gold += any_gold ? 0 : 1;
    }
    if (report.dump != nullptr) {
      *report.dump << DumpLine(report, conv.sample_id, qi, q, *found, item_turns).dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
    }
    report.buckets[q.category].Add(values);
    if (q.category <= 4) {
      report.buckets[kOverall].Add(values);
      conv_report.recall.Add(values);
    }
    if (report.score_budgets && q.category <= 4) {
      for (int budget : kBudgets) {
        RecallQuery packed = query;
        packed.limit = 1000;
        packed.budget_tokens = budget;
        Result<RecallResult> packet = engine->Recall(packed);
        if (!packet) return packet.error().WithContext(fmt::format("Recall of qa[{}] under {} tokens", qi, budget));
        std::vector<std::vector<std::string>> packet_turns;
        for (const RecallItem& item : packet->items) packet_turns.push_back(DiaIdsOf(item));
        std::vector<std::string> turns = TurnsOfTopItems(packet_turns, packet_turns.size());
        report.budget_recall[budget].Add(eval::LocomoRecallAtK(turns, q.evidence, static_cast<int>(turns.size()) + 1));
        report.budget_tokens[budget].Add(packet->used_tokens);
      }
    }
  }

  // Bytes stored: the engine is closed (its last connection folds the WAL back) and the file is
  // measured by a freshly opened engine, as a new process would see it.
  engine.reset();
  Result<std::unique_ptr<Engine>> reopened = Engine::Open(options);
  if (!reopened) return reopened.error().WithContext("Engine::Open (reopen for Stats)");
  Result<StoreStats> stats = (*reopened)->Stats();
  if (!stats) return stats.error().WithContext("Stats");
  report.file_bytes += stats->file_bytes;
  report.wal_bytes += stats->wal_bytes;
  return Status::Ok();
}

// Scores the coverage of LoCoMo's `observation` facts (ReadLocomoObservations) over the
// conversations in `convs`.
ObservationReference ScoreObservationReference(
    const std::map<std::string, std::vector<LocomoObservation>>& observations,
    const std::vector<import::LocomoConversation>& convs) {
  ObservationReference ref;
  for (const import::LocomoConversation& conv : convs) {
    for (const import::LocomoSession& s : conv.sessions) {
      ref.turns += static_cast<int64_t>(s.turns.size());
    }
    auto found = observations.find(conv.sample_id);
    if (found == observations.end()) continue;
    ref.present = true;
    std::set<std::string> covered;
    for (const LocomoObservation& fact : found->second) {
      ++ref.facts;
      covered.insert(fact.evidence.begin(), fact.evidence.end());
    }
    AddCoverage(conv, covered, ref.coverage);
  }
  return ref;
}

// Sets an environment variable for the lifetime of the object and restores the earlier value
// (or its absence) after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = std::string(old);
    setenv(name, value.c_str(), /*overwrite=*/1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

int MetricIndex(const std::string& name) {
  std::vector<std::string> names = MetricNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

double PerSecond(int64_t count, double ms) {
  return ms > 0 ? static_cast<double>(count) * 1000.0 / ms : 0.0;
}

double EventsPerSecond(const ConfigReport& r) { return PerSecond(r.events, r.ingest_ms); }
double ExtractionEventsPerSecond(const ConfigReport& r) {
  return PerSecond(r.process.events, r.extraction_ms);
}
double ExtractorEventsPerSecond(const ConfigReport& r) {
  return PerSecond(r.extractor_events, r.extractor_ms);
}
double Ratio(int64_t a, int64_t b) {
  return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

// The most frequent predicates, most frequent first (ties by name).
std::vector<std::pair<std::string, int64_t>> TopPredicates(const ConfigReport& r) {
  std::vector<std::pair<std::string, int64_t>> v(r.claims_by_predicate.begin(),
                                                 r.claims_by_predicate.end());
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() > static_cast<size_t>(kTopPredicates)) v.resize(kTopPredicates);
  return v;
}

json BucketJson(const Bucket& b) {
  json metrics = json::object();
  std::vector<std::string> names = MetricNames();
  for (size_t i = 0; i < names.size(); ++i) metrics[names[i]] = b.metrics[i].Mean();
  return metrics;
}

json CoverageEntryJson(const Coverage& c) {
  return {{"evidence_turns", c.turns},
          {"covered_turns", c.covered_turns},
          {"coverage", c.Share()},
          {"evidence_refs", c.refs},
          {"covered_refs", c.covered_refs},
          {"coverage_refs", c.RefShare()}};
}

json CoverageJson(const CoverageByCategory& coverage) {
  json out = json::object();
  for (const CategoryName& cat : kCategories) {
    auto it = coverage.find(cat.id);
    if (it != coverage.end()) out[cat.key] = CoverageEntryJson(it->second);
  }
  return out;
}

json ReportJson(const std::string& data_path, const std::vector<import::LocomoConversation>& convs,
                int64_t questions_total, int64_t questions_skipped,
                const ObservationReference& observation, const std::vector<ConfigReport>& reports) {
  int64_t sessions = 0, turns = 0;
  for (const auto& c : convs) {
    sessions += static_cast<int64_t>(c.sessions.size());
    for (const auto& s : c.sessions) turns += static_cast<int64_t>(s.turns.size());
  }
  json out;
  out["benchmark"] = "locomo";
  out["data"] = data_path;
  json sample_ids = json::array();
  for (const auto& c : convs) sample_ids.push_back(c.sample_id);
  out["conversations"] = sample_ids;
  out["sessions"] = sessions;
  out["turns"] = turns;
  out["questions"] = {{"total", questions_total},
                      {"scored", questions_total - questions_skipped},
                      {"skipped_no_evidence", questions_skipped}};
  out["recall_limit"] = kRecallLimit;
  out["turn_k"] = kTurnKs;
  out["session_k"] = kSessionKs;
  out["context_k"] = kContextK;
  if (observation.present) {
    out["reference_observation"] = {
        {"what", "LoCoMo's GPT-3.5 observation facts of the same conversations"},
        {"facts", observation.facts},
        {"facts_per_turn", Ratio(observation.facts, observation.turns)},
        {"fact_coverage", CoverageJson(observation.coverage)}};
  }
  json configs = json::object();
  for (const ConfigReport& r : reports) {
    json c;
    c["analysis"] = AnalysisName(r.config.analysis);
    c["bm25_k1"] = r.config.bm25_k1;
    c["bm25_b"] = r.config.bm25_b;
    c["extractor"] = r.config.extractor;
    c["embedder"] = r.config.embedder;
    c["include_claims"] = r.config.include_claims;
    c["ingest"] = {{"ms", r.ingest_ms}, {"events", r.events}, {"events_per_s", EventsPerSecond(r)}};
    json extractors = json::array();
    for (const std::string& e : r.claim_extractors) extractors.push_back(e);
    c["extraction"] = {{"ms", r.extraction_ms},
                       {"events", r.process.events},
                       {"events_per_s", ExtractionEventsPerSecond(r)},
                       {"batches", r.process.batches},
                       {"claims_created", r.process.claims_created},
                       {"claims_confirmed", r.process.claims_confirmed},
                       {"claims_superseded", r.process.claims_superseded},
                       {"claims_disputed", r.process.claims_disputed},
                       {"candidates_rejected", r.process.candidates_rejected},
                       {"jobs_failed", r.process.jobs_failed},
                       {"errors", r.process.errors},
                       {"claim_extractors", extractors},
                       {"extractor_alone", {{"ms", r.extractor_ms},
                                            {"events", r.extractor_events},
                                            {"events_per_s", ExtractorEventsPerSecond(r)},
                                            {"candidates", r.extractor_candidates}}}};
    json top = json::array();
    for (const auto& [predicate, n] : TopPredicates(r)) {
      top.push_back({{"predicate", predicate}, {"claims", n}});
    }
    if (r.stand_in != nullptr) {
      c["observation_stand_in"] = {{"during_process", {{"requests", r.stand_in_process.requests},
                                                      {"refused", r.stand_in_process.bad_requests},
                                                      {"events", r.stand_in_process.events},
                                                      {"unmatched_events", r.stand_in_process.unmatched_events},
                                                      {"claims_served", r.stand_in_process.claims}}}};
    }
    if (r.llm_extractor) {
      json dropped = json::object();
      for (const auto& [reason, n] : r.llm_dropped_by_reason) dropped[reason] = n;
      json rejected = json::object();
      for (const auto& [reason, n] : r.admission_rejected_by_reason) rejected[reason] = n;
      c["llm_extractor_alone"] = {{"claims_returned", r.llm_claims_returned},
                                  {"claims_dropped", r.llm_claims_dropped},
                                  {"dropped_by_reason", dropped},
                                  {"warnings", r.llm_warnings},
                                  {"warning_examples", r.llm_warning_examples},
                                  {"repairs", r.llm_repairs},
                                  {"parse_failures", r.llm_parse_failures},
                                  {"admission_rejected", r.admission_rejected},
                                  {"admission_rejected_by_reason", rejected}};
    }
    c["claims"] = {{"total", r.claims},
                   {"active", r.active_claims},
                   {"per_turn", Ratio(r.claims, r.events)},
                   {"predicates", r.claims_by_predicate.size()},
                   {"by_predicate_top", top}};
    c["fact_coverage"] = CoverageJson(r.coverage);
    c["store"] = {{"file_bytes", r.file_bytes},
                  {"wal_bytes", r.wal_bytes},
                  {"bytes", r.file_bytes + r.wal_bytes},
                  {"bytes_per_event", Ratio(r.file_bytes + r.wal_bytes, r.events)}};
    c["query_latency_ms"] = {{"n", r.latencies_ms.size()},
                             {"p50", eval::PercentileNearestRank(r.latencies_ms, 50)},
                             {"p95", eval::PercentileNearestRank(r.latencies_ms, 95)}};
    c["query_cpu_ms"] = {{"p50", eval::PercentileNearestRank(r.cpu_ms, 50)},
                         {"p95", eval::PercentileNearestRank(r.cpu_ms, 95)}};
    c["default_limit_query_latency_ms"] = {{"limit", RecallQuery{}.limit},
                                           {"p50", eval::PercentileNearestRank(r.default_limit_latencies_ms, 50)},
                                           {"p95", eval::PercentileNearestRank(r.default_limit_latencies_ms, 95)}};
    c["default_limit_query_cpu_ms"] = {{"p50", eval::PercentileNearestRank(r.default_limit_cpu_ms, 50)},
                                       {"p95", eval::PercentileNearestRank(r.default_limit_cpu_ms, 95)}};
    c["mean_items_returned"] = r.items_returned.Mean();
    c["claim_items_returned"] = r.claim_items;
    c["context"] = {{"k", kContextK},
                    {"mean_claims", r.claims_in_context.Mean()},
                    {"mean_turns", r.turns_in_context.Mean()},
                    {"mean_tokens", r.tokens_in_context.Mean()}};
    c["unmapped_items"] = r.unmapped_items;
    json cats = json::object();
    for (const CategoryName& cat : kCategories) {
      auto it = r.buckets.find(cat.id);
      if (it == r.buckets.end()) continue;
      json entry;
      if (cat.id == kOverall) {
        entry["categories"] = {1, 2, 3, 4};
      } else {
        entry["category"] = cat.id;
      }
      entry["n"] = it->second.n();
      entry["metrics"] = BucketJson(it->second);
      cats[cat.key] = entry;
    }
    c["categories"] = cats;
    json per_conv = json::object();
    for (const std::string& id : r.conversation_order) {
      const ConversationReport& cr = r.per_conversation.at(id);
      per_conv[id] = {{"n", cr.recall.n()},
                      {"metrics", BucketJson(cr.recall)},
                      {"events", cr.events},
                      {"claims", cr.claims},
                      {"extraction_ms", cr.extraction_ms},
                      {"fact_coverage", CoverageEntryJson(cr.coverage)}};
    }
    c["per_conversation"] = per_conv;
    if (!r.budget_recall.empty()) {
      json budgets = json::object();
      for (const auto& [budget, recall] : r.budget_recall) {
        budgets[std::to_string(budget)] = {{"locomo_recall", recall.Mean()},
                                           {"used_tokens", r.budget_tokens.at(budget).Mean()}};
      }
      c["budgets"] = budgets;
    }
    configs[r.config.name] = c;
  }
  out["configurations"] = configs;
  return out;
}

// Rows "evidence turns", "fact_coverage" (distinct turns) and "fact_coverage_refs" (question ×
// turn pairs) over the category columns.
void PrintCoverageTable(const CoverageByCategory& coverage) {
  fmt::print("{:<24}", "fact coverage");
  for (const CategoryName& cat : kCategories) fmt::print("{:>12}", cat.label);
  fmt::print("\n");
  auto row = [&](const char* label, auto cell) {
    fmt::print("{:<24}", label);
    for (const CategoryName& cat : kCategories) {
      auto it = coverage.find(cat.id);
      if (it == coverage.end()) {
        fmt::print("{:>12}", "-");
      } else {
        fmt::print("{:>12}", cell(it->second));
      }
    }
    fmt::print("\n");
  };
  row("evidence turns", [](const Coverage& c) { return fmt::format("{}", c.turns); });
  row("covered turns", [](const Coverage& c) { return fmt::format("{}", c.covered_turns); });
  row("fact_coverage", [](const Coverage& c) { return fmt::format("{:.3f}", c.Share()); });
  row("fact_coverage_refs", [](const Coverage& c) { return fmt::format("{:.3f}", c.RefShare()); });
}

void PrintTables(const std::vector<import::LocomoConversation>& convs, int64_t questions_total,
                 int64_t questions_skipped, const ObservationReference& observation,
                 const std::vector<ConfigReport>& reports) {
  std::vector<std::string> names = MetricNames();
  fmt::print(
      "LoCoMo evidence retrieval: {} conversations, {} questions scored ({} without gold "
      "evidence skipped), Recall limit {}\n",
      convs.size(), questions_total - questions_skipped, questions_skipped, kRecallLimit);
  if (observation.present) {
    fmt::print(
        "\nreference: LoCoMo's own GPT-3.5 observation list of these conversations: {} facts "
        "({:.3f} per turn)\n",
        observation.facts, Ratio(observation.facts, observation.turns));
    PrintCoverageTable(observation.coverage);
  }
  for (const ConfigReport& r : reports) {
    fmt::print("\n== {} (analysis {}, bm25 k1 {}, b {}, extractor {}, claims channel {})\n",
               r.config.name, AnalysisName(r.config.analysis), r.config.bm25_k1, r.config.bm25_b,
               r.config.extractor, r.config.include_claims ? "on" : "off");
    fmt::print(
        "ingest: {} events in {:.1f} ms ({:.0f} events/s); query latency p50 {:.3f} ms, "
        "p95 {:.3f} ms over {} queries (thread CPU p50 {:.3f} ms, p95 {:.3f} ms); {:.1f} items "
        "returned on average\n",
        r.events, r.ingest_ms, EventsPerSecond(r), eval::PercentileNearestRank(r.latencies_ms, 50),
        eval::PercentileNearestRank(r.latencies_ms, 95), r.latencies_ms.size(),
        eval::PercentileNearestRank(r.cpu_ms, 50), eval::PercentileNearestRank(r.cpu_ms, 95),
        r.items_returned.Mean());
    fmt::print("query latency at the default limit ({} items, a pass of its own before the scored one): p50 {:.3f} ms, "
               "p95 {:.3f} ms (thread CPU p50 {:.3f} ms, p95 {:.3f} ms)\n",
               RecallQuery{}.limit, eval::PercentileNearestRank(r.default_limit_latencies_ms, 50),
               eval::PercentileNearestRank(r.default_limit_latencies_ms, 95),
               eval::PercentileNearestRank(r.default_limit_cpu_ms, 50),
               eval::PercentileNearestRank(r.default_limit_cpu_ms, 95));
    fmt::print("named-day filter (P6): applied to {} questions, {} of them returned no gold turn\n",
               r.day_filtered, r.day_filter_no_gold);
    for (const auto& [budget, recall] : r.budget_recall) {
      fmt::print("packet under {} tokens: locomo_recall {:.3f}, {:.0f} tokens used on average (categories 1-4)\n",
                 budget, recall.Mean(), r.budget_tokens.at(budget).Mean());
    }
    std::string extractors;
    for (const std::string& e : r.claim_extractors) {
      extractors += extractors.empty() ? e : ", " + e;
    }
    fmt::print(
        "extraction: {} events in {:.1f} ms ({:.0f} events/s), {} batches; claims created {}, "
        "confirmed {}, superseded {}, disputed {}; candidates rejected {}; jobs failed {}{}\n",
        r.process.events, r.extraction_ms, ExtractionEventsPerSecond(r), r.process.batches,
        r.process.claims_created, r.process.claims_confirmed, r.process.claims_superseded,
        r.process.claims_disputed, r.process.candidates_rejected, r.process.jobs_failed,
        extractors.empty() ? "" : " (claims by " + extractors + ")");
    for (const std::string& e : r.process.errors) fmt::print("  extraction error: {}\n", e);
    if (r.stand_in != nullptr) {
      fmt::print(
          "observation stand-in (LoCoMo's GPT-3.5 observations as the model's answers) during Process: "
          "{} requests ({} refused), {} events ({} matched no turn), {} claims served; engram created {} "
          "claims, confirmed {}\n",
          r.stand_in_process.requests, r.stand_in_process.bad_requests, r.stand_in_process.events,
          r.stand_in_process.unmatched_events, r.stand_in_process.claims, r.process.claims_created,
          r.process.claims_confirmed);
    }
    if (r.llm_extractor) {
      std::string dropped;
      for (const auto& [reason, n] : r.llm_dropped_by_reason) {
        dropped += fmt::format("{}{} {}", dropped.empty() ? "" : ", ", reason, n);
      }
      std::string rejected;
      for (const auto& [reason, n] : r.admission_rejected_by_reason) {
        rejected += fmt::format("{}{} {}", rejected.empty() ? "" : ", ", reason, n);
      }
      fmt::print(
          "llm extractor (extractor-alone pass): {} claims returned, {} dropped ({}), {} warning lines, "
          "{} repairs, {} parse failures; admission rejects {} of the rest ({})\n",
          r.llm_claims_returned, r.llm_claims_dropped, dropped.empty() ? "-" : dropped, r.llm_warnings,
          r.llm_repairs, r.llm_parse_failures, r.admission_rejected, rejected.empty() ? "-" : rejected);
      for (const std::string& w : r.llm_warning_examples) fmt::print("  llm extractor warning: {}\n", w);
    }
    fmt::print(
        "extractor alone (Extract over the same batches, no store): {} events in {:.1f} ms "
        "({:.0f} events/s), {} candidates\n",
        r.extractor_events, r.extractor_ms, ExtractorEventsPerSecond(r), r.extractor_candidates);
    std::string top;
    for (const auto& [predicate, n] : TopPredicates(r)) {
      top += fmt::format("{}{} {}", top.empty() ? "" : ", ", predicate, n);
    }
    fmt::print("claims: {} stored ({} active), {:.3f} per turn; top predicates: {}\n", r.claims,
               r.active_claims, Ratio(r.claims, r.events), top.empty() ? "-" : top);
    fmt::print(
        "store: {} bytes after a fresh open (file {} + wal {}), {:.0f} bytes per event\n",
        r.file_bytes + r.wal_bytes, r.file_bytes, r.wal_bytes,
        Ratio(r.file_bytes + r.wal_bytes, r.events));
    fmt::print(
        "top {} items: {:.2f} claims, {:.2f} distinct turns, {:.1f} whitespace tokens on average; "
        "{} claim items returned in all\n",
        kContextK, r.claims_in_context.Mean(), r.turns_in_context.Mean(),
        r.tokens_in_context.Mean(), r.claim_items);
    if (r.unmapped_items > 0) {
      fmt::print("WARNING: {} returned items had no known dia_id in metadata_json\n",
                 r.unmapped_items);
    }
    PrintCoverageTable(r.coverage);
    fmt::print("{:<24}", "metric");
    for (const CategoryName& cat : kCategories) fmt::print("{:>12}", cat.label);
    fmt::print("\n{:<24}", "n");
    for (const CategoryName& cat : kCategories) {
      auto it = r.buckets.find(cat.id);
      fmt::print("{:>12}", it == r.buckets.end() ? 0 : it->second.n());
    }
    fmt::print("\n");
    for (size_t i = 0; i < names.size(); ++i) {
      fmt::print("{:<24}", names[i]);
      for (const CategoryName& cat : kCategories) {
        auto it = r.buckets.find(cat.id);
        if (it == r.buckets.end()) {
          fmt::print("{:>12}", "-");
        } else {
          fmt::print("{:>12.3f}", it->second.metrics[i].Mean());
        }
      }
      fmt::print("\n");
    }
    const int r10 = MetricIndex("locomo_recall@10");
    const int s5 = MetricIndex("session_recall_all@5");
    fmt::print("per conversation (categories 1-4):");
    for (const std::string& id : r.conversation_order) {
      const ConversationReport& cr = r.per_conversation.at(id);
      fmt::print("  {} n {} R@10 {:.3f} S-R_all@5 {:.3f} coverage {:.3f};", id, cr.recall.n(),
                 cr.recall.metrics[r10].Mean(), cr.recall.metrics[s5].Mean(),
                 cr.coverage.Share());
    }
    fmt::print("\n");
  }
}

}  // namespace

int RunLocomoBench(const LocomoBenchOptions& options) {
  // Each configuration names its extractor; $ENGRAM_EXTRACTOR would override all of them at once.
  if (const char* env = std::getenv("ENGRAM_EXTRACTOR"); env != nullptr && *env != '\0') {
    std::cerr << "engram-bench locomo: ignoring ENGRAM_EXTRACTOR=" << env
              << " (each configuration sets its own extractor)\n";
    unsetenv("ENGRAM_EXTRACTOR");
  }
  if (const char* env = std::getenv("ENGRAM_EMBEDDER"); env != nullptr && *env != '\0') {
    std::cerr << "engram-bench locomo: ignoring ENGRAM_EMBEDDER=" << env
              << " (each configuration sets its own embedder)\n";
    unsetenv("ENGRAM_EMBEDDER");
  }
  Result<std::vector<import::LocomoConversation>> loaded =
      import::LoadLocomoFile(options.data_path);
  if (!loaded) {
    std::cerr << "engram-bench locomo: cannot load the LoCoMo data: " << loaded.error().ToString()
              << "\n";
    return ExitCodeFor(loaded.error().code());
  }
  std::vector<import::LocomoConversation> convs = std::move(*loaded);
  if (convs.empty()) {
    std::cerr << "engram-bench locomo: " << options.data_path << " holds no conversation\n";
    return ExitCodeFor(StatusCode::kInvalidArgument);
  }
  if (options.limit_conversations > 0 &&
      static_cast<size_t>(options.limit_conversations) < convs.size()) {
    convs.resize(static_cast<size_t>(options.limit_conversations));
  }

  int64_t questions_total = 0, questions_skipped = 0;
  for (const auto& c : convs) {
    for (const auto& q : c.questions) {
      if (!IsScoredCategory(q.category)) continue;
      ++questions_total;
      if (q.evidence.empty()) ++questions_skipped;
    }
  }
  const std::map<std::string, std::vector<LocomoObservation>> observations =
      ReadLocomoObservations(options.data_path);
  const ObservationReference observation = ScoreObservationReference(observations, convs);
  std::unique_ptr<ObservationChatServer> stand_in;
  if (options.observation_claims) {
    if (!observation.present) {
      std::cerr << "engram-bench locomo: --observation-claims: " << options.data_path
                << " has no `observation` facts\n";
      return ExitCodeFor(StatusCode::kInvalidArgument);
    }
    Result<std::unique_ptr<ObservationChatServer>> started = ObservationChatServer::Start(convs, observations);
    if (!started) {
      std::cerr << "engram-bench locomo: " << started.error().ToString() << "\n";
      return ExitCodeFor(started.error().code()) == 0 ? 1 : ExitCodeFor(started.error().code());
    }
    stand_in = std::move(*started);
  }

  auto configs = Configurations(options);
  if (!configs) {
    std::cerr << "engram-bench locomo: " << configs.error().ToString() << "\n";
    return ExitCodeFor(configs.error().code());
  }
  std::ofstream dump;
  if (!options.dump_path.empty()) {
    dump.open(options.dump_path, std::ios::trunc);
    if (!dump) {
      std::cerr << "engram-bench locomo: cannot write --dump " << options.dump_path << "\n";
      return 1;
    }
  }
  std::vector<ConfigReport> reports;
  for (const Configuration& config : *configs) {
    ConfigReport report;
    report.config = config;
    report.dump = dump.is_open() ? &dump : nullptr;
    report.score_budgets = options.budgets && config.name == "engram";
    // The stand-in model plays the LLM of every "llm" configuration, for that configuration only.
    std::optional<ScopedEnv> base_url, model;
    if (stand_in && config.extractor == "llm") {
      report.stand_in = stand_in.get();
      base_url.emplace("ENGRAM_LLM_BASE_URL", stand_in->base_url());
      model.emplace("ENGRAM_LLM_MODEL", "locomo-observations");
    }
    for (const import::LocomoConversation& conv : convs) {
      Status st = RunConversation(conv, report);
      if (!st.ok()) {
        std::cerr << "engram-bench locomo: configuration " << config.name << ", " << conv.sample_id
                  << ": " << st.ToString() << "\n";
        return ExitCodeFor(st.code()) == 0 ? 1 : ExitCodeFor(st.code());
      }
    }
    reports.push_back(std::move(report));
  }

  if (options.json) {
    json out = ReportJson(options.data_path, convs, questions_total, questions_skipped,
                          observation, reports);
    std::cout << out.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    PrintTables(convs, questions_total, questions_skipped, observation, reports);
  }
  return 0;
}

}  // namespace engram::bench
