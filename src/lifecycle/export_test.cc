// lifecycle/export_test.cc — export → import → export is byte-identical; import honours the
// tombstones of its file and of the target database; a bad line imports nothing.
#include "lifecycle/export.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "raw_db.h"
#include "test_util.h"

// Designated initializers name only the fields a test cares about.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace engram {
namespace {

using test::TempDir;
using ::testing::HasSubstr;

std::string ExportAll(Engine& e, std::string_view ns = "") {
  std::ostringstream out;
  auto r = ns.empty() ? e.Export(NamespaceScope::All(), out) : e.Export(ns, out);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().ToString());
  return out.str();
}

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("ENGRAM_EXTRACTOR");
    ASSERT_OK_AND_ASSIGN(a_, test::OpenTestEngine(dir_.File("a.db")));
  }
  // Two namespaces, a session lineage, metadata, tool events, claims with a supersede link, a
  // forgotten event (a tombstone).
  void Populate() {
    std::vector<EventInput> batch = {
        {.namespace_name = "u1",
         .session_id = "s1",
         .role = "user",
         .content = "I live in Lisbon and I like jazz.",
         .occurred_at = "2023-05-08T13:56:00Z",
         .speaker = "Mei",
         .metadata_json = R"({"image_caption":"a tram"})",
         .session_title = "first chat"},
        {.namespace_name = "u1",
         .session_id = "s2",
         .role = "assistant",
         .content = "Noted: Lisbon, jazz.",
         .occurred_at = "2023-05-09T10:00:00Z",
         .parent_session_id = "s1"},
        {.namespace_name = "u1",
         .session_id = "s2",
         .role = "tool",
         .content = "{\"weather\":\"sunny\"}",
         .occurred_at = "2023-05-09T10:00:01Z",
         .tool_name = "weather",
         .tool_call_id = "c1"},
        {.namespace_name = "u2",
         .session_id = "s1",
         .role = "user",
         .content = "Other tenant, other facts.",
         .occurred_at = "2023-06-01T00:00:00+08:00"},
        {.namespace_name = "u1",
         .session_id = "s3",
         .role = "user",
         .content = "My PIN is Zebracanary4242.",
         .occurred_at = "2023-07-01"},
    };
    ASSERT_OK_AND_ASSIGN(auto results, a_->IngestBatch(batch));
    ASSERT_OK(a_->Remember({.namespace_name = "u1",
                            .subject = "Mei",
                            .predicate = "lives_in",
                            .value = "Lisbon",
                            .at = "2023-01-01"}));
    ASSERT_OK(a_->Remember({.namespace_name = "u1",
                            .subject = "Mei",
                            .predicate = "lives_in",
                            .value = "Porto",
                            .at = "2024-01-01"}));
    ASSERT_OK(a_->Process(true));
    ForgetRequest f;
    f.ids = {results[4].event.id};
    f.namespace_name = results[4].event.namespace_name;
    ASSERT_OK(a_->Forget(f));
  }

  TempDir dir_;
  std::unique_ptr<Engine> a_;
};

TEST_F(ExportTest, ExportImportExportIsByteIdentical) {
  Populate();
  const std::string first = ExportAll(*a_);
  for (const char* kind :
       {"\"kind\":\"namespace\"", "\"kind\":\"session\"", "\"kind\":\"event\"",
        "\"kind\":\"claim\"", "\"kind\":\"tombstone\"", "\"status\":\"superseded\"",
        "\"superseded_by_id\":\"", "\"valid_to\":", "\"recorded_to\":", "\"parent\":\"s1\"",
        "\"utc_offset_minutes\":480"}) {
    EXPECT_THAT(first, HasSubstr(kind));
  }
  EXPECT_THAT(first, ::testing::Not(HasSubstr("Zebracanary4242")));

  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));
  std::istringstream in(first);
  ASSERT_OK_AND_ASSIGN(ImportReport report, b->Import(in));
  EXPECT_GT(report.imported.events, 0);
  EXPECT_GT(report.imported.claims, 0);
  EXPECT_EQ(report.imported.tombstones, 1);
  EXPECT_EQ(report.skipped_forgotten, 0);
  const std::string second = ExportAll(*b);
  EXPECT_EQ(first, second);

  // One namespace only; importing the same dump again changes nothing.
  EXPECT_THAT(ExportAll(*a_, "u2"), ::testing::Not(HasSubstr("\"namespace\":\"u1\"")));
  std::istringstream again(first);
  ASSERT_OK_AND_ASSIGN(ImportReport twice, b->Import(again));
  EXPECT_EQ(twice.imported.events + twice.imported.claims, 0);
  EXPECT_EQ(ExportAll(*b), first);
  ASSERT_OK_AND_ASSIGN(DoctorReport doctor, b->Doctor());
  EXPECT_TRUE(doctor.ok) << ::testing::PrintToString(doctor.problems);
  // Recall works on the imported rows (the full-text index was rebuilt).
  ASSERT_OK_AND_ASSIGN(RecallResult found, b->Recall({.text = "jazz", .namespace_name = "u1"}));
  EXPECT_FALSE(found.items.empty());
}

