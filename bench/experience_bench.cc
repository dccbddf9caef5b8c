// bench/experience_bench.cc — EXP-1 and EXP-2 of ../shared/data/taubench/SOURCE.md through the
// public Engine API (see experience_bench.h and bench/README.md).
#include "experience_bench.h"

#include "boundary_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.h"
#include "engram/engine.h"
#include "eval/retrieval_metrics.h"
#include "plain_bm25.h"
#include "temp_dir.h"
#include "text/stopwords.h"
#include "util/time.h"

namespace engram::bench {
namespace {

using json = nlohmann::json;

constexpr const char* kNamespace = "taubench";
constexpr int kListed = 50;  // episodes asked for per query: MRR counts a first relevant within 50
constexpr TimestampMs kBaseTime = 1'700'000'000'000;  // 2023-11-14T22:13:20Z: episode times start here
// The baseline: BM25 over the instruction text, k1 1.2, b 0.75, English stopwords (SOURCE.md), with
// Lucene's idf (engram_bm25's), which reproduces SOURCE.md's LOO numbers most closely.
constexpr PlainBm25Parameters kBaseline{.k1 = 1.2, .b = 0.75, .lucene_idf = true};

// One stored episode of the benchmark: what the bench knows about it (the engine sees only the
// EpisodeStartInput).
struct BenchEpisode {
  std::string group;  // EXP-1: the task index; EXP-2: the task id (its 4 trials share it)
  std::string goal;
  std::string signature;  // the gold write signature as a type ("a+b", "read_only")
  bool success = true;
  std::optional<double> reward;
  // EXP-2: the type is the task's gold signature, declared (the environment labels its tasks; the
  // calls of a trial may differ from the gold ones). EXP-1: the steps' own write signature, which
  // is the gold one.
  bool declare_type = false;
  std::vector<EpisodeStepInput> steps;
  std::string id;  // after it is stored
};

struct BenchQuery {
  std::string text;
  std::string signature;
  std::string subset;  // EXP-1 leave-one-out: the file of the query's task (train, dev)
  std::set<std::string> exclude_groups;  // episodes of these groups are neither returned nor learnt from
};

// ---- reading the data --------------------------------------------------------------------------

Result<std::vector<json>> ReadJsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error(Status::NotFound(fmt::format("cannot read {}", path)));
  std::vector<json> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
      return Error(Status::InvalidArgument(fmt::format("{}: line {}: not a JSON object", path, n)));
    }
    out.push_back(std::move(j));
  }
  return out;
}

bool IsRead(const std::string& name, const std::vector<std::string>& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return name.rfind(p, 0) == 0; });
}

std::string SignatureOf(const json& actions, const std::vector<std::string>& prefixes) {
  std::set<std::string> names;
  for (const json& a : actions) {
    const std::string name = a.value("name", "");
    if (!name.empty() && !IsRead(name, prefixes)) names.insert(name);
  }
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : "+") + n;
  return out.empty() ? "read_only" : out;
}

