#include "write/corrected_value.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace engram {
namespace {

// "older part → newer part", or "-" when nothing is corrected.
std::string Pair(std::string_view correction, std::string_view older, bool whole = false,
                 const KinLookup* kin = nullptr) {
  const std::optional<CorrectedPair> pair = CorrectedPart(correction, older, whole, kin);
  return pair ? pair->older + " → " + pair->newer : "-";
}

TEST(CorrectedValueTest, ACodeOrANumberOfTheSameShape) {
  EXPECT_EQ(Pair("A1032", "工号is A1023"), "A1023 → A1032");
  EXPECT_EQ(Pair("gate C7", "My flight lands at gate B12", true), "B12 → C7");
  EXPECT_EQ(Pair("5400", "房租每个月4500。", true), "4500 → 5400");
  // Another shape is another kind of value: a year is no gate.
  EXPECT_EQ(Pair("C7", "I was born in 1988", true), "-");
  EXPECT_EQ(Pair("A1023", "工号is A1023"), "-");  // the same value again corrects nothing
}

TEST(CorrectedValueTest, ATimeForATime) {
  EXPECT_EQ(Pair("Tuesday", "Monday at 3"), "Monday → Tuesday");
  EXPECT_EQ(Pair("8 pm", "My flight lands at 6 pm on Friday.", true), "6 pm → 8 pm");
  EXPECT_EQ(Pair("Friday", "My flight lands at 6 pm on Friday.", true), "-");  // the same day again
  EXPECT_EQ(Pair("周五上午十点", "我的会议定在周四上午十点", true), "周四 → 周五");
  EXPECT_EQ(Pair("Tuesday", "My dentist is Dr. Kim", true), "-");
}

TEST(CorrectedValueTest, AWordOfTheSameKind) {
  KinLookup kin;
  kin.words = [](std::string_view text) {
    std::vector<std::string> out;
    for (std::string w : {"heathrow", "gatwick", "lisbon", "flight"}) {
      std::string lower(text);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower.find(w) != std::string::npos) out.push_back(w);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  kin.names = [&kin](std::string_view text) {
    std::vector<std::string> words = kin.words(text);
    std::erase(words, "flight");  // written in lower case
    return words;
  };
  kin.kin = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
    for (const std::string& x : a) {
      for (const std::string& y : b) {
        if ((x == "gatwick" && y == "heathrow") || (x == "heathrow" && y == "gatwick")) return true;
      }
    }
    return false;
  };
  EXPECT_EQ(Pair("Heathrow", "My flight to Lisbon leaves from Gatwick.", true, &kin), "Gatwick → Heathrow");
  EXPECT_EQ(Pair("Heathrow", "My flight to Lisbon leaves from Gatwick.", true, nullptr), "-");
  // A value the grammar read shares a word with a short correction: the rest is what changed.
  EXPECT_EQ(Pair("O positive", "A positive"), "A positive → O positive");
  EXPECT_EQ(Pair("I went to the park with the kids", "the kids' school"), "-");  // a sentence, not a value
}

TEST(CorrectedValueTest, ACorrectionSaysOnlyItsValue) {
  EXPECT_TRUE(SaysOnlyTheValue("sorry, I meant gate C7", "C7", "My flight lands at gate B12", true));
  EXPECT_TRUE(SaysOnlyTheValue("刚才工号记错了，应该是A1032", "A1032", "工号is A1023", true));
  // Another thing named beside the value: it is that thing's value.
  EXPECT_FALSE(SaysOnlyTheValue("Correction: room 310", "310", "My gym locker is number 204.", true));
  // Words of grammar say nothing of another thing.
  EXPECT_TRUE(SaysOnlyTheValue("sorry, I meant Thursday not Tuesday for the dentist", "Thursday",
                               "dentist appointment when Tuesday", true));
  EXPECT_FALSE(SaysOnlyTheValue("sorry, Thursday is for the plumber", "Thursday", "dentist appointment when Tuesday", true));
  EXPECT_FALSE(SaysOnlyTheValue("Tom: correction, it's Heathrow", "Heathrow", "My flight leaves from Gatwick.", true));
  EXPECT_FALSE(SaysOnlyTheValue("说错了，那趟航班是9点的", "9点", "我每天早上7点起床。", true));
}

}  // namespace
}  // namespace engram
