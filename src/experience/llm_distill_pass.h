// experience/llm_distill_pass.h — the LLM path of one distillation pass (docs/experience.md, "The
// LLM distiller"), between the two database steps that the caller runs under its lock:
//
//   1. ExperienceMemory::DistillWindows — what each type's distillation reads (a read transaction);
//   2. AskModel — one model call per type, holding no lock and no transaction: a slow model delays
//      this pass only, never another call on the Engine;
//   3. ExperienceMemory::Distill(request, now, proposals) — the offline distiller, then the checked
//      proposals through the same lifecycle, in one write transaction.
//
// A failed call (unreachable, timeout, 5xx, an answer that is not JSON after the repair) gives no
// proposals for its type and a line in RuleUpdateReport::llm_errors: the offline rules of step 3
// stand, nothing of the call is stored, and the next pass asks again.
//
// Thread safety: AskModel is as thread-safe as the distiller (it is); MergeLlmReport is pure.
#ifndef ENGRAM_EXPERIENCE_LLM_DISTILL_PASS_H_
#define ENGRAM_EXPERIENCE_LLM_DISTILL_PASS_H_

#include <string>
#include <vector>

#include "engram/types.h"
#include "experience/rule_proposal.h"

namespace engram::experience {

class LlmRuleDistiller;

// The decided episodes (with steps) one distillation of a type reads.
struct DistillWindow {
  std::string task_type;
  std::vector<Episode> episodes;
};

// The rules a model proposed for a type that passed every check (experience/rule_proposal.h).
struct ModelProposals {
  std::string task_type;
  std::string model;
  std::vector<ProposedRule> rules;
};

// Asks the model for each window with at least one episode; returns the checked rules per type
// and counts into *report: llm_model, llm_types_asked, llm_rules_proposed, llm_rules_dropped and
// llm_dropped_by_reason, llm_errors ("TYPE: message", also logged). Never fails.
std::vector<ModelProposals> AskModel(const LlmRuleDistiller& distiller, const std::vector<DistillWindow>& windows,
                                     RuleUpdateReport* report);

// Adds the rule counters and the llm_* fields of `from` to `into` (task_types_distilled and
// episodes_read are left as they are: the caller says whether `from` read anything new).
void MergeLlmReport(const RuleUpdateReport& from, RuleUpdateReport* into);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_LLM_DISTILL_PASS_H_
