#include "store/sqlite/checkpointer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <utility>

namespace engram::sqlite {

Checkpointer::Checkpointer(std::string db_path, int threshold_frames)
    : db_path_(std::move(db_path)), threshold_frames_(threshold_frames) {}

Checkpointer::~Checkpointer() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing the descriptor releases the flock
}

bool Checkpointer::TakeRole() {
  if (lock_fd_ >= 0) return true;
  if (db_path_.empty() || db_path_ == ":memory:") return false;
  int fd = ::open((db_path_ + "-checkpointer").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return false;
  }
  lock_fd_ = fd;
  return true;
}

void Checkpointer::Attach(sqlite3* db) { sqlite3_wal_hook(db, &Checkpointer::OnCommit, this); }

int Checkpointer::OnCommit(void* self, sqlite3* /*db*/, const char* /*schema*/, int frames) {
  static_cast<Checkpointer*>(self)->wal_frames_ = frames;
  return SQLITE_OK;
}

bool Checkpointer::MaybeCheckpoint(sqlite3* db) {
  if (wal_frames_ < threshold_frames_) return false;
  if (!TakeRole()) return false;
  int rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  if (rc != SQLITE_OK) return false;
  wal_frames_ = 0;  // the next writer resets the WAL; its commit reports the new count
  return true;
}

}  // namespace engram::sqlite
