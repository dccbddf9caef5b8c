// tests/killed_process_test.cc — issue 18, part 2: a `process` killed with -9 in the middle of a
// batch. A forked child runs the extraction worker on a copy of a database and ends itself
// (_exit, as SIGKILL would: no cleanup, no commit) while extracting its second group of windows,
// so that group's jobs stay leased under its name. The next `process` must take them over at once
// and extract every session in event order, so that the claims equal those of a copy processed
// without interruption (the signature kill_process.py compares: namespace, subject, predicate,
// slot, value, status, valid time, superseded fact, evidence).
//
// Deterministic: the child dies at a fixed extraction call, never after a delay; a lease running
// out is simulated by backdating its expiry, never by waiting. No Engine is open across fork.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "raw_db.h"
#include "store/sqlite/database.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"
#include "write/claim_identity.h"
#include "write/extraction/extractor_factory.h"
#include "write/extraction_worker.h"

namespace engram {
namespace {

using test::TempDir;

constexpr int kDiedInExtraction = 77;
constexpr int kWindowsPerGroup = 2;  // the child's group: two windows of five events

// ---- the data: two sessions whose claims supersede each other ------------------------------------
//
// Claims of one namespace depend on the order their windows are written in, across sessions too
// (one subject's lives_in in two sessions). A killed run's leases are taken over at once, so the
// windows run in the uninterrupted order and even one namespace's claims are equal. The in-order
// rule orders each session: a session that waits for a lease that cannot be judged lets the other
// sessions go on, which in one namespace alone would change the claims; that test puts the second
// session in another namespace.

std::vector<EventInput> Events(const std::string& second_namespace) {
  const char* templates[] = {"I live in {}",          "I moved to {} last year", "I work at Acme",
                             "My favorite color is {}", "I like {}",              "My sister lives in {}",
                             "I am allergic to {}",    "We talked about the weather today"};
  const char* cities[] = {"Paris", "Berlin", "Lisbon", "Oslo", "Tokyo", "Lima", "Cairo"};
  const char* colors[] = {"blue", "red", "green", "amber"};
  const char* foods[] = {"peanuts", "sushi", "tea", "mangoes"};
  std::vector<EventInput> events;
  uint32_t state = 7;
  auto next = [&](uint32_t n) {
    state = state * 1103515245u + 12345u;
    return (state >> 16) % n;
  };
  for (int i = 0; i < 50; ++i) {
    const uint32_t t = next(8);
    const char* fill = t == 3 ? colors[next(4)] : (t == 4 || t == 6) ? foods[next(4)] : cities[next(7)];
    std::string content = templates[t];
    const size_t hole = content.find("{}");
    if (hole != std::string::npos) content.replace(hole, 2, fill);
    char at[32];
    std::snprintf(at, sizeof(at), "2024-02-01T%02d:%02d:00Z", i / 60, i % 60);
    EventInput in;
    in.namespace_name = i < 30 ? "p" : second_namespace;
    in.session_id = i < 30 ? "a" : "b";  // a: 30 events (six windows), b: 20
    in.role = "user";
    in.speaker = "Lin";
    in.content = content + " (#" + std::to_string(i) + ")";
    in.occurred_at = at;
    events.push_back(std::move(in));
  }
  return events;
}

// ---- the killed run --------------------------------------------------------------------------------

// The rule extractor, until its `die_at`-th call: there the process ends as a kill would end it.
class DyingExtractor : public extraction::Extractor {
 public:
  DyingExtractor(std::unique_ptr<extraction::Extractor> inner, int die_at) : inner_(std::move(inner)), die_at_(die_at) {}
  std::string Name() const override { return inner_->Name(); }
  Result<std::vector<extraction::CandidateClaim>> Extract(const std::vector<Event>& batch) override {
    if (++calls_ == die_at_) _exit(kDiedInExtraction);
    return inner_->Extract(batch);
  }

