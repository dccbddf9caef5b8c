#include "working_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engram/engine.h"
#include "recall/context_packet.h"
#include "temp_dir.h"
#include "working/working_memory.h"

namespace engram::bench {
namespace {

constexpr int kPercents[] = {50, 20, 10};

struct Trajectory {
  std::string session;
  std::vector<EventInput> events;
};

std::string Stripped(std::string text) {
  for (size_t at = text.find("###STOP###"); at != std::string::npos; at = text.find("###STOP###")) text.erase(at, 10);
  return text;
}

// The turns of one recorded run, as events of session `session` in namespace "w".
Trajectory ToTrajectory(const nlohmann::json& t) {
  Trajectory out;
  out.session = fmt::format("task{}-trial{}", t.value("task_id", 0), t.value("trial", 0));
  int minute = 0;
  auto add = [&](const std::string& role, std::string content) {
    content = Stripped(std::move(content));
    if (content.find_first_not_of(" \n\t") == std::string::npos) return;
    EventInput e;
    e.namespace_name = "w";
    e.session_id = out.session;
    e.role = role;
    e.content = std::move(content);
    e.occurred_at = fmt::format("2024-05-15T{:02d}:{:02d}:00Z", 8 + minute / 60, minute % 60);
    ++minute;
    out.events.push_back(std::move(e));
  };
  add("user", t["info"]["task"].value("instruction", ""));
  for (const nlohmann::json& m : t["traj"]) {
    const std::string role = m.value("role", "");
    if (role != "user" && role != "assistant" && role != "tool") continue;
    std::string content = m["content"].is_string() ? m["content"].get<std::string>() : "";
    if (role == "assistant" && m.contains("tool_calls") && m["tool_calls"].is_array()) {
      for (const nlohmann::json& call : m["tool_calls"]) {
        content += fmt::format("\n[tool call] {}({})", call["function"].value("name", ""),
                               call["function"].value("arguments", ""));
      }
    }
    add(role, content);
  }
  return out;
}

// The newest turns verbatim within `budget` tokens (the baseline: a window that drops old turns).
std::string NewestTurns(const std::vector<Event>& events, int budget) {
  std::vector<std::string> kept;
  int room = budget;
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    std::string turn = it->role + ": " + it->content + "\n";
    const int cost = EstimateTokens(turn);
    if (cost > room) break;
    room -= cost;
    kept.push_back(std::move(turn));
  }
  std::string out;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) out += *it;
  return out;
}

struct Tally {
  int64_t constraints = 0;  // constraints to keep, over the sessions
  int64_t kept = 0;         // of them, found verbatim in the summary
  int64_t baseline_kept = 0;
  int64_t invented = 0;     // constraints shown that no user turn said
  int64_t over_budget = 0;  // sessions whose pinned part alone was over the budget
  int64_t used_tokens = 0;
  int64_t budget_tokens = 0;
  std::vector<double> ms;
};

bool SaidByTheUser(const std::string& text, const std::vector<Event>& events) {
  return std::any_of(events.begin(), events.end(),
                     [&](const Event& e) { return e.role == "user" && e.content.find(text) != std::string::npos; });
}

