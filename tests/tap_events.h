// tests/tap_events.h — the events `engram mcp-tap` stored, read back through `engram export`, for
// the end-to-end tests of both faces of the tap (stdio, HTTP). Header-only.
#ifndef ENGRAM_TESTS_TAP_EVENTS_H_
#define ENGRAM_TESTS_TAP_EVENTS_H_

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "test_util.h"

namespace engram::test {

// The tool events of namespace `ns` in `db`, by capture id, each with its record as "capture"
// (a capture stored twice is a test failure).
inline std::map<std::string, nlohmann::json> ToolEvents(const std::string& db, const std::string& ns) {
  using nlohmann::json;
  std::map<std::string, json> out;
  CliResult r = RunCli({"--db", db, "export", "-n", ns});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    json j = json::parse(line, nullptr, false);
    if (!j.is_object() || j.value("kind", "") != "event" || j.value("role", "") != "tool") continue;
    json meta = json::parse(j.value("metadata", "{}"), nullptr, false);
    const std::string id = meta["capture"].value("capture_id", "");
    EXPECT_EQ(out.count(id), 0u) << "capture " << id << " stored twice";
    j["capture"] = meta["capture"];
    out[id] = j;
  }
  return out;
}

}  // namespace engram::test

#endif  // ENGRAM_TESTS_TAP_EVENTS_H_
