// tests/bad_files_test.cc — damaged, empty, foreign and read-only files, through the library and
// the `engram` binary (issue 18 parts 3–5, issue 17 "damaged or unusual files"): only writing
// commands create a database, and only where nothing is; reads never write the file (recall hits
// go to the hits log); a damaged file gives a clear error or a report of what is damaged, never a
// silent exit 0; a read-only file can be read.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "raw_db.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram {
namespace {

using nlohmann::json;
using test::CliResult;
using test::ReadFile;
using test::RunCli;
using test::TempDir;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

class BadFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { db_ = dir_.File("m.db"); }

  // A database with 300 events and their claims, closed (its WAL folded back).
  void MakeDatabase() {
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db_));
    std::vector<EventInput> events;
    static const char* kCities[] = {"Oslo", "Porto", "Lima", "Kyoto", "Quito"};
    for (int i = 0; i < 300; ++i) {
      EventInput e;
      e.namespace_name = "p1";
      e.session_id = "s" + std::to_string(i / 20);
      e.role = "user";
      e.speaker = "Lin";
      e.content = fmt::format("I live in {} and I like tea number {}.", kCities[i % 5], i);
      e.occurred_at = fmt::format("2024-02-{:02d}T10:{:02d}:00Z", 1 + i / 60, i % 60);
      events.push_back(std::move(e));
    }
    ASSERT_OK(engine->IngestBatch(events));
    ASSERT_OK(engine->Process(/*drain=*/true));
  }

  // Overwrites leaf page `nth` of `object` with random bytes (the file must be closed).
  void DamagePage(const std::string& object, int nth) {
    int64_t page = 0;
    {
      test::RawDb raw(db_);
      page = raw.Int(fmt::format("SELECT pageno FROM dbstat WHERE name = '{}' AND pagetype = 'leaf' "
                                 "ORDER BY pageno LIMIT 1 OFFSET {}", object, nth));
    }
    ASSERT_GT(page, 1) << object;
    std::string bytes = ReadFile(db_);
    std::mt19937 rng(static_cast<unsigned>(page));
    for (size_t i = 0; i < 4096; ++i) bytes[static_cast<size_t>(page - 1) * 4096 + i] = static_cast<char>(rng());
    test::WriteFile(db_, bytes);
    fs::remove(db_ + "-wal");
    fs::remove(db_ + "-shm");
  }

  CliResult Engram(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db_});
    return RunCli(args);
  }

  Options OptionsFor(OpenMode mode) {
    Options o;
    o.db_path = db_;
    o.open_mode = mode;
    return o;
  }

  TempDir dir_;
  std::string db_;
};

// ---- issue 18 part 3: a 0-byte file becomes a new database silently --------------------------

TEST_F(BadFilesTest, ZeroByteFileIsNotInitialised) {
  test::WriteFile(db_, "");
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kReadWrite, OpenMode::kCreate}) {
    auto engine = Engine::Open(OptionsFor(mode));
    ASSERT_FALSE(engine.has_value());
    EXPECT_EQ(engine.error().code(), StatusCode::kCorruption);
    EXPECT_THAT(engine.error().message(), HasSubstr("empty (0 bytes)"));
  }
  test::WriteFile(dir_.File("in.jsonl"), R"({"namespace":"p1","session_id":"s","role":"user","content":"hi"})" "\n");
  for (std::vector<std::string> args : {std::vector<std::string>{"doctor"}, {"stats"}, {"export", "--all-namespaces"},
                                        {"recall", "where", "-n", "p1"}, {"ingest", dir_.File("in.jsonl")},
                                        {"remember", "I live in Oslo", "-n", "p1"}}) {
    for (bool as_json : {false, true}) {
      if (as_json) args.insert(args.begin(), "--json");
      CliResult r = Engram(args);
      EXPECT_NE(r.exit_code, 0) << args[as_json ? 1 : 0] << "\n" << r.Describe();
      EXPECT_THAT(r.out + r.err, HasSubstr("empty (0 bytes)")) << r.Describe();
    }
  }
  EXPECT_EQ(fs::file_size(db_), 0u) << "nothing may initialise an existing file";
  EXPECT_FALSE(fs::exists(db_ + "-wal"));
  CliResult doctor = Engram({"--json", "doctor"});
  json j = json::parse(doctor.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << doctor.Describe();
  EXPECT_EQ(j["ok"], false);
}

