// tests/mcp_fixture.h — a gtest fixture for the MCP tests: a fresh database and an mcp::Server on it.
#ifndef ENGRAM_TESTS_MCP_FIXTURE_H_
#define ENGRAM_TESTS_MCP_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>

#include "mcp/server.h"
#include "test_util.h"

namespace engram::mcp {

class McpFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto e = Engine::Open({.db_path = dir_.File("m.db"), .open_mode = OpenMode::kCreate});
    ASSERT_TRUE(e) << e.error().ToString();
    engine_ = std::move(*e);
    server_ = std::make_unique<Server>(*engine_);
  }

  test::TempDir dir_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Server> server_;
};

}  // namespace engram::mcp

#endif  // ENGRAM_TESTS_MCP_FIXTURE_H_
