// tests/scenario_test.cc — runs the data-driven retrieval scenarios in tests/scenarios/*.jsonl.
//
// Every scenario file runs twice, on a fresh database each time:
//   * library: each step goes through the C++ API (json_codec's EventInputFromJson, then
//     Engine::Ingest / Engine::ValidateEvent / Engine::Recall);
//   * cli: consecutive ingest steps are written to a .jsonl file and stored with
//     `engram --db DB --json ingest FILE`; recall steps run `engram --db DB --json recall ...` and
//     the JSON on stdout is checked.
// After the last step, Doctor (library) / `engram doctor --json` (cli) must report ok.
//
// File format (also in tests/scenarios/README.md). One JSON object per line; blank lines are
// skipped. Every step may carry "note": "..." (printed when the step fails). Unknown keys are
// errors, so a typo cannot silently disable a check.
//
//   {"step":"ingest","event":{...},"expect_duplicate":false?}
//       Stores one event. "event" has the shape of one line of `engram ingest` (jsonl): namespace,
//       session_id, role, content, occurred_at, speaker, metadata (object), ... The event must be
//       stored as new, or, with "expect_duplicate": true, be reported as a duplicate.
//   {"step":"ingest_error","event":{...},"expect_error":"substring"}
//       The event must be rejected (kInvalidArgument; CLI exit code 2 with "line 1: " and the
//       message on stderr) with a message containing "expect_error", and store nothing.
//   {"step":"recall","query":"...","namespace":"...","limit":N?,"match":"any"|"all"?,
//    "session":"..."?, and any of:
//      "expect_contains":["s", ...]  each s is a substring of some returned item's text
//      "expect_absent":["s", ...]    no returned item's text contains s
//      "expect_exact":["t", ...]     each t equals some returned item's text, byte for byte
//      "expect_first":"s"            the first item's text contains s
//      "expect_empty":true           no items (false: at least one item)
//      "expect_count":N              exactly N items
//      "expect_error":"substring"    the call fails with a message containing it (CLI: non-zero
//                                    exit code and the message on stderr); no other expect_* then
//   }
//   "limit" defaults to 10 and "match" to "any", as in RecallQuery.
#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codec/json_codec.h"
#include "test_util.h"

namespace engram {
namespace {

using nlohmann::json;
using test::CliResult;
using test::RunCli;
using test::TempDir;

const std::string kScenarioDir = std::string(ENGRAM_SOURCE_DIR) + "/tests/scenarios";

// ---- the scenario format -----------------------------------------------------------------------

struct Step {
  int line = 0;
  std::string kind;  // "ingest", "ingest_error", "recall"
  std::string note;
  std::string source;  // the line as written, for failure messages

  // ingest, ingest_error
  json event;
  bool expect_duplicate = false;

  // recall
  std::string query;
  std::string namespace_name;
  std::string session;
  int limit = 10;
  std::string match = "any";
  std::vector<std::string> expect_contains;
  std::vector<std::string> expect_absent;
  std::vector<std::string> expect_exact;
  std::optional<std::string> expect_first;
  std::optional<bool> expect_empty;
  std::optional<int> expect_count;

  // ingest_error, recall
  std::optional<std::string> expect_error;