Status Score(Engine& engine, const Trajectory& t, std::map<int, Tally>* tallies, nlohmann::json* dump) {
  // Unbounded: every constraint, and every event of the session (for the baseline and the
  // provenance check).
  auto all = engine.Working({.namespace_name = "w", .session_id = t.session, .budget_tokens = 1000000});
  if (!all) return all.error();
  const WorkingMemory full = std::move(*all);
  const std::vector<Event>& events = full.recent;
  for (int percent : kPercents) {
    WorkingMemoryQuery q{.namespace_name = "w", .session_id = t.session};
    q.budget_tokens = std::max(1, full.total_tokens * percent / 100);
    const auto start = std::chrono::steady_clock::now();
    auto wm = engine.Working(q);
    if (!wm) return wm.error();
    Tally& tally = (*tallies)[percent];
    tally.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    const std::vector<std::string> lost = working::MissingConstraints(full.constraints, wm->text);
    const std::vector<std::string> baseline_lost =
        working::MissingConstraints(full.constraints, NewestTurns(events, q.budget_tokens));
    tally.constraints += static_cast<int64_t>(full.constraints.size());
    tally.kept += static_cast<int64_t>(full.constraints.size() - lost.size());
    tally.baseline_kept += static_cast<int64_t>(full.constraints.size() - baseline_lost.size());
    for (const WorkingConstraint& c : wm->constraints) tally.invented += SaidByTheUser(c.text, events) ? 0 : 1;
    tally.over_budget += wm->over_budget ? 1 : 0;
    tally.used_tokens += wm->used_tokens;
    tally.budget_tokens += q.budget_tokens;
  }
  if (dump != nullptr) {
    nlohmann::json line{{"session", t.session}, {"tokens", full.total_tokens}};
    for (const WorkingConstraint& c : full.constraints) line["constraints"].push_back(c.text);
    for (const WorkingConstraint& c : full.retracted) line["retracted"].push_back({c.text, c.retraction});
    *dump = std::move(line);
  }
  return Status::Ok();
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int RunWorkingBench(const WorkingBenchOptions& options) {
  const std::string path = options.data_dir + "/airline_trajectories_gpt4o.json";
  std::ifstream in(path);
  if (!in) {
    std::cerr << "engram-bench working: cannot read " << path << "\n";
    return 1;
  }
  nlohmann::json data = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!data.is_array()) {
    std::cerr << "engram-bench working: " << path << " is not a JSON array\n";
    return 1;
  }
  auto dir = TempDir::Create();
  if (!dir) {
    std::cerr << dir.error().ToString() << "\n";
    return 1;
  }
  auto engine = Engine::Open({.db_path = dir->path() + "/w.db"});
  if (!engine) {
    std::cerr << engine.error().ToString() << "\n";
    return 1;
  }
  std::ofstream dump_out;
  if (!options.dump_path.empty()) dump_out.open(options.dump_path);
  std::map<int, Tally> tallies;
  int sessions = 0;
  for (const nlohmann::json& t : data) {
    Trajectory trajectory = ToTrajectory(t);
    auto stored = (*engine)->IngestBatch(trajectory.events);
    if (!stored) {
      std::cerr << trajectory.session << ": " << stored.error().ToString() << "\n";
      return 1;
    }
    nlohmann::json line;
    Status st = Score(**engine, trajectory, &tallies, dump_out.is_open() ? &line : nullptr);
    if (!st.ok()) {
      std::cerr << trajectory.session << ": " << st.ToString() << "\n";
      return 1;
    }
    if (dump_out.is_open()) dump_out << line.dump() << "\n";
    ++sessions;
  }
  nlohmann::json report{{"sessions", sessions}};
  for (const auto& [percent, t] : tallies) {
    auto rate = [&](int64_t n) { return t.constraints == 0 ? 1.0 : static_cast<double>(n) / static_cast<double>(t.constraints); };
    report["budgets"].push_back({{"percent", percent}, {"constraints", t.constraints},
                                 {"engram_verbatim", rate(t.kept)}, {"baseline_newest_turns_verbatim", rate(t.baseline_kept)},
                                 {"invented", t.invented}, {"over_budget_sessions", t.over_budget},
                                 {"used_tokens_mean", static_cast<double>(t.used_tokens) / sessions},
                                 {"budget_tokens_mean", static_cast<double>(t.budget_tokens) / sessions},
                                 {"p50_ms", Percentile(t.ms, 0.5)}, {"p95_ms", Percentile(t.ms, 0.95)}});
  }
  if (options.json) {
    std::cout << report.dump() << "\n";
    return 0;
  }
  std::cout << fmt::format("W-1 working memory: {} sessions (τ-bench airline trajectories)\n", sessions);
  std::cout << "budget  constraints  engram verbatim  baseline verbatim  invented  over budget  tokens used/budget  p50/p95 ms\n";
  for (const nlohmann::json& b : report["budgets"]) {
    std::cout << fmt::format("{:>5}%  {:>11}  {:>15.3f}  {:>17.3f}  {:>8}  {:>11}  {:>8.0f}/{:<8.0f}  {:.2f}/{:.2f}\n",
                             b["percent"].get<int>(), b["constraints"].get<int64_t>(), b["engram_verbatim"].get<double>(),
                             b["baseline_newest_turns_verbatim"].get<double>(), b["invented"].get<int64_t>(),
                             b["over_budget_sessions"].get<int64_t>(), b["used_tokens_mean"].get<double>(),
                             b["budget_tokens_mean"].get<double>(), b["p50_ms"].get<double>(), b["p95_ms"].get<double>());
  }
  return 0;
}

}  // namespace engram::bench
