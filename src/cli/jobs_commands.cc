// cli/jobs_commands.cc — `engram process` (the process capability, drained), `engram worker` (a
// loop of process and maintain until a signal) and `engram jobs` (list_jobs; `jobs retry`:
// retry_jobs).
#include <chrono>
#include <csignal>
#include <fmt/format.h>
#include <iostream>
#include <thread>

#include "cli/cli_common.h"
#include "codec/json_codec.h"

namespace engram::cli {
namespace {

// ---- worker ------------------------------------------------------------------------------------

volatile std::sig_atomic_t g_stop = 0;
extern "C" void OnStopSignal(int) { g_stop = 1; }

struct WorkerFlags {
  int poll_ms = 1000;
  bool once = false;
  int64_t maintain_every_ms = 600000;
};

// One capability call of the worker loop: its report on stdout (a JSON line with --json), an
// error on stderr — the loop goes on either way. `quiet` reports nothing (a poll that found no job).
void WorkerStep(const GlobalFlags& flags, Engine& engine, std::string_view capability, const nlohmann::json& args,
                void (*text)(const OrderedJson&), bool (*quiet)(const OrderedJson&)) {
  auto reply = Call(engine, capability, args);
  if (!reply) {
    std::cerr << "engram worker: " << (capability == "maintain" ? "maintenance: " : "") << reply.error().ToString()
              << "\n";
    return;
  }
  if (quiet != nullptr && quiet(reply->body)) return;
  if (flags.json) {
    std::cout << Dump(reply->body) << std::endl;
  } else {
    text(reply->body);
  }
}

// The worker drains extraction jobs and, every maintain_every_ms (0 = never), runs a maintenance
// pass over every namespace (the first one at start). SIGINT and SIGTERM stop it between polls.
int RunWorker(const GlobalFlags& flags, const WorkerFlags& wf) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  std::cerr << "engram worker: processing extraction jobs (Ctrl-C to stop)\n";
  using Clock = std::chrono::steady_clock;
  auto last_maintain = Clock::time_point::min();
  while (!g_stop) {
    const auto now = Clock::now();
    if (wf.maintain_every_ms > 0 && (last_maintain == Clock::time_point::min() ||
                                     now - last_maintain >= std::chrono::milliseconds(wf.maintain_every_ms))) {
      last_maintain = now;
      WorkerStep(flags, **engine, "maintain", {{"all_namespaces", true}}, PrintMaintainText, nullptr);
    }
    WorkerStep(flags, **engine, "process", {{"drain", false}}, PrintProcessText,
               [](const OrderedJson& r) { return r["batches"].get<int64_t>() == 0; });
    if (wf.once) break;
    for (int waited = 0; waited < wf.poll_ms && !g_stop; waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  return 0;
}

void AddWorker(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto wf = std::make_shared<WorkerFlags>();
  auto* cmd = app.add_subcommand("worker", "extract claims continuously until stopped");
  cmd->add_option("--poll-ms", wf->poll_ms, "wait between polls, ms")->check(CLI::Range(10, 600000));
  cmd->add_flag("--once", wf->once, "one poll, then exit");
  cmd->add_option("--maintain-every-ms", wf->maintain_every_ms,
                  "run a maintenance pass over every namespace this often, ms (0 = never; default 10 min)")
      ->check(CLI::Range(int64_t{0}, int64_t{86400000}));
  commands.Add(cmd, [&flags, wf] { return RunWorker(flags, *wf); });
}

// ---- process, jobs -----------------------------------------------------------------------------

void PrintJobsText(const OrderedJson& body) {
  if (body["items"].empty()) std::cout << "no jobs\n";
  for (const OrderedJson& j : body["items"]) {
    std::string lease;
    if (j.contains("lease")) {
      const OrderedJson& l = j["lease"];
      const std::string owner = l["owner"].get<std::string>();
      lease = fmt::format("  by {} (owner {}) until {}{}", owner.empty() ? "an unnamed owner" : owner,
                          l["owner_alive"].get<std::string>(), l["expires_at"].get<std::string>(),
                          l["stale"].get<bool>() ? ", stale" : "");
    }
    const std::string error = j["last_error"].get<std::string>();
    std::cout << fmt::format("{:6d} {} {:8s} {}/{} event {} attempts {}{}{}\n", j["id"].get<int64_t>(),
                             j["kind"].get<std::string>(), j["status"].get<std::string>(),
                             j["namespace"].get<std::string>(), j["session_id"].get<std::string>(),
                             j["event_id"].get<std::string>(), j["attempts"].get<int64_t>(), lease,
                             error.empty() ? "" : "  error: " + error);
  }
  PrintNextPage(body);
}

void PrintRetriedText(const OrderedJson& r) {
  std::cout << r["retried"].get<int64_t>() << " job(s) back in the queue; run `engram process`\n";
}

void AddJobs(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto process = AddCapabilityCommand(app, flags, commands, "process",
                                      "extract claims from every pending event, then exit", "process", {},
                                      OpenMode::kReadWrite, {.text = PrintProcessText});
  process.args->Default("drain", true);
  auto jobs = AddCapabilityCommand(app, flags, commands, "jobs", "extraction jobs that are pending, leased or failed",
                                   "list_jobs", {"--status", "--limit,-k", "--cursor"}, OpenMode::kReadOnly,
                                   {.text = PrintJobsText});
  AddCapabilityCommand(*jobs.command, flags, commands, "retry",
                       "put failed jobs and stale leases (owner gone or lease expired) back in the queue",
                       "retry_jobs", {"id"}, OpenMode::kReadWrite, {.text = PrintRetriedText});
}

}  // namespace

void AddJobsCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  AddWorker(app, flags, commands);
  AddJobs(app, flags, commands);
}

}  // namespace engram::cli
