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
  const std::string lock_path = db_path_ + "-checkpointer";
  // 0666 less the umask, so that the users who share a database share its lock; flock needs no write
  // permission, so a lock file another user created is opened read-only.
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
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
  // The safety valve: a holder that stopped committing (an idle worker) never checkpoints, so a WAL
  // kSafetyValveFactor times over the threshold is checkpointed by whoever commits next.
  if (!TakeRole() && wal_frames_ < threshold_frames_ * kSafetyValveFactor) return false;
  int rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  if (rc != SQLITE_OK) return false;
  wal_frames_ = 0;  // the next writer resets the WAL; its commit reports the new count
  return true;
}

}  // namespace engram::sqlite
