// tests/claims_acceptance_test.cc — claim acceptance cases that cannot be written as scenario lines
// (tests/scenarios/claims_*.jsonl hold the rest):
//   B13  concurrent identical writes: 8 threads (one Engine, and one Engine each) and 8 processes
//        call remember with the same text → one current claim per fact; the others report
//        duplicate (event replay) or a duplicate/merged decision, never an error;
//   B42  a failing extractor (Options.extractor = "llm" against a local HTTP server on 127.0.0.1
//        that answers garbage or HTTP 500) leaves the event stored and the job failed/retryable;
//        `engram jobs` shows the failure and `engram jobs retry` requeues it;
//   B34  the process time zone (TZ=America/Los_Angeles, Asia/Shanghai) never leaks into stored or
//        printed times: output stays UTC "Z" and a UTC date filter includes the event.
// No network (the HTTP server listens on 127.0.0.1 only) and no assertion on wall-clock durations.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <latch>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "util/time.h"

namespace engram {
namespace {

using nlohmann::json;
using test::CliResult;
using test::RunCli;
using test::TempDir;
using ::testing::HasSubstr;

// Parses stdout that must be one JSON object.
json JsonOut(const CliResult& r) {
  json j = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "stdout is not JSON:\n" << r.Describe();
  return j.is_discarded() ? json::object() : j;
}

bool IsAbsorbed(const std::string& decision) {
  return decision == "duplicate" || decision == "merged" || decision.rfind("rejected:", 0) == 0;
}

std::string FactKey(const Claim& c) {
  std::string quals;
  for (const auto& q : c.qualifiers) quals += q + ",";
  return c.subject + "|" + c.predicate + "|" + c.slot + "|" + c.value + "|" + quals;
}

std::string Describe(const std::vector<Claim>& claims) {
  std::string out = std::to_string(claims.size()) + " claim(s):";
  for (const Claim& c : claims) {
    out += "\n  [" + c.status + "] " + FactKey(c) + " evidence " + std::to_string(c.evidence.size()) + ": " + c.text;
  }
  return out;
}

// ---- B13: concurrent identical writes ------------------------------------------------------------

constexpr char kB13Text[] = "I use editor-E for all my work.";
constexpr int kWriters = 8;

class ClaimsAcceptanceB13 : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_ = dir_.File("b13.db");
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db_));
    // What one remember of the text makes on its own: the number of claims every concurrent run
    // must end with.
    RememberInput in;
    in.namespace_name = "reference";
    in.text = kB13Text;
    ASSERT_OK_AND_ASSIGN(RememberResult r, engine->Remember(in));
    for (const std::string& d : r.decisions) {
      if (d.rfind("rejected:", 0) != 0) ++reference_claims_;
    }
    ASSERT_GE(reference_claims_, 1) << ::testing::PrintToString(r.decisions);
  }

  // One current claim per fact, as many as the reference run, each supported by `events` events.
  void ExpectOneClaimPerFact(const std::string& ns, size_t events) {
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db_));
    ListClaimsQuery q;
    q.namespace_name = ns;
    q.include_history = true;
    ASSERT_OK_AND_ASSIGN(std::vector<Claim> claims, engine->ListClaims(q));
    EXPECT_EQ(static_cast<int>(claims.size()), reference_claims_) << Describe(claims);
    std::set<std::string> keys;
    for (const Claim& c : claims) {
      EXPECT_EQ(c.status, "active") << Describe(claims);
      EXPECT_TRUE(keys.insert(FactKey(c)).second) << "two claims for one fact; " << Describe(claims);
      EXPECT_EQ(c.evidence.size(), events) << Describe(claims);
    }
    ASSERT_OK_AND_ASSIGN(DoctorReport doctor, engine->Doctor());
    EXPECT_TRUE(doctor.ok) << ::testing::PrintToString(doctor.problems);
  }

  TempDir dir_;
  std::string db_;
  int reference_claims_ = 0;
};

