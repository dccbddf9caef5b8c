#include "import/locomo.h"

#include <date/date.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace engram::import {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TimestampMs Utc(int y, unsigned mo, unsigned d, int h, int mi) {
  auto tp =
      date::sys_days{date::year{y} / mo / d} + std::chrono::hours(h) + std::chrono::minutes(mi);
  return std::chrono::duration_cast<std::chrono::milliseconds>(tp.time_since_epoch()).count();
}

// A tiny LoCoMo-shaped file covering the pitfalls of benchmarks.md §1.2: more date keys than
// sessions, session keys out of numeric order, an int answer, an absent answer (category 5),
// malformed and non-existent evidence ids, image fields and an unknown turn key.
constexpr const char* kFixture = R"json([
  {
    "sample_id": "conv-x",
    "conversation": {
      "speaker_a": "Caroline",
      "speaker_b": "Melanie",
      "session_10_date_time": "10:37 am on 27 June, 2023",
      "session_10": [
        {"speaker": "Melanie", "dia_id": "D10:1", "text": "Back from the lake."}
      ],
      "session_1_date_time": "1:56 pm on 8 May, 2023",
      "session_1": [
        {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel!"},
        {"speaker": "Melanie", "dia_id": "D1:2", "text": "Hi! Look at this.",
         "img_url": ["https://example.com/a.jpg"], "blip_caption": "a photo of a dog",
         "query": "dog park", "re-download": true},
        {"speaker": "Caroline", "dia_id": "D1:3", "text": "I went to a support group in 2022."}
      ],
      "session_2_date_time": "12:48 am on 1 February, 2024",
      "session_2": [
        {"speaker": "Caroline", "dia_id": "D2:1", "text": "Late night here."}
      ],
      "session_3_date_time": "8:00 pm on 2 February, 2024"
    },
    "observation": {},
    "qa": [
      {"question": "When did Caroline go to the group?", "answer": 2022, "evidence": ["D1:3"],
       "category": 2},
      {"question": "What did both do?", "answer": "talk",
       "evidence": ["D1:1; D10:1", "D:2:1", "D01:03", "D9:9", "D1:1"], "category": 1},
      {"question": "Would Melanie like dogs?", "answer": "yes", "evidence": [], "category": 3},
      {"question": "What did Caroline say about cats?", "adversarial_answer": "nothing",
       "evidence": ["D4:4"], "category": 5}
    ]
  }
])json";

TEST(ParseLocomoDateTimeTest, ReadsTheLocomoShapeAsUtc) {
  EXPECT_EQ(ParseLocomoDateTime("1:56 pm on 8 May, 2023").value(), Utc(2023, 5, 8, 13, 56));
  EXPECT_EQ(ParseLocomoDateTime("10:37 am on 27 June, 2023").value(), Utc(2023, 6, 27, 10, 37));
  EXPECT_EQ(ParseLocomoDateTime("12:48 am on 1 February, 2023").value(), Utc(2023, 2, 1, 0, 48));
  EXPECT_EQ(ParseLocomoDateTime("12:05 pm on 1 February, 2023").value(), Utc(2023, 2, 1, 12, 5));
}

TEST(ParseLocomoDateTimeTest, IsTolerantOfCaseZerosSpacesAndAbbreviations) {
  const TimestampMs want = Utc(2023, 5, 8, 13, 56);
  EXPECT_EQ(ParseLocomoDateTime("1:56 PM on 8 May, 2023").value(), want);
  EXPECT_EQ(ParseLocomoDateTime("01:56 Pm on 08 may, 2023").value(), want);
  EXPECT_EQ(ParseLocomoDateTime("  1:56pm  on 8 May 2023 ").value(), want);
  EXPECT_EQ(ParseLocomoDateTime("1:56 p.m. on 8 May, 2023").value(), want);
  EXPECT_EQ(ParseLocomoDateTime("9:05 am on 3 Sept, 2022").value(), Utc(2022, 9, 3, 9, 5));
  EXPECT_EQ(ParseLocomoDateTime("9:05 am on 3 Dec, 2022").value(), Utc(2022, 12, 3, 9, 5));
}

TEST(ParseLocomoDateTimeTest, RejectsWhatIsNotATime) {
  for (const char* bad : {"", "yesterday", "13:00 pm on 1 May, 2023", "1:60 pm on 1 May, 2023",
                          "1:56 pm on 31 February, 2023", "1:56 pm on 8 Ma, 2023",
                          "1:56 pm on 8 Maybe, 2023", "1:56 on 8 May, 2023"}) {
    Result<TimestampMs> r = ParseLocomoDateTime(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument);
  }
}

TEST(NormalizeEvidenceTest, SplitsAndCanonicalises) {
  EXPECT_THAT(NormalizeEvidence({"D8:6; D9:17"}), ElementsAre("D8:6", "D9:17"));
  EXPECT_THAT(NormalizeEvidence({"D:11:26"}), ElementsAre("D11:26"));
  EXPECT_THAT(NormalizeEvidence({"D30:05"}), ElementsAre("D30:5"));
  EXPECT_THAT(NormalizeEvidence({"D9:1 D4:4 D4:6"}), ElementsAre("D9:1", "D4:4", "D4:6"));
  EXPECT_THAT(NormalizeEvidence({"D1:1", "D1:01", "D2:0"}), ElementsAre("D1:1", "D2:0"));
  EXPECT_THAT(NormalizeEvidence({"D", "", "session 3"}), IsEmpty());
}

