// The optional rerank stage of recall (issue 4), end to end through the library and the CLI,
// against a scripted local rerank server: reordering, the pool cap, both wire shapes, retries
// inside the budget, and every failure (timeout, HTTP error, malformed reply) falling back to the
// fused order with the packet saying why.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "codec/json_codec.h"
#include "scripted_http_server.h"
#include "test_util.h"

namespace engram {
namespace {

using nlohmann::json;
using test::CliResult;
using test::RecordedRequest;
using test::RunCli;
using test::ScriptedHttpServer;
using test::ScriptedReply;
using test::TempDir;

// The documents of a recorded rerank request (either wire shape).
std::vector<std::string> DocumentsOf(const RecordedRequest& r) {
  json body = json::parse(r.body);
  const json& docs = body.contains("documents") ? body["documents"] : body["texts"];
  return docs.get<std::vector<std::string>>();
}

// A reranker that scores document i as i: it reverses whatever order it is given.
ScriptedReply Reverse(const RecordedRequest& r) {
  json results = json::array();
  const size_t n = DocumentsOf(r).size();
  for (size_t i = 0; i < n; ++i)
    results.push_back({{"index", n - 1 - i}, {"relevance_score", double(n - 1 - i)}});
  return {200, json{{"results", results}}.dump(), 0, {}};
}

std::vector<std::string> Ids(const RecallResult& r) {
  std::vector<std::string> ids;
  for (const RecallItem& it : r.items) ids.push_back(it.id);
  return ids;
}

const ChannelScore* Channel(const RecallItem& item, const std::string& name) {
  for (const ChannelScore& c : item.channels) {
    if (c.channel == name) return &c;
  }
  return nullptr;
}

class RerankRecallTest : public ::testing::Test {
 protected:
  std::unique_ptr<Engine> Open(const std::string& base_url, int pool = 20, int budget_ms = 2000,
                               const std::string& format = "cohere") {
    Options options;
    options.db_path = dir_.File("m.db");
    options.rerank.base_url = base_url;
    options.rerank.model = "test-reranker";
    options.rerank.pool = pool;
    options.rerank.budget_ms = budget_ms;
    options.rerank.format = format;
    auto engine = Engine::Open(options);
    EXPECT_TRUE(engine.has_value()) << engine.error().ToString();
    return engine ? std::move(*engine) : nullptr;
  }

  // Six events that all mention coffee, so every one is a candidate.
  void Fill(Engine& engine, const std::vector<std::string>& contents = {}) {
    std::vector<std::string> texts = contents;
    if (texts.empty()) {
      texts = {"coffee coffee coffee every morning",
               "I drink coffee at work",
               "coffee beans from Kenya",
               "the coffee machine broke",
               "tea or coffee? coffee, always",
               "we talked about coffee prices"};
    }
    int minute = 0;
    for (const std::string& t : texts) {
      EventInput in;
      in.namespace_name = "u";
      in.session_id = "s1";
      in.role = "user";
      in.speaker = "Ann";
      in.content = t;
      in.occurred_at =
          "2026-05-04T10:" + std::string(minute < 10 ? "0" : "") + std::to_string(minute) + ":00Z";
      ++minute;
      auto r = engine.Ingest(in);
      ASSERT_TRUE(r.has_value()) << r.error().ToString();
    }
  }

  RecallResult Recall(Engine& engine, const std::string& text, int limit = 10,
                      std::optional<bool> rerank = std::nullopt) {
    RecallQuery q;
    q.text = text;
    q.namespace_name = "u";
    q.limit = limit;
    q.rerank = rerank;
    auto r = engine.Recall(q);
    EXPECT_TRUE(r.has_value()) << r.error().ToString();
    return r ? *r : RecallResult{};
  }

