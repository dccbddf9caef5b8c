// tests/concurrency_test.cc — several processes and threads on one database file (bug scenarios
// B43 "database is locked" and B13 concurrent identical writes).
//
// Child processes are forked without exec and use their own Engine; they never touch gtest: each
// writes what went wrong to its own log file and reports through its exit code, and the parent
// asserts on both. No test depends on timing: children synchronise through pipes (a start signal
// once the writer has stored its first event, a barrier for the idempotency race, EOF on a pipe
// when the writer is done).
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace engram {
namespace {

using test::TempDir;

// ---- child processes ---------------------------------------------------------------------------

struct Child {
  pid_t pid = -1;
  std::string name;
  std::string log;  // what the child wrote about its work and its failures
};

// Forks a child that runs `body(log)` and exits with its return value. The parent must hold no
// open Engine (SQLite connections must not cross fork).
Child Spawn(const TempDir& dir, const std::string& name,
            const std::function<int(std::ofstream&)>& body) {
  Child child{-1, name, dir.File(name + ".log")};
  std::fflush(nullptr);
  child.pid = fork();
  if (child.pid == 0) {
    int rc = 99;
    {
      std::ofstream log(child.log);
      try {
        rc = body(log);
      } catch (...) {
        log << "exception escaped\n";
        rc = 98;
      }
    }
    _exit(rc);
  }
  return child;
}

// Waits for the child; returns its exit code (128 + N when killed by signal N).
int Wait(const Child& child) {
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

std::string Log(const Child& child) { return child.name + " log:\n" + test::ReadFile(child.log); }

// A pipe whose ends are closed by their destructors (each process closes what it does not use).
struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() {
    if (pipe(fds) != 0) ADD_FAILURE() << "pipe failed";
  }
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }
  void CloseRead() {
    if (fds[0] >= 0) close(fds[0]);
    fds[0] = -1;
  }
  void CloseWrite() {
    if (fds[1] >= 0) close(fds[1]);
    fds[1] = -1;
  }
  // Blocks for one byte; false on EOF (every writer closed without writing).
  bool ReadByte() {
    char c;
    ssize_t n;
    do {
      n = read(fds[0], &c, 1);
    } while (n < 0 && errno == EINTR);
    return n == 1;
  }
  void WriteBytes(int count) {
    for (int i = 0; i < count; ++i) {
      ssize_t n;
      do {
        n = write(fds[1], "x", 1);
      } while (n < 0 && errno == EINTR);
    }
  }
  // True once every write end is closed (read returns EOF). Never blocks.
  bool Closed() {
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) return false;
    char c;
    return read(fds[0], &c, 1) == 0;
  }
};

EventInput MakeEvent(const std::string& ns, const std::string& session, const std::string& content,
                     int second) {
  EventInput in;
  in.namespace_name = ns;
  in.session_id = session;
  in.role = second % 2 == 0 ? "user" : "assistant";
  in.content = content;
  char buf[40];
  std::snprintf(buf, sizeof(buf), "2024-06-01T%02d:%02d:%02dZ", second / 3600 % 24,
                second / 60 % 60, second % 60);
  in.occurred_at = buf;
  return in;
}

// ---- B43: writer, reader and CLI processes on one file ----------------------------------------

constexpr int kWriterEvents = 1000;

