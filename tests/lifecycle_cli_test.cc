// tests/lifecycle_cli_test.cc — `engram maintain` end to end through the binary: a temporary claim
// expires after its TTL (HL-Mem table) and `engram history` shows the transition; a permanent
// claim is archived after its activation decayed; recall leaves both out and --include-history /
// `claims --include-history` still show them; exit codes. The clock is given with --now.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_util.h"
#include "util/time.h"

namespace engram {
namespace {

using nlohmann::json;
using test::CliResult;
using test::RunCli;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kDayMs = 86'400'000;

class LifecycleCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_ = dir_.File("engram.db");
  }

  CliResult Engram(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db_});
    return RunCli(args);
  }

  json JsonOf(std::vector<std::string> args) {
    args.insert(args.begin(), "--json");
    CliResult r = Engram(args);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    json j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.Describe();
    return j;
  }

  // Ingests one user event and extracts its claims; returns the claim read from it.
  json ExtractOne(const std::string& ns, const std::string& content, const std::string& at) {
    const std::string file = dir_.File(ns + std::to_string(++files_) + ".jsonl");
    json line = {{"namespace", ns}, {"session_id", "s" + std::to_string(files_)}, {"role", "user"},
                 {"content", content}, {"occurred_at", at}};
    test::WriteFile(file, line.dump() + "\n");
    CliResult ingest = Engram({"ingest", file});
    EXPECT_EQ(ingest.exit_code, 0) << ingest.Describe();
    CliResult process = Engram({"process"});
    EXPECT_EQ(process.exit_code, 0) << process.Describe();
    json claims = JsonOf({"claims", "-n", ns, "--include-history"});
    for (const json& c : claims["items"]) {
      if (c["evidence"].size() > 0 && c["evidence"][0]["content"] == content) return c;
    }
    ADD_FAILURE() << "no claim read from: " << content << "\n" << claims.dump();
    return json::object();
  }

  static bool Recalled(const json& result, const std::string& id) {
    for (const json& item : result["items"]) {
      if (item["id"] == id) return true;
    }
    return false;
  }

  TempDir dir_;
  std::string db_;
  int files_ = 0;
};

TEST_F(LifecycleCliTest, TemporaryClaimExpiresAndHistoryShowsIt) {
  // Dated ahead of the wall clock, so that it is current until the pass's clock passes its TTL.
  json claim = ExtractOne("u1", "I like green tea for now.", "2099-01-01T10:00:00Z");
  ASSERT_TRUE(claim.contains("id"));
  const std::string id = claim["id"];
  EXPECT_THAT(claim["qualifiers"].dump(), HasSubstr("temporary"));
  EXPECT_EQ(claim["expires_at"], "2099-01-08T10:00:00.000Z") << "importance 0.6: 7 days";
  EXPECT_TRUE(Recalled(JsonOf({"recall", "green tea", "-n", "u1", "--claims-only"}), id));

  json early = JsonOf({"maintain", "-n", "u1", "--now", "2099-01-05T00:00:00Z"});
  EXPECT_EQ(early["total"]["expired"], 0);
  json late = JsonOf({"maintain", "-n", "u1", "--now", "2099-01-09T00:00:00Z"});
  EXPECT_EQ(late["total"]["expired"], 1) << late.dump();

  EXPECT_FALSE(Recalled(JsonOf({"recall", "green tea", "-n", "u1", "--claims-only"}), id));
  EXPECT_TRUE(Recalled(JsonOf({"recall", "green tea", "-n", "u1", "--claims-only", "--include-history"}), id));
  CliResult history = Engram({"history", id});
  EXPECT_EQ(history.exit_code, 0) << history.Describe();
  EXPECT_THAT(history.out, HasSubstr("expired by maintain"));
  EXPECT_THAT(history.out, HasSubstr("ttl: temporal claim"));
  CliResult get = Engram({"get", id});
  EXPECT_THAT(get.out, HasSubstr("\"status\": \"expired\""));
}

TEST_F(LifecycleCliTest, PermanentClaimIsArchivedAfterDecay) {
  json claim = ExtractOne("u1", "I like chess puzzles.", "2024-05-01T10:00:00Z");
  ASSERT_TRUE(claim.contains("id"));
  const std::string id = claim["id"];
  auto recorded = ParseTimestamp(claim["recorded_from"].get<std::string>());
  ASSERT_TRUE(recorded.has_value());
  const std::string at = FormatTimestamp(*recorded + 400 * kDayMs);
  CliResult pass = Engram({"maintain", "--all-namespaces", "--now", at});
  EXPECT_EQ(pass.exit_code, 0) << pass.Describe();
  EXPECT_THAT(pass.out, HasSubstr("1 archived"));
  EXPECT_FALSE(Recalled(JsonOf({"recall", "chess puzzles", "-n", "u1", "--claims-only"}), id));
  json all = JsonOf({"claims", "-n", "u1", "--include-history"});
  ASSERT_EQ(all["items"].size(), 1u);
  EXPECT_EQ(all["items"][0]["status"], "archived");
  CliResult history = Engram({"history", id});
  EXPECT_THAT(history.out, HasSubstr("archived by maintain"));
}

