// api/registry_test.cc — capabilities called as every face calls them: through Invoke with JSON
// arguments. Namespace isolation of id lookups, cursor paging without gaps or repeats while
// claims are written between pages, and the registry's own invariants.
#include "api/registry.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "api/common.h"
#include "api/principal.h"
#include "test_util.h"

namespace engram::api {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using nlohmann::json;
using test::TempDir;

class RegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto e = Engine::Open({.db_path = dir_.File("m.db"), .open_mode = OpenMode::kCreate});
    ASSERT_TRUE(e) << e.error().ToString();
    engine_ = std::move(*e);
  }
  Result<Reply> Call(const std::string& name, const json& args, ArgsMode mode = ArgsMode::kStrict) {
    const Capability* c = FindCapability(name);
    EXPECT_NE(c, nullptr) << name;
    if (c == nullptr) return Error(Status::NotFound(name));
    return Invoke(*engine_, *c, args, mode);
  }
  TempDir dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(RegistryTest, NamesToolsAndRoutesAreUnique) {
  std::set<std::string> names, tools, routes;
  for (const Capability& c : AllCapabilities()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    if (!c.mcp.tool.empty()) {
      EXPECT_TRUE(tools.insert(c.mcp.tool).second) << c.mcp.tool;
    }
    EXPECT_TRUE(routes.insert(c.rest.method + " " + c.rest.path).second) << c.rest.path;
    EXPECT_TRUE(c.handler) << c.name;
    EXPECT_EQ(c.result_schema.value("type", ""), "object") << c.name;
    if (c.namespaced) {
      ASSERT_FALSE(c.params.empty()) << c.name;
      EXPECT_EQ(c.params[0].name, "namespace") << c.name;
      EXPECT_TRUE(c.params[0].required) << c.name;
      EXPECT_THAT(c.rest.path, HasSubstr("{namespace}")) << c.name;
    }
    for (const std::string& p : c.mcp.params) {
      EXPECT_TRUE(std::any_of(c.params.begin(), c.params.end(), [&](const ParamSpec& s) { return s.name == p; }))
          << c.name << " exposes unknown argument " << p;
    }
  }
}

TEST_F(RegistryTest, RememberThenRecallEchoesTheNamespace) {
  auto saved = Call("remember", {{"namespace", "u1"}, {"text", "I live in Porto."}});
  ASSERT_TRUE(saved) << saved.error().ToString();
  EXPECT_EQ(saved->body["namespace"], "u1");
  EXPECT_EQ(saved->body["status"], "committed");
  EXPECT_EQ(saved->http_status, 201);
  auto found = Call("recall", {{"namespace", "u1"}, {"query", "where do I live"}});
  ASSERT_TRUE(found) << found.error().ToString();
  EXPECT_EQ(found->body["namespace"], "u1");
  ASSERT_FALSE(found->body["items"].empty());
  EXPECT_THAT(found->body["items"][0]["text"].get<std::string>(), HasSubstr("Porto"));
}

TEST_F(RegistryTest, AnIdOfAnotherNamespaceIsNotFound) {
  auto saved = Call("remember", {{"namespace", "alice"}, {"text", "My locker code is 4711."}});
  ASSERT_TRUE(saved) << saved.error().ToString();
  const std::string event_id = saved->body["event"]["id"];
  ASSERT_TRUE(Call("get_memory", {{"namespace", "alice"}, {"id", event_id}}));
  for (const char* name : {"get_memory", "get_event"}) {
    auto other = Call(name, {{"namespace", "bob"}, {"id", event_id}});
    ASSERT_FALSE(other) << name;
    EXPECT_EQ(other.error().code(), StatusCode::kNotFound);
    EXPECT_THAT(other.error().message(), ::testing::Not(HasSubstr("alice")));
  }
  auto forget = Call("forget", {{"namespace", "bob"}, {"ids", {event_id}}, {"confirm", true}});
  ASSERT_FALSE(forget);
  EXPECT_EQ(forget.error().code(), StatusCode::kNotFound);
  ASSERT_TRUE(Call("get_memory", {{"namespace", "alice"}, {"id", event_id}}));
}

