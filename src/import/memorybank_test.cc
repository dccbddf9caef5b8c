#include "import/memorybank.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "engram/engine.h"

namespace engram::import {
namespace {

using ::testing::HasSubstr;

// A tiny MemoryBank-shaped file written for this test: a key with stray spaces, dates out of
// order, an empty day, a blank response and the ignored per-user keys.
constexpr const char* kFixture = R"json({
  " Mira ": {
    "name": "Mira",
    "summary": {},
    "meta_information": {"hobbies": "chess"},
    "history": {
      "2023-05-02": [
        {"query": "我今天去了植物园。", "response": "植物园里有什么花？"}
      ],
      "2023-04-30": [
        {"query": "Hi, I am Mira.", "response": "Hello Mira!"},
        {"query": "I play chess on Sundays.", "response": "  "}
      ],
      "2023-05-01": []
    }
  },
  "Tom": {"history": {"2023-04-30": [{"query": "Hey", "response": "Hi Tom"}]}}
})json";

TEST(ParseMemoryBankTest, ReadsUsersInFileOrderAndDaysInDateOrder) {
  Result<std::vector<MemoryBankUser>> users = ParseMemoryBank(kFixture);
  ASSERT_TRUE(users.has_value()) << users.error().ToString();
  ASSERT_EQ(users->size(), 2u);
  const MemoryBankUser& mira = (*users)[0];
  EXPECT_EQ(mira.name, "Mira");  // key stripped
  ASSERT_EQ(mira.days.size(), 3u);
  EXPECT_EQ(mira.days[0].date, "2023-04-30");
  EXPECT_EQ(mira.days[1].date, "2023-05-01");
  EXPECT_EQ(mira.days[2].date, "2023-05-02");
  EXPECT_TRUE(mira.days[1].exchanges.empty());
  ASSERT_EQ(mira.days[0].exchanges.size(), 2u);
  EXPECT_EQ(mira.days[0].exchanges[1].query, "I play chess on Sundays.");
  EXPECT_EQ(mira.days[2].exchanges[0].response, "植物园里有什么花？");
  EXPECT_EQ((*users)[1].name, "Tom");
}

TEST(MemoryBankToEventInputsTest, OneEventPerSideWithExchangeIdsAndOrderedTimes) {
  std::vector<MemoryBankUser> users = ParseMemoryBank(kFixture).value();
  std::vector<EventInput> events = ToEventInputs(users[0]);
  // 2023-04-30: query, response, query (blank response skipped); 2023-05-02: query, response.
  ASSERT_EQ(events.size(), 5u);
  const EventInput& first = events[0];
  EXPECT_EQ(first.namespace_name, "Mira");
  EXPECT_EQ(first.session_id, "2023-04-30");
  EXPECT_EQ(first.role, "user");
  EXPECT_EQ(first.speaker, "Mira");
  EXPECT_EQ(first.occurred_at, "2023-04-30T00:00:00.000Z");
  EXPECT_EQ(first.idempotency_key, "memorybank:Mira:2023-04-30#0:query");
  EXPECT_EQ(first.session_source, "memorybank");
  EXPECT_EQ(events[1].role, "assistant");
  EXPECT_EQ(events[1].speaker, "AI");
  EXPECT_EQ(events[1].content, "Hello Mira!");
  EXPECT_EQ(events[1].occurred_at, "2023-04-30T00:00:01.000Z");
  EXPECT_EQ(events[2].occurred_at, "2023-04-30T00:00:02.000Z");
  EXPECT_EQ(MemoryBankExchangeOfMetadata(events[2].metadata_json), "2023-04-30#1");
  EXPECT_EQ(events[3].session_id, "2023-05-02");
  EXPECT_EQ(MemoryBankExchangeOfMetadata(events[4].metadata_json), "2023-05-02#0");
  nlohmann::json meta = nlohmann::json::parse(events[4].metadata_json);
  EXPECT_EQ(meta["date"], "2023-05-02");
  EXPECT_EQ(meta["index"], 0);
  EXPECT_EQ(meta["part"], "response");
  for (const EventInput& e : events) {
    Status st = Engine::ValidateEvent(e);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
}

TEST(MemoryBankExchangeOfMetadataTest, EmptyForOtherShapes) {
  EXPECT_EQ(MemoryBankExchangeOfMetadata(""), "");
  EXPECT_EQ(MemoryBankExchangeOfMetadata("not json"), "");
  EXPECT_EQ(MemoryBankExchangeOfMetadata("[1]"), "");
  EXPECT_EQ(MemoryBankExchangeOfMetadata(R"({"exchange": 3})"), "");
  EXPECT_EQ(MemoryBankExchangeId("2023-04-27", 3), "2023-04-27#3");
}

Status ParseError(const std::string& text) {
  Result<std::vector<MemoryBankUser>> r = ParseMemoryBank(text);
  return r ? Status::Ok() : r.error();
}

TEST(ParseMemoryBankTest, BadInputNamesTheUserAndField) {
  Status st = ParseError("[1]");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("object keyed by user name"));

  st = ParseError("{");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("not valid JSON"));

  st = ParseError(R"({"Ann": {"name": "Ann"}})");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr(R"(user "Ann": field "history": missing)"));

  st = ParseError(R"({"Ann": {"history": {"27 April": []}}})");
  EXPECT_THAT(st.message(), HasSubstr(R"(field "history.27 April")"));

  st = ParseError(R"({"Ann": {"history": {"2023-02-30": []}}})");
  EXPECT_THAT(st.message(), HasSubstr("not a date"));

  st = ParseError(R"({"Ann": {"history": {"2023-04-27": {"query": "x"}}}})");
  EXPECT_THAT(st.message(), HasSubstr("expected a list of exchanges, got object"));

  st = ParseError(R"({"Ann": {"history": {"2023-04-27": [{"query": "a", "response": "b"},
                                                        {"query": 7, "response": "c"}]}}})");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(),
              HasSubstr(R"(user "Ann": field "history.2023-04-27[1].query": expected a string)"));

  st = ParseError(R"({"Ann": {"history": {"2023-04-27": [{"query": "a"}]}}})");
  EXPECT_THAT(st.message(), HasSubstr(R"(field "history.2023-04-27[0].response": missing)"));

  st = ParseError(R"({"Ann": {"history": {}}, " Ann ": {"history": {}}})");
  EXPECT_THAT(st.message(), HasSubstr("appears twice"));

  st = ParseError(R"({"  ": {"history": {}}})");
  EXPECT_THAT(st.message(), HasSubstr("blank"));
}

