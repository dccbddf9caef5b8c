// lifecycle/forget_test.cc — the forget cascade through the Engine API: bug scenarios B14, B15,
// B17, B19, B20 and B22, re-ingest after forget, idempotence, validation, and the tombstone-first
// rule (a failed ledger write forgets nothing).
#include "lifecycle/forget.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "raw_db.h"
#include "test_util.h"
#include "util/time.h"

// Designated initializers name only the fields a test cares about.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace engram {
namespace {

using ::testing::HasSubstr;
using test::TempDir;

// A second, raw connection for what the API does not show: row counts, vectors, feedback.
class RawDb : public test::RawDb {
 public:
  using test::RawDb::RawDb;
  // Every row of every table that mentions the namespace, by table.
  std::map<std::string, int64_t> NamespaceCounts(const std::string& ns) {
    const std::string id = "(SELECT id FROM namespaces WHERE name = '" + ns + "')";
    return {
        {"events", Int("SELECT count(*) FROM events WHERE namespace_id = " + id)},
        {"event_fts", Int("SELECT count(*) FROM event_fts WHERE rowid IN (SELECT seq FROM events WHERE namespace_id = " +
                          id + ")")},
        {"claims", Int("SELECT count(*) FROM claims WHERE namespace_id = " + id)},
        {"claim_fts", Int("SELECT count(*) FROM claim_fts WHERE rowid IN (SELECT seq FROM claims WHERE namespace_id = " +
                          id + ")")},
        {"claim_evidence", Int("SELECT count(*) FROM claim_evidence WHERE claim_seq IN (SELECT seq FROM claims WHERE "
                               "namespace_id = " + id + ")")},
        {"claim_history", Int("SELECT count(*) FROM claim_history WHERE claim_seq IN (SELECT seq FROM claims WHERE "
                              "namespace_id = " + id + ")")},
        {"vectors", Int("SELECT count(*) FROM vectors WHERE namespace_id = " + id)},
        {"feedback", Int("SELECT count(*) FROM feedback WHERE namespace_id = " + id)},
        {"sessions", Int("SELECT count(*) FROM sessions WHERE namespace_id = " + id)},
        {"jobs", Int("SELECT count(*) FROM jobs WHERE namespace_id = " + id)},
        {"claim_decisions", Int("SELECT count(*) FROM claim_decisions WHERE namespace_id = " + id)},
    };
  }
  // A vector and a feedback row for every event and claim of the namespace (the embedding
  // channel is not wired into recall yet; the rows must still go with their owner — B14).
  void AddVectorsAndFeedback(const std::string& ns) {
    const std::string id = "(SELECT id FROM namespaces WHERE name = '" + ns + "')";
    Exec("INSERT INTO vectors(owner_type, owner_seq, namespace_id, model_id, dim, vector) SELECT 'event', seq, "
         "namespace_id, 'hash-64', 1, x'0000803f' FROM events WHERE namespace_id = " + id);
    Exec("INSERT INTO vectors(owner_type, owner_seq, namespace_id, model_id, dim, vector) SELECT 'claim', seq, "
         "namespace_id, 'hash-64', 1, x'0000803f' FROM claims WHERE namespace_id = " + id);
    Exec("INSERT INTO feedback(namespace_id, owner_type, owner_seq, query_hash, helpful, created_at) SELECT "
         "namespace_id, 'event', seq, 'q', 1, 0 FROM events WHERE namespace_id = " + id);
    Exec("INSERT INTO feedback(namespace_id, owner_type, owner_seq, query_hash, helpful, created_at) SELECT "
         "namespace_id, 'claim', seq, 'q', 1, 0 FROM claims WHERE namespace_id = " + id);
  }

};

class ForgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_path_ = dir_.File("m.db");
    unsetenv("ENGRAM_EXTRACTOR");
    ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(db_path_));
  }

  RememberResult Remember(const std::string& ns, const std::string& text, const std::string& at = "",
                          const std::string& session = "") {
    RememberInput in;
    in.namespace_name = ns;
    in.text = text;
    in.at = at;
    in.session_id = session;
    auto r = engine_->Remember(in);
    EXPECT_OK(r);
    return r ? *r : RememberResult{};
  }

  Event Ingest(const std::string& ns, const std::string& session, const std::string& content,
               const std::string& at = "2024-05-01T10:00:00Z") {
    EventInput in;
    in.namespace_name = ns;
    in.session_id = session;
    in.role = "user";
    in.content = content;
    in.occurred_at = at;
    auto r = engine_->Ingest(in);
    EXPECT_OK(r);
    return r ? r->event : Event{};
  }

  ForgetReport Forget(ForgetRequest r) {
    auto report = engine_->Forget(r);
    EXPECT_OK(report);
    return report ? *report : ForgetReport{};
  }

  ForgetReport ForgetIds(std::vector<std::string> ids, const std::string& ns = "u1") {
    ForgetRequest r;
    r.ids = std::move(ids);
    r.namespace_name = ns;
    return Forget(r);
  }

  std::vector<RecallItem> Recall(const std::string& ns, const std::string& text, bool claims, bool events) {
    RecallQuery q;
    q.namespace_name = ns;
    q.text = text;
    q.include_claims = claims;
    q.include_events = events;
    q.include_history = true;
    auto r = engine_->Recall(q);
    EXPECT_OK(r);
    return r ? r->items : std::vector<RecallItem>{};
  }

  // Every text engram can show for the namespace: events and claims through recall (both
  // channels, history included), session search, claim lists with evidence, explain.
  std::string EverythingFindable(const std::string& ns, const std::string& query) {
    std::string all;
    for (auto [claims, events] : {std::pair{true, true}, std::pair{true, false}, std::pair{false, true}}) {
      for (const RecallItem& it : Recall(ns, query, claims, events)) {
        all += it.text + "\n" + it.value + "\n";
        for (const EvidenceRef& e : it.evidence) all += e.content + "\n";
      }
    }
    SessionSearchQuery sq;
    sq.namespace_name = ns;
    sq.text = query;
    auto ss = engine_->SearchSessions(sq);
    EXPECT_OK(ss);
    if (ss) {
      for (const auto& h : ss->hits) {
        for (const Event& e : h.window) all += e.content + "\n";
      }
    }
    ListClaimsQuery lq;
    lq.namespace_name = ns;
    lq.include_history = true;
    auto claims = engine_->ListClaims(lq);
    EXPECT_OK(claims);
    if (claims) {
      for (const Claim& c : *claims) {
        all += c.text + "\n" + c.value + "\n" + c.subject + "\n";
        for (const EvidenceRef& e : c.evidence) all += e.content + "\n";
        auto x = engine_->ExplainClaim(c.id);
        EXPECT_OK(x);
        if (x) {
          for (const Claim& k : x->chain) all += k.text + "\n";
          for (const ClaimChange& h : x->history) all += h.before_json + h.after_json + "\n";
        }
      }
    }
    ListSessionsQuery ls;
    ls.namespace_name = ns;
    auto sessions = engine_->ListSessions(ls);
    EXPECT_OK(sessions);
    if (sessions) {
      for (const SessionInfo& s : *sessions) all += s.preview + "\n" + s.title + "\n";
    }
    return all;
  }

  void ExpectDoctorOk() {
    auto report = engine_->Doctor();
    ASSERT_OK(report);
    EXPECT_TRUE(report->ok) << ::testing::PrintToString(report->problems);
  }

  TempDir dir_;
  std::string db_path_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(ForgetTest, B14ForgottenMemoryIsFoundByNoPath) {
  RememberResult r = Remember("u1", "My locker phrase is ALPHA-BRAVO-7.");
  ASSERT_FALSE(r.claims.empty());
  Remember("u1", "I like green tea.");
  RawDb raw(db_path_);
  raw.AddVectorsAndFeedback("u1");
  ASSERT_THAT(EverythingFindable("u1", "ALPHA-BRAVO-7 locker phrase"), HasSubstr("ALPHA-BRAVO-7"));
  const int64_t vectors_before = raw.Int("SELECT count(*) FROM vectors");

  ForgetReport report = ForgetIds({r.claims.front().id});
  EXPECT_FALSE(report.preview);
  EXPECT_EQ(report.claims, 1);
  EXPECT_EQ(report.events, 1) << "the claim's private evidence event goes with it";
  EXPECT_EQ(report.vectors, 2);
  EXPECT_EQ(report.feedback, 2);
  EXPECT_EQ(report.tombstone_ids.size(), 2u);

  for (const char* q : {"ALPHA-BRAVO-7", "locker phrase", "locker", "ALPHA BRAVO"}) {
    EXPECT_THAT(EverythingFindable("u1", q), ::testing::Not(HasSubstr("ALPHA-BRAVO"))) << q;
  }
  EXPECT_EQ(raw.Int("SELECT count(*) FROM vectors"), vectors_before - 2);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM vectors v WHERE NOT EXISTS (SELECT 1 FROM events e WHERE v.owner_type = "
                    "'event' AND e.seq = v.owner_seq) AND NOT EXISTS (SELECT 1 FROM claims c WHERE v.owner_type = "
                    "'claim' AND c.seq = v.owner_seq)"),
            0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM event_fts WHERE event_fts MATCH '\"ALPHA\"'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM claim_fts WHERE claim_fts MATCH '\"ALPHA\"'"), 0);

  // get: the tombstone, never the content.
  auto event = engine_->GetEvent(r.event.id);
  ASSERT_FALSE(event.has_value());
  EXPECT_EQ(event.error().code(), StatusCode::kNotFound);
  EXPECT_THAT(event.error().message(), HasSubstr("forgotten"));
  EXPECT_THAT(event.error().message(), ::testing::Not(HasSubstr("ALPHA")));
  auto claim = engine_->GetClaim(r.claims.front().id);
  ASSERT_FALSE(claim.has_value());
  EXPECT_THAT(claim.error().message(), HasSubstr("forgotten"));
  engine_.reset();
  test::CliResult cli = test::RunCli({"--db", db_path_, "--json", "get", r.event.id});
  EXPECT_EQ(cli.exit_code, 0) << cli.Describe();
  EXPECT_THAT(cli.out, HasSubstr("\"forgotten\":true"));
  EXPECT_THAT(cli.out, ::testing::Not(HasSubstr("ALPHA")));
  cli = test::RunCli({"--db", db_path_, "--json", "recall", "-n", "u1", "ALPHA-BRAVO-7"});
  EXPECT_EQ(cli.exit_code, 0) << cli.Describe();
  EXPECT_THAT(cli.out, ::testing::Not(HasSubstr("ALPHA")));
  ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(db_path_));
  ExpectDoctorOk();
}

