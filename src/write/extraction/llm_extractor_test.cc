#include "write/extraction/llm_extractor.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "util/time.h"

namespace engram::extraction {
namespace {

using nlohmann::json;

struct ScriptedReply {
  int status = 200;
  std::string body;
};

// A local OpenAI-compatible server on 127.0.0.1 (port chosen by the OS) that answers every POST
// with the next scripted reply and records the request bodies. No network.
class ScriptedServer {
 public:
  explicit ScriptedServer(std::vector<ScriptedReply> replies) : replies_(std::move(replies)) {
    server_.Post(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      ScriptedReply reply{500, R"({"error":{"message":"script exhausted"}})"};
      {
        std::lock_guard<std::mutex> lock(mu_);
        bodies_.push_back(req.body);
        if (next_ < replies_.size()) reply = replies_[next_++];
      }
      res.status = reply.status;
      res.set_content(reply.body, "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~ScriptedServer() {
    server_.stop();
    thread_.join();
  }

  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  // The JSON bodies of the requests received so far.
  std::vector<json> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<json> out;
    for (const std::string& body : bodies_) out.push_back(json::parse(body));
    return out;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mu_;
  std::vector<ScriptedReply> replies_;
  size_t next_ = 0;
  std::vector<std::string> bodies_;
};

// A chat completion whose message content is `content` (the model's raw answer).
ScriptedReply Answer(const std::string& content, const std::string& finish = "stop") {
  json body = {{"model", "test-model"},
               {"choices",
                {{{"index", 0},
                  {"message", {{"role", "assistant"}, {"content", content}}},
                  {"finish_reason", finish}}}},
               {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 20}}}};
  return {200, body.dump()};
}

providers::ChatClientOptions ClientOptions(const ScriptedServer& server) {
  providers::ChatClientOptions options;
  options.base_url = server.base_url();
  options.model = "test-model";
  options.timeout_ms = 2000;
  options.max_retries = 1;
  options.retry_backoff_ms = 1;
  options.sleep_for_ms = [](int) {};
  return options;
}

Event MakeEvent(std::string role, std::string speaker, std::string content,
                const char* time = "2023-05-08T13:56:00Z") {
  Event e;
  e.role = std::move(role);
  e.speaker = std::move(speaker);
  e.content = std::move(content);
  auto local = ParseLocalTimestamp(time);
  e.occurred_at = local->utc_ms;
  e.utc_offset_minutes = local->utc_offset_minutes;
  return e;
}

json Claim(const std::string& subject, const std::string& predicate, const std::string& value,
           int source_event, const std::string& evidence) {
  return {{"subject", subject},
          {"predicate", predicate},
          {"slot", ""},
          {"value", value},
          {"text", subject + " " + predicate + " " + value},
          {"qualifiers", json::array()},
          {"valid_from", nullptr},
          {"valid_to", nullptr},
          {"time_phrase", ""},
          {"scope", "identity"},
          {"confidence", 0.9},
          {"importance", 0.7},
          {"source_event", source_event},
          {"evidence_span", evidence}};
}

std::string Doc(std::vector<json> claims) { return json({{"claims", claims}}).dump(); }

const std::vector<Event> kEnglishBatch = {
    MakeEvent("user", "Lin", "I moved to Hangzhou last year and I work at Acme."),
    MakeEvent("assistant", "", "Nice! Hangzhou is lovely. You should try the West Lake tea."),
};

TEST(LlmExtractorTest, HappyPathSendsSchemaAndKeepsChineseBytes) {
  std::vector<Event> batch = {
      MakeEvent("user", "林", "我住在杭州，最喜欢的颜色是蓝色。", "2023-05-08T13:56:00Z"),
      MakeEvent("assistant", "", "杭州很美！", "2023-05-08T13:56:30Z"),
  };
  json favorite = Claim("林", "favorite", "蓝色", 0, "最喜欢的颜色是蓝色");
  favorite["slot"] = "颜色";
  favorite["scope"] = "preference";
  // The second claim arrives with \u escapes: the decoded bytes must be the same UTF-8.
  std::string answer = "{\"claims\":[" + Claim("林", "lives_in", "杭州", 0, "我住在杭州").dump() +
                       "," + favorite.dump(-1, ' ', true) + "]}";
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(providers::ChatClient(ClientOptions(server)));
  EXPECT_EQ(extractor.Name(), "llm/test-model");

  auto claims = extractor.Extract(batch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 2u);
  const CandidateClaim& lives = (*claims)[0];
  EXPECT_EQ(lives.subject, "林");
  EXPECT_EQ(lives.predicate, "lives_in");
  EXPECT_EQ(lives.value, "杭州");
  EXPECT_EQ(lives.value, std::string("\xE6\x9D\xAD\xE5\xB7\x9E"));
  EXPECT_EQ(lives.evidence_span, "我住在杭州");
  EXPECT_EQ(lives.source_events, std::vector<size_t>({0}));
  EXPECT_EQ(lives.scope, "identity");
  EXPECT_FALSE(lives.valid_from.has_value());
  EXPECT_DOUBLE_EQ(lives.confidence, 0.9);
  const CandidateClaim& fav = (*claims)[1];
  EXPECT_EQ(fav.predicate, "favorite");
  EXPECT_EQ(fav.slot, "颜色");
  EXPECT_EQ(fav.value, "蓝色");
  EXPECT_EQ(fav.scope, "preference");

  const LlmExtractionStats& stats = extractor.last_stats();
  EXPECT_EQ(stats.claims_returned, 2);
  EXPECT_EQ(stats.claims_kept, 2);
  EXPECT_EQ(stats.claims_dropped, 0);
  EXPECT_FALSE(stats.repaired);
  EXPECT_EQ(stats.model_calls, 1);
  EXPECT_EQ(stats.prompt_tokens, 100);
  EXPECT_EQ(stats.completion_tokens, 20);

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  const json& body = requests[0];
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["response_format"]["type"], "json_schema");
  const json& schema = body["response_format"]["json_schema"]["schema"];
  EXPECT_EQ(schema["required"], json::array({"claims"}));
  const json& item = schema["properties"]["claims"]["items"];
  for (const char* field :
       {"subject", "predicate", "slot", "value", "text", "qualifiers", "valid_from", "time_phrase",
        "scope", "confidence", "importance", "source_event", "evidence_span"}) {
    EXPECT_TRUE(item["properties"].contains(field)) << field;
  }
  EXPECT_EQ(item["properties"]["source_event"]["type"], "integer");
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  std::string system = body["messages"][0]["content"];
  EXPECT_NE(system.find("逐字"), std::string::npos);  // Chinese instructions for a Chinese batch
  EXPECT_NE(system.find("最多 12 条"), std::string::npos);
  std::string user = body["messages"][1]["content"];
  EXPECT_NE(user.find("[0] role: user | speaker: 林 | time: 2023-05-08T13:56:00Z (星期一)"),
            std::string::npos)
      << user;
  EXPECT_NE(user.find("[1] role: assistant | time: 2023-05-08T13:56:30Z"), std::string::npos);
  EXPECT_NE(user.find("我住在杭州，最喜欢的颜色是蓝色。"), std::string::npos);
}

TEST(LlmExtractorTest, EnglishPromptStatesTheRules) {
  ScriptedServer server({Answer(R"({"claims":[]})")});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  EXPECT_TRUE(claims->empty());
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  std::string system = requests[0]["messages"][0]["content"];
  for (const char* phrase :
       {"subject: who the statement is about", "byte for byte",
        "Never attribute the assistant's statements to the user",
        "against the time of the event that contains them", "At most 12 claims", "copied verbatim",
        "has_relation", "\"negated\""}) {
    EXPECT_NE(system.find(phrase), std::string::npos) << phrase;
  }
  std::string user = requests[0]["messages"][1]["content"];
  EXPECT_NE(user.find("[0] role: user | speaker: Lin | time: 2023-05-08T13:56:00Z (Monday)"),
            std::string::npos)
      << user;
}

TEST(LlmExtractorTest, NoSchemaWhenDisabled) {
  ScriptedServer server({Answer(R"({"claims":[]})")});
  LlmExtractorOptions options;
  options.send_json_schema = false;
  LlmExtractor extractor(ClientOptions(server), options);
  ASSERT_TRUE(extractor.Extract(kEnglishBatch).has_value());
  EXPECT_FALSE(server.requests()[0].contains("response_format"));
}

// B42 (a): JSON wrapped in prose that itself contains braces.
TEST(LlmExtractorTest, B42ParsesJsonInsideProseWithBraces) {
  std::string answer = "Based on the talk {about travel}, here: " +
                       Doc({Claim("Lin", "lives_in", "Hangzhou", 0, "moved to Hangzhou")}) +
                       " Hope this helps {:)}";
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 1u);
  EXPECT_EQ((*claims)[0].value, "Hangzhou");
  EXPECT_FALSE(extractor.last_stats().repaired);
}

