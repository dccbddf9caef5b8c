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
  if (const char* v = std::getenv("ENGRAM_LLM_RESPONSE_FORMAT"); v != nullptr && *v != '\0') options.response_format = v;
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
  const std::string& mode = options_.response_format;
  if (mode != "json_schema" && mode != "json_object" && mode != "none") {
    return Error(Status::InvalidArgument("chat client: response_format must be json_schema, json_object or none "
                                         "(ENGRAM_LLM_RESPONSE_FORMAT), not \"" + mode + "\""));
  }
  auto endpoint = ParseEndpoint(options_.base_url, "/chat/completions", "chat client");
  if (!endpoint) return Error(endpoint.error());

  std::string body;
  try {
    json request = {{"model", options_.model}, {"stream", false}};
    json& out = request["messages"] = json::array();
    for (const ChatMessage& m : messages) out.push_back({{"role", m.role}, {"content", m.content}});
    if (response_format != nullptr && !response_format->is_null() && mode != "none") {
      const bool schema = response_format->is_object() && response_format->value("type", "") == "json_schema";
      request["response_format"] = schema && mode == "json_object" ? json{{"type", "json_object"}} : *response_format;
    }
    if (options_.temperature) request["temperature"] = *options_.temperature;
    if (options_.max_tokens > 0) request["max_tokens"] = options_.max_tokens;
    body = Dump(request);
  } catch (const std::exception& e) {
    return Error(Status::Internal(std::string("chat client: cannot encode request: ") + e.what()));
  }

  HttpRetryOptions retry{options_.api_key,        options_.timeout_ms,         options_.max_retries,
                         options_.retry_backoff_ms, options_.max_retry_after_ms, options_.sleep_for_ms,
                         std::nullopt};
  int attempts = 0;
  auto posted = PostJsonWithRetries(retry, *endpoint, body, "chat client", &attempts);
  if (!posted) return Error(posted.error());
  auto parsed = ParseCompletion(posted->body);
  if (!parsed) return parsed;
  parsed->latency_ms = posted->latency_ms;
  parsed->attempts = posted->attempts;
  return parsed;
}

}  // namespace engram::providers
