#include "text/chinese_name.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace engram::text {
namespace {

// The names ChineseNameEnds gives for `text` opening with a surname of `surname_bytes` bytes.
std::vector<std::string> Names(const std::string& text, size_t surname_bytes) {
  std::vector<std::string> out;
  for (size_t end : ChineseNameEnds(text, 0, surname_bytes)) out.push_back(text.substr(0, end));
  return out;
}

TEST(ChineseNameTest, SurnameAndGivenName) {
  EXPECT_EQ(Names("王磊调去北京了", 3), (std::vector<std::string>{"王磊"}));
  EXPECT_EQ(Names("林小雨订婚啦", 3), (std::vector<std::string>{"林小雨"}));
  EXPECT_EQ(Names("陈静在腾讯上班", 3), (std::vector<std::string>{"陈静", "陈静在"}));
  EXPECT_EQ(Names("欧阳娜娜住在台北", 6), (std::vector<std::string>{"欧阳娜", "欧阳娜娜"}));
}

TEST(ChineseNameTest, DictionaryWordsOpeningWithASurnameAreNoNames) {
  EXPECT_TRUE(Names("马上搬到杭州", 3).empty());
  EXPECT_TRUE(Names("周末去爬山", 3).empty());
  EXPECT_TRUE(Names("高兴地说", 3).empty());
  EXPECT_TRUE(Names("石家庄很冷", 3).empty());
}

TEST(ChineseNameTest, NoHanAfterTheSurnameGivesNone) {
  EXPECT_TRUE(Names("王", 3).empty());
  EXPECT_TRUE(Names("王 is here", 3).empty());
  EXPECT_TRUE(ChineseNameEnds("", 0, 3).empty());
  EXPECT_TRUE(ChineseNameEnds("王磊", 6, 3).empty());
}

}  // namespace
}  // namespace engram::text