TEST(ConcurrencyTest, WriterReaderAndCliProcessesNeverSeeLockErrors) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string db = dir.File("shared.db");
  {
    // Create the schema up front; the race on a fresh file has its own test below.
    auto engine = test::OpenTestEngine(db);
    ASSERT_OK(engine);
  }

  Pipe started;  // the writer writes one byte per waiting child after its first event
  Pipe done;     // the parent closes its write end once the writer has exited
  // The reader and the CLI child each write one byte after their first full round; the writer
  // waits for both half-way, so reads provably overlap writes (without relying on timing).
  Pipe progress;

  Child writer = Spawn(dir, "writer", [&](std::ofstream& log) {
    started.CloseRead();
    done.CloseWrite();
    progress.CloseWrite();
    auto engine = test::OpenTestEngine(db);
    if (!engine) {
      log << "open: " << engine.error().ToString() << "\n";
      return 1;
    }
    int failures = 0;
    for (int i = 0; i < kWriterEvents; ++i) {
      EventInput in = MakeEvent("w", "w-s" + std::to_string(i % 10),
                                "writer event " + std::to_string(i) + " about the kingfisher", i);
      auto r = (*engine)->Ingest(in);
      if (!r) {
        log << "ingest " << i << ": " << r.error().ToString() << "\n";
        ++failures;
      } else if (r->duplicate) {
        log << "ingest " << i << ": unexpectedly a duplicate\n";
        ++failures;
      }
      if (i == 0) started.WriteBytes(2);
      if (i == kWriterEvents / 2) {
        for (int k = 0; k < 2; ++k) {
          if (!progress.ReadByte()) log << "a reading child exited before its first round\n";
        }
      }
    }
    log << "wrote " << kWriterEvents << " events, " << failures << " failures\n";
    return failures == 0 ? 0 : 1;
  });

  Child reader = Spawn(dir, "reader", [&](std::ofstream& log) {
    started.CloseWrite();
    done.CloseWrite();
    progress.CloseRead();
    auto engine = test::OpenTestEngine(db);
    if (!engine) {
      log << "open: " << engine.error().ToString() << "\n";
      return 1;
    }
    if (!started.ReadByte()) {
      log << "the writer never stored its first event\n";
      return 2;
    }
    int failures = 0;
    int64_t iterations = 0, last_events = 0;
    auto fail = [&](const std::string& what, const Status& st) {
      if (++failures <= 20)
        log << "iteration " << iterations << ": " << what << ": " << st.ToString() << "\n";
    };
    // At least one full round, then until the writer is done.
    do {
      ++iterations;
      RecallQuery q;
      q.text = "kingfisher event";
      q.namespace_name = "w";
      q.limit = 20;
      auto recalled = (*engine)->Recall(q);
      if (!recalled) fail("recall", recalled.error());
      auto sessions = (*engine)->ListSessions({"w", 20});
      if (!sessions) fail("list sessions", sessions.error());
      auto all_sessions = (*engine)->ListSessions({.limit = 20, .all_namespaces = true});
      if (!all_sessions) fail("list all sessions", all_sessions.error());
      SessionSearchQuery sq;
      sq.text = "kingfisher";
      sq.namespace_name = "w";
      auto searched = (*engine)->SearchSessions(sq);
      if (!searched) fail("search sessions", searched.error());
      auto stats = (*engine)->Stats();
      if (!stats) {
        fail("stats", stats.error());
      } else {
        // A reader sees a consistent, growing store.
        if (stats->events < last_events || stats->events > kWriterEvents) {
          ++failures;
          log << "event count went from " << last_events << " to " << stats->events << "\n";
        }
        last_events = stats->events;
      }
      if (iterations == 1) progress.WriteBytes(1);
    } while (!done.Closed());
    log << iterations << " iterations, " << failures << " failures\n";
    return failures == 0 ? 0 : 1;
  });

  Child cli = Spawn(dir, "cli", [&](std::ofstream& log) {
    started.CloseWrite();
    done.CloseWrite();
    progress.CloseRead();
    if (!started.ReadByte()) {
      log << "the writer never stored its first event\n";
      return 2;
    }
    int failures = 0, rounds = 0;
    const std::vector<std::vector<std::string>> commands = {
        {"--db", db, "stats"},
        {"--db", db, "--json", "stats"},
        {"--db", db, "sessions", "--all-namespaces"},
        {"--db", db, "--json", "sessions", "-n", "w"},
        {"--db", db, "--json", "sessions", "search", "-n", "w", "kingfisher"},
        {"--db", db, "--json", "recall", "-n", "w", "kingfisher"},
    };
    // A few rounds at least, and on until the writer is done.
    do {
      ++rounds;
      for (const auto& args : commands) {
        test::CliResult r = test::RunCli(args);
        const bool locked =
            r.err.find("locked") != std::string::npos || r.err.find("busy") != std::string::npos;
        if (r.exit_code != 0 || locked) {
          ++failures;
          log << "round " << rounds << ": engram " << args[2] << " ...: " << r.Describe() << "\n";
        }
      }
      if (rounds == 1) progress.WriteBytes(1);
    } while (rounds < 3 || !done.Closed());
    log << rounds << " rounds, " << failures << " failures\n";
    return failures == 0 ? 0 : 1;
  });

  started.CloseRead();
  started.CloseWrite();
  progress.CloseRead();
  progress.CloseWrite();
  done.CloseRead();
  const int writer_rc = Wait(writer);
  done.CloseWrite();  // tells the reader and the CLI child to finish their round and exit
  const int reader_rc = Wait(reader);
  const int cli_rc = Wait(cli);
  EXPECT_EQ(writer_rc, 0) << Log(writer);
  EXPECT_EQ(reader_rc, 0) << Log(reader);
  EXPECT_EQ(cli_rc, 0) << Log(cli);
  if (std::getenv("ENGRAM_TEST_VERBOSE") != nullptr) {
    std::printf("%s\n%s\n%s\n", Log(writer).c_str(), Log(reader).c_str(), Log(cli).c_str());
  }

  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
  ASSERT_OK_AND_ASSIGN(DoctorReport report, engine->Doctor());
  EXPECT_TRUE(report.ok) << ::testing::PrintToString(report.problems);
  ASSERT_OK_AND_ASSIGN(StoreStats stats, engine->Stats());
  EXPECT_EQ(stats.events, kWriterEvents);
  EXPECT_EQ(stats.sessions, 10);
  ASSERT_EQ(stats.per_namespace.size(), 1u);
  EXPECT_EQ(stats.per_namespace[0].name, "w");
  EXPECT_EQ(stats.per_namespace[0].events, kWriterEvents);
  ASSERT_OK_AND_ASSIGN(auto sessions, engine->ListSessions({"w", 100}));
  ASSERT_EQ(sessions.size(), 10u);
  for (const SessionInfo& s : sessions) EXPECT_EQ(s.event_count, kWriterEvents / 10) << s.id;
  RecallQuery q;
  q.text = "writer event 999";
  q.namespace_name = "w";
  q.match = MatchMode::kAll;
  ASSERT_OK_AND_ASSIGN(RecallResult last, engine->Recall(q));
  ASSERT_EQ(last.items.size(), 1u);
  EXPECT_EQ(last.items[0].text, "writer event 999 about the kingfisher");
}

