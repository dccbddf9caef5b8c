// cli/hermes_commands.cc — `engram hermes install` and `engram import hermes`.
//
// `engram import hermes` reads a Hermes home's state.db (read-only) and memories/ into a namespace
// (import/hermes_import.h; docs/hermes.md "Importing a Hermes home"). CLI-only, like `ingest`: it
// reads local files.
//
// `engram hermes install` writes the Hermes memory provider plugin
// (integrations/hermes/, compiled into this binary: cli/hermes_plugin_data.h) into
// $HERMES_HOME/plugins/engram/ (docs/hermes.md). The folder is written beside the target, each file
// fsync'd, then swapped in with one rename (renameat2 RENAME_EXCHANGE over an older install), so
// Hermes never loads a half-written plugin. When the Hermes home has no engram/config.json yet, it
// writes one naming this binary as `engram_bin` (the plugin starts `engram serve` with it when no
// url is configured).
#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_common.h"
#include "cli/hermes_plugin_data.h"
#include "codec/json_codec.h"
#include "import/hermes_import.h"

namespace engram::cli {
namespace {

namespace fs = std::filesystem;

struct HermesFlags {
  std::string home;
  std::string engram_bin;
  bool no_config = false;
};

Status IoError(const std::string& what, const fs::path& path, int err) {
  return Status::IOError(fmt::format("{} {}: {}", what, path.string(), std::strerror(err)));
}

Status FsyncPath(const fs::path& path, bool directory) {
  int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return IoError("open", path, errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  return rc == 0 ? Status::Ok() : IoError("fsync", path, err);
}

// Writes `text` to a new file `path` (mode `mode`) and fsyncs it.
Status WriteSynced(const fs::path& path, std::string_view text, mode_t mode) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return IoError("create", path, errno);
  size_t off = 0;
  while (off < text.size()) {
    ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return IoError("write", path, err);
    }
    off += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return IoError("fsync", path, err);
  }
  return ::close(fd) == 0 ? Status::Ok() : IoError("close", path, errno);
}

// Writes every embedded file under `dir` (which must not exist), fsync'd, folders included.
Status WritePlugin(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError(fmt::format("create {}: {}", dir.string(), ec.message()));
  std::set<fs::path> folders = {dir};
  for (const HermesPluginFile& f : HermesPluginFiles()) {
    const fs::path path = dir / fs::path(std::string(f.path));
    fs::create_directories(path.parent_path(), ec);
    if (ec) return Status::IOError(fmt::format("create {}: {}", path.parent_path().string(), ec.message()));
    folders.insert(path.parent_path());
    ENGRAM_RETURN_IF_ERROR(WriteSynced(path, f.text, 0644));
  }
  for (const fs::path& folder : folders) ENGRAM_RETURN_IF_ERROR(FsyncPath(folder, true));
  return Status::Ok();
}

// Puts `staging` at `target` in one step: an exchange when `target` exists (the old install ends up
// at `staging` and is removed), a rename otherwise. Falls back to two renames on a file system
// without RENAME_EXCHANGE.
Status SwapIn(const fs::path& staging, const fs::path& target) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(target))) {
    if (::rename(staging.c_str(), target.c_str()) != 0) return IoError("rename to", target, errno);
    return Status::Ok();
  }
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS) return IoError("exchange with", target, errno);
    const fs::path old = target.parent_path() / fmt::format(".engram.old-{}", ::getpid());
    fs::remove_all(old, ec);
    if (::rename(target.c_str(), old.c_str()) != 0) return IoError("rename", target, errno);
    if (::rename(staging.c_str(), target.c_str()) != 0) return IoError("rename to", target, errno);
    fs::remove_all(old, ec);
    return Status::Ok();
  }
  fs::remove_all(staging, ec);  // the previous install
  return Status::Ok();
}

// This binary's path (what the plugin runs as `engram serve`).
std::string SelfPath(const std::string& flag) {
  if (!flag.empty()) return fs::absolute(flag).lexically_normal().string();
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.string();
}

