// lifecycle/hits_log_test.cc — recall hits appended beside the database and taken by a pass.
#include "lifecycle/hits_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace engram::lifecycle {
namespace {

TEST(HitsLogTest, AppendedHitsAreTakenOnceAndAdded) {
  test::TempDir dir;
  HitsLog log(dir.File("m.db"));
  EXPECT_EQ(log.path(), dir.File("m.db-hits"));
  AccessBatch first, second;
  first.Record({"c1", "c2"}, 1000);
  second.Record({"c1"}, 3000);
  ASSERT_OK(log.Append(first));
  ASSERT_OK(log.Append(second));
  ASSERT_OK(log.Append(AccessBatch{}));  // nothing to write
  AccessBatch taken;
  ASSERT_OK_AND_ASSIGN(int64_t lines, log.TakeInto(taken));
  EXPECT_EQ(lines, 3);
  EXPECT_EQ(taken.pending(), 2u);
  const std::string text = taken.Serialize();
  EXPECT_NE(text.find("c1 2 3000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("c2 1 1000\n"), std::string::npos) << text;
  EXPECT_FALSE(std::filesystem::exists(log.path()));
  AccessBatch again;
  ASSERT_OK_AND_ASSIGN(int64_t none, log.TakeInto(again));
  EXPECT_EQ(none, 0);
  EXPECT_EQ(again.pending(), 0u);
}

TEST(HitsLogTest, TornAndMalformedLinesAreSkipped) {
  test::TempDir dir;
  HitsLog log(dir.File("m.db"));
  test::WriteFile(log.path(), "c1 2 100\nnot a line\nc2 x 5\nc3 1 7 extra\nc4 1 9\nc5 1");
  AccessBatch taken;
  ASSERT_OK_AND_ASSIGN(int64_t lines, log.TakeInto(taken));
  EXPECT_EQ(lines, 2);
  EXPECT_EQ(taken.Serialize().size(), std::string("c1 2 100\nc4 1 9\n").size());
}

TEST(HitsLogTest, AFullLogTakesNoMoreHits) {
  test::TempDir dir;
  HitsLog log(dir.File("m.db"));
  {
    std::ofstream out(log.path(), std::ios::binary);
    out << std::string(static_cast<size_t>(HitsLog::kMaxBytes) + 1, '\n');
  }
  AccessBatch batch;
  batch.Record({"c1"}, 1);
  ASSERT_OK(log.Append(batch));
  EXPECT_EQ(std::filesystem::file_size(log.path()), static_cast<uintmax_t>(HitsLog::kMaxBytes) + 1);
}

}  // namespace
}  // namespace engram::lifecycle
