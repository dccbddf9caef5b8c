// providers/http_endpoint.h — what every OpenAI-compatible HTTP client of engram shares: parsing
// the base URL, reading the provider's error text and its Retry-After header.
#ifndef ENGRAM_PROVIDERS_HTTP_ENDPOINT_H_
#define ENGRAM_PROVIDERS_HTTP_ENDPOINT_H_

#include <httplib.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "engram/status.h"

namespace engram::providers {

struct Endpoint {
  std::string scheme_host_port;  // "http://127.0.0.1:11434"
  std::string path;              // "/v1/chat/completions"
};

// Splits "http://host:port/v1" into scheme://host:port and the path, appending `suffix`
// ("/chat/completions"). Only http and https. Errors: kInvalidArgument, prefixed with `client`.
Result<Endpoint> ParseEndpoint(std::string_view base_url, std::string_view suffix, std::string_view client);

// Provider text cut to 500 characters for an error message, UTF-8 kept intact.
std::string Shorten(std::string_view text);

// The provider's own error text: {"error":{"message":...}}, {"error":"..."}, {"message":...}, or
// the raw body (shortened).
std::string ProviderErrorText(const std::string& body);

// How PostJsonWithRetries retries (the fields every client's options share).
struct HttpRetryOptions {
  std::string api_key;         // "Authorization: Bearer <api_key>" when not empty
  int timeout_ms = 30000;      // connect, send and read, each, per attempt
  int max_retries = 2;         // extra attempts for connection errors, timeouts, 429 and 5xx
  int retry_backoff_ms = 500;  // wait before retry n is retry_backoff_ms × 2^(n-1), capped at 30 s
  int max_retry_after_ms = 10000;  // a longer Retry-After stops retrying at once
  std::function<void(int ms)> sleep_for_ms;  // test hook; null = real sleep
  // When set, nothing runs past it: each attempt's connect, send and read timeouts are
  // min(timeout_ms, time left), an attempt still running at the deadline is stopped (its socket
  // shut down: a reply trickled byte by byte, each read within the read timeout, is cut there
  // too), and a retry whose wait would end at or after it is not made (the last error is
  // returned, saying so). Null = no deadline (the rerank client sets one from its time budget).
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct PostResult {
  std::string body;  // of the 2xx reply
  int attempts = 0;
  double latency_ms = 0;  // of the successful attempt
};

// POSTs `body` as JSON to `endpoint`, retrying as `options` says. Errors (prefixed with
// `client_name`): kIOError (unreachable, timeout, 5xx after retries), kBusy (429 after retries),
// kInvalidArgument (other 4xx, with the provider's error text); kIOError also when
// options.deadline has passed before an attempt could start. *attempts_made = attempts used.
Result<PostResult> PostJsonWithRetries(const HttpRetryOptions& options, const Endpoint& endpoint,
                                       const std::string& body, std::string_view client_name,
                                       int* attempts_made);

// Retry-After in ms when it is a number of seconds (capped at a day); nullopt for HTTP dates or
// garbage.
std::optional<int> RetryAfterMs(const httplib::Response& res);

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_HTTP_ENDPOINT_H_
