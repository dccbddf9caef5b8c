// cli/cli_common.h — what every `engram` command shares: the global flags, opening the engine
// for a command, reporting a failure, and the table of commands that group files add to.
#ifndef ENGRAM_CLI_CLI_COMMON_H_
#define ENGRAM_CLI_CLI_COMMON_H_

#include <CLI/CLI.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/capability.h"
#include "engram/engine.h"

namespace engram::cli {

struct GlobalFlags {
  std::string db_path;
  bool json = false;
  bool allow_affected_sqlite = false;  // Options::allow_affected_sqlite
  bool create = false;         // --create: a writing command may create the missing folders of --db
  std::string embedder;        // Options::embedder when given
  std::string embedder_model;  // Options::embedder_model when given
  std::string word_kin;        // Options::word_kin when given
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

// "2023-05-08T13:56Z" (UTC, minutes, labelled as UTC: text never shows an unlabelled time).
std::string ShortTime(TimestampMs ms);
// The same from a time as the JSON codec writes it ("2023-05-08T13:56:00.000Z"); "" for null.
std::string ShortTime(const OrderedJson& iso);
// An event's time in the calendar it was written in, with that offset ("2023-05-08T12:45+08:00",
// "…T04:45Z" at offset 0), from its occurred_at_local (B36/B53); ShortTime(occurred_at) when the
// object has no occurred_at_local (evidence and recall items carry the UTC time only).
std::string EventTime(const OrderedJson& event);
// "2023-05-08" from such a time; `open` (e.g. "now") for null.
std::string Day(const OrderedJson& iso, const char* open = "now");

// ---- calling a capability (api/registry.h) ------------------------------------------------------
//
// A command gathers the flags it was given into a JSON object of the capability's argument names
// (a flag not given is left out, so the capability's default applies) and calls it through Invoke
// in strict mode as actor "cli": the CLI validates exactly as REST does (the same field names in
// errors, the same limits). The CLI runs as the file's owner and calls no Authorize. It never
// passes an empty namespace (B27): every namespace is --all-namespaces (the admin capabilities
// list_all_sessions / list_all_tombstones, all_namespaces of export and maintain), and a command
// given ids alone (forget, feedback) acts in the namespace the ids are of (Engine::NamespaceOf).

// How a command shows a reply.
struct Rendering {
  // The readable form (without --json): prints `body` on stdout.
  std::function<void(const OrderedJson& body)> text;
  // Runs after either form is printed: warnings on stderr, and the exit code a successful reply
  // still earns (stats of a damaged database); nullptr: exit code 0.
  std::function<int(const OrderedJson& body)> finish;
  // --json prints the reply body with this key renamed (from, to): the CLI's name from before the
  // capability layer ("items" of list_sessions is "sessions"); empty: as it is.
  std::pair<std::string, std::string> rename;
};

// The flags of one command that are arguments of its capability, one to one. Each is declared with
// the argument's description (ParamSpec) as its help; a flag given becomes args[name], converted to
// the argument's JSON type (a value that does not convert is passed as written, for the capability
// to reject naming the field, as REST would). A flag not given is left out: the capability's
// default applies. Not thread-safe (one per command, filled by CLI11's parse).
class CapabilityFlags {
 public:
  // `capability` must be a registered capability (the names are the program's own).
  CapabilityFlags(CLI::App* command, std::string_view capability);
  CapabilityFlags(const CapabilityFlags&) = delete;
  CapabilityFlags& operator=(const CapabilityFlags&) = delete;

  // Declares each of `flags`: "--as-of" (argument as_of), "--limit,-k" (limit), "query" (a
  // positional argument), or "--session=session_id" where the names differ. A kBoolean argument
  // is a flag (given: true); a kStringArray one takes several values.
  void Bind(std::initializer_list<std::string_view> flags);
  // An argument sent when its flag is not given (namespace "" where -n is optional).
  void Default(const std::string& name, nlohmann::json value) { defaults_[name] = std::move(value); }

  const std::string& capability() const { return capability_->name; }
  // The JSON arguments: the defaults, then every flag given.
  nlohmann::json Args() const;

