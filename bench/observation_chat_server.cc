#include "observation_chat_server.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>
#include <utility>

#include "util/time.h"

namespace engram::bench {
namespace {

using json = nlohmann::ordered_json;

constexpr std::string_view kEllipsis = "…";  // what TruncateCodePoints appends to a cut content

// One numbered event of an LlmExtractor prompt.
struct PromptEvent {
  size_t index = 0;
  std::string speaker;
  std::string time;  // ISO-8601 as printed, "" when absent
  std::string content;
};

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The text of `header` between `key` and the next " | " or " (" (or the end); "" when absent.
std::string HeaderField(std::string_view header, std::string_view key) {
  size_t at = header.find(key);
  if (at == std::string_view::npos) return "";
  std::string_view rest = header.substr(at + key.size());
  size_t end = std::min(rest.find(" | "), rest.find(" ("));
  return std::string(rest.substr(0, end));
}

// The "[i] role: ... | speaker: ... | time: ... (Weekday)\n<content>\n...\n</content>" blocks of
// BuildEventsPrompt, in order.
std::vector<PromptEvent> ParseEventsPrompt(std::string_view prompt) {
  std::vector<PromptEvent> events;
  constexpr std::string_view kRole = "] role: ";
  constexpr std::string_view kOpen = "<content>\n";
  constexpr std::string_view kClose = "\n</content>";
  size_t pos = 0;
  while ((pos = prompt.find(kRole, pos)) != std::string_view::npos) {
    size_t bracket = prompt.rfind('[', pos);
    bool at_line_start =
        bracket != std::string_view::npos && (bracket == 0 || prompt[bracket - 1] == '\n');
    std::string_view number = at_line_start ? prompt.substr(bracket + 1, pos - bracket - 1) : "";
    size_t header_end = prompt.find('\n', pos);
    if (!AllDigits(number) || header_end == std::string_view::npos) {
      pos += kRole.size();
      continue;
    }
    std::string_view header = prompt.substr(bracket, header_end - bracket);
    size_t open = prompt.find(kOpen, header_end);
    if (open == std::string_view::npos) break;
    size_t start = open + kOpen.size();
    size_t close = prompt.find(kClose, start);
    if (close == std::string_view::npos) break;
    PromptEvent e;
    e.index = static_cast<size_t>(std::stoul(std::string(number)));
    e.speaker = HeaderField(header, " | speaker: ");
    e.time = HeaderField(header, " | time: ");
    e.content = std::string(prompt.substr(start, close - start));
    events.push_back(std::move(e));
    pos = close + kClose.size();
  }
  return events;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The request's content without the ellipsis of a cut: a verbatim prefix of the stored content.
std::string_view Uncut(std::string_view content) {
  return EndsWith(content, kEllipsis) ? content.substr(0, content.size() - kEllipsis.size())
                                      : content;
}

bool ContentMatches(const std::string& turn_content, std::string_view request_content) {
  if (turn_content == request_content) return true;
  std::string_view prefix = Uncut(request_content);
  return prefix.size() < request_content.size() && !prefix.empty() &&
         turn_content.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

ObservationAnswerer::ObservationAnswerer(
    const std::vector<import::LocomoConversation>& conversations,
    const std::map<std::string, std::vector<LocomoObservation>>& observations) {
  for (const import::LocomoConversation& conv : conversations) {
    std::map<std::string, size_t> turn_of_dia;  // dia_id → index into turns_
    for (const EventInput& input : import::ToEventInputs(conv)) {
      json meta = json::parse(input.metadata_json, nullptr, /*allow_exceptions=*/false);
      if (!meta.is_object() || !meta.contains("dia_id") || !meta["dia_id"].is_string()) continue;
      Turn turn;
      turn.sample_id = conv.sample_id;
      turn.dia_id = meta["dia_id"].get<std::string>();
      turn.speaker = input.speaker;
      turn.content = input.content;
      turn_of_dia[turn.dia_id] = turns_.size();
      if (auto at = ParseTimestamp(input.occurred_at)) turns_by_time_.emplace(*at, turns_.size());
      turns_.push_back(std::move(turn));
    }
    auto found = observations.find(conv.sample_id);
    if (found == observations.end()) continue;
    for (const LocomoObservation& obs : found->second) {
      const size_t index = observations_.size();
      observations_.push_back(obs);
      for (const std::string& dia_id : obs.evidence) {
        auto turn = turn_of_dia.find(dia_id);
        if (turn != turn_of_dia.end()) turns_[turn->second].observations.push_back(index);
      }
    }
  }
}

const ObservationAnswerer::Turn* ObservationAnswerer::Match(const std::string& speaker,
                                                            const std::string& time,
                                                            const std::string& content) const {
  const Turn* by_time = nullptr;
  if (auto at = ParseTimestamp(time)) {
    auto [begin, end] = turns_by_time_.equal_range(*at);
    for (auto it = begin; it != end; ++it) {
      const Turn& t = turns_[it->second];
      if (t.speaker != speaker) continue;
      if (ContentMatches(t.content, content)) return &t;
      if (by_time == nullptr) by_time = &t;
    }
  }
  if (by_time != nullptr) return by_time;  // time and speaker agree, content normalised on ingest
  for (const Turn& t : turns_) {
    if ((speaker.empty() || t.speaker == speaker) && ContentMatches(t.content, content)) return &t;
  }
  return nullptr;
}

Result<ObservationAnswerer::Answer> ObservationAnswerer::AnswerPrompt(
    const std::string& prompt) const {
  std::vector<PromptEvent> events = ParseEventsPrompt(prompt);
  if (events.empty()) {
    return Error(
        Status::InvalidArgument("observation stand-in: the prompt holds no numbered event"));
  }
  Answer answer;
  answer.events = static_cast<int64_t>(events.size());
  // Observation index → the request events that cite it, in request order.
  std::vector<std::pair<size_t, std::vector<const PromptEvent*>>> cited;
  for (const PromptEvent& e : events) {
    const Turn* turn = Match(e.speaker, e.time, e.content);
    if (turn == nullptr) {
      ++answer.unmatched_events;
      continue;
    }
    for (size_t obs : turn->observations) {
      auto it =
          std::find_if(cited.begin(), cited.end(), [&](const auto& c) { return c.first == obs; });
      if (it == cited.end()) {
        cited.push_back({obs, {&e}});
      } else {
        it->second.push_back(&e);
      }
    }
  }
  json claims = json::array();
  for (const auto& [obs_index, sources] : cited) {
    const LocomoObservation& obs = observations_[obs_index];
    const PromptEvent& first = *sources.front();
    json claim = {{"subject", obs.speaker},
                  {"predicate", "did"},
                  {"slot", ""},
                  {"value", obs.text},
                  {"text", obs.text},
                  {"qualifiers", json::array()},
                  {"valid_from", nullptr},
                  {"valid_to", nullptr},
                  {"time_phrase", ""},
                  {"scope", "activity"},
                  {"confidence", 0.8},
                  {"importance", 0.5},
                  {"source_event", first.index},
                  {"evidence_span", std::string(Uncut(first.content))}};
    if (sources.size() > 1) {
      json all = json::array();
      for (const PromptEvent* e : sources) all.push_back(e->index);
      claim["source_events"] = all;
    }
    claims.push_back(std::move(claim));
  }
  answer.claims = static_cast<int64_t>(claims.size());
  answer.content = json{{"claims", claims}}.dump(-1, ' ', false, json::error_handler_t::replace);
  return answer;
}

struct ObservationChatServer::State {
  State(const std::vector<import::LocomoConversation>& conversations,
        const std::map<std::string, std::vector<LocomoObservation>>& observations)
      : answerer(conversations, observations) {}
  ObservationAnswerer answerer;
  httplib::Server server;
  std::thread thread;
  int port = 0;
  mutable std::mutex mu;
  ObservationChatStats stats;
};

Result<std::unique_ptr<ObservationChatServer>> ObservationChatServer::Start(
    const std::vector<import::LocomoConversation>& conversations,
    const std::map<std::string, std::vector<LocomoObservation>>& observations) {
  auto state = std::make_unique<State>(conversations, observations);
  State* s = state.get();
  s->server.Post("/v1/chat/completions", [s](const httplib::Request& req, httplib::Response& res) {
    auto bad = [&](const std::string& message) {
      {
        std::lock_guard<std::mutex> lock(s->mu);
        ++s->stats.bad_requests;
      }
      res.status = 400;
      res.set_content(json{{"error", {{"message", message}}}}.dump(), "application/json");
    };
    json body = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
    if (!body.is_object() || !body.contains("messages") || !body["messages"].is_array()) {
      return bad("observation stand-in: the body is not a chat completion request");
    }
    // The first user message is LlmExtractor's events prompt (a repair request comes after it).
    std::string prompt;
    for (const json& m : body["messages"]) {
      if (m.is_object() && m.value("role", "") == "user" && m.contains("content") &&
          m["content"].is_string()) {
        prompt = m["content"].get<std::string>();
        break;
      }
    }
    Result<ObservationAnswerer::Answer> answer = s->answerer.AnswerPrompt(prompt);
    if (!answer) return bad(answer.error().message());
    {
      std::lock_guard<std::mutex> lock(s->mu);
      ++s->stats.requests;
      s->stats.events += answer->events;
      s->stats.unmatched_events += answer->unmatched_events;
      s->stats.claims += answer->claims;
    }
    json reply = {{"id", "observation-stand-in"},
                  {"object", "chat.completion"},
                  {"model", body.value("model", "")},
                  {"choices",
                   json::array({{{"index", 0},
                                 {"message", {{"role", "assistant"}, {"content", answer->content}}},
                                 {"finish_reason", "stop"}}})},
                  {"usage", {{"prompt_tokens", 0}, {"completion_tokens", 0}, {"total_tokens", 0}}}};
    res.status = 200;
    res.set_content(reply.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
  });
  s->port = s->server.bind_to_any_port("127.0.0.1");
  if (s->port <= 0) {
    return Error(Status::IOError("observation stand-in: cannot bind a port on 127.0.0.1"));
  }
  s->thread = std::thread([s] { s->server.listen_after_bind(); });
  while (!s->server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return std::unique_ptr<ObservationChatServer>(new ObservationChatServer(std::move(state)));
}

ObservationChatServer::ObservationChatServer(std::unique_ptr<State> state)
    : state_(std::move(state)) {}

ObservationChatServer::~ObservationChatServer() {
  state_->server.stop();
  if (state_->thread.joinable()) state_->thread.join();
}

std::string ObservationChatServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(state_->port) + "/v1";
}

ObservationChatStats ObservationChatServer::stats() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->stats;
}

}  // namespace engram::bench