TEST_F(ForgetTest, B15ForgetAllLeavesOtherNamespacesUntouched) {
  for (const char* ns : {"u1", "u2", "u10"}) {
    Remember(ns, "I live in Lisbon.", "2024-03-01T09:00:00Z", std::string("s-") + ns);
    Remember(ns, "I work at Acme.", "2024-03-02T09:00:00Z", std::string("s-") + ns);
    Remember(ns, "I like green tea.", "2024-03-03T09:00:00Z");
    Ingest(ns, "chat", "the shared sentence about the weather");
  }
  RawDb raw(db_path_);
  for (const char* ns : {"u1", "u2", "u10"}) raw.AddVectorsAndFeedback(ns);
  const auto u2_before = raw.NamespaceCounts("u2");
  const auto u10_before = raw.NamespaceCounts("u10");
  ASSERT_EQ(u2_before.at("claims"), 3);
  ASSERT_GT(u2_before.at("vectors"), 0);

  ForgetRequest all;
  all.namespace_name = "u1";
  all.all = true;
  ForgetReport report = Forget(all);
  EXPECT_EQ(report.events, 4);
  EXPECT_EQ(report.claims, 3);

  for (const auto& [table, n] : raw.NamespaceCounts("u1")) {
    if (table != "claim_decisions") {
      EXPECT_EQ(n, 0) << table;
    }
  }
  EXPECT_EQ(raw.Int("SELECT count(*) FROM claim_decisions WHERE namespace_id = (SELECT id FROM namespaces WHERE "
                    "name = 'u1')"),
            0);
  EXPECT_EQ(raw.NamespaceCounts("u2"), u2_before);
  EXPECT_EQ(raw.NamespaceCounts("u10"), u10_before);
  ListClaimsQuery q;
  q.namespace_name = "u2";
  auto u2 = engine_->ListClaims(q);
  ASSERT_OK(u2);
  EXPECT_EQ(u2->size(), 3u);
  EXPECT_THAT(EverythingFindable("u2", "weather Lisbon Acme tea"), HasSubstr("weather"));
  ExpectDoctorOk();
}

