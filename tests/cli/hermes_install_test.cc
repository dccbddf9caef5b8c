// tests/cli/hermes_install_test.cc — `engram hermes install` (docs/hermes.md): the binary carries
// integrations/hermes/ byte for byte and writes it into $HERMES_HOME/plugins/engram/, replacing an
// older install in one step and keeping an existing engram/config.json. The plugin inside a real
// Hermes is tested by tests/hermes (Python); this runs without Python.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace engram {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::RunCli;
using test::TempDir;
using ::testing::HasSubstr;

// path relative to `root` -> bytes, for every file below it (no __pycache__, no dot files).
std::map<std::string, std::string> FilesBelow(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string rel = fs::relative(entry.path(), root).generic_string();
    if (!entry.is_regular_file() || rel.find("__pycache__") != std::string::npos ||
        entry.path().filename().string().starts_with(".") || rel.ends_with(".pyc")) {
      continue;
    }
    out[rel] = test::ReadFile(entry.path().string());
  }
  return out;
}

const fs::path kPluginSource = fs::path(ENGRAM_SOURCE_DIR) / "integrations" / "hermes";

TEST(HermesInstallTest, WritesTheRepositoryPluginAndAConfigNamingThisBinary) {
  TempDir dir;
  const fs::path home = fs::path(dir.path()) / "hermes";
  auto r = RunCli({"hermes", "install", "--home", home.string()});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_THAT(r.out, HasSubstr("hermes config set memory.provider engram"));
  const fs::path plugin = home / "plugins" / "engram";
  EXPECT_EQ(FilesBelow(plugin), FilesBelow(kPluginSource));
  // Hermes 0.19 recognises a provider folder by this text in the first 8 KB of __init__.py.
  EXPECT_THAT(test::ReadFile((plugin / "__init__.py").string()).substr(0, 8192), HasSubstr("MemoryProvider"));
  json config = json::parse(test::ReadFile((home / "engram" / "config.json").string()));
  EXPECT_EQ(config["engram_bin"], fs::canonical(test::EngramBinary()).string());
  EXPECT_EQ(config["namespace"], "hermes");
  EXPECT_EQ(fs::status(home / "engram" / "config.json").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
}

TEST(HermesInstallTest, ReinstallReplacesTheFolderAndKeepsTheConfig) {
  TempDir dir;
  const fs::path home = fs::path(dir.path()) / "hermes";
  ASSERT_EQ(RunCli({"hermes", "install", "--home", home.string()}).exit_code, 0);
  const fs::path plugin = home / "plugins" / "engram";
  test::WriteFile((plugin / "stale.py").string(), "from an older install\n");
  test::WriteFile((home / "engram" / "config.json").string(), "{\"url\": \"http://127.0.0.1:9\"}\n");
  auto r = RunCli({"--json", "hermes", "install", "--home", home.string()});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json out = json::parse(r.out);
  EXPECT_EQ(out["plugin_dir"], plugin.string());
  EXPECT_EQ(out["config_written"], false);
  EXPECT_FALSE(fs::exists(plugin / "stale.py"));
  EXPECT_EQ(FilesBelow(plugin), FilesBelow(kPluginSource));
  EXPECT_EQ(test::ReadFile((home / "engram" / "config.json").string()), "{\"url\": \"http://127.0.0.1:9\"}\n");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(home / "plugins")) ++entries;
  EXPECT_EQ(entries, 1) << "a staging folder was left in plugins/";
}

TEST(HermesInstallTest, HomeDefaultsToHermesHomeThenHome) {
  TempDir dir;
  const fs::path env_home = fs::path(dir.path()) / "from-env";
  auto r = RunCli({"hermes", "install", "--no-config"}, "", {{"HERMES_HOME", env_home.string()}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(fs::exists(env_home / "plugins" / "engram" / "__init__.py"));
  EXPECT_FALSE(fs::exists(env_home / "engram" / "config.json"));
  r = RunCli({"hermes", "install", "--no-config"}, "", {{"HERMES_HOME", std::nullopt}, {"HOME", dir.path()}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(fs::exists(fs::path(dir.path()) / ".hermes" / "plugins" / "engram" / "__init__.py"));
}

}  // namespace
}  // namespace engram
