// write/extraction/llm_extractor.h — candidate claims from a chat model over an OpenAI-compatible
// API (providers::ChatClient).
//
// One Extract call sends one prompt (instructions in English or Chinese, the numbered events with
// role, speaker, UTC time and content) and asks for {"claims":[...]} through a json_schema
// response_format. The answer is parsed tolerantly (code fences, prose around the JSON, a bare
// array); when it still does not parse, the model gets one repair request with its output and the
// parse error. Each returned claim is then checked on its own, and an invalid one is dropped and
// counted (LlmExtractionStats) rather than failing the batch: a source_event outside the batch
// (bug_scenarios.md B51), an empty subject/predicate/value, an evidence_span that is not a verbatim
// substring of its source event, an assistant statement made about the user (B48).
#ifndef ENGRAM_WRITE_EXTRACTION_LLM_EXTRACTOR_H_
#define ENGRAM_WRITE_EXTRACTION_LLM_EXTRACTOR_H_

#include <map>
#include <string>
#include <vector>

#include "providers/chat_client.h"
#include "write/extraction/extractor.h"

namespace engram::extraction {

// Reasons a returned claim is dropped (keys of LlmExtractionStats::dropped_by_reason).
inline constexpr const char* kDropNotObject = "not_object";
inline constexpr const char* kDropEmptySubject = "empty_subject";
inline constexpr const char* kDropEmptyPredicate = "empty_predicate";
inline constexpr const char* kDropEmptyValue = "empty_value";
inline constexpr const char* kDropUnknownSourceEvent = "unknown_source_event";  // B51
inline constexpr const char* kDropEvidenceNotFound = "evidence_not_found";
inline constexpr const char* kDropAssistantAsUser = "assistant_statement_about_user";  // B48
inline constexpr const char* kDropOverLimit = "over_limit";

enum class PromptLanguage {
  kAuto,  // Chinese instructions when at least 20% of the batch's letters are CJK, else English
  kEnglish,
  kChinese,
};

struct LlmExtractorOptions {
  PromptLanguage language = PromptLanguage::kAuto;
  // The model is asked for at most this many claims per batch (HL-Mem 1.1.3: 12 per chunk).
  int max_claims = 12;
  // More than this many returned claims are cut to the best by confidence × importance (HL-Mem
  // 1.1.3 "hard keep" of 16); the rest count as kDropOverLimit.
  int hard_max_claims = 16;
  // Each event's content is cut to this many code points in the prompt (evidence is still checked
  // against the full content).
  size_t max_event_chars = 4000;
  // Send the answer schema as response_format {"type":"json_schema"}; false sends none (for
  // servers that reject response_format); the prompt asks for JSON either way.
  bool send_json_schema = true;
};

// What the last Extract call did, for logging and the ops report.
struct LlmExtractionStats {
  int claims_returned = 0;                       // claims in the model's answer (after the parse)
  int claims_kept = 0;                           // claims returned by Extract
  int claims_dropped = 0;                        // claims_returned - claims_kept
  std::map<std::string, int> dropped_by_reason;  // kDrop* → count
  std::vector<std::string> warnings;             // one line per dropped claim or normalisation
  bool repaired = false;      // the first answer did not parse and the repair request was used
  bool parse_failed = false;  // the answer did not parse even after the repair (kInvalidArgument)
  int model_calls = 0;        // chat completions made (1, or 2 with a repair)
  int prompt_tokens = 0;      // summed over the calls
  int completion_tokens = 0;  // summed over the calls
  double latency_ms = 0;      // summed over the calls, in ms
  std::string finish_reason;  // of the last call
};

class LlmExtractor : public Extractor {
 public:
  explicit LlmExtractor(providers::ChatClient client, LlmExtractorOptions options = {});
  explicit LlmExtractor(providers::ChatClientOptions client_options,
                        LlmExtractorOptions options = {});

  // "llm/<model>".
  std::string Name() const override;

  // See Extractor::Extract. An empty batch returns no claims without calling the model.
  // Returned claims have: non-empty subject, predicate (snake_case, lower case; "dislikes"/"hates"
  // become likes + negated), value; source_events = {the model's source_event}, a valid index into
  // `batch`; evidence_span a verbatim substring of batch[source_events[0]].content; scope one of
  // kScopes (unknown → the predicate's canonical scope, else "state"); qualifiers a sorted subset
  // of the kQual* names; confidence and importance in [0, 1]; valid_from / valid_to parsed from
  // ISO-8601 (unparseable → unset, the time_phrase is kept); text non-empty ("subject: value" when
  // missing). Errors: kIOError / kBusy from the chat client (the job is retried); kInvalidArgument
  // when the answer cannot be parsed after the repair request (the events stay stored; the caller
  // records the failure — B42); kInvalidArgument for a misconfigured client (no model / base_url).
  // Thread-compatible: last_stats() belongs to the last call.
  Result<std::vector<CandidateClaim>> Extract(const std::vector<Event>& batch) override;

  // Statistics of the last Extract call (reset at the start of each call).
  const LlmExtractionStats& last_stats() const { return stats_; }

 private:
  providers::ChatClient client_;
  LlmExtractorOptions options_;
  LlmExtractionStats stats_;
};

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_LLM_EXTRACTOR_H_