TEST(LlmExtractorTest, ParsesCodeFencesAndTrailingCommas) {
  std::string answer = "Here you go:\n```json\n{\"claims\": [" +
                       Claim("Lin", "employer", "Acme", 0, "I work at Acme").dump() + ",]}\n```\n";
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 1u);
  EXPECT_EQ((*claims)[0].predicate, "employer");
  EXPECT_EQ((*claims)[0].evidence_span, "I work at Acme");
}

TEST(LlmExtractorTest, AcceptsBareArray) {
  std::string answer =
      json::array({Claim("Lin", "lives_in", "Hangzhou", 0, "moved to Hangzhou")}).dump();
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  EXPECT_EQ(claims->size(), 1u);
}

TEST(LlmExtractorTest, InvalidJsonThenValidAfterRepair) {
  // Cut off after one complete claim: the complete claim alone must not be taken as the answer.
  std::string truncated = "{\"claims\":[" +
                          Claim("Lin", "employer", "Acme", 0, "I work at Acme").dump() +
                          R"(,{"subject":"Lin","predicate":"lives_in")";
  ScriptedServer server(
      {Answer(truncated, "length"),
       Answer(Doc({Claim("Lin", "lives_in", "Hangzhou", 0, "moved to Hangzhou")}))});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 1u);
  EXPECT_EQ((*claims)[0].value, "Hangzhou");
  EXPECT_TRUE(extractor.last_stats().repaired);
  EXPECT_FALSE(extractor.last_stats().parse_failed);
  EXPECT_EQ(extractor.last_stats().model_calls, 2);
  EXPECT_EQ(extractor.last_stats().prompt_tokens, 200);

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  const json& messages = requests[1]["messages"];
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[2]["role"], "assistant");
  EXPECT_EQ(messages[2]["content"], truncated);
  EXPECT_EQ(messages[3]["role"], "user");
  std::string repair = messages[3]["content"];
  EXPECT_NE(repair.find("could not be parsed as JSON"), std::string::npos) << repair;
  EXPECT_TRUE(requests[1].contains("response_format"));
}

