#include "util/ulid.h"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <set>

namespace engram {
namespace {

TEST(UlidTest, ShapeAndOrder) {
  std::string prev;
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = NewUlid(1700000000000 + i / 10);
    EXPECT_TRUE(IsUlid(id)) << id;
    EXPECT_GT(id, prev);
    prev = id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(UlidTest, EncodesTimeInTheFirstTenCharacters) {
  // Spec example: time 1469918176385 → "01ARYZ6S41".
  EXPECT_EQ(NewUlid(1469918176385).substr(0, 10), "01ARYZ6S41");
}

TEST(UlidTest, RejectsOtherStrings) {
  EXPECT_FALSE(IsUlid(""));
  EXPECT_FALSE(IsUlid("01ARYZ6S41TSV4RRFFQ69G5FAu"));
  EXPECT_FALSE(IsUlid("01ARYZ6S41TSV4RRFFQ69G5FAVX"));
}

}  // namespace
}  // namespace engram

namespace engram {
namespace {

// A forked child inherits the generator: it must not repeat its parent's ids (forked writers
// remembering in the same millisecond failed on UNIQUE(events.id)).
TEST(UlidTest, AForkedChildMakesOtherIdsThanItsParent) {
  NewUlid(1000);  // the parent's generator is seeded and has state to pass on
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    const std::string id = NewUlid(5000);
    _exit(write(fds[1], id.data(), id.size()) == static_cast<ssize_t>(id.size()) ? 0 : 1);
  }
  close(fds[1]);
  const std::string mine = NewUlid(5000);
  std::string theirs(26, '\0');
  ASSERT_EQ(read(fds[0], theirs.data(), theirs.size()), 26);
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(mine, theirs);
}

}  // namespace
}  // namespace engram
