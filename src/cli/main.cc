// cli/main.cc — the `engram` command. Every subcommand opens the database named by
// `--db PATH` (or $ENGRAM_DB, or the XDG default), calls the Engine and prints either readable
// text or, with --json, one JSON object on stdout. Errors go to stderr; with --json they are also
// printed as {"error": {...}} on stdout. Exit codes: see ExitCodeFor in engram/status.h.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "codec/json_codec.h"
#include "engram/engine.h"
#include "import/jsonl_import.h"
#include "import/locomo.h"
#include "util/time.h"
#include "util/utf8.h"

namespace engram::cli {
namespace {

struct GlobalFlags {
  std::string db_path;
  bool json = false;
};

int Fail(const GlobalFlags& flags, const Status& st) {
  std::cerr << "engram: " << st.ToString() << "\n";
  if (flags.json) std::cout << Dump(StatusToJson(st)) << "\n";
  return ExitCodeFor(st.code());
}

Result<std::unique_ptr<Engine>> OpenEngine(const GlobalFlags& flags) {
  Options options;
  options.db_path = flags.db_path.empty() ? DefaultDatabasePath() : flags.db_path;
  return Engine::Open(options);
}

std::string ShortTime(TimestampMs ms) { return FormatTimestamp(ms).substr(0, 16); }

// ---- ingest ----------------------------------------------------------------------------------

struct IngestFlags {
  std::string file;
  std::string format = "jsonl";
  bool keep_going = false;
};

int RunIngest(const GlobalFlags& flags, const IngestFlags& ingest) {
  auto engine = OpenEngine(flags);
  if (!engine) return Fail(flags, engine.error());
  OrderedJson summary;
  if (ingest.format == "locomo") {
    auto conversations = import::LoadLocomoFile(ingest.file);
    if (!conversations) return Fail(flags, conversations.error());
    int64_t stored = 0, duplicates = 0;
    for (const auto& conv : *conversations) {
      auto results = (*engine)->IngestBatch(import::ToEventInputs(conv));
      if (!results) return Fail(flags, results.error().WithContext(conv.sample_id));
      for (const auto& r : *results) (r.duplicate ? duplicates : stored) += 1;
    }
    summary["format"] = "locomo";
    summary["conversations"] = conversations->size();
    summary["stored"] = stored;
    summary["duplicates"] = duplicates;
  } else {
    std::ifstream in(ingest.file, std::ios::binary);
    if (!in) return Fail(flags, Status::IOError(fmt::format("cannot open {}", ingest.file)));
    std::error_code ec;
    uint64_t total = std::filesystem::file_size(ingest.file, ec);
    import::JsonlImportOptions options;
    options.keep_going = ingest.keep_going;
    bool show_progress = isatty(STDERR_FILENO) && !ec && total > (1u << 20);
    if (show_progress) {
      options.on_progress = [total](uint64_t done) {
        int pct = static_cast<int>(100.0 * static_cast<double>(std::min(done, total)) / static_cast<double>(total));
        std::string bar(static_cast<size_t>(pct / 4), '#');
        std::cerr << fmt::format("\r[{:<25}] {:3d}%", bar, pct) << std::flush;
      };
    }
    import::JsonlImportReport report;
    Status st = import::ImportJsonl(**engine, in, options, &report);
    if (show_progress) std::cerr << "\n";
    summary["format"] = "jsonl";
    summary["lines"] = report.lines;
    summary["stored"] = report.stored;
    summary["duplicates"] = report.duplicates;
    summary["errors"] = report.errors;
    if (!st.ok()) {
      if (st.code() == StatusCode::kInvalidArgument) {
        std::cerr << fmt::format(
            "engram: stopped at the first bad line; {} events before it are stored. Fix the line "
            "and run the same command again (stored events are not duplicated), or pass "
            "--keep-going to skip bad lines.\n",
            report.stored);
      }
      return Fail(flags, st);
    }
    if (!report.errors.empty()) {
      for (const auto& e : report.errors) std::cerr << "engram: " << e << "\n";
    }
  }
  if (flags.json) {
    std::cout << Dump(summary) << "\n";
  } else {
    std::cout << fmt::format("stored {} events, {} duplicates skipped", summary["stored"].get<int64_t>(),
                             summary["duplicates"].get<int64_t>());
    if (summary.contains("errors") && !summary["errors"].empty()) {
      std::cout << fmt::format(", {} bad lines skipped", summary["errors"].size());
    }
    std::cout << "\n";
  }
  return summary.contains("errors") && !summary["errors"].empty() ? ExitCodeFor(StatusCode::kInvalidArgument) : 0;
}

// ---- recall ----------------------------------------------------------------------------------

struct RecallFlags {
  std::string query;
  std::string namespace_name;
  int limit = 10;
  std::string session;
  std::string since;
  std::string until;
  std::string match = "any";
};

int RunRecall(const GlobalFlags& flags, const RecallFlags& rf) {
  RecallQuery q;
  q.text = rf.query;
  q.namespace_name = rf.namespace_name;
  q.limit = rf.limit;
  q.session_id = rf.session;
  q.match = rf.match == "all" ? MatchMode::kAll : MatchMode::kAny;
  if (!rf.since.empty()) {
    auto t = ParseTimestamp(rf.since);
    if (!t) return Fail(flags, t.error().WithContext("field \"since\""));
    q.since = *t;
  }
  if (!rf.until.empty()) {
    auto t = ParseTimestamp(rf.until);
    if (!t) return Fail(flags, t.error().WithContext("field \"until\""));
    q.until = *t;
  }
  auto engine = OpenEngine(flags);
  if (!engine) return Fail(flags, engine.error());
  auto result = (*engine)->Recall(q);
  if (!result) return Fail(flags, result.error());
  if (flags.json) {
    std::cout << Dump(RecallResultToJson(*result)) << "\n";
    return 0;
  }
  if (result->items.empty()) {
    std::cout << "no matching memories\n";
    return 0;
  }
  int rank = 0;
  for (const RecallItem& it : result->items) {
    std::cout << fmt::format("{:2d}. [{:.2f}] {}  {}  {}\n    {}{}\n", ++rank, it.score,
                             ShortTime(it.occurred_at), it.session_id, it.id,
                             it.speaker.empty() ? "" : it.speaker + ": ", it.text);
  }
  return 0;
}

// ---- sessions --------------------------------------------------------------------------------

void PrintEventLine(const Event& e, bool anchor) {
  std::cout << fmt::format("    {} {} {}{}: {}\n", anchor ? ">" : " ", ShortTime(e.occurred_at), e.role,
                           e.speaker.empty() ? "" : " (" + e.speaker + ")", TruncateCodePoints(e.content, 200));
}

int RunSessionsList(const GlobalFlags& flags, const std::string& ns, int limit) {
  auto engine = OpenEngine(flags);
  if (!engine) return Fail(flags, engine.error());
  auto sessions = (*engine)->ListSessions({ns, limit});
  if (!sessions) return Fail(flags, sessions.error());
  if (flags.json) {
    OrderedJson arr = OrderedJson::array();
    for (const auto& s : *sessions) arr.push_back(SessionInfoToJson(s));
    std::cout << Dump(OrderedJson{{"sessions", arr}}) << "\n";
    return 0;
  }
  if (sessions->empty()) std::cout << "no sessions\n";
  for (const auto& s : *sessions) {
    std::cout << fmt::format("{}  {}/{}  {} events  {}{}\n", ShortTime(s.last_active_at), s.namespace_name, s.id,
                             s.event_count, s.kind, s.title.empty() ? "" : "  \"" + s.title + "\"");
    if (!s.preview.empty()) std::cout << "    " << s.preview << "\n";
  }
  return 0;
}

int RunSessionsSearch(const GlobalFlags& flags, const SessionSearchQuery& q) {
  auto engine = OpenEngine(flags);
  if (!engine) return Fail(flags, engine.error());
  auto result = (*engine)->SearchSessions(q);
  if (!result) return Fail(flags, result.error());
  if (flags.json) {
    std::cout << Dump(SessionSearchResultToJson(*result)) << "\n";
    return 0;
  }
  if (result->hits.empty()) std::cout << "no matching sessions\n";
  for (const auto& h : result->hits) {
    std::cout << fmt::format("{} (lineage {}) {} events, last active {}\n", h.session.id, h.lineage_root_id,
                             h.session.event_count, ShortTime(h.session.last_active_at));
    if (h.first_event) {
      PrintEventLine(*h.first_event, false);
      if (h.events_before > 1) std::cout << "    ...\n";
    }
    for (const Event& e : h.window) PrintEventLine(e, e.id == h.match_event_id);
    if (h.last_event) {
      if (h.events_after > 1) std::cout << "    ...\n";
      PrintEventLine(*h.last_event, false);
    }
  }
  return 0;
}

// ---- get, doctor, stats ----------------------------------------------------------------------

int RunGet(const GlobalFlags& flags, const std::string& id) {
  auto engine = OpenEngine(flags);
  if (!engine) return Fail(flags, engine.error());
  auto event = (*engine)->GetEvent(id);
  if (!event) return Fail(flags, event.error());
  std::cout << Dump(EventToJson(*event), flags.json ? -1 : 2) << "\n";
  return 0;
}

void PrintStats(const StoreStats& s) {
  std::cout << fmt::format("database   {}\nsize       {} bytes (+ {} bytes WAL)\nnamespaces {}\nsessions   {}\nevents     {}\n",
                           s.path, s.file_bytes, s.wal_bytes, s.namespaces, s.sessions, s.events);
  for (const auto& n : s.per_namespace) {
    std::cout << fmt::format("  {}: {} sessions, {} events\n", n.name, n.sessions, n.events);
  }
}

int RunDoctor(const GlobalFlags& flags) {
  auto engine = OpenEngine(flags);
  if (!engine) return Fail(flags, engine.error());
  auto report = (*engine)->Doctor();
  if (!report) return Fail(flags, report.error());
  if (flags.json) {
    std::cout << Dump(DoctorReportToJson(*report)) << "\n";
  } else {
    std::cout << fmt::format("schema version {}, journal mode {}\n", report->schema_version, report->journal_mode);
    for (const auto& c : report->checks) std::cout << "  " << c << "\n";
    PrintStats(report->stats);
    std::cout << (report->ok ? "ok\n" : "PROBLEMS FOUND\n");
  }
  return report->ok ? 0 : ExitCodeFor(StatusCode::kCorruption);
}

int RunStats(const GlobalFlags& flags) {
  auto engine = OpenEngine(flags);
  if (!engine) return Fail(flags, engine.error());
  auto stats = (*engine)->Stats();
  if (!stats) return Fail(flags, stats.error());
  if (flags.json) {
    std::cout << Dump(StatsToJson(*stats)) << "\n";
  } else {
    PrintStats(*stats);
  }
  return 0;
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"engram — long-term memory for LLM agents"};
  app.require_subcommand(1);
  app.fallthrough();
  GlobalFlags flags;
  app.add_option("--db", flags.db_path, "database file (default: $ENGRAM_DB or $XDG_DATA_HOME/engram/engram.db)");
  app.add_flag("--json", flags.json, "print one JSON object on stdout");

