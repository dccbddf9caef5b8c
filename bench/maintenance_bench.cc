#include "maintenance_bench.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "engram/engine.h"
#include "temp_dir.h"
#include "bench_util.h"
#include "util/time.h"

namespace engram::bench {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kNamespace = "bench";
constexpr int64_t kDayMs = 86'400'000;
constexpr TimestampMs kStartMs = 1704067200000;  // 2024-01-01T00:00:00Z

// Made-up lowercase words of three syllables (4096 of them), so that every fact is distinct.
std::string Word(Rng& rng) {
  static const char* kSyllables[] = {"ka", "lo", "mi", "ren", "tu", "sa", "vo", "ne",
                                     "dri", "pa", "xe", "gol", "bu", "fi", "zo", "har"};
  std::string w;
  for (int i = 0; i < 3; ++i) w += kSyllables[rng.Below(16)];
  return w;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const auto hi = static_cast<size_t>(std::ceil(pos));
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

json Latency(const std::vector<double>& ms) {
  json j;
  j["recalls"] = ms.size();
  j["p50_ms"] = Percentile(ms, 0.50);
  j["p95_ms"] = Percentile(ms, 0.95);
  j["p99_ms"] = Percentile(ms, 0.99);
  j["max_ms"] = ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end());
  return j;
}

// Q recalls on `engine`; the latency of each, ms.
Result<std::vector<double>> RecallPhase(Engine& engine, const std::vector<std::string>& questions) {
  std::vector<double> ms;
  ms.reserve(questions.size());
  for (const std::string& q : questions) {
    RecallQuery query;
    query.namespace_name = kNamespace;
    query.text = q;
    query.limit = 10;
    const auto t0 = Clock::now();
    auto r = engine.Recall(query);
    ms.push_back(MsSince(t0));
    if (!r) return Error(r.error().WithContext("Recall"));
  }
  return ms;
}

Status Run(const MaintenanceBenchOptions& opt, json* report) {
  auto dir = TempDir::Create();
  if (!dir) return dir.error();
  Options options;
  options.db_path = dir->path() + "/maintenance.db";
  options.extractor = "rules";
  auto opened = Engine::Open(options);
  if (!opened) return opened.error().WithContext("Engine::Open");
  std::unique_ptr<Engine> engine = std::move(*opened);

  // ---- Build: N events, a claim from most of them ----
  Rng rng(opt.seed);
  std::vector<std::string> questions;
  const auto build0 = Clock::now();
  for (int64_t done = 0; done < opt.events;) {
    std::vector<EventInput> batch;
    for (int i = 0; i < 1000 && done < opt.events; ++i, ++done) {
      EventInput e;
      e.namespace_name = kNamespace;
      e.session_id = fmt::format("s{}", done / 10);
      e.role = "user";
      const std::string a = Word(rng), b = Word(rng);
      e.content = done % 3 == 0 ? fmt::format("I like {} {} for now.", a, b) : fmt::format("I like {} {}.", a, b);
      e.occurred_at = FormatTimestamp(kStartMs + done * 60'000);
      batch.push_back(std::move(e));
      if (static_cast<int>(questions.size()) < opt.queries && rng.Below(4) == 0) questions.push_back(a + " " + b);
    }
    auto r = engine->IngestBatch(batch);
    if (!r) return r.error().WithContext("IngestBatch");
  }
  while (static_cast<int>(questions.size()) < opt.queries) questions.push_back(Word(rng) + " " + Word(rng));
  auto processed = engine->Process(true);
  if (!processed) return processed.error().WithContext("Process");
  ListClaimsQuery lq;
  lq.namespace_name = kNamespace;
  lq.limit = 100000;
  auto claims = engine->ListClaims(lq);
  if (!claims) return claims.error();
  (*report)["command"] = fmt::format("engram-bench maintenance --events {} --queries {} --seed {}", opt.events,
                                     opt.queries, opt.seed);
  (*report)["events"] = opt.events;
  (*report)["claims"] = processed->claims_created;
  (*report)["current_claims"] = claims->size();
  (*report)["build_s"] = MsSince(build0) / 1000;
  // A first pass at the data's own time: TTLs assigned, nothing to expire yet. Then warm-up.
  MaintainRequest first;
  first.now = kStartMs;
  first.all_namespaces = true;
  auto warm = engine->Maintain(first);
  if (!warm) return warm.error();
  if (auto w = RecallPhase(*engine, questions); !w) return w.error();

  // ---- Phase 1: baseline ----
  auto baseline = RecallPhase(*engine, questions);
  if (!baseline) return baseline.error();
  (*report)["baseline"] = Latency(*baseline);

  // ---- Phase 2: maintenance passes on connection B, back to back ----
  {
    auto other = Engine::Open(options);
    if (!other) return other.error();
    std::atomic<bool> stop{false};
    int64_t passes = 0, updated = 0;
    double pass_ms = 0;
    Status failure = Status::Ok();
    std::thread maintainer([&] {
      // Each pass a day later than the last, from a time before any claim was recorded, so that
      // every activation moves and is rewritten; nothing is archived.
      TimestampMs now = NowMs();
      while (!stop.load()) {
        MaintainRequest r;
        r.now = now;
        r.all_namespaces = true;
        now += kDayMs;
        auto pass = (*other)->Maintain(r);
        if (!pass) {
          failure = pass.error();
          return;
        }
        ++passes;
        updated += pass->total.decayed + pass->total.expired + pass->total.archived;
        pass_ms += pass->took_ms;
      }
    });
    // Let the first pass start before measuring.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto during = RecallPhase(*engine, questions);
    stop.store(true);
    maintainer.join();
    if (!during) return during.error();
    if (!failure.ok()) return failure.WithContext("Maintain");
    json phase = Latency(*during);
    phase["passes"] = passes;
    phase["claims_updated"] = updated;
    phase["mean_pass_ms"] = passes > 0 ? pass_ms / static_cast<double>(passes) : 0.0;
    (*report)["maintain"] = phase;
  }

  // ---- Phase 3: the write lock held by connection B for the whole phase ----
  {
    sqlite3* raw = nullptr;
    if (sqlite3_open_v2(options.db_path.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      sqlite3_close_v2(raw);
      return Status::IOError("cannot open a second connection");
    }
    const auto t0 = Clock::now();
    int rc = sqlite3_exec(raw, "BEGIN IMMEDIATE; UPDATE claims SET activation = activation * 0.5;", nullptr,
                          nullptr, nullptr);
    const double lock_ms = MsSince(t0);
    if (rc != SQLITE_OK) {
      sqlite3_close_v2(raw);
      return Status::Internal("cannot take the write lock");
    }
    auto held = RecallPhase(*engine, questions);
    sqlite3_exec(raw, "ROLLBACK;", nullptr, nullptr, nullptr);
    sqlite3_close_v2(raw);
    if (!held) return held.error();
    json phase = Latency(*held);
    phase["update_all_claims_ms"] = lock_ms;
    (*report)["write_lock"] = phase;
  }
  return Status::Ok();
}

void PrintTable(const json& r) {
  fmt::print("{}\n{} events, {} current claims (built in {:.1f} s)\n\n", r["command"].get<std::string>(),
             r["events"].get<int64_t>(), r["current_claims"].get<int64_t>(), r["build_s"].get<double>());
  fmt::print("{:<12} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "phase", "recalls", "p50 ms", "p95 ms", "p99 ms", "max ms");
  for (const char* phase : {"baseline", "maintain", "write_lock"}) {
    const json& p = r[phase];
    fmt::print("{:<12} {:>8} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f}\n", phase, p["recalls"].get<int64_t>(),
               p["p50_ms"].get<double>(), p["p95_ms"].get<double>(), p["p99_ms"].get<double>(),
               p["max_ms"].get<double>());
  }
  const json& m = r["maintain"];
  fmt::print("\nmaintain: {} passes during the phase, {} claim updates, {:.1f} ms per pass\n",
             m["passes"].get<int64_t>(), m["claims_updated"].get<int64_t>(), m["mean_pass_ms"].get<double>());
  fmt::print("write_lock: UPDATE of every claim held uncommitted ({:.1f} ms to run) for the whole phase\n",
             r["write_lock"]["update_all_claims_ms"].get<double>());
}

}  // namespace

int RunMaintenanceBench(const MaintenanceBenchOptions& options) {
  if (options.events < 1 || options.queries < 1) {
    std::cerr << "engram-bench maintenance: --events and --queries must be at least 1\n";
    return 2;
  }
  json report;
  Status st = Run(options, &report);
  if (!st.ok()) {
    std::cerr << "engram-bench maintenance: " << st.ToString() << "\n";
    return ExitCodeFor(st.code());
  }
  if (options.json) {
    std::cout << report.dump(2) << "\n";
  } else {
    PrintTable(report);
  }
  return 0;
}

}  // namespace engram::bench