TEST_F(ForgetTest, B17ForgottenNoteNoLongerAnswersAndIsNotCounted) {
  Remember("u1", "I am Persona-Q.");
  Remember("u1", "I like green tea.");
  auto hit = Recall("u1", "Who am I? Persona-Q", true, true);
  ASSERT_FALSE(hit.empty());
  ASSERT_THAT(hit.front().text, HasSubstr("Persona-Q"));
  auto before = engine_->Stats();
  ASSERT_OK(before);

  ForgetRequest r;
  r.namespace_name = "u1";
  r.query = "Persona-Q";
  ForgetReport preview = Forget(r);
  EXPECT_TRUE(preview.preview) << "a query selector must not apply without confirm";
  ASSERT_FALSE(preview.items.empty());
  for (const ForgetItem& it : preview.items) EXPECT_THAT(it.text, HasSubstr("Persona-Q"));
  EXPECT_FALSE(Recall("u1", "Persona-Q", true, true).empty()) << "the preview changed nothing";

  r.confirm = true;
  ForgetReport applied = Forget(r);
  EXPECT_FALSE(applied.preview);
  EXPECT_EQ(applied.events, 1);
  EXPECT_EQ(applied.claims, 1);
  EXPECT_THAT(EverythingFindable("u1", "Who am I? Persona-Q"), ::testing::Not(HasSubstr("Persona")));
  auto after = engine_->Stats();
  ASSERT_OK(after);
  EXPECT_EQ(after->events, before->events - 1);
  EXPECT_EQ(after->claims, before->claims - 1);
  EXPECT_EQ(after->active_claims, before->active_claims - 1);
  ExpectDoctorOk();
}

TEST_F(ForgetTest, QuerySelectorNeverTakesMerelySimilarMemories) {
  Remember("u1", "My locker phrase is ALPHA-BRAVO-7.");
  Remember("u1", "The gym locker is painted blue.");
  ForgetRequest r;
  r.namespace_name = "u1";
  r.query = "locker phrase";
  ForgetReport preview = Forget(r);
  ASSERT_TRUE(preview.preview);
  std::string texts;
  for (const ForgetItem& it : preview.items) texts += it.text + "\n";
  EXPECT_THAT(texts, HasSubstr("ALPHA-BRAVO-7"));
  EXPECT_THAT(texts, ::testing::Not(HasSubstr("gym"))) << "every term must occur";
  r.confirm = true;
  Forget(r);
  EXPECT_THAT(EverythingFindable("u1", "locker"), HasSubstr("gym locker"));
  EXPECT_THAT(EverythingFindable("u1", "locker"), ::testing::Not(HasSubstr("ALPHA")));
}

