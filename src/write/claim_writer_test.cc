#include "write/claim_writer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "test_util.h"

namespace engram {
namespace {

constexpr TimestampMs kT0 = 1'700'000'000'000;

// Counts SQLite virtual-machine instructions: a measure of work that does not depend on the
// machine's speed or load.
int CountStep(void* steps) {
  ++*static_cast<int64_t*>(steps);
  return 0;
}

class ClaimWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.db_path = dir_.File("claims.db");
    auto db = sqlite::Database::Open(options);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    db_ = std::move(*db);
    ASSERT_OK(sqlite::RegisterFts5Extensions(db_->handle()));
    ASSERT_OK(sqlite::Migrate(*db_, TextAnalysis::kFull));
    claims_ = std::make_unique<sqlite::ClaimStore>(*db_);
    tombstones_ = std::make_unique<sqlite::TombstoneStore>(*db_);
    sqlite::EventStore events(*db_);
    ASSERT_OK(db_->WriteTransaction([&]() -> Status {
      auto ns = events.EnsureNamespace("n", 0);
      if (!ns) return ns.error();
      namespace_id_ = *ns;
      sqlite::EventRow row;
      row.event.id = "e1";
      row.event.session_id = "s";
      row.event.role = "user";
      row.event.content = "I live in Paris";
      row.event.occurred_at = kT0;
      row.event.recorded_at = kT0;
      row.event.origin_class = "direct_user";
      row.event.content_hash = "h1";
      row.event.idempotency_key = "k1";
      row.session_kind = "interactive";
      row.indexed_text = row.event.content;
      auto session = events.EnsureSession(*ns, row, 0);
      if (!session) return session.error();
      auto seq = events.Insert(*ns, *session, row);
      if (!seq) return seq.error();
      event_seq_ = *seq;
      return Status::Ok();
    }));
  }

  // "Lin lives in <value>", said at kT0 + i s: each one supersedes the current value.
  Result<ClaimWriteOutcome> Restate(int i, const std::string& value) { return Write(i, "lives_in", value); }

  // "Lin <predicate> <value>", said at kT0 + i s.
  Result<ClaimWriteOutcome> Write(int i, const std::string& predicate, const std::string& value) {
    extraction::CandidateClaim c;
    c.subject = "Lin";
    c.predicate = predicate;
    c.value = value;
    c.text = "Lin " + predicate + " " + value;
    c.scope = "identity";
    return WriteCandidate(i, c);
  }

  // `c`, said at kT0 + i s.
  Result<ClaimWriteOutcome> WriteCandidate(int i, extraction::CandidateClaim c) {
    c.source_events = {0};
    ClaimWriteInput in;
    in.namespace_id = namespace_id_;
    in.namespace_name = "n";
    in.candidate = &c;
    in.admission = AdmissionDecision{true, "admitted", "", "high", "fact"};
    in.source_event_seqs = {event_seq_};
    in.source_time = kT0 + 1000 * i;
    in.extractor = "test";
    in.actor = "test";
    in.now = kT0 + 1000 * i;
    Result<ClaimWriteOutcome> out = Error(Status::Internal("not run"));
    Status st = db_->WriteTransaction([&]() -> Status {
      out = WriteClaim(*claims_, *tombstones_, registry_, in);
      return out ? Status::Ok() : out.error();
    });
    if (!st.ok()) return Error(st);
    return out;
  }

  // Restates the slot until it has `history` claims (alternating two values), then returns the VM
  // instructions that writing one more statement of it took.
  int64_t StepsOfOneMoreAfter(int history) {
    for (int i = next_; i < history; ++i) {
      auto out = Restate(i, i % 2 == 0 ? "Paris" : "Oslo");
      EXPECT_TRUE(out.has_value()) << out.error().ToString();
    }
    next_ = history + 1;
    int64_t steps = 0;
    sqlite3_progress_handler(db_->handle(), 1, &CountStep, &steps);
    auto out = Restate(history, "Lima");
    sqlite3_progress_handler(db_->handle(), 0, nullptr, nullptr);
    EXPECT_TRUE(out.has_value()) << out.error().ToString();
    if (out) {
      EXPECT_EQ(out->decision, kDecisionSuperseded);
    }
    return steps;
  }

