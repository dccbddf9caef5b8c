#include "store/sqlite/phrase_count_cache.h"

namespace engram::sqlite {

bool PhraseCountCache::Begin() {
  if (sqlite3_txn_state(db_, "main") == SQLITE_TXN_WRITE) return false;
  unsigned int version = 0;
  if (sqlite3_file_control(db_, "main", SQLITE_FCNTL_DATA_VERSION, &version) != SQLITE_OK) {
    return false;
  }
  if (!known_ || version != data_version_ || rows_.size() >= kMaxEntries) rows_.clear();
  known_ = true;
  data_version_ = version;
  return true;
}

void PhraseCountCache::SetKey(std::string_view table, std::string_view phrase) {
  key_.assign(table);
  key_.push_back('\0');
  key_.append(phrase);
}

std::optional<int64_t> PhraseCountCache::Find(std::string_view table, std::string_view phrase) {
  SetKey(table, phrase);
  auto it = rows_.find(key_);
  if (it == rows_.end()) return std::nullopt;
  return it->second;
}

void PhraseCountCache::Put(std::string_view table, std::string_view phrase, int64_t rows) {
  SetKey(table, phrase);
  rows_.insert_or_assign(key_, rows);
}

}  // namespace engram::sqlite