// The reliability driver forget_concurrency: "My locker code is C1", later "My locker code is C2"
// (C1's claim is superseded), then `forget --query C1 --yes` forgot nothing, because the query
// went through recall, which answers about now and leaves out an event whose claim no longer
// stands. The selection reads the full-text indexes instead: every copy of the text, any status.
TEST_F(ForgetTest, QuerySelectorTakesSupersededAndRepeatedCopies) {
  Remember("u1", "My locker code is zkqvbnmtrw.", "2024-03-01T10:00:00Z", "s1");
  Remember("u1", "My locker code is zkplhgfdcx.", "2024-03-05T10:00:00Z", "s1");
  Ingest("u1", "s2", "Reminder: my locker code is zkqvbnmtrw (old)");
  ForgetRequest r;
  r.namespace_name = "u1";
  r.query = "zkqvbnmtrw";
  r.confirm = true;
  ForgetReport report = Forget(r);
  EXPECT_EQ(report.events, 2);
  EXPECT_GE(report.claims, 1);
  EXPECT_THAT(EverythingFindable("u1", "locker code"), ::testing::Not(HasSubstr("zkqvbnmtrw")));
  EXPECT_THAT(EverythingFindable("u1", "locker code"), HasSubstr("zkplhgfdcx"));
  ExpectDoctorOk();
}

TEST_F(ForgetTest, B19ForgottenFactLeavesNoTraceInSurvivingSubjectAfterRestart) {
  EventInput e1{.namespace_name = "u1", .session_id = "s1", .role = "user",
                .content = "Person-P's locker code is CANARY-123.", .occurred_at = "2024-05-01T10:00:00Z",
                .speaker = "Person-P"};
  EventInput e2{.namespace_name = "u1", .session_id = "s2", .role = "user", .content = "I live in Lisbon.",
                .occurred_at = "2024-05-02T10:00:00Z", .speaker = "Person-P"};
  ASSERT_OK_AND_ASSIGN(IngestResult r1, engine_->Ingest(e1));
  ASSERT_OK(engine_->Ingest(e2));
  ASSERT_OK(engine_->Process(true));
  ForgetIds({r1.event.id});
  engine_.reset();
  ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(db_path_));
  const std::string all = EverythingFindable("u1", "CANARY-123 locker code Person-P Lisbon");
  EXPECT_THAT(all, ::testing::Not(HasSubstr("CANARY")));
  EXPECT_THAT(all, HasSubstr("Lisbon"));
  ExpectDoctorOk();
}

TEST_F(ForgetTest, B20SharedEvidenceSurvivesAndNothingPointsAtForgottenEvents) {
  RememberResult e1 = Remember("u1", "I live in Lisbon and I work at Acme.", "2024-03-01T09:00:00Z");
  ASSERT_EQ(e1.claims.size(), 2u) << ::testing::PrintToString(e1.decisions);
  RememberResult e2 = Remember("u1", "I work at Acme.", "2024-03-05T09:00:00Z");
  ASSERT_EQ(e2.decisions, std::vector<std::string>{"duplicate"});
  const Claim& c1 = e1.claims[0].predicate == "lives_in" ? e1.claims[0] : e1.claims[1];
  const Claim& c2 = e1.claims[0].predicate == "lives_in" ? e1.claims[1] : e1.claims[0];
  ASSERT_EQ(c2.predicate, "employer");

  ForgetReport report = ForgetIds({e1.event.id});
  EXPECT_EQ(report.events, 1);
  EXPECT_EQ(report.claims, 1) << "C1 (lives_in) had no other evidence; C2 (employer) survives";
  ASSERT_FALSE(engine_->GetClaim(c1.id).has_value());
  ASSERT_OK_AND_ASSIGN(Claim survivor, engine_->GetClaim(c2.id));
  ASSERT_EQ(survivor.evidence.size(), 1u);
  EXPECT_EQ(survivor.evidence[0].event_id, e2.event.id);
  EXPECT_EQ(survivor.status, "active");
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM claim_evidence ce WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.seq = "
                    "ce.event_seq)"),
            0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM claim_decisions d WHERE d.event_seq IS NOT NULL AND NOT EXISTS (SELECT 1 "
                    "FROM events e WHERE e.seq = d.event_seq)"),
            0);
  ExpectDoctorOk();
}

