// bench/observation_chat_server.h — a loopback stand-in for an LLM behind the OpenAI chat
// completions API that "extracts" LoCoMo's own GPT-3.5 observation facts (bench only).
//
// It lets `engram-bench locomo --observation-claims` send the claims of an LLM through engram's
// real LLM extractor path (providers::ChatClient → LlmExtractor's parse, checks and conversion →
// admission → the claim writer) without a model: every POST /v1/chat/completions is read as
// LlmExtractor's request, its numbered events are matched to LoCoMo turns, and the answer holds
// one claim per observation that cites a turn of the request:
//   {"subject": <the speaker the observation is listed under>, "predicate": "did", "slot": "",
//    "value": <the observation sentence>, "text": <the same sentence>, "qualifiers": [],
//    "valid_from": null, "valid_to": null, "time_phrase": "", "scope": "activity",
//    "confidence": 0.8, "importance": 0.5, "source_event": <index of the first cited event>,
//    "source_events": <indexes of every cited event of the request, when more than one>,
//    "evidence_span": <that event's content as shown in the request, without the "…" the
//    extractor appends when it cuts a long content>}
// "did" is additive (a new observation never supersedes an older one). {"claims":[]} when no event
// of the request is cited by an observation.
//
// Events are matched to turns by their UTC time (import::ToEventInputs gives each turn of a
// conversation its own second) and speaker, then by content; an event whose time matches no turn
// is matched by content alone (equal, or the turn's content starting with the request's cut
// content). Unmatched events are counted, never guessed.
//
// Binds 127.0.0.1 on a port the OS picks (no network); serves from httplib's own threads until the
// object is destroyed.
#ifndef ENGRAM_BENCH_OBSERVATION_CHAT_SERVER_H_
#define ENGRAM_BENCH_OBSERVATION_CHAT_SERVER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "import/locomo.h"
#include "locomo_observations.h"

namespace httplib {
class Server;
}

namespace engram::bench {

// Counters since the server started (all counts).
struct ObservationChatStats {
  int64_t requests = 0;          // POSTs to /v1/chat/completions answered with 200
  int64_t bad_requests = 0;      // requests that were not an LlmExtractor prompt (answered 400)
  int64_t events = 0;            // numbered events read from the requests
  int64_t unmatched_events = 0;  // ... that matched no LoCoMo turn
  int64_t claims = 0;            // claims sent back
};

// The answer content (the {"claims":[...]} JSON text) for one LlmExtractor user prompt, plus
// what was matched. Pure; used by the server and usable on its own.
class ObservationAnswerer {
 public:
  ObservationAnswerer(const std::vector<import::LocomoConversation>& conversations,
                      const std::map<std::string, std::vector<LocomoObservation>>& observations);

  struct Answer {
    std::string content;  // {"claims":[...]} as JSON text
    int64_t events = 0;
    int64_t unmatched_events = 0;
    int64_t claims = 0;
  };
  // `prompt` is LlmExtractor's user message ("[i] role: ... | speaker: ... | time: ...\n<content>
  // \n...\n</content>" blocks). Errors: kInvalidArgument when it holds no numbered event.
  Result<Answer> AnswerPrompt(const std::string& prompt) const;

 private:
  struct Turn {
    std::string sample_id;
    std::string dia_id;
    std::string speaker;
    std::string content;               // as ingested (import::ToEventInputs)
    std::vector<size_t> observations;  // indexes into observations_
  };
  // The turn of one request event, or nullptr.
  const Turn* Match(const std::string& speaker, const std::string& time,
                    const std::string& content) const;

  std::vector<Turn> turns_;
  std::multimap<TimestampMs, size_t> turns_by_time_;  // occurred_at → index into turns_
  std::vector<LocomoObservation> observations_;
};

class ObservationChatServer {
 public:
  // Starts serving. Errors: kIOError when no loopback port can be bound.
  static Result<std::unique_ptr<ObservationChatServer>> Start(
      const std::vector<import::LocomoConversation>& conversations,
      const std::map<std::string, std::vector<LocomoObservation>>& observations);
  ~ObservationChatServer();  // stops the server and joins its thread
  ObservationChatServer(const ObservationChatServer&) = delete;
  ObservationChatServer& operator=(const ObservationChatServer&) = delete;

  // "http://127.0.0.1:<port>/v1": the value for ENGRAM_LLM_BASE_URL.
  std::string base_url() const;
  // A snapshot of the counters. Thread-safe.
  ObservationChatStats stats() const;

 private:
  struct State;
  explicit ObservationChatServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_OBSERVATION_CHAT_SERVER_H_
