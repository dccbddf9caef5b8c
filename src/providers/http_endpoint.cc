#include "providers/http_endpoint.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "util/utf8.h"

namespace engram::providers {
namespace {

using nlohmann::json;

constexpr size_t kMaxErrorTextChars = 500;

}  // namespace

Result<Endpoint> ParseEndpoint(std::string_view base_url, std::string_view suffix,
                               std::string_view client) {
  size_t sep = base_url.find("://");
  if (sep == std::string_view::npos) {
    return Error(
        Status::InvalidArgument(std::string(client) + ": base_url \"" + std::string(base_url) +
                                "\" has no scheme (expected http://host:port/v1 or https://...)"));
  }
  std::string scheme(base_url.substr(0, sep));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "http" && scheme != "https") {
    return Error(Status::InvalidArgument(std::string(client) + ": base_url scheme \"" + scheme +
                                         "\" is not supported (expected http or https)"));
  }
  std::string_view rest = base_url.substr(sep + 3);
  size_t slash = rest.find('/');
  std::string_view host_port = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (host_port.empty()) {
    return Error(Status::InvalidArgument(std::string(client) + ": base_url \"" + std::string(base_url) +
                                         "\" has no host"));
  }
  Endpoint endpoint;
  endpoint.scheme_host_port = scheme + "://" + std::string(host_port);
  endpoint.path = std::string(path) + std::string(suffix);
  return endpoint;
}

// Cuts provider text for an error message, keeping UTF-8 intact.
std::string Shorten(std::string_view text) {
  if (IsValidUtf8(text)) return TruncateCodePoints(text, kMaxErrorTextChars);
  return std::string(text.substr(0, kMaxErrorTextChars));
}

// The provider's own error text: {"error":{"message":...}}, {"error":"..."}, {"message":...}, or
// the raw body.
std::string ProviderErrorText(const std::string& body) {
  json doc = json::parse(body, nullptr, false);
  if (!doc.is_discarded() && doc.is_object()) {
    auto error = doc.find("error");
    if (error != doc.end()) {
      if (error->is_string()) return Shorten(error->get<std::string>());
      if (error->is_object()) {
        auto message = error->find("message");
        if (message != error->end() && message->is_string()) {
          return Shorten(message->get<std::string>());
        }
      }
    }
    auto message = doc.find("message");
    if (message != doc.end() && message->is_string()) return Shorten(message->get<std::string>());
  }
  if (body.empty()) return "(empty body)";
  return Shorten(body);
}

// Retry-After in ms when it is a number of seconds; nullopt for HTTP dates or garbage.
std::optional<int> RetryAfterMs(const httplib::Response& res) {
  if (!res.has_header("Retry-After")) return std::nullopt;
  std::string value = res.get_header_value("Retry-After");
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  double seconds = std::strtod(value.c_str(), &end);
  while (end != nullptr && *end == ' ') ++end;
  if (end == nullptr || *end != '\0' || !std::isfinite(seconds) || seconds < 0) return std::nullopt;
  if (seconds > 86400) return 86400 * 1000;
  return static_cast<int>(std::lround(seconds * 1000));
}

}  // namespace engram::providers