// B42 (b): output that never parses is a reported failure, not zero claims.
TEST(LlmExtractorTest, B42InvalidTwiceIsInvalidArgument) {
  ScriptedServer server(
      {Answer("Sorry, I cannot help with that."), Answer("{\"facts\":[\"likes tea\"")});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_FALSE(claims.has_value());
  EXPECT_EQ(claims.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(claims.error().message().find("likes tea"), std::string::npos)
      << claims.error().message();
  EXPECT_TRUE(extractor.last_stats().repaired);
  EXPECT_TRUE(extractor.last_stats().parse_failed);
  EXPECT_EQ(server.requests().size(), 2u);
}

// B51: a claim pointing at an event the batch does not have is skipped with a warning.
TEST(LlmExtractorTest, B51OutOfRangeSourceEventIsDropped) {
  json negative = Claim("Lin", "employer", "Acme", -1, "I work at Acme");
  json listed = Claim("Lin", "employer", "Acme", 0, "I work at Acme");
  listed.erase("source_event");
  listed["source_events"] = {0, 7};
  json missing = Claim("Lin", "employer", "Acme", 0, "I work at Acme");
  missing.erase("source_event");
  std::string answer =
      Doc({Claim("Lin", "lives_in", "Hangzhou", 12, "moved to Hangzhou"),
           Claim("Lin", "employer", "Acme", 0, "I work at Acme"), negative, listed, missing});
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 1u);
  EXPECT_EQ((*claims)[0].value, "Acme");
  EXPECT_EQ((*claims)[0].source_events, std::vector<size_t>({0}));
  const LlmExtractionStats& stats = extractor.last_stats();
  EXPECT_EQ(stats.claims_returned, 5);
  EXPECT_EQ(stats.claims_kept, 1);
  EXPECT_EQ(stats.claims_dropped, 4);
  EXPECT_EQ(stats.dropped_by_reason.at(kDropUnknownSourceEvent), 4);
  ASSERT_FALSE(stats.warnings.empty());
  EXPECT_NE(stats.warnings[0].find("source_event 12"), std::string::npos) << stats.warnings[0];
}

TEST(LlmExtractorTest, EvidenceNotInSourceEventIsDropped) {
  json quoted = Claim("Lin", "employer", "Acme", 0, "“I work at Acme”");
  std::string answer =
      Doc({Claim("Lin", "lives_in", "Shanghai", 0, "I moved to Shanghai"),  // not in the event
           Claim("Lin", "employer", "Acme", 1, "I work at Acme"),  // in event 0, cited as 1
           quoted});
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 1u);
  EXPECT_EQ((*claims)[0].evidence_span, "I work at Acme");  // wrapping quotes removed
  EXPECT_EQ(extractor.last_stats().dropped_by_reason.at(kDropEvidenceNotFound), 2);
}

