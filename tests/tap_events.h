// tests/tap_events.h — for the tests of both faces of `engram mcp-tap` (stdio, HTTP): the
// tools/call requests they send, and the events the tap stored, read back through `engram export`.
// Header-only.
#ifndef ENGRAM_TESTS_TAP_EVENTS_H_
#define ENGRAM_TESTS_TAP_EVENTS_H_

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "test_util.h"

namespace engram::test {

// A JSON-RPC tools/call request; `meta` (when not null) is its params._meta.
inline nlohmann::json Call(int id, const std::string& name, nlohmann::json arguments, nlohmann::json meta = nullptr) {
  nlohmann::json params = {{"name", name}, {"arguments", std::move(arguments)}};
  if (!meta.is_null()) params["_meta"] = std::move(meta);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}};
}

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
