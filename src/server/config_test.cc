#include "server/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "test_util.h"

namespace engram::server {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Getenv Env(std::map<std::string, std::string> vars) {
  auto held = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [held](const char* name) -> const char* {
    auto it = held->find(name);
    return it == held->end() ? nullptr : it->second.c_str();
  };
}

TEST(ServerConfigTest, FileThenEnvironment) {
  test::TempDir dir;
  test::WriteFile(dir.File("c.toml"), "[server]\nlisten = \"127.0.0.1:9000\"\nthreads = 8\n"
                                      "[rate_limit]\nrequests_per_second = 5.5\n[rerank]\napi_key = \"sk-secret\"\n");
  auto c = LoadServerConfig(dir.File("c.toml"), Env({{"ENGRAM_THREADS", "16"}}));
  ASSERT_TRUE(c) << c.error().ToString();
  EXPECT_EQ(c->listen, "127.0.0.1:9000");
  EXPECT_EQ(c->threads, 16) << "the environment overrides the file";
  EXPECT_DOUBLE_EQ(c->rate_limit_rps, 5.5);
  EXPECT_OK(ValidateServerConfig(*c));
  const std::string shown = ShowServerConfig(*c);
  EXPECT_THAT(shown, HasSubstr("api_key = '****'"));
  EXPECT_THAT(shown, Not(HasSubstr("sk-secret")));
}

TEST(ServerConfigTest, XdgDefaultIsOptional) {
  test::TempDir dir;
  auto c = LoadServerConfig("", Env({{"XDG_CONFIG_HOME", dir.path()}, {"ENGRAM_LISTEN", "127.0.0.1:1234"}}));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->source, "");
  EXPECT_EQ(c->listen, "127.0.0.1:1234");
  std::filesystem::create_directories(dir.File("engram"));
  test::WriteFile(dir.File("engram/config.toml"), "[server]\nreaders = 3\n");
  c = LoadServerConfig("", Env({{"XDG_CONFIG_HOME", dir.path()}}));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->readers, 3);
}

TEST(ServerConfigTest, ErrorsNameTheKey) {
  test::TempDir dir;
  test::WriteFile(dir.File("a.toml"), "[server]\nthreds = 8\n");
  auto c = LoadServerConfig(dir.File("a.toml"), Env({}));
  ASSERT_FALSE(c);
  EXPECT_THAT(c.error().message(), HasSubstr("server.threds"));
  test::WriteFile(dir.File("b.toml"), "[server]\nthreads = \"eight\"\n");
  c = LoadServerConfig(dir.File("b.toml"), Env({}));
  ASSERT_FALSE(c);
  EXPECT_THAT(c.error().message(), HasSubstr("server.threads"));
  test::WriteFile(dir.File("c.toml"), "[server\n");
  c = LoadServerConfig(dir.File("c.toml"), Env({}));
  ASSERT_FALSE(c);
  EXPECT_THAT(c.error().message(), HasSubstr("line 1"));
  EXPECT_FALSE(LoadServerConfig(dir.File("missing.toml"), Env({})));
  EXPECT_FALSE(LoadServerConfig("", Env({{"XDG_CONFIG_HOME", dir.path()}, {"ENGRAM_THREADS", "x"}})));
}

TEST(ServerConfigTest, ParseListen) {
  std::string host;
  int port = 0;
  EXPECT_OK(ParseListen("[::1]:8420", &host, &port));
  EXPECT_EQ(host, "::1");
  EXPECT_EQ(port, 8420);
  EXPECT_FALSE(ParseListen("8420", &host, &port).ok());
  EXPECT_FALSE(ParseListen("h:99999", &host, &port).ok());
}

}  // namespace
}  // namespace engram::server