// Checks what the concurrent remember calls reported: no errors; claims created exactly once per
// fact; every other call a replay or only duplicate/merged decisions.
void CheckOutcomes(const std::vector<Result<RememberResult>>& results, int reference_claims, bool replays) {
  int created = 0, new_events = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    ASSERT_TRUE(results[i].has_value()) << "writer " << i << ": " << results[i].error().ToString();
    const RememberResult& r = *results[i];
    if (!r.duplicate) ++new_events;
    for (const std::string& d : r.decisions) {
      if (d == "created") {
        ++created;
      } else {
        EXPECT_TRUE(IsAbsorbed(d)) << "writer " << i << " decided " << d;
      }
    }
    if (r.duplicate) {
      EXPECT_TRUE(r.decisions.empty()) << "writer " << i;
    }
  }
  EXPECT_EQ(created, reference_claims);
  EXPECT_EQ(new_events, replays ? 1 : static_cast<int>(results.size()));
}

TEST_F(ClaimsAcceptanceB13, EightThreadsOneEngineSameMessage) {
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db_));
  std::vector<Result<RememberResult>> results(kWriters, Error(Status::Internal("not run")));
  std::latch start(kWriters);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      RememberInput in;
      in.namespace_name = "threads-replay";
      in.text = kB13Text;
      start.arrive_and_wait();
      results[i] = engine->Remember(in);
    });
  }
  for (auto& t : threads) t.join();
  // Same session, no time: the same message → one event, seven replays (NOOP).
  CheckOutcomes(results, reference_claims_, /*replays=*/true);
  engine.reset();
  ExpectOneClaimPerFact("threads-replay", 1);
}

TEST_F(ClaimsAcceptanceB13, EightThreadsOwnEnginesDistinctEvents) {
  // Each thread has its own connection, and its own session so that every call stores a new
  // event: only the claim dedup inside the write transaction can keep one claim per fact.
  std::vector<std::unique_ptr<Engine>> engines;
  for (int i = 0; i < kWriters; ++i) {
    ASSERT_OK_AND_ASSIGN(auto e, test::OpenTestEngine(db_));
    engines.push_back(std::move(e));
  }
  std::vector<Result<RememberResult>> results(kWriters, Error(Status::Internal("not run")));
  std::latch start(kWriters);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      RememberInput in;
      in.namespace_name = "threads";
      in.text = kB13Text;
      in.session_id = "thread-" + std::to_string(i);
      start.arrive_and_wait();
      results[i] = engines[i]->Remember(in);
    });
  }
  for (auto& t : threads) t.join();
  CheckOutcomes(results, reference_claims_, /*replays=*/false);
  engines.clear();
  ExpectOneClaimPerFact("threads", kWriters);
}

// Runs `engram remember` from kWriters processes at once; returns their parsed results.
std::vector<Result<RememberResult>> RememberFromProcesses(const std::string& db, const std::string& ns,
                                                          bool distinct_sessions) {
  std::vector<CliResult> runs(kWriters);
  std::latch start(kWriters);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      std::vector<std::string> args = {"--db", db, "--json", "remember", "-n", ns};
      if (distinct_sessions) args.insert(args.end(), {"--session", "process-" + std::to_string(i)});
      args.insert(args.end(), {"--", kB13Text});
      start.arrive_and_wait();
      runs[i] = RunCli(args, "", {{"ENGRAM_EXTRACTOR", std::nullopt}});
    });
  }
  for (auto& t : threads) t.join();
  std::vector<Result<RememberResult>> results;
  for (int i = 0; i < kWriters; ++i) {
    const CliResult& r = runs[i];
    if (r.exit_code != 0) {
      results.push_back(Error(Status::Internal("process " + std::to_string(i) + ": " + r.Describe())));
      continue;
    }
    json j = JsonOut(r);
    RememberResult rr;
    rr.duplicate = j.value("duplicate", false);
    for (const json& d : j["decisions"]) rr.decisions.push_back(d.get<std::string>());
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("locked"))) << r.Describe();
    results.push_back(std::move(rr));
  }
  return results;
}

TEST_F(ClaimsAcceptanceB13, EightProcessesSameMessage) {
  CheckOutcomes(RememberFromProcesses(db_, "processes-replay", /*distinct_sessions=*/false), reference_claims_,
                /*replays=*/true);
  ExpectOneClaimPerFact("processes-replay", 1);
}

