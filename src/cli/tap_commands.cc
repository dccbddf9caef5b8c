// cli/tap_commands.cc — `engram mcp-tap [flags] -- SERVER_COMMAND...` (the stdio tap: the MCP client
// starts it in place of its server) and `engram mcp-tap drain|status|retry-dead|prune|payload` over its
// journal (docs/capture.md).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "capture/capture_delivery.h"
#include "capture/capture_journal.h"
#include "capture/http_tap.h"
#include "capture/stdio_tap.h"
#include "cli/cli_common.h"
#include "server/config.h"
#include "write/event_validation.h"

namespace engram::cli {
namespace {

// The largest payload kept whole in a record: two of them and the record stay well under an
// event's 64 KiB of metadata (write/event_validation.h kMaxMetadataBytes).
constexpr size_t kMaxInlineBytes = 16 * 1024;

struct TapFlags {
  std::string namespace_name;
  std::string session;
  std::string journal;
  size_t inline_bytes = 4096;
  bool no_payloads = false;
  bool async_commit = false;
  int flush_ms = 2000;
  std::vector<std::string> command;
  std::string listen;    // the HTTP face: HOST:PORT
  std::string upstream;  // the HTTP face: the upstream server's URL
  std::string port_file;
};

std::string JournalPath(const GlobalFlags& flags, const TapFlags& tap) {
  if (!tap.journal.empty()) return tap.journal;
  return EngineOptions(flags, OpenMode::kCreate).db_path + ".tap";
}

Status CheckDeliveryFlags(const TapFlags& tap) {
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("namespace", tap.namespace_name, true));
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("session", tap.session, false));
  if (tap.inline_bytes > kMaxInlineBytes) {
    return Status::InvalidArgument(fmt::format("field \"inline_bytes\": at most {}", kMaxInlineBytes));
  }
  if (tap.flush_ms < 0 || tap.flush_ms > 600'000) {
    return Status::InvalidArgument("field \"flush_ms\": 0 to 600000");
  }
  return Status::Ok();
}

capture::DeliveryOptions Delivery(const GlobalFlags& flags, const TapFlags& tap) {
  return {.namespace_name = tap.namespace_name, .fallback_session = tap.session, .journal_path = JournalPath(flags, tap)};
}

// The options both faces take.
void FillTapOptions(const GlobalFlags& flags, const TapFlags& tap, capture::TapOptions* options) {
  options->journal_path = JournalPath(flags, tap);
  options->payloads = {.keep = !tap.no_payloads, .inline_bytes = tap.inline_bytes};
  options->delivery = Delivery(flags, tap);
  options->flush_ms = tap.flush_ms;
  options->commit_before_response = !tap.async_commit;
  options->open_engine = [&flags] { return OpenEngine(flags, OpenMode::kCreate); };
}

void ReportDeadLetters(const capture::TapReport& report, const std::string& journal_path) {
  if (report.delivery.dead > 0 || !report.engine_error.empty()) {
    std::cerr << fmt::format("engram mcp-tap: {} call(s) captured, {} delivered, {} dead letter(s); see `engram "
                             "mcp-tap status --journal {}`\n",
                             report.captured, report.delivery.delivered, report.delivery.dead, journal_path);
  }
}

// `engram mcp-tap --listen HOST:PORT --upstream URL`: the reverse proxy, until SIGINT or SIGTERM.
int RunHttpTap(const GlobalFlags& flags, const TapFlags& tap) {
  if (!tap.command.empty()) {
    return Fail(flags, Status::InvalidArgument("field \"command\": --listen proxies --upstream; give no server command"));
  }
  if (tap.upstream.empty()) return Fail(flags, Status::InvalidArgument("field \"upstream\": is required with --listen"));
  capture::HttpTapOptions options;
  FillTapOptions(flags, tap, &options);
  if (Status st = server::ParseListen(tap.listen, &options.host, &options.port); !st.ok()) return Fail(flags, st);
  options.upstream = tap.upstream;
  auto report = capture::RunHttpTap(options, tap.port_file);
  if (!report) return Fail(flags, report.error());
  ReportDeadLetters(*report, options.journal_path);
  return 0;
}

int RunTap(const GlobalFlags& flags, const TapFlags& tap) {
  if (Status st = CheckDeliveryFlags(tap); !st.ok()) return Fail(flags, st);
  if (!tap.listen.empty()) return RunHttpTap(flags, tap);
  capture::StdioTapOptions options;
  FillTapOptions(flags, tap, &options);
  options.command = tap.command;
  auto report = capture::RunStdioTap(options);
  if (!report) return Fail(flags, report.error());
  ReportDeadLetters(*report, options.journal_path);
  return report->exit_code;
}

