// bench/sharing_bench.cc — `engram-bench experience share`: the sharing gate of docs/experience.md
// on the τ-airline trajectories (../shared/data/taubench/SOURCE.md, "Sharing gate"), through the
// public Engine API. The 4 trials of a task are 4 agents. In turn, one trial is held out: the other
// three agents' 150 episodes are stored (task type = the task's gold write signature, declared;
// agent = its trial) and distilled; then, for each held-out episode, experience recall is asked as
// a fourth agent that has no episode of its own (so it sees the shared area only, at full weight)
// with the episode's first user message and its type. What holds (bench/README.md):
//   * a type is promoted for the held-out agent when that recall returns at least one shared
//     episode of that type; the pair (promoted type, held-out episode of that type) holds when the held-out
//     episode succeeded. Type precision = holding pairs / pairs; coverage = held-out successes
//     whose type was promoted / held-out successes.
//   * every shared rule returned (rule_limit 20) that matches the held-out episode's tool calls
//     (the engine's own PatternMatches) makes a pair that holds when the episode ended as the rule
//     predicts (success for do, failure for avoid). Rule precision = holding pairs / pairs.
// The same run measures three gates with the same machinery (ExperienceOptions): the design's
// (≥ 70% over ≥ 3 agents), a majority gate (> 50% of the decided episodes, any number of agents)
// and no gate (every type and rule with one decided episode).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bench_util.h"
#include "engram/engine.h"
#include "experience/rule_distiller.h"
#include "experience_bench.h"
#include "temp_dir.h"
#include "util/time.h"

