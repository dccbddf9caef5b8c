// providers/http_endpoint.h — what every OpenAI-compatible HTTP client of engram shares: parsing
// the base URL, reading the provider's error text and its Retry-After header.
#ifndef ENGRAM_PROVIDERS_HTTP_ENDPOINT_H_
#define ENGRAM_PROVIDERS_HTTP_ENDPOINT_H_

#include <httplib.h>

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

// Retry-After in ms when it is a number of seconds (capped at a day); nullopt for HTTP dates or
// garbage.
std::optional<int> RetryAfterMs(const httplib::Response& res);

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_HTTP_ENDPOINT_H_