TEST_F(BadFilesTest, ForeignOrEmptySqliteFileIsNotInitialised) {
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "PRAGMA user_version = 0; VACUUM;", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(raw);
  const std::string before = ReadFile(db_);
  ASSERT_GT(before.size(), 0u);
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kCreate}) {
    auto engine = Engine::Open(OptionsFor(mode));
    ASSERT_FALSE(engine.has_value());
    EXPECT_EQ(engine.error().code(), StatusCode::kCorruption);
    EXPECT_THAT(engine.error().message(), HasSubstr("not an engram database"));
  }
  EXPECT_NE(Engram({"remember", "I live in Oslo", "-n", "p1"}).exit_code, 0);
  EXPECT_EQ(ReadFile(db_), before);
}

TEST_F(BadFilesTest, OnlyWritingCommandsCreateADatabase) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"doctor"}, {"stats"}, {"export", "--all-namespaces"}, {"recall", "where", "-n", "p1"},
        {"claims", "-n", "p1"}, {"sessions", "--all-namespaces"}, {"process"}, {"worker", "--once"},
        {"maintain", "--all-namespaces"}}) {
    CliResult r = Engram(args);
    EXPECT_EQ(r.exit_code, 3) << args[0] << "\n" << r.Describe();
    EXPECT_THAT(r.err, HasSubstr("no database at")) << r.Describe();
    EXPECT_FALSE(fs::exists(db_)) << args[0];
  }
  CliResult remember = Engram({"remember", "I live in Oslo", "-n", "p1"});
  EXPECT_EQ(remember.exit_code, 0) << remember.Describe();
  EXPECT_EQ(Engram({"doctor"}).exit_code, 0);
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    EXPECT_EQ(entry.path().string().find(".creating-"), std::string::npos) << "left behind: " << entry.path();
  }
}

// ---- issue 17: a --db path in a missing directory silently creates it ------------------------

TEST_F(BadFilesTest, MissingDirectoryIsAnError) {
  db_ = dir_.File("no/such/folder/m.db");
  auto engine = Engine::Open(OptionsFor(OpenMode::kCreate));
  ASSERT_FALSE(engine.has_value());
  EXPECT_EQ(engine.error().code(), StatusCode::kNotFound);
  EXPECT_THAT(engine.error().message(), HasSubstr(dir_.File("no/such/folder")));
  CliResult r = Engram({"remember", "I live in Oslo", "-n", "p1"});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("--create"));
  EXPECT_FALSE(fs::exists(dir_.File("no")));
  CliResult created = Engram({"--create", "remember", "I live in Oslo", "-n", "p1"});
  EXPECT_EQ(created.exit_code, 0) << created.Describe();
  EXPECT_TRUE(fs::exists(db_));
}

// ---- issue 18 part 4: reads write, even to damaged files -------------------------------------

TEST_F(BadFilesTest, RecallDoesNotWriteTheDatabase) {
  MakeDatabase();
  // A reader keeps the WAL (and whatever a writer would append to it) in place.
  test::RawDb held(db_);
  const int64_t version = held.Int("PRAGMA data_version");
  const std::string file = ReadFile(db_);
  const std::string wal = ReadFile(db_ + "-wal");
  for (bool as_json : {false, true}) {
    CliResult r = as_json ? Engram({"--json", "recall", "where does Lin live", "-n", "p1"})
                          : Engram({"recall", "where does Lin live", "-n", "p1"});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_THAT(r.out, HasSubstr("claim"));
  }
  {
    // The library, in the default (read-write) mode as well as read-only.
    ASSERT_OK_AND_ASSIGN(auto writer, test::OpenTestEngine(db_));
    ASSERT_OK_AND_ASSIGN(auto reader, Engine::Open(OptionsFor(OpenMode::kReadOnly)));
    RecallQuery q;
    q.text = "where does Lin live";
    q.namespace_name = "p1";
    for (Engine* e : {writer.get(), reader.get()}) {
      ASSERT_OK_AND_ASSIGN(RecallResult found, e->Recall(q));
      EXPECT_FALSE(found.items.empty());
    }
    reader.reset();
    EXPECT_EQ(held.Int("PRAGMA data_version"), version) << "a recall committed a write transaction";
    EXPECT_EQ(ReadFile(db_ + "-wal"), wal);
  }
  EXPECT_EQ(held.Int("PRAGMA data_version"), version) << "a recall committed a write transaction";
  EXPECT_EQ(ReadFile(db_ + "-wal"), wal);
  EXPECT_TRUE(ReadFile(db_) == file) << "recall changed the database file";
  // The hits are not lost: they wait beside the file for the next maintenance pass.
  EXPECT_THAT(ReadFile(db_ + "-hits"), HasSubstr(" 1 "));
}

