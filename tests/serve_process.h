// tests/serve_process.h — the real `engram serve` binary on an ephemeral loopback port, for
// end-to-end tests: started with --listen 127.0.0.1:0 --port-file, its stderr (the JSON log) kept
// in a file, stopped with SIGTERM (graceful) or SIGKILL.
#ifndef ENGRAM_TESTS_SERVE_PROCESS_H_
#define ENGRAM_TESTS_SERVE_PROCESS_H_

#include <fcntl.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace engram::test {

class ServeProcess {
 public:
  // `dir` holds the port and log files; `args` go after `serve` (e.g. {"--no-worker"}); without a
  // "--listen" among them the server listens on 127.0.0.1:0.
  ServeProcess(const std::string& db, const std::string& dir, std::vector<std::string> args = {},
               EnvChanges env = {})
      : db_(db), port_file_(dir + "/port." + std::to_string(++counter_)), log_file_(port_file_ + ".log"),
        args_(std::move(args)), env_(std::move(env)) {}
  ~ServeProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  // Starts the server and waits (up to 20 s) for its port. False when it exited or never bound.
  bool Start() {
    std::vector<std::string> argv_s = {EngramBinary(), "--db", db_, "serve", "--port-file", port_file_};
    if (std::find(args_.begin(), args_.end(), "--listen") == args_.end()) {
      argv_s.insert(argv_s.end(), {"--listen", "127.0.0.1:0"});
    }
    argv_s.insert(argv_s.end(), args_.begin(), args_.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_s;
    for (char** e = environ; *e != nullptr; ++e) {
      if (std::string(*e).rfind("ENGRAM_", 0) != 0) env_s.emplace_back(*e);
    }
    for (const auto& [k, v] : env_) {
      if (v) env_s.push_back(k + "=" + *v);
    }
    std::vector<char*> envp;
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);
    int log = open(log_file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(log, STDERR_FILENO);
      dup2(log, STDOUT_FILENO);
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
    close(log);
    for (int i = 0; i < 400; ++i) {
      std::string text = ReadFile(port_file_);
      if (!text.empty() && text.back() == '\n') {
        port_ = std::stoi(text);
        return true;
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        pid_ = -1;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  std::unique_ptr<httplib::Client> Client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
    c->set_read_timeout(30, 0);
    return c;
  }
  int port() const { return port_; }
  std::string Log() const { return ReadFile(log_file_); }
  // The exit code after a failed Start, or after Stop.
  int exit_code() const { return exit_code_; }

  // Sends `sig` and waits for the exit; returns the exit code (128 + signal when killed).
  int Stop(int sig = SIGTERM) {
    if (pid_ <= 0) return exit_code_;
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return exit_code_;
  }

 private:
  static inline int counter_ = 0;
  std::string db_;
  std::string port_file_;
  std::string log_file_;
  std::vector<std::string> args_;
  EnvChanges env_;
  pid_t pid_ = -1;
  int port_ = 0;
  int exit_code_ = -1;
};

}  // namespace engram::test

#endif  // ENGRAM_TESTS_SERVE_PROCESS_H_
