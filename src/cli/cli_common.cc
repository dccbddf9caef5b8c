#include "cli/cli_common.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "api/registry.h"
#include "codec/json_codec.h"
#include "recall/context_packet.h"
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
  if (const char* log = std::getenv("ENGRAM_LOCK_WAIT_LOG"); log != nullptr) options.lock_wait_log = log;
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
  if (!flags.word_kin.empty()) {
    options.word_kin = flags.word_kin;
    unsetenv("ENGRAM_WORD_KIN");
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

std::string ShortTime(TimestampMs ms) { return FormatTimestamp(ms).substr(0, 16) + "Z"; }

std::string ShortTime(const OrderedJson& iso) {
  return iso.is_string() ? iso.get<std::string>().substr(0, 16) + "Z" : "";
}

std::string EventTime(const OrderedJson& event) {
  const OrderedJson& local = event.contains("occurred_at_local") ? event["occurred_at_local"] : OrderedJson();
  if (!local.is_string()) return ShortTime(event.value("occurred_at", OrderedJson()));
  // "2023-05-08T12:45:00+08:00" → "2023-05-08T12:45+08:00"; "…:00Z" → "…Z".
  const std::string text = local.get<std::string>();
  return text.size() > 19 ? text.substr(0, 16) + text.substr(19) : text;
}

std::string Day(const OrderedJson& iso, const char* open) {
  return iso.is_string() ? iso.get<std::string>().substr(0, 10) : open;
}

namespace {

Result<const api::Capability*> Find(std::string_view name) {
  const api::Capability* capability = api::FindCapability(name);
  if (capability == nullptr) return Error(Status::Internal(fmt::format("no capability \"{}\"", name)));
  return capability;
}

}  // namespace

namespace {

// The placeholder --help shows for a value of `type`.
const char* TypeName(api::ParamType type) {
  switch (type) {
    case api::ParamType::kInteger: return "INT";
    case api::ParamType::kNumber: return "NUMBER";
    case api::ParamType::kTimestamp: return "ISO-8601";
    default: return "TEXT";
  }
}

// The argument's description, with its default when it has one ("items to return, 1–1000
// (default 10)").
std::string HelpOf(const api::ParamSpec& spec) {
  if (spec.default_value.is_null()) return spec.description;
  const nlohmann::json& d = spec.default_value;
  return fmt::format("{} (default {})", spec.description, d.is_string() ? d.get<std::string>() : d.dump());
}

}  // namespace

CapabilityFlags::CapabilityFlags(CLI::App* command, std::string_view capability)
    : command_(command), capability_(api::FindCapability(capability)) {
  // Cannot fire once each command has run once (the names are literals of this program).
  assert(capability_ != nullptr && "a command names a capability that is not registered");
}

void CapabilityFlags::Bind(std::initializer_list<std::string_view> flags) {
  for (std::string_view flag : flags) {
    const size_t eq = flag.find('=');
    std::string declared(flag.substr(0, eq));
    std::string name;
    if (eq != std::string_view::npos) {
      name = flag.substr(eq + 1);
    } else {
      name = declared.rfind("--", 0) == 0 ? declared.substr(2) : declared;
      name = name.substr(0, name.find(','));
      std::replace(name.begin(), name.end(), '-', '_');
    }
    const auto& params = capability_->params;
    auto spec = std::find_if(params.begin(), params.end(), [&](const api::ParamSpec& p) { return p.name == name; });
    // Cannot fire once each command has run once (the names are literals of this program).
    assert(spec != params.end() && "a flag names an argument its capability does not have");
    if (spec == params.end()) continue;
    Bound& b = bound_.emplace_back(Bound{.name = name, .type = spec->type});
    if (b.type == api::ParamType::kBoolean) {
      b.option = command_->add_flag(declared, b.flag, spec->description);
    } else if (b.type == api::ParamType::kStringArray) {
      b.option = command_->add_option(declared, b.values, spec->description);
    } else {
      b.option = command_->add_option(declared, b.value, HelpOf(*spec))->type_name(TypeName(b.type));
    }
  }
}

nlohmann::json CapabilityFlags::Args() const {
  nlohmann::json args = defaults_;
  for (const Bound& b : bound_) {
    if (b.option->count() == 0) continue;
    nlohmann::json value = b.value;
    if (b.type == api::ParamType::kBoolean) {
      value = b.flag;
    } else if (b.type == api::ParamType::kStringArray) {
      value = b.values;
    } else if (b.type == api::ParamType::kInteger || b.type == api::ParamType::kNumber) {
      nlohmann::json number = nlohmann::json::parse(b.value, nullptr, /*allow_exceptions=*/false);
      if (number.is_number()) value = number;
    } else if (b.type == api::ParamType::kArray || b.type == api::ParamType::kObject) {
      // Given as JSON text (`--operations '[{"action": "add", ...}]'`).
      nlohmann::json parsed = nlohmann::json::parse(b.value, nullptr, /*allow_exceptions=*/false);
      if (parsed.is_array() || parsed.is_object()) value = std::move(parsed);
    }
    args[b.name] = std::move(value);
  }
  return args;
}

int RunCapability(const GlobalFlags& flags, OpenMode mode, const CapabilityFlags& args, const Rendering& rendering) {
  return RunCapability(flags, mode, args.capability(), args.Args(), rendering);
}

CapabilityCommand AddCapabilityCommand(CLI::App& parent, const GlobalFlags& flags, Commands& commands,
                                       const std::string& name, const std::string& help, std::string_view capability,
                                       std::initializer_list<std::string_view> bind, OpenMode mode,
                                       Rendering rendering) {
  CLI::App* command = parent.add_subcommand(name, help);
  auto args = std::make_shared<CapabilityFlags>(command, capability);
  args->Bind(bind);
  commands.Add(command, [&flags, args, mode, rendering = std::move(rendering)] {
    return RunCapability(flags, mode, *args, rendering);
  });
  return {command, args};
}

Status Validate(std::string_view name, const nlohmann::json& args) {
  auto capability = Find(name);
  if (!capability) return capability.error();
  auto parsed = api::ParseArgs((*capability)->params, args, api::ArgsMode::kStrict);
  return parsed ? Status::Ok() : parsed.error();
}

Result<api::Reply> Call(Engine& engine, std::string_view name, const nlohmann::json& args) {
  auto capability = Find(name);
  if (!capability) return Error(capability.error());
  return api::Invoke(engine, **capability, args, api::ArgsMode::kStrict, {.actor = "cli"});
}

int Print(const GlobalFlags& flags, const api::Reply& reply, const Rendering& rendering) {
  if (flags.json) {
    const auto& [from, to] = rendering.rename;
    if (from.empty() || !reply.body.contains(from)) {
      std::cout << Dump(reply.body) << "\n";
    } else {
      OrderedJson body = reply.body;
      body[to] = std::move(body[from]);
      body.erase(from);
      std::cout << Dump(body) << "\n";
    }
  } else if (rendering.text) {
    rendering.text(reply.body);
  }
  return rendering.finish ? rendering.finish(reply.body) : 0;
}

int RunCapability(const GlobalFlags& flags, OpenMode mode, std::string_view name, const nlohmann::json& args,
                  const Rendering& rendering) {
  if (Status st = Validate(name, args); !st.ok()) return Fail(flags, st);
  auto engine = OpenEngine(flags, mode);
  if (!engine) return Fail(flags, engine.error());
  auto reply = Call(**engine, name, args);
  if (!reply) return Fail(flags, reply.error());
  return Print(flags, *reply, rendering);
}

Result<std::string> NamespaceOfId(Engine& engine, const std::string& id) {
  auto event = engine.GetEvent(id);
  if (event) return event->namespace_name;
  if (event.error().code() != StatusCode::kNotFound) return Error(event.error());
  auto claim = engine.GetClaim(id);
  if (!claim) return Error(claim.error());
  return claim->namespace_name;
}

Result<std::string> NamespaceOfIds(Engine& engine, const std::vector<std::string>& ids) {
  std::vector<std::string> found;
  std::optional<Status> first_error;
  for (const std::string& id : ids) {
    auto ns = engine.NamespaceOf(id);
    if (!ns) {
      if (!first_error) first_error = ns.error();
      continue;
    }
    if (std::find(found.begin(), found.end(), *ns) == found.end()) found.push_back(*ns);
  }
  if (found.size() > 1) {
    return Error(Status::InvalidArgument(fmt::format(
        "field \"namespace\": the ids are of several namespaces ({}): give -n and forget one namespace at a time",
        fmt::join(found, ", "))));
  }
  if (found.empty()) return Error(first_error.value_or(Status::InvalidArgument("field \"ids\": required")));
  return found.front();
}

Result<std::string> NamespaceOfFeedbackId(Engine& engine, const std::string& feedback_id) {
  auto parsed = ParseFeedbackId(feedback_id);
  if (!parsed) return Error(parsed.error());
  return NamespaceOfId(engine, parsed->item_id);
}

void PrintMaintainText(const OrderedJson& r) {
  for (const OrderedJson& n : r["namespaces"]) {
    std::cout << fmt::format(
        "{}: {} TTLs assigned, {} expired, {} activations updated, {} archived ({} vectors dropped), "
        "{} duplicates converged; experience: {} made cold, {} warm again, {} forgotten\n",
        n["namespace"].get<std::string>(), n["ttl_assigned"].get<int64_t>(), n["expired"].get<int64_t>(),
        n["decayed"].get<int64_t>(), n["archived"].get<int64_t>(), n["vectors_dropped"].get<int64_t>(),
        n["converged"].get<int64_t>(), n["experience_cold"].get<int64_t>(), n["experience_warmed"].get<int64_t>(),
        n["experience_forgotten"].get<int64_t>());
  }
  std::cout << fmt::format("maintenance at {}: {} namespace(s), {} recall hits written, {:.1f} ms\n",
                           r["now"].get<std::string>(), r["namespaces"].size(),
                           r["total"]["access_flushed"].get<int64_t>(), r["took_ms"].get<double>());
}

void PrintProcessText(const OrderedJson& r) {
  std::cout << fmt::format(
      "{} batches, {} events: {} claims created, {} confirmed, {} superseded, {} disputed, {} candidates "
      "rejected, {} jobs failed\n",
      r["batches"].get<int64_t>(), r["events"].get<int64_t>(), r["claims_created"].get<int64_t>(),
      r["claims_confirmed"].get<int64_t>(), r["claims_superseded"].get<int64_t>(),
      r["claims_disputed"].get<int64_t>(), r["candidates_rejected"].get<int64_t>(), r["jobs_failed"].get<int64_t>());
  for (const OrderedJson& e : r["errors"]) std::cerr << "engram: " << e.get<std::string>() << "\n";
}

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
