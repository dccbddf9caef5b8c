// cli/serve_commands.cc — `engram serve` (REST, and MCP over streamable HTTP at /mcp), `engram
// keys` (API keys) and `engram config`. Flags only: the work is in server/.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <iostream>

#include "cli/cli_common.h"
#include "codec/json_codec.h"
#include "mcp/http_handler.h"
#include "mcp/read_only_request.h"
#include "server/config.h"
#include "server/engine_pool.h"
#include "server/http_server.h"
#include "server/openapi.h"
#include "server/serve.h"
#include "util/time.h"

namespace engram::cli {
namespace {

struct ServeFlags {
  std::string config_path;
  std::string listen;
  int threads = 0;
  int readers = -1;
  bool no_worker = false;
  bool quiet = false;
  bool print_openapi = false;
  std::string port_file;
  bool conformance_fixtures = false;
};

Result<server::ServerConfig> LoadConfig(const std::string& path) {
  return server::LoadServerConfig(path, [](const char* name) { return std::getenv(name); });
}

// The global flags with the configuration's database when --db was not given.
GlobalFlags WithConfigDb(const GlobalFlags& flags, const server::ServerConfig& config) {
  GlobalFlags f = flags;
  if (f.db_path.empty()) f.db_path = config.db_path;
  return f;
}

// MCP over streamable HTTP at /mcp and /mcp/{namespace} (docs/mcp.md). A request that only
// reads (a read tool such as memory_recall, or a protocol method: mcp::IsReadOnlyRequest) leases a
// reader, as REST reads do, so it never waits behind a write; the rest lease the writer. The
// listener already checks Host and Origin on loopback, so the handler's own host list is off.
void MountMcp(server::HttpServer& http, server::EnginePool& pool, bool fixtures) {
  const mcp::HttpOptions options{.fixtures = fixtures, .allowed_hosts = {}};
  server::HttpHandler handler = [&pool, options](const server::HttpRequest& request) {
    const bool write = !mcp::IsReadOnlyRequest(request.body);
    server::HttpResponse response;
    Status ran = pool.Run(write, std::chrono::milliseconds(10000), [&](Engine& engine) {
      mcp::Server server(engine);
      response = mcp::HandleHttp(server, options, request);
    });
    if (!ran.ok()) {
      return server::HttpResponse{
          .status = 503,
          .body = Dump(mcp::ErrorResponse(nullptr, {.code = mcp::kInternalError, .message = ran.ToString()}))};
    }
    return response;
  };
  http.Mount("", "/mcp", handler);    // exactly /mcp
  http.Mount("", "/mcp/", handler);   // /mcp/{namespace}
}

int RunServe(const GlobalFlags& flags, const ServeFlags& sf) {
  if (sf.print_openapi) {
    std::cout << OrderedJson(server::OpenApiDocument()).dump(2) << "\n";
    return 0;
  }
  auto config = LoadConfig(sf.config_path);
  if (!config) return Fail(flags, config.error());
  if (!sf.listen.empty()) config->listen = sf.listen;
  if (sf.threads > 0) config->threads = sf.threads;
  if (sf.readers >= 0) config->readers = sf.readers;
  if (sf.no_worker) config->worker = false;
  if (sf.quiet) config->log_requests = false;
  const GlobalFlags f = WithConfigDb(flags, *config);
  server::ServeOptions options{.config = *config,
                               .engine = EngineOptions(f, f.create ? OpenMode::kCreate : OpenMode::kReadWrite),
                               .port_file = sf.port_file};
  if (!config->rerank_base_url.empty()) options.engine.rerank.base_url = config->rerank_base_url;
  if (!config->rerank_model.empty()) options.engine.rerank.model = config->rerank_model;
  if (!config->rerank_api_key.empty()) options.engine.rerank.api_key = config->rerank_api_key;
  options.mount = [fixtures = sf.conformance_fixtures](server::HttpServer& http, server::EnginePool& pool) {
    MountMcp(http, pool, fixtures);
  };
  Status st = server::Serve(options);
  return st.ok() ? 0 : Fail(flags, st);
}

OrderedJson KeyJson(const ApiKeyInfo& k) {
  OrderedJson j{{"id", k.id}, {"namespaces", k.namespaces}, {"access", k.access}, {"label", k.label},
                {"created_at", FormatTimestamp(k.created_at)}};
  j["revoked_at"] = k.revoked_at ? OrderedJson(FormatTimestamp(*k.revoked_at)) : OrderedJson(nullptr);
  return j;
}

void PrintKey(const ApiKeyInfo& k) {
  std::cout << fmt::format("{}  {}  {}  {}{}{}\n", k.id, k.access, fmt::join(k.namespaces, ","),
                           ShortTime(k.created_at), k.revoked_at ? "  revoked " + ShortTime(*k.revoked_at) : "",
                           k.label.empty() ? "" : "  " + k.label);
}

int RunKeysCreate(const GlobalFlags& flags, const ApiKeyInput& input) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto created = (*engine)->CreateApiKey(input);
  if (!created) return Fail(flags, created.error());
  if (flags.json) {
    OrderedJson j = KeyJson(created->key);
    j["secret"] = created->secret;
    std::cout << Dump(j) << "\n";
  } else {
    PrintKey(created->key);
    std::cout << "secret (shown once; send as Authorization: Bearer <secret>):\n" << created->secret << "\n";
  }
  return 0;
}

int RunKeysList(const GlobalFlags& flags, bool all) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto keys = (*engine)->ListApiKeys(all);
  if (!keys) return Fail(flags, keys.error());
  OrderedJson items = OrderedJson::array();
  for (const ApiKeyInfo& k : *keys) {
    if (flags.json) items.push_back(KeyJson(k));
    else PrintKey(k);
  }
  if (flags.json) std::cout << Dump(OrderedJson{{"keys", items}}) << "\n";
  return 0;
}