  test::TempDir dir_;
  std::unique_ptr<sqlite::Database> db_;
  std::unique_ptr<sqlite::ClaimStore> claims_;
  std::unique_ptr<sqlite::TombstoneStore> tombstones_;
  PredicateRegistry registry_;
  int64_t namespace_id_ = 0;
  int64_t event_seq_ = 0;
  int next_ = 0;
};

// B43 (extraction slowed from 5.4 s to 116 s per 2,000 events as the namespace grew): the
// lookups of a candidate's slot, topic and polarity read the key's current claims only, so writing
// a statement costs the same after 20 or 600 earlier statements of the slot. Before the fix each
// lookup read the slot's whole history (about 30 times the work at 600).
TEST_F(ClaimWriterTest, B43_WritingAClaimDoesNotReadTheSlotsHistory) {
  const int64_t after_20 = StepsOfOneMoreAfter(20);
  const int64_t after_600 = StepsOfOneMoreAfter(600);
  ASSERT_GT(after_20, 0);
  // The full-text and b-tree inserts grow with log(n); the history must not show at all.
  EXPECT_LT(after_600, after_20 * 3 / 2) << "after 20: " << after_20 << " steps, after 600: " << after_600;
  auto current = claims_->CurrentByConflictKey(namespace_id_, "lin|lives_in|");
  ASSERT_TRUE(current.has_value());
  ASSERT_EQ(current->size(), 1u);
  EXPECT_EQ(current->front().claim.value, "Lima");
}

// B43, the near-copy check: a multi-valued topic holding many current values (one speaker's
// "likes", each with a number: numbers are protected atoms, so none is a near-copy of another) is
// read only where a near-copy can be, the values with the candidate's atoms.
TEST_F(ClaimWriterTest, B43_TheNearCopyCheckReadsOnlyValuesWithTheSameAtoms) {
  auto steps_of_one_more_after = [&](int from, int to) {
    for (int i = from; i < to; ++i) {
      auto out = Write(i, "likes", "dish number " + std::to_string(i));
      EXPECT_TRUE(out.has_value()) << out.error().ToString();
    }
    int64_t steps = 0;
    sqlite3_progress_handler(db_->handle(), 1, &CountStep, &steps);
    auto out = Write(to, "likes", "dish number " + std::to_string(to));
    sqlite3_progress_handler(db_->handle(), 0, nullptr, nullptr);
    EXPECT_TRUE(out.has_value());
    if (out) {
      EXPECT_EQ(out->decision, kDecisionCreated);
    }
    return steps;
  };
  const int64_t after_20 = steps_of_one_more_after(0, 20);
  const int64_t after_600 = steps_of_one_more_after(21, 600);
  ASSERT_GT(after_20, 0);
  EXPECT_LT(after_600, after_20 * 3 / 2) << "after 20: " << after_20 << " steps, after 600: " << after_600;
}

TEST_F(ClaimWriterTest, ANearCopyStillMergesWhateverItsKey) {
  // Same atoms (none): merged.
  ASSERT_TRUE(Write(1, "likes", "green tea").has_value());
  auto same = Write(2, "likes", "green tea daily");
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->decision, kDecisionMerged);
  // A claim written before schema 13 has no key: it is still checked.
  ASSERT_TRUE(Write(3, "likes", "sushi 7").has_value());
  ASSERT_OK(db_->Exec("UPDATE claims SET near_copy_key = NULL"));
  auto old = Write(4, "likes", "fresh sushi 7");
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->decision, kDecisionMerged);
  // Other atoms: never a near-copy.
  auto other = Write(5, "likes", "sushi 8");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->decision, kDecisionCreated);
}