// The activation-decay clock of a claim (its last recall hit, when its activation fell below the
// archive threshold) survives export → import; a dump written before those fields were exported
// still imports, with both null.
TEST_F(ExportTest, DecayClockRoundTripsAndOlderDumpsStillImport) {
  Populate();
  {
    test::RawDb raw(dir_.File("a.db"));
    raw.Exec("UPDATE claims SET last_accessed_at = 1700000000123, decay_below_since = 1700000999000 "
             "WHERE status = 'active'");
  }
  const std::string dump = ExportAll(*a_);
  // Times are ISO-8601 UTC in a dump (B36, B53), to the millisecond.
  EXPECT_THAT(dump, HasSubstr("\"last_accessed_at\":\"2023-11-14T22:13:20.123Z\""));
  EXPECT_THAT(dump, HasSubstr("\"decay_below_since\":\"2023-11-14T22:29:59.000Z\""));

  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));
  std::istringstream in(dump);
  ASSERT_OK(b->Import(in));
  {
    test::RawDb raw(dir_.File("b.db"));
    EXPECT_EQ(raw.Int("SELECT count(*) FROM claims WHERE last_accessed_at = 1700000000123 AND "
                      "decay_below_since = 1700000999000"),
              raw.Int("SELECT count(*) FROM claims WHERE status = 'active'"));
    EXPECT_GT(raw.Int("SELECT count(*) FROM claims WHERE status = 'active'"), 0);
  }
  EXPECT_EQ(ExportAll(*b), dump);

  // The same dump without the two fields (as written before they were exported).
  std::string older;
  std::istringstream lines(dump);
  for (std::string line; std::getline(lines, line);) {
    for (const char* field : {"\"last_accessed_at\":\"2023-11-14T22:13:20.123Z\",",
                              "\"decay_below_since\":\"2023-11-14T22:29:59.000Z\",",
                              "\"last_accessed_at\":null,", "\"decay_below_since\":null,"}) {
      if (auto at = line.find(field); at != std::string::npos) line.erase(at, std::string_view(field).size());
    }
    older += line + "\n";
  }
  ASSERT_THAT(older, ::testing::Not(HasSubstr("decay_below_since")));
  ASSERT_OK_AND_ASSIGN(auto c, test::OpenTestEngine(dir_.File("c.db")));
  std::istringstream older_in(older);
  ASSERT_OK_AND_ASSIGN(ImportReport report, c->Import(older_in));
  EXPECT_GT(report.imported.claims, 0);
  test::RawDb raw(dir_.File("c.db"));
  EXPECT_EQ(raw.Int("SELECT count(*) FROM claims WHERE last_accessed_at IS NOT NULL OR "
                    "decay_below_since IS NOT NULL"),
            0);
}

TEST_F(ExportTest, ExportOfUnknownNamespaceIsNotFound) {
  std::ostringstream out;
  auto r = a_->Export("nope", out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), StatusCode::kNotFound);
}

TEST_F(ExportTest, ImportHonoursTheTargetDatabasesTombstones) {
  ASSERT_OK(a_->Ingest({.namespace_name = "u1",
                        .session_id = "s1",
                        .role = "user",
                        .content = "The vault word is Zebracanary4242.",
                        .occurred_at = "2024-01-01"}));
  ASSERT_OK(a_->Ingest({.namespace_name = "u1",
                        .session_id = "s1",
                        .role = "user",
                        .content = "Harmless line.",
                        .occurred_at = "2024-01-02"}));
  const std::string dump = ExportAll(*a_);

  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));
  ASSERT_OK_AND_ASSIGN(IngestResult same,
                       b->Ingest({.namespace_name = "u1",
                                  .session_id = "other",
                                  .role = "user",
                                  .content = "The vault word is Zebracanary4242."}));
  ForgetRequest f;
  f.ids = {same.event.id};
  f.namespace_name = same.event.namespace_name;
  ASSERT_OK(b->Forget(f));
  std::istringstream in(dump);
  ASSERT_OK_AND_ASSIGN(ImportReport report, b->Import(in));
  EXPECT_EQ(report.skipped_forgotten, 1);
  EXPECT_EQ(report.imported.events, 1);
  EXPECT_THAT(ExportAll(*b), ::testing::Not(HasSubstr("Zebracanary4242")));
  ASSERT_OK_AND_ASSIGN(RecallResult found,
                       b->Recall({.text = "Zebracanary4242", .namespace_name = "u1"}));
  EXPECT_TRUE(found.items.empty());
}

