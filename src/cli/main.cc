// cli/main.cc — the `engram` command: the global flags, parsing, option errors and dispatch. The
// subcommands live in one file per group (cli/*_commands.cc, declared in cli/cli_common.h); most
// call a capability of api/ (the layer REST and MCP use too). Every subcommand opens the database
// named by `--db PATH` (or $ENGRAM_DB, or the XDG default) and prints either readable text or, with
// --json, one JSON object on stdout. Errors go to stderr; with --json they are also printed as
// {"error": {...}} on stdout. Exit codes: see ExitCodeFor in engram/status.h.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <string_view>

#include "cli/cli_common.h"
#include "codec/json_codec.h"
#include "engram/engine.h"
#include "util/utf8.h"

namespace engram::cli {

int Main(int argc, char** argv) {
  // Logs (warnings of the worker, the distiller, the server) go to stderr: stdout carries only a
  // command's output, one JSON object with --json.
  spdlog::set_default_logger(spdlog::stderr_color_mt("engram"));
  CLI::App app{"engram — long-term memory for LLM agents"};
  app.require_subcommand(1);
  app.fallthrough();
  GlobalFlags flags;
  auto* db = app.add_option("--db", flags.db_path,
                            "database file (default: $ENGRAM_DB or $XDG_DATA_HOME/engram/engram.db; never empty)");
  app.add_flag("--json", flags.json, "print one JSON object on stdout");
  app.set_version_flag("--version", [] {
    const VersionInfo v = GetVersionInfo();
    return fmt::format("engram {} (SQLite {}{})", v.engram, v.sqlite,
                       v.sqlite_has_wal_reset_bug ? ", which has the WAL-reset bug" : "");
  });
  app.add_flag("--allow-affected-sqlite", flags.allow_affected_sqlite,
               "run even on a SQLite with the WAL-reset bug (also $ENGRAM_ALLOW_AFFECTED_SQLITE=1; experiments only)");
  app.add_flag("--create", flags.create,
               "ingest, remember, import: create the missing folders of --db (the default path's are always created)");
  app.add_option("--embedder", flags.embedder,
                 "dense channel: none, glove, hash or openai (default: $ENGRAM_EMBEDDER, else none)");
  app.add_option("--embedder-model", flags.embedder_model,
                 "glove: word-vector file (default: $ENGRAM_EMBEDDER_MODEL, else the installed one)");
  app.add_option("--word-kin", flags.word_kin,
                 "kin words for current-first recall: auto (the installed GloVe file, if any), none, or a "
                 "word-vector file (default: $ENGRAM_WORD_KIN, else auto)");
  app.add_option("--rerank-url", flags.rerank_url,
                 "reranker base URL, before /rerank, e.g. http://127.0.0.1:8000/v1 (default: $ENGRAM_RERANK_BASE_URL, else none)");
  app.add_option("--rerank-model", flags.rerank_model, "reranker model name (default: $ENGRAM_RERANK_MODEL)");
  app.add_option("--rerank-format", flags.rerank_format,
                 "reranker wire format: cohere (vLLM, llama.cpp, Jina) or tei (default: $ENGRAM_RERANK_FORMAT, else cohere)");
  app.add_option("--rerank-pool", flags.rerank_pool,
                 "items sent to the reranker, 1-100 (default: $ENGRAM_RERANK_POOL, else 20)");
  app.add_option("--rerank-budget-ms", flags.rerank_budget_ms,
                 "time budget of the whole rerank step in ms, 1-60000 (default: $ENGRAM_RERANK_BUDGET_MS, else 300)");

  Commands commands;
  AddServeCommands(app, flags, commands);
  AddMcpCommands(app, flags, commands);
  AddEventsCommands(app, flags, commands);
  AddRecallCommands(app, flags, commands);
  AddClaimsCommands(app, flags, commands);
  AddForgetCommands(app, flags, commands);
  AddJobsCommands(app, flags, commands);
  AddAdminCommands(app, flags, commands);
  AddMemoryCommands(app, flags, commands);
  AddWorkingCommands(app, flags, commands);
  AddExperienceCommands(app, flags, commands);
  AddHermesCommands(app, flags, commands);
  AddTapCommands(app, flags, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    if (rc == 0) return 0;  // --help
    // --json promises a JSON error on stdout for every failure, option errors included (CLI11 has
    // already printed its message on stderr).
    bool json = flags.json;
    for (int i = 1; i < argc; ++i) json |= std::string_view(argv[i]) == "--json";
    if (json) std::cout << Dump(StatusToJson(Status::InvalidArgument(e.what()))) << "\n";
    return ExitCodeFor(StatusCode::kInvalidArgument);
  }
  // `--db "$DB"` with DB unset must not silently open the default database (B27).
  if (db->count() > 0 && IsBlank(flags.db_path)) {
    return Fail(flags, Status::InvalidArgument(
                           "--db: is empty (leave --db out for $ENGRAM_DB or the default database)"));
  }
  if (const auto* run = commands.Parsed()) return (*run)();
  return 1;
}

}  // namespace engram::cli

int main(int argc, char** argv) { return engram::cli::Main(argc, argv); }
