// bench/locomo_bench.cc — LoCoMo evidence retrieval through the public Engine API.
//
// Protocol (../shared/reference/benchmarks.md §5 P1, P2): one isolated store per conversation,
// every turn ingested as one event (import::ToEventInputs), every question of categories 1–5 with
// gold evidence asked verbatim with Recall(limit 50); returned events are mapped back to their
// dia_id through metadata_json and scored with eval/retrieval_metrics.h. Headline = categories 1–4
// ("overall", n = 760 on the dev split); category 5 (adversarial) is reported on its own.
#include "locomo_bench.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "engram/engine.h"
#include "engram/options.h"
#include "eval/retrieval_metrics.h"
#include "import/locomo.h"

namespace engram::bench {
namespace {

using json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr int kRecallLimit = 50;
constexpr std::array<int, 4> kTurnKs = {5, 10, 20, 50};
constexpr std::array<int, 4> kSessionKs = {1, 3, 5, 10};
constexpr int kOverall = 0;  // bucket id of categories 1–4 together

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
};

std::vector<Configuration> Configurations() {
  Options defaults;
  return {
      {"engram", defaults.analysis, defaults.bm25_k1, defaults.bm25_b},
      // The baseline of benchmarks.md §5.3 / retrieval_findings.md: classic BM25Okapi parameters
      // over lowercase alphanumeric words.
      {"plain_bm25", TextAnalysis::kPlain, 1.5, 0.75},
  };
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

std::vector<double> ScoreQuestion(const std::vector<std::string>& ranked,
                                  const std::vector<std::string>& gold,
                                  const std::vector<std::string>& ranked_sessions,
                                  const std::vector<std::string>& gold_sessions) {
  std::vector<double> v;
  for (int k : kTurnKs) v.push_back(eval::LocomoRecallAtK(ranked, gold, k));
  for (int k : kTurnKs) v.push_back(eval::RecallAnyAtK(ranked, gold, k));
  for (int k : kTurnKs) v.push_back(eval::RecallAllAtK(ranked, gold, k));
  for (int k : kTurnKs) v.push_back(eval::NdcgAnyAtK(ranked, gold, k));
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

struct ConfigReport {
  Configuration config;
  double ingest_ms = 0;
  int64_t events = 0;
  std::vector<double> latencies_ms;
  eval::MeanAccumulator items_returned;
  int64_t unmapped_items = 0;     // returned items without a known dia_id (should stay 0)
  std::map<int, Bucket> buckets;  // by category id; kOverall = 1–4
  std::map<std::string, Bucket> per_conversation;  // categories 1–4 only
  std::vector<std::string> conversation_order;
};

// A mkdtemp folder removed (with its content) on destruction.
class TempDir {
 public:
  static Result<TempDir> Create() {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string tmpl = (base / "engram-bench-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      return Error(
          Status::IOError(fmt::format("cannot create a temporary folder in {}", base.string())));
    }
    return TempDir(tmpl);
  }
  TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  TempDir& operator=(TempDir&&) = delete;
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// dia_id of a recalled event, from its metadata_json; "" when absent.
std::string DiaIdOf(const RecallItem& item) {
  if (item.metadata_json.empty()) return "";
  json meta = json::parse(item.metadata_json, nullptr, /*allow_exceptions=*/false);
  if (!meta.is_object()) return "";
  auto it = meta.find("dia_id");
  if (it == meta.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

std::string SessionKey(const std::string& dia_id) {
  int s = import::LocomoSessionOf(dia_id);
  return s == 0 ? std::string() : fmt::format("S{}", s);
}

bool IsScoredCategory(int category) { return category >= 1 && category <= 5; }

// Ingests one conversation into a fresh database and asks its questions; adds to `report`.
Status RunConversation(const import::LocomoConversation& conv, ConfigReport& report) {
  Result<TempDir> dir = TempDir::Create();
  if (!dir) return dir.error();
  Options options;
  options.db_path = dir->path() + "/locomo.db";
  options.analysis = report.config.analysis;
  options.bm25_k1 = report.config.bm25_k1;
  options.bm25_b = report.config.bm25_b;
  Result<std::unique_ptr<Engine>> engine = Engine::Open(options);
  if (!engine) return engine.error().WithContext("Engine::Open");

  std::vector<EventInput> events = import::ToEventInputs(conv);
  Clock::time_point start = Clock::now();
  Result<std::vector<IngestResult>> ingested = (*engine)->IngestBatch(events);
  report.ingest_ms += MsSince(start);
  if (!ingested) return ingested.error().WithContext("IngestBatch");
  for (const IngestResult& r : *ingested) {
    if (r.duplicate) {
      return Status::Internal(
          fmt::format("event {} was stored as a duplicate", r.event.idempotency_key));
    }
  }
  report.events += static_cast<int64_t>(ingested->size());

  std::map<std::string, bool> known_ids;
  for (const import::LocomoSession& s : conv.sessions) {
    for (const import::LocomoTurn& t : s.turns) known_ids[t.dia_id] = true;
  }

  report.conversation_order.push_back(conv.sample_id);
  Bucket& conv_bucket = report.per_conversation[conv.sample_id];
  for (size_t qi = 0; qi < conv.questions.size(); ++qi) {
    const import::LocomoQuestion& q = conv.questions[qi];
    if (!IsScoredCategory(q.category) || q.evidence.empty()) continue;
    RecallQuery query;
    query.text = q.question;
    query.namespace_name = conv.sample_id;
    query.limit = kRecallLimit;
    start = Clock::now();
    Result<RecallResult> found = (*engine)->Recall(query);
    report.latencies_ms.push_back(MsSince(start));
    if (!found) return found.error().WithContext(fmt::format("Recall of qa[{}]", qi));
    report.items_returned.Add(static_cast<double>(found->items.size()));

    std::vector<std::string> ranked;
    std::vector<std::string> ranked_sessions;
    for (const RecallItem& item : found->items) {
      std::string dia_id = DiaIdOf(item);
      if (known_ids.count(dia_id) == 0) ++report.unmapped_items;
      ranked_sessions.push_back(SessionKey(dia_id));
      ranked.push_back(std::move(dia_id));
    }
    std::vector<std::string> gold_sessions;
    for (const std::string& id : q.evidence) gold_sessions.push_back(SessionKey(id));

    std::vector<double> values = ScoreQuestion(ranked, q.evidence, ranked_sessions, gold_sessions);
    report.buckets[q.category].Add(values);
    if (q.category <= 4) {
      report.buckets[kOverall].Add(values);
      conv_bucket.Add(values);
    }
  }
  return Status::Ok();
}

int MetricIndex(const std::string& name) {
  std::vector<std::string> names = MetricNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

double EventsPerSecond(const ConfigReport& r) {
  return r.ingest_ms > 0 ? static_cast<double>(r.events) * 1000.0 / r.ingest_ms : 0.0;
}

json BucketJson(const Bucket& b) {
  json metrics = json::object();
  std::vector<std::string> names = MetricNames();
  for (size_t i = 0; i < names.size(); ++i) metrics[names[i]] = b.metrics[i].Mean();
  return metrics;
}

json ReportJson(const std::string& data_path, const std::vector<import::LocomoConversation>& convs,
                int64_t questions_total, int64_t questions_skipped,
                const std::vector<ConfigReport>& reports) {
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
  json configs = json::object();
  for (const ConfigReport& r : reports) {
    json c;
    c["analysis"] = AnalysisName(r.config.analysis);
    c["bm25_k1"] = r.config.bm25_k1;
    c["bm25_b"] = r.config.bm25_b;
    c["ingest"] = {{"ms", r.ingest_ms}, {"events", r.events}, {"events_per_s", EventsPerSecond(r)}};
    c["query_latency_ms"] = {{"n", r.latencies_ms.size()},
                             {"p50", eval::PercentileNearestRank(r.latencies_ms, 50)},
                             {"p95", eval::PercentileNearestRank(r.latencies_ms, 95)}};
    c["mean_items_returned"] = r.items_returned.Mean();
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
      const Bucket& b = r.per_conversation.at(id);
      per_conv[id] = {{"n", b.n()}, {"metrics", BucketJson(b)}};
    }
    c["per_conversation"] = per_conv;
    configs[r.config.name] = c;
  }
  out["configurations"] = configs;
  return out;
}

void PrintTables(const std::vector<import::LocomoConversation>& convs, int64_t questions_total,
                 int64_t questions_skipped, const std::vector<ConfigReport>& reports) {
  std::vector<std::string> names = MetricNames();
  fmt::print(
      "LoCoMo evidence retrieval: {} conversations, {} questions scored ({} without gold "
      "evidence skipped), Recall limit {}\n",
      convs.size(), questions_total - questions_skipped, questions_skipped, kRecallLimit);
  for (const ConfigReport& r : reports) {
    fmt::print("\n== {} (analysis {}, bm25 k1 {}, b {})\n", r.config.name,
               AnalysisName(r.config.analysis), r.config.bm25_k1, r.config.bm25_b);
    fmt::print(
        "ingest: {} events in {:.1f} ms ({:.0f} events/s); query latency p50 {:.3f} ms, "
        "p95 {:.3f} ms over {} queries; {:.1f} items returned on average\n",
        r.events, r.ingest_ms, EventsPerSecond(r), eval::PercentileNearestRank(r.latencies_ms, 50),
        eval::PercentileNearestRank(r.latencies_ms, 95), r.latencies_ms.size(),
        r.items_returned.Mean());
    if (r.unmapped_items > 0) {
      fmt::print("WARNING: {} returned items had no known dia_id in metadata_json\n",
                 r.unmapped_items);
    }
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
      const Bucket& b = r.per_conversation.at(id);
      fmt::print("  {} n {} R@10 {:.3f} S-R_all@5 {:.3f};", id, b.n(), b.metrics[r10].Mean(),
                 b.metrics[s5].Mean());
    }
    fmt::print("\n");
  }
}

}  // namespace

int RunLocomoBench(const LocomoBenchOptions& options) {
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

  std::vector<ConfigReport> reports;
  for (const Configuration& config : Configurations()) {
    ConfigReport report;
    report.config = config;
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
    json out = ReportJson(options.data_path, convs, questions_total, questions_skipped, reports);
    std::cout << out.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    PrintTables(convs, questions_total, questions_skipped, reports);
  }
  return 0;
}

}  // namespace engram::bench
