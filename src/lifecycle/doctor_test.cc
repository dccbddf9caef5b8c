// lifecycle/doctor_test.cc — doctor on sound, empty and damaged files, read-only.
#include "lifecycle/doctor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engram/engine.h"
#include "raw_db.h"
#include "test_util.h"

namespace engram::lifecycle {
namespace {

using ::testing::HasSubstr;

class DoctorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.File("m.db");
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db_));
    for (int i = 0; i < 200; ++i) {
      EventInput e;
      e.namespace_name = "u1";
      e.session_id = "s" + std::to_string(i / 10);
      e.role = "user";
      e.content = "I like green tea, cup number " + std::to_string(i) + " " + std::string(100, 'x');
      ASSERT_OK(engine->Ingest(e));
    }
  }

  Result<DoctorReport> Doctor() {
    Options o;
    o.db_path = db_;
    return Engine::DoctorFile(o);
  }

  test::TempDir dir_;
  std::string db_;
};

TEST_F(DoctorTest, SoundFileIsOk) {
  ASSERT_OK_AND_ASSIGN(DoctorReport r, Doctor());
  EXPECT_TRUE(r.ok) << r.problems.size();
  EXPECT_TRUE(r.integrity.empty());
  EXPECT_TRUE(r.tables.empty()) << "only described when something is wrong";
  EXPECT_EQ(r.stats.events, 200);
}

TEST_F(DoctorTest, DamagedIndexIsNamedAndTheTablesStillRead) {
  int64_t page = 0;
  {
    test::RawDb raw(db_);
    page = raw.Int("SELECT pageno FROM dbstat WHERE name = 'events_session_time' AND pagetype = 'leaf' LIMIT 1");
  }
  ASSERT_GT(page, 1);
  std::string bytes = test::ReadFile(db_);
  for (size_t i = 0; i < 4096; ++i) bytes[static_cast<size_t>(page - 1) * 4096 + i] = static_cast<char>(i * 7);
  test::WriteFile(db_, bytes);
  ASSERT_OK_AND_ASSIGN(DoctorReport r, Doctor());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.integrity.empty());
  std::string damaged;
  for (const std::string& d : r.damaged) damaged += d + ";";
  EXPECT_THAT(damaged, HasSubstr("events_session_time"));
  bool events_whole = false;
  for (const TableHealth& t : r.tables) events_whole |= t.name == "events" && t.rows == 200 && t.error.empty();
  EXPECT_TRUE(events_whole) << "an index page does not stop the table from reading";
  EXPECT_THAT(r.export_check, HasSubstr("ok: every exported row reads"));
  EXPECT_EQ(test::ReadFile(db_), bytes) << "doctor wrote to the file";
}

TEST_F(DoctorTest, EmptyFileIsAReportNotAnError) {
  test::WriteFile(db_, "");
  ASSERT_OK_AND_ASSIGN(DoctorReport r, Doctor());
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_THAT(r.problems[0], HasSubstr("empty (0 bytes)"));
}

}  // namespace
}  // namespace engram::lifecycle
