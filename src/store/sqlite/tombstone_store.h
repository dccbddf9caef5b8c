// store/sqlite/tombstone_store.h — the tombstone ledger: proof that an event or claim was
// forgotten, with its id and identity hashes and never its content (docs/forget.md). The write
// path asks it whether new content was forgotten before. Callers own transactions.
#ifndef ENGRAM_STORE_SQLITE_TOMBSTONE_STORE_H_
#define ENGRAM_STORE_SQLITE_TOMBSTONE_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

class TombstoneStore {
 public:
  explicit TombstoneStore(Database& db) : db_(db) {}

  // Inserts `t` (t.namespace_name is ignored: `namespace_id` says where). Errors: from SQLite.
  Status Insert(int64_t namespace_id, const Tombstone& t);

  // The id of a tombstone of the namespace for an event with this content hash or idempotency
  // key (hashed here with ContentHash), or nullopt.
  Result<std::optional<std::string>> FindForEvent(int64_t namespace_id, std::string_view content_hash,
                                                  std::string_view idempotency_key);
  // The id of a tombstone of the namespace for a claim with this fact hash, or nullopt.
  Result<std::optional<std::string>> FindForFact(int64_t namespace_id, std::string_view fact_hash);

  // The tombstone with this id, or else the newest tombstone of the object with this id.
  Result<std::optional<Tombstone>> Find(std::string_view tombstone_or_object_id);

  // Tombstones, newest first (by rowid: the order they were written to this file); namespace_id /
  // object_id restrict when given; after_seq (a Tombstone::seq, 0: from the newest) pages.
  Result<std::vector<Tombstone>> List(std::optional<int64_t> namespace_id, std::string_view object_id, int limit,
                                      int64_t after_seq = 0);

  // Deletes the tombstone; false when there was none.
  Result<bool> Delete(std::string_view id);

 private:
  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_TOMBSTONE_STORE_H_
