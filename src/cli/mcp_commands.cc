// cli/mcp_commands.cc — `engram mcp`: the MCP server over stdio (docs/mcp.md). stdout carries
// only JSON-RPC lines; everything else (logs, the worker's reports) goes to stderr.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/cli_common.h"
#include "mcp/stdio.h"
#include "mcp/tools.h"

namespace engram::cli {
namespace {

struct McpFlags {
  std::string namespace_name;
  std::vector<std::string> allowed;  // further namespaces a call may name ("*" = any)
  bool fixtures = false;
  std::vector<std::string> toolsets;  // opt-in tool groups besides the default tools (mcp/tools.h)
  bool worker = true;
  int worker_poll_ms = 1000;
};

// The extraction worker of `engram worker` on a connection of its own (so a save never waits for
// a batch of extraction), stopped by Stop(); Stop waits at most `patience` for a batch in flight.
class BackgroundWorker {
 public:
  BackgroundWorker(std::unique_ptr<Engine> engine, int poll_ms) : engine_(std::move(engine)), poll_ms_(poll_ms) {
    thread_ = std::thread([this] { Run(); });
  }
  // Returns false when the worker was still busy after `patience` (the caller then exits without
  // joining; SQLite keeps every committed batch and rolls back the one in flight).
  bool Stop(std::chrono::milliseconds patience) {
    std::unique_lock lock(mu_);
    stop_ = true;
    cv_.notify_all();
    if (!cv_.wait_for(lock, patience, [this] { return done_; })) return false;
    lock.unlock();
    thread_.join();
    return true;
  }

 private:
  void Run() {
    std::unique_lock lock(mu_);
    while (!stop_) {
      lock.unlock();
      auto report = engine_->Process(/*drain=*/false);
      if (!report) spdlog::warn("engram mcp: worker: {}", report.error().ToString());
      lock.lock();
      cv_.wait_for(lock, std::chrono::milliseconds(poll_ms_), [this] { return stop_; });
    }
    done_ = true;
    cv_.notify_all();
  }

  std::unique_ptr<Engine> engine_;
  int poll_ms_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool done_ = false;
  std::thread thread_;
};

// The principal of a stdio connection: the file's owner when no namespace is bound and no list
// of namespaces is given; else write access to the bound namespace and the allowed ones only.
api::Principal StdioPrincipal(const McpFlags& f) {
  if (f.namespace_name.empty() && f.allowed.empty()) return api::Principal::Owner();
  api::Principal p{.key_id = "stdio"};
  if (!f.namespace_name.empty()) p.grants[f.namespace_name] = api::Access::kWrite;
  for (const std::string& ns : f.allowed) p.grants[ns] = api::Access::kWrite;
  return p;
}

int RunMcp(const GlobalFlags& flags, const McpFlags& f) {
  // Everything the library logs goes to stderr: stdout is the protocol channel.
  spdlog::set_default_logger(spdlog::stderr_color_mt("engram-mcp"));
  std::ios::sync_with_stdio(false);
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) {
    std::cerr << "engram mcp: " << engine.error().ToString() << "\n";
    return ExitCodeFor(engine.error().code());
  }
  std::unique_ptr<BackgroundWorker> worker;
  if (f.worker) {
    auto worker_engine = OpenEngine(flags, OpenMode::kReadWrite);
    if (!worker_engine) {
      spdlog::warn("engram mcp: no extraction worker: {}", worker_engine.error().ToString());
    } else {
      worker = std::make_unique<BackgroundWorker>(std::move(*worker_engine), f.worker_poll_ms);
    }
  }
  mcp::Server server(**engine);
  mcp::Connection connection{.scope = {.bound_namespace = f.namespace_name, .principal = StdioPrincipal(f),
                                       .fixtures = f.fixtures, .toolsets = f.toolsets},
                             .namespace_argument = f.namespace_name.empty() || !f.allowed.empty()};
  std::cerr << "engram mcp: serving " << flags.db_path
            << (f.namespace_name.empty() ? std::string(" (no namespace bound)") : " namespace " + f.namespace_name)
            << " on stdio\n";
  mcp::ServeStdio(server, connection, std::cin, std::cout);
  // End of input: the client is gone. Exit within a second even when a batch is being extracted.
  if (worker && !worker->Stop(std::chrono::milliseconds(700))) {
    std::cout.flush();
    std::_Exit(0);
  }
  return 0;
}

}  // namespace

void AddMcpCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto f = std::make_shared<McpFlags>();
  CLI::App* cmd = app.add_subcommand("mcp", "Serve MCP over stdio (for desktop assistants and agents)");
  cmd->add_option("--namespace,-n", f->namespace_name, "the namespace of calls that name none")->option_text("NS");
  cmd->add_option("--allow-namespace", f->allowed,
                  "a further namespace calls may name (repeatable; \"*\" = any); default: only --namespace")
      ->option_text("NS");
  cmd->add_option("--toolsets", f->toolsets,
                  "opt-in tool groups to offer besides the default tools (comma-separated): experience — episodes "
                  "and experience recall (docs/experience.md)")
      ->delimiter(',')
      ->check(CLI::IsMember(mcp::KnownToolsets()))
      ->option_text("NAME[,NAME]");
  cmd->add_flag("!--no-worker", f->worker, "do not run the extraction worker in the background");
  cmd->add_option("--worker-poll-ms", f->worker_poll_ms, "how often the worker looks for pending events")
      ->check(CLI::Range(50, 60000));
  cmd->add_flag("--conformance-fixtures", f->fixtures, "serve the conformance suite's fixture tools (tests only)")
      ->group("");
  commands.Add(cmd, [&flags, f] { return RunMcp(flags, *f); });
}

}  // namespace engram::cli
