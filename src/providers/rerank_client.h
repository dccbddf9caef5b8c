// providers/rerank_client.h — a client of cross-encoder rerank APIs (`POST <base_url>/rerank`):
// scores every document against a query, for recall's optional rerank stage (docs/retrieval.md,
// "Reranker").
//
// OpenAI has no rerank endpoint. Two wire shapes exist in practice; both are spoken:
//
//   format "cohere" (default) — the Cohere/Jina shape, served by vLLM, llama.cpp server
//   (`llama-server --reranking`), OpenVINO Model Server, Infinity and hosted gateways:
//     request  {"model": M, "query": Q, "documents": [d0, d1, ...], "top_n": n}   ("model" only
//              when configured)
//     reply    {"results": [{"index": i, "relevance_score": s, ...}, ...], ...}
//   Sources: OpenVINO Model Server, "Cohere API rerank endpoint"
//   (https://docs.openvino.ai/2025/model-server/ovms_docs_rest_api_rerank.html); Lemonade's notes on
//   llama.cpp's /v1/rerank (https://lemonade-server.ai/docs/api/llamacpp/); Haystack's VLLMRanker,
//   which calls vLLM's /rerank (https://docs.haystack.deepset.ai/docs/vllmranker).
//
//   format "tei" — Hugging Face text-embeddings-inference's native route:
//     request  {"query": Q, "texts": [d0, d1, ...], "truncate": true}
//     reply    [{"index": i, "score": s}, ...]
//   Source: the TEI request parameters listed for BAAI/bge-reranker-v2-m3 on Azure AI
//   (https://ai.azure.com/catalog/models/baai-bge-reranker-v2-m3).
//
// Either reply shape is accepted whatever the format (a top-level list is TEI's, an object with
// "results" Cohere's), and checked strictly: one entry per document, every index an integer in
// range and given once, every score a finite number. Scores are the server's own (a logit or a
// probability, depending on the model and server): comparable within one reply only.
//
// Time: every call has a budget (budget_ms), a deadline at call start + budget. Attempts and
// retries run through PostJsonWithRetries with that deadline: each attempt's connect, send and read
// timeouts are the time left, an attempt still running at the deadline is stopped (so a server
// trickling its reply byte by byte, each read within httplib's per-read timeout, is cut there
// too), and no retry starts whose wait would pass the deadline.
//
// No exception leaves this module.
#ifndef ENGRAM_PROVIDERS_RERANK_CLIENT_H_
#define ENGRAM_PROVIDERS_RERANK_CLIENT_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"

namespace engram::providers {

// Options::rerank with the environment applied, validated (every entry point opens the engine
// through this, so every entry point gets the same errors):
//   ENGRAM_RERANK_BASE_URL   base_url ("http://127.0.0.1:8000/v1"; empty = no reranker)
//   ENGRAM_RERANK_MODEL      model
//   ENGRAM_RERANK_API_KEY    api_key
//   ENGRAM_RERANK_FORMAT     format (cohere, tei)
//   ENGRAM_RERANK_POOL       pool (1–100)
//   ENGRAM_RERANK_BUDGET_MS  budget_ms (1–60000)
// A variable that is set and not empty overrides the field (as $ENGRAM_EMBEDDER does).
// Errors: kInvalidArgument naming the field or variable: a pool or budget out of range or not an
// integer, an unknown format, a base_url that is not http(s)://host[:port][/path]. The pool, budget
// and format are checked even when base_url is empty. Thread-safe (reads the environment).
Result<RerankOptions> ResolveRerankOptions(const RerankOptions& options);

struct RerankClientOptions {
  RerankOptions endpoint;  // base_url (required), model, api_key, format, budget_ms (pool unused)
  // Extra attempts for connection errors, 429 and 5xx, within the budget. A cross-encoder over
  // 20 short texts answers in tens of ms on a GPU, so one failed attempt usually leaves room for
  // another.
  int max_retries = 2;
  int retry_backoff_ms = 20;  // wait before retry n is retry_backoff_ms × 2^(n-1)
  std::function<void(int ms)> sleep_for_ms;  // test hook; null = real sleep
};

struct RerankReply {
  std::vector<double> scores;  // one per document, in input order; higher = more relevant
  int attempts = 0;            // HTTP attempts made
  double took_ms = 0;          // wall time of the call (all attempts), ms
};

class RerankClient {
 public:
  // Errors: kInvalidArgument (as ResolveRerankOptions, or an empty base_url).
  static Result<std::unique_ptr<RerankClient>> Create(RerankClientOptions options);

  // Scores `documents` (in order) against `query`. Each document is cut to kMaxDocumentChars code
  // points, "…" appended (cross-encoders read about 512 tokens). No documents = no request, no
  // scores.
  // Errors (the message is what recall reports as the reason for skipping the stage):
  //   kIOError           "timeout after <budget> ms" when the budget ran out; unreachable or 5xx
  //                      after the retries; "rerank client: malformed reply: field \"...\": ..."
  //                      for a 2xx reply that is not a valid score list (see the file comment)
  //   kBusy              still 429 after the retries
  //   kInvalidArgument   a 4xx other than 429, with the provider's error text
  // Thread-safe: each call opens its own connection; the object is immutable.
  Result<RerankReply> Rerank(std::string_view query, const std::vector<std::string>& documents) const;

  const RerankClientOptions& options() const { return options_; }

  static constexpr size_t kMaxDocumentChars = 2048;

 private:
  explicit RerankClient(RerankClientOptions options) : options_(std::move(options)) {}
  RerankClientOptions options_;
};

// Checks one reply body against `count` documents; the scores in input order. Exposed for tests.
// Errors: kIOError "rerank client: malformed reply: ..." naming the field.
Result<std::vector<double>> ParseRerankReply(const std::string& body, size_t count);

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_RERANK_CLIENT_H_