int RunDrain(const GlobalFlags& flags, const TapFlags& tap) {
  if (Status st = CheckDeliveryFlags(tap); !st.ok()) return Fail(flags, st);
  auto journal = capture::CaptureJournal::Open(JournalPath(flags, tap));
  if (!journal) return Fail(flags, journal.error());
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) return Fail(flags, engine.error());
  if (auto pruned = capture::PruneForgotten(**engine, **journal); !pruned) return Fail(flags, pruned.error());
  capture::DeliveryReport total;
  while (true) {
    auto step = capture::DeliverDue(**engine, **journal, Delivery(flags, tap), 500);
    if (!step) return Fail(flags, step.error());
    total.delivered += step->delivered;
    total.retried += step->retried;
    total.dead += step->dead;
    if (step->delivered + step->retried + step->dead == 0) break;
  }
  auto counts = (*journal)->Counts();
  if (!counts) return Fail(flags, counts.error());
  nlohmann::ordered_json body = {{"delivered", total.delivered}, {"retried", total.retried}, {"dead", total.dead},
                                 {"pending", counts->pending}};
  if (flags.json) {
    std::cout << body.dump() << "\n";
  } else {
    std::cout << fmt::format("delivered {}, failed and pending {} (retried later), dead letters {}; pending now {}\n",
                             total.delivered, total.retried, total.dead, counts->pending);
  }
  return counts->pending > 0 || total.dead > 0 ? 1 : 0;
}

int RunPrune(const GlobalFlags& flags, const TapFlags& tap) {
  auto journal = capture::CaptureJournal::Open(JournalPath(flags, tap));
  if (!journal) return Fail(flags, journal.error());
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto pruned = capture::PruneForgotten(**engine, **journal);
  if (!pruned) return Fail(flags, pruned.error());
  std::cout << (flags.json ? nlohmann::json({{"forgotten_calls", pruned->forgotten_calls},
                                             {"payloads_deleted", pruned->payloads_deleted}})
                                     .dump() +
                                 "\n"
                           : fmt::format("{} forgotten call(s) held payloads; {} payload(s) deleted\n",
                                         pruned->forgotten_calls, pruned->payloads_deleted));
  return 0;
}

int RunStatus(const GlobalFlags& flags, const TapFlags& tap) {
  auto journal = capture::CaptureJournal::Open(JournalPath(flags, tap));
  if (!journal) return Fail(flags, journal.error());
  auto counts = (*journal)->Counts();
  if (!counts) return Fail(flags, counts.error());
  auto dead = (*journal)->DeadLetters(50);
  if (!dead) return Fail(flags, dead.error());
  nlohmann::ordered_json body = {{"journal", JournalPath(flags, tap)},
                                 {"pending", counts->pending},
                                 {"delivered", counts->delivered},
                                 {"dead", counts->dead},
                                 {"payloads", counts->payloads},
                                 {"payload_bytes", counts->payload_bytes},
                                 {"dead_letters", nlohmann::ordered_json::array()}};
  for (const capture::DeadLetter& d : *dead) {
    body["dead_letters"].push_back(
        {{"capture_id", d.capture_id}, {"tool_name", d.tool_name}, {"attempts", d.attempts}, {"last_error", d.last_error}});
  }
  if (flags.json) {
    std::cout << body.dump() << "\n";
    return 0;
  }
  std::cout << fmt::format("{}: {} pending, {} delivered, {} dead; {} payload(s), {} bytes\n", JournalPath(flags, tap),
                           counts->pending, counts->delivered, counts->dead, counts->payloads, counts->payload_bytes);
  for (const capture::DeadLetter& d : *dead) {
    std::cout << fmt::format("dead {} {} after {} attempt(s): {}\n", d.capture_id, d.tool_name, d.attempts, d.last_error);
  }
  return 0;
}

int RunRetryDead(const GlobalFlags& flags, const TapFlags& tap) {
  auto journal = capture::CaptureJournal::Open(JournalPath(flags, tap));
  if (!journal) return Fail(flags, journal.error());
  auto n = (*journal)->RetryDead();
  if (!n) return Fail(flags, n.error());
  std::cout << (flags.json ? nlohmann::json({{"pending_again", *n}}).dump() + "\n"
                           : fmt::format("{} dead letter(s) pending again (engram mcp-tap drain delivers them)\n", *n));
  return 0;
}

