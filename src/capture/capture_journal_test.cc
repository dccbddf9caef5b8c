// capture/capture_journal_test.cc — ack, retry with backoff, dead letters and payloads by reference.
#include "capture/capture_journal.h"

#include <gtest/gtest.h>

#include <set>

#include "raw_db.h"
#include "test_util.h"
#include "util/time.h"

namespace engram::capture {
namespace {

using test::ReadFile;
using test::TempDir;
using test::WriteFile;

ToolCallRecord Record(const std::string& id, size_t args_size = 10, size_t result_size = 10) {
  ToolCallRecord r;
  r.capture_id = id;
  r.connection_id = "c";
  r.request_id = "1";
  r.tool_name = "t";
  r.outcome = "ok";
  r.args_json = std::string(args_size, 'a');
  r.result_json = std::string(result_size, 'r');
  return r;
}

class CaptureJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto j = CaptureJournal::Open(dir_.File("journal"));
    ASSERT_TRUE(j.has_value()) << j.error().message();
    journal_ = std::move(*j);
  }
  TempDir dir_;
  std::unique_ptr<CaptureJournal> journal_;
};

TEST_F(CaptureJournalTest, RecordsAreDueInOrderUntilAcknowledged) {
  ASSERT_TRUE(journal_->Append(Record("A"), {}).ok());
  ASSERT_TRUE(journal_->Append(Record("B"), {}).ok());
  ASSERT_TRUE(journal_->Append(Record("A"), {}).ok());  // the same capture again: a no-op
  auto due = journal_->Due(NowMs(), 10);
  ASSERT_TRUE(due.has_value());
  ASSERT_EQ(due->size(), 2u);
  EXPECT_EQ((*due)[0].record.capture_id, "A");
  ASSERT_TRUE(journal_->MarkDelivered({{(*due)[0].seq, "event-1"}}, NowMs()).ok());
  due = journal_->Due(NowMs(), 10);
  ASSERT_EQ(due->size(), 1u);
  EXPECT_EQ((*due)[0].record.capture_id, "B");

  // Another connection (another process) sees the same state.
  auto other = CaptureJournal::Open(dir_.File("journal"));
  ASSERT_TRUE(other.has_value());
  auto counts = (*other)->Counts();
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->pending, 1);
  EXPECT_EQ(counts->delivered, 1);
}

TEST_F(CaptureJournalTest, AFailedDeliveryWaitsItsBackoffAndDiesAfterTheLastAttempt) {
  ASSERT_TRUE(journal_->Append(Record("A"), {}).ok());
  TimestampMs now = 1'000'000;
  for (int attempt = 1; attempt <= kMaxDeliveryAttempts; ++attempt) {
    auto due = journal_->Due(now, 10);
    ASSERT_EQ(due->size(), 1u) << "attempt " << attempt;
    EXPECT_EQ((*due)[0].attempts, attempt - 1);
    ASSERT_TRUE(journal_->MarkFailed((*due)[0].seq, "busy", /*permanent=*/false, now).ok());
    EXPECT_TRUE(journal_->Due(now, 10)->empty()) << "not due again before its backoff";
    now += 60'000;
  }
  EXPECT_TRUE(journal_->Due(now, 10)->empty());
  auto dead = journal_->DeadLetters(10);
  ASSERT_EQ(dead->size(), 1u);
  EXPECT_EQ((*dead)[0].attempts, kMaxDeliveryAttempts);
  EXPECT_EQ((*dead)[0].last_error, "busy");
  EXPECT_EQ(*journal_->RetryDead(), 1);
  EXPECT_EQ(journal_->Due(now, 10)->size(), 1u);
}

TEST_F(CaptureJournalTest, APermanentErrorMakesADeadLetterAtOnce) {
  ASSERT_TRUE(journal_->Append(Record("A"), {}).ok());
  auto due = journal_->Due(NowMs(), 10);
  ASSERT_TRUE(journal_->MarkFailed((*due)[0].seq, "field \"session_id\": bad", /*permanent=*/true, NowMs()).ok());
  EXPECT_EQ(journal_->Counts()->dead, 1);
  EXPECT_EQ(journal_->Counts()->pending, 0);
}