TEST_F(LifecycleCliTest, ExitCodes) {
  ExtractOne("u1", "I like chess puzzles.", "2024-05-01T10:00:00Z");
  EXPECT_EQ(Engram({"maintain", "-n", "nope"}).exit_code, 3);
  EXPECT_EQ(Engram({"maintain", "--now", "not a time"}).exit_code, 2);
  CliResult missing = RunCli({"--db", dir_.File("missing.db"), "maintain", "--all-namespaces"});
  EXPECT_EQ(missing.exit_code, 3) << "a typo in --db is not a new database";
  CliResult worker = Engram({"worker", "--once", "--maintain-every-ms", "1000"});
  EXPECT_EQ(worker.exit_code, 0) << worker.Describe();
  EXPECT_THAT(worker.out, HasSubstr("maintenance at"));
}

// Archiving is about a claim nobody uses, not about a fact that stopped being true: the
// conversation it was read from stays findable by default recall (only replaced or expired claims
// make their evidence stale).
TEST_F(LifecycleCliTest, ArchivedClaimLeavesItsEventFindable) {
  json claim = ExtractOne("u1", "I like chess puzzles.", "2024-05-01T10:00:00Z");
  ASSERT_TRUE(claim.contains("id"));
  const std::string event_id = claim["evidence"][0]["event_id"];
  EXPECT_TRUE(Recalled(JsonOf({"recall", "chess puzzles", "-n", "u1", "--events-only"}), event_id));
  auto recorded = ParseTimestamp(claim["recorded_from"].get<std::string>());
  ASSERT_TRUE(recorded.has_value());
  json pass = JsonOf({"maintain", "--all-namespaces", "--now", FormatTimestamp(*recorded + 400 * kDayMs)});
  ASSERT_EQ(pass["total"]["archived"], 1) << pass.dump();
  EXPECT_TRUE(Recalled(JsonOf({"recall", "chess puzzles", "-n", "u1", "--events-only"}), event_id));
  EXPECT_TRUE(Recalled(JsonOf({"recall", "chess puzzles", "-n", "u1"}), event_id));
}

// Recall's default leaves out a claim past its TTL before the pass marks it expired
// (docs/lifecycle.md); the event it was read from must then be hidden the same way as after the
// pass, or running `engram maintain` changes what the same question returns.
TEST_F(LifecycleCliTest, EventOfAClaimPastItsTtlIsHiddenBeforeAndAfterThePass) {
  // Dated long before the wall clock (recall's "now" for claims): 7 days of TTL long gone.
  json claim = ExtractOne("u1", "I like green tea for now.", "2024-05-01T10:00:00Z");
  ASSERT_TRUE(claim.contains("id"));
  ExtractOne("u1", "I like chess puzzles.", "2024-05-01T11:00:00Z");
  const std::string event_id = claim["evidence"][0]["event_id"];
  json before = JsonOf({"recall", "green tea", "-n", "u1"});
  json pass = JsonOf({"maintain", "--all-namespaces"});
  ASSERT_EQ(pass["total"]["expired"], 1) << pass.dump();
  json after = JsonOf({"recall", "green tea", "-n", "u1"});
  EXPECT_FALSE(Recalled(after, event_id)) << after.dump();
  EXPECT_EQ(Recalled(before, event_id), Recalled(after, event_id)) << before.dump();
  EXPECT_TRUE(Recalled(
      JsonOf({"recall", "green tea", "-n", "u1", "--include-history", "--events-only"}), event_id));
}

// `maintain -n ""` (an unset shell variable) must not silently become "every namespace": the pass
// expires and archives, so the wrong scope is not harmless. An empty --now is not "now" either.
TEST_F(LifecycleCliTest, EmptyNamespaceOrNowIsAnError) {
  ExtractOne("u1", "I like chess puzzles.", "2024-05-01T10:00:00Z");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--json", "maintain", "-n", ""},
        std::vector<std::string>{"--json", "maintain", "--now", ""}}) {
    CliResult r = Engram(args);
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    json j = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.contains("error")) << r.Describe();
    EXPECT_EQ(j["error"]["code"], "invalid_argument");
  }
}

// Backup then restore at once must give back the same database. Here two claims share a fact
// hash: the temporary one expired, the same fact was remembered again (a new active claim), and
// the expired one was forgotten by id. Forget kept the active claim; restore's tombstone replay
// (which matches fact hashes) must not take it away.
TEST_F(LifecycleCliTest, RestoreOfAFreshBackupKeepsClaimsSharingAForgottenFactHash) {
  json old_claim = ExtractOne("u1", "I like green tea for now.", "2099-01-01T10:00:00Z");
  ASSERT_TRUE(old_claim.contains("id"));
  json pass = JsonOf({"maintain", "-n", "u1", "--now", "2099-01-20T00:00:00Z"});
  ASSERT_EQ(pass["total"]["expired"], 1) << pass.dump();
  json again = JsonOf({"remember", "I like green tea for now.", "-n", "u1", "--at", "2099-01-21"});
  ASSERT_EQ(again["claims"].size(), 1u) << again.dump();
  const std::string new_id = again["claims"][0]["id"];
  JsonOf({"forget", old_claim["id"].get<std::string>()});
  json before = JsonOf({"claims", "-n", "u1", "--include-history"});
  ASSERT_EQ(before["items"].size(), 1u) << before.dump();
  ASSERT_EQ(before["items"][0]["id"], new_id);

  const std::string backup = dir_.File("b.db");
  JsonOf({"backup", backup});
  json restored = JsonOf({"restore", backup});
  EXPECT_EQ(restored["claims_forgotten"], 0) << restored.dump();
  EXPECT_EQ(restored["events_forgotten"], 0) << restored.dump();
  json after = JsonOf({"claims", "-n", "u1", "--include-history"});
  EXPECT_EQ(after, before);
}

