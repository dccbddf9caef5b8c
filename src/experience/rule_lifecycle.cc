#include "experience/rule_lifecycle.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "experience/rule_confidence.h"
#include "experience/rule_distiller.h"
#include "experience/rule_proposal.h"
#include "util/ulid.h"

namespace engram::experience {
namespace {

bool Decided(const Episode& e) {
  return e.status == "ended" && !e.task_type.empty() && (e.outcome == "success" || e.outcome == "failure");
}

RulePattern PatternOf(const Rule& r) { return {r.polarity, r.kind, r.tools}; }

// A current rule, not deprecated, that prescribes `pattern` (from either path); null when none.
const sqlite::StoredRule* LiveRuleWith(const std::vector<sqlite::StoredRule>& current, const RulePattern& pattern) {
  for (const sqlite::StoredRule& r : current) {
    if (r.rule.status != "deprecated" && PatternOf(r.rule) == pattern) return &r;
  }
  return nullptr;
}

std::string JoinIds(const std::vector<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

}  // namespace

std::vector<std::string> EpisodeTools(const Episode& episode) {
  std::vector<std::string> tools;
  for (const EpisodeStep& s : episode.steps) {
    if (!s.tool_name.empty()) tools.push_back(s.tool_name);
  }
  return tools;
}

Status RuleLifecycle::ApplyEpisode(const Episode& episode) {
  if (!Decided(episode)) return Status::Ok();
  auto current = rules_.CurrentOfType(namespace_id_, episode.task_type);
  if (!current) return current.error();
  const std::vector<std::string> tools = EpisodeTools(episode);
  const bool success = episode.outcome == "success";
  for (const sqlite::StoredRule& r : *current) {
    if (r.rule.status == "deprecated") continue;
    const RulePattern pattern = PatternOf(r.rule);
    if (!PatternMatches(pattern, tools)) continue;
    auto added = rules_.AddSupport(r.rule.seq, episode.seq, episode.outcome, PatternConfirmedBy(pattern, success));
    if (!added) return added.error();
    if (!*added) continue;
    ENGRAM_RETURN_IF_ERROR(rules_.AddHistory(r.rule.seq, now_, "matched",
                                             success ? "a matching episode succeeded" : "a matching episode failed",
                                             episode.id));
  }
  return Refresh(episode.task_type, episode.id);
}

Status RuleLifecycle::RemoveEpisode(const Episode& episode, std::string_view reason) {
  auto removed = rules_.RemoveSupportOf(episode.seq);
  if (!removed) return removed.error();
  for (int64_t rule_seq : *removed) {
    ENGRAM_RETURN_IF_ERROR(rules_.AddHistory(rule_seq, now_, "unmatched", reason, episode.id));
  }
  if (episode.task_type.empty()) return Status::Ok();
  return Refresh(episode.task_type, episode.id);
}

Status RuleLifecycle::Distill(std::string_view task_type) {
  auto window = episodes_.DecidedOfType(namespace_id_, task_type, kDistillWindow);
  if (!window) return window.error();
  std::vector<DistillEpisode> seen;
  int successes = 0;
  for (const sqlite::StoredEpisode& e : *window) {
    const bool success = e.episode.outcome == "success";
    successes += success ? 1 : 0;
    seen.push_back({success, EpisodeTools(e.episode)});
  }
  if (report_ != nullptr) {
    report_->task_types_distilled.emplace_back(task_type);
    report_->episodes_read += static_cast<int64_t>(seen.size());
  }
  auto current = rules_.CurrentOfType(namespace_id_, task_type);
  if (!current) return current.error();
  std::map<std::string, sqlite::StoredRule> by_key;
  for (const sqlite::StoredRule& r : *current) by_key[r.key] = r;

  const std::string why = fmt::format("distilled from {} episodes ({} successes, {} failures)", seen.size(),
                                      successes, seen.size() - successes);
  for (const RulePattern& pattern : DistillPatterns(seen)) {
    const std::string key = PatternKey(task_type, pattern);
    const sqlite::StoredRule* previous = nullptr;
    if (auto it = by_key.find(key); it != by_key.end()) {
      if (it->second.rule.status != "deprecated" && PatternOf(it->second.rule) == pattern) continue;  // still holds
      previous = &it->second;
    } else if (LiveRuleWith(*current, pattern) != nullptr) {
      continue;  // the LLM path already has it
    }
    std::vector<const sqlite::StoredEpisode*> support;
    for (const sqlite::StoredEpisode& e : *window) {
      if (PatternMatches(pattern, EpisodeTools(e.episode))) support.push_back(&e);
    }
    ENGRAM_RETURN_IF_ERROR(Create(task_type, {key, pattern, PatternText(task_type, pattern), why}, previous, support));
  }
  ENGRAM_RETURN_IF_ERROR(rules_.MarkDistilled(namespace_id_, task_type, now_));
  return Refresh(task_type, "");
}

Status RuleLifecycle::Create(std::string_view task_type, const NewRule& made_from, const sqlite::StoredRule* previous,
                             const std::vector<const sqlite::StoredEpisode*>& support) {
  sqlite::StoredRule made;
  made.key = made_from.key;
  Rule& r = made.rule;
  r.id = NewUlid(now_);
  r.task_type = std::string(task_type);
  r.polarity = made_from.pattern.polarity;
  r.kind = made_from.pattern.kind;
  r.tools = made_from.pattern.tools;
  r.text = made_from.text;
  r.status = "pending";
  r.created_at = r.updated_at = now_;
  if (previous != nullptr) {
    r.version = previous->rule.version + 1;
    r.supersedes_id = previous->rule.id;
  }
  auto seq = rules_.Insert(namespace_id_, made);
  if (!seq) return seq.error();
  for (const sqlite::StoredEpisode* e : support) {
    auto added = rules_.AddSupport(*seq, e->episode.seq, e->episode.outcome,
                                   PatternConfirmedBy(made_from.pattern, e->episode.outcome == "success"));
    if (!added) return added.error();
  }
  std::string why = made_from.why;
  if (previous != nullptr) why += fmt::format("; supersedes version {} ({})", previous->rule.version, previous->rule.id);
  ENGRAM_RETURN_IF_ERROR(rules_.AddHistory(*seq, now_, "created", why, ""));
  if (report_ != nullptr) ++report_->rules_created;
  if (previous == nullptr) return Status::Ok();
  sqlite::StoredRule old = *previous;
  old.rule.superseded_by_id = r.id;
  old.rule.updated_at = now_;
  if (old.rule.status != "deprecated") {
    old.rule.status = "deprecated";
    old.rule.status_reason = fmt::format("superseded by version {} ({}): {}", r.version, r.id, r.text);
    old.rule.conflicts_with.clear();
    if (report_ != nullptr) ++report_->rules_deprecated;
  }
  ENGRAM_RETURN_IF_ERROR(rules_.Update(old));
  ENGRAM_RETURN_IF_ERROR(
      rules_.AddHistory(old.rule.seq, now_, "superseded", fmt::format("by version {} ({})", r.version, r.id), ""));
  if (report_ != nullptr) ++report_->rules_superseded;
  return Status::Ok();
}

Status RuleLifecycle::AddProposals(std::string_view task_type, std::string_view model,
                                   const std::vector<ProposedRule>& proposals) {
  auto current = rules_.CurrentOfType(namespace_id_, task_type);
  if (!current) return current.error();
  auto window = episodes_.DecidedOfType(namespace_id_, task_type, kDistillWindow);
  if (!window) return window.error();
  for (const ProposedRule& p : proposals) {
    if (LiveRuleWith(*current, p.pattern) != nullptr) {
      if (report_ != nullptr) ++report_->llm_rules_known;
      continue;
    }
    const std::string key = ProposalKey(model, task_type, p.pattern);
    const sqlite::StoredRule* previous = nullptr;
    for (const sqlite::StoredRule& r : *current) previous = r.key == key ? &r : previous;  // deprecated, or above
    // Its support is counted as an offline rule's: every episode of the window that matches it.
    std::vector<const sqlite::StoredEpisode*> support;
    for (const sqlite::StoredEpisode& e : *window) {
      if (PatternMatches(p.pattern, EpisodeTools(e.episode))) support.push_back(&e);
    }
    if (support.empty()) {  // its episodes were forgotten or retyped since the model saw them
      if (report_ != nullptr) {
        ++report_->llm_dropped_by_reason[kRuleDropNoMatchingEpisode];
        ++report_->llm_rules_dropped;
      }
      continue;
    }
    const std::string why = fmt::format(
        "proposed by the LLM distiller (model {}) for the situation \"{}\", citing {} episodes ({}); support counted "
        "by engram over the {} most recent decided episodes: {} match it",
        model, p.situation, p.episode_ids.size(), JoinIds(p.episode_ids), window->size(), support.size());
    ENGRAM_RETURN_IF_ERROR(Create(task_type, {key, p.pattern, ProposalText(task_type, p), why}, previous, support));
    if (report_ != nullptr) ++report_->llm_rules_created;
  }
  return Refresh(task_type, "");
}

Status RuleLifecycle::Refresh(std::string_view task_type, std::string_view episode_id) {
  auto current = rules_.CurrentOfType(namespace_id_, task_type);
  if (!current) return current.error();
  std::vector<sqlite::StoredRule>& rules = *current;
  std::vector<sqlite::StoredRule> before = rules;

  // Counts, confidence and deprecation from each live rule's support.
  for (sqlite::StoredRule& s : rules) {
    Rule& r = s.rule;
    if (r.status == "deprecated") continue;
    auto support = rules_.Support(r.seq);
    if (!support) return support.error();
    int64_t successes = 0, confirmed = 0;
    for (const sqlite::RuleSupportRow& row : *support) {
      successes += row.outcome == "success" ? 1 : 0;
      confirmed += row.confirmed ? 1 : 0;
    }
    r.support = static_cast<int64_t>(support->size());
    r.success_count = successes;
    r.failure_count = r.support - successes;
    r.confidence = WilsonLowerBound(confirmed, r.support);
    if (r.support >= kRecentWindow) {
      std::vector<std::string> contradicted;
      int recent_confirmed = 0;
      for (size_t i = support->size() - kRecentWindow; i < support->size(); ++i) {
        if ((*support)[i].confirmed) {
          ++recent_confirmed;
        } else {
          contradicted.push_back((*support)[i].episode_id);
        }
      }
      if (recent_confirmed <= kMaxRecentConfirmed) {
        r.status = "deprecated";
        r.status_reason = fmt::format("{} of its last {} matching episodes {}: {}", contradicted.size(),
                                      kRecentWindow, r.polarity == "do" ? "failed" : "succeeded",
                                      JoinIds(contradicted));
        r.conflicts_with.clear();
      }
    }
  }
  // Disputes: opposite prescriptions that both reach the active threshold.
  std::vector<std::vector<std::string>> conflicts(rules.size());
  for (size_t i = 0; i < rules.size(); ++i) {
    for (size_t j = i + 1; j < rules.size(); ++j) {
      const Rule& a = rules[i].rule;
      const Rule& b = rules[j].rule;
      if (a.status == "deprecated" || b.status == "deprecated") continue;
      if (a.confidence < kActiveConfidence || b.confidence < kActiveConfidence) continue;
      if (!PatternsConflict(PatternOf(a), PatternOf(b))) continue;
      conflicts[i].push_back(b.id);
      conflicts[j].push_back(a.id);
    }
  }
  for (size_t i = 0; i < rules.size(); ++i) {
    Rule& r = rules[i].rule;
    if (r.status == "deprecated") continue;
    r.conflicts_with = conflicts[i];
    if (!conflicts[i].empty()) {
      r.status = "disputed";
      r.status_reason = fmt::format("prescribes the opposite of {} (both at confidence ≥ {})", JoinIds(conflicts[i]),
                                    kActiveConfidence);
    } else if (r.confidence >= kActiveConfidence) {
      r.status = "active";
      r.status_reason = fmt::format("{} of {} matching episodes ended as it predicts", 
                                    r.polarity == "do" ? r.success_count : r.failure_count, r.support);
    } else {
      r.status = "pending";
      r.status_reason = fmt::format("confidence {:.2f} < {}: {} of {} matching episodes ended as it predicts",
                                    r.confidence, kActiveConfidence, r.polarity == "do" ? r.success_count : r.failure_count,
                                    r.support);
    }
  }
  // Write what changed.
  for (size_t i = 0; i < rules.size(); ++i) {
    Rule& r = rules[i].rule;
    const Rule& old = before[i].rule;
    const bool counts = r.support != old.support || r.success_count != old.success_count;
    const bool status = r.status != old.status;
    if (!counts && !status && r.status_reason == old.status_reason && r.conflicts_with == old.conflicts_with) continue;
    r.updated_at = now_;
    ENGRAM_RETURN_IF_ERROR(rules_.Update(rules[i]));
    if (report_ != nullptr && counts) ++report_->rules_updated;
    if (!status) continue;
    ENGRAM_RETURN_IF_ERROR(rules_.AddHistory(r.seq, now_, r.status, r.status_reason, episode_id));
    if (report_ == nullptr) continue;
    if (r.status == "active") ++report_->rules_activated;
    if (r.status == "deprecated") ++report_->rules_deprecated;
    if (r.status == "disputed") ++report_->rules_disputed;
  }
  return Status::Ok();
}

}  // namespace engram::experience
