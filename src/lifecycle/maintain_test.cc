// lifecycle/maintain_test.cc — the maintenance pass through the Engine API with an explicit
// clock: TTL expiry (table and explicit valid_to), half-life decay and archive, recovery by recall
// hits and helpful feedback, protected classes, convergence of duplicates, resurrection, and the
// v5 → v6 migration.
#include "lifecycle/maintain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lifecycle/decay.h"
#include "lifecycle/ttl.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "raw_db.h"
#include "test_util.h"
#include "util/time.h"

namespace engram {
namespace {

using lifecycle::kDayMs;
using ::testing::HasSubstr;
using test::TempDir;

// A second connection for what the API does not change: backdating, qualifiers, raw rows.
using test::RawDb;

class MaintainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_path_ = dir_.File("m.db");
    unsetenv("ENGRAM_EXTRACTOR");
    Open();
  }

  void Open(bool resurrect = false) {
    engine_.reset();
    Options options;
    options.db_path = db_path_;
    options.lifecycle.resurrect_archived = resurrect;
    auto e = Engine::Open(options);
    ASSERT_OK(e);
    engine_ = std::move(*e);
  }

  // One extracted (not explicit) claim from a user event; returns it.
  Claim ExtractOne(const std::string& ns, const std::string& text, const std::string& at = "2024-05-01T10:00:00Z") {
    EventInput in;
    in.namespace_name = ns;
    in.session_id = "s-" + text;
    in.role = "user";
    in.content = text;
    in.occurred_at = at;
    EXPECT_OK(engine_->Ingest(in));
    auto report = engine_->Process(true);
    EXPECT_OK(report);
    ListClaimsQuery q;
    q.namespace_name = ns;
    auto claims = engine_->ListClaims(q);
    EXPECT_OK(claims);
    if (!claims) return Claim{};
    for (const Claim& c : *claims) {
      if (!c.evidence.empty() && c.evidence[0].content == text) return c;
    }
    ADD_FAILURE() << "no claim from: " << text;
    return Claim{};
  }

  Claim Get(const std::string& id) {
    auto c = engine_->GetClaim(id);
    EXPECT_OK(c);
    return c ? *c : Claim{};
  }

  MaintainReport Maintain(TimestampMs now, const std::string& ns = "") {
    MaintainRequest r;
    r.namespace_name = ns;
    r.all_namespaces = ns.empty();  // every namespace, said explicitly
    r.now = now;
    auto report = engine_->Maintain(r);
    EXPECT_OK(report);
    return report ? *report : MaintainReport{};
  }

  std::vector<RecallItem> RecallClaims(const std::string& ns, const std::string& text, bool history = false) {
    RecallQuery q;
    q.namespace_name = ns;
    q.text = text;
    q.include_events = false;
    q.include_history = history;
    auto r = engine_->Recall(q);
    EXPECT_OK(r);
    return r ? r->items : std::vector<RecallItem>{};
  }

  static bool Has(const std::vector<RecallItem>& items, const std::string& id) {
    return std::any_of(items.begin(), items.end(), [&](const RecallItem& i) { return i.id == id; });
  }

  std::vector<std::string> HistoryActions(const std::string& id) {
    auto x = engine_->ExplainClaim(id);
    EXPECT_OK(x);
    std::vector<std::string> out;
    if (x) {
      for (const ClaimChange& h : x->history) out.push_back(h.action);
    }
    return out;
  }

  std::vector<std::string> AuditActions(const std::string& id) {
    auto a = engine_->AuditTrail(id);
    EXPECT_OK(a);
    std::vector<std::string> out;
    if (a) {
      for (const AuditEntry& e : *a) out.push_back(e.action);
    }
    return out;
  }

