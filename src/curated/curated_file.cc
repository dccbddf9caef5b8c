#include "curated/curated_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

#include "util/hash.h"
#include "util/utf8.h"

namespace engram::curated {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// The byte width of the white space at the start (or the end) of `s`, 0 when there is none.
size_t SpaceWidth(std::string_view s, bool at_end) {
  static constexpr std::string_view kSpaces[] = {" ", "\t", "\n", "\r", "\f", "\v", "\xC2\xA0", "\xE3\x80\x80"};
  for (std::string_view ws : kSpaces) {
    if (s.size() < ws.size()) continue;
    if ((at_end ? s.substr(s.size() - ws.size()) : s.substr(0, ws.size())) == ws) return ws.size();
  }
  return 0;
}

Status ErrnoError(std::string_view what, const std::string& path) {
  return Status::IOError(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

// The folder of `path` ("." when it names none).
std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The file a write replaces: `path` itself, or the file its symlink points at.
std::string RealTarget(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return path;
  return resolved;
}

Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("cannot write", path);
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

}  // namespace

std::string StripSpace(std::string_view text) {
  while (size_t w = SpaceWidth(text, false)) text.remove_prefix(w);
  while (size_t w = SpaceWidth(text, true)) text.remove_suffix(w);
  return std::string(text);
}

std::vector<std::string> ParseEntries(std::string_view text) {
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  std::vector<std::string> entries;
  std::set<std::string> seen;
  while (true) {
    const size_t at = text.find(kEntryDelimiter);
    std::string entry = StripSpace(text.substr(0, at));
    if (!entry.empty() && seen.insert(entry).second) entries.push_back(std::move(entry));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + kEntryDelimiter.size());
  }
  return entries;
}

std::string JoinEntries(const std::vector<std::string>& entries) {
  std::string out;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out += kEntryDelimiter;
    out += entries[i];
  }
  return out;
}

int64_t UsageChars(const std::vector<std::string>& entries) {
  return static_cast<int64_t>(CodePointCount(JoinEntries(entries)));
}

Result<FileRead> ReadFile(const std::string& path) {
  FileRead read;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return read;
    return Error(Status::FailedPrecondition(
        fmt::format("refusing to change {}: it exists but cannot be read ({}); nothing was changed",
                    path, std::strerror(errno))));
  }
  read.exists = true;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int saved = errno;
      ::close(fd);
      return Error(Status::FailedPrecondition(fmt::format(
          "refusing to change {}: it cannot be read ({}); nothing was changed", path, std::strerror(saved))));
    }
    if (n == 0) break;
    read.bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  size_t bad = 0;
  if (!IsValidUtf8(read.bytes, &bad)) {
    return Error(Status::FailedPrecondition(fmt::format(
        "refusing to change {}: it is not valid UTF-8 (byte {}); nothing was changed — fix or move the file",
        path, bad)));
  }
  read.version = ContentHash(read.bytes);
  return read;
}

std::string DriftReason(std::string_view bytes, int64_t limit) {
  if (bytes.substr(0, kBom.size()) == kBom) bytes.remove_prefix(kBom.size());
  const std::vector<std::string> entries = ParseEntries(bytes);
  if (StripSpace(bytes) != JoinEntries(entries)) {
    return "its text is not a clean list of entries separated by a line holding only §";
  }
  for (const std::string& e : entries) {
    const auto chars = static_cast<int64_t>(CodePointCount(e));
    if (chars > limit) {
      return fmt::format("one entry is {} characters, longer than the whole store's budget of {}", chars, limit);
    }
  }
  return "";
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  const std::string target = RealTarget(path);
  const std::string folder = FolderOf(target);
  std::string temp = folder + "/.mem_XXXXXX.tmp";
  const int fd = ::mkstemps(temp.data(), 4);
  if (fd < 0) return ErrnoError("cannot create a temporary file in", folder);
  Status st = WriteAll(fd, bytes, temp);
  // The file keeps its permissions; a new one is private to its owner (mkstemp's 0600).
  struct stat existing;
  if (st.ok() && ::stat(target.c_str(), &existing) == 0 && ::fchmod(fd, existing.st_mode & 07777) != 0) {
    st = ErrnoError("cannot set the permissions of", temp);
  }
  if (st.ok() && ::fsync(fd) != 0) st = ErrnoError("cannot fsync", temp);
  if (::close(fd) != 0 && st.ok()) st = ErrnoError("cannot close", temp);
  if (st.ok() && ::rename(temp.c_str(), target.c_str()) != 0) st = ErrnoError("cannot replace", target);
  if (!st.ok()) {
    ::unlink(temp.c_str());
    return st;
  }
  // The rename is durable once the folder's entry is.
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return Status::Ok();
}

Result<std::string> WriteBackup(const std::string& path, std::string_view bytes, int64_t unix_seconds) {
  const std::string backup = fmt::format("{}.bak.{}", path, unix_seconds);
  ENGRAM_RETURN_IF_ERROR(WriteFileAtomically(backup, bytes));
  return backup;
}

Result<FileLock> FileLock::Acquire(const std::string& path, int64_t wait_ms) {
  const std::string lock_path = path + ".lock";
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Error(ErrnoError("cannot open the lock file", lock_path));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      Status st = ErrnoError("cannot lock", lock_path);
      ::close(fd);
      return Error(st);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::close(fd);
      return Error(Status::Busy(fmt::format("{} stayed locked by another writer for {} ms", lock_path, wait_ms)));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return FileLock(fd);
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

}  // namespace engram::curated