  TempDir dir_;
};

TEST_F(RerankRecallTest, GoodReplyReordersThePoolAndRecordsTheChannelAndStage) {
  ScriptedHttpServer server(Reverse);
  auto engine = Open(server.base_url());
  Fill(*engine);
  RecallResult fused = Recall(*engine, "coffee", 10, false);
  EXPECT_TRUE(server.requests().empty()) << "rerank = false must not call the reranker";
  EXPECT_TRUE(fused.rerank.status.empty());
  ASSERT_EQ(fused.items.size(), 6u);

  RecallResult reranked = Recall(*engine, "coffee");
  ASSERT_EQ(server.requests().size(), 1u);
  std::vector<std::string> expected = Ids(fused);
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(Ids(reranked), expected);
  EXPECT_EQ(reranked.rerank.status, "applied");
  EXPECT_EQ(reranked.rerank.model, "test-reranker");
  EXPECT_EQ(reranked.rerank.pool, 6);
  EXPECT_TRUE(reranked.rerank.reason.empty());
  EXPECT_TRUE(reranked.warnings.empty());
  for (size_t i = 0; i < reranked.items.size(); ++i) {
    const ChannelScore* c = Channel(reranked.items[i], "rerank");
    ASSERT_NE(c, nullptr) << i;
    EXPECT_EQ(c->rank, static_cast<int>(i + 1));
    EXPECT_DOUBLE_EQ(c->score, 5.0 - static_cast<double>(i));
    // The fused score is kept as it was.
    EXPECT_DOUBLE_EQ(reranked.items[i].score, fused.items[5 - i].score);
  }
  bool has_stage = false;
  for (const RecallStage& s : reranked.stages) has_stage |= s.name == "rerank" && s.count == 6;
  EXPECT_TRUE(has_stage);
  // The documents are what a reader sees: "speaker: content", in fused order.
  std::vector<std::string> docs = DocumentsOf(server.requests()[0]);
  ASSERT_EQ(docs.size(), 6u);
  EXPECT_EQ(docs[0], "Ann: " + fused.items[0].text);
  // The JSON packet carries the stage.
  json packet = json::parse(Dump(RecallResultToJson(reranked)));
  EXPECT_EQ(packet["version"], 1);
  EXPECT_EQ(packet["rerank"]["status"], "applied");
  EXPECT_EQ(packet["rerank"]["pool"], 6);
  EXPECT_FALSE(packet["rerank"].contains("reason"));
  EXPECT_EQ(packet["items"][0]["channels"].back()["channel"], "rerank");
}

TEST_F(RerankRecallTest, PoolCapIsRespectedAndTheRestKeepTheirOrder) {
  ScriptedHttpServer server(Reverse);
  auto engine = Open(server.base_url(), /*pool=*/2);
  Fill(*engine);
  RecallResult fused = Recall(*engine, "coffee", 10, false);
  RecallResult reranked = Recall(*engine, "coffee");
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(DocumentsOf(server.requests()[0]).size(), 2u);
  std::vector<std::string> expected = Ids(fused);
  std::swap(expected[0], expected[1]);
  EXPECT_EQ(Ids(reranked), expected);
  EXPECT_EQ(reranked.rerank.pool, 2);
  for (size_t i = 2; i < reranked.items.size(); ++i)
    EXPECT_EQ(Channel(reranked.items[i], "rerank"), nullptr);
}

// A pool deeper than the limit lets the reranker lift an item from below the cut.
TEST_F(RerankRecallTest, PoolDeeperThanTheLimitCanLiftAnItemAboveTheCut) {
  ScriptedHttpServer server(Reverse);
  auto engine = Open(server.base_url(), /*pool=*/6);
  Fill(*engine);
  RecallResult fused = Recall(*engine, "coffee", 6, false);
  RecallResult reranked = Recall(*engine, "coffee", /*limit=*/2);
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(DocumentsOf(server.requests()[0]).size(), 6u);
  ASSERT_EQ(reranked.items.size(), 2u);
  EXPECT_EQ(reranked.items[0].id, fused.items[5].id);
  EXPECT_EQ(reranked.items[1].id, fused.items[4].id);
  // Without the reranker, the limit cuts as before.
  RecallResult cut = Recall(*engine, "coffee", 2, false);
  EXPECT_EQ(Ids(cut), (std::vector<std::string>{fused.items[0].id, fused.items[1].id}));
}

TEST_F(RerankRecallTest, TeiShapeWorksToo) {
  ScriptedHttpServer server([](const RecordedRequest& r) {
    json out = json::array();
    const size_t n = DocumentsOf(r).size();
    for (size_t i = 0; i < n; ++i) out.push_back({{"index", i}, {"score", double(i) / 10}});
    return ScriptedReply{200, out.dump(), 0, {}};
  });
  auto engine = Open(server.base_url(), 20, 2000, "tei");
  Fill(*engine);
  RecallResult fused = Recall(*engine, "coffee", 10, false);
  RecallResult reranked = Recall(*engine, "coffee");
  std::vector<std::string> expected = Ids(fused);
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(Ids(reranked), expected);
  EXPECT_EQ(reranked.rerank.status, "applied");
  json body = json::parse(server.requests().at(0).body);
  EXPECT_TRUE(body.contains("texts"));
}

TEST_F(RerankRecallTest, ServerErrorThenSuccessIsRetriedWithinTheBudget) {
  int calls = 0;
  ScriptedHttpServer server([&calls](const RecordedRequest& r) {
    if (calls++ == 0) return ScriptedReply{503, R"({"error":{"message":"loading model"}})", 0, {}};
    return Reverse(r);
  });
  auto engine = Open(server.base_url(), 20, /*budget_ms=*/2000);
  Fill(*engine);
  RecallResult reranked = Recall(*engine, "coffee");
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(reranked.rerank.status, "applied");
}

TEST_F(RerankRecallTest, SlowServerBeyondTheBudgetKeepsTheFusedOrder) {
  ScriptedHttpServer server([](const RecordedRequest& r) {
    ScriptedReply reply = Reverse(r);
    reply.delay_ms = 2000;
    return reply;
  });
  auto engine = Open(server.base_url(), 20, /*budget_ms=*/200);
  Fill(*engine);
  RecallResult fused = Recall(*engine, "coffee", 10, false);
  RecallResult r = Recall(*engine, "coffee");
  EXPECT_EQ(Ids(r), Ids(fused));
  EXPECT_EQ(r.rerank.status, "skipped");
  EXPECT_EQ(r.rerank.reason.rfind("timeout after 200 ms", 0), 0u) << r.rerank.reason;
  // The stage did not wait for the server (2000 ms): the budget bounds it.
  EXPECT_LT(r.rerank.took_ms, 1500.0);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("rerank skipped: timeout after 200 ms"), std::string::npos);
  for (const RecallItem& item : r.items) EXPECT_EQ(Channel(item, "rerank"), nullptr);
  json packet = json::parse(Dump(RecallResultToJson(r)));
  EXPECT_EQ(packet["rerank"]["status"], "skipped");
  EXPECT_EQ(packet["rerank"]["reason"].get<std::string>().rfind("timeout after 200 ms", 0), 0u);
  EXPECT_EQ(packet["answerability"], "ok");
}

// httplib's read timeout is per read: a server that trickles a valid reply byte by byte never lets
// one read time out. The budget is a deadline all the same.
TEST_F(RerankRecallTest, TrickledReplyIsCutAtTheBudget) {
  ScriptedHttpServer server([](const RecordedRequest& r) {
    ScriptedReply reply = Reverse(r);
    if (reply.body.size() < 200) reply.body.append(200 - reply.body.size(), ' ');  // JSON allows it
    reply.trickle_ms = 50;  // ≥ 200 bytes: ≥ 10 s to send it all
    return reply;
  });
  auto engine = Open(server.base_url(), 20, /*budget_ms=*/300);
  Fill(*engine);
  RecallResult fused = Recall(*engine, "coffee", 10, false);
  const auto started = std::chrono::steady_clock::now();
  RecallResult r = Recall(*engine, "coffee");
  const double waited_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_LT(waited_ms, 300.0 + 1500.0) << "the trickle would take ≥ 10 s";
  EXPECT_EQ(r.rerank.status, "skipped");
  EXPECT_EQ(r.rerank.reason.rfind("timeout after 300 ms", 0), 0u) << r.rerank.reason;
  EXPECT_LT(r.rerank.took_ms, 300.0 + 1500.0);
  EXPECT_EQ(Ids(r), Ids(fused));
  for (const RecallItem& item : r.items) EXPECT_EQ(Channel(item, "rerank"), nullptr);
}

// answerability and evidence_strength describe the item the packet puts first: after reranking,
// that is the reranker's first, not the fused first.
TEST_F(RerankRecallTest, AnswerabilityDescribesTheRerankedFirstItem) {
  ScriptedHttpServer server(Reverse);
  auto engine = Open(server.base_url());
  // One event per session (no session window lends an event another's words): only the first
  // holds the rare words of the question; the others hold "coffee" alone, which every event has.
  const std::vector<std::string> texts = {"coffee beans from Kenya", "coffee at work",
                                          "coffee after lunch", "the coffee machine"};
  for (size_t i = 0; i < texts.size(); ++i) {
    EventInput in;
    in.namespace_name = "u";
    in.session_id = "s" + std::to_string(i);
    in.role = "user";
    in.speaker = "Ann";
    in.content = texts[i];
    in.occurred_at = "2026-05-0" + std::to_string(i + 1) + "T10:00:00Z";
    auto r = engine->Ingest(in);
    ASSERT_TRUE(r.has_value()) << r.error().ToString();
  }
  RecallResult fused = Recall(*engine, "Kenya coffee beans", 10, false);
  ASSERT_EQ(fused.items.size(), 4u);
  ASSERT_EQ(fused.items[0].text, "coffee beans from Kenya");
  EXPECT_EQ(fused.answerability, "ok");
  EXPECT_GE(fused.evidence_strength, 0.5);

  RecallResult reranked = Recall(*engine, "Kenya coffee beans");
  ASSERT_EQ(reranked.rerank.status, "applied");
  ASSERT_EQ(reranked.items.front().id, fused.items.back().id);
  EXPECT_NE(reranked.items.front().text.find("coffee"), std::string::npos);
  EXPECT_EQ(reranked.items.front().text.find("Kenya"), std::string::npos);
  EXPECT_EQ(reranked.answerability, "low_confidence")
      << "the first item holds only \"coffee\" (evidence_strength " << reranked.evidence_strength << ")";
  EXPECT_LT(reranked.evidence_strength, 0.5);
  json packet = json::parse(Dump(RecallResultToJson(reranked)));
  EXPECT_EQ(packet["answerability"], "low_confidence");

  // A limit that cuts the fused first item away leaves the packet's answer to the item kept.
  RecallResult cut = Recall(*engine, "Kenya coffee beans", /*limit=*/1);
  ASSERT_EQ(cut.items.size(), 1u);
  EXPECT_EQ(cut.items[0].id, fused.items.back().id);
  EXPECT_EQ(cut.answerability, "low_confidence");
}

// The reranker's network call runs outside the Engine's lock: a slow reranker delays its own
// recall, not the other calls on the same Engine.
TEST_F(RerankRecallTest, SlowRerankerDoesNotBlockOtherCallsOnTheEngine) {
  ScriptedHttpServer server([](const RecordedRequest& r) {
    ScriptedReply reply = Reverse(r);
    reply.delay_ms = 3000;
    return reply;
  });
  auto engine = Open(server.base_url(), 20, /*budget_ms=*/10000);
  Fill(*engine);
  std::atomic<bool> slow_done{false};
  RecallResult slow;
  std::thread slow_recall([&] {
    slow = Recall(*engine, "coffee");
    slow_done = true;
  });
  // Wait until the slow recall is inside the rerank call (the server has its request).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (server.requests().empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(server.requests().size(), 1u);

  EventInput in;
  in.namespace_name = "u";
  in.session_id = "s2";
  in.role = "user";
  in.speaker = "Bo";
  in.content = "espresso with coffee";
  in.occurred_at = "2026-05-05T10:00:00Z";
  auto ingested = engine->Ingest(in);
  const bool ingest_before_slow = !slow_done;
  RecallResult other = Recall(*engine, "espresso", 10, /*rerank=*/false);
  const bool recall_before_slow = !slow_done;
  slow_recall.join();

  ASSERT_TRUE(ingested.has_value()) << ingested.error().ToString();
  EXPECT_TRUE(ingest_before_slow) << "Ingest waited for the other recall's reranker";
  EXPECT_TRUE(recall_before_slow) << "Recall waited for the other recall's reranker";
  ASSERT_EQ(other.items.size(), 1u);
  EXPECT_EQ(other.items[0].id, ingested->event.id);
  EXPECT_EQ(slow.rerank.status, "applied");
  EXPECT_EQ(slow.items.size(), 6u);
}

TEST_F(RerankRecallTest, MalformedRepliesAreSkippedWithTheReasonNeverACrash) {
  struct Case {
    std::string body;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {R"({"results":[{"index":99,"relevance_score":1}]})", "has 1 entries for 6 documents"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1},{"index":3,"relevance_score":1},{"index":4,"relevance_score":1},{"index":6,"relevance_score":1}]})",
       "field \"results[5].index\": 6 is out of range"},
      {R"({"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1},{"index":3,"relevance_score":1},{"index":4,"relevance_score":1},{"index":4,"relevance_score":1}]})",
       "field \"results[5].index\": 4 appears twice"},
      {R"({"results":[{"index":0,"relevance_score":"NaN"},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1},{"index":3,"relevance_score":1},{"index":4,"relevance_score":1},{"index":5,"relevance_score":1}]})",
       "field \"results[0].relevance_score\" is not a number"},
      {R"({"object":"list"})", "field \"results\" is missing"},
      {"<html>502 Bad Gateway</html>", "not JSON"},
  };
  {
    auto engine = Open("");
    Fill(*engine);
  }
  for (const Case& c : cases) {
    ScriptedHttpServer server({{200, c.body}});
    auto engine = Open(server.base_url());
    ASSERT_NE(engine, nullptr);
    RecallResult fused = Recall(*engine, "coffee", 10, false);
    RecallResult r = Recall(*engine, "coffee");
    EXPECT_EQ(Ids(r), Ids(fused)) << c.body;
    EXPECT_EQ(r.rerank.status, "skipped") << c.body;
    EXPECT_NE(r.rerank.reason.find(c.reason), std::string::npos)
        << c.body << " → " << r.rerank.reason;
    EXPECT_EQ(server.requests().size(), 1u);
  }
}

