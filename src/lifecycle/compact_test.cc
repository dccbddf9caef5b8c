// lifecycle/compact_test.cc — after forget + compact, a canary appears in no byte of the database,
// its WAL or its shared-memory file (issue 5: "bytes are gone"); without compact, it still does
// (which is why compact exists, and proof that the scan can see it).
#include "lifecycle/compact.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "canary.h"
#include "test_util.h"

// Designated initializers name only the fields a test cares about.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace engram {
namespace {

using test::TempDir;

using test::FindCanary;

class CompactTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_path_ = dir_.File("m.db");
    unsetenv("ENGRAM_EXTRACTOR");
    ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(db_path_));
    // Ordinary memories around the canary, so that pages and index segments are shared.
    std::vector<EventInput> batch;
    for (int i = 0; i < 300; ++i) {
      batch.push_back({.namespace_name = "u1", .session_id = "s" + std::to_string(i % 7), .role = "user",
                       .content = "zebra crossing number " + std::to_string(i) + " near the canal",
                       .occurred_at = "2024-05-01T10:00:00Z"});
    }
    ASSERT_OK(engine_->IngestBatch(batch));
    ASSERT_OK_AND_ASSIGN(canary_event_,
                         engine_->Ingest({.namespace_name = "u1", .session_id = "s1", .role = "user",
                                          .content = "The vault word is Zebracanary4242, keep it secret.",
                                          .occurred_at = "2024-05-02T10:00:00Z"}));
    ASSERT_OK_AND_ASSIGN(remembered_, engine_->Remember({.namespace_name = "u1",
                                                          .text = "My locker phrase is Zebracanary4242."}));
    ASSERT_OK(engine_->Process(true));
    ASSERT_FALSE(FindCanary(db_path_).empty()) << "the scan must see the canary before forget";
  }

  void ForgetCanary() {
    ForgetRequest r;
    r.ids = {canary_event_.event.id, remembered_.event.id};
    r.namespace_name = canary_event_.event.namespace_name;
    ASSERT_OK_AND_ASSIGN(ForgetReport report, engine_->Forget(r));
    ASSERT_EQ(report.events, 2);
  }

  TempDir dir_;
  std::string db_path_;
  std::unique_ptr<Engine> engine_;
  IngestResult canary_event_;
  RememberResult remembered_;
};

TEST_F(CompactTest, ForgetThenCompactLeavesNoCanaryByteInAnyFile) {
  ForgetCanary();
  ASSERT_OK_AND_ASSIGN(CompactReport report, engine_->Compact());
  EXPECT_TRUE(report.wal_truncated);
  EXPECT_EQ(std::filesystem::file_size(db_path_ + "-wal"), 0u);
  EXPECT_THAT(FindCanary(db_path_), ::testing::IsEmpty()) << "with the engine open";
  // The rest is intact and still found.
  RecallQuery q{.text = "zebra crossing canal", .namespace_name = "u1"};
  ASSERT_OK_AND_ASSIGN(RecallResult found, engine_->Recall(q));
  EXPECT_FALSE(found.items.empty());
  ASSERT_OK_AND_ASSIGN(DoctorReport doctor, engine_->Doctor());
  EXPECT_TRUE(doctor.ok) << ::testing::PrintToString(doctor.problems);
  engine_.reset();
  EXPECT_THAT(FindCanary(db_path_), ::testing::IsEmpty()) << "after close";
}

TEST_F(CompactTest, CliCompactAlsoLeavesNoCanary) {
  ForgetCanary();
  engine_.reset();
  test::CliResult r = test::RunCli({"--db", db_path_, "--json", "compact"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, ::testing::HasSubstr("\"wal_truncated\":true"));
  EXPECT_THAT(FindCanary(db_path_), ::testing::IsEmpty());
  r = test::RunCli({"--db", db_path_, "--json", "doctor"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
}

// Documents what forget alone leaves: the rows are gone (and zeroed: secure_delete), but the
// full-text segments keep the term until they are merged and the WAL keeps old frames. This is
// why the issue asks for compact, and it shows the scan above can fail.
TEST_F(CompactTest, WithoutCompactTheCanaryStillLingersInTheFiles) {
  ForgetCanary();
  std::vector<std::string> remains = FindCanary(db_path_);
  EXPECT_FALSE(remains.empty());
  for (const std::string& r : remains) RecordProperty("remains", r);
  // ... while no interface can find it.
  RecallQuery q{.text = "Zebracanary4242", .namespace_name = "u1"};
  ASSERT_OK_AND_ASSIGN(RecallResult found, engine_->Recall(q));
  EXPECT_TRUE(found.items.empty());
}

}  // namespace
}  // namespace engram