std::string Compact(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// A retail task as an episode: its gold actions as steps.
Result<BenchEpisode> RetailEpisode(const json& task, const std::vector<std::string>& prefixes) {
  if (!task.contains("instruction") || !task["instruction"].is_string() || !task.contains("actions") ||
      !task["actions"].is_array()) {
    return Error(Status::InvalidArgument("a task needs \"instruction\" (string) and \"actions\" (array)"));
  }
  BenchEpisode e;
  e.group = task.contains("index") ? task["index"].dump() : "";
  e.goal = task["instruction"].get<std::string>();
  e.signature = SignatureOf(task["actions"], prefixes);
  e.reward = 1.0;
  e.declare_type = task["actions"].empty();  // no step to read a write signature from
  for (const json& a : task["actions"]) {
    const std::string name = a.value("name", "");
    e.steps.push_back({.action = name + " " + Compact(a.value("kwargs", json::object())),
                       .tool_name = name,
                       .changes_state = !IsRead(name, prefixes)});
  }
  return e;
}

// An airline trajectory as an episode: the user's first message as goal, the agent's tool calls
// (with their results) as steps.
Result<BenchEpisode> AirlineEpisode(const json& t, const std::vector<std::string>& prefixes) {
  if (!t.contains("traj") || !t["traj"].is_array() || !t.contains("info") || !t["info"].contains("task")) {
    return Error(Status::InvalidArgument("a trajectory needs \"traj\" and \"info.task\""));
  }
  BenchEpisode e;
  e.group = t.value("task_id", json()).dump();
  e.signature = SignatureOf(t["info"]["task"].value("actions", json::array()), prefixes);
  const double reward = t.value("reward", 0.0);
  e.reward = reward;
  e.success = reward >= 1.0;
  e.declare_type = true;
  std::map<std::string, std::string> results;  // tool_call_id → content
  for (const json& m : t["traj"]) {
    if (m.value("role", "") == "tool" && m.contains("tool_call_id") && m["content"].is_string()) {
      results[m["tool_call_id"].get<std::string>()] = m["content"].get<std::string>();
    }
  }
  for (const json& m : t["traj"]) {
    const std::string role = m.value("role", "");
    if (role == "user" && e.goal.empty() && m["content"].is_string()) e.goal = m["content"].get<std::string>();
    if (role != "assistant" || !m.contains("tool_calls") || !m["tool_calls"].is_array()) continue;
    for (const json& call : m["tool_calls"]) {
      const std::string name = call["function"].value("name", "");
      const std::string args = call["function"].value("arguments", "");
      std::string result = results[call.value("id", "")];
      if (result.size() > 2000) result.resize(2000);  // the first 2,000 bytes: a summary, as an agent would keep
      while (!result.empty() && (static_cast<unsigned char>(result.back()) & 0xC0) == 0x80) result.pop_back();
      if (!result.empty() && static_cast<unsigned char>(result.back()) >= 0xC0) result.pop_back();
      e.steps.push_back({.action = name + " " + args, .result = result, .tool_name = name,
                         .changes_state = !IsRead(name, prefixes)});
    }
  }
  if (e.goal.empty()) return Error(Status::InvalidArgument("a trajectory without a user message"));
  return e;
}

// The episodes of a protocol, its queries, and what the queries are.
struct BenchData {
  std::vector<BenchEpisode> episodes;
  std::vector<BenchQuery> queries;
  std::string query_set;
};

// Every task of a retail task file as an episode. Errors: the file's, prefixed with its path.
Result<std::vector<BenchEpisode>> ReadRetailTasks(const std::string& path, const std::vector<std::string>& prefixes) {
  auto tasks = ReadJsonl(path);
  if (!tasks) return Error(tasks.error());
  std::vector<BenchEpisode> out;
  for (const json& t : *tasks) {
    auto e = RetailEpisode(t, prefixes);
    if (!e) return Error(e.error().WithContext(path));
    out.push_back(std::move(*e));
  }
  return out;
}

// EXP-1: retail train+dev as episodes; leave-one-out queries, or every task of --queries.
Result<BenchData> LoadExp1(const ExperienceBenchOptions& options) {
  BenchData d;
  for (const char* file : {"retail_tasks_train.jsonl", "retail_tasks_dev.jsonl"}) {
    auto tasks = ReadRetailTasks(options.data_dir + "/" + file, options.read_prefixes);
    if (!tasks) return Error(tasks.error());
    for (BenchEpisode& e : *tasks) {
      e.group = fmt::format("{}#{}", file, d.episodes.size());
      d.episodes.push_back(std::move(e));
    }
  }
  if (options.queries_path.empty()) {
    d.query_set = "leave-one-out over retail train+dev";
    for (const BenchEpisode& e : d.episodes) {
      const std::string subset = e.group.find("_dev") != std::string::npos ? "dev" : "train";
      d.queries.push_back({e.goal, e.signature, subset, {e.group}});
    }
    return d;
  }
  d.query_set = "every task of " + options.queries_path + " against all of train+dev";
  auto tasks = ReadRetailTasks(options.queries_path, options.read_prefixes);
  if (!tasks) return Error(tasks.error());
  for (const BenchEpisode& e : *tasks) d.queries.push_back({e.goal, e.signature, "", {}});
  return d;
}

// The airline trajectories file as a JSON array.
Result<json> ReadTrajectories(const ExperienceBenchOptions& options) {
  const std::string path = options.data_dir + "/airline_trajectories_gpt4o.json";
  std::ifstream in(path);
  json all = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (all.is_discarded() || !all.is_array()) {
    return Error(Status::InvalidArgument(fmt::format("cannot read {} as a JSON array", path)));
  }
  return all;
}

// EXP-2: the airline trajectories as episodes; leave one task (its 4 trials) out.
Result<BenchData> LoadExp2(const ExperienceBenchOptions& options) {
  auto read = ReadTrajectories(options);
  if (!read) return Error(read.error());
  const json& all = *read;
  BenchData d;
  for (const json& t : all) {
    auto e = AirlineEpisode(t, options.read_prefixes);
    if (!e) return Error(e.error().WithContext(fmt::format("trajectory {}", d.episodes.size())));
    d.episodes.push_back(std::move(*e));
  }
  d.query_set = "leave one task (4 trials) out over the airline trajectories";
  for (const BenchEpisode& e : d.episodes) d.queries.push_back({e.goal, e.signature, "", {e.group}});
  return d;
}

// ---- the baseline ------------------------------------------------------------------------------

// Lower-case runs of [a-z0-9_'] (ASCII letters folded, ’ as '), apostrophe-only runs dropped,
// English stopwords (text/stopwords.h) dropped. A query counts each of its terms once.
std::vector<std::string> BaselineTokens(std::string text) {
  for (size_t at = 0; (at = text.find("\u2019", at)) != std::string::npos;) text.replace(at, 3, "'");
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && word.find_first_not_of('\'') != std::string::npos && !text::IsEnglishStopword(word)) {
      out.push_back(word);
    }
    word.clear();
  };
  for (char c : text) {
    const char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '_' || l == '\'') {
      word.push_back(l);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

// ---- scoring -----------------------------------------------------------------------------------

double Jaccard(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    std::set<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, '+');) out.insert(part);
    return out;
  };
  const std::set<std::string> x = split(a), y = split(b);
  size_t both = 0;
  for (const std::string& v : x) both += y.count(v);
  const size_t either = x.size() + y.size() - both;
  return either == 0 ? 1.0 : static_cast<double>(both) / static_cast<double>(either);
}

