#include "server/engine_pool.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace engram::server {
namespace {

TEST(EnginePoolTest, ReadersAreSeparateAndABusyWriterIsADeadline) {
  test::TempDir dir;
  ASSERT_TRUE(Engine::Open({.db_path = dir.File("m.db"), .open_mode = OpenMode::kCreate}));
  auto pool = EnginePool::Open({.db_path = dir.File("m.db"), .open_mode = OpenMode::kReadWrite}, 2);
  ASSERT_TRUE(pool) << pool.error().ToString();
  auto a = (*pool)->Acquire(false, std::chrono::milliseconds(10));
  auto b = (*pool)->Acquire(false, std::chrono::milliseconds(10));
  ASSERT_TRUE(a && b);
  EXPECT_NE(&a->engine(), &b->engine()) << "two readers in parallel";
  auto w = (*pool)->Acquire(true, std::chrono::milliseconds(10));
  ASSERT_TRUE(w);
  auto busy = (*pool)->Acquire(true, std::chrono::milliseconds(20));
  ASSERT_FALSE(busy);
  EXPECT_EQ(busy.error().code(), StatusCode::kDeadlineExceeded);
  EXPECT_EQ(HttpStatusFor(busy.error().code()), 408);
}

}  // namespace
}  // namespace engram::server