TEST_F(ClaimWriterTest, B43_AnUpgradedDatabaseGetsTheNearCopyKeysOfItsCurrentClaims) {
  // A file from before schema 13: its claims have no key, so every near-copy check of their
  // topic read them all. Migration 16 gives the current ones theirs.
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(Write(i, "likes", "dish number " + std::to_string(i)).has_value());
  ASSERT_OK(db_->Exec("UPDATE claims SET near_copy_key = NULL; PRAGMA user_version = 15"));
  ASSERT_OK(sqlite::Migrate(*db_, TextAnalysis::kFull));
  auto missing = db_->QueryInt("SELECT count(*) FROM claims WHERE near_copy_key IS NULL AND status = 'active'");
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(*missing, 0);
  auto wrong = db_->QueryInt("SELECT count(*) FROM claims WHERE near_copy_key IS NOT "
                             "'a:1:' || substr(value, 13) || char(31)");  // "dish number N" has one atom, N
  ASSERT_TRUE(wrong.has_value());
  EXPECT_EQ(*wrong, 0);
  EXPECT_EQ(NearCopyKey("dish number 7"), std::string("a:1:7\x1f"));
}

TEST_F(ClaimWriterTest, B43_AfterTheMigrationTheNearCopyCheckOfAnOldTopicReadsOnlyItsKey) {
  auto steps_of_write = [&](int i) {
    int64_t steps = 0;
    sqlite3_progress_handler(db_->handle(), 1, &CountStep, &steps);
    auto out = Write(i, "likes", "dish number " + std::to_string(i));
    sqlite3_progress_handler(db_->handle(), 0, nullptr, nullptr);
    EXPECT_TRUE(out.has_value());
    if (out) {
      EXPECT_EQ(out->decision, kDecisionCreated);
    }
    return steps;
  };
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(Write(i, "likes", "dish number " + std::to_string(i)).has_value());
  ASSERT_OK(db_->Exec("UPDATE claims SET near_copy_key = NULL"));
  const int64_t before = steps_of_write(200);
  ASSERT_OK(db_->Exec("UPDATE claims SET near_copy_key = NULL; PRAGMA user_version = 15"));
  ASSERT_OK(sqlite::Migrate(*db_, TextAnalysis::kFull));
  const int64_t after = steps_of_write(201);
  EXPECT_LT(after * 2, before) << after << " VM steps after the migration, " << before << " before";
}

TEST_F(ClaimWriterTest, NearCopyKeysAreEqualForNearCopies) {
  EXPECT_NE(NearCopyKey("吃寿司 (p6"), NearCopyKey("吃寿司 (p10"));
  EXPECT_NE(NearCopyKey("version 1.2"), NearCopyKey("version 1.3"));
  EXPECT_FALSE(NearCopyKey("").empty());
  for (const char* a : {"Paris", "a Leica M6", "吃寿司", "version 1.2", "Green tea"}) {
    for (const char* b : {"Paris", "paris", "Leica M6", "a Leica M7", "吃寿司 (p6", "version 1.3", "green tea"}) {
      if (IsNearCopy(a, b)) {
        EXPECT_EQ(NearCopyKey(a), NearCopyKey(b)) << a << " / " << b;
      }
    }
  }
}

TEST_F(ClaimWriterTest, NearCopyOfMatchesIsNearCopy) {
  for (const char* a : {"Paris", "a Leica M6", "吃寿司", "version 1.2", ""}) {
    const NearCopyOf fixed(a);
    for (const char* b : {"Paris", "paris", "Leica M6", "a Leica M7", "吃寿司 (p6", "version 1.3", ""}) {
      EXPECT_EQ(fixed.Matches(b), IsNearCopy(a, b)) << a << " / " << b;
    }
  }
}