TEST_F(ClaimsAcceptanceB13, EightProcessesDistinctEvents) {
  CheckOutcomes(RememberFromProcesses(db_, "processes", /*distinct_sessions=*/true), reference_claims_,
                /*replays=*/false);
  ExpectOneClaimPerFact("processes", kWriters);
}

// ---- B42: a failing extractor --------------------------------------------------------------------

// An OpenAI-compatible chat server on 127.0.0.1 (port chosen by the OS) that answers every POST
// with the current reply and counts requests.
class FakeLlmServer {
 public:
  FakeLlmServer() {
    server_.Post(R"(/.*)", [this](const httplib::Request&, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mu_);
      ++requests_;
      res.status = status_;
      res.set_content(body_, "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeLlmServer() {
    server_.stop();
    thread_.join();
  }

  void Reply(int status, std::string body) {
    std::lock_guard<std::mutex> lock(mu_);
    status_ = status;
    body_ = std::move(body);
  }
  // A chat completion whose message content is `content`.
  void Answer(const std::string& content) {
    json body = {{"model", "test-model"},
                 {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}},
                               {"finish_reason", "stop"}}}},
                 {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 10}}}};
    Reply(200, body.dump());
  }
  int requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mu_;
  int status_ = 500;
  std::string body_ = R"({"error":{"message":"not scripted"}})";
  int requests_ = 0;
};

// Sets environment variables for the test's lifetime and restores them after.
class ScopedEnv {
 public:
  ScopedEnv(std::vector<std::pair<std::string, std::optional<std::string>>> changes) {
    for (auto& [name, value] : changes) {
      const char* old = std::getenv(name.c_str());
      saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }
  ~ScopedEnv() {
    for (auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

constexpr char kB42Content[] = "I live in Lisbon and I like green tea.";

class ClaimsAcceptanceB42 : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_ = dir_.File("b42.db");
  }

  test::EnvChanges LlmEnv() const {
    return {{"ENGRAM_EXTRACTOR", "llm"},
            {"ENGRAM_LLM_BASE_URL", server_.base_url()},
            {"ENGRAM_LLM_MODEL", "test-model"},
            {"ENGRAM_LLM_API_KEY", std::nullopt}};
  }
  CliResult Engram(std::vector<std::string> args, const test::EnvChanges& env = {{"ENGRAM_EXTRACTOR", std::nullopt}}) {
    args.insert(args.begin(), {"--db", db_, "--json"});
    return RunCli(args, "", env);
  }

  TempDir dir_;
  std::string db_;
  FakeLlmServer server_;
};

TEST_F(ClaimsAcceptanceB42, GarbageOutputFailsTheJobAndKeepsTheEventThenRetryRecovers) {
  // (b) truncated JSON, every time (also for the repair request).
  server_.Answer(R"({"facts":["likes tea")");
  std::string event_id;
  {
    ScopedEnv env({{"ENGRAM_EXTRACTOR", std::nullopt},
                   {"ENGRAM_LLM_BASE_URL", server_.base_url()},
                   {"ENGRAM_LLM_MODEL", "test-model"},
                   {"ENGRAM_LLM_API_KEY", std::nullopt}});
    Options options;
    options.db_path = db_;
    options.extractor = "llm";
    options.extraction_max_attempts = 1;  // fail for good at once, so that `jobs retry` applies
    ASSERT_OK_AND_ASSIGN(auto engine, Engine::Open(options));
    EventInput in;
    in.namespace_name = "b42";
    in.session_id = "s1";
    in.role = "user";
    in.content = kB42Content;
    in.occurred_at = "2024-05-01T10:00:00Z";
    ASSERT_OK_AND_ASSIGN(IngestResult stored, engine->Ingest(in));
    event_id = stored.event.id;

    ASSERT_OK_AND_ASSIGN(ProcessReport report, engine->Process(/*drain=*/true));
    EXPECT_EQ(report.events, 1);
    EXPECT_EQ(report.jobs_failed, 1);
    EXPECT_EQ(report.claims_created, 0);
    ASSERT_EQ(report.errors.size(), 1u);
    EXPECT_THAT(report.errors[0], HasSubstr("llm/test-model"));
    EXPECT_GE(server_.requests(), 1);

    // The event is stored and searchable; no claim; the job is failed with its error.
    ASSERT_OK_AND_ASSIGN(Event e, engine->GetEvent(event_id));
    EXPECT_EQ(e.content, kB42Content);
    RecallQuery q;
    q.text = "Lisbon";
    q.namespace_name = "b42";
    ASSERT_OK_AND_ASSIGN(RecallResult found, engine->Recall(q));
    ASSERT_FALSE(found.items.empty());
    EXPECT_EQ(found.items[0].id, event_id);
    ListClaimsQuery cq;
    cq.namespace_name = "b42";
    cq.include_history = true;
    ASSERT_OK_AND_ASSIGN(std::vector<Claim> claims, engine->ListClaims(cq));
    EXPECT_TRUE(claims.empty()) << Describe(claims);
    ASSERT_OK_AND_ASSIGN(std::vector<JobInfo> failed, engine->ListJobs("failed", 100));
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].event_id, event_id);
    EXPECT_EQ(failed[0].attempts, 1);
    EXPECT_FALSE(failed[0].last_error.empty());
    ASSERT_OK_AND_ASSIGN(StoreStats stats, engine->Stats());
    EXPECT_EQ(stats.failed_jobs, 1);
    EXPECT_EQ(stats.events, 1);

    // A failed job is not retried behind the user's back.
    const int before = server_.requests();
    ASSERT_OK_AND_ASSIGN(ProcessReport again, engine->Process(/*drain=*/true));
    EXPECT_EQ(again.batches, 0);
    EXPECT_EQ(server_.requests(), before);
  }

