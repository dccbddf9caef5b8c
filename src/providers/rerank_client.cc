#include "providers/rerank_client.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <utility>

#include "providers/http_endpoint.h"
#include "util/utf8.h"

namespace engram::providers {
namespace {

using nlohmann::json;

constexpr int kMaxPool = 100;  // at most RecallWeights::window_pool: a bigger candidate list
                               // would change the fused order the stage falls back to
constexpr int kMaxBudgetMs = 60000;
constexpr const char* kClient = "rerank client";

// The value of an integer setting: `text` whole, within [lo, hi].
Result<int> ParseBoundedInt(std::string_view text, int lo, int hi, const std::string& name) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Error(Status::InvalidArgument(fmt::format("{}: \"{}\" is not an integer", name, text)));
  }
  if (value < lo || value > hi) {
    return Error(Status::InvalidArgument(
        fmt::format("{}: {} is out of range (expected {}–{})", name, value, lo, hi)));
  }
  return value;
}

Status CheckRange(int value, int lo, int hi, const std::string& name) {
  if (value >= lo && value <= hi) return Status::Ok();
  return Status::InvalidArgument(fmt::format("{}: {} is out of range (expected {}–{})", name, value, lo, hi));
}

const char* Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

Status Malformed(const std::string& what) {
  return Status::IOError(std::string(kClient) + ": malformed reply: " + what);
}

// The checks of every field (base_url only when set).
Status ValidateFields(const RerankOptions& o) {
  ENGRAM_RETURN_IF_ERROR(CheckRange(o.pool, 1, kMaxPool, "field \"rerank.pool\""));
  ENGRAM_RETURN_IF_ERROR(CheckRange(o.budget_ms, 1, kMaxBudgetMs, "field \"rerank.budget_ms\""));
  if (o.format != "cohere" && o.format != "tei") {
    return Status::InvalidArgument(fmt::format(
        "field \"rerank.format\": unknown value \"{}\" (expected one of: cohere, tei)", o.format));
  }
  if (!o.base_url.empty()) {
    auto endpoint = ParseEndpoint(o.base_url, "/rerank", "field \"rerank.base_url\"");
    if (!endpoint) return endpoint.error();
  }
  return Status::Ok();
}

}  // namespace

Result<RerankOptions> ResolveRerankOptions(const RerankOptions& given) {
  RerankOptions o = given;
  if (const char* v = Env("ENGRAM_RERANK_BASE_URL")) {
    auto endpoint = ParseEndpoint(v, "/rerank", "$ENGRAM_RERANK_BASE_URL");
    if (!endpoint) return Error(endpoint.error());
    o.base_url = v;
  }
  if (const char* v = Env("ENGRAM_RERANK_MODEL")) o.model = v;
  if (const char* v = Env("ENGRAM_RERANK_API_KEY")) o.api_key = v;
  if (const char* v = Env("ENGRAM_RERANK_FORMAT")) {
    o.format = v;
    if (o.format != "cohere" && o.format != "tei") {
      return Error(Status::InvalidArgument(
          fmt::format("$ENGRAM_RERANK_FORMAT: unknown value \"{}\" (expected one of: cohere, tei)", o.format)));
    }
  }
  if (const char* v = Env("ENGRAM_RERANK_POOL")) {
    auto n = ParseBoundedInt(v, 1, kMaxPool, "$ENGRAM_RERANK_POOL");
    if (!n) return Error(n.error());
    o.pool = *n;
  }
  if (const char* v = Env("ENGRAM_RERANK_BUDGET_MS")) {
    auto n = ParseBoundedInt(v, 1, kMaxBudgetMs, "$ENGRAM_RERANK_BUDGET_MS");
    if (!n) return Error(n.error());
    o.budget_ms = *n;
  }
  ENGRAM_RETURN_IF_ERROR(ValidateFields(o));
  return o;
}