TEST_F(ForgetTest, B20ForgettingAClaimKeepsEvidenceSharedWithASurvivingClaim) {
  RememberResult e1 = Remember("u1", "I live in Lisbon and I work at Acme.", "2024-03-01T09:00:00Z");
  ASSERT_EQ(e1.claims.size(), 2u);
  RememberResult e2 = Remember("u1", "I work at Acme.", "2024-03-05T09:00:00Z");
  const Claim& employer = e1.claims[0].predicate == "employer" ? e1.claims[0] : e1.claims[1];
  const Claim& lives = e1.claims[0].predicate == "employer" ? e1.claims[1] : e1.claims[0];

  ForgetReport report = ForgetIds({employer.id});
  EXPECT_EQ(report.claims, 1);
  EXPECT_EQ(report.events, 1) << "E2 supported only the forgotten claim; E1 also supports lives_in";
  ASSERT_EQ(report.items.size(), 2u);
  EXPECT_EQ(report.items[0].id, e2.event.id);
  EXPECT_EQ(report.items[0].why, "private_evidence");
  EXPECT_OK(engine_->GetEvent(e1.event.id));
  EXPECT_FALSE(engine_->GetEvent(e2.event.id).has_value());
  ASSERT_OK_AND_ASSIGN(Claim kept, engine_->GetClaim(lives.id));
  ASSERT_EQ(kept.evidence.size(), 1u);
  EXPECT_EQ(kept.evidence[0].event_id, e1.event.id);
  ExpectDoctorOk();
}

TEST_F(ForgetTest, ReingestAndRememberAfterForgetStayForgottenUntilUnforget) {
  Event e = Ingest("u1", "s1", "my bank PIN is 9911");
  RememberResult r = Remember("u1", "My locker phrase is ALPHA-BRAVO-7.");
  ASSERT_FALSE(r.claims.empty());
  ForgetReport report = ForgetIds({e.id, r.claims.front().id});
  ASSERT_EQ(report.events, 2);

  // The same event again (same idempotency key), the same content in another session, the same
  // statement again, and the same fact in other words: none comes back.
  EventInput again{.namespace_name = "u1", .session_id = "s1", .role = "user", .content = "my bank PIN is 9911",
                   .occurred_at = "2024-05-01T10:00:00Z"};
  ASSERT_OK_AND_ASSIGN(IngestResult i1, engine_->Ingest(again));
  EXPECT_TRUE(i1.forgotten);
  EXPECT_FALSE(i1.duplicate);
  EXPECT_TRUE(i1.event.id.empty());
  EXPECT_FALSE(i1.tombstone_id.empty());
  again.session_id = "other";
  again.occurred_at = "2025-01-01T00:00:00Z";
  ASSERT_OK_AND_ASSIGN(auto batch, engine_->IngestBatch({again}));
  EXPECT_TRUE(batch[0].forgotten);
  RememberResult r2 = Remember("u1", "My locker phrase is ALPHA-BRAVO-7.");
  EXPECT_TRUE(r2.forgotten);
  EXPECT_TRUE(r2.claims.empty());
  RememberInput structured;
  structured.namespace_name = "u1";
  structured.subject = r.claims.front().subject;
  structured.predicate = r.claims.front().predicate;
  structured.value = r.claims.front().value;
  auto r3 = engine_->Remember(structured);
  ASSERT_OK(r3);
  EXPECT_FALSE(r3->forgotten) << "different words: the event is new";
  EXPECT_EQ(r3->decisions, std::vector<std::string>{"rejected:forgotten"}) << "but the fact stays forgotten";
  EXPECT_TRUE(r3->claims.empty());
  EXPECT_THAT(EverythingFindable("u1", "PIN 9911 ALPHA-BRAVO-7"), ::testing::Not(HasSubstr("9911")));
  auto stats = engine_->Stats();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->claims, 0);

  // The other namespace never forgot it.
  again.namespace_name = "u2";
  ASSERT_OK_AND_ASSIGN(IngestResult other, engine_->Ingest(again));
  EXPECT_FALSE(other.forgotten);

  // Unforget the event's tombstone: the content may be stored again.
  ASSERT_OK_AND_ASSIGN(Tombstone removed, engine_->Unforget(e.id, "user asked"));
  EXPECT_EQ(removed.object_id, e.id);
  again.namespace_name = "u1";
  ASSERT_OK_AND_ASSIGN(IngestResult back, engine_->Ingest(again));
  EXPECT_FALSE(back.forgotten);
  EXPECT_FALSE(back.event.id.empty());
  auto trail = engine_->AuditTrail(e.id);
  ASSERT_OK(trail);
  ASSERT_EQ(trail->size(), 2u);
  EXPECT_EQ((*trail)[0].action, "forget");
  EXPECT_EQ((*trail)[1].action, "unforget");
  EXPECT_EQ((*trail)[1].reason, "user asked");
  EXPECT_EQ(engine_->Unforget(e.id, "").error().code(), StatusCode::kNotFound);
  ExpectDoctorOk();
}

TEST_F(ForgetTest, SecondForgetSaysAlreadyForgotten) {
  RememberResult r = Remember("u1", "I like green tea.");
  ForgetReport first = ForgetIds({r.event.id});
  ASSERT_EQ(first.events, 1);
  ForgetReport second = ForgetIds({r.event.id, r.claims.front().id, first.tombstone_ids.front()});
  EXPECT_EQ(second.events, 0);
  EXPECT_EQ(second.claims, 0);
  EXPECT_TRUE(second.tombstone_ids.empty());
  EXPECT_EQ(second.already_forgotten.size(), 3u);
  auto tombstones = engine_->ListTombstones({.all_namespaces = true});
  ASSERT_OK(tombstones);
  EXPECT_EQ(tombstones->size(), 2u) << "no second tombstone";
}