  std::string Where(const std::string& file) const {
    std::string w = file + ":" + std::to_string(line);
    if (!note.empty()) w += " (" + note + ")";
    return w + "\n  " + source;
  }
};

// Reads a list of strings; returns false (with `error`) when `value` is not one.
bool StringList(const json& value, std::vector<std::string>* out, std::string* error) {
  if (!value.is_array()) {
    *error = "must be an array of strings";
    return false;
  }
  for (const json& v : value) {
    if (!v.is_string()) {
      *error = "must be an array of strings";
      return false;
    }
    out->push_back(v.get<std::string>());
  }
  return true;
}

// Parses one step; returns "" or a description of what is wrong with it.
std::string ParseStep(const json& j, Step* step) {
  if (!j.is_object()) return "a step must be a JSON object";
  if (!j.contains("step") || !j["step"].is_string()) return "missing \"step\"";
  step->kind = j["step"].get<std::string>();
  static const std::map<std::string, std::set<std::string>> kKeys = {
      {"ingest", {"step", "note", "event", "expect_duplicate"}},
      {"ingest_error", {"step", "note", "event", "expect_error"}},
      {"recall",
       {"step", "note", "query", "namespace", "session", "limit", "match", "expect_contains",
        "expect_absent", "expect_exact", "expect_first", "expect_empty", "expect_count",
        "expect_error"}},
  };
  auto keys = kKeys.find(step->kind);
  if (keys == kKeys.end()) return "unknown step \"" + step->kind + "\"";
  for (const auto& [key, value] : j.items()) {
    if (!keys->second.count(key)) return "unknown key \"" + key + "\" for step " + step->kind;
  }
  auto string_field = [&](const char* key, std::string* out, bool required) -> std::string {
    if (!j.contains(key)) return required ? std::string("missing \"") + key + "\"" : "";
    if (!j[key].is_string()) return std::string("\"") + key + "\" must be a string";
    *out = j[key].get<std::string>();
    return "";
  };
  std::string error;
  if (j.contains("note") && (error = string_field("note", &step->note, false)) != "") return error;

  if (step->kind == "ingest" || step->kind == "ingest_error") {
    if (!j.contains("event") || !j["event"].is_object()) return "\"event\" must be an object";
    step->event = j["event"];
    if (step->kind == "ingest_error") {
      std::string e;
      if ((error = string_field("expect_error", &e, true)) != "") return error;
      if (e.empty()) return "\"expect_error\" must not be empty";
      step->expect_error = e;
    } else if (j.contains("expect_duplicate")) {
      if (!j["expect_duplicate"].is_boolean()) return "\"expect_duplicate\" must be a boolean";
      step->expect_duplicate = j["expect_duplicate"].get<bool>();
    }
    return "";
  }

  // recall
  if ((error = string_field("query", &step->query, true)) != "") return error;
  if ((error = string_field("namespace", &step->namespace_name, true)) != "") return error;
  if ((error = string_field("session", &step->session, false)) != "") return error;
  if ((error = string_field("match", &step->match, false)) != "") return error;
  if (step->match != "any" && step->match != "all") return "\"match\" must be \"any\" or \"all\"";
  if (j.contains("limit")) {
    if (!j["limit"].is_number_integer()) return "\"limit\" must be an integer";
    step->limit = j["limit"].get<int>();
  }
  for (auto [key, list] : {std::pair{"expect_contains", &step->expect_contains},
                           std::pair{"expect_absent", &step->expect_absent},
                           std::pair{"expect_exact", &step->expect_exact}}) {
    if (j.contains(key) && !StringList(j[key], list, &error)) return std::string(key) + " " + error;
  }
  if (j.contains("expect_first")) {
    std::string s;
    if ((error = string_field("expect_first", &s, true)) != "") return error;
    step->expect_first = s;
  }
  if (j.contains("expect_empty")) {
    if (!j["expect_empty"].is_boolean()) return "\"expect_empty\" must be a boolean";
    step->expect_empty = j["expect_empty"].get<bool>();
  }
  if (j.contains("expect_count")) {
    if (!j["expect_count"].is_number_integer()) return "\"expect_count\" must be an integer";
    step->expect_count = j["expect_count"].get<int>();
  }
  if (j.contains("expect_error")) {
    std::string s;
    if ((error = string_field("expect_error", &s, true)) != "") return error;
    if (s.empty()) return "\"expect_error\" must not be empty";
    step->expect_error = s;
    if ((j.contains("expect_contains") || j.contains("expect_absent") ||
         j.contains("expect_exact") || j.contains("expect_first") || j.contains("expect_empty") ||
         j.contains("expect_count"))) {
      return "\"expect_error\" cannot be combined with other expectations";
    }
  }
  return "";
}

// Parses a whole scenario text; returns "" or "line N: problem".
std::string ParseScenario(const std::string& text, std::vector<Step>* steps) {
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return "line " + std::to_string(number) + ": not valid JSON";
    Step step;
    step.line = number;
    step.source = line;
    std::string error = ParseStep(j, &step);
    if (!error.empty()) return "line " + std::to_string(number) + ": " + error;
    steps->push_back(std::move(step));
  }
  if (steps->empty()) return "no steps";
  return "";
}

std::vector<std::string> ScenarioFiles() {
  std::vector<std::string> files;
  if (DIR* dir = opendir(kScenarioDir.c_str())) {
    while (dirent* entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 6 && name.substr(name.size() - 6) == ".jsonl") files.push_back(name);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// ---- checking a recall result ------------------------------------------------------------------

struct RecallOutcome {
  bool ok = false;
  std::string error;               // when !ok
  std::vector<std::string> texts;  // item texts, best first
};

std::string Listing(const std::vector<std::string>& texts) {
  std::string out = "returned " + std::to_string(texts.size()) + " item(s):";
  for (size_t i = 0; i < texts.size(); ++i) out += "\n    " + std::to_string(i) + ". " + texts[i];
  return out;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

void CheckRecall(const Step& step, const RecallOutcome& got) {
  if (step.expect_error) {
    EXPECT_FALSE(got.ok) << "expected an error containing \"" << *step.expect_error << "\"; "
                         << Listing(got.texts);
    EXPECT_TRUE(Contains(got.error, *step.expect_error))
        << "error \"" << got.error << "\" does not contain \"" << *step.expect_error << "\"";
    return;
  }
  ASSERT_TRUE(got.ok) << "recall failed: " << got.error;
  const std::vector<std::string>& texts = got.texts;
  EXPECT_LE(texts.size(), static_cast<size_t>(step.limit)) << Listing(texts);
  for (const std::string& s : step.expect_contains) {
    EXPECT_TRUE(std::any_of(texts.begin(), texts.end(), [&](auto& t) { return Contains(t, s); }))
        << "no item contains \"" << s << "\"; " << Listing(texts);
  }
  for (const std::string& s : step.expect_absent) {
    EXPECT_FALSE(std::any_of(texts.begin(), texts.end(), [&](auto& t) { return Contains(t, s); }))
        << "an item contains \"" << s << "\"; " << Listing(texts);
  }
  for (const std::string& s : step.expect_exact) {
    EXPECT_TRUE(std::find(texts.begin(), texts.end(), s) != texts.end())
        << "no item is exactly \"" << s << "\"; " << Listing(texts);
  }
  if (step.expect_first) {
    EXPECT_TRUE(!texts.empty() && Contains(texts.front(), *step.expect_first))
        << "the first item does not contain \"" << *step.expect_first << "\"; " << Listing(texts);
  }
  if (step.expect_empty) {
    EXPECT_EQ(texts.empty(), *step.expect_empty) << Listing(texts);
  }
  if (step.expect_count) {
    EXPECT_EQ(texts.size(), static_cast<size_t>(*step.expect_count)) << Listing(texts);
  }
}

// ---- the two interfaces ------------------------------------------------------------------------

class Backend {
 public:
  virtual ~Backend() = default;
  virtual void Ingest(const Step& step) = 0;
  virtual void IngestError(const Step& step) = 0;
  virtual RecallOutcome Recall(const Step& step) = 0;
  // Called before every step that is not an ingest, and at the end.
  virtual void Flush() {}
  virtual void CheckDoctor() = 0;
};

class LibraryBackend : public Backend {
 public:
  explicit LibraryBackend(const std::string& db_path) {
    auto engine = test::OpenTestEngine(db_path);
    EXPECT_TRUE(engine.has_value()) << engine.error().ToString();
    if (engine) engine_ = std::move(*engine);
  }
  bool ready() const { return engine_ != nullptr; }

  void Ingest(const Step& step) override {
    auto input = EventInputFromJson(step.event);
    ASSERT_TRUE(input.has_value()) << input.error().ToString();
    ASSERT_OK(Engine::ValidateEvent(*input));
    auto result = engine_->Ingest(*input);
    ASSERT_OK(result);
    EXPECT_EQ(result->duplicate, step.expect_duplicate);
    EXPECT_EQ(result->event.content, input->content);
  }

  void IngestError(const Step& step) override {
    auto before = engine_->Stats();
    ASSERT_OK(before);
    auto input = EventInputFromJson(step.event);
    if (!input) {
      // Rejected by the wire format already (wrong JSON type, unknown field).
      EXPECT_EQ(input.error().code(), StatusCode::kInvalidArgument);
      EXPECT_THAT(input.error().message(), ::testing::HasSubstr(*step.expect_error));
      return;
    }
    Status validated = Engine::ValidateEvent(*input);
    EXPECT_EQ(validated.code(), StatusCode::kInvalidArgument) << validated.ToString();
    EXPECT_THAT(validated.message(), ::testing::HasSubstr(*step.expect_error));

    auto result = engine_->Ingest(*input);
    ASSERT_FALSE(result.has_value()) << "stored as " << result->event.id;
    EXPECT_EQ(result.error().code(), StatusCode::kInvalidArgument) << result.error().ToString();
    EXPECT_THAT(result.error().message(), ::testing::HasSubstr(*step.expect_error));

    auto batch = engine_->IngestBatch({*input});
    ASSERT_FALSE(batch.has_value());
    EXPECT_EQ(batch.error().code(), StatusCode::kInvalidArgument) << batch.error().ToString();
    EXPECT_THAT(batch.error().message(), ::testing::HasSubstr(*step.expect_error));

    auto after = engine_->Stats();
    ASSERT_OK(after);
    EXPECT_EQ(after->events, before->events);
    EXPECT_EQ(after->sessions, before->sessions);
    EXPECT_EQ(after->namespaces, before->namespaces);
  }

  RecallOutcome Recall(const Step& step) override {
    RecallQuery q;
    q.text = step.query;
    q.namespace_name = step.namespace_name;
    q.session_id = step.session;
    q.limit = step.limit;
    q.match = step.match == "all" ? MatchMode::kAll : MatchMode::kAny;
    RecallOutcome out;
    auto result = engine_->Recall(q);
    if (!result) {
      out.error = result.error().ToString();
      return out;
    }
    out.ok = true;
    for (const RecallItem& item : result->items) out.texts.push_back(item.text);
    return out;
  }

  void CheckDoctor() override {
    auto report = engine_->Doctor();
    ASSERT_OK(report);
    EXPECT_TRUE(report->ok) << ::testing::PrintToString(report->problems);
  }

 private:
  std::unique_ptr<Engine> engine_;
};

class CliBackend : public Backend {
 public:
  explicit CliBackend(const TempDir& dir) : dir_(dir), db_(dir.File("scenario.db")) {}

  void Ingest(const Step& step) override { pending_.push_back(&step); }

  void Flush() override {
    if (pending_.empty()) return;
    std::string lines;
    int64_t duplicates = 0;
    for (const Step* s : pending_) {
      lines += s->event.dump() + "\n";
      if (s->expect_duplicate) ++duplicates;
    }
    const int64_t count = static_cast<int64_t>(pending_.size());
    pending_.clear();
    const std::string file = dir_.File("batch" + std::to_string(++batches_) + ".jsonl");
    test::WriteFile(file, lines);
    CliResult r = RunCli({"--db", db_, "--json", "ingest", file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json summary = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(summary.is_discarded()) << "stdout is not JSON: " << r.out;
    EXPECT_EQ(summary.value("lines", -1), count) << r.out;
    EXPECT_EQ(summary.value("stored", -1), count - duplicates) << r.out;
    EXPECT_EQ(summary.value("duplicates", -1), duplicates) << r.out;
    EXPECT_EQ(summary["errors"], json::array()) << r.out;
  }

  void IngestError(const Step& step) override {
    const int64_t events_before = EventCount();
    const std::string file = dir_.File("bad" + std::to_string(++batches_) + ".jsonl");
    test::WriteFile(file, step.event.dump() + "\n");
    CliResult r = RunCli({"--db", db_, "--json", "ingest", file});
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    EXPECT_THAT(r.err, ::testing::HasSubstr("line 1: "));
    EXPECT_THAT(r.err, ::testing::HasSubstr(*step.expect_error));
    json out = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(out.is_discarded()) << "stdout is not JSON: " << r.out;
    EXPECT_EQ(out["error"]["code"], "invalid_argument") << r.out;
    EXPECT_THAT(out["error"]["message"].get<std::string>(),
                ::testing::HasSubstr(*step.expect_error));
    EXPECT_EQ(EventCount(), events_before);
  }

  RecallOutcome Recall(const Step& step) override {
    std::vector<std::string> args = {"--db",        db_,
                                     "--json",      "recall",
                                     "--namespace", step.namespace_name,
                                     "--limit",     std::to_string(step.limit),
                                     "--match",     step.match};
    if (!step.session.empty()) {
      args.push_back("--session");
      args.push_back(step.session);
    }
    args.push_back("--");  // a query may start with '-'
    args.push_back(step.query);
    CliResult r = RunCli(args);
    RecallOutcome out;
    json j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "stdout is not JSON: " << r.Describe();
    if (r.exit_code != 0) {
      out.error = r.err;
      EXPECT_TRUE(j.is_object() && j.contains("error")) << r.Describe();
      return out;
    }
    if (j.is_discarded() || !j.contains("items") || !j["items"].is_array()) {
      out.error = "unexpected output: " + r.Describe();
      return out;
    }
    out.ok = true;
    for (const json& item : j["items"]) out.texts.push_back(item.value("text", ""));
    return out;
  }

  void CheckDoctor() override {
    CliResult r = RunCli({"--db", db_, "--json", "doctor"});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    json j = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.Describe();
    EXPECT_EQ(j["ok"], true) << r.out;
  }

 private:
  int64_t EventCount() {
    CliResult r = RunCli({"--db", db_, "--json", "stats"});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    json j = json::parse(r.out, nullptr, false);
    if (j.is_discarded() || !j.contains("events")) {
      ADD_FAILURE() << "stats: " << r.Describe();
      return -1;
    }
    return j["events"].get<int64_t>();
  }

  const TempDir& dir_;
  std::string db_;
  std::vector<const Step*> pending_;
  int batches_ = 0;
};

// ---- the parameterised test --------------------------------------------------------------------

enum class Interface { kLibrary, kCli };

struct ScenarioParam {
  std::string file;
  Interface interface;
};

void PrintTo(const ScenarioParam& p, std::ostream* os) {
  *os << p.file << (p.interface == Interface::kLibrary ? " (library)" : " (cli)");
}

std::vector<ScenarioParam> AllParams() {
  std::vector<ScenarioParam> params;
  for (const std::string& f : ScenarioFiles()) {
    params.push_back({f, Interface::kLibrary});
    params.push_back({f, Interface::kCli});
  }
  return params;
}

std::string ParamName(const ::testing::TestParamInfo<ScenarioParam>& info) {
  std::string name = info.param.file.substr(0, info.param.file.size() - 6);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + (info.param.interface == Interface::kLibrary ? "_library" : "_cli");
}

class ScenarioTest : public ::testing::TestWithParam<ScenarioParam> {};

TEST_P(ScenarioTest, Run) {
  const ScenarioParam& param = GetParam();
  std::vector<Step> steps;
  const std::string error = ParseScenario(test::ReadFile(kScenarioDir + "/" + param.file), &steps);
  ASSERT_EQ(error, "") << param.file;

  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::unique_ptr<Backend> backend;
  if (param.interface == Interface::kLibrary) {
    auto lib = std::make_unique<LibraryBackend>(dir.File("scenario.db"));
    ASSERT_TRUE(lib->ready());
    backend = std::move(lib);
  } else {
    backend = std::make_unique<CliBackend>(dir);
  }

  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    if (step.kind == "ingest") {
      SCOPED_TRACE(step.Where(param.file));
      backend->Ingest(step);
      continue;
    }
    {
      // The CLI stores pending ingest steps now; a failure there belongs to the ingest lines.
      SCOPED_TRACE(param.file + ": ingest steps before line " + std::to_string(step.line));
      backend->Flush();
    }
    SCOPED_TRACE(step.Where(param.file));
    if (step.kind == "ingest_error") {
      backend->IngestError(step);
    } else {
      CheckRecall(step, backend->Recall(step));
    }
  }
  {
    SCOPED_TRACE(param.file + ": ingest steps at the end");
    backend->Flush();
  }
  SCOPED_TRACE(param.file + ": doctor after the scenario");
  backend->CheckDoctor();
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioTest, ::testing::ValuesIn(AllParams()), ParamName);

// The suite must not shrink silently: a renamed or deleted file fails here.
TEST(ScenarioFilesTest, ExpectedFilesArePresent) {
  std::vector<std::string> files = ScenarioFiles();
  for (const char* name : {"cjk.jsonl", "english.jsonl", "isolation.jsonl", "query_syntax.jsonl",
                           "validation.jsonl"}) {
    EXPECT_THAT(files, ::testing::Contains(name)) << kScenarioDir;
  }
}

TEST(ScenarioFormatTest, RejectsTyposAndBadSteps) {
  std::vector<Step> steps;
  EXPECT_THAT(
      ParseScenario(R"({"step":"recall","query":"x","namespace":"n","expect_contain":["x"]})",
                    &steps),
      ::testing::HasSubstr("unknown key \"expect_contain\""));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"remember","event":{}})", &steps),
              ::testing::HasSubstr("unknown step"));
  steps.clear();
  EXPECT_THAT(ParseScenario("\n{\"step\":\"ingest\"}\n", &steps), ::testing::HasSubstr("line 2"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"ingest_error","event":{}})", &steps),
              ::testing::HasSubstr("expect_error"));
  steps.clear();
  EXPECT_THAT(
      ParseScenario(R"({"step":"recall","query":"x","namespace":"n","match":"some"})", &steps),
      ::testing::HasSubstr("match"));
  steps.clear();
  EXPECT_THAT(
      ParseScenario(
          R"({"step":"recall","query":"x","namespace":"n","expect_error":"e","expect_count":1})",
          &steps),
      ::testing::HasSubstr("cannot be combined"));
  steps.clear();
  EXPECT_EQ(ParseScenario(R"({"step":"recall","query":"x","namespace":"n","limit":3,"match":"all",
"expect_contains":["a"],"expect_absent":["b"],"expect_exact":["c"],"expect_first":"d","expect_empty":false,"expect_count":1})",
                          &steps),
            "line 1: not valid JSON");  // a step is one line
}

