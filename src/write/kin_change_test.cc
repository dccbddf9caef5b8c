#include "write/kin_change.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "write/extraction/change_statement.h"

namespace engram {
namespace {

// A stand-in for word vectors: the words of a text are its lower-cased words of four letters or
// more; names those written capitalised after the first word; kin the pairs of a small table.
KinLookup StandInKin() {
  auto split = [](std::string_view text, bool names_only) {
    std::set<std::string> out;
    std::string word;
    bool capital = false;
    bool first = true;
    auto flush = [&]() {
      if (word.size() >= 4 && (!names_only || (capital && !first))) out.insert(word);
      if (!word.empty()) first = false;
      word.clear();
    };
    for (char c : text) {
      if (std::isalpha(static_cast<unsigned char>(c))) {
        if (word.empty()) capital = std::isupper(static_cast<unsigned char>(c)) != 0;
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else {
        flush();
      }
    }
    flush();
    return std::vector<std::string>(out.begin(), out.end());
  };
  static const std::set<std::pair<std::string, std::string>> kKin = {
      {"chrome", "firefox"}, {"leeds", "bristol"}, {"warm", "cool"}};
  KinLookup kin;
  kin.words = [split](std::string_view text) { return split(text, false); };
  kin.names = [split](std::string_view text) { return split(text, true); };
  kin.kin = [](const std::vector<std::string>& older, const std::vector<std::string>& newer) {
    for (const std::string& a : older) {
      for (const std::string& b : newer) {
        if (kKin.count({a, b}) > 0 || kKin.count({b, a}) > 0) return true;
      }
    }
    return false;
  };
  return kin;
}

TEST(KinChangeTest, OnlyTheSpeakersSentencesOfChange) {
  const std::string text = "My client just moved their audit to KPMG. I switched to Firefox last week.";
  const std::string said = SpeakerChangeText(text, {}, extraction::ChangeSentences, nullptr);
  EXPECT_NE(said.find("Firefox"), std::string::npos) << said;
  EXPECT_EQ(said.find("KPMG"), std::string::npos) << said;
  EXPECT_EQ(SpeakerChangeText("I'd never switch to Firefox.", {}, extraction::ChangeSentences, nullptr), "");
  EXPECT_EQ(SpeakerChangeText("Would you switch to Firefox?", {}, extraction::ChangeSentences, nullptr), "");
}

TEST(KinChangeTest, AKinPairOneOfThemWrittenAsAName) {
  const KinLookup kin = StandInKin();
  ASSERT_TRUE(kin.Available());
  const std::string older = "Chrome is my main browser";
  const std::vector<std::string> older_words = kin.words(older);
  const std::string newer = "switched to Firefox last week";
  EXPECT_TRUE(NamesAKinThing(kin, older, older_words, newer, newer));
  // Two everyday words, neither written as a name, are kin in one sense of each.
  const std::string weather = "I like warm weather";
  EXPECT_FALSE(NamesAKinThing(kin, weather, kin.words(weather), "it feels really cool now", "it feels really cool now"));
  // Nothing changed where the newer states a change: nothing named.
  EXPECT_FALSE(NamesAKinThing(kin, older, older_words, "", newer));
  EXPECT_FALSE(NamesAKinThing(KinLookup{}, older, older_words, newer, newer));
}

}  // namespace
}  // namespace engram