TEST_F(RerankRecallTest, HttpErrorAfterRetriesIsSkipped) {
  ScriptedHttpServer server({{500, "down"}, {500, "down"}, {500, "down"}});
  auto engine = Open(server.base_url(), 20, 2000);
  Fill(*engine);
  RecallResult fused = Recall(*engine, "coffee", 10, false);
  RecallResult r = Recall(*engine, "coffee");
  EXPECT_EQ(Ids(r), Ids(fused));
  EXPECT_EQ(r.rerank.status, "skipped");
  EXPECT_NE(r.rerank.reason.find("HTTP 500"), std::string::npos) << r.rerank.reason;
}

TEST_F(RerankRecallTest, CjkQueryAndTextsReachTheRerankerIntact) {
  ScriptedHttpServer server(Reverse);
  auto engine = Open(server.base_url());
  Fill(*engine, {"我上周在杭州买了一台咖啡机", "咖啡机坏了，明天去修", "我不喝咖啡，只喝茶"});
  RecallResult fused = Recall(*engine, "咖啡机在哪里买的？", 10, false);
  ASSERT_GE(fused.items.size(), 2u);
  RecallResult r = Recall(*engine, "咖啡机在哪里买的？");
  EXPECT_EQ(r.rerank.status, "applied");
  json body = json::parse(server.requests().at(0).body);
  EXPECT_EQ(body["query"], "咖啡机在哪里买的？");
  std::vector<std::string> docs = DocumentsOf(server.requests()[0]);
  ASSERT_EQ(docs.size(), fused.items.size());
  for (size_t i = 0; i < docs.size(); ++i) EXPECT_EQ(docs[i], "Ann: " + fused.items[i].text);
  EXPECT_EQ(r.items.front().id, fused.items.back().id);
}

