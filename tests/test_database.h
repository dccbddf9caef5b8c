// tests/test_database.h — a migrated engram database on one connection, for store-level tests:
//
//   test::TestDatabase t = test::OpenTestDatabase(dir.File("a.db"));   // namespace "n" exists
//   sqlite::EpisodeStore store(*t.db);
//
// Header-only, like test_util.h.
#ifndef ENGRAM_TESTS_TEST_DATABASE_H_
#define ENGRAM_TESTS_TEST_DATABASE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"

namespace engram::test {

struct TestDatabase {
  std::unique_ptr<sqlite::Database> db;
  int64_t ns = 0;  // the id of namespace "n"
};

// Opens (creating) the file, registers engram's FTS5 tokenizer, migrates it (full text analysis)
// and makes namespace "n". Failures are test failures (db is null then).
inline TestDatabase OpenTestDatabase(const std::string& path) {
  TestDatabase t;
  Options options;
  options.db_path = path;
  auto db = sqlite::Database::Open(options);
  if (!db) {
    ADD_FAILURE() << db.error().ToString();
    return t;
  }
  t.db = std::move(*db);
  Status st = sqlite::RegisterFts5Extensions(t.db->handle());
  if (st.ok()) st = sqlite::Migrate(*t.db, TextAnalysis::kFull);
  if (st.ok()) {
    st = t.db->WriteTransaction([&]() -> Status {
      auto ns = sqlite::EventStore(*t.db).EnsureNamespace("n", 0);
      if (!ns) return ns.error();
      t.ns = *ns;
      return Status::Ok();
    });
  }
  if (!st.ok()) ADD_FAILURE() << st.ToString();
  return t;
}

}  // namespace engram::test

#endif  // ENGRAM_TESTS_TEST_DATABASE_H_
