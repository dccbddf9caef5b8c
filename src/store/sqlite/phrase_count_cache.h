// store/sqlite/phrase_count_cache.h — one connection's memo of how many rows of an FTS5 table
// match a phrase (BM25's n), so that recall does not walk a phrase's whole doclist again for every
// statement (FTS5's xQueryPhrase) while the database is unchanged.
#ifndef ENGRAM_STORE_SQLITE_PHRASE_COUNT_CACHE_H_
#define ENGRAM_STORE_SQLITE_PHRASE_COUNT_CACHE_H_

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace engram::sqlite {

class PhraseCountCache {
 public:
  // At most this many (table, phrase) entries; the memo starts again when full.
  static constexpr size_t kMaxEntries = 8192;

  explicit PhraseCountCache(sqlite3* db) : db_(db) {}

  // Called by a statement (inside its read transaction) before its lookups. Returns false when
  // the memo must not be used: inside a write transaction (its own uncommitted rows, which a
  // rollback would take back) or when the data version cannot be read. Otherwise drops every
  // entry when the main database changed since the last call (a commit by this or any other
  // connection, in this or another process: SQLITE_FCNTL_DATA_VERSION, which stays fixed within
  // one read transaction, so the counts always describe the snapshot being read) and returns true.
  bool Begin();

  // Rows of `table` matching the phrase written as `phrase` in a quoted MATCH expression, if
  // memoised since the last change.
  std::optional<int64_t> Find(std::string_view table, std::string_view phrase);
  void Put(std::string_view table, std::string_view phrase, int64_t rows);

  // Not thread-safe: used only from statements of its own connection, one thread at a time.

 private:
  void SetKey(std::string_view table, std::string_view phrase);

  sqlite3* db_;
  bool known_ = false;
  unsigned int data_version_ = 0;
  std::string key_;  // reused: table '\0' phrase
  std::unordered_map<std::string, int64_t> rows_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_PHRASE_COUNT_CACHE_H_