TEST_F(RerankRecallTest, NoRerankerConfiguredMakesNoCall) {
  ScriptedHttpServer server(Reverse);
  auto engine = Open("");
  Fill(*engine);
  RecallResult r = Recall(*engine, "coffee");
  EXPECT_TRUE(server.requests().empty());
  EXPECT_TRUE(r.rerank.status.empty());
  json packet = json::parse(Dump(RecallResultToJson(r)));
  EXPECT_FALSE(packet.contains("rerank"));
  // Asking for it without one is the caller's error.
  RecallQuery q;
  q.text = "coffee";
  q.namespace_name = "u";
  q.rerank = true;
  auto required = engine->Recall(q);
  ASSERT_FALSE(required.has_value());
  EXPECT_EQ(required.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(required.error().message().find("field \"rerank\""), std::string::npos);
}

TEST_F(RerankRecallTest, NothingFoundMakesNoCall) {
  ScriptedHttpServer server(Reverse);
  auto engine = Open(server.base_url());
  Fill(*engine);
  RecallResult r = Recall(*engine, "zebra");
  EXPECT_TRUE(r.items.empty());
  EXPECT_TRUE(server.requests().empty());
  EXPECT_EQ(r.rerank.status, "skipped");
  EXPECT_EQ(r.rerank.reason, "no items");
  EXPECT_EQ(r.answerability, "no_evidence");
}

TEST_F(RerankRecallTest, BadSettingsAreInvalidArgumentAtOpen) {
  struct Case {
    std::function<void(RerankOptions&)> change;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](RerankOptions& r) { r.pool = -1; }, "field \"rerank.pool\": -1 is out of range"},
      {[](RerankOptions& r) { r.budget_ms = 0; }, "field \"rerank.budget_ms\": 0 is out of range"},
      {[](RerankOptions& r) { r.base_url = "localhost:8000/v1"; }, "field \"rerank.base_url\""},
      {[](RerankOptions& r) { r.format = "jina"; }, "field \"rerank.format\""},
  };
  for (const Case& c : cases) {
    Options options;
    options.db_path = dir_.File("never.db");
    options.rerank.base_url = "http://127.0.0.1:9/v1";
    c.change(options.rerank);
    auto engine = Engine::Open(options);
    ASSERT_FALSE(engine.has_value()) << c.expected;
    EXPECT_EQ(engine.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(engine.error().message().find(c.expected), std::string::npos)
        << engine.error().ToString();
  }
  EXPECT_FALSE(std::filesystem::exists(dir_.File("never.db")))
      << "bad settings must not create the database";
}