TEST(LocomoSessionOfTest, ReadsTheNumberAfterD) {
  EXPECT_EQ(LocomoSessionOf("D12:3"), 12);
  EXPECT_EQ(LocomoSessionOf("D1:1"), 1);
  EXPECT_EQ(LocomoSessionOf("D:4:2"), 4);
  EXPECT_EQ(LocomoSessionOf(""), 0);
  EXPECT_EQ(LocomoSessionOf("X1:2"), 0);
  EXPECT_EQ(LocomoSessionOf("D"), 0);
}

TEST(ParseLocomoTest, ReadsTheFixture) {
  Result<std::vector<LocomoConversation>> parsed = ParseLocomo(kFixture);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  ASSERT_EQ(parsed->size(), 1u);
  const LocomoConversation& c = (*parsed)[0];
  EXPECT_EQ(c.sample_id, "conv-x");
  EXPECT_EQ(c.speaker_a, "Caroline");
  EXPECT_EQ(c.speaker_b, "Melanie");

  // Sessions: the existing session_N keys in numeric order; the date-only session_3 is ignored.
  ASSERT_EQ(c.sessions.size(), 3u);
  EXPECT_EQ(c.sessions[0].index, 1);
  EXPECT_EQ(c.sessions[1].index, 2);
  EXPECT_EQ(c.sessions[2].index, 10);
  EXPECT_EQ(c.sessions[0].date_time_text, "1:56 pm on 8 May, 2023");
  EXPECT_EQ(c.sessions[0].started_at, Utc(2023, 5, 8, 13, 56));
  EXPECT_EQ(c.sessions[1].started_at, Utc(2024, 2, 1, 0, 48));

  ASSERT_EQ(c.sessions[0].turns.size(), 3u);
  const LocomoTurn& img = c.sessions[0].turns[1];
  EXPECT_EQ(img.dia_id, "D1:2");
  EXPECT_EQ(img.session, 1);
  EXPECT_EQ(img.turn, 2);
  EXPECT_EQ(img.speaker, "Melanie");
  EXPECT_EQ(img.text, "Hi! Look at this.");
  EXPECT_EQ(img.image_caption, "a photo of a dog");
  EXPECT_THAT(img.image_urls, ElementsAre("https://example.com/a.jpg"));
  EXPECT_EQ(img.image_query, "dog park");
  EXPECT_EQ(c.sessions[2].turns[0].session, 10);

  ASSERT_EQ(c.questions.size(), 4u);
  EXPECT_EQ(c.questions[0].answer, "2022");  // an int answer becomes text
  EXPECT_EQ(c.questions[0].category, 2);
  EXPECT_THAT(c.questions[0].evidence, ElementsAre("D1:3"));
  // Malformed strings split and canonicalised; D9:9 does not exist; repeats dropped.
  EXPECT_THAT(c.questions[1].evidence, ElementsAre("D1:1", "D10:1", "D2:1", "D1:3"));
  EXPECT_THAT(c.questions[1].raw_evidence,
              ElementsAre("D1:1; D10:1", "D:2:1", "D01:03", "D9:9", "D1:1"));
  EXPECT_THAT(c.questions[2].evidence, IsEmpty());
  EXPECT_EQ(c.questions[3].answer, "");  // category 5: no answer key
  EXPECT_EQ(c.questions[3].category, 5);
  EXPECT_THAT(c.questions[3].evidence, IsEmpty());  // D4:4 does not exist
}

