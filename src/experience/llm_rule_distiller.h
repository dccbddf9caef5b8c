// experience/llm_rule_distiller.h — if-then rules for one task type proposed by a chat model over
// an OpenAI-compatible API (providers::ChatClient), the LLM path of distillation
// (docs/experience.md, "The LLM distiller"). Off unless ExperienceOptions::distiller is "llm".
//
// One Propose call sends one prompt: the type's decided episodes, compactly (reference "E1", outcome,
// goal, the tools called in order with a short argument summary, the user's feedback), most recent
// first and alternating successes and failures so that a cut keeps the contrast, until
// LlmDistillerOptions::max_prompt_chars; and asks for {"rules":[...]} through a json_schema
// response_format. The answer is parsed tolerantly (providers/model_answer.h); when it does not
// parse, the model gets one repair request, as the LLM claim extractor does. The rules are then
// checked one by one (experience/rule_proposal.h): what fails a check is dropped and counted.
// Nothing here writes the store: the lifecycle does, with the counts it computes itself.
#ifndef ENGRAM_EXPERIENCE_LLM_RULE_DISTILLER_H_
#define ENGRAM_EXPERIENCE_LLM_RULE_DISTILLER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"
#include "engram/types.h"
#include "experience/rule_proposal.h"
#include "providers/chat_client.h"

namespace engram::experience {

struct LlmDistillerOptions {
  // Characters of the episode blocks of one prompt (≈ 4 characters a token: 12,000 ≈ 3,000 tokens,
  // within the context of any small local model). Episodes that do not fit are not shown.
  size_t max_prompt_chars = 12000;
  size_t max_goal_chars = 200;      // code points of a goal in the prompt
  size_t max_argument_chars = 60;   // code points of a step's argument summary
  size_t max_feedback_chars = 100;  // code points of the user's feedback
  size_t max_steps = 30;            // steps shown per episode (the rest are counted)
  // Rules asked for and kept per type (DESIGN.md: 3–5 rules a type).
  int max_rules = 5;
  // Send the answer schema as response_format {"type":"json_schema"}; false sends none.
  bool send_json_schema = true;
};

// What one Propose call did, for the report and the log.
struct LlmDistillStats {
  int episodes_in_window = 0;  // decided episodes given
  int episodes_shown = 0;      // of them, in the prompt
  int model_calls = 0;         // 1, or 2 with a repair
  bool repaired = false;       // the first answer did not parse
  int prompt_tokens = 0;       // summed over the calls, as the provider reports them
  int completion_tokens = 0;
  double latency_ms = 0;  // summed over the calls, ms
};

struct LlmRuleProposals {
  ProposalCheck check;  // the rules kept and what was dropped, by reason
  LlmDistillStats stats;
};

class LlmRuleDistiller {
 public:
  explicit LlmRuleDistiller(providers::ChatClientOptions client_options, LlmDistillerOptions options = {});

  // The model asked ("qwen2.5:7b-instruct").
  const std::string& model() const { return client_.options().model; }

  // Rules for `task_type` from `window`, its decided episodes (success or failure, with their
  // steps; in any order: they are shown most recent first by ended_at, then seq). An empty window
  // returns no rules without calling the model. Errors: kIOError / kBusy from the chat client
  // (unreachable, timeout, 5xx, 429 after its retries); kInvalidArgument when the answer is not
  // {"rules":[...]} JSON even after the repair request, or for a misconfigured client (no model /
  // base_url) or a 4xx. Thread-safe (each call opens its own connection; no state is kept).
  Result<LlmRuleProposals> Propose(std::string_view task_type, const std::vector<Episode>& window) const;

  // The episodes Propose shows, in prompt order (E1 first), and the prompt's episode text. Exposed
  // for tests. Thread-safe.
  std::vector<Episode> SelectShown(const std::vector<Episode>& window, std::string* blocks) const;

 private:
  providers::ChatClient client_;
  LlmDistillerOptions options_;
};

// The distiller ExperienceOptions::distiller names ($ENGRAM_DISTILLER when set wins): null for
// "offline" (or ""), an LlmRuleDistiller for "llm" with the client of ENGRAM_LLM_BASE_URL,
// ENGRAM_LLM_MODEL, ENGRAM_LLM_API_KEY and the options' timeout and retries. Errors:
// kInvalidArgument for another name (naming ENGRAM_DISTILLER or the field experience.distiller,
// whichever gave it, and the accepted values), or "llm" without base URL or model. Thread-safe.
Result<std::unique_ptr<LlmRuleDistiller>> MakeLlmDistiller(const ExperienceOptions& options);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_LLM_RULE_DISTILLER_H_
