// cli/hermes_commands.cc — `engram hermes install`: writes the Hermes memory provider plugin
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

// --home, else $HERMES_HOME, else ~/.hermes (Hermes's own order).
Result<fs::path> HermesHome(const std::string& flag) {
  if (!flag.empty()) return fs::path(flag);
  if (const char* env = std::getenv("HERMES_HOME"); env != nullptr && *env != '\0') return fs::path(env);
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return fs::path(home) / ".hermes";
  return Error(Status::InvalidArgument("--home: not given, and neither $HERMES_HOME nor $HOME is set"));
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
  auto home = HermesHome(hf.home);
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
  const bool default_home = hf.home.empty() || (env_home != nullptr && fs::path(env_home) == *home);
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

}  // namespace

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