// ---- B43: writers while a drain runs -----------------------------------------------------------

constexpr int kBacklogEvents = 600;
constexpr int kDrainWriters = 3;
constexpr int kMinRemembers = 5;

// Issue 17: while `engram process` drained 20,000 events, 33 of 300 concurrent remembers failed
// with "database is locked". A drain child works through a backlog that restates the same few
// facts (so each slot's history grows as it goes) while writer children remember with the
// default options; every remember must succeed, and the writers keep going until the drain is
// done (EOF on a pipe, not a timer). The structural guarantees — a drain's transactions end
// window by window, and a claim's write does not read its slot's history — are the worker's and
// the writer's own B43 tests (write/extraction_worker_test.cc, write/claim_writer_test.cc).
TEST(ConcurrencyTest, B43_RemembersSucceedWhileADrainRuns) {
  TempDir dir;
  const std::string db = dir.File("drain.db");
  {
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
    const std::vector<std::string> facts = {"I live in Paris", "I live in Oslo", "I work at Acme",
                                            "I work at Globex", "My favorite color is blue"};
    std::vector<EventInput> backlog;
    for (int i = 0; i < kBacklogEvents; ++i) {
      backlog.push_back(MakeEvent("b", "b-s" + std::to_string(i / 50), facts[i % facts.size()], i));
    }
    ASSERT_OK(engine->IngestBatch(backlog));
  }

  Pipe started;  // the drain writes one byte per writer just before it starts
  Pipe running;  // the drain holds the only write end: EOF once it has exited
  Child drain = Spawn(dir, "drain", [&](std::ofstream& log) {
    started.CloseRead();
    running.CloseRead();
    auto engine = test::OpenTestEngine(db);
    if (!engine) {
      log << "open: " << engine.error().ToString() << "\n";
      return 1;
    }
    started.WriteBytes(kDrainWriters);
    auto report = (*engine)->Process(/*drain=*/true);
    if (!report) {
      log << "process: " << report.error().ToString() << "\n";
      return 1;
    }
    log << report->events << " events, " << report->errors.size() << " errors\n";
    for (const std::string& e : report->errors) log << e << "\n";
    return report->events == kBacklogEvents && report->errors.empty() ? 0 : 1;
  });
  std::vector<Child> writers;
  for (int w = 0; w < kDrainWriters; ++w) {
    writers.push_back(Spawn(dir, "writer" + std::to_string(w), [&, w](std::ofstream& log) {
      started.CloseWrite();
      running.CloseWrite();
      if (!started.ReadByte()) {
        log << "the drain never started\n";
        return 2;
      }
      auto engine = test::OpenTestEngine(db);
      if (!engine) {
        log << "open: " << engine.error().ToString() << "\n";
        return 1;
      }
      int done = 0, during_drain = 0, failures = 0;
      while (done < kMinRemembers || !running.Closed()) {
        RememberInput in;
        in.namespace_name = "w";
        in.session_id = "w" + std::to_string(w);
        in.text = "note " + std::to_string(w) + "." + std::to_string(done) + ": I work at Initech";
        auto r = (*engine)->Remember(in);
        if (!r) {
          ++failures;
          log << "remember " << done << ": " << r.error().ToString() << "\n";
        }
        ++done;
        if (!running.Closed()) ++during_drain;
      }
      log << done << " remembers (" << during_drain << " while the drain ran), " << failures << " failures\n";
      return failures == 0 ? 0 : 1;
    }));
  }
  started.CloseRead();
  started.CloseWrite();
  running.CloseWrite();
  running.CloseRead();
  EXPECT_EQ(Wait(drain), 0) << Log(drain);
  int remembered = 0;
  for (const Child& w : writers) {
    EXPECT_EQ(Wait(w), 0) << Log(w);
    const std::string log = test::ReadFile(w.log);
    remembered += std::atoi(log.c_str());
  }
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
  ASSERT_OK_AND_ASSIGN(StoreStats stats, engine->Stats());
  EXPECT_EQ(stats.events, kBacklogEvents + remembered);
  ASSERT_OK_AND_ASSIGN(DoctorReport report, engine->Doctor());
  EXPECT_TRUE(report.ok) << ::testing::PrintToString(report.problems);
}

