#include "mcp/read_only_request.h"

#include <gtest/gtest.h>

namespace engram::mcp {
namespace {

TEST(IsReadOnlyRequest, ReadToolsAndProtocolMethodsGoToAReader) {
  EXPECT_TRUE(IsReadOnlyRequest(R"({"jsonrpc":"2.0","id":1,"method":"tools/call",
      "params":{"name":"memory_recall","arguments":{"query":"where do I live"}}})"));
  EXPECT_TRUE(IsReadOnlyRequest(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
  EXPECT_TRUE(IsReadOnlyRequest(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})"));
  EXPECT_TRUE(IsReadOnlyRequest(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
}

TEST(IsReadOnlyRequest, WritesUnknownToolsBatchesAndGarbageTakeTheWriter) {
  EXPECT_FALSE(IsReadOnlyRequest(R"({"jsonrpc":"2.0","id":1,"method":"tools/call",
      "params":{"name":"memory_save","arguments":{"content":"I live in Hangzhou."}}})"));
  EXPECT_FALSE(IsReadOnlyRequest(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"no_such"}})"));
  EXPECT_FALSE(IsReadOnlyRequest(R"({"jsonrpc":"2.0","id":1,"method":"tools/call"})"));
  EXPECT_FALSE(IsReadOnlyRequest(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"));
  EXPECT_FALSE(IsReadOnlyRequest("{not json"));
  EXPECT_FALSE(IsReadOnlyRequest(""));
}

}  // namespace
}  // namespace engram::mcp
