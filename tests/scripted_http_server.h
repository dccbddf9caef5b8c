// tests/scripted_http_server.h — a local HTTP server for testing engram's provider clients
// (rerank and chat; the embeddings and LLM-extractor tests still have their own copies):
//
//   ScriptedHttpServer server({{200, R"({"results":[...]})"}, {500, "boom"}});  // in order
//   ScriptedHttpServer server([](const RecordedRequest& r) { return ScriptedReply{...}; });
//   options.base_url = server.base_url();   // "http://127.0.0.1:<port>/v1"
//   server.requests();                       // what was POSTed, in order
//
//   ScriptedReply slow{200, body}; slow.trickle_ms = 100;  // the body one byte every 100 ms
//
// Binds 127.0.0.1 on a port the OS picks: no network. A request beyond the script gets a 500.
// ChatCompletionReply(content) is a chat completion whose answer is `content`.
// Header-only (every test file is its own binary).
#ifndef ENGRAM_TESTS_SCRIPTED_HTTP_SERVER_H_
#define ENGRAM_TESTS_SCRIPTED_HTTP_SERVER_H_

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace engram::test {

struct ScriptedReply {
  ScriptedReply() = default;
  // {status, body}, {status, body, delay_ms}, {status, body, delay_ms, headers}.
  ScriptedReply(int status_code, std::string reply_body, int delay = 0,
                std::vector<std::pair<std::string, std::string>> reply_headers = {})
      : status(status_code),
        body(std::move(reply_body)),
        delay_ms(delay),
        headers(std::move(reply_headers)) {}

  int status = 200;
  std::string body;
  int delay_ms = 0;  // the handler sleeps this long before answering
  // > 0: the headers (with Content-Length) go out at once, then the body one byte every
  // trickle_ms ms, until it is all sent, the client hangs up or the server is destroyed.
  int trickle_ms = 0;
  std::vector<std::pair<std::string, std::string>> headers;
};

struct RecordedRequest {
  std::string path;
  std::string body;
  std::string authorization;
};

class ScriptedHttpServer {
 public:
  using Responder = std::function<ScriptedReply(const RecordedRequest&)>;

  explicit ScriptedHttpServer(std::vector<ScriptedReply> replies)
      : ScriptedHttpServer(nullptr, std::move(replies)) {}
  explicit ScriptedHttpServer(Responder responder) : ScriptedHttpServer(std::move(responder), {}) {}

  ~ScriptedHttpServer() {
    stopping_ = true;  // a trickle in progress ends at its next byte
    server_.stop();
    thread_.join();
  }

  ScriptedHttpServer(const ScriptedHttpServer&) = delete;
  ScriptedHttpServer& operator=(const ScriptedHttpServer&) = delete;

  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::vector<RecordedRequest> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  ScriptedHttpServer(Responder responder, std::vector<ScriptedReply> replies)
      : responder_(std::move(responder)), replies_(std::move(replies)) {
    server_.Post(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      RecordedRequest recorded{req.path, req.body, req.get_header_value("Authorization")};
      ScriptedReply reply{500, R"({"error":{"message":"script exhausted"}})", 0, {}};
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back(recorded);
        if (!responder_ && next_ < replies_.size()) reply = replies_[next_++];
      }
      if (responder_) reply = responder_(recorded);
      if (reply.delay_ms > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(reply.delay_ms));
      res.status = reply.status;
      for (const auto& [name, value] : reply.headers) res.set_header(name, value);
      if (reply.trickle_ms <= 0) {
        res.set_content(reply.body, "application/json");
        return;
      }
      res.set_content_provider(
          reply.body.size(), "application/json",
          [this, body = reply.body, every = reply.trickle_ms](size_t offset, size_t, httplib::DataSink& sink) {
            if (stopping_ || !sink.is_writable()) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(every));
            return !stopping_ && sink.write(body.data() + offset, 1);
          });
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  Responder responder_;
  std::vector<ScriptedReply> replies_;
  size_t next_ = 0;
  std::vector<RecordedRequest> requests_;
};

// A 200 chat completion (OpenAI shape, model "test-model", finish_reason "stop", usage 100 + 20
// tokens) whose message content is `content`: the model's raw answer.
inline ScriptedReply ChatCompletionReply(const std::string& content) {
  nlohmann::json body = {
      {"model", "test-model"},
      {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}, {"finish_reason", "stop"}}}},
      {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 20}}}};
  return {200, body.dump()};
}

}  // namespace engram::test

#endif  // ENGRAM_TESTS_SCRIPTED_HTTP_SERVER_H_