// ---- threads sharing one Engine ----------------------------------------------------------------

TEST(ConcurrencyTest, FourThreadsIngestThroughOneEngine) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("threads.db")));

  constexpr int kThreads = 4, kPerThread = 250, kShared = 50;
  std::mutex mu;
  std::vector<std::string> errors;
  std::set<std::string> ids;
  std::map<std::string, int> stored_shared;  // shared key → how many threads stored it as new
  std::atomic<bool> writers_done{false};
  auto record_error = [&](const std::string& e) {
    std::lock_guard<std::mutex> lock(mu);
    errors.push_back(e);
  };

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        EventInput in = MakeEvent("t", "thread-" + std::to_string(t),
                                  "thread " + std::to_string(t) + " note " + std::to_string(i),
                                  t * kPerThread + i);
        auto r = engine->Ingest(in);
        if (!r) {
          record_error("ingest: " + r.error().ToString());
        } else {
          std::lock_guard<std::mutex> lock(mu);
          if (r->duplicate) errors.push_back("unexpected duplicate: " + in.content);
          if (!ids.insert(r->event.id).second) errors.push_back("id reused: " + r->event.id);
        }
        if (i < kShared) {
          // Every thread also writes the same kShared keyed events (B13, in one process).
          EventInput shared = MakeEvent("t", "shared", "shared fact " + std::to_string(i), i);
          shared.idempotency_key = "shared-" + std::to_string(i);
          auto s = engine->Ingest(shared);
          std::lock_guard<std::mutex> lock(mu);
          if (!s) {
            errors.push_back("shared ingest: " + s.error().ToString());
          } else if (!s->duplicate) {
            ++stored_shared[shared.idempotency_key];
          }
        }
      }
    });
  }
  // A reader thread on the same Engine while the writers run.
  std::thread reader([&] {
    int rounds = 0;
    while (!writers_done.load() || rounds < 1) {
      ++rounds;
      RecallQuery q;
      q.text = "note";
      q.namespace_name = "t";
      auto r = engine->Recall(q);
      // Before the first write the namespace may not exist yet.
      if (!r && r.error().code() != StatusCode::kNotFound)
        record_error("recall: " + r.error().ToString());
      auto s = engine->ListSessions({"t", 10});
      if (!s) record_error("list sessions: " + s.error().ToString());
    }
  });
  for (std::thread& th : threads) th.join();
  writers_done = true;
  reader.join();

  EXPECT_THAT(errors, ::testing::IsEmpty());
  EXPECT_EQ(ids.size(), static_cast<size_t>(kThreads * kPerThread));
  EXPECT_EQ(stored_shared.size(), static_cast<size_t>(kShared));
  for (const auto& [key, count] : stored_shared) EXPECT_EQ(count, 1) << key;

  ASSERT_OK_AND_ASSIGN(StoreStats stats, engine->Stats());
  EXPECT_EQ(stats.events, kThreads * kPerThread + kShared);
  EXPECT_EQ(stats.sessions, kThreads + 1);
  ASSERT_OK_AND_ASSIGN(DoctorReport report, engine->Doctor());
  EXPECT_TRUE(report.ok) << ::testing::PrintToString(report.problems);
  for (const std::string& id : ids) {
    auto e = engine->GetEvent(id);
    ASSERT_OK(e);
    EXPECT_EQ(e->id, id);
  }
}

