#include "server/engine_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "test_util.h"

namespace engram::server {
namespace {

TEST(EnginePoolTest, ReadersAreSeparateAndABusyWriterIsADeadline) {
  test::TempDir dir;
  ASSERT_TRUE(Engine::Open({.db_path = dir.File("m.db"), .open_mode = OpenMode::kCreate}));
  auto pool = EnginePool::Open({.db_path = dir.File("m.db"), .open_mode = OpenMode::kReadWrite}, 2);
  ASSERT_TRUE(pool) << pool.error().ToString();
  // Two reads at once get the two readers, each on a thread that is not the caller's.
  std::atomic<int> inside{0};
  Engine* engines[2] = {nullptr, nullptr};
  std::thread::id threads[2];
  auto read = [&](int i) {
    Status st = (*pool)->Run(false, std::chrono::milliseconds(5000), [&](Engine& e) {
      engines[i] = &e;
      threads[i] = std::this_thread::get_id();
      ++inside;
      while (inside.load() < 2) std::this_thread::yield();  // both inside together
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
  };
  std::thread a(read, 0);
  std::thread b(read, 1);
  a.join();
  b.join();
  EXPECT_NE(engines[0], engines[1]) << "two readers in parallel";
  EXPECT_NE(threads[0], threads[1]);
  // A write holding the writer makes a second write a deadline, not run.
  bool second_ran = false;
  Status outer = (*pool)->Run(true, std::chrono::milliseconds(10), [&](Engine&) {
    std::thread other([&] {
      Status busy = (*pool)->Run(true, std::chrono::milliseconds(20), [&](Engine&) { second_ran = true; });
      EXPECT_EQ(busy.code(), StatusCode::kDeadlineExceeded);
      EXPECT_EQ(HttpStatusFor(busy.code()), 408);
    });
    other.join();
  });
  EXPECT_TRUE(outer.ok());
  EXPECT_FALSE(second_ran);
}

TEST(EnginePoolTest, AReadWaitingLongerThanItsBudgetIsADeadlineAndNeverRuns) {
  test::TempDir dir;
  ASSERT_TRUE(Engine::Open({.db_path = dir.File("m.db"), .open_mode = OpenMode::kCreate}));
  auto pool = EnginePool::Open({.db_path = dir.File("m.db"), .open_mode = OpenMode::kReadWrite}, 1);
  ASSERT_TRUE(pool);
  std::atomic<bool> release{false};
  std::atomic<bool> holding{false};
  std::thread holder([&] {
    Status st = (*pool)->Run(false, std::chrono::milliseconds(5000), [&](Engine&) {
      holding = true;
      while (!release) std::this_thread::yield();
    });
    EXPECT_TRUE(st.ok());
  });
  while (!holding) std::this_thread::yield();
  bool ran = false;
  Status late = (*pool)->Run(false, std::chrono::milliseconds(20), [&](Engine&) { ran = true; });
  EXPECT_EQ(late.code(), StatusCode::kDeadlineExceeded);
  release = true;
  holder.join();
  EXPECT_FALSE(ran);
  // The reader serves again.
  EXPECT_TRUE((*pool)->Run(false, std::chrono::milliseconds(5000), [&](Engine&) { ran = true; }).ok());
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace engram::server