 private:
  std::unique_ptr<extraction::Extractor> inner_;
  int die_at_;
  int calls_ = 0;
};

// In the child: `engram process` with groups of kWindowsPerGroup windows, dying at the first
// extraction of its second group (the first group is committed, the second leased).
int ProcessAndDie(const std::string& db_path) {
  Options options;
  options.db_path = db_path;
  auto db = sqlite::Database::Open(options);
  if (!db) return 2;
  if (!sqlite::RegisterFts5Extensions((*db)->handle()).ok()) return 3;
  if (!sqlite::Migrate(**db, TextAnalysis::kFull).ok()) return 4;
  auto rules = extraction::MakeExtractor("rules");
  if (!rules) return 5;
  DyingExtractor dying(std::move(*rules), kWindowsPerGroup + 1);
  PredicateRegistry registry;
  for (const std::string& p : options.single_valued_predicates) registry.AddSingleValued(p);
  ExtractionWorkerOptions worker_options;
  worker_options.batch_events = 5;
  worker_options.windows_per_transaction = kWindowsPerGroup;
  std::mutex mu;
  ExtractionWorker worker(**db, mu, dying, registry, worker_options);
  (void)worker.Run(/*drain=*/true, 0);
  return 6;  // not reached: the extractor ends the process first
}

int RunKilledProcess(const std::string& db_path) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) _exit(ProcessAndDie(db_path));
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// ---- claims, compared like kill_process.py ---------------------------------------------------------

class ClaimsDb : public test::RawDb {
 public:
  using test::RawDb::RawDb;
  // One line per claim, sorted: independent of claim ids and recorded times.
  std::vector<std::string> Signature() {
    const char* sql =
        "SELECT n.name || '|' || c.subject || '|' || c.predicate || '|' || c.slot || '|' || c.value || '|' || "
        "c.status || '|' || c.valid_from || '|' || coalesce(c.valid_to, '') || '|' || "
        "coalesce((SELECT p.fact_hash FROM claims p WHERE p.id = c.supersedes_id), '') || '|' || "
        "coalesce((SELECT group_concat(x, ',') FROM (SELECT e.id || ':' || ce.relation AS x FROM claim_evidence ce "
        "JOIN events e ON e.seq = ce.event_seq WHERE ce.claim_seq = c.seq ORDER BY 1)), '') "
        "FROM claims c JOIN namespaces n ON n.id = c.namespace_id";
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql, -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db_);
    std::vector<std::string> lines;
    while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
      lines.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
    }
    sqlite3_finalize(st);
    std::sort(lines.begin(), lines.end());
    return lines;
  }
};

// What one signature has that the other lacks, for the failure message.
std::string Difference(const std::vector<std::string>& here, const std::vector<std::string>& control) {
  std::vector<std::string> only_here, only_control;
  std::set_difference(here.begin(), here.end(), control.begin(), control.end(), std::back_inserter(only_here));
  std::set_difference(control.begin(), control.end(), here.begin(), here.end(), std::back_inserter(only_control));
  std::string out = std::to_string(only_here.size()) + " claim(s) only after the kill:\n";
  for (const auto& l : only_here) out += "  " + l + "\n";
  out += std::to_string(only_control.size()) + " claim(s) only in the uninterrupted run:\n";
  for (const auto& l : only_control) out += "  " + l + "\n";
  return out;
}

void CopyDatabase(const std::string& from, const std::string& to) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    if (std::filesystem::exists(from + suffix)) std::filesystem::copy_file(from + suffix, to + suffix);
  }
}

class KilledProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    unsetenv("ENGRAM_EXTRACTOR");
    {
      ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir_.File("base.db")));
      ASSERT_OK(engine->IngestBatch(Events(SecondNamespace())));
    }
    CopyDatabase(dir_.File("base.db"), control_);
    CopyDatabase(dir_.File("base.db"), killed_);
    ASSERT_NO_FATAL_FAILURE(Process(control_));
    control_claims_ = ClaimsDb(control_).Signature();
    ASSERT_FALSE(control_claims_.empty());

    ASSERT_EQ(RunKilledProcess(killed_), kDiedInExtraction) << "the child did not die in its second group";
    test::RawDb raw(killed_);
    ASSERT_EQ(raw.Int("SELECT count(*) FROM jobs WHERE status = 'done'"), 5 * kWindowsPerGroup);
    ASSERT_EQ(raw.Int("SELECT count(*) FROM jobs WHERE status = 'leased'"), 5 * kWindowsPerGroup)
        << "the killed run must leave its second group leased";
  }

  virtual std::string SecondNamespace() const { return "p"; }

  // `engram process` (a drain through the Engine), in this process.
  void Process(const std::string& db) {
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
    ASSERT_OK(engine->Process(/*drain=*/true));
  }

  TempDir dir_;
  const std::string control_ = dir_.File("control.db");
  const std::string killed_ = dir_.File("killed.db");
  std::vector<std::string> control_claims_;
};