// ---- B32: a 10 kB query, through both interfaces -----------------------------------------------

std::string Repeat(const std::string& unit, size_t bytes) {
  std::string out;
  while (out.size() < bytes) out += unit;
  return out;
}

std::vector<std::string> LongQueries() {
  return {
      // Many ordinary words, ending in one that is stored.
      Repeat("lorem ipsum dolor sit amet ", 10 * 1024) + "kingfisher",
      // Every FTS5 operator and special character, over and over.
      Repeat("\"(x) NEAR(a b, 3) AND OR NOT * ^ : + - col:term {a b} @h #t 50% a=b x\\y '' ",
             10 * 1024) +
          "kingfisher",
      // CJK without spaces.
      Repeat("成语接龙游戏", 10 * 1024) + " kingfisher",
      // One 10 kB "word": longer than any token, so it has no searchable term.
      Repeat("k", 10 * 1024),
  };
}

class LongQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_ = dir_.File("long.db");
    ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(db_));
    EventInput in;
    in.namespace_name = "long";
    in.session_id = "s1";
    in.role = "user";
    in.content = "a kingfisher sat on the fence";
    in.occurred_at = "2024-01-01T00:00:00Z";
    ASSERT_OK(engine_->Ingest(in));
  }

  TempDir dir_;
  std::string db_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(LongQueryTest, LibraryAcceptsTenKilobyteQueries) {
  std::vector<std::string> queries = LongQueries();
  for (size_t i = 0; i < queries.size(); ++i) {
    SCOPED_TRACE("query " + std::to_string(i) + " (" + std::to_string(queries[i].size()) +
                 " bytes)");
    ASSERT_GE(queries[i].size(), 10u * 1024);
    for (MatchMode mode : {MatchMode::kAny, MatchMode::kAll}) {
      RecallQuery q;
      q.text = queries[i];
      q.namespace_name = "long";
      q.match = mode;
      auto result = engine_->Recall(q);
      ASSERT_OK(result);
      if (i == 3) {
        EXPECT_TRUE(result->items.empty());
      } else if (mode == MatchMode::kAny) {
        ASSERT_EQ(result->items.size(), 1u);
        EXPECT_EQ(result->items[0].text, "a kingfisher sat on the fence");
      }
    }
    SessionSearchQuery sq;
    sq.text = queries[i];
    sq.namespace_name = "long";
    EXPECT_OK(engine_->SearchSessions(sq));
  }
}

TEST_F(LongQueryTest, CliAcceptsTenKilobyteQueries) {
  engine_.reset();
  std::vector<std::string> queries = LongQueries();
  for (size_t i = 0; i < queries.size(); ++i) {
    SCOPED_TRACE("query " + std::to_string(i));
    CliResult r = RunCli({"--db", db_, "--json", "recall", "-n", "long", "--", queries[i]});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json j = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    ASSERT_TRUE(j["items"].is_array());
    EXPECT_EQ(j["items"].size(), i == 3 ? 0u : 1u) << r.out.substr(0, 2000);

    r = RunCli({"--db", db_, "--json", "sessions", "search", "-n", "long", "--", queries[i]});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_FALSE(json::parse(r.out, nullptr, false).is_discarded()) << r.out;
  }
}

}  // namespace
}  // namespace engram