  TempDir dir_;
  std::string db_path_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(MaintainTest, TemporaryClaimExpiresAfterItsTtlAndStaysInHistory) {
  // Dated far ahead so that the wall clock (recall's "now") is before its TTL.
  Claim c = ExtractOne("u1", "I like green tea.", "2099-03-01T10:00:00Z");
  ASSERT_FALSE(c.id.empty());
  {
    RawDb raw(db_path_);
    // Temporary, and recorded when it was said (so that decay does not archive it first).
    raw.Exec("UPDATE claims SET qualifiers = '[\"temporary\"]', ttl_version = 0, expires_at = NULL, "
             "recorded_from = valid_from WHERE id = '" + c.id + "'");
  }
  ASSERT_NEAR(c.importance, 0.6, 1e-9);
  MaintainReport early = Maintain(c.valid_from + 6 * kDayMs, "u1");
  EXPECT_EQ(early.total.ttl_assigned, 1);
  EXPECT_EQ(early.total.expired, 0);
  Claim assigned = Get(c.id);
  ASSERT_TRUE(assigned.expires_at.has_value());
  EXPECT_EQ(*assigned.expires_at, c.valid_from + 7 * kDayMs) << "importance 0.6: 7 days (HL-Mem table)";
  EXPECT_EQ(assigned.status, "active");
  EXPECT_TRUE(Has(RecallClaims("u1", "green tea"), c.id));

  MaintainReport late = Maintain(c.valid_from + 8 * kDayMs, "u1");
  EXPECT_EQ(late.total.expired, 1);
  Claim expired = Get(c.id);
  EXPECT_EQ(expired.status, "expired");
  ASSERT_TRUE(expired.valid_to.has_value());
  EXPECT_EQ(*expired.valid_to, *assigned.expires_at) << "the TTL closes the valid interval";
  EXPECT_FALSE(Has(RecallClaims("u1", "green tea"), c.id)) << "expired claims leave recall";
  EXPECT_TRUE(Has(RecallClaims("u1", "green tea", /*history=*/true), c.id)) << "and stay in history";
  EXPECT_THAT(HistoryActions(c.id), ::testing::Contains("expired"));
  EXPECT_THAT(AuditActions(c.id), ::testing::Contains("expired"));

  MaintainReport again = Maintain(c.valid_from + 9 * kDayMs, "u1");
  EXPECT_EQ(again.total.expired, 0) << "idempotent";
}

TEST_F(MaintainTest, ExplicitValidToWinsOverTheTable) {
  Claim c = ExtractOne("u1", "I like green tea.", "2099-03-01T10:00:00Z");
  const TimestampMs end = c.valid_from + 30 * kDayMs;
  {
    RawDb raw(db_path_);
    raw.Exec("UPDATE claims SET valid_to = " + std::to_string(end) +
             ", ttl_version = 0, recorded_from = valid_from WHERE id = '" + c.id + "'");
  }
  EXPECT_EQ(Maintain(end - 1, "u1").total.expired, 0);
  EXPECT_EQ(*Get(c.id).expires_at, end);
  EXPECT_EQ(Maintain(end, "u1").total.expired, 1);
  auto x = engine_->ExplainClaim(c.id);
  ASSERT_OK(x);
  ASSERT_FALSE(x->history.empty());
  EXPECT_THAT(x->history.back().reason, HasSubstr("valid_to"));
}

TEST_F(MaintainTest, RecallHidesAClaimPastItsTtlBeforeThePass) {
  // Written in 2024 as temporary: its 7 days are long over on the wall clock.
  Claim c = ExtractOne("u1", "I like green tea.");
  {
    RawDb raw(db_path_);
    raw.Exec("UPDATE claims SET qualifiers = '[\"temporary\"]', ttl_version = 0 WHERE id = '" + c.id + "'");
  }
  Maintain(c.valid_from, "u1");  // assigns expires_at, expires nothing at that clock
  EXPECT_EQ(Get(c.id).status, "active");
  EXPECT_FALSE(Has(RecallClaims("u1", "green tea"), c.id));
}

TEST_F(MaintainTest, DecayArchivesAfterThresholdAndGraceAndDropsVectors) {
  Claim c = ExtractOne("u1", "I like green tea.");
  {
    RawDb raw(db_path_);
    raw.Exec("INSERT INTO vectors(owner_type, owner_seq, namespace_id, model_id, dim, vector) SELECT 'claim', seq, "
             "namespace_id, 'hash-64', 1, x'0000803f' FROM claims WHERE id = '" + c.id + "'");
  }
  const TimestampMs t0 = c.recorded_from;
  MaintainReport half = Maintain(t0 + 90 * kDayMs);
  EXPECT_EQ(half.total.decayed, 1);
  EXPECT_NEAR(Get(c.id).activation, 0.5, 1e-9);

  MaintainReport below = Maintain(t0 + 390 * kDayMs);
  EXPECT_EQ(below.total.archived, 0) << "below 0.05 but in the 7-day grace period";
  EXPECT_EQ(Get(c.id).status, "active");

  MaintainReport archived = Maintain(t0 + 396 * kDayMs);
  EXPECT_EQ(archived.total.archived, 1);
  EXPECT_EQ(archived.total.vectors_dropped, 1);
  Claim a = Get(c.id);
  EXPECT_EQ(a.status, "archived");
  EXPECT_FALSE(Has(RecallClaims("u1", "green tea"), c.id)) << "out of recall";
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM vectors WHERE owner_type = 'claim'"), 0);
  EXPECT_THAT(HistoryActions(c.id), ::testing::Contains("archived"));
  EXPECT_THAT(AuditActions(c.id), ::testing::Contains("archived"));
  ListClaimsQuery q;
  q.namespace_name = "u1";
  q.include_history = true;
  ASSERT_OK_AND_ASSIGN(auto all, engine_->ListClaims(q));
  EXPECT_EQ(all.size(), 1u) << "history kept";
}

TEST_F(MaintainTest, IdentityAndExplicitMemoriesNeverAutoRetire) {
  Claim identity = ExtractOne("u1", "I live in Hangzhou.");
  ASSERT_EQ(identity.scope, "identity");
  RememberInput r;
  r.namespace_name = "u1";
  r.text = "I prefer window seats.";
  ASSERT_OK_AND_ASSIGN(RememberResult explicit_memory, engine_->Remember(r));
  ASSERT_FALSE(explicit_memory.claims.empty());
  const std::string explicit_id = explicit_memory.claims[0].id;
  MaintainReport report = Maintain(identity.recorded_from + 50 * 365 * kDayMs);
  EXPECT_EQ(report.total.archived, 0);
  EXPECT_EQ(Get(identity.id).status, "active");
  EXPECT_EQ(Get(explicit_id).status, "active");
  EXPECT_LT(Get(identity.id).activation, lifecycle::kArchiveThreshold) << "it decays for ranking";
}

TEST_F(MaintainTest, RecallHitsRecoverActivation) {
  Claim hit = ExtractOne("u1", "I like green tea.");
  Claim idle = ExtractOne("u1", "I like chess puzzles.");
  ASSERT_NE(hit.id, idle.id);
  {
    // Both learned 400 days before they were last seen: past the archive point.
    RawDb raw(db_path_);
    raw.Exec("UPDATE claims SET recorded_from = recorded_from - " + std::to_string(400 * kDayMs));
  }
  ASSERT_TRUE(Has(RecallClaims("u1", "green tea"), hit.id));
  engine_.reset();  // the hit goes to the hits log when the Engine goes, into the claim with the next pass
  Open();
  EXPECT_EQ(Get(hit.id).access_count, 0) << "recall never writes the database";
  MaintainReport report = Maintain(NowMs() + kDayMs);
  Claim seen = Get(hit.id);
  EXPECT_EQ(seen.access_count, 1);
  ASSERT_TRUE(seen.last_accessed_at.has_value());
  EXPECT_EQ(report.total.archived, 1);
  EXPECT_EQ(Get(hit.id).status, "active");
  EXPECT_GT(Get(hit.id).activation, 0.9);
  EXPECT_EQ(Get(idle.id).status, "archived");
}

TEST_F(MaintainTest, PendingHitsAreWrittenByThePass) {
  Claim c = ExtractOne("u1", "I like green tea.");
  ASSERT_TRUE(Has(RecallClaims("u1", "green tea"), c.id));
  ASSERT_TRUE(Has(RecallClaims("u1", "green tea"), c.id));
  MaintainReport report = Maintain(c.recorded_from + kDayMs);
  EXPECT_EQ(report.total.access_flushed, 1);
  EXPECT_EQ(Get(c.id).access_count, 2);
}

TEST_F(MaintainTest, HelpfulFeedbackOnTheEvidenceRecovers) {
  Claim rated = ExtractOne("u1", "I like green tea.");
  Claim idle = ExtractOne("u1", "I like chess puzzles.");
  const TimestampMs t0 = std::max(rated.recorded_from, idle.recorded_from);
  {
    RawDb raw(db_path_);
    raw.Exec("INSERT INTO feedback(namespace_id, owner_type, owner_seq, query_hash, helpful, created_at) "
             "SELECT e.namespace_id, 'event', e.seq, 'q', 1, " + std::to_string(t0 + 300 * kDayMs) +
             " FROM events e WHERE e.id = '" + rated.evidence.at(0).event_id + "'");
  }
  MaintainReport report = Maintain(t0 + 400 * kDayMs);
  EXPECT_EQ(report.total.archived, 1);
  EXPECT_EQ(Get(rated.id).status, "active");
  EXPECT_NEAR(Get(rated.id).activation, std::exp2(-100.0 / 90.0), 0.01);
  EXPECT_EQ(Get(idle.id).status, "archived");
}

TEST_F(MaintainTest, DuplicateClaimKeysConverge) {
  Claim c = ExtractOne("u1", "I like green tea.");
  {
    // A second current row of the same fact (as an import under an older fact hash could leave).
    RawDb raw(db_path_);
    raw.Exec(
        "INSERT INTO claims(id, namespace_id, subject, predicate, slot, value, text, qualifiers, negated, valid_from, "
        "valid_to, recorded_from, recorded_to, status, scope, authority, assertion, confidence, importance, topic_key, "
        "conflict_key, polarity_key, fact_hash, extractor) SELECT '01HZZZZZZZZZZZZZZZZZZZZZZ1', namespace_id, subject, "
        "predicate, slot, value, text, qualifiers, negated, valid_from, valid_to, recorded_from + 1, NULL, 'active', "
        "scope, authority, assertion, confidence, importance, topic_key, conflict_key, polarity_key, 'old-hash', "
        "extractor FROM claims WHERE id = '" + c.id + "'");
    raw.Exec("INSERT INTO claim_fts(rowid, body) SELECT seq, text FROM claims WHERE id = '01HZZZZZZZZZZZZZZZZZZZZZZ1'");
    raw.Exec("INSERT INTO claim_evidence(claim_seq, event_seq, relation, created_at) SELECT c.seq, e.seq, "
             "'supports', 0 FROM claims c, events e WHERE c.id = '01HZZZZZZZZZZZZZZZZZZZZZZ1'");
  }
  MaintainReport report = Maintain(c.recorded_from + kDayMs);
  EXPECT_EQ(report.total.converged, 1);
  Claim dup = Get("01HZZZZZZZZZZZZZZZZZZZZZZ1");
  EXPECT_EQ(dup.status, "superseded");
  EXPECT_EQ(dup.superseded_by_id, c.id);
  EXPECT_THAT(HistoryActions(dup.id), ::testing::Contains("converged"));
  EXPECT_EQ(Maintain(c.recorded_from + kDayMs).total.converged, 0);
}

TEST_F(MaintainTest, ResurrectionIsOffByDefaultAndAuditedWhenOn) {
  Claim c = ExtractOne("u1", "I like green tea.");
  ASSERT_EQ(Maintain(c.recorded_from + 400 * kDayMs).total.archived, 1);
  EXPECT_FALSE(Has(RecallClaims("u1", "green tea"), c.id));
  EXPECT_EQ(Get(c.id).status, "archived") << "off by default";

  Open(/*resurrect=*/true);
  EXPECT_TRUE(Has(RecallClaims("u1", "green tea"), c.id)) << "nothing current matched: it comes back";
  EXPECT_EQ(Get(c.id).status, "active");
  EXPECT_THAT(HistoryActions(c.id), ::testing::Contains("resurrected"));
  EXPECT_THAT(AuditActions(c.id), ::testing::Contains("resurrected"));
  EXPECT_FALSE(Has(RecallClaims("u1", "chess"), c.id));
}

TEST_F(MaintainTest, EveryNamespaceByDefaultAndUnknownNamespaceIsNotFound) {
  ExtractOne("u1", "I like green tea.");
  ExtractOne("u2", "I like chess puzzles.");
  MaintainReport report = Maintain(NowMs());
  ASSERT_EQ(report.namespaces.size(), 2u);
  EXPECT_EQ(report.namespaces[0].namespace_name, "u1");
  EXPECT_EQ(report.namespaces[1].namespace_name, "u2");
  MaintainRequest r;
  r.namespace_name = "nope";
  auto missing = engine_->Maintain(r);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
}

TEST_F(MaintainTest, SchemaFiveDatabaseIsMigratedToCurrent) {
  Claim c = ExtractOne("u1", "I like green tea.");
  engine_.reset();
  {
    // What a v5 file looks like: no lifecycle columns or indexes.
    RawDb raw(db_path_);
    raw.Exec("DROP INDEX claims_ttl_pending; DROP INDEX claims_expiry;"
             "ALTER TABLE claims DROP COLUMN expires_at; ALTER TABLE claims DROP COLUMN ttl_version;"
             "ALTER TABLE claims DROP COLUMN last_accessed_at; ALTER TABLE claims DROP COLUMN decay_below_since;"
             "PRAGMA user_version = 5;");
    EXPECT_EQ(raw.Int("SELECT count(*) FROM pragma_table_info('claims') WHERE name = 'expires_at'"), 0);
  }
  Open();
  ASSERT_OK_AND_ASSIGN(DoctorReport doctor, engine_->Doctor());
  EXPECT_EQ(doctor.schema_version, sqlite::kSchemaVersion);
  EXPECT_TRUE(doctor.ok) << ::testing::PrintToString(doctor.problems);
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM claims WHERE ttl_version = 0"), 1) << "TTL pending after migration";
  EXPECT_EQ(Maintain(c.recorded_from).total.ttl_assigned, 1);
  EXPECT_EQ(Get(c.id).status, "active");
}

}  // namespace
}  // namespace engram