  // `engram jobs` shows the failure (not done = listed), with its error.
  CliResult r = Engram({"jobs"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json jobs = JsonOut(r);
  ASSERT_EQ(jobs["items"].size(), 1u) << r.out;
  EXPECT_EQ(jobs["items"][0]["status"], "failed") << r.out;
  EXPECT_EQ(jobs["items"][0]["event_id"], event_id) << r.out;
  EXPECT_NE(jobs["items"][0]["last_error"], "") << r.out;
  r = Engram({"jobs", "--status", "failed"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(JsonOut(r)["items"].size(), 1u) << r.out;
  r = RunCli({"--db", db_, "jobs"});  // the readable form names the error too
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("failed"));
  EXPECT_THAT(r.out, HasSubstr("error: "));

  // `engram jobs retry` requeues it.
  r = Engram({"jobs", "retry"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(JsonOut(r)["retried"], 1) << r.out;
  r = Engram({"jobs"});
  jobs = JsonOut(r);
  ASSERT_EQ(jobs["items"].size(), 1u) << r.out;
  EXPECT_EQ(jobs["items"][0]["status"], "pending") << r.out;
  EXPECT_EQ(jobs["items"][0]["attempts"], 0) << r.out;

  // (a) JSON wrapped in prose that itself has braces is parsed; (c) an item with an empty
  // "categories" list is kept.
  json claim = {{"subject", "user"}, {"predicate", "lives_in"}, {"slot", ""}, {"value", "Lisbon"},
                {"text", "user lives in Lisbon"}, {"qualifiers", json::array()}, {"valid_from", nullptr},
                {"valid_to", nullptr}, {"time_phrase", ""}, {"scope", "identity"}, {"confidence", 0.9},
                {"importance", 0.8}, {"source_event", 0}, {"evidence_span", "I live in Lisbon"},
                {"categories", json::array()}};
  server_.Answer("Based on the talk {about travel}, here: " + json({{"claims", {claim}}}).dump());
  r = Engram({"process"}, LlmEnv());
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json report = JsonOut(r);
  EXPECT_EQ(report["jobs_failed"], 0) << r.out;
  EXPECT_EQ(report["claims_created"], 1) << r.out;
  EXPECT_EQ(report["errors"], json::array()) << r.out;

  r = Engram({"jobs"});
  EXPECT_EQ(JsonOut(r)["items"], json::array()) << r.out;
  r = Engram({"claims", "-n", "b42"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json claims = JsonOut(r)["items"];
  ASSERT_EQ(claims.size(), 1u) << r.out;
  EXPECT_EQ(claims[0]["value"], "Lisbon");
  EXPECT_EQ(claims[0]["extractor"], "llm/test-model");
  ASSERT_EQ(claims[0]["evidence"].size(), 1u) << r.out;
  EXPECT_EQ(claims[0]["evidence"][0]["event_id"], event_id);
}

TEST_F(ClaimsAcceptanceB42, Http500LeavesTheEventStoredAndTheJobRetryable) {
  server_.Reply(500, R"({"error":{"message":"upstream exploded"}})");
  const std::string file = dir_.File("events.jsonl");
  test::WriteFile(file, json({{"namespace", "b42"}, {"session_id", "s1"}, {"role", "user"}, {"content", kB42Content},
                              {"occurred_at", "2024-05-01T10:00:00Z"}})
                                .dump() +
                            "\n");
  CliResult r = Engram({"ingest", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();

  r = Engram({"process"}, LlmEnv());
  ASSERT_EQ(r.exit_code, 0) << "an extractor failure is reported, not a crash: " << r.Describe();
  json report = JsonOut(r);
  EXPECT_EQ(report["events"], 1) << r.out;
  EXPECT_EQ(report["jobs_failed"], 1) << r.out;
  EXPECT_EQ(report["claims_created"], 0) << r.out;
  ASSERT_EQ(report["errors"].size(), 1u) << r.out;
  EXPECT_THAT(report["errors"][0].get<std::string>(), HasSubstr("500"));
  EXPECT_GE(server_.requests(), 1);

  r = Engram({"jobs"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json jobs = JsonOut(r)["items"];
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  EXPECT_EQ(jobs[0]["status"], "pending") << "retried later with backoff: " << r.out;
  EXPECT_EQ(jobs[0]["attempts"], 1) << r.out;
  EXPECT_THAT(jobs[0]["last_error"].get<std::string>(), HasSubstr("500"));
  const std::string event_id = jobs[0]["event_id"].get<std::string>();

  r = Engram({"get", event_id});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(JsonOut(r)["content"], kB42Content);
  r = Engram({"stats"});
  json stats = JsonOut(r);
  EXPECT_EQ(stats["events"], 1) << r.out;
  EXPECT_EQ(stats["claims"], 0) << r.out;
  EXPECT_EQ(stats["pending_jobs"], 1) << r.out;
}

// ---- B34: the process time zone ------------------------------------------------------------------

constexpr char kB34Text[] = "I went to the harbour market.";
constexpr char kB34At[] = "2026-07-25T02:00:00.000Z";  // still 2026-07-24 in Los Angeles

class ClaimsAcceptanceB34 : public ::testing::TestWithParam<const char*> {};

TEST_P(ClaimsAcceptanceB34, CliOutputStaysUtcAndTheUtcDateFilterIncludesTheEvent) {
  const std::string tz = GetParam();
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string db = dir.File("b34.db");
  const test::EnvChanges env = {{"TZ", tz}, {"ENGRAM_EXTRACTOR", std::nullopt}};
  auto engram = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return RunCli(args, "", env);
  };

  CliResult r = engram({"--json", "remember", "-n", "b34", "--at", "2026-07-25T02:00:00Z", "--", kB34Text});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json remembered = JsonOut(r);
  EXPECT_EQ(remembered["event"]["occurred_at"], kB34At) << r.out;
  EXPECT_THAT(remembered["event"]["recorded_at"].get<std::string>(), ::testing::EndsWith("Z"));
  const std::string event_id = remembered["event"]["id"].get<std::string>();
  for (const json& c : remembered["claims"]) {
    EXPECT_EQ(c["valid_from"], kB34At) << r.out;
    EXPECT_THAT(c["recorded_from"].get<std::string>(), ::testing::EndsWith("Z"));
  }

  // The same instant written as local time with an offset, or naive (= UTC), is the same event.
  for (const char* at : {"2026-07-24T19:00:00-07:00", "2026-07-25T10:00:00+08:00", "2026-07-25T02:00:00"}) {
    r = engram({"--json", "remember", "-n", "b34", "--at", at, "--", kB34Text});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_EQ(JsonOut(r)["duplicate"], true) << at << ": " << r.out;
  }
  // An empty --at is an error (as --now "" and --since "" are), never "now".
  r = engram({"remember", "-n", "b34", "--at", "", "--", kB34Text});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_THAT(r.err, ::testing::HasSubstr("field \"at\"")) << r.Describe();

  // A UTC date filter for 2026-07-25 includes it; 2026-07-24 does not.
  r = engram({"--json", "recall", "-n", "b34", "--events-only", "--since", "2026-07-25", "--until", "2026-07-26",
              "harbour"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json items = JsonOut(r)["items"];
  ASSERT_EQ(items.size(), 1u) << r.out;
  EXPECT_EQ(items[0]["id"], event_id);
  EXPECT_EQ(items[0]["occurred_at"], kB34At);
  r = engram({"--json", "recall", "-n", "b34", "--events-only", "--since", "2026-07-24", "--until", "2026-07-25",
              "harbour"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(JsonOut(r)["items"].size(), 0u) << r.out;

  // Every printed time is UTC.
  r = engram({"--json", "get", event_id});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(JsonOut(r)["occurred_at"], kB34At);
  r = engram({"--json", "claims", "-n", "b34"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json claims = JsonOut(r)["items"];
  EXPECT_FALSE(claims.empty()) << r.out;
  for (const json& c : claims) EXPECT_EQ(c["valid_from"], kB34At) << r.out;
  r = engram({"--json", "sessions", "-n", "b34"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json sessions = JsonOut(r)["items"];
  ASSERT_EQ(sessions.size(), 1u) << r.out;
  EXPECT_EQ(sessions[0]["last_active_at"], kB34At);
  // The readable forms print the UTC date (2026-07-25), never the local one (07-24 in LA, or a
  // shifted hour in Shanghai).
  r = engram({"claims", "-n", "b34"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("2026-07-25"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("2026-07-24")));
  r = engram({"recall", "-n", "b34", "--events-only", "harbour"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("2026-07-25T02:00"));
}

TEST_P(ClaimsAcceptanceB34, LibraryTimesIgnoreTheProcessTimeZone) {
  const std::string tz = GetParam();
  struct TzReset {
    ~TzReset() { tzset(); }  // runs after `env` below has restored TZ
  } tz_reset;
  ScopedEnv env({{"TZ", tz}});
  tzset();
  // The zone is really in effect for this process (02:00Z is not 02:00 local in either zone).
  std::time_t t = static_cast<std::time_t>(*ParseTimestamp(kB34At) / 1000);
  std::tm local{};
  localtime_r(&t, &local);
  EXPECT_NE(local.tm_hour, 2) << tz;

  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("b34.db")));
  RememberInput in;
  in.namespace_name = "b34";
  in.text = kB34Text;
  in.at = "2026-07-25T02:00:00";  // naive: UTC by the documented rule, whatever TZ says
  ASSERT_OK_AND_ASSIGN(RememberResult r, engine->Remember(in));
  EXPECT_EQ(FormatTimestamp(r.event.occurred_at), kB34At);
  for (const Claim& c : r.claims) EXPECT_EQ(FormatTimestamp(c.valid_from), kB34At);
  RecallQuery q;
  q.text = "harbour";
  q.namespace_name = "b34";
  q.include_claims = false;
  q.since = *ParseTimestamp("2026-07-25");
  q.until = *ParseTimestamp("2026-07-26");
  ASSERT_OK_AND_ASSIGN(RecallResult found, engine->Recall(q));
  ASSERT_EQ(found.items.size(), 1u);
  EXPECT_EQ(found.items[0].id, r.event.id);
}

INSTANTIATE_TEST_SUITE_P(TimeZones, ClaimsAcceptanceB34,
                         ::testing::Values("America/Los_Angeles", "Asia/Shanghai"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace engram
