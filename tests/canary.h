// tests/canary.h — the byte scan behind "forgotten bytes are gone" (issue 5): a test stores a
// canary word ("Zebracanary4242"), forgets it, and asserts that no file of the database holds it.
//
//   EXPECT_THAT(test::FindCanary(db_path), IsEmpty());
//
// Header-only, like test_util.h.
#ifndef ENGRAM_TESTS_CANARY_H_
#define ENGRAM_TESTS_CANARY_H_

#include <filesystem>
#include <string>
#include <vector>

#include "test_util.h"

namespace engram::test {

// The canary as written, its case-folded and upper-case forms, and the tails that survive
// FTS5's prefix compression of neighbouring terms.
inline const std::vector<std::string> kCanaryNeedles = {"Zebracanary4242", "zebracanary4242",
                                                        "ZEBRACANARY4242", "canary4242", "racanary42"};

// "file: needle" for every needle found in the database file or its -wal, -shm or -journal file.
inline std::vector<std::string> FindCanary(const std::string& db_path) {
  std::vector<std::string> found;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    const std::string path = db_path + suffix;
    if (!std::filesystem::exists(path)) continue;
    const std::string bytes = ReadFile(path);
    for (const std::string& needle : kCanaryNeedles) {
      if (bytes.find(needle) != std::string::npos) found.push_back(path + ": " + needle);
    }
  }
  return found;
}

}  // namespace engram::test

#endif  // ENGRAM_TESTS_CANARY_H_
