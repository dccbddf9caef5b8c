// capture/line_splitter_test.cc — MCP stdio messages out of arbitrary chunks.
#include "capture/line_splitter.h"

#include <gtest/gtest.h>

#include <vector>

namespace engram::capture {
namespace {

TEST(LineSplitterTest, LinesSpanChunksAndLoseTheirLineEnds) {
  LineSplitter s(1024);
  std::vector<std::string> lines;
  auto on = [&](std::string&& l) { lines.push_back(std::move(l)); };
  s.Feed("{\"a\":", on);
  s.Feed("1}\r\n\n{\"b\"", on);  // an empty line is no message
  s.Feed(":2}\n{\"c\":3}", on);
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
  s.Finish(on);
  EXPECT_EQ(lines.back(), "{\"c\":3}");
}

TEST(LineSplitterTest, ALineOverTheCapIsSkippedToItsEndAndCounted) {
  LineSplitter s(8);
  std::vector<std::string> lines;
  auto on = [&](std::string&& l) { lines.push_back(std::move(l)); };
  s.Feed("12345", on);
  s.Feed("67890abc", on);  // over 8 bytes: dropped
  s.Feed("def\nok\n", on);
  EXPECT_EQ(lines, (std::vector<std::string>{"ok"}));
  EXPECT_EQ(s.oversized(), 1);
}

}  // namespace
}  // namespace engram::capture
