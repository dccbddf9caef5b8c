#include "experience/llm_distill_pass.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "experience/llm_rule_distiller.h"

namespace engram::experience {

std::vector<ModelProposals> AskModel(const LlmRuleDistiller& distiller, const std::vector<DistillWindow>& windows,
                                     RuleUpdateReport* report) {
  std::vector<ModelProposals> out;
  report->llm_model = distiller.model();
  for (const DistillWindow& w : windows) {
    if (w.episodes.empty()) continue;
    ++report->llm_types_asked;
    auto proposals = distiller.Propose(w.task_type, w.episodes);
    if (!proposals) {
      std::string line = fmt::format("{}: {}", w.task_type, proposals.error().ToString());
      spdlog::warn("llm distiller: no rules from the model for type {} (the offline rules stand): {}", w.task_type,
                   proposals.error().ToString());
      report->llm_errors.push_back(std::move(line));
      continue;
    }
    const ProposalCheck& check = proposals->check;
    report->llm_rules_proposed += check.returned;
    for (const auto& [reason, n] : check.dropped_by_reason) {
      report->llm_dropped_by_reason[reason] += n;
      report->llm_rules_dropped += n;
    }
    out.push_back({w.task_type, distiller.model(), check.kept});
  }
  return out;
}

void MergeLlmReport(const RuleUpdateReport& from, RuleUpdateReport* into) {
  into->rules_created += from.rules_created;
  into->rules_superseded += from.rules_superseded;
  into->rules_updated += from.rules_updated;
  into->rules_activated += from.rules_activated;
  into->rules_deprecated += from.rules_deprecated;
  into->rules_disputed += from.rules_disputed;
  if (!from.llm_model.empty()) into->llm_model = from.llm_model;
  into->llm_types_asked += from.llm_types_asked;
  into->llm_rules_proposed += from.llm_rules_proposed;
  into->llm_rules_dropped += from.llm_rules_dropped;
  for (const auto& [reason, n] : from.llm_dropped_by_reason) into->llm_dropped_by_reason[reason] += n;
  into->llm_rules_known += from.llm_rules_known;
  into->llm_rules_created += from.llm_rules_created;
  into->llm_errors.insert(into->llm_errors.end(), from.llm_errors.begin(), from.llm_errors.end());
}

}  // namespace engram::experience