  IngestFlags ingest;
  auto* ingest_cmd = app.add_subcommand("ingest", "store events from a file");
  ingest_cmd->add_option("file", ingest.file, "input file")->required();
  ingest_cmd->add_option("--format", ingest.format, "jsonl (one event per line) or locomo")
      ->check(CLI::IsMember({"jsonl", "locomo"}));
  ingest_cmd->add_flag("--keep-going", ingest.keep_going, "skip bad lines instead of stopping at the first");

  RecallFlags recall;
  auto* recall_cmd = app.add_subcommand("recall", "find the memories that answer a question");
  recall_cmd->add_option("query", recall.query, "the question (taken literally)")->required();
  recall_cmd->add_option("--namespace,-n", recall.namespace_name, "namespace to search")->required();
  recall_cmd->add_option("--limit,-k", recall.limit, "number of items (1-1000)")->check(CLI::Range(1, 1000));
  recall_cmd->add_option("--session", recall.session, "only this session");
  recall_cmd->add_option("--since", recall.since, "only events at or after this ISO-8601 time");
  recall_cmd->add_option("--until", recall.until, "only events before this ISO-8601 time");
  recall_cmd->add_option("--match", recall.match, "any: rank by any term (default); all: every term must occur")
      ->check(CLI::IsMember({"any", "all"}));