TEST_F(BadFilesTest, RecallHitsReachTheClaimsThroughMaintain) {
  MakeDatabase();
  CliResult r = Engram({"--json", "recall", "where does Lin live", "-n", "p1", "--claims-only"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json found = json::parse(r.out);
  ASSERT_FALSE(found["items"].empty());
  const std::string id = found["items"][0]["id"];
  CliResult pass = Engram({"--json", "maintain", "--all-namespaces"});
  ASSERT_EQ(pass.exit_code, 0) << pass.Describe();
  EXPECT_GE(json::parse(pass.out)["total"]["access_flushed"].get<int>(), 1);
  EXPECT_FALSE(fs::exists(db_ + "-hits")) << "folded";
  json claim = json::parse(Engram({"--json", "get", id}).out);
  EXPECT_EQ(claim["access_count"], 1) << claim.dump();
}

TEST_F(BadFilesTest, RecallNeverWritesToADamagedFile) {
  MakeDatabase();
  DamagePage("claim_decisions", 3);  // a table recall does not read: recall itself succeeds
  const std::string before = ReadFile(db_);
  CliResult r = Engram({"recall", "where does Lin live", "-n", "p1"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(ReadFile(db_) == before) << "recall wrote to a damaged file";
  DamagePage("claims", 0);  // one it does read
  const std::string damaged = ReadFile(db_);
  fs::remove(db_ + "-hits");
  CliResult failed = Engram({"recall", "where does Lin live", "-n", "p1", "--claims-only"});
  EXPECT_NE(failed.exit_code, 0) << failed.Describe();
  EXPECT_THAT(failed.err, HasSubstr("malformed"));
  EXPECT_TRUE(ReadFile(db_) == damaged) << "recall wrote to a damaged file";
  EXPECT_FALSE(fs::exists(db_ + "-hits")) << "no hit is logged for a read that found damage";
}

TEST_F(BadFilesTest, ExportAndStatsFailOnADamagedFile) {
  MakeDatabase();
  DamagePage("claim_decisions", 3);
  const std::string before = ReadFile(db_);
  CliResult stats = Engram({"stats"});
  EXPECT_EQ(stats.exit_code, 1) << stats.Describe();
  EXPECT_THAT(stats.err, HasSubstr("damaged"));
  CliResult exported = Engram({"export", "--all-namespaces", "--out", dir_.File("dump.jsonl")});
  EXPECT_EQ(exported.exit_code, 1) << exported.Describe();
  EXPECT_THAT(exported.err, HasSubstr("damaged"));
  EXPECT_FALSE(fs::exists(dir_.File("dump.jsonl"))) << "nothing exported without --salvage";
  CliResult salvaged = Engram({"export", "--all-namespaces", "--salvage", "--out", dir_.File("dump.jsonl")});
  EXPECT_EQ(salvaged.exit_code, 1) << salvaged.Describe();
  EXPECT_THAT(salvaged.err, HasSubstr("every exported row was read"));
  EXPECT_THAT(ReadFile(dir_.File("dump.jsonl")), HasSubstr("\"kind\":\"event\""));
  EXPECT_TRUE(ReadFile(db_) == before);
}

// ---- issue 18 part 5: doctor stops at the first damaged page ---------------------------------

TEST_F(BadFilesTest, DoctorReportsDamageBeyondFirstBadPage) {
  MakeDatabase();
  DamagePage("claim_decisions", 3);
  DamagePage("events", 5);
  const std::string before = ReadFile(db_);
  CliResult r = Engram({"--json", "doctor"});
  EXPECT_EQ(r.exit_code, 1) << r.Describe();
  json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.Describe();
  EXPECT_EQ(j["ok"], false);
  EXPECT_GE(j["integrity"].size(), 2u) << j.dump(1);
  const std::string damaged = j["damaged"].dump();
  EXPECT_THAT(damaged, HasSubstr("claim_decisions"));
  EXPECT_THAT(damaged, HasSubstr("table events"));
  bool events_partly_read = false;
  for (const json& t : j["tables"]) {
    if (t["name"] == "events") events_partly_read = t["rows"].get<int>() > 0 && !t["error"].get<std::string>().empty();
  }
  EXPECT_TRUE(events_partly_read) << j["tables"].dump();
  EXPECT_THAT(j["export"].get<std::string>(), HasSubstr("stops"));
  EXPECT_TRUE(ReadFile(db_) == before) << "doctor wrote to the file";
  CliResult text = Engram({"doctor"});
  EXPECT_THAT(text.out, HasSubstr("damaged: table events"));
  EXPECT_THAT(text.out, HasSubstr("PROBLEMS FOUND"));
}

// ---- issue 17: a read-only database cannot even be read --------------------------------------

// Runs the binary as user nobody when the tests run as root (root ignores file permissions).
CliResult RunUnprivileged(const std::string& db, const std::vector<std::string>& args, const TempDir& out_dir) {
  std::string cmd = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  cmd += test::EngramBinary() + " --db '" + db + "'";
  for (const std::string& a : args) cmd += " '" + a + "'";
  cmd += " > '" + out_dir.File("out") + "' 2> '" + out_dir.File("err") + "'";
  CliResult r;
  int status = std::system(cmd.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(out_dir.File("out"));
  r.err = ReadFile(out_dir.File("err"));
  return r;
}

TEST_F(BadFilesTest, ReadOnlyDatabaseServesReads) {
  if (geteuid() == 0 && std::system("setpriv --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "needs setpriv";
  const std::string folder = dir_.File("ro");
  fs::create_directory(folder);
  db_ = folder + "/m.db";
  MakeDatabase();
  const std::string before = ReadFile(db_);
  ASSERT_EQ(::chmod(dir_.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(db_.c_str(), 0444), 0);
  ASSERT_EQ(::chmod(folder.c_str(), 0555), 0);
  TempDir out;
  ASSERT_EQ(::chmod(out.path().c_str(), 0777), 0);
  CliResult recall = RunUnprivileged(db_, {"recall", "where does Lin live", "-n", "p1"}, out);
  EXPECT_EQ(recall.exit_code, 0) << recall.Describe();
  EXPECT_THAT(recall.out, HasSubstr("evidence supports"));
  for (std::vector<std::string> args : {std::vector<std::string>{"stats"}, {"doctor"}, {"claims", "-n", "p1"}}) {
    CliResult r = RunUnprivileged(db_, args, out);
    EXPECT_EQ(r.exit_code, 0) << args[0] << "\n" << r.Describe();
  }
  CliResult remember = RunUnprivileged(db_, {"remember", "I live in Bern", "-n", "p1"}, out);
  EXPECT_EQ(remember.exit_code, 1) << remember.Describe();
  EXPECT_THAT(remember.err, HasSubstr("read-only"));
  EXPECT_TRUE(ReadFile(db_) == before);
  EXPECT_FALSE(fs::exists(db_ + "-wal")) << "an immutable open creates no sidecar";
  ASSERT_EQ(::chmod(folder.c_str(), 0755), 0);  // so that TempDir can remove it
}

// A read-only file (chmod 444) in a folder that can be written (SQLite makes its -shm there, so it
// is not opened immutable): every read command serves it, every writing command fails at open
// with one clear "read-only" error (exit 1), and not a byte of the file changes.
TEST_F(BadFilesTest, ReadOnlyFileInAWritableFolderServesEveryReadAndRefusesEveryWrite) {
  if (geteuid() == 0 && std::system("setpriv --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "needs setpriv";
  const std::string folder = dir_.File("rw");
  fs::create_directory(folder);
  db_ = folder + "/m.db";
  MakeDatabase();
  const std::string before = ReadFile(db_);
  ASSERT_EQ(::chmod(dir_.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod(folder.c_str(), 0777), 0);
  ASSERT_EQ(::chmod(db_.c_str(), 0444), 0);
  TempDir out;
  ASSERT_EQ(::chmod(out.path().c_str(), 0777), 0);
  const std::string dump = out.File("dump.jsonl");
  test::WriteFile(dump, "");
  ASSERT_EQ(::chmod(dump.c_str(), 0666), 0);
  for (std::vector<std::string> args :
       {std::vector<std::string>{"recall", "where does Lin live", "-n", "p1"}, {"claims", "-n", "p1"}, {"stats"},
        {"export", "-n", "p1"}, {"export", "--all-namespaces"}, {"sessions", "-n", "p1"},
        {"sessions", "search", "-n", "p1", "Oslo"}, {"tombstones", "-n", "p1"}, {"jobs"}, {"doctor"}}) {
    CliResult r = RunUnprivileged(db_, args, out);
    EXPECT_EQ(r.exit_code, 0) << args[0] << "\n" << r.Describe();
  }
  for (std::vector<std::string> args :
       {std::vector<std::string>{"remember", "I live in Bern", "-n", "p1"}, {"forget", "-n", "p1", "--all"},
        {"maintain", "-n", "p1"}, {"process"}, {"compact"}, {"import", dump}, {"jobs", "retry"},
        {"reindex", "-n", "p1"}, {"unforget", "01HZZZZZZZZZZZZZZZZZZZZZZZ"}}) {
    CliResult r = RunUnprivileged(db_, args, out);
    EXPECT_EQ(r.exit_code, 1) << args[0] << "\n" << r.Describe();
    EXPECT_THAT(r.err, HasSubstr("is read-only")) << args[0];
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("attempt to write a readonly database"))) << args[0];
  }
  EXPECT_TRUE(ReadFile(db_) == before) << "a byte of the read-only file changed";
}

// A --db in a folder that does not exist: every command says which path, and none creates the
// folder or a database (only --create lets ingest, remember and import make the folders).
TEST_F(BadFilesTest, MissingFolderIsNamedByEveryCommandAndNothingIsCreated) {
  db_ = dir_.File("typo/m.db");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"recall", "where", "-n", "p1"}, {"claims", "-n", "p1"}, {"stats"},
        {"export", "-n", "p1"}, {"sessions", "-n", "p1"}, {"forget", "-n", "p1", "--all"}, {"maintain", "-n", "p1"},
        {"remember", "I live in Oslo", "-n", "p1"}, {"import", dir_.File("none.jsonl")}, {"process"}}) {
    CliResult r = Engram(args);
    EXPECT_NE(r.exit_code, 0) << args[0];
    if (args[0] != "import") {
      EXPECT_THAT(r.err, HasSubstr(dir_.File("typo"))) << args[0] << "\n" << r.Describe();
    }
    EXPECT_FALSE(fs::exists(dir_.File("typo"))) << args[0] << " created the folder";
  }
}

}  // namespace
}  // namespace engram

namespace engram {
namespace {

// A read command right after an upgrade: the file was written by an older engram (schema 8, before
// lease owners). `recall` migrates it once (the file passed the open checks and is writable) and
// answers, instead of calling a healthy file corrupt until some writing command runs.
TEST_F(BadFilesTest, ReadCommandOnAnOlderSchemaMigratesOnceAndAnswers) {
  MakeDatabase();
  {
    test::RawDb raw(db_);
    raw.Exec("ALTER TABLE jobs DROP COLUMN lease_owner; PRAGMA user_version = 8");
  }
  CliResult r = Engram({"recall", "where does Lin live", "-n", "p1"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  test::RawDb raw(db_);
  EXPECT_EQ(raw.Int("PRAGMA user_version"), sqlite::kSchemaVersion);
}

}  // namespace
}  // namespace engram