TEST(LlmExtractorTest, EmptySubjectOrValueIsDropped) {
  std::string answer = Doc({Claim("", "lives_in", "Hangzhou", 0, "moved to Hangzhou"),
                            Claim("Lin", "lives_in", "  ", 0, "moved to Hangzhou"),
                            Claim("Lin", "", "Hangzhou", 0, "moved to Hangzhou")});
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value());
  EXPECT_TRUE(claims->empty());
  const auto& reasons = extractor.last_stats().dropped_by_reason;
  EXPECT_EQ(reasons.at(kDropEmptySubject), 1);
  EXPECT_EQ(reasons.at(kDropEmptyValue), 1);
  EXPECT_EQ(reasons.at(kDropEmptyPredicate), 1);
}

// B48: the assistant's suggestion must not become a fact about the user.
TEST(LlmExtractorTest, B48AssistantStatementAboutUserIsDropped) {
  std::string answer = Doc({Claim("Lin", "likes", "West Lake tea", 1, "try the West Lake tea"),
                            Claim("user", "likes", "West Lake tea", 1, "try the West Lake tea")});
  ScriptedServer server({Answer(answer)});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value());
  EXPECT_TRUE(claims->empty());
  EXPECT_EQ(extractor.last_stats().dropped_by_reason.at(kDropAssistantAsUser), 2);
}

TEST(LlmExtractorTest, NormalisesScopeQualifiersPredicateAndTimes) {
  std::vector<Event> batch = {MakeEvent("user", "Lin",
                                        "I don't like cilantro. Yesterday I joined a chess club.",
                                        "2023-05-08T13:56:00Z")};
  json dislike = Claim("Lin", "Dislikes", "cilantro", 0, "I don't like cilantro");
  dislike["scope"] = "taste";  // unknown → the predicate's canonical scope
  dislike["qualifiers"] = {"sometimes", "temporary"};
  dislike["confidence"] = 7;  // clamped to 1
  json joined = Claim("Lin", "joined", "a chess club", 0, "I joined a chess club");
  joined["scope"] = "";
  joined["predicate"] = "member_of";  // non-canonical → "state"
  joined["valid_from"] = "2023-05-07";
  joined["time_phrase"] = "Yesterday";
  joined["text"] = "";
  json bad_time = Claim("Lin", "joined", "chess club", 0, "chess club");
  bad_time["valid_from"] = "yesterday";
  ScriptedServer server({Answer(Doc({dislike, joined, bad_time}))});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(batch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 3u);

  const CandidateClaim& c0 = (*claims)[0];
  EXPECT_EQ(c0.predicate, "likes");
  EXPECT_EQ(c0.qualifiers, std::vector<std::string>({"negated", "temporary"}));
  EXPECT_EQ(c0.scope, "preference");
  EXPECT_DOUBLE_EQ(c0.confidence, 1.0);

  const CandidateClaim& c1 = (*claims)[1];
  EXPECT_EQ(c1.predicate, "member_of");
  EXPECT_EQ(c1.scope, "state");
  ASSERT_TRUE(c1.valid_from.has_value());
  EXPECT_EQ(*c1.valid_from, *ParseTimestamp("2023-05-07"));
  EXPECT_EQ(c1.time_phrase, "Yesterday");
  EXPECT_EQ(c1.text, "Lin: a chess club");

  EXPECT_FALSE((*claims)[2].valid_from.has_value());
  EXPECT_EQ(extractor.last_stats().claims_dropped, 0);
}

// The model sees each event's local time with its offset, and a date it answers is that speaker's
// calendar day: "yesterday" said at 01:00 on 8 May in Shanghai is 7 May there, which begins at
// 16:00Z on 6 May (the rule extractor's reading too).
TEST(LlmExtractorTest, TimesAreTheSpeakersLocalCalendar) {
  std::vector<Event> batch = {MakeEvent("user", "Lin", "Yesterday I joined a chess club.",
                                        "2023-05-08T01:00:00+08:00")};
  json joined = Claim("Lin", "joined", "a chess club", 0, "I joined a chess club");
  joined["valid_from"] = "2023-05-07";
  json written = Claim("Lin", "joined", "chess club", 0, "chess club");
  written["valid_from"] = "2023-05-07T00:00:00Z";  // an offset written wins
  ScriptedServer server({Answer(Doc({joined, written}))});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(batch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 2u);
  ASSERT_TRUE((*claims)[0].valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*(*claims)[0].valid_from), "2023-05-06T16:00:00.000Z");
  ASSERT_TRUE((*claims)[1].valid_from.has_value());
  EXPECT_EQ(FormatTimestamp(*(*claims)[1].valid_from), "2023-05-07T00:00:00.000Z");

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  const std::string user = requests[0]["messages"][1]["content"].get<std::string>();
  EXPECT_NE(user.find("time: 2023-05-08T01:00:00+08:00 (Monday)"), std::string::npos) << user;
  EXPECT_NE(user.find("local time with its UTC offset"), std::string::npos) << user;
}

