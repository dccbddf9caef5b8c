#include "store/sqlite/data_version_watch.h"

namespace engram::sqlite {

DataVersionWatch::Verdict DataVersionWatch::Check(Database& db) {
  if (sqlite3_txn_state(db.handle(), "main") == SQLITE_TXN_WRITE) {
    known_ = false;  // what is read now may be rolled back: start again after the transaction
    return Verdict::kUnusable;
  }
  if (sqlite3_get_autocommit(db.handle()) != 0) {
    // Outside a transaction each statement reads the newest commit: a memo filled by later
    // statements could mix two versions of the database.
    known_ = false;
    return Verdict::kUnusable;
  }
  auto st = db.Cached("PRAGMA data_version");
  int64_t version = -1;
  if (st) {
    auto row = (*st)->Step();
    if (row && *row) version = (*st)->Int(0);
    (*st)->Reset();
  }
  if (version < 0) {
    known_ = false;
    return Verdict::kUnusable;
  }
  const int64_t changes = sqlite3_total_changes64(db.handle());
  const bool same = known_ && version == data_version_ && changes == total_changes_;
  known_ = true;
  data_version_ = version;
  total_changes_ = changes;
  return same ? Verdict::kUnchanged : Verdict::kChanged;
}

}  // namespace engram::sqlite