TEST(LoadMemoryBankFileTest, MissingFileIsAnIOError) {
  Result<std::vector<MemoryBankUser>> r = LoadMemoryBankFile("/nonexistent/memory_bank_cn.json");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), StatusCode::kIOError);
}

constexpr const char* kGold =
    R"({"user": "Mira", "question": "What do I play?", "gold": [{"date": "2023-04-30", "index": 1}, {"date": "2023-04-30", "index": 1}], "answerable": true, "note": "chess"}

{"user": " Tom ", "question": "What is my cat called?", "gold": [], "answerable": false}
)";

TEST(ParseMemoryBankGoldTest, ReadsLinesSkipsBlanksAndDropsRepeatedRefs) {
  Result<std::vector<MemoryBankQuestion>> gold = ParseMemoryBankGold(kGold);
  ASSERT_TRUE(gold.has_value()) << gold.error().ToString();
  ASSERT_EQ(gold->size(), 2u);
  EXPECT_EQ((*gold)[0].user, "Mira");
  EXPECT_EQ((*gold)[0].question, "What do I play?");
  ASSERT_EQ((*gold)[0].gold.size(), 1u);
  EXPECT_EQ((*gold)[0].gold[0].date, "2023-04-30");
  EXPECT_EQ((*gold)[0].gold[0].index, 1);
  EXPECT_TRUE((*gold)[0].answerable);
  EXPECT_EQ((*gold)[0].note, "chess");
  EXPECT_EQ((*gold)[1].user, "Tom");
  EXPECT_FALSE((*gold)[1].answerable);
  EXPECT_TRUE((*gold)[1].gold.empty());
}

TEST(ParseMemoryBankGoldTest, BadLinesNameTheLineAndField) {
  auto error_of = [](const std::string& text) {
    Result<std::vector<MemoryBankQuestion>> r = ParseMemoryBankGold(text);
    return r ? Status::Ok() : r.error();
  };
  const std::string good =
      R"({"user": "A", "question": "q", "gold": [], "answerable": true})"
      "\n";
  Status st = error_of(good + "{oops\n");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("line 2: not valid JSON"));

  st = error_of(good + R"({"question": "q", "gold": [], "answerable": true})");
  EXPECT_THAT(st.message(), HasSubstr(R"(line 2: field "user": missing)"));

  st = error_of(R"({"user": "A", "question": "q", "gold": [], "answerable": "yes"})");
  EXPECT_THAT(st.message(), HasSubstr(R"(line 1: field "answerable": expected true or false)"));

  st = error_of(
      R"({"user": "A", "question": "q", "gold": [{"date": "2023-04-27", "index": "1"}], "answerable": true})");
  EXPECT_THAT(st.message(),
              HasSubstr(R"(field "gold[0].index": expected a non-negative integer, got string)"));

  st = error_of(
      R"({"user": "A", "question": "q", "gold": [{"date": "2023-04-27", "index": -1}], "answerable": true})");
  EXPECT_THAT(st.message(), HasSubstr(R"(field "gold[0].index")"));

  st = error_of(
      R"({"user": "A", "question": "q", "gold": [{"date": "yesterday", "index": 0}], "answerable": true})");
  EXPECT_THAT(st.message(), HasSubstr(R"(field "gold[0].date")"));

  st = error_of(
      R"({"user": "A", "question": "q", "gold": [{"date": "2023-04-27", "index": 0}], "answerable": false})");
  EXPECT_THAT(st.message(), HasSubstr("must have no gold"));

  st = error_of("[1]\n");
  EXPECT_THAT(st.message(), HasSubstr("line 1: expected a JSON object"));
}

}  // namespace
}  // namespace engram::import