TEST_F(CaptureJournalTest, PayloadsAreInlineUpToTheThresholdAndByReferenceAbove) {
  ASSERT_TRUE(journal_->Append(Record("small", 100, 100), {.keep = true, .inline_bytes = 100}).ok());
  ASSERT_TRUE(journal_->Append(Record("large", 100, 5000), {.keep = true, .inline_bytes = 100}).ok());
  ASSERT_TRUE(journal_->Append(Record("again", 100, 5000), {.keep = true, .inline_bytes = 100}).ok());
  ASSERT_TRUE(journal_->Append(Record("none", 100, 5000), {.keep = false, .inline_bytes = 100}).ok());
  auto due = journal_->Due(NowMs(), 10);
  ASSERT_EQ(due->size(), 4u);
  const ToolCallRecord& small = (*due)[0].record;
  EXPECT_EQ(small.args_json, std::string(100, 'a'));
  EXPECT_EQ(small.result_json, std::string(100, 'r'));
  EXPECT_EQ(small.result_ref, "");
  const ToolCallRecord& large = (*due)[1].record;
  EXPECT_EQ(large.result_json, "");
  ASSERT_EQ(large.result_ref.rfind("sha256:", 0), 0u);
  EXPECT_EQ(*journal_->Payload(large.result_ref), std::string(5000, 'r'));
  EXPECT_EQ((*due)[2].record.result_ref, large.result_ref);  // stored once by its hash
  EXPECT_EQ(journal_->Counts()->payloads, 1);
  const ToolCallRecord& none = (*due)[3].record;
  EXPECT_EQ(none.args_json + none.result_json + none.args_ref + none.result_ref, "");
  EXPECT_EQ(journal_->Payload("sha256:" + std::string(64, '0')).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(journal_->Payload("nonsense").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(CaptureJournalTest, ForgettingACallsEventDeletesItsPayloadsOnceNoCallHoldsThem) {
  const PayloadPolicy by_reference{.keep = true, .inline_bytes = 10};
  ASSERT_TRUE(journal_->Append(Record("A", 5, 500), by_reference).ok());
  ASSERT_TRUE(journal_->Append(Record("B", 5, 500), by_reference).ok());  // the same result bytes
  auto due = journal_->Due(NowMs(), 10);
  ASSERT_EQ(due->size(), 2u);
  const std::string ref = (*due)[0].record.result_ref;
  ASSERT_TRUE(journal_->MarkDelivered({{(*due)[0].seq, "event-A"}, {(*due)[1].seq, "event-B"}}, NowMs()).ok());
  test::RawDb raw(dir_.File("journal"));
  EXPECT_EQ(raw.Int("SELECT count(*) FROM captures WHERE record != ''"), 0);  // no content once delivered

  std::set<std::string> gone = {"event-A"};
  auto is_live = [&](const std::string& id) -> Result<bool> { return gone.count(id) == 0; };
  auto pruned = journal_->PruneForgotten(is_live);
  ASSERT_TRUE(pruned.has_value()) << pruned.error().message();
  EXPECT_EQ(pruned->forgotten_calls, 1);
  EXPECT_EQ(pruned->payloads_deleted, 0);  // B still holds it
  EXPECT_TRUE(journal_->Payload(ref).has_value());
  gone.insert("event-B");
  pruned = journal_->PruneForgotten(is_live);
  EXPECT_EQ(pruned->forgotten_calls, 1);
  EXPECT_EQ(pruned->payloads_deleted, 1);
  EXPECT_EQ(journal_->Payload(ref).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(journal_->PruneForgotten(is_live)->forgotten_calls, 0);  // nothing left to prune

  auto failing = [](const std::string&) -> Result<bool> { return Error(Status::IOError("disk")); };
  ASSERT_TRUE(journal_->Append(Record("C", 5, 600), by_reference).ok());
  due = journal_->Due(NowMs(), 10);
  ASSERT_TRUE(journal_->MarkDelivered({{(*due)[0].seq, "event-C"}}, NowMs()).ok());
  EXPECT_EQ(journal_->PruneForgotten(failing).error().code(), StatusCode::kIOError);
}

TEST_F(CaptureJournalTest, AFileThatIsNoDatabaseIsRefusedUntouched) {
  WriteFile(dir_.File("text"), "not a journal");
  auto j = CaptureJournal::Open(dir_.File("text"));
  ASSERT_FALSE(j.has_value());
  EXPECT_EQ(ReadFile(dir_.File("text")), "not a journal");
  EXPECT_FALSE(CaptureJournal::Open(dir_.File("missing/folder/journal")).has_value());
}

}  // namespace
}  // namespace engram::capture
