// engine/namespace_scope_test.cc — the Engine's one scope rule (B27): an empty or blank namespace
// is kInvalidArgument naming "namespace" on every call that takes one, and "every namespace" is
// only ever an explicit all_namespaces / NamespaceScope::All(). And its lists page by keyset
// (B47): a write between two pages neither repeats nor skips an item.
#include "engine/namespace_scope.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "api/args.h"
#include "test_util.h"

namespace engram {
namespace {

using ::testing::HasSubstr;

class NamespaceScopeTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(dir_.File("m.db"))); }

  RememberResult Remember(const std::string& ns, const std::string& text) {
    auto r = engine_->Remember({.namespace_name = ns, .text = text});
    EXPECT_OK(r);
    return r ? *r : RememberResult{};
  }

  void Ingest(const std::string& ns, const std::string& session, const std::string& text) {
    EXPECT_OK(engine_->Ingest({.namespace_name = ns, .session_id = session, .role = "user", .content = text}));
  }

  test::TempDir dir_;
  std::unique_ptr<Engine> engine_;
};

// The field an error names, or "" when it is not kInvalidArgument.
template <typename T>
std::string InvalidField(const Result<T>& r) {
  if (r || r.error().code() != StatusCode::kInvalidArgument) return "";
  return api::FieldOfMessage(r.error().message());
}

TEST(ValidateNamespaceScope, ExactlyOneOfANameAndAllNamespaces) {
  EXPECT_OK(ValidateNamespaceScope("u1", false));
  EXPECT_OK(ValidateNamespaceScope("", true));
  for (auto [name, all] : {std::pair{"", false}, std::pair{" ", false}, std::pair{"\t", false},
                           std::pair{"u1", true}}) {
    Status st = ValidateNamespaceScope(name, all);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << "\"" << name << "\" " << all;
    EXPECT_EQ(api::FieldOfMessage(st.message()), "namespace") << st.ToString();
  }
  EXPECT_THAT(NamespaceRequired().message(), HasSubstr("never means every namespace"));
}

TEST_F(NamespaceScopeTest, B27_BlankNamespaceIsAnErrorEverywhere) {
  RememberResult r = Remember("u1", "I like green tea.");
  Remember("u1", "I work at Acme.");  // keeps u1's session when the first event is forgotten
  Remember("u2", "I like black coffee.");
  ASSERT_OK(engine_->Forget({.ids = {r.event.id}, .namespace_name = "u1", .confirm = true}));
  for (const std::string blank : {"", " ", "  \t"}) {
    SCOPED_TRACE("namespace \"" + blank + "\"");
    EXPECT_EQ(InvalidField(engine_->ListSessions({.namespace_name = blank})), "namespace");
    EXPECT_EQ(InvalidField(engine_->ListTombstones({.namespace_name = blank})), "namespace");
    EXPECT_EQ(InvalidField(engine_->ListClaims({.namespace_name = blank})), "namespace");
    EXPECT_EQ(InvalidField(engine_->Maintain({.namespace_name = blank})), "namespace");
    EXPECT_EQ(InvalidField(engine_->Remember({.namespace_name = blank, .text = "I live in Oslo."})), "namespace");
    EXPECT_EQ(InvalidField(engine_->Reindex(blank)), "namespace");
    EXPECT_EQ(InvalidField(engine_->Forget({.ids = {r.claims.front().id}, .namespace_name = blank})), "namespace");
    EXPECT_EQ(InvalidField(engine_->Feedback({.feedback_id = "fb1:e:x:0000000000000000", .namespace_name = blank})),
              "namespace");
    std::ostringstream out;
    EXPECT_EQ(InvalidField(engine_->Export(blank, out)), "namespace");
    EXPECT_EQ(InvalidField(engine_->Salvage(blank, out)), "namespace");
    EXPECT_TRUE(out.str().empty()) << "nothing is exported for a blank scope";
  }
  // A namespace and all_namespaces together are as wrong as neither.
  EXPECT_EQ(InvalidField(engine_->ListSessions({.namespace_name = "u1", .all_namespaces = true})), "namespace");
  EXPECT_EQ(InvalidField(engine_->Maintain({.namespace_name = "u1", .all_namespaces = true})), "namespace");
  // Every namespace, asked for explicitly.
  ASSERT_OK_AND_ASSIGN(auto sessions, engine_->ListSessions({.all_namespaces = true}));
  std::set<std::string> namespaces;
  for (const SessionInfo& s : sessions) namespaces.insert(s.namespace_name);
  EXPECT_EQ(namespaces, (std::set<std::string>{"u1", "u2"}));
  ASSERT_OK_AND_ASSIGN(auto tombstones, engine_->ListTombstones({.all_namespaces = true}));
  EXPECT_FALSE(tombstones.empty());
  ASSERT_OK_AND_ASSIGN(MaintainReport pass, engine_->Maintain({.all_namespaces = true}));
  EXPECT_EQ(pass.namespaces.size(), 2u);
  std::ostringstream all, one;
  ASSERT_OK_AND_ASSIGN(DumpCounts all_counts, engine_->Export(NamespaceScope::All(), all));
  ASSERT_OK_AND_ASSIGN(DumpCounts one_counts, engine_->Export("u2", one));
  EXPECT_EQ(all_counts.namespaces, 2);
  EXPECT_EQ(one_counts.namespaces, 1);
  // The namespace an id is of, for an owner's call by id alone (a forgotten one: its tombstone's).
  EXPECT_EQ(engine_->NamespaceOf(r.event.id).value_or(""), "u1");
  EXPECT_EQ(engine_->NamespaceOf(r.claims.front().id).value_or(""), "u1");
  auto unknown = engine_->NamespaceOf("01HZZZZZZZZZZZZZZZZZZZZZZZ");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code(), StatusCode::kNotFound);
}

