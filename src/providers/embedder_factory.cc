#include "providers/embedder_factory.h"

#include <cstdlib>
#include <fmt/format.h>

#include "providers/hashing_embedder.h"
#include "providers/openai_embedder.h"
#include "providers/word_vectors.h"

namespace engram {

std::string DefaultGloveModelPath() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/engram/models/glove-wink-100d.ewv";
  }
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : ".") + "/.local/share/engram/models/glove-wink-100d.ewv";
}

namespace providers {

Result<std::unique_ptr<EmbedderFactory>> EmbedderFactory::FromOptions(const Options& options) {
  std::string name = options.embedder;
  if (const char* env = std::getenv("ENGRAM_EMBEDDER"); env != nullptr && *env != '\0') name = env;
  std::string model = options.embedder_model;
  if (const char* env = std::getenv("ENGRAM_EMBEDDER_MODEL"); env != nullptr && *env != '\0') model = env;
  if (name.empty() || name == "none") return std::unique_ptr<EmbedderFactory>();
  auto factory = std::unique_ptr<EmbedderFactory>(new EmbedderFactory());
  factory->name_ = name;
  if (name == "glove") {
    if (model.empty()) model = DefaultGloveModelPath();
    auto vectors = WordVectors::Open(model);
    if (!vectors) {
      if (vectors.error().code() == StatusCode::kNotFound) {
        return Error(Status::NotFound(fmt::format(
            "embedder \"glove\": no word-vector file at {} (run `engram models install glove`, or set "
            "ENGRAM_EMBEDDER_MODEL)",
            model)));
      }
      return Error(vectors.error().WithContext("embedder \"glove\""));
    }
    factory->vectors_ = std::shared_ptr<const WordVectors>(std::move(*vectors));
  } else if (name != "hash" && name != "openai") {
    return Error(Status::InvalidArgument(
        fmt::format("field \"embedder\": unknown value \"{}\" (expected one of: none, glove, hash, openai)", name)));
  }
  auto probe = factory->New();
  if (!probe) return Error(probe.error());
  factory->model_id_ = (*probe)->ModelId();
  return factory;
}

Result<std::unique_ptr<Embedder>> EmbedderFactory::New() const {
  if (name_ == "glove") {
    auto e = GloveSifEmbedder::Create(vectors_);
    if (!e) return Error(e.error());
    return std::unique_ptr<Embedder>(std::move(*e));
  }
  if (name_ == "hash") {
    auto e = HashingEmbedder::Create();
    if (!e) return Error(e.error());
    return std::unique_ptr<Embedder>(std::move(*e));
  }
  return std::unique_ptr<Embedder>(std::make_unique<OpenAiEmbedder>(OpenAiEmbedderOptionsFromEnv()));
}

}  // namespace providers
}  // namespace engram
