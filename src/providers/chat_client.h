// providers/chat_client.h — a client for OpenAI-compatible chat completion APIs
// (`POST <base_url>/chat/completions`): OpenAI, Ollama, vLLM, llama.cpp server, hosted gateways.
//
// No exception leaves this module: transport, HTTP and JSON failures come back as a Status.
#ifndef ENGRAM_PROVIDERS_CHAT_CLIENT_H_
#define ENGRAM_PROVIDERS_CHAT_CLIENT_H_

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engram/status.h"

namespace engram::providers {

struct ChatClientOptions {
  // Everything before "/chat/completions", with the version path: "http://127.0.0.1:11434/v1",
  // "https://api.openai.com/v1". Schemes http and https (https via httplib's OpenSSL support).
  std::string base_url;
  std::string model;    // sent as "model"; required
  std::string api_key;  // sent as "Authorization: Bearer <api_key>" when not empty
  // Applied separately to connecting, sending and reading one attempt, in ms.
  int timeout_ms = 30000;
  // Extra attempts after the first one for connection errors, timeouts, 429 and 5xx. Never for
  // other 4xx. 0 = a single attempt.
  int max_retries = 2;
  // Wait before retry n (n = 1, 2, ...) is retry_backoff_ms * 2^(n-1), in ms, capped at 30 s.
  int retry_backoff_ms = 500;
  // A 429 or 503 with "Retry-After: <seconds>" waits that long instead when it is at most this
  // many ms; a longer Retry-After ends the retries at once (kBusy / kIOError) so that the caller's
  // job queue reschedules the work. HTTP-date forms of Retry-After fall back to the backoff.
  int max_retry_after_ms = 10000;
  // How a request for structured output is sent: "json_schema" as the caller gives it (OpenAI,
  // vLLM, llama.cpp's llama-server, Ollama); "json_object" turns a {"type":"json_schema"} format
  // into {"type":"json_object"} (JSON mode, for servers that take no schema: llama-cpp-python's
  // server answers json_schema with HTTP 500); "none" sends no response_format (the prompts ask
  // for JSON anyway). Any other value makes Complete fail with kInvalidArgument.
  std::string response_format = "json_schema";
  std::optional<double> temperature;  // sent as "temperature" when set
  int max_tokens = 0;                 // sent as "max_tokens" when > 0
  // How the client waits between attempts (ms). Null = std::this_thread::sleep_for. A test hook:
  // it lets tests observe waits without sleeping.
  std::function<void(int ms)> sleep_for_ms;
};

// Options from the environment:
//   ENGRAM_LLM_BASE_URL  base_url ("http://127.0.0.1:11434/v1")
//   ENGRAM_LLM_MODEL     model ("qwen2.5:7b-instruct")
//   ENGRAM_LLM_API_KEY   api_key (may be unset for local servers)
//   ENGRAM_LLM_RESPONSE_FORMAT  response_format (json_schema, json_object or none)
// Unset variables leave the field empty (other fields keep their defaults); ChatClient::Complete
// reports a missing base_url or model as kInvalidArgument. Thread-safe (reads the environment).
ChatClientOptions ChatClientOptionsFromEnv();

struct ChatMessage {
  std::string role;     // "system", "user" or "assistant"
  std::string content;  // UTF-8 (invalid bytes are sent as U+FFFD)
};

struct ChatResponse {
  std::string content;        // choices[0].message.content; "" when the provider sent null
  std::string finish_reason;  // "stop", "length", ... ("" when absent)
  std::string model;          // the model the provider reports ("" when absent)
  int prompt_tokens = 0;      // usage.prompt_tokens (0 when absent)
  int completion_tokens = 0;  // usage.completion_tokens (0 when absent)
  double latency_ms = 0;      // wall time of the successful attempt, in ms
  int attempts = 0;           // HTTP attempts made, including the successful one (>= 1)
};

class ChatClient {
 public:
  explicit ChatClient(ChatClientOptions options);

  // Sends one chat completion request: {"model", "messages", "stream": false, and
  // "response_format" when `response_format` is not null (e.g. {"type":"json_schema",
  // "json_schema":{...}} or {"type":"json_object"}), "temperature", "max_tokens" when set}.
  // Retries connection errors, timeouts, 429 and 5xx up to options.max_retries times with backoff.
  // Errors:
  //   kInvalidArgument  base_url or model missing or malformed, response_format unknown; a 4xx
  //                     other than 429 (bad request,
  //                     auth, unknown model), the message carrying the provider's error text
  //   kBusy             still 429 after the retries (or Retry-After too long)
  //   kIOError          unreachable, timed out or 5xx after the retries; a 2xx body that is not a
  //                     chat completion
  // Thread-safe: each call opens its own connection; the options are read-only.
  Result<ChatResponse> Complete(const std::vector<ChatMessage>& messages,
                                const nlohmann::json* response_format) const;

  const ChatClientOptions& options() const { return options_; }

 private:
  ChatClientOptions options_;
};

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_CHAT_CLIENT_H_
