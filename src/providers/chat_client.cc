#include "providers/chat_client.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>
#include <utility>

#include "providers/http_endpoint.h"
#include "util/utf8.h"

namespace engram::providers {
namespace {

using nlohmann::json;

constexpr int kMaxBackoffMs = 30000;

std::string Dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

int IntField(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return 0;
  return static_cast<int>(it->get<double>());
}

std::string StringField(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

Result<ChatResponse> ParseCompletion(const std::string& body) {
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Error(Status::IOError("chat client: response is not a JSON object: " + Shorten(body)));
  }
  auto choices = doc.find("choices");
  if (choices == doc.end() || !choices->is_array() || choices->empty() ||
      !(*choices)[0].is_object()) {
    return Error(Status::IOError("chat client: response has no choices: " + Shorten(body)));
  }
  const json& choice = (*choices)[0];
  ChatResponse response;
  auto message = choice.find("message");
  if (message != choice.end() && message->is_object()) {
    response.content = StringField(*message, "content");
  } else {
    // Legacy completion shape.
    response.content = StringField(choice, "text");
  }
  response.finish_reason = StringField(choice, "finish_reason");
  response.model = StringField(doc, "model");
  auto usage = doc.find("usage");
  if (usage != doc.end() && usage->is_object()) {
    response.prompt_tokens = IntField(*usage, "prompt_tokens");
    response.completion_tokens = IntField(*usage, "completion_tokens");
  }
  return response;
}

}  // namespace

ChatClientOptions ChatClientOptionsFromEnv() {
  ChatClientOptions options;
  if (const char* v = std::getenv("ENGRAM_LLM_BASE_URL")) options.base_url = v;
  if (const char* v = std::getenv("ENGRAM_LLM_MODEL")) options.model = v;
  if (const char* v = std::getenv("ENGRAM_LLM_API_KEY")) options.api_key = v;
  return options;
}

ChatClient::ChatClient(ChatClientOptions options) : options_(std::move(options)) {}

Result<ChatResponse> ChatClient::Complete(const std::vector<ChatMessage>& messages,
                                          const nlohmann::json* response_format) const {
  if (options_.model.empty()) {
    return Error(Status::InvalidArgument("chat client: model is empty (set ENGRAM_LLM_MODEL)"));
  }
  if (options_.base_url.empty()) {
    return Error(
        Status::InvalidArgument("chat client: base_url is empty (set ENGRAM_LLM_BASE_URL)"));
  }
  if (messages.empty()) {
    return Error(Status::InvalidArgument("chat client: no messages"));
  }
  auto endpoint = ParseEndpoint(options_.base_url, "/chat/completions", "chat client");
  if (!endpoint) return Error(endpoint.error());

  std::string body;
  try {
    json request = {{"model", options_.model}, {"stream", false}};
    json& out = request["messages"] = json::array();
    for (const ChatMessage& m : messages) out.push_back({{"role", m.role}, {"content", m.content}});
    if (response_format != nullptr && !response_format->is_null()) {
      request["response_format"] = *response_format;
    }
    if (options_.temperature) request["temperature"] = *options_.temperature;
    if (options_.max_tokens > 0) request["max_tokens"] = options_.max_tokens;
    body = Dump(request);
  } catch (const std::exception& e) {
    return Error(Status::Internal(std::string("chat client: cannot encode request: ") + e.what()));
  }

  const int timeout_ms = std::max(1, options_.timeout_ms);
  const auto timeout = std::chrono::milliseconds(timeout_ms);
  const int max_attempts = 1 + std::max(0, options_.max_retries);
  auto sleep = [this](int ms) {
    if (ms <= 0) return;
    if (options_.sleep_for_ms) {
      options_.sleep_for_ms(ms);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
  };

  Status last;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    std::optional<int> retry_after_ms;
    try {
      httplib::Client client(endpoint->scheme_host_port);
      client.set_connection_timeout(timeout);
      client.set_read_timeout(timeout);
      client.set_write_timeout(timeout);
      client.set_keep_alive(false);
      client.set_follow_location(true);
      httplib::Headers headers = {{"Accept", "application/json"}};
      if (!options_.api_key.empty()) {
        headers.emplace("Authorization", "Bearer " + options_.api_key);
      }
      auto start = std::chrono::steady_clock::now();
      httplib::Result res = client.Post(endpoint->path, headers, body, "application/json");
      double latency_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (!res) {
        last = Status::IOError("chat client: " + endpoint->scheme_host_port + endpoint->path +
                               ": " + httplib::to_string(res.error()) + " (timeout " +
                               std::to_string(timeout_ms) + " ms)");
      } else if (res->status >= 200 && res->status < 300) {
        auto parsed = ParseCompletion(res->body);
        if (!parsed) return parsed;
        parsed->latency_ms = latency_ms;
        parsed->attempts = attempt;
        return parsed;
      } else if (res->status == 429) {
        last =
            Status::Busy("chat client: rate limited (HTTP 429): " + ProviderErrorText(res->body));
        retry_after_ms = RetryAfterMs(*res);
      } else if (res->status >= 500) {
        last = Status::IOError("chat client: HTTP " + std::to_string(res->status) + ": " +
                               ProviderErrorText(res->body));
        retry_after_ms = RetryAfterMs(*res);
      } else if (res->status >= 400) {
        return Error(Status::InvalidArgument("chat client: HTTP " + std::to_string(res->status) +
                                             ": " + ProviderErrorText(res->body)));
      } else {
        return Error(Status::IOError("chat client: unexpected HTTP " + std::to_string(res->status) +
                                     ": " + ProviderErrorText(res->body)));
      }
    } catch (const std::exception& e) {
      last = Status::IOError(std::string("chat client: ") + e.what());
    }

    if (attempt == max_attempts) break;
    int wait_ms = 0;
    if (retry_after_ms) {
      if (*retry_after_ms > options_.max_retry_after_ms) {
        return Error(last.WithContext("Retry-After " + std::to_string(*retry_after_ms) +
                                      " ms exceeds the limit; not retrying"));
      }
      wait_ms = *retry_after_ms;
    } else {
      double backoff =
          static_cast<double>(std::max(0, options_.retry_backoff_ms)) * std::pow(2.0, attempt - 1);
      wait_ms = static_cast<int>(std::min<double>(backoff, kMaxBackoffMs));
    }
    spdlog::debug("chat client: attempt {}/{} failed ({}); retrying in {} ms", attempt,
                  max_attempts, last.ToString(), wait_ms);
    sleep(wait_ms);
  }
  return Error(last.WithContext("after " + std::to_string(max_attempts) + " attempt(s)"));
}

}  // namespace engram::providers