// What one configuration returned for one query: the episodes in rank order (indexes into the
// bench's episodes), and for engram the rules, the inferred type and the time.
struct Answer {
  std::vector<size_t> ranked;
  std::string inferred_type;
  std::string type_model;
  std::vector<Rule> rules;
  double wall_ms = 0;
  double cpu_ms = 0;
};

struct Metrics {
  eval::MeanAccumulator hit5, mrr, p5, ndcg10, vote5, type_accuracy, failed5, avoid_rule;
  std::map<std::string, eval::MeanAccumulator> p5_by_type;
  int64_t abstentions = 0;
  std::map<std::string, int64_t> type_models;  // the model each query was answered with → queries
  std::vector<double> wall_ms, cpu_ms, warm_wall_ms, warm_cpu_ms;
};

struct Config {
  std::string name;
  std::string what;
  bool engram = true;
  bool success_only = false;  // baseline: failed episodes filtered out
  ExperienceOptions experience;
  Metrics m;
  std::map<std::string, Metrics> by_subset;  // EXP-1 leave-one-out: the same per file of the query
};

Status ApplyVariant(const std::string& spec, Config* config) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::InvalidArgument(fmt::format("--variant \"{}\": expected NAME:key=value,...", spec));
  }
  config->name = spec.substr(0, colon);
  config->what = "engram with " + spec.substr(colon + 1);
  std::stringstream in(spec.substr(colon + 1));
  for (std::string pair; std::getline(in, pair, ',');) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos) return Status::InvalidArgument(fmt::format("--variant: \"{}\" is not key=value", pair));
    const std::string key = pair.substr(0, eq);
    double value = 0;
    try {
      value = std::stod(pair.substr(eq + 1));
    } catch (const std::exception&) {
      return Status::InvalidArgument(fmt::format("--variant: \"{}\" is not a number", pair));
    }
    ExperienceOptions& x = config->experience;
    if (key == "similarity") x.similarity = value;
    else if (key == "type_match") x.type_match = value;
    else if (key == "recency") x.recency = value;
    else if (key == "recency_days") x.recency_days = value;
    else if (key == "steps_weight") x.steps_weight = value;
    else if (key == "type_model_epochs") x.type_model_epochs = static_cast<int>(value);
    else if (key == "type_model_l2") x.type_model_l2 = value;
    else if (key == "distill_every") x.distill_every = static_cast<int>(value);
    else return Status::InvalidArgument(fmt::format("--variant: unknown key \"{}\"", key));
  }
  return Status::Ok();
}

