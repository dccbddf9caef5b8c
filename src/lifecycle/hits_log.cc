#include "lifecycle/hits_log.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace engram::lifecycle {
namespace {

Status Errno(const std::string& what, const std::string& path) {
  return Status::IOError(fmt::format("hits log: {} \"{}\": {}", what, path, std::strerror(errno)));
}

bool SameFile(int fd, const std::string& path) {
  struct stat open_file {}, named {};
  return ::fstat(fd, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 &&
         open_file.st_ino == named.st_ino && open_file.st_dev == named.st_dev;
}

}  // namespace

Status HitsLog::Append(const AccessBatch& batch) const {
  if (batch.pending() == 0) return Status::Ok();
  const std::string text = batch.Serialize();
  // A fold renames the log between our open and our lock at most once in a while: try again then.
  for (int attempt = 0; attempt < 3; ++attempt) {
    int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return Errno("open", path_);
    ::flock(fd, LOCK_SH);
    if (!SameFile(fd, path_)) {
      ::close(fd);
      continue;
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > kMaxBytes) {
      ::close(fd);
      return Status::Ok();  // full until the next pass: these hits are dropped
    }
    const ssize_t written = ::write(fd, text.data(), text.size());
    Status result = written == static_cast<ssize_t>(text.size()) ? Status::Ok() : Errno("write", path_);
    ::close(fd);
    return result;
  }
  return Status::Ok();  // folds kept racing us: drop these hits
}

Result<int64_t> HitsLog::TakeInto(AccessBatch& batch) const {
  static std::atomic<int> counter{0};
  const std::string taken = fmt::format("{}.folding-{}-{}", path_, ::getpid(), counter++);
  if (::rename(path_.c_str(), taken.c_str()) != 0) {
    if (errno == ENOENT) return int64_t{0};
    return Error(Errno("rename", path_));
  }
  int fd = ::open(taken.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error(Errno("open", taken));
  ::flock(fd, LOCK_EX);  // every append that opened the file before the rename has finished
  std::string text;
  char buf[1 << 16];
  ssize_t n = 0;
  while ((n = ::read(fd, buf, sizeof(buf))) > 0) text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  ::unlink(taken.c_str());
  if (n < 0) return Error(Errno("read", taken));
  return batch.Parse(text);
}

}  // namespace engram::lifecycle
