// curated/curated_file.h — one curated store on disk: a UTF-8 text file of entries separated by
// "\n§\n" (Hermes Agent's MEMORY.md / USER.md layout, ../shared/reference/hermes.md §1.1, §1.8),
// read without a lock, changed only under a sidecar lock file, written by temp file + fsync +
// rename so that a reader never sees a half-written or empty file.
#ifndef ENGRAM_CURATED_CURATED_FILE_H_
#define ENGRAM_CURATED_CURATED_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"

namespace engram::curated {

// The entry separator: newline, section sign, newline (3 code points, counted in the budget).
inline constexpr std::string_view kEntryDelimiter = "\n\xC2\xA7\n";

// The entries of a file's text: split on the whole delimiter only (a lone § stays inside an
// entry), each piece stripped of surrounding white space, empty pieces dropped, duplicates
// dropped keeping the first. A UTF-8 byte order mark at the start is dropped.
std::vector<std::string> ParseEntries(std::string_view text);
// The entries joined by the delimiter, no trailing newline ("" for none).
std::string JoinEntries(const std::vector<std::string>& entries);
// Code points of JoinEntries(entries): what the budget counts.
int64_t UsageChars(const std::vector<std::string>& entries);
// `text` without leading and trailing white space (ASCII, U+00A0, U+3000).
std::string StripSpace(std::string_view text);

// What a read found.
struct FileRead {
  bool exists = false;
  std::string bytes;    // the whole file ("" when it does not exist)
  std::string version;  // a hash of `bytes`, "" when the file does not exist
};

// Reads `path` whole. A missing file is an empty store. Errors: kFailedPrecondition when the file
// exists but cannot be read or is not valid UTF-8 (a write must then be refused: treating it as
// empty would wipe it, Hermes #10877), naming the path and the byte offset.
Result<FileRead> ReadFile(const std::string& path);

// Why a file's text could not have been written by a curated store (external drift: another
// writer appended text without delimiters; Hermes #26045), or "" when it reads cleanly: its
// stripped text differs from its entries joined again, or one entry is longer than `limit` code
// points (no write of a store makes an entry longer than its whole budget).
std::string DriftReason(std::string_view bytes, int64_t limit);

// Writes `bytes` to `path` atomically: a temp file in the same folder, fsync, rename over the
// target (through a symlink to its real file, which stays a symlink), fsync of the folder.
// Errors: kIOError naming the path (the target is unchanged then).
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

// Copies `bytes` to "<path>.bak.<unix seconds>" and returns that path. Errors: kIOError.
Result<std::string> WriteBackup(const std::string& path, std::string_view bytes, int64_t unix_seconds);

// An exclusive lock on "<path>.lock" (flock; the data file itself is replaced by rename, so it
// cannot carry the lock). Waits at most `wait_ms`. Released when destroyed. Not copyable.
class FileLock {
 public:
  // Errors: kBusy when another holder kept it for wait_ms; kIOError when the lock file cannot be
  // opened (missing folder, permissions).
  static Result<FileLock> Acquire(const std::string& path, int64_t wait_ms);
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace engram::curated

#endif  // ENGRAM_CURATED_CURATED_FILE_H_