TEST(ParseLocomoTest, ErrorsNameTheSampleAndField) {
  auto error_of = [](const std::string& text) {
    Result<std::vector<LocomoConversation>> r = ParseLocomo(text);
    EXPECT_FALSE(r.has_value()) << text;
    if (r.has_value()) return std::string();
    EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument);
    return r.error().message();
  };
  EXPECT_THAT(error_of("{not json"), HasSubstr("not valid JSON"));
  EXPECT_THAT(error_of(R"({"sample_id": "a"})"), HasSubstr("expected a JSON list"));
  EXPECT_THAT(error_of(R"([{"conversation": {}}])"), HasSubstr("sample 0: field \"sample_id\""));

  const std::string no_text = R"([{"sample_id": "conv-9", "conversation": {
      "speaker_a": "A", "speaker_b": "B", "session_1_date_time": "1:56 pm on 8 May, 2023",
      "session_1": [{"speaker": "A", "dia_id": "D1:1"}]}}])";
  std::string msg = error_of(no_text);
  EXPECT_THAT(msg, HasSubstr("sample 0 (\"conv-9\")"));
  EXPECT_THAT(msg, HasSubstr("field \"conversation.session_1[0].text\": missing"));

  const std::string bad_date = R"([{"sample_id": "conv-9", "conversation": {
      "speaker_a": "A", "speaker_b": "B", "session_1_date_time": "sometime",
      "session_1": []}}])";
  EXPECT_THAT(error_of(bad_date), HasSubstr("field \"conversation.session_1_date_time\""));

  const std::string no_date = R"([{"sample_id": "conv-9", "conversation": {
      "speaker_a": "A", "speaker_b": "B", "session_1": []}}])";
  EXPECT_THAT(error_of(no_date), HasSubstr("field \"conversation.session_1_date_time\": missing"));

  const std::string dup = R"([{"sample_id": "conv-9", "conversation": {
      "speaker_a": "A", "speaker_b": "B", "session_1_date_time": "1:56 pm on 8 May, 2023",
      "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "x"},
                    {"speaker": "B", "dia_id": "D1:01", "text": "y"}]}}])";
  EXPECT_THAT(error_of(dup), HasSubstr("\"D1:1\" appears twice"));

  const std::string bad_category = R"([{"sample_id": "conv-9", "conversation": {
      "speaker_a": "A", "speaker_b": "B"}, "qa": [{"question": "q", "category": "two"}]}])";
  EXPECT_THAT(error_of(bad_category), HasSubstr("field \"qa[0].category\": expected an integer"));

  const std::string bad_text_type = R"([{"sample_id": "conv-9", "conversation": {
      "speaker_a": "A", "speaker_b": "B", "session_1_date_time": "1:56 pm on 8 May, 2023",
      "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": 5}]}}])";
  EXPECT_THAT(error_of(bad_text_type), HasSubstr("expected a string, got number"));
}

TEST(ToEventInputsTest, OneEventPerTurnInOrder) {
  Result<std::vector<LocomoConversation>> parsed = ParseLocomo(kFixture);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  std::vector<EventInput> events = ToEventInputs((*parsed)[0]);
  ASSERT_EQ(events.size(), 5u);

  const EventInput& first = events[0];
  EXPECT_EQ(first.namespace_name, "conv-x");
  EXPECT_EQ(first.session_id, "session_1");
  EXPECT_EQ(first.role, "user");
  EXPECT_EQ(first.speaker, "Caroline");
  EXPECT_EQ(first.content, "Hey Mel!");
  EXPECT_EQ(first.occurred_at, "2023-05-08T13:56:00.000Z");
  EXPECT_EQ(first.idempotency_key, "conv-x:D1:1");
  EXPECT_EQ(first.metadata_json, R"({"dia_id":"D1:1"})");
  EXPECT_EQ(first.session_kind, "interactive");
  EXPECT_EQ(first.session_source, "locomo");
  EXPECT_EQ(first.session_title, "1:56 pm on 8 May, 2023");

  // Turn order is kept with one second per turn.
  EXPECT_EQ(events[1].occurred_at, "2023-05-08T13:56:01.000Z");
  EXPECT_EQ(events[2].occurred_at, "2023-05-08T13:56:02.000Z");
  EXPECT_EQ(events[3].session_id, "session_2");
  EXPECT_EQ(events[3].occurred_at, "2024-02-01T00:48:00.000Z");
  EXPECT_EQ(events[4].session_id, "session_10");
  EXPECT_EQ(events[4].idempotency_key, "conv-x:D10:1");

  nlohmann::json meta = nlohmann::json::parse(events[1].metadata_json, nullptr, false);
  ASSERT_TRUE(meta.is_object());
  EXPECT_EQ(meta["dia_id"], "D1:2");
  EXPECT_EQ(meta["image_caption"], "a photo of a dog");
  EXPECT_EQ(meta["image_urls"], nlohmann::json::array({"https://example.com/a.jpg"}));
  EXPECT_EQ(meta["image_query"], "dog park");
  EXPECT_EQ(meta.size(), 4u);
}

TEST(ToEventInputsTest, BlankTextFallsBackToTheCaptionOrIsSkipped) {
  LocomoConversation c;
  c.sample_id = "s";
  LocomoSession session;
  session.index = 1;
  session.started_at = Utc(2023, 1, 1, 0, 0);
  LocomoTurn captioned;
  captioned.dia_id = "D1:1";
  captioned.text = " ";
  captioned.image_caption = "a photo of a cat";
  LocomoTurn empty;
  empty.dia_id = "D1:2";
  session.turns = {captioned, empty};
  c.sessions.push_back(session);
  std::vector<EventInput> events = ToEventInputs(c);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].content, "a photo of a cat");
}

TEST(LoadLocomoFileTest, ReadsAFileAndReportsAMissingOne) {
  char dir_template[] = "/tmp/engram-locomo-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string path = std::string(dir_template) + "/fixture.json";
  {
    std::ofstream out(path);
    out << kFixture;
  }
  Result<std::vector<LocomoConversation>> loaded = LoadLocomoFile(path);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().ToString();
  EXPECT_EQ(loaded->size(), 1u);
  std::remove(path.c_str());
  rmdir(dir_template);

  Result<std::vector<LocomoConversation>> missing = LoadLocomoFile(path);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), StatusCode::kIOError);
  EXPECT_THAT(missing.error().message(), HasSubstr(path));
}

}  // namespace
}  // namespace engram::import