TEST(ConcurrencyTest, EightThreadsSameKeyStoreOneEvent) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(dir.File("same-key-threads.db")));
  constexpr int kThreads = 8;
  std::vector<Result<IngestResult>> results(kThreads, Error(Status::Internal("not run")));
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      EventInput in = MakeEvent("u1", "s1", "I use editor-E for all my work.", 0);
      in.idempotency_key = "webhook-42";
      ++ready;
      while (ready.load() < kThreads) std::this_thread::yield();
      results[t] = engine->Ingest(in);
    });
  }
  for (std::thread& th : threads) th.join();
  int stored = 0;
  std::set<std::string> ids;
  for (const auto& r : results) {
    ASSERT_OK(r);
    if (!r->duplicate) ++stored;
    ids.insert(r->event.id);
  }
  EXPECT_EQ(stored, 1);
  EXPECT_EQ(ids.size(), 1u) << "every caller must get the one stored event";
  ASSERT_OK_AND_ASSIGN(StoreStats stats, engine->Stats());
  EXPECT_EQ(stats.events, 1);
}

// ---- B13: eight processes, one idempotency key -------------------------------------------------

struct SameKeyCase {
  const char* name;
  bool fresh_file;  // the processes also race to create the database
  bool explicit_key;
};

void PrintTo(const SameKeyCase& c, std::ostream* os) { *os << c.name; }

class SameKeyProcessesTest : public ::testing::TestWithParam<SameKeyCase> {};

