// tests/stand_in_mcp_server.h — a local streamable-HTTP MCP server for testing the tap's HTTP face
// (capture/http_tap.h): at /mcp it answers in JSON, at /sse in server-sent events (a log
// notification, then the response), and a GET of /sse is an event stream of two notifications.
//
//   initialize       → a result, and the header Mcp-Session-Id: stand-in-session
//   tools/list       → one tool, "echo"
//   tools/call echo  → ok: {"content":[{"type":"text","text":<arguments.text>}]}
//   tools/call fail  → a tool error: isError true
//   tools/call other → a JSON-RPC error -32602
//   a notification or a response of the client → 202, no body; a batch → the answers as an array
//   a body that is not JSON → 400 {"jsonrpc":"2.0","id":null,"error":{"code":-32700,...}}
//
// Answers are deterministic (the same request, the same bytes). The bodies it received are kept
// (bodies()). Binds 127.0.0.1 on a port the OS picks: no network. Header-only.
#ifndef ENGRAM_TESTS_STAND_IN_MCP_SERVER_H_
#define ENGRAM_TESTS_STAND_IN_MCP_SERVER_H_

#include <httplib.h>

#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace engram::test {

class StandInMcpServer {
 public:
  using json = nlohmann::json;

  StandInMcpServer() {
    server_.Post("/mcp", [this](const httplib::Request& req, httplib::Response& res) { Answer(req, res, false); });
    server_.Post("/sse", [this](const httplib::Request& req, httplib::Response& res) { Answer(req, res, true); });
    server_.Get("/sse", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("text/event-stream", [n = 0](size_t, httplib::DataSink& sink) mutable {
        if (n == 2) {
          sink.done();
          return true;
        }
        ++n;
        const std::string event = "id: " + std::to_string(n) + "\ndata: " + Notification(n) + "\n\n";
        return sink.write(event.data(), event.size());
      });
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~StandInMcpServer() {
    server_.stop();
    thread_.join();
  }
  StandInMcpServer(const StandInMcpServer&) = delete;
  StandInMcpServer& operator=(const StandInMcpServer&) = delete;

  int port() const { return port_; }
  std::string url(const std::string& path = "/mcp") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
  std::vector<std::string> bodies() {
    std::lock_guard<std::mutex> lock(mu_);
    return bodies_;
  }

  static std::string Notification(int n) {
    return json({{"jsonrpc", "2.0"}, {"method", "notifications/message"},
                 {"params", {{"level", "info"}, {"data", "note " + std::to_string(n)}}}})
        .dump();
  }

 private:
  static json Result(const json& id, json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
  }
  static json Text(const std::string& text, bool is_error) {
    return {{"content", {{{"type", "text"}, {"text", text}}}}, {"isError", is_error}};
  }

  static json AnswerOne(const json& m) {
    const std::string method = m.value("method", "");
    const json id = m.value("id", json());
    if (method == "initialize") {
      return Result(id, {{"protocolVersion", "2025-06-18"}, {"capabilities", {{"tools", json::object()}}},
                         {"serverInfo", {{"name", "stand-in"}, {"version", "1"}}}});
    }
    if (method == "tools/list") {
      return Result(id, {{"tools", json::array({{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}})}});
    }
    const json params = m.value("params", json::object());
    const std::string name = params.value("name", "");
    const json args = params.value("arguments", json::object());
    if (name == "echo") return Result(id, Text(args.value("text", ""), false));
    if (name == "fail") return Result(id, Text("it failed", true));
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32602}, {"message", "Unknown tool: " + name}}}};
  }

  void Answer(const httplib::Request& req, httplib::Response& res, bool sse) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      bodies_.push_back(req.body);
    }
    const json in = json::parse(req.body, nullptr, false);
    if (in.is_discarded()) {
      res.status = 400;
      res.set_content(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})",
                      "application/json");
      return;
    }
    json answers = json::array();
    for (const json& m : in.is_array() ? in : json::array({in})) {
      if (m.is_object() && m.contains("method") && m.contains("id")) answers.push_back(AnswerOne(m));
    }
    if (answers.empty()) {
      res.status = 202;
      return;
    }
    if (in.is_object() && in.value("method", "") == "initialize") res.set_header("Mcp-Session-Id", "stand-in-session");
    if (!sse) {
      res.set_content((in.is_array() ? answers : answers[0]).dump(), "application/json");
      return;
    }
    std::string events = ": stand-in\n\nevent: message\ndata: " + Notification(0) + "\n\n";
    for (const json& a : answers) events += "event: message\r\ndata: " + a.dump() + "\r\n\r\n";
    auto provider = [events, sent = false](size_t, httplib::DataSink& sink) mutable {
      if (sent) {
        sink.done();
        return true;
      }
      sent = true;
      // Two writes: the response event arrives in a chunk of its own after the notification.
      const size_t half = events.find("event: message\r\n");
      return sink.write(events.data(), half) && sink.write(events.data() + half, events.size() - half);
    };
    res.set_chunked_content_provider("text/event-stream", provider);
  }

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mu_;
  std::vector<std::string> bodies_;
};

}  // namespace engram::test

#endif  // ENGRAM_TESTS_STAND_IN_MCP_SERVER_H_
