// bench/boundary_bench.cc — task boundaries of τ-bench streams through the public Engine API (see
// boundary_bench.h and bench/README.md).
#include "boundary_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "capture/capture_delivery.h"
#include "capture/tool_call_record.h"
#include "engram/engine.h"
#include "temp_dir.h"
#include "util/time.h"

namespace engram::bench {
namespace {

using json = nlohmann::json;

constexpr const char* kNamespace = "airline";
constexpr const char* kOnceNamespace = "airline-once";
constexpr TimestampMs kStreamStart = 1715785200000;  // 2024-05-15T15:00:00Z, the trajectories' clock
constexpr TimestampMs kEventSpacingMs = 10000;

// One stream: its events in order, and for each user/assistant event its turn index (-1 for tools).
struct Stream {
  int trial = 0;
  std::vector<EventInput> events;
  std::vector<int> turn_of_event;
  std::vector<int> gold;  // turns that start a trajectory (the stream's first left out)
  std::vector<std::string> user_text_by_turn;  // "" for assistant turns
  int turns = 0;
};

std::string Strip(std::string text) {
  for (size_t at; (at = text.find("###STOP###")) != std::string::npos;) text.erase(at, 10);
  const size_t b = text.find_first_not_of(" \n\t");
  const size_t e = text.find_last_not_of(" \n\t");
  return b == std::string::npos ? "" : text.substr(b, e - b + 1);
}

std::string Text(const json& m, const char* key) {
  auto it = m.find(key);
  return it != m.end() && it->is_string() ? it->get<std::string>() : "";
}

// The tool event `engram mcp-tap` would write for this call and result.
EventInput CapturedCall(const std::string& session, const json& call, const std::string& result, const std::string& id) {
  const json function = call.value("function", json::object());
  json arguments = json::parse(Text(function, "arguments"), nullptr, false);
  if (arguments.is_discarded()) arguments = json::object();
  json request = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                  {"params", {{"name", Text(function, "name")}, {"arguments", arguments}}}};
  capture::ToolCallRecord record;
  record.capture_id = id;
  record.connection_id = "bench";
  (void)capture::DescribeRequest(request, &record);
  json response = {{"jsonrpc", "2.0"}, {"id", 1},
                   {"result", {{"content", {{{"type", "text"}, {"text", result}}}},
                               {"isError", result.rfind("Error", 0) == 0}}}};
  capture::DescribeResponse(response, &record);
  return capture::EventOf(record, {.namespace_name = kNamespace, .fallback_session = session});
}

void Append(Stream* s, EventInput e, const std::string& user_text) {
  e.occurred_at = FormatTimestamp(kStreamStart + static_cast<TimestampMs>(s->events.size()) * kEventSpacingMs);
  const bool turn = e.role == "user" || e.role == "assistant";
  s->turn_of_event.push_back(turn ? s->turns : -1);
  if (turn) {
    s->user_text_by_turn.push_back(user_text);
    ++s->turns;
  }
  s->events.push_back(std::move(e));
}

// One trajectory appended to its trial's stream.
void AppendTrajectory(const json& t, Stream* s) {
  const std::string session = fmt::format("trial-{}", s->trial);
  const int first_turn = s->turns;
  std::map<std::string, std::string> results;  // tool_call_id → result text
  for (const json& m : t["traj"]) {
    if (Text(m, "role") == "tool") results[Text(m, "tool_call_id")] = Text(m, "content");
  }
  for (const json& m : t["traj"]) {
    const std::string role = Text(m, "role");
    if (role != "user" && role != "assistant") continue;
    const std::string text = Strip(Text(m, "content"));
    if (!text.empty()) {
      Append(s, {.namespace_name = kNamespace, .session_id = session, .role = role, .content = text},
             role == "user" ? text : "");
    }
    for (const json& call : m.value("tool_calls", json::array())) {
      const std::string id = fmt::format("t{}-{}-{}", s->trial, t.value("task_id", 0), s->events.size());
      Append(s, CapturedCall(session, call, results[Text(call, "id")], id), "");
    }
  }
  if (first_turn > 0 && s->turns > first_turn) s->gold.push_back(first_turn);
}

Result<std::vector<Stream>> LoadStreams(const std::string& data_dir) {
  const std::string path = data_dir + "/airline_trajectories_gpt4o.json";
  std::ifstream in(path);
  json all = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (all.is_discarded() || !all.is_array()) {
    return Error(Status::InvalidArgument(fmt::format("cannot read {} as a JSON array", path)));
  }
  std::map<int, std::vector<const json*>> by_trial;
  for (const json& t : all) by_trial[t.value("trial", 0)].push_back(&t);
  std::vector<Stream> streams;
  for (auto& [trial, trajectories] : by_trial) {
    std::stable_sort(trajectories.begin(), trajectories.end(),
                     [](const json* a, const json* b) { return a->value("task_id", 0) < b->value("task_id", 0); });
    Stream s{.trial = trial};
    for (const json* t : trajectories) AppendTrajectory(*t, &s);
    streams.push_back(std::move(s));
  }
  return streams;
}

struct Score {
  int64_t predicted = 0, gold = 0, matched = 0;
  void Add(const std::vector<int>& predicted_turns, const std::vector<int>& gold_turns, int tolerance) {
    predicted += static_cast<int64_t>(predicted_turns.size());
    gold += static_cast<int64_t>(gold_turns.size());
    std::set<int> open(gold_turns.begin(), gold_turns.end());
    for (int p : predicted_turns) {  // greedy: the nearest unmatched gold boundary within the tolerance
      int best = -1;
      for (int d = 0; d <= tolerance && best < 0; ++d) {
        if (open.contains(p - d)) best = p - d;
        else if (open.contains(p + d)) best = p + d;
      }
      if (best >= 0) {
        open.erase(best);
        ++matched;
      }
    }
  }
  json ToJson() const {
    const double p = predicted ? static_cast<double>(matched) / predicted : 0;
    const double r = gold ? static_cast<double>(matched) / gold : 0;
    return {{"predicted", predicted}, {"gold", gold}, {"matched", matched}, {"precision", p}, {"recall", r},
            {"f1", p + r > 0 ? 2 * p * r / (p + r) : 0}};
  }
};

// The predicted boundary turns of one stream: the first turn of every episode but the first.
std::vector<int> EpisodeBoundaries(Engine& engine, const std::string& ns, const Stream& s,
                                   const std::map<std::string, int>& turn_of_id) {
  std::vector<int> out;
  int64_t after = 0;
  for (;;) {
    auto page = engine.ListEpisodes({.namespace_name = ns, .limit = 1000, .after_seq = after});
    if (!page || page->empty()) break;
    for (const Episode& e : *page) {
      if (e.session_id != fmt::format("trial-{}", s.trial)) continue;
      auto it = turn_of_id.find(e.first_event_id);
      if (it != turn_of_id.end() && it->second > 0) out.push_back(it->second);
    }
    after = page->back().seq;
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> ThanksBaseline(const Stream& s) {
  std::vector<int> out;
  for (int t = 0; t + 1 < s.turns; ++t) {
    std::string lowered = s.user_text_by_turn[t];
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lowered.find("thank") != std::string::npos || lowered.find("bye") != std::string::npos) out.push_back(t + 1);
  }
  return out;
}

std::vector<int> FixedBaseline(const Stream& s, double mean_length) {
  std::vector<int> out;
  for (double at = mean_length; at < s.turns; at += mean_length) out.push_back(static_cast<int>(at + 0.5));
  return out;
}

void AddReport(const SegmentReport& r, json* totals) {
  for (const auto& [key, value] :
       std::map<std::string, int64_t>{{"committed_at_once", r.committed_at_once}, {"waited_committed", r.waited_committed},
                                      {"waited_dropped", r.waited_dropped}, {"decided_at_close", r.decided_at_close},
                                      {"waiting", r.waiting}, {"dropped", r.dropped},
                                      {"episodes", static_cast<int64_t>(r.episodes.size())}}) {
    (*totals)[key] = totals->value(key, int64_t{0}) + value;
  }
}

// Ingests the stream event by event, segmenting after each; then once more with close. Adds the
// reports of the calls up (the most boundaries waiting at once is kept too).
Status RunIncremental(Engine& engine, const Stream& s, json* buffer, std::map<std::string, int>* turn_of_id) {
  int64_t most_waiting = buffer->value("most_waiting", int64_t{0});
  for (size_t i = 0; i < s.events.size(); ++i) {
    const EventInput& e = s.events[i];
    auto stored = engine.Ingest(e);
    if (!stored) return stored.error();
    (*turn_of_id)[stored->event.id] = s.turn_of_event[i];
    auto at = ParseTimestamp(e.occurred_at);
    if (!at) return at.error();
    auto r = engine.SegmentEpisodes({.namespace_name = kNamespace, .session_id = e.session_id, .now = *at});
    if (!r) return r.error();
    (*buffer)["episodes"] = buffer->value("episodes", int64_t{0}) + static_cast<int64_t>(r->episodes.size());
    most_waiting = std::max(most_waiting, r->waiting);
  }
  auto last = engine.SegmentEpisodes({.namespace_name = kNamespace, .session_id = s.events.front().session_id,
                                      .close = true});
  if (!last) return last.error();
  (*buffer)["episodes"] = buffer->value("episodes", int64_t{0}) + static_cast<int64_t>(last->episodes.size());
  (*buffer)["most_waiting"] = most_waiting;
  return Status::Ok();
}

// Ingests the stream at once into the other namespace and segments it once (closed): its report
// counts every candidate exactly once.
Status RunOnce(Engine& engine, const Stream& s, json* decisions, std::map<std::string, int>* turn_of_id) {
  std::vector<EventInput> events = s.events;
  for (EventInput& e : events) {
    e.namespace_name = kOnceNamespace;
    if (!e.idempotency_key.empty()) e.idempotency_key += ":once";
  }
  auto stored = engine.IngestBatch(events);
  if (!stored) return stored.error();
  for (size_t i = 0; i < stored->size(); ++i) (*turn_of_id)[(*stored)[i].event.id] = s.turn_of_event[i];
  auto r = engine.SegmentEpisodes({.namespace_name = kOnceNamespace, .session_id = events.front().session_id,
                                   .close = true});
  if (!r) return r.error();
  AddReport(*r, decisions);
  return Status::Ok();
}

void PrintTable(const json& report) {
  std::cout << fmt::format("τ-bench airline task boundaries: {} streams, {} events, {} turns, {} gold boundaries "
                           "(±{} turn)\n",
                           report["streams"].get<int>(), report["events"].get<int64_t>(),
                           report["turns"].get<int64_t>(), report["gold"].get<int64_t>(),
                           report["tolerance"].get<int>());
  std::cout << fmt::format("{:<28} {:>9} {:>8} {:>9} {:>7} {:>7}\n", "configuration", "predicted", "matched",
                           "precision", "recall", "F1");
  for (const json& c : report["configs"]) {
    std::cout << fmt::format("{:<28} {:>9} {:>8} {:>9.3f} {:>7.3f} {:>7.3f}\n", c["name"].get<std::string>(),
                             c["predicted"].get<int64_t>(), c["matched"].get<int64_t>(), c["precision"].get<double>(),
                             c["recall"].get<double>(), c["f1"].get<double>());
  }
  std::cout << "buffer (one segmentation per stream): " << report["decisions"].dump() << "\n";
  std::cout << "event by event: " << report["incremental"].dump() << "\n";
}

}  // namespace

int RunBoundaryBench(const BoundaryBenchOptions& options) {
  auto streams = LoadStreams(options.data_dir);
  if (!streams) {
    std::cerr << streams.error().ToString() << "\n";
    return 1;
  }
  auto dir = TempDir::Create();
  if (!dir) {
    std::cerr << dir.error().ToString() << "\n";
    return 1;
  }
  Options engine_options;
  engine_options.db_path = dir->path() + "/boundary.db";
  auto engine = Engine::Open(engine_options);
  if (!engine) {
    std::cerr << engine.error().ToString() << "\n";
    return 1;
  }
  json incremental = json::object(), decisions = json::object();
  Score engram, once, thanks, fixed;
  int64_t events = 0, turns = 0, trajectories = 0;
  for (const Stream& s : *streams) {
    trajectories += static_cast<int64_t>(s.gold.size()) + 1;
    turns += s.turns;
    events += static_cast<int64_t>(s.events.size());
  }
  const double mean_length = static_cast<double>(turns) / static_cast<double>(std::max<int64_t>(1, trajectories));
  bool same = true;
  const auto started = std::chrono::steady_clock::now();
  for (const Stream& s : *streams) {
    std::map<std::string, int> turn_of_id, turn_of_once_id;
    Status st = RunIncremental(**engine, s, &incremental, &turn_of_id);
    if (st.ok()) st = RunOnce(**engine, s, &decisions, &turn_of_once_id);
    if (!st.ok()) {
      std::cerr << fmt::format("trial {}: {}\n", s.trial, st.ToString());
      return 1;
    }
    const std::vector<int> predicted = EpisodeBoundaries(**engine, kNamespace, s, turn_of_id);
    const std::vector<int> predicted_once = EpisodeBoundaries(**engine, kOnceNamespace, s, turn_of_once_id);
    same = same && predicted == predicted_once;
    engram.Add(predicted, s.gold, options.tolerance);
    once.Add(predicted_once, s.gold, options.tolerance);
    thanks.Add(ThanksBaseline(s), s.gold, options.tolerance);
    fixed.Add(FixedBaseline(s, mean_length), s.gold, options.tolerance);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  json report{{"protocol", "task boundaries"}, {"data", options.data_dir}, {"streams", streams->size()},
              {"events", events}, {"turns", turns}, {"gold", engram.gold}, {"tolerance", options.tolerance},
              {"mean_trajectory_turns", mean_length}, {"incremental_equals_once", same}, {"seconds", seconds}};
  auto config = [](const char* name, const char* what, const Score& score) {
    json c = score.ToJson();
    c["name"] = name;
    c["what"] = what;
    return c;
  };
  report["configs"] = json::array(
      {config("engram", "SegmentEpisodes after every event, then close", engram),
       config("engram_once", "the same streams ingested at once, segmented once", once),
       config("thanks_bye", "a boundary after every user turn with \"thank\" or \"bye\"", thanks),
       config("fixed_length", "a boundary every mean-trajectory-length turns (oracle length)", fixed)});
  report["decisions"] = decisions;
  report["incremental"] = incremental;
  if (options.json) {
    std::cout << report.dump(2) << "\n";
  } else {
    PrintTable(report);
  }
  return 0;
}

}  // namespace engram::bench
