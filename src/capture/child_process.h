// capture/child_process.h — a program started with its stdin and stdout on pipes to this process
// (its stderr is this process's), for the stdio tap.
#ifndef ENGRAM_CAPTURE_CHILD_PROCESS_H_
#define ENGRAM_CAPTURE_CHILD_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "engram/status.h"

namespace engram::capture {

class ChildProcess {
 public:
  // Starts `command` (command[0] looked up in PATH, posix_spawnp). Errors: kInvalidArgument (empty
  // command), kNotFound (no such program), kIOError (pipes or spawn failed).
  static Result<ChildProcess> Start(const std::vector<std::string>& command);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ChildProcess(const ChildProcess&) = delete;
  ~ChildProcess();

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return stdin_fd_; }    // write end: what the child reads
  int stdout_fd() const { return stdout_fd_; }  // read end: what the child writes
  // Closes the child's stdin (it sees end of file). Idempotent.
  void CloseStdin();
  // Waits for the child to exit; its exit code, or 128 + the signal that ended it.
  int Wait();

 private:
  ChildProcess(pid_t pid, int stdin_fd, int stdout_fd) : pid_(pid), stdin_fd_(stdin_fd), stdout_fd_(stdout_fd) {}
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
};

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_CHILD_PROCESS_H_