int RunPayload(const GlobalFlags& flags, const TapFlags& tap, const std::string& ref) {
  auto journal = capture::CaptureJournal::Open(JournalPath(flags, tap));
  if (!journal) return Fail(flags, journal.error());
  auto bytes = (*journal)->Payload(ref);
  if (!bytes) return Fail(flags, bytes.error());
  std::cout << *bytes << "\n";
  return 0;
}

void JournalFlag(CLI::App* cmd, TapFlags& tap) {
  cmd->add_option("--journal", tap.journal, "the tap's journal file (default: the database's path + \".tap\")");
}

void DeliveryFlags(CLI::App* cmd, TapFlags& tap) {
  cmd->add_option("--namespace,-n", tap.namespace_name, "the namespace the captured calls go to (required)");
  cmd->add_option("--session", tap.session,
                  "the session of calls whose request names none (_meta baggage engram.session_id, or a "
                  "traceparent); default: mcp-tap-<connection>");
  JournalFlag(cmd, tap);
}

}  // namespace

void AddTapCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto tap = std::make_shared<TapFlags>();
  CLI::App* cmd = app.add_subcommand(
      "mcp-tap", "run an MCP server behind engram: bytes pass through unchanged; each tools/call is journaled and "
                 "stored as an event (docs/capture.md). Usage: engram mcp-tap -n NS -- SERVER_COMMAND... (stdio), or "
                 "engram mcp-tap -n NS --listen HOST:PORT --upstream URL (streamable HTTP)");
  DeliveryFlags(cmd, *tap);
  cmd->add_option("--inline-bytes", tap->inline_bytes,
                  fmt::format("payloads up to this size are kept whole in the record, larger ones by reference in "
                              "the journal (0-{}; default 4096)",
                              kMaxInlineBytes));
  cmd->add_flag("--no-payloads", tap->no_payloads, "keep no payload: summaries, hashes and metadata only");
  cmd->add_flag("--async-commit", tap->async_commit,
                "forward a tools/call response before its record is committed (less latency; a killed tap "
                "loses its last uncommitted calls). Default: committed first, nothing lost");
  cmd->add_option("--flush-ms", tap->flush_ms,
                  "after the server exits, how long delivery may go on (the rest: mcp-tap drain); default 2000");
  cmd->add_option("--listen", tap->listen,
                  "HOST:PORT: run as an HTTP reverse proxy for the streamable-HTTP MCP server at --upstream "
                  "instead of a stdio server (port 0: any free port)");
  cmd->add_option("--upstream", tap->upstream, "with --listen: the upstream MCP server's URL (http://host:port/mcp)");
  cmd->add_option("--port-file", tap->port_file, "with --listen: write the bound port to this file");
  cmd->add_option("command", tap->command, "the server's command and arguments, after --");
  commands.Add(cmd, [&flags, tap] { return RunTap(flags, *tap); });

  CLI::App* drain = cmd->add_subcommand("drain", "deliver the journal's pending records to the database now");
  DeliveryFlags(drain, *tap);
  commands.Add(drain, [&flags, tap] { return RunDrain(flags, *tap); });

  CLI::App* status = cmd->add_subcommand("status", "the journal's pending, delivered and dead records");
  JournalFlag(status, *tap);
  commands.Add(status, [&flags, tap] { return RunStatus(flags, *tap); });

  CLI::App* retry = cmd->add_subcommand("retry-dead", "make the dead letters pending again");
  JournalFlag(retry, *tap);
  commands.Add(retry, [&flags, tap] { return RunRetryDead(flags, *tap); });

  CLI::App* prune = cmd->add_subcommand(
      "prune", "delete the payloads of captured calls whose events were forgotten (also at each tap start and drain)");
  JournalFlag(prune, *tap);
  commands.Add(prune, [&flags, tap] { return RunPrune(flags, *tap); });

  auto ref = std::make_shared<std::string>();
  CLI::App* payload = cmd->add_subcommand("payload", "print a payload kept by reference (sha256:<hex>)");
  payload->add_option("ref", *ref, "the reference, as a record's args_ref or result_ref")->required();
  JournalFlag(payload, *tap);
  commands.Add(payload, [&flags, tap, ref] { return RunPayload(flags, *tap, *ref); });
}

}  // namespace engram::cli
