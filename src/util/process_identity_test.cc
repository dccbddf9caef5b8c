#include "util/process_identity.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace engram {
namespace {

// A child that writes its identity to a pipe, then waits until the parent closes the other pipe.
struct Child {
  pid_t pid = -1;
  std::optional<ProcessIdentity> identity;
  int release_fd = -1;  // closing it lets the child exit

  static Child Start() {
    int report[2], release[2];
    if (pipe(report) != 0 || pipe(release) != 0) return {};
    std::fflush(nullptr);
    Child child;
    child.pid = fork();
    if (child.pid == 0) {
      close(report[0]);
      close(release[1]);
      const std::string text = FormatProcessIdentity(SelfIdentity());
      ssize_t unused = write(report[1], text.data(), text.size());
      (void)unused;
      close(report[1]);
      char c;
      while (read(release[0], &c, 1) > 0) {
      }
      _exit(0);
    }
    close(report[1]);
    close(release[0]);
    std::string text;
    char buf[512];
    for (ssize_t n; (n = read(report[0], buf, sizeof(buf))) > 0;) text.append(buf, static_cast<size_t>(n));
    close(report[0]);
    child.identity = ParseProcessIdentity(text);
    child.release_fd = release[1];
    return child;
  }
};

class ProcessIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (SelfIdentity().boot.empty()) GTEST_SKIP() << "no /proc of this pid namespace: liveness is unknown here";
  }
};

TEST_F(ProcessIdentityTest, SelfIsAlive) {
  const ProcessIdentity self = SelfIdentity();
  EXPECT_EQ(self.pid, getpid());
  EXPECT_GT(self.start_ticks, 0);
  EXPECT_FALSE(self.pid_ns.empty());
  EXPECT_EQ(CheckLiveness(self), Liveness::kAlive);
}

TEST_F(ProcessIdentityTest, ReusedPidIsNotTheOwner) {
  ProcessIdentity earlier = SelfIdentity();
  earlier.start_ticks -= 1;  // a process that had this pid before this one
  EXPECT_EQ(CheckLiveness(earlier), Liveness::kDead);
}

TEST_F(ProcessIdentityTest, ChildIsItsOwnOwnerAndDeadOnceExited) {
  Child child = Child::Start();
  ASSERT_GT(child.pid, 0);
  ASSERT_TRUE(child.identity.has_value());
  EXPECT_EQ(child.identity->pid, child.pid);  // not the parent's identity, cached before the fork
  EXPECT_NE(child.identity->start_ticks, 0);
  EXPECT_EQ(CheckLiveness(*child.identity), Liveness::kAlive);

  close(child.release_fd);
  siginfo_t info{};
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOWAIT), 0);
  EXPECT_EQ(CheckLiveness(*child.identity), Liveness::kDead) << "a zombie holds nothing";
  int status = 0;
  ASSERT_EQ(waitpid(child.pid, &status, 0), child.pid);
  EXPECT_EQ(CheckLiveness(*child.identity), Liveness::kDead) << "no process has the pid";
}

TEST_F(ProcessIdentityTest, AnotherMachineBootOrContainerIsUnknown) {
  ProcessIdentity other = SelfIdentity();
  other.boot = "00000000-0000-0000-0000-000000000000";
  EXPECT_EQ(CheckLiveness(other), Liveness::kUnknown);
  other = SelfIdentity();
  other.pid_ns = "pid:[1]";
  EXPECT_EQ(CheckLiveness(other), Liveness::kUnknown);
  other = SelfIdentity();
  other.boot.clear();
  other.pid_ns.clear();
  EXPECT_EQ(CheckLiveness(other), Liveness::kUnknown);
}

TEST(ProcessIdentityFormatTest, RoundTripsAndRejectsOtherText) {
  ProcessIdentity id{"box-1", "0b5e-boot", "pid:[4026531836]", 4242, 987654};
  const std::string text = FormatProcessIdentity(id);
  EXPECT_EQ(text, "host=box-1 pid=4242 start=987654 boot=0b5e-boot pidns=pid:[4026531836]");
  EXPECT_EQ(ParseProcessIdentity(text), id);
  EXPECT_EQ(DescribeProcess(id), "box-1 pid 4242");
  EXPECT_EQ(ParseProcessIdentity(""), std::nullopt);
  EXPECT_EQ(ParseProcessIdentity("host=a pid=x start=1 boot=b pidns=c"), std::nullopt);
  EXPECT_EQ(ParseProcessIdentity("host=a pid=1 start=1 boot=b"), std::nullopt);
  EXPECT_EQ(ParseProcessIdentity("host=a pid=1 start=1 boot=b pidns=c color=red"), std::nullopt);
  EXPECT_EQ(ParseProcessIdentity("worker-7"), std::nullopt);
}

}  // namespace
}  // namespace engram