// Scores one answer of EXP-1 (retail) against the query's signature.
void ScoreExp1(const std::vector<BenchEpisode>& episodes, const std::vector<size_t>& memory, const BenchQuery& q,
               const Answer& a, Metrics* m) {
  const auto relevant = [&](size_t i) { return episodes[i].signature == q.signature; };
  // The ideal DCG@10 over every episode the query may retrieve.
  std::vector<double> gains;
  bool any = false;
  for (size_t i : memory) {
    if (q.exclude_groups.contains(episodes[i].group)) continue;
    gains.push_back(Jaccard(episodes[i].signature, q.signature));
    any = any || relevant(i);
  }
  if (!any) {
    ++m->abstentions;
    return;
  }
  std::sort(gains.rbegin(), gains.rend());
  double idcg = 0, dcg = 0;
  for (size_t r = 0; r < 10 && r < gains.size(); ++r) idcg += gains[r] / std::log2(static_cast<double>(r) + 2);
  double first = 0;
  int in5 = 0;
  std::map<std::string, std::pair<int, size_t>> votes;  // signature → (count, best rank)
  for (size_t r = 0; r < a.ranked.size(); ++r) {
    const size_t i = a.ranked[r];
    if (relevant(i) && first == 0) first = 1.0 / static_cast<double>(r + 1);
    if (r < 10) dcg += Jaccard(episodes[i].signature, q.signature) / std::log2(static_cast<double>(r) + 2);
    if (r < 5) {
      in5 += relevant(i) ? 1 : 0;
      auto& v = votes.try_emplace(episodes[i].signature, 0, r).first->second;
      ++v.first;
    }
  }
  std::string majority;
  int best = 0;
  size_t best_rank = 0;
  for (const auto& [signature, v] : votes) {
    if (v.first > best || (v.first == best && v.second < best_rank)) {
      majority = signature;
      best = v.first;
      best_rank = v.second;
    }
  }
  m->hit5.Add(in5 > 0 ? 1 : 0);
  m->mrr.Add(first);
  m->p5.Add(in5 / 5.0);
  m->p5_by_type[q.signature].Add(in5 / 5.0);
  m->ndcg10.Add(idcg > 0 ? dcg / idcg : 0);
  m->vote5.Add(majority == q.signature ? 1 : 0);
  if (!a.inferred_type.empty()) m->type_accuracy.Add(a.inferred_type == q.signature ? 1 : 0);
}

// Scores one answer of EXP-2 (airline): relevant = a success of the same signature.
void ScoreExp2(const std::vector<BenchEpisode>& episodes, const BenchQuery& q, const Answer& a, bool engram,
               Metrics* m) {
  bool any = false, failures_elsewhere = false;
  for (const BenchEpisode& e : episodes) {
    if (q.exclude_groups.contains(e.group) || e.signature != q.signature) continue;
    any = any || e.success;
    failures_elsewhere = failures_elsewhere || !e.success;
  }
  if (!any) {
    ++m->abstentions;
    return;
  }
  double first = 0;
  int in5 = 0, failed5 = 0;
  for (size_t r = 0; r < a.ranked.size(); ++r) {
    const BenchEpisode& e = episodes[a.ranked[r]];
    const bool same = e.signature == q.signature;
    if (same && e.success && first == 0) first = 1.0 / static_cast<double>(r + 1);
    if (r < 5) {
      in5 += same && e.success ? 1 : 0;
      failed5 += same && !e.success ? 1 : 0;
    }
  }
  m->mrr.Add(first);
  m->p5.Add(in5 / 5.0);
  m->failed5.Add(failed5 / 5.0);
  if (!a.inferred_type.empty()) m->type_accuracy.Add(a.inferred_type == q.signature ? 1 : 0);
  if (engram && failures_elsewhere) {
    // An avoid rule of the query's type that failures of other tasks support: rules are distilled
    // from every episode, and one that only the query's own trials support would be a leak.
    std::set<std::string> failed_elsewhere;
    for (const BenchEpisode& e : episodes) {
      if (!e.success && !q.exclude_groups.contains(e.group)) failed_elsewhere.insert(e.id);
    }
    const bool avoid = std::any_of(a.rules.begin(), a.rules.end(), [&](const Rule& r) {
      return r.polarity == "avoid" && r.task_type == q.signature &&
             std::any_of(r.support_episode_ids.begin(), r.support_episode_ids.end(),
                         [&](const std::string& id) { return failed_elsewhere.contains(id); });
    });
    m->avoid_rule.Add(avoid ? 1 : 0);
  }
}

// ---- running ----------------------------------------------------------------------------------

struct Store {
  std::unique_ptr<Engine> engine;
  std::map<std::string, size_t> by_id;  // episode id → index
  double load_ms = 0;
};

