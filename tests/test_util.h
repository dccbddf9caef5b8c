// tests/test_util.h — helpers shared by the end-to-end tests under tests/.
//
//   TempDir dir;                               // mkdtemp; removed (recursively) on destruction
//   ASSERT_OK(engine->Ingest(input));          // Status or Result<T>; prints the error on failure
//   ASSERT_OK_AND_ASSIGN(auto engine, OpenTestEngine(dir.File("m.db")));
//   CliResult r = RunCli({"--db", db, "stats", "--json"});   // fork/exec of the `engram` binary
//
// Header-only: every tests/**/*_test.cc is its own binary, so there is no library to link.
#ifndef ENGRAM_TESTS_TEST_UTIL_H_
#define ENGRAM_TESTS_TEST_UTIL_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engram/engine.h"
#include "engram/status.h"

extern char** environ;

namespace engram::test {

// ---- Status / Result assertions ----------------------------------------------------------------

inline Status StatusOf(const Status& s) { return s; }
template <typename T>
Status StatusOf(const Result<T>& r) {
  return r.has_value() ? Status::Ok() : r.error();
}

// Predicate-formatter for ASSERT_PRED_FORMAT1: passes when the Status (or Result) is OK.
template <typename T>
::testing::AssertionResult IsOkPredFormat(const char* expr_text, const T& value) {
  Status s = StatusOf(value);
  if (s.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr_text << " is not OK: " << s.ToString();
}

#define ASSERT_OK(expr) ASSERT_PRED_FORMAT1(::engram::test::IsOkPredFormat, expr)
#define EXPECT_OK(expr) EXPECT_PRED_FORMAT1(::engram::test::IsOkPredFormat, expr)

#define ENGRAM_TEST_CONCAT_INNER(a, b) a##b
#define ENGRAM_TEST_CONCAT(a, b) ENGRAM_TEST_CONCAT_INNER(a, b)
// `lhs` = the value of a Result<T> expression; fails the test (fatally) when it holds an error.
#define ASSERT_OK_AND_ASSIGN(lhs, rexpr) \
  ENGRAM_TEST_ASSIGN_IMPL(ENGRAM_TEST_CONCAT(engram_result_, __LINE__), lhs, rexpr)
#define ENGRAM_TEST_ASSIGN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                            \
  ASSERT_OK(tmp);                                \
  lhs = std::move(*tmp)

// ---- files -------------------------------------------------------------------------------------

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it when destroyed.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/engram-test-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp(" << tmpl << "): " << std::strerror(errno);
      return;
    }
    path_ = buf.data();
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // The path of `name` inside the directory (not created).
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Opens (creating) an Engine on `db_path` with default options.
inline Result<std::unique_ptr<Engine>> OpenTestEngine(const std::string& db_path) {
  Options options;
  options.db_path = db_path;
  return Engine::Open(options);
}

// ---- the `engram` binary -----------------------------------------------------------------------

inline std::string EngramBinary() { return std::string(ENGRAM_BINARY_DIR) + "/engram"; }

struct CliResult {
  int exit_code = -1;  // the process's exit status; 128 + N when killed by signal N
  std::string out;     // everything written to stdout
  std::string err;     // everything written to stderr

  // For failure messages: "exit 2\nstdout: ...\nstderr: ...".
  std::string Describe() const {
    return "exit " + std::to_string(exit_code) + "\nstdout: " + out + "\nstderr: " + err;
  }
};

// Environment changes for one RunCli call. The child gets the test's environment with ENGRAM_DB
// removed (so an ENGRAM_DB of whoever runs the tests can never leak in), then these applied in
// order: a value sets the variable, std::nullopt removes it.
using EnvChanges = std::vector<std::pair<std::string, std::optional<std::string>>>;

// Runs `engram args...` (no shell: each element is one argv entry), feeding `stdin_text` to its
// stdin and capturing stdout and stderr through pipes. Never throws; on a failure to start, returns
// exit_code -1 with the reason in `err`.
inline CliResult RunCli(const std::vector<std::string>& args, const std::string& stdin_text = "",
                        const EnvChanges& env = {}) {
  CliResult result;
  const std::string binary = EngramBinary();

  // Everything the child needs is built before fork: only async-signal-safe calls after it.
  std::vector<std::string> argv_storage;
  argv_storage.push_back(binary);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_storage;
  auto remove_var = [&](const std::string& name) {
    const std::string prefix = name + "=";
    std::erase_if(env_storage, [&](const std::string& e) { return e.rfind(prefix, 0) == 0; });
  };
  for (char** e = environ; *e != nullptr; ++e) env_storage.emplace_back(*e);
  remove_var("ENGRAM_DB");
  for (const auto& [name, value] : env) {
    remove_var(name);
    if (value) env_storage.push_back(name + "=" + *value);
  }
  std::vector<char*> envp;
  for (std::string& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0 ||
      pipe2(err_pipe, O_CLOEXEC) != 0) {
    result.err = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  pid_t pid = fork();
  if (pid < 0) {
    result.err = std::string("fork: ") + std::strerror(errno);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) {
      close(fd);
    }
    return result;
  }
  if (pid == 0) {
    // dup2 clears FD_CLOEXEC on the new descriptors; the originals close on exec.
    if (dup2(in_pipe[0], STDIN_FILENO) < 0 || dup2(out_pipe[1], STDOUT_FILENO) < 0 ||
        dup2(err_pipe[1], STDERR_FILENO) < 0) {
      _exit(126);
    }
    execve(binary.c_str(), argv.data(), envp.data());
    static const char kMsg[] = "test_util RunCli: execve failed\n";
    ssize_t ignored = write(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
    (void)ignored;
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);

  // Feed stdin and drain both outputs together, so that no pipe can fill up and deadlock.
  // SIGPIPE (the child exiting without reading stdin) must not kill the test.
  struct sigaction ignore_pipe {};
  struct sigaction old_pipe {};
  ignore_pipe.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore_pipe, &old_pipe);
  int in_fd = in_pipe[1];
  // Non-blocking: poll's POLLOUT promises room for some bytes, not for all of them, and a blocked
  // write of a large stdin would stop the reads of a child that answers as it reads (deadlock).
  fcntl(in_fd, F_SETFL, fcntl(in_fd, F_GETFL) | O_NONBLOCK);
  size_t written = 0;
  if (stdin_text.empty()) {
    close(in_fd);
    in_fd = -1;
  }
  int out_fd = out_pipe[0];
  int err_fd = err_pipe[0];
  char buf[65536];
  while (in_fd >= 0 || out_fd >= 0 || err_fd >= 0) {
    pollfd fds[3];
    nfds_t n = 0;
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    if (err_fd >= 0) fds[n++] = {err_fd, POLLIN, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == in_fd) {
        ssize_t w = write(in_fd, stdin_text.data() + written, stdin_text.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (w < 0 || written == stdin_text.size()) {
          close(in_fd);
          in_fd = -1;
        }
        continue;
      }
      int& fd = fds[i].fd == out_fd ? out_fd : err_fd;
      std::string& sink = fds[i].fd == out_fd ? result.out : result.err;
      ssize_t r = read(fd, buf, sizeof(buf));
      if (r > 0) {
        sink.append(buf, static_cast<size_t>(r));
      } else if (r == 0 || errno != EINTR) {
        close(fd);
        fd = -1;
      }
    }
  }
  sigaction(SIGPIPE, &old_pipe, nullptr);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.err += std::string("\nwaitpid: ") + std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

}  // namespace engram::test

#endif  // ENGRAM_TESTS_TEST_UTIL_H_