// ---- the CLI ------------------------------------------------------------------------------------

class RerankCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.File("cli.db");
    std::string lines;
    const std::vector<std::string> texts = {"coffee coffee coffee every morning",
                                            "I drink coffee at work", "coffee beans from Kenya"};
    for (size_t i = 0; i < texts.size(); ++i) {
      lines += json{{"namespace", "u"},
                    {"session_id", "s1"},
                    {"role", "user"},
                    {"content", texts[i]},
                    {"occurred_at", "2026-05-04T10:0" + std::to_string(i) + ":00Z"}}
                   .dump() +
               "\n";
    }
    test::WriteFile(dir_.File("in.jsonl"), lines);
    CliResult r = RunCli({"--db", db_, "ingest", dir_.File("in.jsonl")}, "", Env(""));
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
  }

  // Every $ENGRAM_RERANK_* of whoever runs the tests removed; the base URL set when given.
  static test::EnvChanges Env(const std::string& base_url) {
    test::EnvChanges env;
    for (const char* v :
         {"ENGRAM_RERANK_BASE_URL", "ENGRAM_RERANK_MODEL", "ENGRAM_RERANK_API_KEY",
          "ENGRAM_RERANK_FORMAT", "ENGRAM_RERANK_POOL", "ENGRAM_RERANK_BUDGET_MS"}) {
      env.push_back({v, std::nullopt});
    }
    if (!base_url.empty()) env.push_back({"ENGRAM_RERANK_BASE_URL", base_url});
    return env;
  }

  std::vector<std::string> JsonIds(const CliResult& r) {
    std::vector<std::string> ids;
    json packet = json::parse(r.out);
    for (const json& item : packet["items"]) ids.push_back(item["id"]);
    return ids;
  }

  TempDir dir_;
  std::string db_;
};

