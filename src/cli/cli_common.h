// cli/cli_common.h — what every `engram` command shares: the global flags, opening the engine
// for a command, reporting a failure, and the table of commands that group files add to.
#ifndef ENGRAM_CLI_CLI_COMMON_H_
#define ENGRAM_CLI_CLI_COMMON_H_

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engram/engine.h"

namespace engram::cli {

struct GlobalFlags {
  std::string db_path;
  bool json = false;
  bool allow_affected_sqlite = false;  // Options::allow_affected_sqlite
  bool create = false;         // --create: a writing command may create the missing folders of --db
  std::string embedder;        // Options::embedder when given
  std::string embedder_model;  // Options::embedder_model when given
  // Options::rerank fields when given (a given flag wins over its $ENGRAM_RERANK_* variable).
  std::optional<std::string> rerank_url;
  std::optional<std::string> rerank_model;
  std::optional<std::string> rerank_format;
  std::optional<int> rerank_pool;
  std::optional<int> rerank_budget_ms;
};

// Prints the error on stderr (and, with --json, {"error": ...} on stdout); returns its exit code.
int Fail(const GlobalFlags& flags, const Status& st);

// The engine's Options from the global flags (and, for what a flag does not set, the library's
// environment variables).
Options EngineOptions(const GlobalFlags& flags, OpenMode mode);

// Opens the engine for one command (docs/integrity.md): read commands kReadOnly, commands that
// change what is stored kReadWrite, and only ingest, remember and import kCreate.
Result<std::unique_ptr<Engine>> OpenEngine(const GlobalFlags& flags, OpenMode mode);

// "2023-05-08T13:56" (UTC, minutes).
std::string ShortTime(TimestampMs ms);

// The commands a group file adds: each subcommand with the function that runs it. A group file
// exposes `void Add<Group>Commands(CLI::App& app, const GlobalFlags& flags, Commands& commands)`;
// its flag values live in the closures (parsed into before `run` is called).
class Commands {
 public:
  void Add(CLI::App* command, std::function<int()> run) { entries_.push_back({command, std::move(run)}); }
  // The run function of the deepest parsed subcommand ("jobs retry" over "jobs"), or nullptr.
  const std::function<int()>* Parsed() const;

 private:
  struct Entry {
    CLI::App* command;
    std::function<int()> run;
  };
  std::vector<Entry> entries_;
};

// Group files (one per command group).
void AddServeCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);  // serve, keys, config
void AddMcpCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);    // mcp (stdio)

}  // namespace engram::cli

#endif  // ENGRAM_CLI_CLI_COMMON_H_
