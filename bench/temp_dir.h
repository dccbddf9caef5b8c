// bench/temp_dir.h — a mkdtemp folder for one benchmark database, removed with its content when
// the object is destroyed.
//
// Thread safety: a value; not shared between threads.
#ifndef ENGRAM_BENCH_TEMP_DIR_H_
#define ENGRAM_BENCH_TEMP_DIR_H_

#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "engram/status.h"

namespace engram::bench {

class TempDir {
 public:
  // Creates "<temp dir>/engram-bench-XXXXXX" (/tmp when the system has no temp dir).
  // Errors: kIOError when the folder cannot be created.
  static Result<TempDir> Create() {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string tmpl = (base / "engram-bench-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      return Error(
          Status::IOError(fmt::format("cannot create a temporary folder in {}", base.string())));
    }
    return TempDir(tmpl);
  }
  TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  TempDir& operator=(TempDir&&) = delete;
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  // Gives the folder up: it is no longer removed on destruction. Returns its absolute path.
  std::string Release() { return std::exchange(path_, std::string()); }
  // The folder's absolute path.
  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_TEMP_DIR_H_