TEST_F(RerankCliTest, RecallRerankedThroughTheEnvironmentAndFlags) {
  ScriptedHttpServer server(Reverse);
  CliResult fused = RunCli({"--db", db_, "--json", "recall", "coffee", "-n", "u", "--no-rerank"},
                           "", Env(server.base_url()));
  ASSERT_EQ(fused.exit_code, 0) << fused.Describe();
  EXPECT_TRUE(server.requests().empty());
  EXPECT_FALSE(json::parse(fused.out).contains("rerank"));

  CliResult r =
      RunCli({"--db", db_, "--json", "recall", "coffee", "-n", "u"}, "", Env(server.base_url()));
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_EQ(server.requests().size(), 1u);
  std::vector<std::string> expected = JsonIds(fused);
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(JsonIds(r), expected);
  EXPECT_EQ(json::parse(r.out)["rerank"]["status"], "applied");

  // A flag wins over the environment: the pool of 2 is what the server sees.
  r = RunCli(
      {"--db", db_, "--rerank-pool", "2", "--json", "recall", "coffee", "-n", "u", "--rerank"}, "",
      Env(server.base_url()));
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(DocumentsOf(server.requests()[1]).size(), 2u);

  // --explain names the stage.
  r = RunCli(
      {"--db", db_, "--rerank-url", server.base_url(), "recall", "coffee", "-n", "u", "--explain"},
      "", Env(""));
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("rerank applied: 3 items"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" rerank 3"), std::string::npos) << r.out;           // the stage
  EXPECT_NE(r.out.find("rerank   rank    1"), std::string::npos) << r.out;  // an item's channel
}

