#include "text/speaker_reference.h"

#include <gtest/gtest.h>

namespace engram::text {
namespace {

TEST(SpeakerReferenceTest, TheUserIsTheSpeaker) {
  EXPECT_EQ(SpeakerInTheFirstPerson("Where does the user live now?"), "Where does I live now?");
  EXPECT_EQ(SpeakerInTheFirstPerson("What is the user's job?"), "What is my job?");
  EXPECT_EQ(SpeakerInTheFirstPerson("What is the user\xE2\x80\x99s job?"), "What is my job?");
  EXPECT_EQ(SpeakerInTheFirstPerson("Which Netflix plan is The User on?"), "Which Netflix plan is I on?");
  EXPECT_EQ(SpeakerInTheFirstPerson("the user"), "I");
  EXPECT_EQ(SpeakerInTheFirstPerson("用户现在住在哪？"), "我现在住在哪？");
  EXPECT_EQ(SpeakerInTheFirstPerson("用户的老公在哪上班？"), "我的老公在哪上班？");
  EXPECT_EQ(SpeakerInTheFirstPerson("请问，用户开什么车？"), "请问，我开什么车？");
}

TEST(SpeakerReferenceTest, OtherUsesOfTheWordAreKept) {
  EXPECT_EQ(SpeakerInTheFirstPerson("Which database holds the user table?"), "Which database holds the user table?");
  EXPECT_EQ(SpeakerInTheFirstPerson("Is the user service healthy?"), "Is the user service healthy?");
  EXPECT_EQ(SpeakerInTheFirstPerson("How many users signed up?"), "How many users signed up?");
  EXPECT_EQ(SpeakerInTheFirstPerson("a user reported a bug"), "a user reported a bug");
  EXPECT_EQ(SpeakerInTheFirstPerson("the username"), "the username");
  EXPECT_EQ(SpeakerInTheFirstPerson("用户中心服务现在是什么状态？"), "用户中心服务现在是什么状态？");
  EXPECT_EQ(SpeakerInTheFirstPerson("有多少老用户？"), "有多少老用户？");
  EXPECT_EQ(SpeakerInTheFirstPerson("用户表在哪个库？"), "用户表在哪个库？");
  EXPECT_EQ(SpeakerInTheFirstPerson(""), "");
}

}  // namespace
}  // namespace engram::text