TEST_F(RegistryTest, ForgetIsAPreviewUntilConfirmed) {
  auto saved = Call("remember", {{"namespace", "u1"}, {"text", "My cat is called Miso."}});
  ASSERT_TRUE(saved);
  const std::string id = saved->body["event"]["id"];
  auto preview = Call("forget", {{"namespace", "u1"}, {"ids", {id}}});
  ASSERT_TRUE(preview) << preview.error().ToString();
  EXPECT_TRUE(preview->body["preview"].get<bool>());
  ASSERT_TRUE(Call("get_event", {{"namespace", "u1"}, {"id", id}}));
  auto done = Call("forget", {{"namespace", "u1"}, {"ids", {id}}, {"confirm", true}});
  ASSERT_TRUE(done) << done.error().ToString();
  EXPECT_FALSE(done->body["preview"].get<bool>());
  EXPECT_FALSE(Call("get_event", {{"namespace", "u1"}, {"id", id}}));
}

TEST_F(RegistryTest, CursorPagesNeitherRepeatNorSkipUnderWrites) {
  const char* facts[] = {"My sister is called Ana.", "My favourite colour is green.", "I work at Initech.",
                         "I live in Lisbon.", "My dog is called Rex.", "I speak Portuguese."};
  for (const char* f : facts) ASSERT_TRUE(Call("remember", {{"namespace", "u1"}, {"text", f}}));
  std::vector<std::string> seen;
  json args = {{"namespace", "u1"}, {"limit", 2}};
  int page = 0;
  while (true) {
    auto r = Call("list_claims", args);
    ASSERT_TRUE(r) << r.error().ToString();
    for (const auto& c : r->body["items"]) seen.push_back(c["id"]);
    // A write between pages lands after the cursor: it is listed once, at the end.
    if (page++ == 0) {
      ASSERT_TRUE(Call("remember", {{"namespace", "u1"}, {"text", "My brother is called Rui."}}));
    }
    if (r->body["next_cursor"].is_null()) break;
    args["cursor"] = r->body["next_cursor"];
  }
  auto all = Call("list_claims", {{"namespace", "u1"}, {"limit", 100}});
  ASSERT_TRUE(all);
  std::vector<std::string> expected;
  for (const auto& c : all->body["items"]) expected.push_back(c["id"]);
  EXPECT_EQ(seen, expected);
  EXPECT_GE(seen.size(), 7u);
  auto bad = Call("list_claims", {{"namespace", "u1"}, {"cursor", "abc"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(FieldOfMessage(bad.error().message()), "cursor");
}

TEST_F(RegistryTest, BatchIngestNamesTheBadEventAndStoresNothing) {
  json events = json::array({{{"session_id", "s"}, {"role", "user"}, {"content", "hello"}},
                             {{"session_id", "s"}, {"role", "bot"}, {"content", "hi"}}});
  auto r = Call("ingest_events", {{"namespace", "u1"}, {"events", events}});
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message(), HasSubstr("event 1"));
  EXPECT_EQ(FieldOfMessage(r.error().message()), "role");
  events[1]["role"] = "assistant";
  auto ok = Call("ingest_events", {{"namespace", "u1"}, {"events", events}});
  ASSERT_TRUE(ok) << ok.error().ToString();
  EXPECT_EQ(ok->body["stored"], 2);
  auto other = Call("ingest_events",
                    {{"namespace", "u1"}, {"events", {{{"namespace", "u2"}, {"session_id", "s"}, {"role", "user"},
                                                      {"content", "x"}}}}});
  ASSERT_FALSE(other);
  EXPECT_THAT(other.error().message(), HasSubstr("differs from the namespace of the call"));
}

// The admin group: export answers JSONL in Reply::raw that import takes back; maintain takes a
// namespace or all_namespaces, never an empty one; audit_trail of an unknown id is
// not found.
TEST_F(RegistryTest, AdminExportImportMaintainAndAudit) {
  ASSERT_TRUE(Call("remember", {{"namespace", "u1"}, {"text", "I live in Porto."}}));
  auto dump = Call("export", {{"all_namespaces", true}});
  ASSERT_TRUE(dump) << dump.error().ToString();
  EXPECT_EQ(dump->content_type, "application/x-ndjson");
  EXPECT_THAT(dump->raw, HasSubstr("\"kind\":\"event\""));
  EXPECT_EQ(dump->body["exported"]["events"], 1);
  EXPECT_EQ(dump->body["damaged"], false);
  auto back = Call("import", {{"dump", dump->raw}});
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(back->body["imported"]["events"], 0);
  EXPECT_GE(back->body["skipped_existing"].get<int64_t>(), 1);

  ASSERT_TRUE(Call("maintain", {{"all_namespaces", true}}));
  EXPECT_FALSE(Call("maintain", json::object())) << "a missing namespace never means every namespace";
  for (const auto& [name, args, field] : {std::tuple{"maintain", json{{"namespace", ""}}, "namespace"},
                                          std::tuple{"list_jobs", json{{"status", "stuck"}}, "status"}}) {
    auto bad = Call(name, args);
    EXPECT_TRUE(!bad && FieldOfMessage(bad.error().message()) == field) << name;
  }
  auto audit = Call("audit_trail", {{"id", "01HZZZZZZZZZZZZZZZZZZZZZZZ"}});
  ASSERT_FALSE(audit);
  EXPECT_EQ(audit.error().code(), StatusCode::kNotFound);
}

// B27 on the capability layer (the one every face goes through): every namespaced capability
// refuses an empty or blank namespace naming the field, in strict and tolerant mode alike; the
// whole-file ones that can act on one namespace (export, maintain) take it or an explicit
// all_namespaces, never neither; the lists of every namespace are admin capabilities with no MCP
// tool (MCP tools never reach every namespace).
TEST_F(RegistryTest, B27_BlankNamespaceIsAnErrorEverywhere) {
  for (const Capability& c : AllCapabilities()) {
    if (!c.namespaced) continue;
    EXPECT_TRUE(c.params[0].non_blank) << c.name;
    for (const char* blank : {"", " ", "\t "}) {
      for (ArgsMode mode : {ArgsMode::kStrict, ArgsMode::kTolerant}) {
        auto r = Call(c.name, {{"namespace", blank}}, mode);
        ASSERT_FALSE(r) << c.name;
        EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument) << c.name;
        EXPECT_EQ(FieldOfMessage(r.error().message()), "namespace") << c.name << ": " << r.error().ToString();
      }
    }
  }
  for (const char* name : {"export", "maintain"}) {
    for (const json& args : {json::object(), json{{"namespace", ""}}, json{{"namespace", " "}},
                             json{{"namespace", "u1"}, {"all_namespaces", true}}}) {
      auto r = Call(name, args);
      ASSERT_FALSE(r) << name << " " << args.dump();
      EXPECT_EQ(FieldOfMessage(r.error().message()), "namespace") << name << " " << args.dump();
    }
  }
  ASSERT_TRUE(Call("remember", {{"namespace", "u1"}, {"text", "I live in Porto."}}));
  ASSERT_TRUE(Call("remember", {{"namespace", "u2"}, {"text", "I live in Lima."}}));
  auto one = Call("export", {{"namespace", "u1"}});
  ASSERT_TRUE(one) << one.error().ToString();
  EXPECT_THAT(one->raw, Not(HasSubstr("Lima")));
  auto all = Call("export", {{"all_namespaces", true}});
  ASSERT_TRUE(all) << all.error().ToString();
  EXPECT_THAT(all->raw, HasSubstr("Lima"));
  EXPECT_TRUE(all->body["namespace"].is_null());
  for (const char* name : {"list_all_sessions", "list_all_tombstones"}) {
    const Capability* c = FindCapability(name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->access, Access::kAdmin) << name;
    EXPECT_FALSE(c->namespaced) << name;
    EXPECT_TRUE(c->mcp.tool.empty()) << name << " must not be an MCP tool";
    EXPECT_EQ(Authorize({.grants = {{"*", Access::kWrite}}}, *c, "").code(), StatusCode::kPermissionDenied) << name;
  }
  auto sessions = Call("list_all_sessions", json::object());
  ASSERT_TRUE(sessions) << sessions.error().ToString();
  EXPECT_EQ(sessions->body["items"].size(), 2u);
  EXPECT_FALSE(sessions->body.contains("namespace"));
  for (const Capability& c : AllCapabilities()) {
    if (c.mcp.tool.empty()) continue;
    EXPECT_TRUE(c.namespaced) << c.mcp.tool << " would act on the whole file";
    for (const ParamSpec& p : c.params) EXPECT_NE(p.name, "all_namespaces") << c.mcp.tool;
  }
}

// B47 on the capability layer: list_sessions, list_tombstones, list_jobs and audit_trail answer
// {items, next_cursor} (audit_trail: audit) a page at a time; writes between pages neither repeat
// nor skip an item.
TEST_F(RegistryTest, B47_EveryListPagesWithAnOpaqueCursorUnderWrites) {
  std::vector<std::string> ids, claim_ids;
  for (int i = 0; i < 5; ++i) {
    auto r = Call("remember", {{"namespace", "p"}, {"text", fmt::format("I keep note {}.", i)},
                               {"session_id", fmt::format("s{}", i)}});
    ASSERT_TRUE(r) << r.error().ToString();
    ids.push_back(r->body["event"]["id"].get<std::string>());
    claim_ids.push_back(r->body["claims"][0]["id"].get<std::string>());
  }
  for (const std::string& id : ids) {
    ASSERT_TRUE(Call("forget", {{"namespace", "p"}, {"ids", {id}}, {"confirm", true}}));
  }
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(Call("ingest_event", {{"namespace", "p"}, {"session_id", fmt::format("live{}", i)},
                                      {"role", "user"}, {"content", "a live note"}}));
  }
  struct ListCase {
    const char* capability;
    json args;
    const char* items;
    const char* key;
  };
  int written = 0;
  for (const ListCase& l : {ListCase{"list_sessions", {{"namespace", "p"}}, "items", "session_id"},
                            ListCase{"list_all_sessions", json::object(), "items", "session_id"},
                            ListCase{"list_tombstones", {{"namespace", "p"}}, "items", "id"},
                            ListCase{"list_all_tombstones", json::object(), "items", "id"},
                            ListCase{"list_jobs", {{"status", "pending"}}, "items", "id"},
                            ListCase{"audit_trail", {{"id", claim_ids[0]}}, "audit", "action"}}) {
    SCOPED_TRACE(l.capability);
    json whole_args = l.args;
    auto whole = Call(l.capability, whole_args);
    ASSERT_TRUE(whole) << whole.error().ToString();
    ASSERT_TRUE(whole->body["next_cursor"].is_null());
    std::vector<std::string> expected, paged;
    for (const auto& it : whole->body[l.items]) expected.push_back(it[l.key].dump());
    ASSERT_GE(expected.size(), 2u);
    json args = l.args;
    args["limit"] = 2;
    for (int page = 0; page < 500; ++page) {
      auto got = Call(l.capability, args);
      ASSERT_TRUE(got) << got.error().ToString();
      ASSERT_LE(got->body[l.items].size(), 2u);
      for (const auto& it : got->body[l.items]) paged.push_back(it[l.key].dump());
      if (got->body["next_cursor"].is_null()) break;
      args["cursor"] = got->body["next_cursor"];
      if (page >= 3) continue;
      // A write between pages: a new session, event, job and tombstone, and an old session active.
      auto more = Call("remember", {{"namespace", "p"}, {"text", fmt::format("Between pages {}.", ++written)},
                                    {"session_id", fmt::format("between{}", written)}});
      ASSERT_TRUE(more);
      ASSERT_TRUE(Call("forget", {{"namespace", "p"}, {"ids", {more->body["event"]["id"]}}, {"confirm", true}}));
      ASSERT_TRUE(Call("ingest_event", {{"namespace", "p"}, {"session_id", "live0"}, {"role", "user"},
                                        {"content", fmt::format("live0 again {}", written)}}));
    }
    if (std::string(l.capability) == "list_jobs") {
      // Jobs are oldest first: jobs written between pages come after the first listing's.
      ASSERT_GE(paged.size(), expected.size());
      paged.resize(expected.size());
    }
    EXPECT_EQ(paged, expected);
  }
  auto bad = Call("list_sessions", {{"namespace", "p"}, {"cursor", "42"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(FieldOfMessage(bad.error().message()), "cursor");
}

TEST_F(RegistryTest, AnEmptyNamespaceIsAnErrorNeverEverything) {
  auto r = Call("recall", {{"query", "anything"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(FieldOfMessage(r.error().message()), "namespace");
  auto blank = Call("list_claims", {{"namespace", ""}});
  ASSERT_FALSE(blank);
  EXPECT_EQ(FieldOfMessage(blank.error().message()), "namespace");
}

}  // namespace
}  // namespace engram::api

namespace engram::api {
namespace {

TEST(Authorize, GrantsAreByNamespaceAndAccess) {
  const Capability* recall = FindCapability("recall");
  const Capability* remember = FindCapability("remember");
  const Capability* stats = FindCapability("stats");
  ASSERT_TRUE(recall && remember && stats);
  Principal reader{.key_id = "k1", .grants = {{"alice", Access::kRead}}};
  EXPECT_TRUE(Authorize(reader, *recall, "alice").ok());
  EXPECT_EQ(Authorize(reader, *remember, "alice").code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(Authorize(reader, *recall, "bob").code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(Authorize(reader, *stats, "").code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(Authorize(reader, *recall, "").code(), StatusCode::kInvalidArgument);
  Principal writer{.key_id = "k2", .grants = {{"*", Access::kWrite}}};
  EXPECT_TRUE(Authorize(writer, *remember, "anyone").ok());
  EXPECT_EQ(Authorize(writer, *stats, "").code(), StatusCode::kPermissionDenied);
  EXPECT_TRUE(Authorize(Principal::Owner(), *stats, "").ok());
  EXPECT_EQ(Authorize(Principal::Owner(), *recall, "").code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace engram::api

namespace engram::api {
namespace {

TEST(ResolveFilePath, AServerKeepsFilesInsideItsFolder) {
  EXPECT_EQ(*ResolveFilePath({}, "/tmp/x.db"), "/tmp/x.db");  // the CLI: anywhere
  CallContext server{.file_root = "/srv/m.db.backups"};
  EXPECT_EQ(*ResolveFilePath(server, "nightly/b1.db"), "/srv/m.db.backups/nightly/b1.db");
  for (const char* bad : {"/etc/passwd", "../m.db", "a/../../m.db", ".."}) {
    auto r = ResolveFilePath(server, bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(FieldOfMessage(r.error().message()), "path") << bad;
  }
  EXPECT_TRUE(ResolveFilePath(server, "a..b/c").has_value());
  EXPECT_FALSE(ResolveFilePath(server, std::string(256, '0')).has_value());
}

}  // namespace
}  // namespace engram::api