TEST_F(RerankCliTest, SlowRerankerStillAnswersAndSaysSo) {
  ScriptedHttpServer server([](const RecordedRequest& r) {
    ScriptedReply reply = Reverse(r);
    reply.delay_ms = 1500;
    return reply;
  });
  CliResult fused = RunCli({"--db", db_, "--json", "recall", "coffee", "-n", "u"}, "", Env(""));
  ASSERT_EQ(fused.exit_code, 0) << fused.Describe();
  CliResult r =
      RunCli({"--db", db_, "--rerank-budget-ms", "100", "--json", "recall", "coffee", "-n", "u"},
             "", Env(server.base_url()));
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(JsonIds(r), JsonIds(fused));
  json packet = json::parse(r.out);
  EXPECT_EQ(packet["rerank"]["status"], "skipped");
  EXPECT_EQ(packet["rerank"]["reason"].get<std::string>().rfind("timeout after 100 ms", 0), 0u)
      << r.out;
  EXPECT_NE(r.err.find("warning: rerank skipped: timeout after 100 ms"), std::string::npos)
      << r.err;
}

TEST_F(RerankCliTest, BadSettingsAreInvalidArgument) {
  const int invalid = ExitCodeFor(StatusCode::kInvalidArgument);
  struct Case {
    std::vector<std::string> args;
    test::EnvChanges env;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"--rerank-url", "http://127.0.0.1:9/v1", "--rerank-pool=-1"},
       Env(""),
       "field \"rerank.pool\""},
      {{"--rerank-url", "http://127.0.0.1:9/v1", "--rerank-budget-ms", "0"},
       Env(""),
       "field \"rerank.budget_ms\""},
      {{"--rerank-url", "127.0.0.1:9"}, Env(""), "field \"rerank.base_url\""},
      {{"--rerank-url", "http://127.0.0.1:9/v1", "--rerank-format", "x"},
       Env(""),
       "field \"rerank.format\""},
      {{},
       [] {
         test::EnvChanges env = Env("http://127.0.0.1:9/v1");
         env.push_back({"ENGRAM_RERANK_POOL", "lots"});
         return env;
       }(),
       "$ENGRAM_RERANK_POOL: \"lots\" is not an integer"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"--db", db_};
    args.insert(args.end(), c.args.begin(), c.args.end());
    for (const char* a : {"--json", "recall", "coffee", "-n", "u"}) args.push_back(a);
    CliResult r = RunCli(args, "", c.env);
    EXPECT_EQ(r.exit_code, invalid) << r.Describe();
    EXPECT_NE(r.out.find("invalid_argument"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.Describe();
  }
  // --rerank with no reranker configured.
  CliResult r = RunCli({"--db", db_, "recall", "coffee", "-n", "u", "--rerank"}, "", Env(""));
  EXPECT_EQ(r.exit_code, invalid) << r.Describe();
  EXPECT_NE(r.err.find("no reranker is configured"), std::string::npos) << r.Describe();
  // --rerank and --no-rerank exclude each other.
  r = RunCli({"--db", db_, "recall", "coffee", "-n", "u", "--rerank", "--no-rerank"}, "", Env(""));
  EXPECT_EQ(r.exit_code, invalid) << r.Describe();
}

}  // namespace
}  // namespace engram