// $HOME/engram/config.json naming `engram_bin`, when the file does not exist. Returns whether it
// was written.
Result<bool> WriteDefaultConfig(const fs::path& home, const std::string& engram_bin) {
  const fs::path dir = home / "engram";
  const fs::path path = dir / "config.json";
  std::error_code ec;
  if (fs::exists(fs::symlink_status(path)) || engram_bin.empty()) return false;
  fs::create_directories(dir, ec);
  if (ec) return Error(Status::IOError(fmt::format("create {}: {}", dir.string(), ec.message())));
  const fs::path tmp = dir / fmt::format(".config.json.{}", ::getpid());
  fs::remove(tmp, ec);
  OrderedJson config{{"engram_bin", engram_bin}, {"namespace", "hermes"}};
  ENGRAM_RETURN_IF_ERROR(WriteSynced(tmp, config.dump(2) + "\n", 0600));
  // link(2) refuses an existing name: a config.json written meanwhile is kept.
  if (::link(tmp.c_str(), path.c_str()) != 0 && errno != EEXIST) {
    int err = errno;
    fs::remove(tmp, ec);
    return Error(IoError("link", path, err));
  }
  fs::remove(tmp, ec);
  ENGRAM_RETURN_IF_ERROR(FsyncPath(dir, true));
  return true;
}

int RunHermesInstall(const GlobalFlags& flags, const HermesFlags& hf) {
  auto home = import::ResolveHermesHome(hf.home);
  if (!home) return Fail(flags, home.error());
  const fs::path plugins = fs::absolute(*home).lexically_normal() / "plugins";
  const fs::path target = plugins / "engram";
  std::error_code ec;
  fs::create_directories(plugins, ec);
  if (ec) return Fail(flags, Status::IOError(fmt::format("create {}: {}", plugins.string(), ec.message())));
  const fs::path staging = plugins / fmt::format(".engram.install-{}", ::getpid());
  fs::remove_all(staging, ec);
  Status st = WritePlugin(staging);
  if (st.ok()) st = SwapIn(staging, target);
  if (st.ok()) st = FsyncPath(plugins, true);
  if (!st.ok()) {
    fs::remove_all(staging, ec);
    return Fail(flags, st);
  }
  const std::string engram_bin = SelfPath(hf.engram_bin);
  bool wrote_config = false;
  if (!hf.no_config) {
    auto wrote = WriteDefaultConfig(plugins.parent_path(), engram_bin);
    if (!wrote) return Fail(flags, wrote.error());
    wrote_config = *wrote;
  }
  const fs::path config = plugins.parent_path() / "engram" / "config.json";
  const char* env_home = std::getenv("HERMES_HOME");
  const bool default_home = hf.home.empty() || (env_home != nullptr && fs::path(env_home) == fs::path(*home));
  const std::string prefix = default_home ? "" : fmt::format("HERMES_HOME={} ", plugins.parent_path().string());
  const std::string next = prefix + "hermes config set memory.provider engram";
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"plugin_dir", target.string()},
                                  {"files", HermesPluginFiles().size()},
                                  {"config", config.string()},
                                  {"config_written", wrote_config},
                                  {"next", next}})
              << "\n";
    return 0;
  }
  std::cout << fmt::format("installed the engram memory provider in {} ({} files)\n", target.string(),
                           HermesPluginFiles().size());
  if (wrote_config) {
    std::cout << fmt::format("wrote {}: engram_bin {} (with no url, the provider starts engram serve on {})\n",
                             config.string(), engram_bin, (config.parent_path() / "engram.db").string());
  } else {
    std::cout << fmt::format("kept {}\n", config.string());
  }
  std::cout << "next:\n  " << next << "\n"
            << fmt::format("  (to use a running engram serve, set \"url\" and \"api_key\" in {})\n", config.string());
  return 0;
}

// ---- import hermes ---------------------------------------------------------------------------

struct ImportHermesFlags {
  std::string home;
  std::string state_db;
  std::string memories;
  std::string namespace_name = "hermes";
};

OrderedJson HermesImportReportToJson(const import::HermesImportReport& r) {
  OrderedJson state = nullptr;
  if (!r.state_db.empty()) {
    state = OrderedJson{{"path", r.state_db},
                        {"opened", r.opened},
                        {"schema_version", r.schema_version},
                        {"missing_columns", r.missing_columns}};
  }
  OrderedJson refused = OrderedJson::array();
  for (const auto& m : r.refused) {
    refused.push_back(OrderedJson{{"session_id", m.session_id}, {"message_id", m.message_id}, {"reason", m.reason}});
  }
  OrderedJson curated = OrderedJson::array();
  for (const auto& c : r.curated) {
    OrderedJson entries = OrderedJson::array();
    for (const auto& [entry, reason] : c.refused) entries.push_back(OrderedJson{{"entry", entry}, {"reason", reason}});
    curated.push_back(OrderedJson{{"target", c.target},
                                  {"file", c.file},
                                  {"entries", c.entries},
                                  {"added", c.added},
                                  {"already_present", c.already_present},
                                  {"refused", std::move(entries)},
                                  {"error", c.error}});
  }
  OrderedJson roles = OrderedJson::object();
  for (const auto& [role, n] : r.skipped_roles) roles[role] = n;
  return OrderedJson{{"namespace", r.namespace_name},
                     {"state_db", std::move(state)},
                     {"sessions", r.sessions},
                     {"messages", r.messages},
                     {"events", {{"imported", r.events_imported},
                                 {"already_present", r.events_already_present},
                                 {"forgotten", r.events_forgotten}}},
                     {"skipped",
                      {{"rewound", r.skipped_rewound}, {"empty", r.skipped_empty}, {"roles", std::move(roles)}}},
                     {"refused", std::move(refused)},
                     {"rereads", r.rereads},
                     {"curated", std::move(curated)},
                     {"notes", r.notes}};
}