TEST_F(ForgetTest, InvalidRequestsAndUnknownIdsChangeNothing) {
  RememberResult r = Remember("u1", "I like green tea.");
  Remember("u2", "I like black coffee.");
  auto code = [&](ForgetRequest req) {
    auto rep = engine_->Forget(req);
    return rep ? StatusCode::kOk : rep.error().code();
  };
  EXPECT_EQ(code({}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({.namespace_name = "u1"}), StatusCode::kInvalidArgument) << "a namespace alone selects nothing";
  EXPECT_EQ(code({.ids = {r.event.id}, .namespace_name = "u1", .all = true}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({.all = true}), StatusCode::kInvalidArgument) << "--all needs a namespace";
  EXPECT_EQ(code({.namespace_name = "u1", .session_id = "explicit", .subject = "user"}),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code({.namespace_name = "u1", .query = "   "}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({.namespace_name = "u1", .query = "tea", .query_limit = 0}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({.ids = {""}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({.namespace_name = "nope", .all = true}), StatusCode::kNotFound);
  EXPECT_EQ(code({.namespace_name = "u1", .session_id = "nope"}), StatusCode::kNotFound);
  EXPECT_EQ(code({.ids = {r.event.id}}), StatusCode::kInvalidArgument)
      << "ids need their namespace too: an empty one never means wherever they are (B27)";
  EXPECT_EQ(code({.ids = {r.event.id}, .namespace_name = " "}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code({.ids = {r.event.id, "01HZZZZZZZZZZZZZZZZZZZZZZZ"}, .namespace_name = "u1"}), StatusCode::kNotFound)
      << "one unknown id: nothing is forgotten";
  EXPECT_EQ(code({.ids = {r.event.id}, .namespace_name = "u2"}), StatusCode::kNotFound)
      << "an id of another namespace than the one given";
  EXPECT_OK(engine_->GetEvent(r.event.id));
  auto stats = engine_->Stats();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->events, 2);
  EXPECT_EQ(stats->claims, 2);
  auto tombstones = engine_->ListTombstones({.all_namespaces = true});
  ASSERT_OK(tombstones);
  EXPECT_TRUE(tombstones->empty());
}

TEST_F(ForgetTest, FailedLedgerWriteForgetsNothing) {
  RememberResult r = Remember("u1", "I like green tea.");
  RawDb raw(db_path_);
  raw.Exec("CREATE TRIGGER ledger_fails BEFORE INSERT ON tombstones BEGIN SELECT RAISE(ABORT, 'ledger full'); END");
  auto report = engine_->Forget({.ids = {r.event.id}, .namespace_name = "u1"});
  ASSERT_FALSE(report.has_value());
  EXPECT_THAT(report.error().message(), HasSubstr("ledger full"));
  EXPECT_OK(engine_->GetEvent(r.event.id));
  EXPECT_OK(engine_->GetClaim(r.claims.front().id));
  EXPECT_EQ(raw.Int("SELECT count(*) FROM audit_log"), 0);
  raw.Exec("DROP TRIGGER ledger_fails");
  EXPECT_EQ(ForgetIds({r.event.id}).events, 1);
}

TEST_F(ForgetTest, SelectorsSessionSubjectBeforeAndDryRun) {
  Ingest("u1", "s1", "first message in session one", "2024-01-01T10:00:00Z");
  Ingest("u1", "s1", "second message in session one", "2024-01-02T10:00:00Z");
  Ingest("u1", "s2", "a message in session two", "2024-06-01T10:00:00Z");
  Remember("u1", "I live in Lisbon.", "2024-03-01T09:00:00Z", "s3");
  ForgetReport dry = Forget({.namespace_name = "u1", .session_id = "s1", .preview = true});
  EXPECT_TRUE(dry.preview);
  EXPECT_EQ(dry.events, 2);
  auto stats = engine_->Stats();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->events, 4);

  ForgetReport session = Forget({.namespace_name = "u1", .session_id = "s1"});
  EXPECT_EQ(session.events, 2);
  EXPECT_EQ(session.sessions, 1);
  auto sessions = engine_->ListSessions({.namespace_name = "u1"});
  ASSERT_OK(sessions);
  EXPECT_EQ(sessions->size(), 2u);

  ForgetReport subject = Forget({.namespace_name = "u1", .subject = "user"});
  EXPECT_EQ(subject.claims, 1);
  EXPECT_EQ(subject.events, 1) << "the claim's private evidence";

  ForgetReport before = Forget({.namespace_name = "u1", .before = *ParseTimestamp("2024-07-01")});
  EXPECT_EQ(before.events, 1);
  stats = engine_->Stats();
  ASSERT_OK(stats);
  EXPECT_EQ(stats->events, 0);
  EXPECT_EQ(stats->sessions, 0);
  ExpectDoctorOk();
}

TEST_F(ForgetTest, B22HistoryOfAForgottenClaimIsOrderedWithTimesActorsAndStatuses) {
  RememberInput in{.namespace_name = "u1", .subject = "user", .predicate = "lives_in", .value = "Beijing",
                   .at = "2024-01-01T00:00:00Z"};
  ASSERT_OK_AND_ASSIGN(RememberResult created, engine_->Remember(in));
  in.value = "Hangzhou";
  in.at = "2024-06-01T00:00:00Z";
  ASSERT_OK_AND_ASSIGN(RememberResult updated, engine_->Remember(in));
  ASSERT_EQ(updated.decisions, std::vector<std::string>{"superseded"});
  const std::string id = created.claims.front().id;
  ForgetRequest r{.ids = {id}, .namespace_name = "u1", .reason = "user request", .actor = "tester"};
  ForgetReport report = Forget(r);
  ASSERT_EQ(report.claims, 1);

  ASSERT_OK_AND_ASSIGN(auto trail, engine_->AuditTrail(id));
  std::vector<std::string> actions;
  for (const AuditEntry& a : trail) {
    actions.push_back(a.action);
    EXPECT_GT(a.at, 0);
    EXPECT_FALSE(a.actor.empty());
    EXPECT_THAT(a.detail_json, ::testing::Not(HasSubstr("Beijing")));
  }
  ASSERT_EQ(actions, (std::vector<std::string>{"created", "superseded", "forget"}));
  EXPECT_THAT(trail[0].detail_json, HasSubstr("\"before_status\":null"));
  EXPECT_THAT(trail[0].detail_json, HasSubstr("\"after_status\":\"active\""));
  EXPECT_THAT(trail[1].detail_json, HasSubstr("\"after_status\":\"superseded\""));
  EXPECT_EQ(trail[2].actor, "tester");
  EXPECT_EQ(trail[2].reason, "user request");
  EXPECT_TRUE(std::is_sorted(trail.begin(), trail.end(), [](const AuditEntry& a, const AuditEntry& b) {
    return a.at != b.at ? a.at < b.at : a.seq < b.seq;
  }));

  // The CLI shows it too, instead of "not found".
  engine_.reset();
  test::CliResult cli = test::RunCli({"--db", db_path_, "--json", "history", id});
  ASSERT_EQ(cli.exit_code, 0) << cli.Describe();
  EXPECT_THAT(cli.out, HasSubstr("\"forgotten\":true"));
  EXPECT_THAT(cli.out, HasSubstr("\"action\":\"forget\""));
  EXPECT_THAT(cli.out, ::testing::Not(HasSubstr("Beijing")));
  cli = test::RunCli({"--db", db_path_, "history", "01HZZZZZZZZZZZZZZZZZZZZZZZ"});
  EXPECT_EQ(cli.exit_code, 3) << cli.Describe();
}

// The ledger of one forget, item by item: events first, then claims; a tombstone per item in the
// same order, all of one operation; one audit row for the operation with its counts, then one per
// item naming its tombstone and why it went.
TEST_F(ForgetTest, EachItemHasItsTombstoneAndAuditRowInTheReportsOrder) {
  RememberResult r = Remember("u1", "I like green tea.");
  ForgetReport report = ForgetIds({r.event.id});
  ASSERT_EQ(report.items.size(), 2u);
  EXPECT_EQ(report.items[0].type, "event");
  EXPECT_EQ(report.items[0].why, "selected");
  EXPECT_EQ(report.items[1].type, "claim");
  EXPECT_EQ(report.items[1].why, "no_evidence_left");
  ASSERT_EQ(report.tombstone_ids.size(), report.items.size());
  RawDb raw(db_path_);
  const std::string op = "'" + report.operation_id + "'";
  EXPECT_EQ(raw.Text("SELECT detail FROM audit_log WHERE object_type = 'operation' AND object_id = " + op),
            R"({"selector":{"kind":"id"},"events":1,"claims":1})");
  for (size_t i = 0; i < report.items.size(); ++i) {
    const ForgetItem& item = report.items[i];
    const std::string tomb = "'" + report.tombstone_ids[i] + "'";
    EXPECT_EQ(raw.Text("SELECT object_type || ' ' || object_id || ' ' || operation_id FROM tombstones WHERE id = " + tomb),
              item.type + " " + item.id + " " + report.operation_id);
    EXPECT_EQ(raw.Text("SELECT detail FROM audit_log WHERE action = 'forget' AND object_id = '" + item.id + "'"),
              R"({"tombstone":")" + report.tombstone_ids[i] + R"(","operation":")" + report.operation_id +
                  R"(","why":")" + item.why + R"("})");
  }
  EXPECT_LT(raw.Int("SELECT seq FROM audit_log WHERE object_id = " + op),
            raw.Int("SELECT seq FROM audit_log WHERE action = 'forget' AND object_id = '" + report.items[0].id + "'"));
}

TEST_F(ForgetTest, TombstonesAndAuditHoldNoContent) {
  RememberResult r = Remember("u1", "My locker phrase is ZEBRACANARY4242.");
  ForgetRequest q{.namespace_name = "u1", .query = "ZEBRACANARY4242", .confirm = true,
                  .reason = "cleanup"};
  ForgetReport report = Forget(q);
  ASSERT_EQ(report.events, 1);
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM tombstones WHERE lower(selector || object_id || coalesce(content_hash, '') "
                    "|| reason) LIKE '%zebracanary%'"),
            0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM audit_log WHERE lower(detail || reason || object_id) LIKE '%zebracanary%'"), 0);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM audit_log WHERE action = 'forget'"), 3) << "operation, event, claim";
}

TEST_F(ForgetTest, SchemaThreeDatabaseIsMigratedToFourWithTheLedger) {
  RememberResult r = Remember("u1", "I like green tea.");
  engine_.reset();
  {
    RawDb raw(db_path_);
    raw.Exec("DROP TABLE tombstones; DROP TABLE audit_log; PRAGMA user_version = 3;");
  }
  ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(db_path_));
  ASSERT_OK_AND_ASSIGN(DoctorReport doctor, engine_->Doctor());
  EXPECT_EQ(doctor.schema_version, sqlite::kSchemaVersion);
  EXPECT_TRUE(doctor.ok) << ::testing::PrintToString(doctor.problems);
  EXPECT_EQ(ForgetIds({r.event.id}).tombstone_ids.size(), 2u);
}