namespace engram::bench {
namespace {

using json = nlohmann::json;

constexpr const char* kNamespace = "share";
constexpr int kTrials = 4;
constexpr TimestampMs kBaseTime = 1'700'000'000'000;  // episode times start here (as EXP-2)

struct Gate {
  std::string name;
  std::string what;
  int min_agents = 3;
  double min_rate = 0.7;
};

struct Counts {
  int64_t type_pairs = 0, type_holds = 0, successes = 0, covered = 0, rule_pairs = 0, rule_holds = 0;
  std::set<std::string> promoted_types;  // "fold:type"
  std::set<std::string> promoted_rules;  // rule ids (unique per fold's database)
  int64_t heldout = 0, heldout_successes = 0;
};

std::string AgentOf(int trial) { return fmt::format("trial-{}", trial); }

std::vector<std::string> ToolsOf(const AirlineTrial& t) {
  std::vector<std::string> out;
  for (const EpisodeStepInput& s : t.steps) {
    if (!s.tool_name.empty()) out.push_back(s.tool_name);
  }
  return out;
}

// Stores the trials of the other agents (agent = trial) and distils every type.
Status Load(Engine& engine, const std::vector<AirlineTrial>& trials, int heldout) {
  for (size_t i = 0; i < trials.size(); ++i) {
    const AirlineTrial& t = trials[i];
    if (t.trial == heldout) continue;
    const TimestampMs at = kBaseTime + static_cast<TimestampMs>(i) * 60'000;
    EpisodeStartInput in{.namespace_name = kNamespace, .goal = t.goal, .agent_id = AgentOf(t.trial),
                         .started_at = FormatTimestamp(at), .steps = t.steps};
    for (EpisodeStepInput& step : in.steps) step.at = FormatTimestamp(at);
    auto started = engine.StartEpisode(in);
    if (!started) return started.error().WithContext(fmt::format("trajectory {}", i));
    auto ended = engine.EndEpisode({.namespace_name = kNamespace, .episode_id = started->id,
                                    .outcome = t.success ? "success" : "failure", .reward = t.reward,
                                    .outcome_source = "env", .task_type = t.signature,
                                    .ended_at = FormatTimestamp(at + 30'000)});
    if (!ended) return ended.error().WithContext(fmt::format("trajectory {}", i));
  }
  auto distilled = engine.Distill({.namespace_name = kNamespace});
  return distilled ? Status::Ok() : distilled.error();
}

// Scores one held-out trial against what the gate shares with it.
Status ScoreFold(Engine& engine, const std::vector<AirlineTrial>& trials, int heldout, Counts* c) {
  for (const AirlineTrial& t : trials) {
    if (t.trial != heldout) continue;
    auto r = engine.RecallExperience({.namespace_name = kNamespace, .text = t.goal, .task_type = t.signature,
                                      .rule_limit = 20, .episode_limit = 50,
                                      .now = kBaseTime + static_cast<TimestampMs>(trials.size() + 1) * 60'000,
                                      .agent_id = "heldout-agent"});
    if (!r) return r.error();
    ++c->heldout;
    c->heldout_successes += t.success ? 1 : 0;
    // Recall also returns shared episodes of other types that match the text: only the episode's
    // own type counts as promoted for it.
    const bool promoted = std::any_of(r->episodes.begin(), r->episodes.end(),
                                      [&](const ExperienceEpisode& e) { return e.episode.task_type == t.signature; });
    if (promoted) {
      ++c->type_pairs;
      c->type_holds += t.success ? 1 : 0;
      c->promoted_types.insert(fmt::format("{}:{}", heldout, t.signature));
    }
    if (t.success) {
      ++c->successes;
      c->covered += promoted ? 1 : 0;
    }
    const std::vector<std::string> tools = ToolsOf(t);
    for (const ExperienceRule& x : r->rules) {
      c->promoted_rules.insert(fmt::format("{}:{}", heldout, x.rule.id));
      const experience::RulePattern pattern{x.rule.polarity, x.rule.kind, x.rule.tools};
      if (!experience::PatternMatches(pattern, tools)) continue;
      ++c->rule_pairs;
      c->rule_holds += experience::PatternConfirmedBy(pattern, t.success) ? 1 : 0;
    }
  }
  return Status::Ok();
}

double Ratio(int64_t a, int64_t b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

json Report(const Gate& g, const Counts& c, double ms) {
  return {{"gate", g.name},
          {"what", g.what},
          {"promoted_types", c.promoted_types.size()},
          {"type_pairs", c.type_pairs},
          {"type_precision", Ratio(c.type_holds, c.type_pairs)},
          {"coverage", Ratio(c.covered, c.successes)},
          {"promoted_rules", c.promoted_rules.size()},
          {"rule_pairs", c.rule_pairs},
          {"rule_precision", Ratio(c.rule_holds, c.rule_pairs)},
          {"heldout_success_rate", Ratio(c.heldout_successes, c.heldout)},
          {"ms", ms}};
}

void PrintTable(const json& report) {
  std::cout << fmt::format("sharing gate, {} trajectories ({} tasks x {} trials = agents), one trial held out in turn\n",
                           report["trajectories"].get<int64_t>(), report["tasks"].get<int64_t>(), kTrials);
  std::cout << fmt::format("{:<9} {:>6} {:>6} {:>9} {:>8} {:>6} {:>6} {:>9} {:>8}\n", "gate", "types", "pairs",
                           "type_prec", "coverage", "rules", "pairs", "rule_prec", "ms");
  for (const json& g : report["gates"]) {
    std::cout << fmt::format("{:<9} {:>6} {:>6} {:>9.3f} {:>8.3f} {:>6} {:>6} {:>9.3f} {:>8.0f}\n",
                             g["gate"].get<std::string>(), g["promoted_types"].get<int64_t>(),
                             g["type_pairs"].get<int64_t>(), g["type_precision"].get<double>(),
                             g["coverage"].get<double>(), g["promoted_rules"].get<int64_t>(),
                             g["rule_pairs"].get<int64_t>(), g["rule_precision"].get<double>(), g["ms"].get<double>());
  }
  std::cout << fmt::format("held-out success rate (every type): {:.3f}\n",
                           report["gates"][0]["heldout_success_rate"].get<double>());
}

}  // namespace

int RunSharingBench(const ExperienceBenchOptions& options) {
  auto trials = ReadAirlineTrials(options);
  if (!trials) {
    std::cerr << trials.error().ToString() << "\n";
    return 1;
  }
  std::set<std::string> tasks;
  for (const AirlineTrial& t : *trials) tasks.insert(t.task_id);
  const std::vector<Gate> gates = {
      {"gate", "engram: >= 70% success over >= 3 agents (ExperienceOptions defaults)", 3, 0.7},
      {"majority", "> 50% of the decided episodes succeeded, any number of agents", 1, 0.501},
      {"none", "no gate: every type and rule with one decided episode is shared", 1, 0.0}};
  auto dir = TempDir::Create();
  if (!dir) {
    std::cerr << dir.error().ToString() << "\n";
    return 1;
  }
  json report{{"protocol", "sharing gate"}, {"data", options.data_dir}, {"trajectories", trials->size()},
              {"tasks", tasks.size()}, {"gates", json::array()}};
  for (const Gate& g : gates) {
    Counts counts;
    const auto start = Clock::now();
    for (int heldout = 0; heldout < kTrials; ++heldout) {
      Options engine_options;
      engine_options.db_path = fmt::format("{}/{}-{}.db", dir->path(), g.name, heldout);
      engine_options.extractor = "none";
      engine_options.experience.share_min_agents = g.min_agents;
      engine_options.experience.share_min_success_rate = g.min_rate;
      auto engine = Engine::Open(engine_options);
      Status st = engine ? Load(**engine, *trials, heldout) : engine.error();
      if (st.ok()) st = ScoreFold(**engine, *trials, heldout, &counts);
      if (!st.ok()) {
        std::cerr << g.name << ", held-out trial " << heldout << ": " << st.ToString() << "\n";
        return 1;
      }
    }
    report["gates"].push_back(Report(g, counts, MsSince(start)));
  }
  if (!options.json) {
    PrintTable(report);
    return 0;
  }
  std::cout << report.dump(2) << "\n";
  return 0;
}

}  // namespace engram::bench