// A statement of `subject` kept whole (`explicit_memory`: the grammar read nothing from it).
extraction::CandidateClaim Statement(const std::string& subject, const std::string& text) {
  extraction::CandidateClaim c;
  c.subject = subject;
  c.predicate = "explicit_memory";
  c.value = text;
  c.text = text;
  c.evidence_span = text;
  c.scope = "explicit";
  return c;
}

// An act of the speaker's read from `evidence` ("did": "swapped out the printer").
extraction::CandidateClaim Act(const std::string& value, const std::string& evidence) {
  extraction::CandidateClaim c = Statement("Lin", value);
  c.predicate = "did";
  c.evidence_span = evidence;
  c.scope = "activity";
  return c;
}

// Issue 16 (write/same_thing.h): a change naming the thing an older statement was about closes
// it, whichever attributes the grammar read the two into; the older stays as history.
TEST_F(ClaimWriterTest, AChangeNamingTheThingClosesTheOlderStatement) {
  ASSERT_TRUE(WriteCandidate(1, Statement("Lin", "The hallway printer is a Brother HL-L2350.")).has_value());
  auto out = WriteCandidate(2, Act("swapped out the hallway printer for an HP LaserJet",
                                   "We swapped out the hallway printer for an HP LaserJet."));
  ASSERT_TRUE(out.has_value()) << out.error().ToString();
  EXPECT_EQ(out->decision, kDecisionSuperseded);
  EXPECT_EQ(out->superseded, 1);
  auto current = claims_->CurrentBySubject(namespace_id_, "Lin");
  ASSERT_TRUE(current.has_value());
  ASSERT_EQ(current->size(), 1u);
  EXPECT_EQ(current->front().claim.predicate, "did");
}

// What does not change an older statement, each against a fresh one: no word of change, a
// restatement, a plan, a state said with its end, another subject, a temporary change of the usual,
// and an act never closed by shared words (what someone is doing: several at once).
TEST_F(ClaimWriterTest, WhatDoesNotCloseTheOlderStatement) {
  struct Case {
    extraction::CandidateClaim older, newer;
  };
  auto planned = Act("moving the hallway printer to Canon", "We might move the hallway printer to Canon.");
  planned.qualifiers = {extraction::kQualPlanned};
  extraction::CandidateClaim doing = Statement("Lin", "doing a lot of watercolor painting");
  doing.predicate = "doing";
  const Case cases[] = {
      {Statement("Lin", "The hallway printer is a Brother."), Act("printed on the hallway printer", "I printed the tickets on the hallway printer.")},
      {Statement("Lin", "The hallway printer is a Brother."), Act("switched the hallway printer to a Brother", "I switched the hallway printer to a Brother.")},
      {Statement("Lin", "The hallway printer is a Brother."), planned},
      {Statement("Lin", "My email is lin@example.com."), Act("switched email to lin.trip@example.com", "For the next few days I switched email to lin.trip@example.com.")},
      {Statement("Lin", "The hallway printer is a Brother."), Statement("Mei", "Mei's hallway printer is now a Canon.")},
      {Statement("Lin", "I usually park on level 2."), Act("switched parking to level 5", "For a while I switched parking to level 5.")},
      {doing, Act("switched from painting to pottery classes", "I just switched painting for pottery classes.")},
  };
  int i = 10;
  for (const Case& c : cases) {
    ASSERT_OK(db_->WriteTransaction([&]() -> Status {
      return db_->Exec("UPDATE claims SET status = 'archived' WHERE status = 'active'");
    }));
    ASSERT_TRUE(WriteCandidate(i++, c.older).has_value());
    auto out = WriteCandidate(i++, c.newer);
    ASSERT_TRUE(out.has_value()) << out.error().ToString();
    EXPECT_EQ(out->superseded, 0) << c.older.value << " / " << c.newer.evidence_span;
  }
}

}  // namespace
}  // namespace engram
