// cli/events_commands.cc — `engram ingest` (events from a JSONL or LoCoMo file) and `engram get`
// (one event or claim by id, or the tombstone of a forgotten one).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "cli/cli_common.h"
#include "codec/json_codec.h"
#include "import/jsonl_import.h"
#include "import/locomo.h"

namespace engram::cli {
namespace {

// ---- ingest ------------------------------------------------------------------------------------
//
// CLI-only: it reads a local file. Every line is validated and stored through Engine::Ingest /
// IngestBatch (import/jsonl_import.h) — the rules the ingest_events capability applies too — with
// the line number in front of the error, progress on a terminal and --keep-going.

struct IngestFlags {
  std::string file;
  std::string format = "jsonl";
  bool keep_going = false;
};

Result<OrderedJson> IngestLocomo(Engine& engine, const std::string& file) {
  auto conversations = import::LoadLocomoFile(file);
  if (!conversations) return Error(conversations.error());
  int64_t stored = 0, duplicates = 0, forgotten = 0;
  for (const auto& conv : *conversations) {
    auto results = engine.IngestBatch(import::ToEventInputs(conv));
    if (!results) return Error(results.error().WithContext(conv.sample_id));
    for (const auto& r : *results) (r.duplicate ? duplicates : r.forgotten ? forgotten : stored) += 1;
  }
  return OrderedJson{{"format", "locomo"}, {"conversations", conversations->size()}, {"stored", stored},
                     {"duplicates", duplicates}, {"forgotten", forgotten}};
}

// A progress bar on stderr for a file over 1 MiB when stderr is a terminal; nullptr otherwise.
std::function<void(uint64_t)> ProgressBar(const std::string& file) {
  std::error_code ec;
  const uint64_t total = std::filesystem::file_size(file, ec);
  if (!isatty(STDERR_FILENO) || ec || total <= (1u << 20)) return nullptr;
  return [total](uint64_t done) {
    int pct = static_cast<int>(100.0 * static_cast<double>(std::min(done, total)) / static_cast<double>(total));
    std::string bar(static_cast<size_t>(pct / 4), '#');
    std::cerr << fmt::format("\r[{:<25}] {:3d}%", bar, pct) << std::flush;
  };
}

Result<OrderedJson> IngestJsonl(Engine& engine, const IngestFlags& ingest) {
  std::ifstream in(ingest.file, std::ios::binary);
  if (!in) return Error(Status::IOError(fmt::format("cannot open {}", ingest.file)));
  import::JsonlImportOptions options;
  options.keep_going = ingest.keep_going;
  options.on_progress = ProgressBar(ingest.file);
  import::JsonlImportReport report;
  Status st = import::ImportJsonl(engine, in, options, &report);
  if (options.on_progress) std::cerr << "\n";
  if (!st.ok()) {
    if (st.code() == StatusCode::kInvalidArgument) {
      std::cerr << fmt::format(
          "engram: stopped at the first bad line; the {} events before it are stored ({} new, {} "
          "already there). Fix the line and run the same command again (stored events are not "
          "duplicated), or pass --keep-going to skip bad lines.\n",
          report.stored + report.duplicates, report.stored, report.duplicates);
    }
    return Error(st);
  }
  for (const auto& e : report.errors) std::cerr << "engram: " << e << "\n";
  return OrderedJson{{"format", "jsonl"}, {"lines", report.lines}, {"stored", report.stored},
                     {"duplicates", report.duplicates}, {"forgotten", report.forgotten}, {"errors", report.errors}};
}

void PrintIngestText(const OrderedJson& summary) {
  std::cout << fmt::format("stored {} events, {} duplicates skipped", summary["stored"].get<int64_t>(),
                           summary["duplicates"].get<int64_t>());
  if (summary["forgotten"].get<int64_t>() > 0) {
    std::cout << fmt::format(", {} forgotten (not stored; see `engram tombstones`)", summary["forgotten"].get<int64_t>());
  }
  if (summary.contains("errors") && !summary["errors"].empty()) {
    std::cout << fmt::format(", {} bad lines skipped", summary["errors"].size());
  }
  std::cout << "\n";
}

int RunIngest(const GlobalFlags& flags, const IngestFlags& ingest) {
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) return Fail(flags, engine.error());
  auto summary = ingest.format == "locomo" ? IngestLocomo(**engine, ingest.file) : IngestJsonl(**engine, ingest);
  if (!summary) return Fail(flags, summary.error());
  if (flags.json) {
    std::cout << Dump(*summary) << "\n";
  } else {
    PrintIngestText(*summary);
  }
  const bool skipped = summary->contains("errors") && !(*summary)["errors"].empty();
  return skipped ? ExitCodeFor(StatusCode::kInvalidArgument) : 0;
}

// ---- get ---------------------------------------------------------------------------------------

// Any id a write returned: an event (get_event) or a claim (get_claim) of whichever namespace, or —
// once forgotten — its newest tombstone (audit_trail; B14: metadata only, never the content).
// Printed as JSON either way: one line with --json, indented without.
Result<OrderedJson> GetAnything(Engine& engine, const std::string& id) {
  auto ns = NamespaceOfId(engine, id);
  if (ns) {
    const bool event = engine.GetEvent(id).has_value();
    auto reply = Call(engine, event ? "get_event" : "get_claim", {{"namespace", *ns}, {"id", id}});
    if (!reply) return Error(reply.error());
    return reply->body;
  }
  if (ns.error().code() != StatusCode::kNotFound) return Error(ns.error());
  auto audit = Call(engine, "audit_trail", {{"id", id}});
  if (!audit && audit.error().code() != StatusCode::kNotFound) return Error(audit.error());
  if (!audit || audit->body["tombstones"].empty()) {
    return Error(Status::NotFound(fmt::format("no event or claim with id \"{}\"", id)));
  }
  return OrderedJson{{"id", id}, {"forgotten", true}, {"tombstone", audit->body["tombstones"][0]}};
}

int RunGet(const GlobalFlags& flags, const std::string& id) {
  if (Status st = Validate("get_event", {{"namespace", kNamespaceOfTheId}, {"id", id}}); !st.ok()) {
    return Fail(flags, st);
  }
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto got = GetAnything(**engine, id);
  if (!got) return Fail(flags, got.error());
  std::cout << Dump(*got, flags.json ? -1 : 2) << "\n";
  return 0;
}

}  // namespace

void AddEventsCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto ingest = std::make_shared<IngestFlags>();
  auto* ingest_cmd = app.add_subcommand("ingest", "store events from a file");
  ingest_cmd->add_option("file", ingest->file, "input file")->required();
  ingest_cmd->add_option("--format", ingest->format, "jsonl (one event per line) or locomo")
      ->check(CLI::IsMember({"jsonl", "locomo"}));
  ingest_cmd->add_flag("--keep-going", ingest->keep_going, "skip bad lines instead of stopping at the first");
  commands.Add(ingest_cmd, [&flags, ingest] { return RunIngest(flags, *ingest); });

  auto id = std::make_shared<std::string>();
  auto* get_cmd = app.add_subcommand("get", "show one event or claim by id (a forgotten id: its tombstone)");
  get_cmd->add_option("id", *id, "event or claim id")->required();
  commands.Add(get_cmd, [&flags, id] { return RunGet(flags, *id); });
}

}  // namespace engram::cli