Result<Store> BuildStore(const TempDir& dir, const Config& config, std::vector<BenchEpisode>* episodes) {
  Options options;
  options.db_path = dir.path() + "/" + config.name + ".db";
  options.experience = config.experience;
  options.extractor = "none";
  auto engine = Engine::Open(options);
  if (!engine) return Error(engine.error());
  Store s;
  s.engine = std::move(*engine);
  const auto start = Clock::now();
  for (size_t i = 0; i < episodes->size(); ++i) {
    BenchEpisode& e = (*episodes)[i];
    const TimestampMs at = kBaseTime + static_cast<TimestampMs>(i) * 60'000;
    EpisodeStartInput in{.namespace_name = kNamespace, .goal = e.goal, .started_at = FormatTimestamp(at),
                         .steps = e.steps};
    for (EpisodeStepInput& step : in.steps) step.at = FormatTimestamp(at);
    auto started = s.engine->StartEpisode(in);
    if (!started) return Error(started.error().WithContext(fmt::format("episode {}", i)));
    EpisodeEndInput end{.namespace_name = kNamespace, .episode_id = started->id,
                        .outcome = e.success ? "success" : "failure", .reward = e.reward, .outcome_source = "env",
                        .ended_at = FormatTimestamp(at + 30'000)};
    if (e.declare_type) end.task_type = e.signature;
    auto ended = s.engine->EndEpisode(end);
    if (!ended) return Error(ended.error().WithContext(fmt::format("episode {}", i)));
    e.id = started->id;
    s.by_id[e.id] = i;
  }
  s.load_ms = MsSince(start);
  return s;
}

Result<Answer> AskEngram(Store& s, const std::vector<BenchEpisode>& episodes, const BenchQuery& q,
                         bool exclude = true) {
  ExperienceQuery eq{.namespace_name = kNamespace, .text = q.text, .episode_limit = kListed,
                     .now = kBaseTime + static_cast<TimestampMs>(episodes.size() + 1) * 60'000};
  if (exclude) {
    for (const BenchEpisode& e : episodes) {
      if (q.exclude_groups.contains(e.group)) eq.exclude_episode_ids.push_back(e.id);
    }
  }
  const double cpu0 = ThreadCpuMs();
  const auto start = Clock::now();
  auto r = s.engine->RecallExperience(eq);
  Answer a;
  a.wall_ms = MsSince(start);
  a.cpu_ms = ThreadCpuMs() - cpu0;
  if (!r) return Error(r.error());
  a.inferred_type = r->task_type;
  a.type_model = r->type_model;
  for (const ExperienceEpisode& x : r->episodes) a.ranked.push_back(s.by_id.at(x.episode.id));
  for (const ExperienceRule& x : r->rules) a.rules.push_back(x.rule);
  return a;
}

Answer AskBaseline(const PlainBm25& bm25, const std::vector<BenchEpisode>& episodes, const BenchQuery& q,
                   bool success_only) {
  const double cpu0 = ThreadCpuMs();
  const auto start = Clock::now();
  Answer a;
  std::vector<std::string> terms = BaselineTokens(q.text);
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  for (size_t i : bm25.Rank(terms)) {
    if (q.exclude_groups.contains(episodes[i].group)) continue;
    if (success_only && !episodes[i].success) continue;
    a.ranked.push_back(i);
    if (a.ranked.size() == static_cast<size_t>(kListed)) break;
  }
  a.wall_ms = MsSince(start);
  a.cpu_ms = ThreadCpuMs() - cpu0;
  return a;
}

// What every configuration of one run answers and is scored against.
struct BenchRun {
  const std::vector<BenchEpisode>& episodes;
  const std::vector<BenchQuery>& queries;
  const std::vector<size_t>& memory;  // every episode index
  const PlainBm25& bm25;
  bool exp1 = true;
  bool warm = true;              // also time the queries without leave-one-out (the cached model)
  std::ofstream* dump = nullptr;  // one JSON line per query, when asked
};

// One answer into the configuration's metrics (and the dump).
void Record(const BenchRun& run, size_t qi, const Answer& a, Config& c) {
  const BenchQuery& q = run.queries[qi];
  if (!a.type_model.empty()) ++c.m.type_models[a.type_model];
  c.m.wall_ms.push_back(a.wall_ms);
  c.m.cpu_ms.push_back(a.cpu_ms);
  if (!run.exp1) {
    ScoreExp2(run.episodes, q, a, c.engram, &c.m);
  } else {
    ScoreExp1(run.episodes, run.memory, q, a, &c.m);
    if (!q.subset.empty()) {
      Metrics& subset = c.by_subset[q.subset];
      subset.wall_ms.push_back(a.wall_ms);
      subset.cpu_ms.push_back(a.cpu_ms);
      ScoreExp1(run.episodes, run.memory, q, a, &subset);
    }
  }
  if (run.dump == nullptr) return;
  json top = json::array();
  for (size_t r = 0; r < a.ranked.size() && r < 5; ++r) top.push_back(run.episodes[a.ranked[r]].signature);
  *run.dump << Compact({{"config", c.name}, {"query", qi}, {"type", q.signature}, {"inferred", a.inferred_type},
                        {"top5", top}})
            << "\n";
}

// Asks every query of the run of one configuration (engram through `store`, else the baseline)
// and scores the answers; for engram, then times the same queries with the cached type model.
Status AnswerAll(const BenchRun& run, Config& c, Store* store) {
  for (size_t qi = 0; qi < run.queries.size(); ++qi) {
    if (!c.engram) {
      Record(run, qi, AskBaseline(run.bm25, run.episodes, run.queries[qi], c.success_only), c);
      continue;
    }
    auto got = AskEngram(*store, run.episodes, run.queries[qi]);
    if (!got) return got.error().WithContext(fmt::format("query {}", qi));
    Record(run, qi, *got, c);
  }
  if (!c.engram || !run.warm) return Status::Ok();
  for (const BenchQuery& q : run.queries) {
    auto warm = AskEngram(*store, run.episodes, q, /*exclude=*/false);
    if (!warm) return warm.error();
    c.m.warm_wall_ms.push_back(warm->wall_ms);
    c.m.warm_cpu_ms.push_back(warm->cpu_ms);
  }
  return Status::Ok();
}

json MetricsJson(const Config& c, const Metrics& m, const std::string& name, bool exp1) {
  json j{{"name", name}, {"what", c.what}, {"queries", m.mrr.count() + m.abstentions}, {"scored", m.mrr.count()},
         {"abstentions", m.abstentions}, {"mrr", m.mrr.Mean()}, {"p_at_5", m.p5.Mean()}};
  if (exp1) {
    double macro = 0;
    for (const auto& [type, acc] : m.p5_by_type) macro += acc.Mean();
    j["hit_at_5"] = m.hit5.Mean();
    j["p_at_5_macro"] = m.p5_by_type.empty() ? 0.0 : macro / static_cast<double>(m.p5_by_type.size());
    j["ndcg_at_10"] = m.ndcg10.Mean();
    j["vote_at_5"] = m.vote5.Mean();
  } else {
    j["failed_same_type_at_5"] = m.failed5.Mean();
    if (m.avoid_rule.count() > 0) j["avoid_rule_for_queries_with_failures"] = m.avoid_rule.Mean();
  }
  if (m.type_accuracy.count() > 0) j["type_accuracy"] = m.type_accuracy.Mean();
  if (!m.type_models.empty()) j["type_models"] = m.type_models;
  double cpu = 0;
  for (double v : m.cpu_ms) cpu += v;
  j["latency_ms"] = {{"p50", eval::PercentileNearestRank(m.wall_ms, 50)},
                     {"p95", eval::PercentileNearestRank(m.wall_ms, 95)},
                     {"cpu_mean", m.cpu_ms.empty() ? 0.0 : cpu / static_cast<double>(m.cpu_ms.size())}};
  if (!m.warm_wall_ms.empty()) {
    double warm_cpu = 0;
    for (double v : m.warm_cpu_ms) warm_cpu += v;
    j["warm_latency_ms"] = {{"p50", eval::PercentileNearestRank(m.warm_wall_ms, 50)},
                            {"p95", eval::PercentileNearestRank(m.warm_wall_ms, 95)},
                            {"cpu_mean", warm_cpu / static_cast<double>(m.warm_cpu_ms.size())}};
  }
  return j;
}

void PrintTable(const json& report, bool exp1) {
  fmt::print("{} — {} episodes ({} successes), {} queries; {}\n", report["protocol"].get<std::string>(),
             report["episodes"].get<int64_t>(), report["successes"].get<int64_t>(), report["queries"].get<int64_t>(),
             report["query_set"].get<std::string>());
  if (exp1) {
    fmt::print("{:<22}{:>7}{:>7}{:>7}{:>7}{:>8}{:>9}{:>8}{:>7}{:>6}{:>9}{:>9}\n", "config", "scored", "Hit@5", "MRR",
               "P@5", "P@5mac", "nDCG@10", "vote@5", "type", "abst", "p95 ms", "cpu ms");
  } else {
    fmt::print("{:<22}{:>7}{:>9}{:>10}{:>7}{:>8}{:>7}{:>6}{:>9}{:>9}\n", "config", "scored", "succP@5", "failed@5",
               "MRR", "avoid", "type", "abst", "p95 ms", "cpu ms");
  }
  for (const json& c : report["configs"]) {
    const std::string type = c.contains("type_accuracy") ? fmt::format("{:.3f}", c["type_accuracy"].get<double>()) : "-";
    if (exp1) {
      fmt::print("{:<22}{:>7}{:>7.3f}{:>7.3f}{:>7.3f}{:>8.3f}{:>9.3f}{:>8.3f}{:>7}{:>6}{:>9.2f}{:>9.2f}\n",
                 c["name"].get<std::string>(), c["scored"].get<int64_t>(), c["hit_at_5"].get<double>(),
                 c["mrr"].get<double>(), c["p_at_5"].get<double>(), c["p_at_5_macro"].get<double>(),
                 c["ndcg_at_10"].get<double>(), c["vote_at_5"].get<double>(), type, c["abstentions"].get<int64_t>(),
                 c["latency_ms"]["p95"].get<double>(), c["latency_ms"]["cpu_mean"].get<double>());
    } else {
      const std::string avoid = c.contains("avoid_rule_for_queries_with_failures")
                                    ? fmt::format("{:.3f}", c["avoid_rule_for_queries_with_failures"].get<double>())
                                    : "-";
      fmt::print("{:<22}{:>7}{:>9.3f}{:>10.3f}{:>7.3f}{:>8}{:>7}{:>6}{:>9.2f}{:>9.2f}\n", c["name"].get<std::string>(),
                 c["scored"].get<int64_t>(), c["p_at_5"].get<double>(), c["failed_same_type_at_5"].get<double>(),
                 c["mrr"].get<double>(), avoid, type, c["abstentions"].get<int64_t>(),
                 c["latency_ms"]["p95"].get<double>(), c["latency_ms"]["cpu_mean"].get<double>());
    }
  }
  for (const json& c : report["configs"]) {
    if (!c.contains("type_models")) continue;
    for (const auto& [model, n] : c["type_models"].items()) {
      fmt::print("{}: type model {} ({} queries)\n", c["name"].get<std::string>(), model, n.get<int64_t>());
    }
  }
  for (const json& c : report["configs"]) {
    if (!c.contains("warm_latency_ms")) continue;
    fmt::print("{}: recall without leave-one-out (the cached type model): p50 {:.2f} ms, p95 {:.2f} ms, cpu {:.2f} ms\n",
               c["name"].get<std::string>(), c["warm_latency_ms"]["p50"].get<double>(),
               c["warm_latency_ms"]["p95"].get<double>(), c["warm_latency_ms"]["cpu_mean"].get<double>());
  }
  if (report.contains("rules")) {
    const json& r = report["rules"];
    fmt::print("rules of {}: {} ({} do, {} avoid; {} active, {} pending, {} disputed, {} deprecated); failed episodes "
               "counted by an avoid rule of their type: {} of {}\n",
               r["config"].get<std::string>(), r["total"].get<int64_t>(), r["do"].get<int64_t>(),
               r["avoid"].get<int64_t>(), r["active"].get<int64_t>(), r["pending"].get<int64_t>(),
               r["disputed"].get<int64_t>(), r["deprecated"].get<int64_t>(), r["failures_in_avoid_rules"].get<int64_t>(),
               r["failures"].get<int64_t>());
  }
}

// What the rules of the first engram store say (every status), and how many failed episodes are
// counted by an avoid rule of their type.
Result<json> RulesSummary(Store& s, const std::string& name, const std::vector<BenchEpisode>& episodes) {
  json r{{"config", name}, {"total", 0}, {"do", 0}, {"avoid", 0}, {"active", 0}, {"pending", 0}, {"disputed", 0},
         {"deprecated", 0}};
  std::set<std::string> in_avoid;
  int64_t after = 0;
  while (true) {
    auto page = s.engine->ListRules({.namespace_name = kNamespace, .include_deprecated = true, .limit = 1000,
                                     .after_seq = after});
    if (!page) return Error(page.error());
    if (page->empty()) break;
    for (const Rule& rule : *page) {
      r["total"] = r["total"].get<int64_t>() + 1;
      r[rule.polarity] = r[rule.polarity].get<int64_t>() + 1;
      r[rule.status] = r[rule.status].get<int64_t>() + 1;
      if (rule.polarity != "avoid") continue;
      auto detail = s.engine->GetRule(kNamespace, rule.id);
      if (!detail) return Error(detail.error());
      for (const std::string& id : detail->rule.support_episode_ids) in_avoid.insert(id);
    }
    after = page->back().seq;
  }
  int64_t failures = 0, counted = 0;
  for (const BenchEpisode& e : episodes) {
    if (e.success) continue;
    ++failures;
    counted += in_avoid.contains(e.id) ? 1 : 0;
  }
  r["failures"] = failures;
  r["failures_in_avoid_rules"] = counted;
  return r;
}

}  // namespace

Result<std::vector<AirlineTrial>> ReadAirlineTrials(const ExperienceBenchOptions& options) {
  auto all = ReadTrajectories(options);
  if (!all) return Error(all.error());
  std::vector<AirlineTrial> out;
  for (const json& t : *all) {
    auto e = AirlineEpisode(t, options.read_prefixes);
    if (!e) return Error(e.error().WithContext(fmt::format("trajectory {}", out.size())));
    out.push_back({.task_id = e->group, .trial = t.value("trial", 0), .signature = e->signature,
                   .success = e->success, .reward = e->reward, .goal = e->goal, .steps = e->steps});
  }
  return out;
}

int RunExperienceBench(const ExperienceBenchOptions& options) {
  if (options.protocol == "boundary") return RunBoundaryBench({.data_dir = options.data_dir, .json = options.json});
  if (options.protocol == "share") return RunSharingBench(options);
  const bool exp1 = options.protocol == "exp1";
  if (!exp1 && options.protocol != "exp2") {
    std::cerr << "engram-bench experience: the protocol is exp1, exp2, boundary or share\n";
    return 2;
  }
  if (!exp1 && !options.queries_path.empty()) {
    std::cerr << "engram-bench experience: --queries is for exp1 (retail task files)\n";
    return 2;
  }
  // The episodes and queries.
  auto data = exp1 ? LoadExp1(options) : LoadExp2(options);
  if (!data) {
    std::cerr << data.error().ToString() << "\n";
    return 1;
  }
  std::vector<BenchEpisode>& episodes = data->episodes;
  const std::vector<BenchQuery>& queries = data->queries;
  const std::string& query_set = data->query_set;

  // The configurations: engram (and variants), then the baselines.
  std::vector<Config> configs;
  configs.push_back({.name = "engram", .what = "experience recall, defaults (ExperienceOptions)"});
  for (const std::string& spec : options.variants) {
    Config c;
    if (Status st = ApplyVariant(spec, &c); !st.ok()) {
      std::cerr << st.ToString() << "\n";
      return 2;
    }
    configs.push_back(std::move(c));
  }
  configs.push_back({.name = "bm25", .what = "BM25 over the goal text (k1 1.2, b 0.75, stopwords)", .engram = false});
  if (!exp1) {
    configs.push_back({.name = "bm25_success", .what = "the same, failed episodes filtered out", .engram = false,
                       .success_only = true});
  }

  std::vector<std::vector<std::string>> docs;
  for (const BenchEpisode& e : episodes) docs.push_back(BaselineTokens(e.goal));
  const PlainBm25 bm25(docs, kBaseline);
  std::vector<size_t> memory(episodes.size());
  for (size_t i = 0; i < memory.size(); ++i) memory[i] = i;
  std::ofstream dump;
  if (!options.dump_path.empty()) dump.open(options.dump_path);
  const BenchRun run{.episodes = episodes, .queries = queries, .memory = memory, .bm25 = bm25, .exp1 = exp1,
                     .warm = options.queries_path.empty(), .dump = dump.is_open() ? &dump : nullptr};

  auto dir = TempDir::Create();
  if (!dir) {
    std::cerr << dir.error().ToString() << "\n";
    return 1;
  }
  json report{{"protocol", exp1 ? "EXP-1" : "EXP-2"}, {"data", options.data_dir}, {"query_set", query_set},
              {"episodes", episodes.size()}, {"queries", queries.size()}};
  int64_t successes = 0;
  for (const BenchEpisode& e : episodes) successes += e.success ? 1 : 0;
  report["successes"] = successes;
  std::optional<json> rules_summary;
  for (Config& c : configs) {
    std::optional<Store> store;
    if (c.engram) {
      auto s = BuildStore(*dir, c, &episodes);
      if (!s) {
        std::cerr << c.name << ": " << s.error().ToString() << "\n";
        return 1;
      }
      store = std::move(*s);
      if (!rules_summary) {
        auto r = RulesSummary(*store, c.name, episodes);
        if (!r) {
          std::cerr << r.error().ToString() << "\n";
          return 1;
        }
        rules_summary = std::move(*r);
      }
    }
    if (Status st = AnswerAll(run, c, store ? &*store : nullptr); !st.ok()) {
      std::cerr << c.name << ": " << st.ToString() << "\n";
      return 1;
    }
    if (c.engram) report["load_ms_" + c.name] = store->load_ms;
  }
  report["configs"] = json::array();
  for (const Config& c : configs) {
    report["configs"].push_back(MetricsJson(c, c.m, c.name, exp1));
    for (const auto& [subset, m] : c.by_subset) {
      report["configs"].push_back(MetricsJson(c, m, c.name + "/" + subset, exp1));
    }
  }
  if (rules_summary) report["rules"] = *rules_summary;
  if (options.json) {
    std::cout << report.dump(2) << "\n";
  } else {
    PrintTable(report, exp1);
  }
  return 0;
}

}  // namespace engram::bench
