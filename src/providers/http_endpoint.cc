#include "providers/http_endpoint.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>

#include "util/utf8.h"

namespace engram::providers {
namespace {

using nlohmann::json;

constexpr size_t kMaxErrorTextChars = 500;
constexpr int kMaxBackoffMs = 30000;

// Stops `http` once `deadline` has passed, so that no part of an attempt outlives it: httplib's
// timeouts bound each connect, write and read, not their sum, and a server that trickles its reply
// one byte at a time never lets a read time out. httplib's Client::stop() is safe while a request
// is in flight on another thread (it shuts the socket down; the request fails at its next read or
// write). A stop that lands before the request has opened its socket does nothing, so after the
// deadline it is repeated every kRestopMs until the watchdog is dismissed. One thread per attempt,
// joined when the watchdog is destroyed (before `http`: declare it after the client).
class DeadlineWatchdog {
 public:
  static constexpr auto kRestopMs = std::chrono::milliseconds(10);

  DeadlineWatchdog(httplib::Client& http, std::chrono::steady_clock::time_point deadline)
      : thread_([this, &http, deadline] {
          std::unique_lock<std::mutex> lock(mu_);
          if (cv_.wait_until(lock, deadline, [this] { return dismissed_; })) return;
          while (!dismissed_) {
            fired_ = true;
            lock.unlock();
            http.stop();
            lock.lock();
            cv_.wait_for(lock, kRestopMs, [this] { return dismissed_; });
          }
        }) {}

  ~DeadlineWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      dismissed_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  DeadlineWatchdog(const DeadlineWatchdog&) = delete;
  DeadlineWatchdog& operator=(const DeadlineWatchdog&) = delete;

