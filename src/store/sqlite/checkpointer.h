// store/sqlite/checkpointer.h — one checkpointer per database file, across processes.
//
// Defence in depth beside a fixed SQLite (store/sqlite/sqlite_version.h): the WAL-reset bug needs
// two checkpoints in quick succession racing a writer that resets the WAL, and engram's old policy
// (SQLite's automatic checkpoint in every committing connection, plus a PASSIVE checkpoint every 50
// writes and at every close, in every process) made checkpoints frequent and from many processes.
// Now:
//   * every connection replaces SQLite's automatic checkpoint by its own WAL hook, which only
//     notes how many frames the WAL holds after each commit (sqlite3_wal_hook);
//   * only the process holding the checkpointer role checkpoints. The role is an exclusive flock(2)
//     on the file "<db>-checkpointer", taken without waiting the first time a process wants to
//     checkpoint and kept until its Database closes, so a long-running `engram worker` or server
//     keeps it and short-lived CLI processes then never checkpoint;
//   * the holder checkpoints (PASSIVE) only when the WAL holds at least a threshold of frames
//     (1000, SQLite's own automatic-checkpoint default), checked after its commits;
//   * a safety valve: a holder that stopped committing (an idle worker) would leave the WAL growing,
//     so once it holds kSafetyValveFactor times the threshold, the next process that commits
//     checkpoints without the role.
// When the last connection to a file closes, SQLite itself folds the WAL back under an exclusive
// lock, so the file is self-contained when nobody uses it.
#ifndef ENGRAM_STORE_SQLITE_CHECKPOINTER_H_
#define ENGRAM_STORE_SQLITE_CHECKPOINTER_H_

#include <sqlite3.h>

#include <string>

namespace engram::sqlite {

class Checkpointer {
 public:
  // Over threshold × this, any committing connection checkpoints (10: 40 MiB of 4 KiB pages by
  // default; a round bound that keeps the WAL finite, not tuned).
  static constexpr int kSafetyValveFactor = 10;

  // `db_path`: the database file; `threshold_frames`: checkpoint once the WAL holds this many
  // frames (pages). Takes no lock yet.
  Checkpointer(std::string db_path, int threshold_frames);
  ~Checkpointer();  // releases the role
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Installs the WAL hook on `db` (replacing SQLite's automatic checkpoint). `this` must outlive
  // the connection's commits.
  void Attach(sqlite3* db);

  // Runs a PASSIVE checkpoint on `db` when the WAL is over the threshold and this process holds
  // (or can take at once) the checkpointer role. Returns true when a checkpoint ran. Never waits,
  // never fails: a lock file that cannot be created (read-only folder) means no role. Not
  // thread-safe (the Database that owns it serialises calls).
  bool MaybeCheckpoint(sqlite3* db);

  bool holds_role() const { return lock_fd_ >= 0; }

 private:
  static int OnCommit(void* self, sqlite3* db, const char* schema, int frames);
  bool TakeRole();

  std::string db_path_;
  int threshold_frames_;
  int wal_frames_ = 0;  // frames in the WAL after this connection's last commit
  int lock_fd_ = -1;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_CHECKPOINTER_H_