// At most this many refusals and notes of each kind in the text (--json lists them all).
constexpr size_t kTextListLimit = 20;

void PrintHermesImportText(const OrderedJson& r) {
  auto more = [](size_t shown, size_t total) {
    if (total > shown) std::cout << fmt::format("    ... and {} more (--json lists them all)\n", total - shown);
  };
  if (!r["state_db"].is_null()) {
    const OrderedJson& db = r["state_db"];
    std::cout << fmt::format("{} (schema v{}, opened {})\n", db["path"].get<std::string>(),
                             db["schema_version"].get<int64_t>(), db["opened"].get<std::string>());
    if (!db["missing_columns"].empty()) {
      std::string list;
      for (const OrderedJson& c : db["missing_columns"]) list += (list.empty() ? "" : ", ") + c.get<std::string>();
      std::cout << "  an older schema without " << list << "\n";
    }
    const OrderedJson& ev = r["events"];
    std::cout << fmt::format("  {} sessions, {} messages: {} events imported, {} already present",
                             r["sessions"].get<int64_t>(), r["messages"].get<int64_t>(), ev["imported"].get<int64_t>(),
                             ev["already_present"].get<int64_t>());
    if (ev["forgotten"].get<int64_t>() > 0) {
      std::cout << fmt::format(", {} forgotten (not stored; see `engram tombstones`)", ev["forgotten"].get<int64_t>());
    }
    std::cout << "\n";
    const OrderedJson& sk = r["skipped"];
    std::cout << fmt::format("  skipped: {} rewound, {} without text", sk["rewound"].get<int64_t>(),
                             sk["empty"].get<int64_t>());
    for (const auto& [role, n] : sk["roles"].items()) std::cout << fmt::format(", {} {} rows", n.get<int64_t>(), role);
    std::cout << "\n";
    const OrderedJson& refused = r["refused"];
    if (!refused.empty()) std::cout << fmt::format("  refused {} messages:\n", refused.size());
    for (size_t i = 0; i < refused.size() && i < kTextListLimit; ++i) {
      std::cout << fmt::format("    session {}, message {}: {}\n", refused[i]["session_id"].get<std::string>(),
                               refused[i]["message_id"].get<int64_t>(), refused[i]["reason"].get<std::string>());
    }
    more(kTextListLimit, refused.size());
  }
  if (!r["curated"].empty()) {
    std::cout << fmt::format("curated memory of namespace {}:\n", r["namespace"].get<std::string>());
  }
  for (const OrderedJson& c : r["curated"]) {
    const std::string file = c["file"].get<std::string>();
    if (file.empty()) {
      std::cout << fmt::format("  {}: no file\n", c["target"].get<std::string>());
      continue;
    }
    if (!c["error"].get<std::string>().empty()) {
      std::cout << fmt::format("  {} ({}): not read: {}\n", c["target"].get<std::string>(), file,
                               c["error"].get<std::string>());
      continue;
    }
    const int64_t entries = c["entries"].get<int64_t>();
    std::cout << fmt::format("  {} ({}): {} {}: {} added, {} already present", c["target"].get<std::string>(), file,
                             entries, entries == 1 ? "entry" : "entries", c["added"].get<int64_t>(),
                             c["already_present"].get<int64_t>());
    if (!c["refused"].empty()) std::cout << fmt::format(", {} refused", c["refused"].size());
    std::cout << "\n";
    for (const OrderedJson& e : c["refused"]) {
      std::cout << fmt::format("    \"{}\": {}\n", e["entry"].get<std::string>(), e["reason"].get<std::string>());
    }
  }
  const OrderedJson& notes = r["notes"];
  for (size_t i = 0; i < notes.size() && i < kTextListLimit; ++i) {
    std::cout << "note: " << notes[i].get<std::string>() << "\n";
  }
  if (notes.size() > kTextListLimit) {
    std::cout << fmt::format("note: ... and {} more (--json lists them all)\n", notes.size() - kTextListLimit);
  }
}