  // True when the deadline passed and the client was stopped.
  bool fired() {
    std::lock_guard<std::mutex> lock(mu_);
    return fired_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool dismissed_ = false;
  bool fired_ = false;
  std::thread thread_;  // last: it starts once the members above exist
};

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
  auto invalid = [&](std::string_view why) {
    // The URL is not echoed whole: it may hold credentials.
    return Error(Status::InvalidArgument(std::string(client) + ": base_url " + std::string(why)));
  };
  if (host_port.empty()) return invalid("has no host");
  if (host_port.find('@') != std::string_view::npos) {
    return invalid("holds credentials (user:password@); pass the key as the API key setting instead");
  }
  if (base_url.find_first_of("?#") != std::string_view::npos) {
    return invalid("holds a query or fragment ('?' or '#'); give scheme://host:port/path only");
  }
  for (char c : base_url) {
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return invalid("holds a space or control character");
  }
  // host, [v6 host] or either with :port (1–65535, digits only).
  size_t host_end = host_port.front() == '[' ? host_port.find(']') : host_port.rfind(':');
  if (host_port.front() == '[' && host_end == std::string_view::npos) return invalid("has an unclosed '[' in its host");
  size_t colon = host_port.front() == '[' ? host_port.find(':', host_end) : host_end;
  if (colon != std::string_view::npos) {
    std::string_view port = host_port.substr(colon + 1);
    int value = 0;
    bool digits = !port.empty() && port.size() <= 5;
    for (char c : port) {
      if (c < '0' || c > '9') digits = false;
      else value = value * 10 + (c - '0');
    }
    if (!digits || value < 1 || value > 65535) return invalid("has a port that is not a number in 1–65535");
    if (colon == 0) return invalid("has no host");
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

Result<PostResult> PostJsonWithRetries(const HttpRetryOptions& options, const Endpoint& endpoint,
                                       const std::string& body, std::string_view client_name,
                                       int* attempts_made) {
  const std::string client_prefix = std::string(client_name) + ": ";
  const int max_attempts = 1 + std::max(0, options.max_retries);
  auto sleep = [&options](int ms) {
    if (ms <= 0) return;
    if (options.sleep_for_ms) {
      options.sleep_for_ms(ms);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
  };

  // Whole ms left before options.deadline (INT_MAX without one).
  auto left_ms = [&options]() -> int64_t {
    if (!options.deadline) return std::numeric_limits<int>::max();
    return std::chrono::duration_cast<std::chrono::milliseconds>(*options.deadline -
                                                                 std::chrono::steady_clock::now())
        .count();
  };

  Status last;
  *attempts_made = 0;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    const int64_t left = left_ms();
    if (left <= 0) {
      if (last.ok()) last = Status::IOError(client_prefix + "the deadline passed before the request was sent");
      return Error(last);
    }
    const int timeout_ms = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(options.timeout_ms, left)));
    const auto timeout = std::chrono::milliseconds(timeout_ms);
    *attempts_made = attempt;
    std::optional<int> retry_after_ms;
    try {
      httplib::Client http(endpoint.scheme_host_port);
      http.set_connection_timeout(timeout);
      http.set_read_timeout(timeout);
      http.set_write_timeout(timeout);
      http.set_keep_alive(false);
      // Redirects are not followed: a 3xx to another host would carry the API key and the
      // request (memories) there. Point base_url at the final address instead.
      http.set_follow_location(false);
      httplib::Headers headers = {{"Accept", "application/json"}};
      if (!options.api_key.empty()) headers.emplace("Authorization", "Bearer " + options.api_key);
      auto start = std::chrono::steady_clock::now();
      std::optional<DeadlineWatchdog> watchdog;
      if (options.deadline) watchdog.emplace(http, *options.deadline);
      httplib::Result res = http.Post(endpoint.path, headers, body, "application/json");
      const bool stopped = watchdog && watchdog->fired();
      watchdog.reset();
      double latency_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (stopped) {
        // Whatever came back (a read error, or a reply cut short), it came after the deadline.
        last = Status::IOError(client_prefix + endpoint.scheme_host_port + endpoint.path +
                               ": stopped at the deadline (" + std::to_string(timeout_ms) +
                               " ms left when the attempt started)");
      } else if (!res) {
        last = Status::IOError(client_prefix + endpoint.scheme_host_port + endpoint.path +
                               ": " + httplib::to_string(res.error()) + " (timeout " +
                               std::to_string(timeout_ms) + " ms)");
      } else if (res->status >= 200 && res->status < 300) {
        return PostResult{std::move(res->body), attempt, latency_ms};
      } else if (res->status == 429) {
        last = Status::Busy(client_prefix + "rate limited (HTTP 429): " +
                            ProviderErrorText(res->body));
        retry_after_ms = RetryAfterMs(*res);
      } else if (res->status >= 500) {
        last = Status::IOError(client_prefix + "HTTP " + std::to_string(res->status) + ": " +
                               ProviderErrorText(res->body));
        retry_after_ms = RetryAfterMs(*res);
      } else if (res->status >= 400) {
        return Error(Status::InvalidArgument(client_prefix + "HTTP " +
                                             std::to_string(res->status) + ": " +
                                             ProviderErrorText(res->body)));
      } else if (res->status >= 300 && res->status < 400) {
        return Error(Status::InvalidArgument(
            client_prefix + "HTTP " + std::to_string(res->status) + " redirect to \"" +
            Shorten(res->get_header_value("Location")) +
            "\" is not followed (it would send the API key and the request there); set base_url "
            "to the final address"));
      } else {
        return Error(Status::IOError(client_prefix + "unexpected HTTP " +
                                     std::to_string(res->status) + ": " +
                                     ProviderErrorText(res->body)));
      }
    } catch (const std::exception& e) {
      last = Status::IOError(client_prefix + e.what());
    }

    if (attempt == max_attempts) break;
    int wait_ms = 0;
    if (retry_after_ms) {
      if (*retry_after_ms > options.max_retry_after_ms) {
        return Error(last.WithContext("Retry-After " + std::to_string(*retry_after_ms) +
                                      " ms exceeds the limit; not retrying"));
      }
      wait_ms = *retry_after_ms;
    } else {
      double backoff =
          static_cast<double>(std::max(0, options.retry_backoff_ms)) * std::pow(2.0, attempt - 1);
      wait_ms = static_cast<int>(std::min<double>(backoff, kMaxBackoffMs));
    }
    if (options.deadline && left_ms() <= 0) {  // this attempt ran into the deadline
      return Error(last.WithContext("after " + std::to_string(attempt) + " attempt(s)"));
    }
    if (options.deadline && wait_ms >= left_ms()) {
      return Error(last.WithContext("no time left before the deadline for a retry, after " +
                                    std::to_string(attempt) + " attempt(s)"));
    }
    spdlog::debug("{}attempt {}/{} failed ({}); retrying in {} ms", client_prefix, attempt,
                  max_attempts, last.ToString(), wait_ms);
    sleep(wait_ms);
  }
  return Error(last.WithContext("after " + std::to_string(max_attempts) + " attempt(s)"));
}


}  // namespace engram::providers
