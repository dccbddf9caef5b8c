#include "recall_qps_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>
#include <vector>

#include "api/registry.h"
#include "codec/json_codec.h"
#include "engram/engine.h"

namespace engram::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::pair<std::string, std::string>> ReadQueries(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    if (tab != std::string::npos) out.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return out;
}

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

// One recall as the REST route makes it without the socket: the arguments as JSON, the recall
// capability through api::Invoke (validation, RunRecall, the packet as JSON) and the body text.
bool RecallThroughApi(Engine& engine, const std::string& ns, const std::string& question, int limit) {
  static const api::Capability* recall = api::FindCapability("recall");
  const nlohmann::json args{{"namespace", ns}, {"query", question}, {"limit", limit}};
  auto reply = api::Invoke(engine, *recall, args, api::ArgsMode::kStrict);
  return reply.has_value() && !Dump(reply->body).empty();
}

}  // namespace

int RunRecallQpsBench(const RecallQpsBenchOptions& o) {
  const auto queries = ReadQueries(o.queries_path);
  if (queries.empty()) {
    fmt::print(stderr, "recall-qps: no \"namespace<TAB>question\" lines in {}\n", o.queries_path);
    return 1;
  }
  std::vector<std::unique_ptr<Engine>> engines;
  for (int t = 0; t < o.threads; ++t) {
    auto e = Engine::Open({.db_path = o.db_path, .open_mode = OpenMode::kReadOnly});
    if (!e) {
      fmt::print(stderr, "recall-qps: {}\n", e.error().ToString());
      return 1;
    }
    engines.push_back(std::move(*e));
  }
  std::atomic<bool> measuring{false}, stop{false}, failed{false};
  std::mutex mu;
  std::vector<double> latencies;
  std::vector<std::thread> threads;
  const bool counted = o.recalls > 0;  // a fixed number of recalls, all measured (for callgrind)
  if (counted) measuring = true;
  const auto counted_start = Clock::now();
  for (int t = 0; t < o.threads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<double> mine;
      const size_t first = static_cast<size_t>(t) * 7919;
      for (size_t i = first; counted ? i < first + static_cast<size_t>(o.recalls) : !stop.load(); ++i) {
        const auto& [ns, question] = queries[i % queries.size()];
        const auto start = Clock::now();
        const RecallQuery query{.text = question, .namespace_name = ns, .limit = o.limit};
        const bool ok = o.through_api ? RecallThroughApi(*engines[t], ns, question, o.limit)
                                      : engines[t]->Recall(query).has_value();
        if (!ok) failed = true;
        if (measuring) mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      }
      std::lock_guard<std::mutex> lock(mu);
      latencies.insert(latencies.end(), mine.begin(), mine.end());
    });
  }
  double elapsed = 0;
  if (counted) {
    for (auto& th : threads) th.join();
    elapsed = std::chrono::duration<double>(Clock::now() - counted_start).count();
  } else {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    measuring = true;
    const auto start = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
    measuring = false;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    stop = true;
    for (auto& th : threads) th.join();
  }
  if (failed) fmt::print(stderr, "recall-qps: some recalls failed\n");
  const double qps = static_cast<double>(latencies.size()) / elapsed;
  const double p50 = Percentile(latencies, 50), p99 = Percentile(latencies, 99);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json{{"threads", o.threads}, {"recalls", latencies.size()}, {"seconds", elapsed},
                                      {"recalls_per_s", qps}, {"p50_ms", p50}, {"p99_ms", p99}}
                           .dump());
  } else {
    fmt::print("in-process recall: {} threads, {} recalls in {:.1f} s = {:.0f} recalls/s; p50 {:.3f} ms, p99 {:.3f} ms\n",
               o.threads, latencies.size(), elapsed, qps, p50, p99);
  }
  return failed ? 1 : 0;
}

}  // namespace engram::bench