TEST(LlmExtractorTest, KeepsAtMostHardLimitByConfidenceTimesImportance) {
  std::vector<json> many;
  for (int i = 0; i < 5; ++i) {
    json c = Claim("Lin", "lives_in", "Hangzhou", 0, "moved to Hangzhou");
    c["confidence"] = 0.1 * (i + 1);
    many.push_back(c);
  }
  ScriptedServer server({Answer(Doc(many))});
  LlmExtractorOptions options;
  options.hard_max_claims = 3;
  LlmExtractor extractor(ClientOptions(server), options);
  auto claims = extractor.Extract(kEnglishBatch);
  ASSERT_TRUE(claims.has_value());
  ASSERT_EQ(claims->size(), 3u);
  EXPECT_DOUBLE_EQ((*claims)[0].confidence, 0.3);  // original order kept
  EXPECT_DOUBLE_EQ((*claims)[2].confidence, 0.5);
  EXPECT_EQ(extractor.last_stats().dropped_by_reason.at(kDropOverLimit), 2);
}

TEST(LlmExtractorTest, ProviderErrorsPassThrough) {
  {
    ScriptedServer server({{503, "{}"}, {503, "{}"}});
    LlmExtractor extractor(ClientOptions(server));
    auto claims = extractor.Extract(kEnglishBatch);
    ASSERT_FALSE(claims.has_value());
    EXPECT_EQ(claims.error().code(), StatusCode::kIOError);
  }
  {
    ScriptedServer server({{429, "{}"}, {429, "{}"}});
    LlmExtractor extractor(ClientOptions(server));
    auto claims = extractor.Extract(kEnglishBatch);
    ASSERT_FALSE(claims.has_value());
    EXPECT_EQ(claims.error().code(), StatusCode::kBusy);
  }
  {
    ScriptedServer server({{401, R"({"error":{"message":"bad key"}})"}});
    LlmExtractor extractor(ClientOptions(server));
    auto claims = extractor.Extract(kEnglishBatch);
    ASSERT_FALSE(claims.has_value());
    EXPECT_EQ(claims.error().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(server.requests().size(), 1u);
  }
}

TEST(LlmExtractorTest, EmptyBatchMakesNoCall) {
  ScriptedServer server({});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract({});
  ASSERT_TRUE(claims.has_value());
  EXPECT_TRUE(claims->empty());
  EXPECT_TRUE(server.requests().empty());
}

// Issue 16: the LLM answers in the same fact frame as the rule extractor (kind, replaces,
// coordinates), and its claims get the same qualifiers, so one identity and conflict code serves
// both.
TEST(LlmExtractorTest, FactFrameFieldsBecomeTheSameQualifiers) {
  std::vector<Event> batch = {MakeEvent("user", "", "计划下周把 counter-05 的 blue 部署升级到 v2.0")};
  json plan = Claim("counter-05", "版本", "v2.0", 0, "计划下周把 counter-05 的 blue 部署升级到 v2.0");
  plan["kind"] = "plan";
  plan["replaces"] = "";
  plan["coordinates"] = json::array({"deployment=Blue"});
  ScriptedServer server({Answer(Doc({plan}))});
  LlmExtractor extractor(ClientOptions(server));
  auto claims = extractor.Extract(batch);
  ASSERT_TRUE(claims.has_value()) << claims.error().ToString();
  ASSERT_EQ(claims->size(), 1u);
  const CandidateClaim& c = claims->front();
  EXPECT_EQ(c.predicate, "version");  // the lexicon's synonym
  EXPECT_EQ(c.qualifiers, (std::vector<std::string>{"deployment=blue", kQualPlanned}));
  EXPECT_FALSE(c.change);
  auto requests = server.requests();
  const json& item = requests[0]["response_format"]["json_schema"]["schema"]["properties"]["claims"]["items"];
  EXPECT_TRUE(item["properties"].contains("kind"));
  EXPECT_TRUE(item["properties"].contains("coordinates"));
}

}  // namespace
}  // namespace engram::extraction
