// cli/experience_commands.cc — `engram episode start|step|end|retype|get|list` (episodes: one task
// each) and `engram experience distill|rules|rule|recall` (distilled rules and experience recall),
// over the experience capabilities (api/experience.cc, docs/experience.md).
#include <fmt/format.h>

#include <iostream>

#include "cli/cli_common.h"

namespace engram::cli {
namespace {

std::string Str(const OrderedJson& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

std::string TypeLabel(const OrderedJson& e) {
  const std::string type = Str(e, "task_type");
  if (type.empty()) return "type unknown";
  return fmt::format("type {} ({})", type, Str(e, "task_type_source"));
}

void PrintStep(const OrderedJson& s) {
  const std::string tool = Str(s, "tool_name");
  std::cout << fmt::format("  {}. {}{}{}\n", s["ordinal"].get<int64_t>(), tool.empty() ? "" : "[" + tool + "] ",
                           Str(s, "action"), s["changes_state"].get<bool>() ? " (changes state)" : "");
  if (!Str(s, "reason").empty()) std::cout << "     why: " << Str(s, "reason") << "\n";
  if (!Str(s, "result").empty()) std::cout << "     → " << Str(s, "result") << "\n";
}

void PrintEpisode(const OrderedJson& e) {
  std::cout << fmt::format("episode {} — {}, {}, {}\n", Str(e, "id"), Str(e, "status"), Str(e, "outcome"),
                           TypeLabel(e));
  std::cout << "  goal: " << Str(e, "goal") << "\n";
  if (!Str(e, "feedback").empty()) std::cout << "  feedback: " << Str(e, "feedback") << "\n";
  if (e.contains("steps")) {
    for (const OrderedJson& s : e["steps"]) PrintStep(s);
  }
}

// The LLM distiller's part of a report, when it ran: what the model proposed, what was dropped and
// why, and its failed calls.
void PrintLlmReport(const OrderedJson& r) {
  if (!r.contains("llm")) return;
  const OrderedJson& l = r["llm"];
  std::string dropped;
  for (const auto& [reason, n] : l["dropped_by_reason"].items()) {
    dropped += fmt::format("{}{} {}", dropped.empty() ? " (" : ", ", n.get<int64_t>(), reason);
  }
  if (!dropped.empty()) dropped += ")";
  if (!Str(l, "model").empty()) {  // no model: the distiller could not be set up, its errors say why
    std::cout << fmt::format("llm {}: {} types asked, {} rules proposed, {} dropped{}, {} already known, {} created\n",
                             Str(l, "model"), l["types_asked"].get<int64_t>(), l["rules_proposed"].get<int64_t>(),
                             l["rules_dropped"].get<int64_t>(), dropped, l["rules_known"].get<int64_t>(),
                             l["rules_created"].get<int64_t>());
  }
  for (const OrderedJson& e : l["errors"]) std::cout << "  llm error (offline rules stand): " << e.get<std::string>() << "\n";
}

void PrintReport(const OrderedJson& r) {
  PrintLlmReport(r);
  if (r["rules_created"].get<int64_t>() + r["rules_updated"].get<int64_t>() + r["rules_superseded"].get<int64_t>() ==
      0) {
    return;
  }
  std::cout << fmt::format("rules: {} created, {} superseded, {} updated, {} activated, {} deprecated, {} disputed\n",
                           r["rules_created"].get<int64_t>(), r["rules_superseded"].get<int64_t>(),
                           r["rules_updated"].get<int64_t>(), r["rules_activated"].get<int64_t>(),
                           r["rules_deprecated"].get<int64_t>(), r["rules_disputed"].get<int64_t>());
}

void PrintEnded(const OrderedJson& body) {
  PrintEpisode(body["episode"]);
  PrintReport(body["rules"]);
}

void PrintEpisodeList(const OrderedJson& body) {
  for (const OrderedJson& e : body["items"]) {
    std::cout << fmt::format("{}  {}  {:8}  {}  {}\n", Str(e, "id"), ShortTime(e["started_at"]), Str(e, "outcome"),
                             Str(e, "task_type").empty() ? "-" : Str(e, "task_type"), Str(e, "goal_short"));
  }
  PrintNextPage(body);
}

std::string RuleLine(const OrderedJson& r) {
  return fmt::format("{} [{} {:.2f}, v{}, {} of {} succeeded{}] {}", Str(r, "id"), Str(r, "status"),
                     r["confidence"].get<double>(), r["version"].get<int64_t>(), r["success_count"].get<int64_t>(),
                     r["support"].get<int64_t>(), Str(r, "source") == "llm" ? ", llm" : "", Str(r, "text"));
}

void PrintRules(const OrderedJson& body) {
  for (const OrderedJson& r : body["items"]) std::cout << RuleLine(r) << "\n";
  PrintNextPage(body);
}

void PrintRule(const OrderedJson& body) {
  const OrderedJson& r = body["rule"];
  std::cout << RuleLine(r) << "\n  " << Str(r, "status_reason") << "\n";
  if (Str(r, "source") == "llm") {
    std::cout << "  source: proposed by the LLM distiller, model " << Str(r, "source_model")
              << " (support, success rate and confidence counted by engram)\n";
  }
  if (body["chain"].size() > 1) {
    std::cout << "versions:\n";
    for (const OrderedJson& v : body["chain"]) std::cout << "  " << RuleLine(v) << "\n";
  }
  std::cout << "history:\n";
  for (const OrderedJson& h : body["history"]) {
    std::cout << fmt::format("  {} {}: {}{}\n", ShortTime(h["at"]), Str(h, "action"), Str(h, "reason"),
                             h["episode_id"].is_string() ? " (episode " + Str(h, "episode_id") + ")" : "");
  }
}

// " [own]" / " [shared]" for an agent's recall, "" otherwise.
std::string AreaTag(const OrderedJson& x) { return x.contains("area") ? " [" + Str(x, "area") + "]" : ""; }

void PrintRecall(const OrderedJson& body) {
  const std::string source = Str(body, "task_type_source");
  if (source == "none") {
    std::cout << "task type: unknown (no typed episodes to learn from)\n";
  } else {
    std::cout << "task type: " << Str(body, "task_type") << " (" << source;
    for (const OrderedJson& g : body["task_type_guesses"]) {
      std::cout << fmt::format("; {} {:.2f}", Str(g, "task_type"), g["probability"].get<double>());
    }
    std::cout << ")\n";
  }
  std::cout << "rules:\n";
  if (body["rules"].empty()) std::cout << "  (none)\n";
  for (const OrderedJson& x : body["rules"]) {
    std::cout << "  " << Str(x["rule"], "text") << AreaTag(x) << "\n     " << Str(x, "why") << "\n";
  }
  std::cout << "episodes that succeeded:\n";
  if (body["episodes"].empty()) std::cout << "  (none)\n";
  for (const OrderedJson& x : body["episodes"]) {
    const OrderedJson& e = x["episode"];
    std::cout << fmt::format("  {} ({:.2f}) {}{}\n     {}\n", Str(e, "id"), x["score"].get<double>(),
                             Str(e, "goal_short"), AreaTag(x), Str(x, "why"));
    for (const OrderedJson& s : e["steps"]) PrintStep(s);
  }
}

void PrintSegmented(const OrderedJson& body) {
  const OrderedJson& b = body["boundaries"];
  std::cout << fmt::format(
      "{} episodes from {} sessions ({} skipped: explicit episodes), {} events read\n"
      "boundaries: {} committed at once, {} waited then committed, {} waited then dropped ({} at the session's "
      "end), {} waiting, {} dropped\n",
      body["episodes"].size(), body["sessions_read"].get<int64_t>(), body["sessions_skipped"].get<int64_t>(),
      body["events_read"].get<int64_t>(), b["committed_at_once"].get<int64_t>(), b["waited_committed"].get<int64_t>(),
      b["waited_dropped"].get<int64_t>(), b["decided_at_close"].get<int64_t>(), b["waiting"].get<int64_t>(),
      b["dropped"].get<int64_t>());
  for (const OrderedJson& e : body["episodes"]) {
    std::cout << fmt::format("  {} {} ({} steps, boundary {:.2f}): {}\n", Str(e, "id"), Str(e, "outcome"),
                             e["step_count"].get<int64_t>(), e["boundary_confidence"].get<double>(),
                             Str(e, "goal_short"));
  }
}

void PrintCold(const OrderedJson& body) {
  if (body["items"].empty()) std::cout << "(no cold experience)\n";
  for (const OrderedJson& c : body["items"]) {
    std::cout << fmt::format("{} {} cold since {} ({} accesses) {}\n", Str(c, "type"), Str(c, "id"), Str(c, "cold_at"),
                             c["access_count"].get<int64_t>(), Str(c, "text"));
  }
}

}  // namespace

void AddExperienceCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  CLI::App* episode = app.add_subcommand(
      "episode", "episodes: one task each (goal, task type, steps, outcome) — docs/experience.md");
  episode->require_subcommand(1);
  AddCapabilityCommand(*episode, flags, commands, "start",
                       "start an episode: GOAL, optionally its --task-type and the --steps done so far (JSON array)",
                       "start_episode",
                       {"goal", "--namespace,-n", "--task-type", "--agent=agent_id", "--session=session_id",
                        "--started-at", "--boundary-confidence", "--steps"},
                       OpenMode::kCreate, {.text = PrintEpisode});
  AddCapabilityCommand(*episode, flags, commands, "step", "append a step to an open episode: EPISODE_ID ACTION",
                       "add_episode_step",
                       {"id", "action", "--namespace,-n", "--reason", "--result", "--tool=tool_name",
                        "--changes-state", "--evidence=evidence_event_id", "--at"},
                       OpenMode::kReadWrite, {.text = [](const OrderedJson& body) {
                         std::cout << fmt::format("episode {}: step {} stored\n", Str(body, "episode_id"),
                                                  body["step_count"].get<int64_t>());
                       }});
  AddCapabilityCommand(*episode, flags, commands, "end",
                       "end an episode: EPISODE_ID OUTCOME (success, partial, failure, unknown)", "end_episode",
                       {"id", "outcome", "--namespace,-n", "--reward", "--outcome-source", "--feedback", "--task-type",
                        "--ended-at"},
                       OpenMode::kReadWrite, {.text = PrintEnded});
  AddCapabilityCommand(*episode, flags, commands, "retype", "correct an episode's task type: EPISODE_ID TASK_TYPE",
                       "set_episode_type", {"id", "task_type", "--namespace,-n"}, OpenMode::kReadWrite,
                       {.text = PrintEnded});
  AddCapabilityCommand(*episode, flags, commands, "get", "an episode with its steps: EPISODE_ID", "get_episode",
                       {"id", "--namespace,-n"}, OpenMode::kReadOnly, {.text = PrintEpisode});
  AddCapabilityCommand(*episode, flags, commands, "list", "episodes, newest first, a page at a time", "list_episodes",
                       {"--namespace,-n", "--task-type", "--outcome", "--status", "--agent=agent_id", "--limit,-k",
                        "--cursor"},
                       OpenMode::kReadOnly, {.text = PrintEpisodeList});
  AddCapabilityCommand(*episode, flags, commands, "segment",
                       "form episodes from the event stream of --session (default every session); --close when "
                       "the sessions are over",
                       "segment_episodes", {"--namespace,-n", "--session=session_id", "--close", "--now"},
                       OpenMode::kReadWrite, {.text = PrintSegmented});