 private:
  struct Bound {
    std::string name;  // the argument
    api::ParamType type;
    std::string value;
    std::vector<std::string> values;  // kStringArray
    bool flag = false;                // kBoolean
    CLI::Option* option = nullptr;
  };
  CLI::App* command_;
  const api::Capability* capability_;
  std::deque<Bound> bound_;  // stable addresses: CLI11 writes into them
  nlohmann::json defaults_ = nlohmann::json::object();
};

// RunCapability with the arguments of `flags`.
int RunCapability(const GlobalFlags& flags, OpenMode mode, const CapabilityFlags& args, const Rendering& rendering);

// Validates `args` against capability `name` without an engine. Errors: kInvalidArgument naming
// the field; kInternal for a name that is no capability (a programmer error).
Status Validate(std::string_view name, const nlohmann::json& args);

// Invoke (api/registry.h) of capability `name` in strict mode as actor "cli".
Result<api::Reply> Call(Engine& engine, std::string_view name, const nlohmann::json& args);

// Prints a reply: Reply::body as one JSON line with --json (renamed as `rendering` says), else
// its text. Returns the exit code.
int Print(const GlobalFlags& flags, const api::Reply& reply, const Rendering& rendering);

// The whole of most commands: validates `args`, opens the engine in `mode` (after validating, so
// a bad argument is reported before a missing file), calls capability `name` and prints the
// reply. Returns the exit code (Fail's on an error).
int RunCapability(const GlobalFlags& flags, OpenMode mode, std::string_view name, const nlohmann::json& args,
                  const Rendering& rendering);

// The namespace of the event or claim `id` (the CLI addresses objects of every namespace by id;
// the capabilities take the namespace with the id). Errors: the Engine's kNotFound of GetClaim
// (which names the tombstone of a forgotten id); others as the Engine's.
Result<std::string> NamespaceOfId(Engine& engine, const std::string& id);
// The one namespace of `ids` (Engine::NamespaceOf: events, claims, or forgotten ones through their
// tombstones): what `forget ID...` without -n acts in. Ids that name nothing are left for the
// capability to report. Errors: kInvalidArgument naming "namespace" when they are of several
// namespaces; the first lookup error (kNotFound "no event or claim ...") when none is found.
Result<std::string> NamespaceOfIds(Engine& engine, const std::vector<std::string>& ids);
// The namespace of the item a feedback id (recall's feedback_id) names. Errors: kInvalidArgument
// naming "feedback_id" (malformed), NamespaceOfId's.
Result<std::string> NamespaceOfFeedbackId(Engine& engine, const std::string& feedback_id);
// Stands for the namespace an id will resolve to when a command's arguments are validated before
// the database is opened.
inline constexpr const char* kNamespaceOfTheId = "(the namespace of the id)";

// ---- lists: scope and pages (cli/list_flags.cc) ------------------------------------------------

// Adds --all-namespaces to `command` (help names what it lists); the flag's value.
std::shared_ptr<bool> AddAllNamespacesFlag(CLI::App* command, const char* what);
// The one scope rule of the CLI (B27): exactly one of --namespace and --all-namespaces. Errors:
// kInvalidArgument naming --namespace (neither, or both; an empty -n is the capability's error).
Status CheckScope(const nlohmann::json& args, bool all_namespaces);
// After a page's text: "more: --cursor c1.… (the same command with this flag prints the next
// page)" when body["next_cursor"] is set, nothing on the last page.
void PrintNextPage(const OrderedJson& body);

// Readable forms shared by several commands (maintain and worker; process and worker).
void PrintMaintainText(const OrderedJson& report);
void PrintProcessText(const OrderedJson& report);

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

// A command that is one call of a capability: adds subcommand `name` (help `help`) to `parent`,
// binds `bind` (CapabilityFlags::Bind) and registers its run (RunCapability in `mode`). Returns
// the command and its flags, for flags of its own and defaults.
struct CapabilityCommand {
  CLI::App* command;
  std::shared_ptr<CapabilityFlags> args;
};
CapabilityCommand AddCapabilityCommand(CLI::App& parent, const GlobalFlags& flags, Commands& commands,
                                       const std::string& name, const std::string& help, std::string_view capability,
                                       std::initializer_list<std::string_view> bind, OpenMode mode,
                                       Rendering rendering);

// Group files (one per command group).
void AddServeCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);  // serve, keys, config
void AddMcpCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);    // mcp (stdio)
void AddEventsCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);  // ingest, get
void AddRecallCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);  // recall, sessions, feedback
// remember, claims, explain, history
void AddClaimsCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);
// forget, unforget, tombstones, compact
void AddForgetCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);
void AddJobsCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);  // process, worker, jobs
// stats, doctor, maintain, export, import, backup, restore, reindex, models
void AddAdminCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);
void AddWorkingCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);  // working SESSION
// memory list|add|replace|remove|apply|snapshot|bind (curated memory)
void AddMemoryCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);
void AddHermesCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);  // hermes install
// episode start|step|end|retype|get|list, experience distill|rules|rule|recall
void AddExperienceCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);
// mcp-tap -- SERVER..., mcp-tap drain|status|retry-dead|prune|payload (tool-call capture)
void AddTapCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands);
// `import hermes`, a subcommand of AddAdminCommands's `import` (in cli/hermes_commands.cc).
void AddImportHermesCommand(CLI::App& import, const GlobalFlags& flags, Commands& commands);

}  // namespace engram::cli

#endif  // ENGRAM_CLI_CLI_COMMON_H_
