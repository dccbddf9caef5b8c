#include "providers/openai_embedder.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>

#include "providers/http_endpoint.h"
#include "util/utf8.h"

namespace engram::providers {
namespace {

using nlohmann::json;

HttpRetryOptions RetryOptionsOf(const OpenAiEmbedderOptions& o) {
  return {o.api_key, o.timeout_ms, o.max_retries, o.retry_backoff_ms, o.max_retry_after_ms, o.sleep_for_ms,
          std::nullopt};
}

constexpr const char* kProbeText = "dimension probe";

struct ParsedEmbeddings {
  std::vector<std::vector<float>> vectors;  // in input order
  int64_t prompt_tokens = 0;
};

// Parses {"data":[{"index":i,"embedding":[...]}, ...], "usage":{...}} for `count` inputs.
Result<ParsedEmbeddings> ParseEmbeddings(const std::string& body, size_t count) {
  auto bad = [&](const std::string& what) {
    return Error(Status::IOError("embeddings client: " + what + ": " + Shorten(body)));
  };
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return bad("response is not a JSON object");
  auto data = doc.find("data");
  if (data == doc.end() || !data->is_array()) return bad("response has no \"data\" list");
  if (data->size() != count) {
    return bad("response has " + std::to_string(data->size()) + " embeddings for " +
               std::to_string(count) + " inputs");
  }
  ParsedEmbeddings parsed;
  parsed.vectors.resize(count);
  std::vector<bool> filled(count, false);
  size_t dim = 0;
  for (size_t k = 0; k < data->size(); ++k) {
    const json& item = (*data)[k];
    if (!item.is_object()) return bad("data[" + std::to_string(k) + "] is not an object");
    size_t index = k;
    auto idx = item.find("index");
    if (idx != item.end()) {
      if (!idx->is_number_unsigned() || idx->get<uint64_t>() >= count) {
        return bad("data[" + std::to_string(k) + "].index is not an input position");
      }
      index = static_cast<size_t>(idx->get<uint64_t>());
    }
    if (filled[index]) return bad("index " + std::to_string(index) + " appears twice");
    filled[index] = true;
    auto embedding = item.find("embedding");
    if (embedding == item.end() || !embedding->is_array() || embedding->empty()) {
      return bad("data[" + std::to_string(k) +
                 "].embedding is not a list of numbers (base64 replies are not supported)");
    }
    if (dim == 0) dim = embedding->size();
    if (embedding->size() != dim) {
      return bad("data[" + std::to_string(k) + "] has " + std::to_string(embedding->size()) +
                 " dimensions, data[0] has " + std::to_string(dim));
    }
    std::vector<float>& v = parsed.vectors[index];
    v.reserve(dim);
    for (const json& x : *embedding) {
      if (!x.is_number())
        return bad("data[" + std::to_string(k) + "].embedding holds a non-number");
      v.push_back(x.get<float>());
    }
    L2Normalize(v);
  }
  auto usage = doc.find("usage");
  if (usage != doc.end() && usage->is_object()) {
    auto tokens = usage->find("prompt_tokens");
    if (tokens != usage->end() && tokens->is_number()) {
      parsed.prompt_tokens = static_cast<int64_t>(tokens->get<double>());
    }
  }
  return parsed;
}

}  // namespace

OpenAiEmbedderOptions OpenAiEmbedderOptionsFromEnv() {
  OpenAiEmbedderOptions options;
  if (const char* v = std::getenv("ENGRAM_EMBED_BASE_URL")) options.base_url = v;
  if (const char* v = std::getenv("ENGRAM_EMBED_MODEL")) options.model = v;
  if (const char* v = std::getenv("ENGRAM_EMBED_API_KEY")) options.api_key = v;
  return options;
}

OpenAiEmbedder::OpenAiEmbedder(OpenAiEmbedderOptions options) : options_(std::move(options)) {}

std::string OpenAiEmbedder::ModelId() const {
  std::string id = "openai:" + options_.model;
  if (options_.dimensions > 0) id += ":dim=" + std::to_string(options_.dimensions);
  return id;
}

int OpenAiEmbedder::Dimension() const {
  if (options_.dimensions > 0) return options_.dimensions;
  if (options_.expected_dimension > 0) return options_.expected_dimension;
  return learned_dimension_.load();
}

EmbeddingUsage OpenAiEmbedder::usage() const {
  std::lock_guard<std::mutex> lock(mu_);
  return usage_;
}

Status OpenAiEmbedder::CheckDimension(int dim) {
  int expected = options_.dimensions > 0 ? options_.dimensions : options_.expected_dimension;
  const char* source =
      options_.dimensions > 0 ? "the configured dimensions" : "the expected dimension";
  if (expected <= 0) {
    int unset = 0;
    if (learned_dimension_.compare_exchange_strong(unset, dim)) return Status::Ok();
    expected = unset;  // the value another reply fixed
    source = "earlier replies";
  }
  if (dim == expected) return Status::Ok();
  return Status::InvalidArgument("embeddings client: model \"" + options_.model + "\" returned " +
                                 std::to_string(dim) + "-dimensional vectors, but " + source +
                                 " say " + std::to_string(expected) +
                                 " (the model changed: re-embed with `engram reindex`)");
}

Result<std::vector<std::vector<float>>> OpenAiEmbedder::EmbedBatch(
    const std::vector<const std::string*>& texts) {
  auto endpoint = ParseEndpoint(options_.base_url, "/embeddings", "embeddings client");
  if (!endpoint) return Error(endpoint.error());
  std::string body;
  try {
    json request = {{"model", options_.model}};
    json& input = request["input"] = json::array();
    for (const std::string* t : texts) input.push_back(*t);
    if (options_.dimensions > 0) request["dimensions"] = options_.dimensions;
    body = request.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const std::exception& e) {
    return Error(
        Status::Internal(std::string("embeddings client: cannot encode request: ") + e.what()));
  }
  int attempts = 0;
  auto posted = PostJsonWithRetries(RetryOptionsOf(options_), *endpoint, body, "embeddings client", &attempts);
  {
    std::lock_guard<std::mutex> lock(mu_);
    usage_.attempts += attempts;
  }
  if (!posted) return Error(posted.error());
  ParsedEmbeddings parsed;
  try {
    auto result = ParseEmbeddings(posted->body, texts.size());
    if (!result) return Error(result.error());
    parsed = std::move(*result);
  } catch (const std::exception& e) {
    return Error(Status::IOError(std::string("embeddings client: bad reply: ") + e.what()));
  }
  ENGRAM_RETURN_IF_ERROR(CheckDimension(static_cast<int>(parsed.vectors[0].size())));
  {
    std::lock_guard<std::mutex> lock(mu_);
    usage_.requests += 1;
    usage_.texts += static_cast<int64_t>(texts.size());
    usage_.prompt_tokens += parsed.prompt_tokens;
    usage_.latency_ms += posted->latency_ms;
  }
  return std::move(parsed.vectors);
}

Result<std::vector<std::vector<float>>> OpenAiEmbedder::Embed(
    const std::vector<std::string>& texts) {
  if (options_.model.empty()) {
    return Error(
        Status::InvalidArgument("embeddings client: model is empty (set ENGRAM_EMBED_MODEL)"));
  }
  if (options_.base_url.empty()) {
    return Error(Status::InvalidArgument(
        "embeddings client: base_url is empty (set ENGRAM_EMBED_BASE_URL)"));
  }
  if (options_.batch_size < 1) {
    return Error(Status::InvalidArgument("embeddings client: batch_size must be at least 1"));
  }
  auto endpoint = ParseEndpoint(options_.base_url, "/embeddings", "embeddings client");
  if (!endpoint) return Error(endpoint.error());

  std::vector<std::vector<float>> out(texts.size());
  std::vector<size_t> to_send;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (!IsBlank(texts[i])) to_send.push_back(i);
  }
  const size_t batch = static_cast<size_t>(options_.batch_size);
  for (size_t start = 0; start < to_send.size(); start += batch) {
    const size_t end = std::min(to_send.size(), start + batch);
    std::vector<const std::string*> chunk;
    chunk.reserve(end - start);
    for (size_t k = start; k < end; ++k) chunk.push_back(&texts[to_send[k]]);
    auto vectors = EmbedBatch(chunk);
    if (!vectors) {
      if (to_send.size() <= batch) return Error(vectors.error());
      return Error(
          vectors.error().WithContext("batch " + std::to_string(start / batch + 1) + "/" +
                                      std::to_string((to_send.size() + batch - 1) / batch)));
    }
    for (size_t k = start; k < end; ++k) out[to_send[k]] = std::move((*vectors)[k - start]);
  }
  if (to_send.size() < texts.size()) {
    auto dim = DetectDimension();
    if (!dim) return Error(dim.error());
    for (std::vector<float>& v : out) {
      if (v.empty()) v.assign(static_cast<size_t>(*dim), 0.0f);
    }
  }
  return out;
}

Result<int> OpenAiEmbedder::DetectDimension() {
  int dim = Dimension();
  if (dim > 0) return dim;
  const std::string probe = kProbeText;
  auto vectors = Embed({probe});
  if (!vectors) return Error(vectors.error());
  return Dimension();
}

}  // namespace engram::providers