TEST_F(KilledProcessTest, KilledProcessLeaseIsTakenOverAtOnce) {
  // Well within the 60 s lease: its owner is gone, so the next run takes the jobs over.
  ASSERT_NO_FATAL_FAILURE(Process(killed_));
  test::RawDb raw(killed_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM jobs WHERE status = 'leased'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM jobs WHERE status <> 'done'"), 0);
  const std::vector<std::string> claims = ClaimsDb(killed_).Signature();
  EXPECT_TRUE(claims == control_claims_) << Difference(claims, control_claims_);
}

TEST_F(KilledProcessTest, SessionExtractedInEventOrderAfterKill) {
  // However long the next runs wait for the killed run's leases (here: until they have expired,
  // by backdating them), a session's later events must not be extracted before its earlier ones.
  ASSERT_NO_FATAL_FAILURE(Process(killed_));
  test::RawDb(killed_).Exec("UPDATE jobs SET lease_expires_at = 0 WHERE status = 'leased'");
  ASSERT_NO_FATAL_FAILURE(Process(killed_));
  EXPECT_EQ(test::RawDb(killed_).Int("SELECT count(*) FROM jobs WHERE status <> 'done'"), 0);
  const std::vector<std::string> claims = ClaimsDb(killed_).Signature();
  EXPECT_TRUE(claims == control_claims_) << Difference(claims, control_claims_);
}

TEST_F(KilledProcessTest, StatsAndJobsReportTheDeadLeaseAndRetryReleasesIt) {
  using nlohmann::json;
  test::CliResult r = test::RunCli({"--db", killed_, "--json", "stats"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json stats = json::parse(r.out);
  EXPECT_EQ(stats["leased_jobs"], 5 * kWindowsPerGroup) << r.out;
  EXPECT_EQ(stats["stale_leased_jobs"], 5 * kWindowsPerGroup) << r.out;
  EXPECT_EQ(stats["pending_jobs"], 50 - 10 * kWindowsPerGroup) << r.out;

  r = test::RunCli({"--db", killed_, "--json", "jobs", "--status", "leased"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json jobs = json::parse(r.out)["items"];
  ASSERT_EQ(jobs.size(), 5u * kWindowsPerGroup) << r.out;
  EXPECT_EQ(jobs[0]["lease"]["owner_alive"], "dead") << r.out;
  EXPECT_EQ(jobs[0]["lease"]["stale"], true) << r.out;
  EXPECT_NE(jobs[0]["lease"]["owner"].get<std::string>().find(" pid "), std::string::npos) << r.out;

  r = test::RunCli({"--db", killed_, "--json", "jobs", "retry"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(json::parse(r.out)["retried"], 5 * kWindowsPerGroup) << r.out;
  EXPECT_EQ(test::RawDb(killed_).Int("SELECT count(*) FROM jobs WHERE status = 'leased'"), 0);
}

class KilledProcessTwoNamespacesTest : public KilledProcessTest {
 protected:
  std::string SecondNamespace() const override { return "q"; }
};

TEST_F(KilledProcessTwoNamespacesTest, SessionWaitsInEventOrderForALeaseThatCannotBeJudged) {
  // The killed run was on another machine sharing the file (or is an older engram that recorded
  // no owner): its leases can only expire. Until then the session holding them must not move on.
  test::RawDb(killed_).Exec(
      "UPDATE jobs SET lease_owner = 'host=far pid=1 start=1 boot=another-machine pidns=pid:[1]' "
      "WHERE status = 'leased'");
  ASSERT_NO_FATAL_FAILURE(Process(killed_));
  test::RawDb raw(killed_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM jobs WHERE status = 'leased'"), 5 * kWindowsPerGroup);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM jobs j JOIN sessions s ON s.id = j.session_id "
                    "WHERE s.external_id = 'a' AND j.status = 'done'"),
            5 * kWindowsPerGroup)
      << "session a went on past the events it waits for";
  EXPECT_EQ(raw.Int("SELECT count(*) FROM jobs j JOIN sessions s ON s.id = j.session_id "
                    "WHERE s.external_id = 'b' AND j.status = 'done'"),
            20)
      << "the other sessions must go on meanwhile";
  raw.Exec("UPDATE jobs SET lease_expires_at = 0 WHERE status = 'leased'");
  ASSERT_NO_FATAL_FAILURE(Process(killed_));
  EXPECT_EQ(raw.Int("SELECT count(*) FROM jobs WHERE status <> 'done'"), 0);
  const std::vector<std::string> claims = ClaimsDb(killed_).Signature();
  EXPECT_TRUE(claims == control_claims_) << Difference(claims, control_claims_);
}

}  // namespace
}  // namespace engram