  std::string sessions_ns;
  int sessions_limit = 20;
  auto* sessions_cmd = app.add_subcommand("sessions", "list recent sessions, or search them");
  sessions_cmd->add_option("--namespace,-n", sessions_ns, "only this namespace");
  sessions_cmd->add_option("--limit,-k", sessions_limit, "number of sessions (1-1000)")->check(CLI::Range(1, 1000));
  SessionSearchQuery search;
  auto* search_cmd = sessions_cmd->add_subcommand("search", "search past sessions by full text");
  search_cmd->add_option("query", search.text, "what to look for (taken literally)")->required();
  search_cmd->add_option("--namespace,-n", search.namespace_name, "namespace to search")->required();
  search_cmd->add_option("--current", search.current_session_id, "current session: its lineage is excluded");
  search_cmd->add_option("--limit,-k", search.limit, "distinct sessions (1-10)")->check(CLI::Range(1, 10));
  search_cmd->add_option("--window,-w", search.window, "events either side of the hit (1-20)")->check(CLI::Range(1, 20));

  std::string get_id;
  auto* get_cmd = app.add_subcommand("get", "show one event by id");
  get_cmd->add_option("id", get_id, "event id")->required();

  auto* doctor_cmd = app.add_subcommand("doctor", "check the database's integrity");
  auto* stats_cmd = app.add_subcommand("stats", "counts and sizes");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : ExitCodeFor(StatusCode::kInvalidArgument);
  }

  if (*ingest_cmd) return RunIngest(flags, ingest);
  if (*recall_cmd) return RunRecall(flags, recall);
  if (*search_cmd) return RunSessionsSearch(flags, search);
  if (*sessions_cmd) return RunSessionsList(flags, sessions_ns, sessions_limit);
  if (*get_cmd) return RunGet(flags, get_id);
  if (*doctor_cmd) return RunDoctor(flags);
  if (*stats_cmd) return RunStats(flags);
  return 1;
}

}  // namespace engram::cli

int main(int argc, char** argv) { return engram::cli::Main(argc, argv); }