TEST_F(ForgetTest, ExtractionWorkerDoesNotRederiveAForgottenFact) {
  Ingest("u1", "s1", "I live in Lisbon.", "2024-05-01T10:00:00Z");
  ASSERT_OK_AND_ASSIGN(ProcessReport first, engine_->Process(true));
  ASSERT_EQ(first.claims_created, 1);
  ForgetReport report = Forget({.namespace_name = "u1", .subject = "user"});
  ASSERT_EQ(report.claims, 1);
  // New words, same fact, through the queue.
  Ingest("u1", "s2", "I live in Lisbon!", "2024-06-01T10:00:00Z");
  ASSERT_OK_AND_ASSIGN(ProcessReport second, engine_->Process(true));
  EXPECT_EQ(second.claims_created, 0);
  EXPECT_GE(second.candidates_rejected, 1);
  EXPECT_EQ(second.jobs_failed, 0);
  ListClaimsQuery q;
  q.namespace_name = "u1";
  q.include_history = true;
  ASSERT_OK_AND_ASSIGN(auto claims, engine_->ListClaims(q));
  EXPECT_TRUE(claims.empty());
  RawDb raw(db_path_);
  EXPECT_EQ(raw.Int("SELECT count(*) FROM claim_decisions WHERE reason = 'forgotten' AND candidate = '{}'"), 1)
      << "the refusal is recorded without the candidate's text";
  ExpectDoctorOk();
}