// Pages of every list, with a write before each next page: every item listed at the start is
// listed exactly once, and the pages never repeat one.
TEST_F(NamespaceScopeTest, B47_ListsPageByKeysetWithoutGapsOrDuplicatesUnderWrites) {
  for (int i = 0; i < 7; ++i) Ingest("p", "s" + std::to_string(i), "note number " + std::to_string(i));
  std::vector<std::string> before;
  ASSERT_OK_AND_ASSIGN(auto whole, engine_->ListSessions({.namespace_name = "p", .limit = 100}));
  for (const SessionInfo& s : whole) before.push_back(s.id);
  std::vector<std::string> paged;
  int64_t after = 0;
  for (int page = 0; page < 10; ++page) {
    ASSERT_OK_AND_ASSIGN(auto got, engine_->ListSessions({.namespace_name = "p", .limit = 3, .after_seq = after}));
    if (got.empty()) break;
    for (const SessionInfo& s : got) paged.push_back(s.id);
    after = got.back().seq;
    Ingest("p", "new" + std::to_string(page), "written between pages");  // a new session
    Ingest("p", "s0", "s0 is active again");                             // an old one moves
  }
  EXPECT_EQ(paged, before) << "newest first, each once";

  // Tombstones, newest first.
  std::vector<std::string> events;
  for (int i = 0; i < 5; ++i) events.push_back(Remember("t", "I keep note " + std::to_string(i)).event.id);
  for (const std::string& id : events) ASSERT_OK(engine_->Forget({.ids = {id}, .namespace_name = "t", .confirm = true}));
  ASSERT_OK_AND_ASSIGN(auto all_tombs, engine_->ListTombstones({.namespace_name = "t"}));
  std::vector<std::string> tombs_before, tombs_paged;
  for (const Tombstone& t : all_tombs) tombs_before.push_back(t.id);
  after = 0;
  for (int page = 0; page < 20; ++page) {
    ASSERT_OK_AND_ASSIGN(auto got, engine_->ListTombstones({.namespace_name = "t", .limit = 3, .after_seq = after}));
    if (got.empty()) break;
    for (const Tombstone& t : got) tombs_paged.push_back(t.id);
    after = got.back().seq;
    RememberResult more = Remember("t", "Another note " + std::to_string(page));
    ASSERT_OK(engine_->Forget({.ids = {more.event.id}, .namespace_name = "t", .confirm = true}));
  }
  EXPECT_EQ(tombs_paged, tombs_before);

  // Jobs, oldest first (every namespace: a whole-file list).
  ASSERT_OK_AND_ASSIGN(auto all_jobs, engine_->ListJobs({.limit = 1000}));
  ASSERT_GE(all_jobs.size(), 7u);
  std::vector<int64_t> jobs_paged;
  int64_t after_id = 0;
  for (int page = 0; page < 100; ++page) {
    ASSERT_OK_AND_ASSIGN(auto got, engine_->ListJobs({.limit = 4, .after_id = after_id}));
    if (got.empty()) break;
    for (const JobInfo& j : got) jobs_paged.push_back(j.id);
    after_id = got.back().id;
    if (page < 3) Ingest("p", "late", "a job written between pages");
  }
  ASSERT_GE(jobs_paged.size(), all_jobs.size());
  for (size_t i = 0; i < all_jobs.size(); ++i) EXPECT_EQ(jobs_paged[i], all_jobs[i].id);
  EXPECT_EQ(std::set<int64_t>(jobs_paged.begin(), jobs_paged.end()).size(), jobs_paged.size()) << "no duplicates";

  // The audit trail of one object.
  ASSERT_OK_AND_ASSIGN(auto trail, engine_->AuditTrail(events[0]));
  ASSERT_FALSE(trail.empty());
  std::vector<int64_t> audit_paged;
  int64_t after_seq = 0;
  for (int page = 0; page < 50; ++page) {
    ASSERT_OK_AND_ASSIGN(auto got, engine_->AuditTrail({.object_id = events[0], .limit = 1, .after_seq = after_seq}));
    if (got.empty()) break;
    audit_paged.push_back(got.front().seq);
    after_seq = got.front().seq;
  }
  ASSERT_EQ(audit_paged.size(), trail.size());
  for (size_t i = 0; i < trail.size(); ++i) EXPECT_EQ(audit_paged[i], trail[i].seq);
}

}  // namespace
}  // namespace engram