// The same with events: two events with the same words (different idempotency keys), one
// forgotten by id; a backup restored right away keeps the other.
TEST_F(LifecycleCliTest, RestoreOfAFreshBackupKeepsAnEventSharingAForgottenContentHash) {
  const std::string file = dir_.File("dup.jsonl");
  json a = {{"namespace", "n"}, {"session_id", "s1"}, {"role", "user"},
            {"content", "the locker code is 4412"}, {"idempotency_key", "k1"}};
  json b = a;
  b["idempotency_key"] = "k2";
  test::WriteFile(file, a.dump() + "\n" + b.dump() + "\n");
  ASSERT_EQ(Engram({"ingest", file}).exit_code, 0);
  json found = JsonOf({"recall", "locker code", "-n", "n", "--events-only"});
  ASSERT_EQ(found["items"].size(), 2u) << found.dump();
  JsonOf({"forget", found["items"][0]["id"].get<std::string>()});
  const std::string backup = dir_.File("b.db");
  JsonOf({"backup", backup});
  json restored = JsonOf({"restore", backup});
  EXPECT_EQ(restored["events_forgotten"], 0) << restored.dump();
  json left = JsonOf({"recall", "locker code", "-n", "n", "--events-only"});
  ASSERT_EQ(left["items"].size(), 1u) << left.dump();
  EXPECT_EQ(left["items"][0]["id"], found["items"][1]["id"]);
}

// `restore --verify-only` must not call a backup good that `restore` then refuses: a stray
// sidecar next to it is an invalid-argument error in both.
TEST_F(LifecycleCliTest, VerifyOnlyRefusesAStraySidecarLikeRestore) {
  ExtractOne("u1", "I like chess puzzles.", "2024-05-01T10:00:00Z");
  const std::string backup = dir_.File("b.db");
  JsonOf({"backup", backup});
  JsonOf({"restore", "--verify-only", backup});
  for (const char* sidecar : {"-wal", "-shm", "-journal"}) {
    test::WriteFile(backup + sidecar, "not ours");
    CliResult verify = Engram({"--json", "restore", "--verify-only", backup});
    EXPECT_EQ(verify.exit_code, 2) << sidecar << "\n" << verify.Describe();
    EXPECT_THAT(verify.out, HasSubstr("invalid_argument"));
    EXPECT_THAT(verify.out, HasSubstr(sidecar));
    std::remove((backup + sidecar).c_str());
  }
}

// A backup whose path holds characters special in SQLite URIs ('#', '?', '%') verifies like any
// other (restore accepts it; verify-only opens the file through a URI).
TEST_F(LifecycleCliTest, VerifyOnlyAcceptsPathsWithUriCharacters) {
  ExtractOne("u1", "I like chess puzzles.", "2024-05-01T10:00:00Z");
  for (const char* name : {"b#1.db", "b?x=1.db", "b%41.db"}) {
    const std::string backup = dir_.File(name);
    JsonOf({"backup", backup});
    CliResult verify = Engram({"--json", "restore", "--verify-only", backup});
    EXPECT_EQ(verify.exit_code, 0) << name << "\n" << verify.Describe();
  }
}

// The manifest's schema version and ledger summary are not covered by the file hash; verify-only
// reads the file anyway, so a manifest that misdescribes it is refused, not printed as verified.
TEST_F(LifecycleCliTest, VerifyOnlyRefusesAManifestThatMisdescribesTheFile) {
  ExtractOne("u1", "I like chess puzzles.", "2024-05-01T10:00:00Z");
  const std::string backup = dir_.File("b.db");
  JsonOf({"backup", backup});
  const std::string manifest_path = backup + ".manifest.json";
  const std::string original = test::ReadFile(manifest_path);
  for (const char* field : {"schema_version", "tombstone_count"}) {
    json manifest = json::parse(original);
    manifest[field] = 99;
    test::WriteFile(manifest_path, manifest.dump(2));
    CliResult verify = Engram({"--json", "restore", "--verify-only", backup});
    EXPECT_EQ(verify.exit_code, 1) << field << "\n" << verify.Describe();
    EXPECT_THAT(verify.out, HasSubstr("corruption")) << field;
  }
  test::WriteFile(manifest_path, original);
  EXPECT_EQ(Engram({"restore", "--verify-only", backup}).exit_code, 0);
}

}  // namespace
}  // namespace engram