// Something readable was not imported: a refused message or curated entry, an unreadable file.
bool AnythingRefused(const import::HermesImportReport& r) {
  if (!r.refused.empty()) return true;
  return std::any_of(r.curated.begin(), r.curated.end(),
                     [](const import::HermesCuratedReport& c) { return !c.refused.empty() || !c.error.empty(); });
}

int RunImportHermes(const GlobalFlags& flags, const ImportHermesFlags& hf) {
  import::HermesImportOptions options;
  options.namespace_name = hf.namespace_name;
  options.state_db = hf.state_db;
  options.memories_dir = hf.memories;
  std::vector<std::string> notes;
  // --home (or, without --state-db and --memories, the default home) fills what was not given.
  if (!hf.home.empty() || (hf.state_db.empty() && hf.memories.empty())) {
    auto home = import::ResolveHermesHome(hf.home);
    if (!home) return Fail(flags, home.error());
    std::error_code ec;
    if (!fs::is_directory(*home, ec)) {
      return Fail(flags, Status::NotFound(fmt::format(
          "no Hermes home at \"{}\" (--home, else $HERMES_HOME, else ~/.hermes)", *home)));
    }
    if (options.state_db.empty()) options.state_db = (fs::path(*home) / "state.db").string();
    if (options.memories_dir.empty()) {
      const fs::path memories = fs::path(*home) / "memories";
      if (fs::is_directory(memories, ec)) {
        options.memories_dir = memories.string();
      } else {
        notes.push_back(fmt::format("no {}: no curated memory to import", memories.string()));
      }
    }
  }
  if (Status st = Validate("read_curated", {{"namespace", options.namespace_name}}); !st.ok()) return Fail(flags, st);
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) return Fail(flags, engine.error());
  import::HermesImportReport report;
  report.notes = std::move(notes);
  if (Status st = import::ImportHermes(**engine, options, &report); !st.ok()) {
    if (report.events_imported + report.events_already_present > 0) {
      std::cerr << fmt::format(
          "engram: stopped: {} events were imported before the error ({} already there); running the same command "
          "again imports nothing twice\n",
          report.events_imported + report.events_already_present, report.events_already_present);
    }
    return Fail(flags, st);
  }
  const OrderedJson body = HermesImportReportToJson(report);
  if (flags.json) {
    std::cout << Dump(body) << "\n";
  } else {
    PrintHermesImportText(body);
  }
  return AnythingRefused(report) ? ExitCodeFor(StatusCode::kInvalidArgument) : 0;
}

}  // namespace

void AddImportHermesCommand(CLI::App& import, const GlobalFlags& flags, Commands& commands) {
  auto hf = std::make_shared<ImportHermesFlags>();
  CLI::App* cmd = import.add_subcommand(
      "hermes", "import a Hermes Agent home: state.db's sessions and messages as events (read-only), "
                "memories/MEMORY.md and USER.md as curated memory; a re-run imports nothing twice (docs/hermes.md)");
  cmd->add_option("--home", hf->home, "the Hermes home (default: $HERMES_HOME, else ~/.hermes)")->option_text("PATH");
  cmd->add_option("--state-db", hf->state_db, "a state.db (instead of HOME/state.db; alone: no memories)")
      ->option_text("PATH");
  cmd->add_option("--memories", hf->memories, "a memories folder (instead of HOME/memories; alone: no sessions)")
      ->option_text("DIR");
  cmd->add_option("--namespace,-n", hf->namespace_name, "the namespace to import into (default: hermes)");
  commands.Add(cmd, [&flags, hf] { return RunImportHermes(flags, *hf); });
}

void AddHermesCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto hf = std::make_shared<HermesFlags>();
  CLI::App* hermes = app.add_subcommand("hermes", "Hermes Agent integration (docs/hermes.md)");
  hermes->require_subcommand(1);
  CLI::App* install = hermes->add_subcommand(
      "install", "install the engram memory provider into a Hermes home (plugins/engram/)");
  install->add_option("--home", hf->home, "the Hermes home (default: $HERMES_HOME, else ~/.hermes)")
      ->option_text("PATH");
  install->add_option("--engram-bin", hf->engram_bin,
                      "the engram binary the provider starts as a local server (default: this one)")
      ->option_text("PATH");
  install->add_flag("--no-config", hf->no_config, "do not write engram/config.json when it is missing");
  commands.Add(install, [&flags, hf] { return RunHermesInstall(flags, *hf); });
}

}  // namespace engram::cli
