// providers/embedder_factory.h — the embedder named by Options::embedder ($ENGRAM_EMBEDDER).
#ifndef ENGRAM_PROVIDERS_EMBEDDER_FACTORY_H_
#define ENGRAM_PROVIDERS_EMBEDDER_FACTORY_H_

#include <memory>
#include <string>

#include "engram/options.h"
#include "engram/status.h"
#include "providers/embedder.h"

namespace engram::providers {

class WordVectors;

// Makes embedders of one configured kind. Per-namespace state (SIF word frequencies and principal
// component) lives in the embedder, so the engine keeps one embedder per namespace; New() shares
// the memory-mapped word-vector file between them. Not thread-safe (the Engine serialises).
class EmbedderFactory {
 public:
  // Reads options.embedder / options.embedder_model, overridden by $ENGRAM_EMBEDDER and
  // $ENGRAM_EMBEDDER_MODEL when set. Returns nullptr for "none". Errors: kInvalidArgument for an
  // unknown name (the message lists the known ones); for "glove", kNotFound when the file is
  // missing (the message says to run `engram models install glove`) and kCorruption for a bad file.
  static Result<std::unique_ptr<EmbedderFactory>> FromOptions(const Options& options);

  // "glove", "hash" or "openai".
  const std::string& name() const { return name_; }
  // True for "glove": vectors depend on the namespace's word frequencies and principal component.
  bool fitted() const { return vectors_ != nullptr; }
  // The model id every embedder from New() reports.
  const std::string& model_id() const { return model_id_; }

  // A fresh embedder (for "glove" with empty frequencies and no component). Errors: as the
  // embedder's Create.
  Result<std::unique_ptr<Embedder>> New() const;

 private:
  std::string name_;
  std::string model_id_;
  std::shared_ptr<const WordVectors> vectors_;
};

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_EMBEDDER_FACTORY_H_
