// providers/embedder.h — the interface every text embedder implements, and the vector helpers
// shared by embedders and the vector store.
//
// An embedding model is named by ModelId() and has a fixed Dimension(). Every stored vector
// records both (store/sqlite/vector_store.h), and vectors of different model ids are never
// compared: a changed model means re-embedding (`engram reindex`) or a disabled vector channel,
// never a silent mix (bug scenario B45).
//
// Vectors are L2-normalised float32, so cosine similarity is the dot product. A text with nothing
// the model can represent (empty text, only unknown words) embeds to the all-zero vector, which
// scores 0 against everything.
#ifndef ENGRAM_PROVIDERS_EMBEDDER_H_
#define ENGRAM_PROVIDERS_EMBEDDER_H_

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "engram/status.h"

namespace engram::providers {

class Embedder {
 public:
  virtual ~Embedder() = default;

  // A stable name of the model and every setting that changes its vectors, ending in a format
  // version: "hash-ngram-256/1", "glove-wink-100d-sif/1", "openai:text-embedding-3-small".
  // Two embedders with the same id produce comparable vectors of the same dimension.
  virtual std::string ModelId() const = 0;

  // Number of floats per vector (> 0). An embedder that learns its dimension from a provider
  // (OpenAiEmbedder without a configured dimension) returns 0 until its first successful Embed.
  virtual int Dimension() const = 0;

  // One vector per text, in input order, each of Dimension() floats, L2-normalised (or all zeros,
  // see the file comment). Texts are UTF-8; invalid bytes never fail the call. An empty input
  // gives an empty output. Errors depend on the embedder (a remote one reports kInvalidArgument,
  // kBusy and kIOError; built-in ones never fail on text). Thread safety: per implementation;
  // Embed is not const because embedders may keep reusable buffers.
  virtual Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) = 0;
};

// Dot product of two arrays of `n` floats (accumulated in float; the cosine of two L2-normalised
// vectors).
inline float Dot(const float* a, const float* b, size_t n) {
  float sum = 0.0f;
  for (size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// Scales `v` to unit L2 norm. Returns false (and sets every element to 0) when the norm is 0 or
// not finite, so that a degenerate vector never carries NaN into the store.
inline bool L2Normalize(std::vector<float>& v) {
  double sum = 0.0;
  for (float x : v) sum += static_cast<double>(x) * x;
  double norm = std::sqrt(sum);
  if (!(norm > 0.0) || !std::isfinite(norm)) {
    for (float& x : v) x = 0.0f;
    return false;
  }
  const double inv = 1.0 / norm;
  for (float& x : v) x = static_cast<float>(x * inv);
  return true;
}

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_EMBEDDER_H_