TEST_F(ExportTest, ImportHonoursTheFilesOwnTombstones) {
  ASSERT_OK_AND_ASSIGN(IngestResult secret,
                       a_->Ingest({.namespace_name = "u1",
                                   .session_id = "s1",
                                   .role = "user",
                                   .content = "The vault word is Zebracanary4242.",
                                   .occurred_at = "2024-01-01"}));
  const std::string before = ExportAll(*a_);
  ForgetRequest f;
  f.ids = {secret.event.id};
  f.namespace_name = secret.event.namespace_name;
  ASSERT_OK(a_->Forget(f));
  // A file that holds both the old event line and the later tombstone (e.g. two dumps
  // concatenated): the tombstone wins, whatever the order of the lines.
  const std::string merged = before + ExportAll(*a_);
  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));
  std::istringstream in(merged);
  ASSERT_OK_AND_ASSIGN(ImportReport report, b->Import(in));
  EXPECT_EQ(report.imported.events, 0);
  EXPECT_EQ(report.skipped_forgotten, 1);
  EXPECT_EQ(report.imported.tombstones, 1);
  auto get = b->GetEvent(secret.event.id);
  ASSERT_FALSE(get);
  EXPECT_EQ(get.error().code(), StatusCode::kNotFound);
}

TEST_F(ExportTest, ABadLineNamesLineAndFieldAndImportsNothing) {
  ASSERT_OK(a_->Ingest({.namespace_name = "u1",
                        .session_id = "s1",
                        .role = "user",
                        .content = "first",
                        .occurred_at = "2024-01-01"}));
  ASSERT_OK(a_->Ingest({.namespace_name = "u1",
                        .session_id = "s1",
                        .role = "user",
                        .content = "second",
                        .occurred_at = "2024-01-02"}));
  std::string dump = ExportAll(*a_);
  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));

  // Line 3 is the first event (namespace, session, event, event).
  std::string bad_role = dump;
  const size_t at = bad_role.find("\"role\":\"user\"");
  ASSERT_NE(at, std::string::npos);
  bad_role.replace(at, 13, "\"role\":\"bot\"");
  std::istringstream in(bad_role);
  auto r = b->Import(in);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(r.error().message(), HasSubstr("line 3"));
  EXPECT_THAT(r.error().message(), HasSubstr("field \"role\""));

  std::string bad_hash = dump;
  const size_t second = bad_hash.find("\"content\":\"second\"");
  ASSERT_NE(second, std::string::npos);
  bad_hash.replace(second, 18, "\"content\":\"sEcond\"");
  std::istringstream in2(bad_hash);
  r = b->Import(in2);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message(), HasSubstr("line 4"));
  EXPECT_THAT(r.error().message(), HasSubstr("field \"content_hash\""));

  std::istringstream in3(dump + "{\"kind\":\"claim\",\"id\":\"x\"}\n");
  r = b->Import(in3);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message(), HasSubstr("line 5"));

  EXPECT_EQ(ExportAll(*b), "") << "nothing half-imported";
}

// Dumps written before times were ISO-8601 carry integers of ms since the epoch: they still import,
// and export again in today's form (B36, B53: one time format).
TEST_F(ExportTest, DumpsWithEpochMillisecondsStillImport) {
  Populate();
  std::string dump = ExportAll(*a_);
  const std::string iso = "\"occurred_at\":\"2023-05-08T13:56:00.000Z\"";
  ASSERT_THAT(dump, HasSubstr(iso));
  std::string older = dump;
  for (size_t at = older.find(iso); at != std::string::npos; at = older.find(iso)) {
    older.replace(at, iso.size(), "\"occurred_at\":1683554160000");
  }
  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));
  std::istringstream in(older);
  ASSERT_OK(b->Import(in));
  EXPECT_EQ(ExportAll(*b), dump);
}