int RunKeysRevoke(const GlobalFlags& flags, const std::string& id) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto key = (*engine)->RevokeApiKey(id);
  if (!key) return Fail(flags, key.error());
  if (flags.json) std::cout << Dump(KeyJson(*key)) << "\n";
  else PrintKey(*key);
  return 0;
}

int RunConfigShow(const GlobalFlags& flags, const std::string& path) {
  auto config = LoadConfig(path);
  if (!config) return Fail(flags, config.error());
  std::cout << server::ShowServerConfig(*config);
  return 0;
}

void AddKeysCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  CLI::App* keys = app.add_subcommand("keys", "API keys of `engram serve` (stored hashed in the database)");
  keys->require_subcommand(1);
  auto input = std::make_shared<ApiKeyInput>();
  CLI::App* create = keys->add_subcommand("create", "create a key; its secret is printed once");
  create->add_option("--namespace", input->namespaces, "a namespace it grants (repeatable; \"*\" = every one)")
      ->required();
  create->add_option("--access", input->access, "read, write or admin (default read)")
      ->check(CLI::IsMember({"read", "write", "admin"}));
  create->add_option("--label", input->label, "a note shown by `keys list`");
  commands.Add(create, [&flags, input] { return RunKeysCreate(flags, *input); });
  auto all = std::make_shared<bool>(false);
  CLI::App* list = keys->add_subcommand("list", "list keys (never their secrets)");
  list->add_flag("--all", *all, "include revoked keys");
  commands.Add(list, [&flags, all] { return RunKeysList(flags, *all); });
  auto id = std::make_shared<std::string>();
  CLI::App* revoke = keys->add_subcommand("revoke", "revoke a key (a server stops accepting it within 1 s)");
  revoke->add_option("id", *id, "the key id (ek_...)")->required();
  commands.Add(revoke, [&flags, id] { return RunKeysRevoke(flags, *id); });
}

}  // namespace

void AddServeCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto sf = std::make_shared<ServeFlags>();
  CLI::App* serve = app.add_subcommand("serve", "serve the REST API (docs/server.md) until SIGTERM");
  serve->add_option("--config", sf->config_path, "TOML config (default $XDG_CONFIG_HOME/engram/config.toml)");
  serve->add_option("--listen", sf->listen, "host:port (default 127.0.0.1:8420; $ENGRAM_LISTEN)");
  serve->add_option("--threads", sf->threads, "connection threads (default 64)");
  serve->add_option("--readers", sf->readers, "read-only engines for parallel reads (default 2)");
  serve->add_flag("--no-worker", sf->no_worker, "do not run extraction and maintenance in this process");
  serve->add_flag("--quiet", sf->quiet, "no access log line per request");
  serve->add_flag("--print-openapi", sf->print_openapi, "print the OpenAPI document and exit");
  serve->add_flag("--conformance-fixtures", sf->conformance_fixtures,
                  "serve the MCP conformance suite's fixture tools at /mcp (tests only)")
      ->group("");
  serve->add_option("--port-file", sf->port_file, "write the bound port here (for --listen HOST:0)");
  commands.Add(serve, [&flags, sf] { return RunServe(flags, *sf); });
  AddKeysCommands(app, flags, commands);
  CLI::App* config = app.add_subcommand("config", "the server's configuration");
  config->require_subcommand(1);
  auto path = std::make_shared<std::string>();
  CLI::App* show = config->add_subcommand("show", "print the effective configuration (secrets masked)");
  show->add_option("--config", *path, "TOML config (default $XDG_CONFIG_HOME/engram/config.toml)");
  commands.Add(show, [&flags, path] { return RunConfigShow(flags, *path); });
}

}  // namespace engram::cli
