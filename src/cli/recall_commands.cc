// cli/recall_commands.cc — `engram recall` (the recall capability), `engram sessions` (list_sessions;
// `sessions search`: search_sessions) and `engram feedback`.
#include <fmt/format.h>

#include <iostream>

#include "cli/cli_common.h"
#include "codec/json_codec.h"
#include "util/utf8.h"

namespace engram::cli {
namespace {

// ---- recall ------------------------------------------------------------------------------------

// The recall flags that are no argument of their own: --events-only and --claims-only set
// include_claims / include_events to false, --rerank / --no-rerank set rerank, --explain is text.
struct RecallExtras {
  bool events_only = false;
  bool claims_only = false;
  bool rerank = false;
  bool no_rerank = false;
  bool explain = false;
};

void PrintRecallStages(const OrderedJson& r) {
  std::cout << "stages:";
  for (const OrderedJson& s : r["stages"]) {
    std::cout << " " << s["stage"].get<std::string>() << " " << s["candidates"].get<int64_t>();
  }
  std::cout << fmt::format("\nanswerability {} (evidence strength {:.2f}), {} tokens{}, {:.2f} ms\n",
                           r["answerability"].get<std::string>(), r["evidence_strength"].get<double>(),
                           r["used_tokens"].get<int64_t>(),
                           r["truncated"].get<bool>() ? " (truncated to the budget)" : "", r["took_ms"].get<double>());
  if (!r.contains("rerank")) return;
  const OrderedJson& rr = r["rerank"];
  std::string reason = rr.value("reason", "");
  std::cout << fmt::format("rerank {}{}: {} items, model \"{}\", {:.2f} ms\n", rr["status"].get<std::string>(),
                           reason.empty() ? "" : " (" + reason + ")", rr["pool"].get<int64_t>(),
                           rr["model"].get<std::string>(), rr["took_ms"].get<double>());
}

void PrintRecallItem(int rank, const OrderedJson& it, bool explain) {
  const std::string speaker = it["speaker"].get<std::string>();
  if (it["type"] == "claim") {
    std::string quals;
    for (const OrderedJson& q : it["qualifiers"]) quals += " [" + q.get<std::string>() + "]";
    std::cout << fmt::format("{:2d}. claim {} ({}, {} → {}){}  \n    {}\n", rank, it["id"].get<std::string>(),
                             it["status"].get<std::string>(), Day(it["valid_from"]), Day(it["valid_to"]), quals,
                             it["text"].get<std::string>());
    for (const OrderedJson& e : it["evidence"]) {
      const std::string who = e["speaker"].get<std::string>();
      std::cout << fmt::format("      evidence {} {} {}: {}\n", e["relation"].get<std::string>(),
                               ShortTime(e["occurred_at"]), who.empty() ? e["role"].get<std::string>() : who,
                               TruncateCodePoints(e["content"].get<std::string>(), 120));
    }
  } else {
    std::cout << fmt::format("{:2d}. event {}  {}  {}\n    {}{}\n", rank, it["id"].get<std::string>(),
                             ShortTime(it["occurred_at"]), it["session_id"].get<std::string>(),
                             speaker.empty() ? "" : speaker + ": ", it["text"].get<std::string>());
  }
  for (const OrderedJson& f : it["flags"]) {
    std::cout << "    ! " << f.get<std::string>() << " (stored text, not an instruction)\n";
  }
  if (!explain) return;
  std::cout << fmt::format("    score {:.4f}, {} tokens, feedback {}\n", it["score"].get<double>(),
                           it["tokens"].get<int64_t>(), it["feedback_id"].get<std::string>());
  for (const OrderedJson& c : it["channels"]) {
    std::cout << fmt::format("      {:<8} rank {:>4}  score {:.4f}\n", c["channel"].get<std::string>(),
                             c["rank"].get<int64_t>(), c["score"].get<double>());
  }
}

void PrintRecallText(const OrderedJson& r, bool explain) {
  if (explain) PrintRecallStages(r);
  if (r["items"].empty()) {
    std::cout << "no matching memories\n";
    return;
  }
  int rank = 0;
  for (const OrderedJson& it : r["items"]) PrintRecallItem(++rank, it, explain);
}

int RunRecall(const GlobalFlags& flags, const CapabilityFlags& bound, const RecallExtras& x) {
  if (x.events_only && x.claims_only) {
    return Fail(flags, Status::InvalidArgument("--events-only and --claims-only exclude each other"));
  }
  nlohmann::json args = bound.Args();
  if (x.events_only) args["include_claims"] = false;
  if (x.claims_only) args["include_events"] = false;
  if (x.rerank || x.no_rerank) args["rerank"] = x.rerank;
  return RunCapability(flags, OpenMode::kReadOnly, "recall", args,
                       {.text = [&x](const OrderedJson& r) { PrintRecallText(r, x.explain); },
                        .finish = [](const OrderedJson& r) {
                          for (const OrderedJson& w : r.value("warnings", OrderedJson::array())) {
                            std::cerr << "engram: warning: " << w.get<std::string>() << "\n";
                          }
                          return 0;
                        }});
}

void AddRecall(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* cmd = app.add_subcommand("recall", "find the memories that answer a question");
  auto bound = std::make_shared<CapabilityFlags>(cmd, "recall");
  bound->Bind({"query", "--namespace,-n", "--limit,-k", "--session=session_id", "--since", "--until", "--match",
               "--as-of", "--known-as-of", "--include-history", "--exclude-instruction-like",
               "--budget=budget_tokens", "--now", "--utc-offset"});
  auto x = std::make_shared<RecallExtras>();
  cmd->add_flag("--events-only", x->events_only, "search events only");
  cmd->add_flag("--claims-only", x->claims_only, "search claims only");
  cmd->add_flag("--explain", x->explain, "show every stage's candidates and each item's channel ranks and scores");
  auto* rerank = cmd->add_flag("--rerank", x->rerank, "use the configured reranker (an error when none is configured)");
  cmd->add_flag("--no-rerank", x->no_rerank, "do not use the reranker for this query")->excludes(rerank);
  commands.Add(cmd, [&flags, bound, x] { return RunRecall(flags, *bound, *x); });
}

// ---- sessions ----------------------------------------------------------------------------------

void PrintEventLine(const OrderedJson& e) {
  const std::string speaker = e.value("speaker", "");
  std::cout << fmt::format("    {} {} {}{}: {}\n", e.value("anchor", false) ? ">" : " ", EventTime(e),
                           e["role"].get<std::string>(), speaker.empty() ? "" : " (" + speaker + ")",
                           TruncateCodePoints(e["content"].get<std::string>(), 200));
}

void PrintSessionsText(const OrderedJson& body) {
  if (body["items"].empty()) std::cout << "no sessions\n";
  for (const OrderedJson& s : body["items"]) {
    const std::string title = s["title"].get<std::string>();
    std::cout << fmt::format("{}  {}/{}  {} events  {}{}\n", ShortTime(s["last_active_at"]),
                             s["namespace"].get<std::string>(), s["session_id"].get<std::string>(),
                             s["event_count"].get<int64_t>(), s["kind"].get<std::string>(),
                             title.empty() ? "" : "  \"" + title + "\"");
    const std::string preview = s["preview"].get<std::string>();
    if (!preview.empty()) std::cout << "    " << preview << "\n";
  }
  PrintNextPage(body);
}

void PrintSearchText(const OrderedJson& body) {
  if (body["hits"].empty()) std::cout << "no matching sessions\n";
  for (const OrderedJson& h : body["hits"]) {
    const OrderedJson& s = h["session"];
    std::cout << fmt::format("{} (lineage {}) {} events, last active {}\n", s["session_id"].get<std::string>(),
                             h["lineage_root_id"].get<std::string>(), s["event_count"].get<int64_t>(),
                             ShortTime(s["last_active_at"]));
    if (!h["first_event"].is_null()) {
      PrintEventLine(h["first_event"]);
      if (h["events_before"].get<int64_t>() > 1) std::cout << "    ...\n";
    }
    for (const OrderedJson& e : h["window"]) PrintEventLine(e);
    if (!h["last_event"].is_null()) {
      if (h["events_after"].get<int64_t>() > 1) std::cout << "    ...\n";
      PrintEventLine(h["last_event"]);
    }
  }
}

// `sessions -n NAME` is list_sessions; `sessions --all-namespaces` the admin list_all_sessions.
int RunSessions(const GlobalFlags& flags, const CapabilityFlags& bound, bool all_namespaces) {
  nlohmann::json args = bound.Args();
  if (Status st = CheckScope(args, all_namespaces); !st.ok()) return Fail(flags, st);
  return RunCapability(flags, OpenMode::kReadOnly, all_namespaces ? "list_all_sessions" : "list_sessions", args,
                       {.text = PrintSessionsText});
}

void AddSessions(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* cmd = app.add_subcommand("sessions", "list sessions (newest first, a page at a time), or search them");
  auto bound = std::make_shared<CapabilityFlags>(cmd, "list_sessions");
  bound->Bind({"--namespace,-n", "--limit,-k", "--cursor"});
  auto all = AddAllNamespacesFlag(cmd, "the sessions");
  commands.Add(cmd, [&flags, bound, all] { return RunSessions(flags, *bound, *all); });
  AddCapabilityCommand(*cmd, flags, commands, "search", "search past sessions by full text",
                       "search_sessions",
                       {"query", "--namespace,-n", "--current=current_session_id", "--limit,-k", "--window,-w"},
                       OpenMode::kReadOnly, {.text = PrintSearchText});
}

// ---- feedback ----------------------------------------------------------------------------------

void PrintFeedbackText(const OrderedJson& r) {
  std::cout << fmt::format("recorded: {} {} is now rated helpful {} / unhelpful {}\n", r["item_type"].get<std::string>(),
                           r["item_id"].get<std::string>(), r["helpful"].get<int64_t>(), r["unhelpful"].get<int64_t>());
}

// Without -n, the namespace is the rated item's (the CLI runs as the file's owner; a feedback id
// names its item), never "any namespace".
int RunFeedback(const GlobalFlags& flags, nlohmann::json args) {
  if (args.contains("namespace")) {
    return RunCapability(flags, OpenMode::kReadWrite, "feedback", args, {.text = PrintFeedbackText});
  }
  nlohmann::json checked = args;
  checked["namespace"] = kNamespaceOfTheId;
  if (Status st = Validate("feedback", checked); !st.ok()) return Fail(flags, st);
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto ns = NamespaceOfFeedbackId(**engine, args["feedback_id"].get<std::string>());
  if (!ns) return Fail(flags, ns.error());
  args["namespace"] = *ns;
  auto reply = Call(**engine, "feedback", args);
  if (!reply) return Fail(flags, reply.error());
  return Print(flags, *reply, {.text = PrintFeedbackText});
}

// --helpful or --unhelpful: the capability's one boolean "helpful".
struct Rating {
  bool helpful = false;
  bool unhelpful = false;
};

void AddFeedback(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* cmd = app.add_subcommand("feedback", "rate a recalled item for its question (feeds recall's utility prior)");
  auto bound = std::make_shared<CapabilityFlags>(cmd, "feedback");
  bound->Bind({"feedback_id", "--namespace,-n"});
  auto rating = std::make_shared<Rating>();
  cmd->add_flag("--helpful", rating->helpful, "the item helped answer the question");
  cmd->add_flag("--unhelpful", rating->unhelpful, "the item did not help");
  commands.Add(cmd, [&flags, bound, rating] {
    if (rating->helpful == rating->unhelpful) {
      return Fail(flags, Status::InvalidArgument("give exactly one of --helpful and --unhelpful"));
    }
    nlohmann::json args = bound->Args();
    args["helpful"] = rating->helpful;
    return RunFeedback(flags, std::move(args));
  });
}

}  // namespace

void AddRecallCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  for (auto add : {AddRecall, AddSessions, AddFeedback}) add(app, flags, commands);
}

}  // namespace engram::cli
