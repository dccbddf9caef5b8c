#include "cli/cli_common.h"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>

#include "codec/json_codec.h"
#include "util/time.h"

namespace engram::cli {

int Fail(const GlobalFlags& flags, const Status& st) {
  std::cerr << "engram: " << st.ToString() << "\n";
  if (flags.json) std::cout << Dump(StatusToJson(st)) << "\n";
  return ExitCodeFor(st.code());
}

// The engine's Options from the global flags (and, for what a flag does not set, the library's
// environment variables). The folders of the default path (engram's own data folder) are created
// by the commands that create; those of --db and $ENGRAM_DB only with --create.
Options EngineOptions(const GlobalFlags& flags, OpenMode mode) {
  Options options;
  const char* env = std::getenv("ENGRAM_DB");
  const bool default_path = flags.db_path.empty() && (env == nullptr || *env == '\0');
  options.db_path = flags.db_path.empty() ? DefaultDatabasePath() : flags.db_path;
  options.allow_affected_sqlite = flags.allow_affected_sqlite;
  options.open_mode = mode;
  options.create_folders = flags.create || default_path;
  // The library lets $ENGRAM_EMBEDDER, $ENGRAM_EMBEDDER_MODEL and $ENGRAM_RERANK_* override
  // Options; a flag given here wins over its variable (as the help texts say: "default:
  // $VARIABLE"), so the variable is dropped from this process's environment. Values are validated
  // by Engine::Open, like every other entry point's.
  if (!flags.embedder.empty()) {
    options.embedder = flags.embedder;
    unsetenv("ENGRAM_EMBEDDER");
  }
  if (!flags.embedder_model.empty()) {
    options.embedder_model = flags.embedder_model;
    unsetenv("ENGRAM_EMBEDDER_MODEL");
  }
  auto take = [](const auto& flag, auto& field, const char* variable) {
    if (!flag.has_value()) return;
    field = *flag;
    unsetenv(variable);
  };
  take(flags.rerank_url, options.rerank.base_url, "ENGRAM_RERANK_BASE_URL");
  take(flags.rerank_model, options.rerank.model, "ENGRAM_RERANK_MODEL");
  take(flags.rerank_format, options.rerank.format, "ENGRAM_RERANK_FORMAT");
  take(flags.rerank_pool, options.rerank.pool, "ENGRAM_RERANK_POOL");
  take(flags.rerank_budget_ms, options.rerank.budget_ms, "ENGRAM_RERANK_BUDGET_MS");
  return options;
}

// Opens the engine for one command (docs/integrity.md): read commands kReadOnly (they never write
// the file), commands that change what is stored kReadWrite (the database must exist), and only
// ingest, remember and import kCreate — a typo in --db must not silently give an empty, new
// database. Bad settings are reported before a missing file (Engine::Open checks them first).
Result<std::unique_ptr<Engine>> OpenEngine(const GlobalFlags& flags, OpenMode mode) {
  auto engine = Engine::Open(EngineOptions(flags, mode));
  if (engine || engine.error().code() != StatusCode::kNotFound) return engine;
  const std::string& message = engine.error().message();
  if (message.rfind("no database at", 0) == 0) {
    return Error(Status::NotFound(message + " (ingest, remember or import create one)"));
  }
  if (message.rfind("folder ", 0) == 0 && mode == OpenMode::kCreate) {
    return Error(Status::NotFound(message + " (create it, or pass --create)"));
  }
  return engine;
}

std::string ShortTime(TimestampMs ms) { return FormatTimestamp(ms).substr(0, 16); }

const std::function<int()>* Commands::Parsed() const {
  const std::function<int()>* best = nullptr;
  int best_depth = -1;
  for (const Entry& e : entries_) {
    if (!e.command->parsed()) continue;
    int depth = 0;
    for (const CLI::App* p = e.command->get_parent(); p != nullptr; p = p->get_parent()) ++depth;
    if (depth > best_depth) {
      best = &e.run;
      best_depth = depth;
    }
  }
  return best;
}

}  // namespace engram::cli
