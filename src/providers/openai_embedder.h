// providers/openai_embedder.h — an Embedder over OpenAI-compatible embedding APIs
// (`POST <base_url>/embeddings`): OpenAI, Ollama, vLLM, llama.cpp server, hosted gateways.
//
// Texts are sent in batches of at most `batch_size` per request: {"model", "input": [...]} plus
// "dimensions" when set. Replies {"data": [{"index", "embedding": [floats]}], "usage"} are put
// back in input order by "index", checked, and L2-normalised. Blank texts (empty or whitespace
// only; providers reject empty input) are not sent: they embed to the zero vector.
//
// Dimension: a configured one (`dimensions` or `expected_dimension`) is checked against every
// reply; otherwise the first reply fixes it for the life of the object, and later replies must
// match it. A mismatch is kInvalidArgument naming both sizes: the provider now serves a different
// model than the stored vectors were made with (B45), and the caller re-embeds or turns the vector
// channel off.
//
// No exception leaves this module: transport, HTTP and JSON failures come back as a Status.
#ifndef ENGRAM_PROVIDERS_OPENAI_EMBEDDER_H_
#define ENGRAM_PROVIDERS_OPENAI_EMBEDDER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "engram/status.h"
#include "providers/embedder.h"

namespace engram::providers {

struct OpenAiEmbedderOptions {
  // Everything before "/embeddings", with the version path: "http://127.0.0.1:11434/v1",
  // "https://api.openai.com/v1". Schemes http and https.
  std::string base_url;
  std::string model;    // sent as "model"; required
  std::string api_key;  // sent as "Authorization: Bearer <api_key>" when not empty
  // Sent as "dimensions" when > 0 (models that can shorten their vectors, e.g. OpenAI
  // text-embedding-3-*), and then also the expected dimension. Part of the model id.
  int dimensions = 0;
  // When > 0 (and dimensions is 0), the dimension every reply must have, e.g. the one of the
  // vectors already stored for this model id. Not sent.
  int expected_dimension = 0;
  // Texts per request, ≥ 1 (OpenAI accepts up to 2048 inputs per request).
  int batch_size = 64;
  // Applied separately to connecting, sending and reading one attempt, in ms.
  int timeout_ms = 30000;
  // Extra attempts after the first one for connection errors, timeouts, 429 and 5xx. Never for
  // other 4xx. 0 = a single attempt.
  int max_retries = 2;
  // Wait before retry n (n = 1, 2, ...) is retry_backoff_ms * 2^(n-1), in ms, capped at 30 s.
  int retry_backoff_ms = 500;
  // A 429 or 5xx with "Retry-After: <seconds>" waits that long instead when it is at most this
  // many ms; a longer one ends the retries at once (kBusy / kIOError).
  int max_retry_after_ms = 10000;
  // How the client waits between attempts (ms). Null = std::this_thread::sleep_for. A test hook.
  std::function<void(int ms)> sleep_for_ms;
};

// Options from the environment:
//   ENGRAM_EMBED_BASE_URL  base_url ("http://127.0.0.1:11434/v1")
//   ENGRAM_EMBED_MODEL     model ("nomic-embed-text")
//   ENGRAM_EMBED_API_KEY   api_key (may be unset for local servers)
// Unset variables leave the field empty; Embed reports a missing base_url or model as
// kInvalidArgument. Thread-safe (reads the environment).
OpenAiEmbedderOptions OpenAiEmbedderOptionsFromEnv();

// Totals since construction.
struct EmbeddingUsage {
  int64_t requests = 0;       // successful HTTP requests (one per batch)
  int64_t attempts = 0;       // HTTP attempts, failed ones included
  int64_t texts = 0;          // texts embedded by the provider (blank ones excluded)
  int64_t prompt_tokens = 0;  // usage.prompt_tokens summed (0 when the provider sends none)
  double latency_ms = 0;      // wall time of the successful attempts, in ms
};

class OpenAiEmbedder : public Embedder {
 public:
  explicit OpenAiEmbedder(OpenAiEmbedderOptions options);

  // "openai:<model>", or "openai:<model>:dim=<dimensions>" when dimensions is set.
  std::string ModelId() const override;
  // The configured dimension, else the one learned from the first reply, else 0.
  int Dimension() const override;

  // One L2-normalised vector per text, in input order (see the file comment). The batches are sent
  // one after another; a failed batch fails the call (no partial result).
  // Errors:
  //   kInvalidArgument  base_url or model missing or malformed; batch_size < 1; a 4xx other than
  //                     429 (the provider's error text in the message); a reply whose dimension
  //                     differs from the configured or learned one (both sizes named)
  //   kBusy             still 429 after the retries (or Retry-After too long)
  //   kIOError          unreachable, timed out or 5xx after the retries; a 2xx reply that is not
  //                     an embeddings list for the batch (wrong count, bad index, a vector that
  //                     is empty, not numbers, or of another length than its neighbours)
  // Thread-safe: each request opens its own connection; the learned dimension and the usage
  // totals are guarded.
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override;

  // The dimension, asking the provider (one request embedding a short probe text) when it is not
  // known yet. Errors: as Embed.
  Result<int> DetectDimension();

  EmbeddingUsage usage() const;
  const OpenAiEmbedderOptions& options() const { return options_; }

 private:
  // Embeds non-blank `texts` (at most batch_size) in one request.
  Result<std::vector<std::vector<float>>> EmbedBatch(const std::vector<const std::string*>& texts);
  // Checks a reply's dimension against the configured or learned one, learning it when unset.
  Status CheckDimension(int dim);

  OpenAiEmbedderOptions options_;
  std::atomic<int> learned_dimension_{0};
  mutable std::mutex mu_;
  EmbeddingUsage usage_;  // guarded by mu_
};

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_OPENAI_EMBEDDER_H_