// Numbers out of range never slip in: a time outside the years 1–9999, an integer above INT64_MAX
// (which would wrap to a small negative value), a number where an integer belongs. The message
// names the line and the field in words, and nothing is imported.
TEST_F(ExportTest, OutOfRangeAndWrappedNumbersAreRejected) {
  Populate();
  const std::string dump = ExportAll(*a_);
  ASSERT_THAT(dump, HasSubstr("\"utc_offset_minutes\":480"));
  ASSERT_THAT(dump, HasSubstr("\"last_accessed_at\":"));
  auto replace_first = [&](const std::string& pattern, const std::string& with) {
    std::string out = dump;
    const size_t at = out.find(pattern);
    EXPECT_NE(at, std::string::npos) << pattern;
    if (at != std::string::npos) {
      const size_t end = out.find_first_of(",}", at + pattern.size());
      out.replace(at, end - at, pattern + with);
    }
    return out;
  };
  const std::tuple<std::string, std::string, std::string> cases[] = {
      {"\"last_accessed_at\":", "9999999999999999", "outside the years 1–9999"},
      {"\"valid_from\":", "-99999999999999999", "outside the years 1–9999"},
      {"\"utc_offset_minutes\":", "18446744073709551136", "expected an integer or null"},
      {"\"utc_offset_minutes\":", "\"480\"", "expected an integer or null"},
      {"\"utc_offset_minutes\":", "4.5", "expected an integer or null"},
      {"\"utc_offset_minutes\":", "10000", "outside"},
      {"\"recorded_from\":", "\"yesterday\"", "ISO-8601"},
      {"\"recorded_from\":", "true", "expected an ISO-8601 time or an integer of ms since the epoch"},
  };
  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));
  for (const auto& [pattern, value, message] : cases) {
    std::istringstream in(replace_first(pattern, value));
    auto r = b->Import(in);
    ASSERT_FALSE(r) << pattern << value;
    EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(r.error().message(), HasSubstr("line ")) << r.error().message();
    EXPECT_THAT(r.error().message(), HasSubstr(pattern.substr(1, pattern.size() - 3))) << r.error().message();
    EXPECT_THAT(r.error().message(), HasSubstr(message)) << r.error().message();
  }
  EXPECT_EQ(ExportAll(*b), "") << "nothing half-imported";
}

// Review finding: an event moved to another namespace in the file made a claim of u1 reachable by
// `forget --namespace zzz --all`. Evidence must stay inside its claim's namespace.
TEST_F(ExportTest, ClaimEvidenceFromAnotherNamespaceIsRefused) {
  RememberInput in;
  in.namespace_name = "u1";
  in.text = "I moved to Hangzhou.";
  in.at = "2024-03-01";
  ASSERT_OK(a_->Remember(in));
  std::string dump = ExportAll(*a_);
  const size_t event_line = dump.find("\"kind\":\"event\"");
  ASSERT_NE(event_line, std::string::npos);
  const size_t line_start = dump.rfind('\n', event_line) + 1;
  const size_t ns_at = dump.find("\"namespace\":\"u1\"", line_start);
  ASSERT_NE(ns_at, std::string::npos);
  ASSERT_LT(ns_at, dump.find('\n', line_start));
  dump.replace(ns_at, 16, "\"namespace\":\"zz\"");
  ASSERT_OK_AND_ASSIGN(auto b, test::OpenTestEngine(dir_.File("b.db")));
  std::istringstream file(dump);
  auto r = b->Import(file);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(r.error().message(), HasSubstr("another namespace"));
  ASSERT_OK_AND_ASSIGN(StoreStats stats, b->Stats());
  EXPECT_EQ(stats.events, 0);
  EXPECT_EQ(stats.claims, 0);
}

TEST_F(ExportTest, CliExportImportRoundTripAndExitCodes) {
  Populate();
  a_.reset();
  const std::string a = dir_.File("a.db"), b = dir_.File("b.db"), dump = dir_.File("dump.jsonl");
  test::CliResult r = test::RunCli({"--db", a, "export", "--all-namespaces", "--out", dump});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  r = test::RunCli({"--db", b, "--json", "import", dump});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("\"imported\""));
  r = test::RunCli({"--db", b, "export", "--all-namespaces"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(r.out, test::ReadFile(dump));
  EXPECT_EQ(test::RunCli({"--db", a, "export", "--namespace", "nope"}).exit_code, 3);
  EXPECT_EQ(test::RunCli({"--db", b, "import", dir_.File("missing.jsonl")}).exit_code, 3);
  test::WriteFile(dir_.File("bad.jsonl"), "{\"kind\":\"event\"}\n");
  r = test::RunCli({"--db", b, "import", dir_.File("bad.jsonl")});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, HasSubstr("line 1"));
}

}  // namespace
}  // namespace engram