  CLI::App* experience = app.add_subcommand(
      "experience", "distilled rules and experience recall (what was learnt doing tasks) — docs/experience.md");
  experience->require_subcommand(1);
  AddCapabilityCommand(*experience, flags, commands, "distill",
                       "distil rules now from the recent successes and failures of each task type (or --task-type)",
                       "distill_rules", {"--namespace,-n", "--task-type"}, OpenMode::kReadWrite,
                       {.text = [](const OrderedJson& body) {
                         std::cout << fmt::format("distilled {} task types from {} episodes\n",
                                                  body["task_types_distilled"].size(),
                                                  body["episodes_read"].get<int64_t>());
                         PrintReport(body);
                       }});
  AddCapabilityCommand(*experience, flags, commands, "rules", "distilled rules, oldest first", "list_rules",
                       {"--namespace,-n", "--task-type", "--status", "--include-deprecated", "--limit,-k", "--cursor"},
                       OpenMode::kReadOnly, {.text = PrintRules});
  AddCapabilityCommand(*experience, flags, commands, "rule", "a rule with its versions and history: RULE_ID", "get_rule",
                       {"id", "--namespace,-n"}, OpenMode::kReadOnly, {.text = PrintRule});
  AddCapabilityCommand(*experience, flags, commands, "recall",
                       "before a task: its type, the rules of that type, similar successful episodes: TEXT",
                       "recall_experience",
                       {"text", "--namespace,-n", "--task-type", "--agent", "--rules=rule_limit",
                        "--episodes=episode_limit", "--exclude=exclude_episode_ids", "--now"},
                       OpenMode::kReadOnly, {.text = PrintRecall});
  AddCapabilityCommand(*experience, flags, commands, "cold",
                       "cold episodes and rules (forget score below the cold threshold; out of recall, deleted "
                       "by a later `engram maintain`)",
                       "list_cold_experience", {"--namespace,-n", "--limit,-k"}, OpenMode::kReadOnly,
                       {.text = PrintCold});
}

}  // namespace engram::cli
