#include "store/sqlite/create_database.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "store/sqlite/database.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/open_target.h"
#include "store/sqlite/schema.h"

namespace engram::sqlite {
namespace {

namespace fs = std::filesystem;

void RemoveFileAndSidecars(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal", "-checkpointer"}) std::remove((path + suffix).c_str());
}

// Builds the whole database at `tmp` and closes it with its WAL folded in.
Status Build(const Options& options, const std::string& tmp) {
  Options build = options;
  build.db_path = tmp;
  build.open_mode = OpenMode::kCreate;
  auto db = Database::Open(build);
  if (!db) return db.error();
  ENGRAM_RETURN_IF_ERROR(RegisterFts5Extensions((*db)->handle()));
  ENGRAM_RETURN_IF_ERROR(Migrate(**db, options.analysis));
  // Only this process knows the file: the file linked into place must hold everything by itself.
  ENGRAM_RETURN_IF_ERROR((*db)->Exec("PRAGMA wal_checkpoint(TRUNCATE)"));
  db->reset();
  std::error_code ec;
  if (fs::exists(tmp + "-wal", ec) && fs::file_size(tmp + "-wal", ec) > 0) {
    return Status::IOError(fmt::format("new database \"{}\": its WAL was not folded back", tmp));
  }
  return Status::Ok();
}

// link(2), or a rename that refuses to replace where the file system has no hard links.
int LinkNoReplace(const std::string& from, const std::string& to) {
  if (::link(from.c_str(), to.c_str()) == 0) return 0;
  if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOTSUP) return -1;
  return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE);
}

void SyncFolder(const std::string& path) {
  fs::path folder = fs::path(path).parent_path();
  int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

Status CreateDatabaseIfMissing(const Options& options) {
  if (options.db_path == ":memory:") return Status::Ok();
  auto target = ResolveOpenTarget(options);
  if (!target) return target.error();
  if (target->exists) return Status::Ok();
  static std::atomic<int> counter{0};
  const std::string tmp = fmt::format("{}.creating-{}-{}", options.db_path, ::getpid(), counter++);
  RemoveFileAndSidecars(tmp);
  Status built = Build(options, tmp);
  if (!built.ok()) {
    RemoveFileAndSidecars(tmp);
    return built.WithContext(fmt::format("create \"{}\"", options.db_path));
  }
  const int linked = LinkNoReplace(tmp, options.db_path);
  const int link_errno = errno;
  RemoveFileAndSidecars(tmp);
  if (linked != 0 && link_errno != EEXIST) {
    return Status::IOError(
        fmt::format("create \"{}\": cannot link the new database into place: {}", options.db_path,
                    std::strerror(link_errno)));
  }
  SyncFolder(options.db_path);
  return Status::Ok();
}

}  // namespace engram::sqlite