TEST_F(ForgetTest, CliValidatesLikeTheLibraryAndUsesTheExitCodes) {
  RememberResult r = Remember("u1", "I like green tea.");
  engine_.reset();
  auto engram = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db_path_});
    return test::RunCli(args);
  };
  EXPECT_EQ(engram({"forget"}).exit_code, 2);
  EXPECT_EQ(engram({"forget", "--namespace", "u1", "--all", r.event.id}).exit_code, 2);
  EXPECT_EQ(engram({"forget", "--all"}).exit_code, 2);
  EXPECT_EQ(engram({"forget", "--namespace", "u1", "--before", "not a date"}).exit_code, 2);
  EXPECT_EQ(engram({"forget", "--query", "tea"}).exit_code, 2);
  EXPECT_EQ(engram({"forget", "01HZZZZZZZZZZZZZZZZZZZZZZZ"}).exit_code, 3);
  EXPECT_EQ(engram({"forget", "--namespace", "nope", "--all"}).exit_code, 3);
  EXPECT_EQ(engram({"unforget", "01HZZZZZZZZZZZZZZZZZZZZZZZ"}).exit_code, 3);
  EXPECT_EQ(engram({"tombstones", "--namespace", "nope"}).exit_code, 3);
  test::CliResult preview = engram({"forget", "--namespace", "u1", "--query", "green tea"});
  EXPECT_EQ(preview.exit_code, 0) << preview.Describe();
  EXPECT_THAT(preview.out, HasSubstr("--yes"));
  EXPECT_THAT(preview.out, HasSubstr("green tea"));
  test::CliResult done = engram({"forget", "--namespace", "u1", "--query", "green tea", "--yes"});
  EXPECT_EQ(done.exit_code, 0) << done.Describe();
  EXPECT_THAT(done.out, HasSubstr("forgot 1 event(s) and 1 claim(s)"));
  test::CliResult again = engram({"forget", r.event.id});
  EXPECT_EQ(again.exit_code, 0) << again.Describe();
  EXPECT_THAT(again.out, HasSubstr("already forgotten: " + r.event.id));
  test::CliResult list = engram({"--json", "tombstones", "--namespace", "u1"});
  EXPECT_EQ(list.exit_code, 0) << list.Describe();
  EXPECT_THAT(list.out, HasSubstr(r.event.id));
  EXPECT_THAT(list.out, ::testing::Not(HasSubstr("green")));
}

}  // namespace
}  // namespace engram
