// capture/sse_splitter_test.cc
#include "capture/sse_splitter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace engram::capture {
namespace {

std::vector<std::string> Split(const std::string& stream, size_t chunk, size_t cap = 1 << 20,
                               int64_t* oversized = nullptr) {
  SseSplitter splitter(cap);
  std::vector<std::string> events;
  for (size_t i = 0; i < stream.size(); i += chunk) {
    splitter.Feed(std::string_view(stream).substr(i, chunk), [&](std::string&& e) { events.push_back(std::move(e)); });
  }
  if (oversized != nullptr) *oversized = splitter.oversized();
  return events;
}

TEST(SseSplitterTest, EventsAreTheirDataLinesJoinedWhateverTheChunks) {
  const std::string stream =
      ": ping\n\nevent: message\nid: 1\ndata: {\"a\":1}\n\r\ndata:{\"b\":\ndata: 2}\r\n\r\nid: 3\n\ndata: {\"c\":3}\n";
  for (size_t chunk : {1u, 2u, 7u, 1000u}) {
    EXPECT_EQ(Split(stream, chunk), (std::vector<std::string>{"{\"a\":1}", "{\"b\":\n2}"})) << "chunk " << chunk;
  }
}

TEST(SseSplitterTest, AnEventOverTheCapIsCountedNotPassed) {
  int64_t oversized = 0;
  const std::string stream = "data: " + std::string(100, 'x') + "\ndata: more\n\ndata: ok\n\n";
  EXPECT_EQ(Split(stream, 5, 50, &oversized), (std::vector<std::string>{"ok"}));
  EXPECT_EQ(oversized, 1);
  const std::string split_data =
      "data: " + std::string(30, 'x') + "\ndata: " + std::string(30, 'y') + "\n\ndata: ok\n\n";
  EXPECT_EQ(Split(split_data, 5, 50, &oversized), (std::vector<std::string>{"ok"}));
  EXPECT_EQ(oversized, 1);
}

}  // namespace
}  // namespace engram::capture