Result<std::vector<double>> ParseRerankReply(const std::string& body, size_t count) {
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) return Error(Malformed("not JSON: " + Shorten(body)));
  const json* list = nullptr;
  std::string list_name;
  std::string score_field;
  if (doc.is_array()) {  // TEI
    list = &doc;
    list_name = "";
    score_field = "score";
  } else if (doc.is_object()) {  // Cohere, vLLM, llama.cpp, ...
    auto results = doc.find("results");
    if (results == doc.end()) return Error(Malformed("field \"results\" is missing"));
    if (!results->is_array()) return Error(Malformed("field \"results\" is not a list"));
    list = &*results;
    list_name = "results";
    score_field = "relevance_score";
  } else {
    return Error(Malformed("not a JSON object or list: " + Shorten(body)));
  }
  if (list->size() != count) {
    return Error(Malformed(fmt::format("field \"{}\" has {} entries for {} documents",
                                       list_name.empty() ? "(list)" : list_name, list->size(), count)));
  }
  std::vector<double> scores(count, 0.0);
  std::vector<bool> seen(count, false);
  for (size_t k = 0; k < list->size(); ++k) {
    const std::string at = fmt::format("{}[{}]", list_name, k);
    const json& entry = (*list)[k];
    if (!entry.is_object()) return Error(Malformed(fmt::format("field \"{}\" is not an object", at)));
    auto index = entry.find("index");
    if (index == entry.end()) return Error(Malformed(fmt::format("field \"{}.index\" is missing", at)));
    if (!index->is_number_integer()) {
      return Error(Malformed(fmt::format("field \"{}.index\" is not an integer: {}", at, Shorten(index->dump()))));
    }
    if (index->is_number_unsigned() ? index->get<uint64_t>() >= count : true) {
      return Error(Malformed(fmt::format("field \"{}.index\": {} is out of range ({} documents)", at,
                                         index->dump(), count)));
    }
    const size_t i = static_cast<size_t>(index->get<uint64_t>());
    if (seen[i]) return Error(Malformed(fmt::format("field \"{}.index\": {} appears twice", at, i)));
    seen[i] = true;
    auto score = entry.find(score_field);
    if (score == entry.end()) {
      return Error(Malformed(fmt::format("field \"{}.{}\" is missing", at, score_field)));
    }
    if (!score->is_number()) {
      return Error(Malformed(fmt::format("field \"{}.{}\" is not a number: {}", at, score_field,
                                         Shorten(score->dump(-1, ' ', false, json::error_handler_t::replace)))));
    }
    const double s = score->get<double>();
    if (!std::isfinite(s)) {
      return Error(Malformed(fmt::format("field \"{}.{}\" is not finite", at, score_field)));
    }
    scores[i] = s;
  }
  return scores;
}

Result<std::unique_ptr<RerankClient>> RerankClient::Create(RerankClientOptions options) {
  // The values as given: the environment is the engine's business (ResolveRerankOptions).
  ENGRAM_RETURN_IF_ERROR(ValidateFields(options.endpoint));
  if (options.endpoint.base_url.empty()) {
    return Error(Status::InvalidArgument("field \"rerank.base_url\": empty (set ENGRAM_RERANK_BASE_URL)"));
  }
  if (options.max_retries < 0) options.max_retries = 0;
  return std::unique_ptr<RerankClient>(new RerankClient(std::move(options)));
}

Result<RerankReply> RerankClient::Rerank(std::string_view query,
                                         const std::vector<std::string>& documents) const {
  const auto started = std::chrono::steady_clock::now();
  RerankReply reply;
  if (documents.empty()) return reply;
  const RerankOptions& o = options_.endpoint;
  auto endpoint = ParseEndpoint(o.base_url, "/rerank", kClient);
  if (!endpoint) return Error(endpoint.error());
  std::string body;
  try {
    json docs = json::array();
    for (const std::string& d : documents) docs.push_back(TruncateCodePoints(d, kMaxDocumentChars));
    json request = json::object();
    if (o.format == "tei") {
      request["query"] = std::string(query);
      request["texts"] = std::move(docs);
      request["truncate"] = true;
    } else {
      if (!o.model.empty()) request["model"] = o.model;
      request["query"] = std::string(query);
      request["documents"] = std::move(docs);
      request["top_n"] = documents.size();
    }
    body = request.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const std::exception& e) {
    return Error(Status::Internal(std::string(kClient) + ": cannot encode request: " + e.what()));
  }
  HttpRetryOptions retry;
  retry.api_key = o.api_key;
  retry.timeout_ms = o.budget_ms;
  retry.max_retries = options_.max_retries;
  retry.retry_backoff_ms = options_.retry_backoff_ms;
  retry.max_retry_after_ms = o.budget_ms;
  retry.sleep_for_ms = options_.sleep_for_ms;
  retry.deadline = started + std::chrono::milliseconds(o.budget_ms);
  auto posted = PostJsonWithRetries(retry, *endpoint, body, kClient, &reply.attempts);
  reply.took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (!posted) {
    // A transport failure at (or within a few ms of) the deadline is the budget running out; a
    // retry given up for lack of time says so itself (with the error that needed the retry).
    const bool gave_up_retry = posted.error().message().rfind("no time left", 0) == 0;
    if (posted.error().code() == StatusCode::kIOError && !gave_up_retry && reply.took_ms >= o.budget_ms - 5.0) {
      return Error(Status::IOError(fmt::format("timeout after {} ms ({} attempt(s))", o.budget_ms, reply.attempts)));
    }
    return Error(posted.error());
  }
  try {
    auto scores = ParseRerankReply(posted->body, documents.size());
    if (!scores) return Error(scores.error());
    reply.scores = std::move(*scores);
  } catch (const std::exception& e) {
    return Error(Malformed(e.what()));
  }
  return reply;
}

}  // namespace engram::providers
