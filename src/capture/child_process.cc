// capture/child_process.cc — see child_process.h.
#include "capture/child_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace engram::capture {

Result<ChildProcess> ChildProcess::Start(const std::vector<std::string>& command) {
  if (command.empty() || command[0].empty()) {
    return Error(Status::InvalidArgument("no server command: give it after --"));
  }
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return Error(Status::IOError(fmt::format("pipe: {}", std::strerror(errno))));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return Error(Status::IOError(fmt::format("pipe: {}", std::strerror(errno))));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);  // dup2 clears FD_CLOEXEC on 0 and 1
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    const std::string why = fmt::format("cannot start the server \"{}\": {}", command[0], std::strerror(rc));
    return Error(rc == ENOENT ? Status::NotFound(why) : Status::IOError(why));
  }
  return ChildProcess(pid, in[1], out[0]);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(other.pid_), stdin_fd_(other.stdin_fd_), stdout_fd_(other.stdout_fd_) {
  other.pid_ = -1;
  other.stdin_fd_ = -1;
  other.stdout_fd_ = -1;
}

ChildProcess::~ChildProcess() {
  CloseStdin();
  if (stdout_fd_ >= 0) close(stdout_fd_);
  if (pid_ > 0) Wait();
}

void ChildProcess::CloseStdin() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  stdin_fd_ = -1;
}

int ChildProcess::Wait() {
  if (pid_ <= 0) return -1;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace engram::capture