TEST_P(SameKeyProcessesTest, ExactlyOneStoredOthersReportDuplicate) {
  const SameKeyCase& c = GetParam();
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string db = dir.File("same-key.db");
  if (!c.fresh_file) {
    auto engine = test::OpenTestEngine(db);
    ASSERT_OK(engine);
  }

  constexpr int kProcesses = 8;
  constexpr int kStored = 0, kDuplicate = 10;
  Pipe go;  // a barrier: every child blocks on it until the parent closes the write end
  std::vector<Child> children;
  for (int p = 0; p < kProcesses; ++p) {
    children.push_back(Spawn(dir, "proc" + std::to_string(p), [&](std::ofstream& log) {
      go.CloseWrite();
      char byte;
      while (read(go.fds[0], &byte, 1) < 0 && errno == EINTR) {
      }
      auto engine = test::OpenTestEngine(db);
      if (!engine) {
        log << "open: " << engine.error().ToString() << "\n";
        return 1;
      }
      EventInput in = MakeEvent("u1", "s1", "I use editor-E for all my work.", 0);
      if (c.explicit_key) in.idempotency_key = "retry-7";
      auto r = (*engine)->Ingest(in);
      if (!r) {
        log << "ingest: " << r.error().ToString() << "\n";
        return 1;
      }
      log << r->event.id << "\n";
      return r->duplicate ? kDuplicate : kStored;
    }));
  }
  go.CloseRead();
  go.CloseWrite();  // release them all at once

  int stored = 0, duplicates = 0;
  std::set<std::string> ids;
  for (const Child& child : children) {
    const int rc = Wait(child);
    if (rc == kStored) ++stored;
    if (rc == kDuplicate) ++duplicates;
    EXPECT_TRUE(rc == kStored || rc == kDuplicate) << "exit " << rc << "\n" << Log(child);
    std::string id = test::ReadFile(child.log);
    if (!id.empty() && id.back() == '\n') id.pop_back();
    if (rc == kStored || rc == kDuplicate) ids.insert(id);
  }
  EXPECT_EQ(stored, 1);
  EXPECT_EQ(duplicates, kProcesses - 1);
  EXPECT_EQ(ids.size(), 1u) << "every process must be given the one stored event";

  ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
  ASSERT_OK_AND_ASSIGN(StoreStats stats, engine->Stats());
  EXPECT_EQ(stats.events, 1);
  ASSERT_OK_AND_ASSIGN(DoctorReport report, engine->Doctor());
  EXPECT_TRUE(report.ok) << ::testing::PrintToString(report.problems);
}

// B43 at start-up: several processes (agents, hooks, the CLI) open a database that does not exist
// yet. Every Open must succeed: creating the file, switching it to WAL and running the migrations
// all have to wait for each other instead of failing with "database is locked". The race window is
// small, so it is run many times over; with correct locking every round passes.
TEST(ConcurrencyTest, ProcessesOpeningAFreshFileTogetherNeverSeeLockErrors) {
  constexpr int kRounds = 60, kProcesses = 8;
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  for (int round = 0; round < kRounds; ++round) {
    const std::string db = dir.File("fresh" + std::to_string(round) + ".db");
    Pipe go;
    std::vector<Child> children;
    for (int p = 0; p < kProcesses; ++p) {
      children.push_back(Spawn(dir, "open" + std::to_string(p), [&](std::ofstream& log) {
        go.CloseWrite();
        char byte;
        while (read(go.fds[0], &byte, 1) < 0 && errno == EINTR) {
        }
        auto engine = test::OpenTestEngine(db);
        if (!engine) {
          log << "open: " << engine.error().ToString() << "\n";
          return 1;
        }
        auto stats = (*engine)->Stats();
        if (!stats) {
          log << "stats: " << stats.error().ToString() << "\n";
          return 1;
        }
        return 0;
      }));
    }
    go.CloseRead();
    go.CloseWrite();
    int failed = 0;
    for (const Child& child : children) {
      const int rc = Wait(child);
      if (rc != 0) ++failed;
      EXPECT_EQ(rc, 0) << "round " << round << ", " << Log(child);
    }
    ASSERT_EQ(failed, 0) << "round " << round << " of " << kRounds;
    ASSERT_OK_AND_ASSIGN(auto engine, test::OpenTestEngine(db));
    ASSERT_OK_AND_ASSIGN(DoctorReport report, engine->Doctor());
    ASSERT_TRUE(report.ok) << ::testing::PrintToString(report.problems);
  }
}

INSTANTIATE_TEST_SUITE_P(B13, SameKeyProcessesTest,
                         ::testing::Values(SameKeyCase{"ExplicitKey", false, true},
                                           SameKeyCase{"DerivedKey", false, false},
                                           SameKeyCase{"ExplicitKeyFreshFile", true, true}),
                         [](const ::testing::TestParamInfo<SameKeyCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace engram
