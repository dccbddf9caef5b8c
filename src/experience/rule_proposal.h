// experience/rule_proposal.h — checking the if-then rules a model proposes for one task type
// (docs/experience.md, "The LLM distiller") before any of them reaches the rule lifecycle.
//
// The model answers {"rules":[{"situation", "action", "kind": "do"|"avoid", "tools", "omission",
// "episode_ids"}]}. Each rule is checked on its own against the episodes the model was shown; a
// rule that fails a check is dropped and counted under its reason (kRuleDrop*), never stored:
//   * situation and action are non-empty text without control or invisible characters or an
//     injection pattern (kRuleDropUnsafeText); kind is do or avoid;
//   * tools are tools that at least one shown episode called (a do rule: one tool, or the sequence
//     in order; an avoid rule: exactly one tool — "avoid calling X", or with omission true "avoid
//     finishing without calling X"); omission is only for avoid rules;
//   * episode_ids is non-empty and every id is a shown episode (its reference "E3" or its ULID);
//   * an avoid rule does not rest on successes alone, a do rule not on failures alone;
//   * at least one cited episode matches the rule (experience/rule_distiller.h, PatternMatches):
//     the support engram will count, never the model's word;
//   * the same pattern twice in one answer keeps the first; at most max_rules are kept.
// What is kept is the pattern (what engram matches episodes with), the model's wording, and the
// cited episodes. Counts, confidence and status are computed later by the lifecycle.
//
// Thread safety: pure functions.
#ifndef ENGRAM_EXPERIENCE_RULE_PROPOSAL_H_
#define ENGRAM_EXPERIENCE_RULE_PROPOSAL_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engram/types.h"
#include "experience/rule_distiller.h"

namespace engram::experience {

// Reasons a proposed rule is dropped (keys of ProposalCheck::dropped_by_reason).
inline constexpr const char* kRuleDropNotObject = "not_object";
inline constexpr const char* kRuleDropEmptySituation = "empty_situation";
inline constexpr const char* kRuleDropEmptyAction = "empty_action";
inline constexpr const char* kRuleDropBadKind = "bad_kind";
inline constexpr const char* kRuleDropNoTools = "no_tools";
inline constexpr const char* kRuleDropUnknownTool = "unknown_tool";
inline constexpr const char* kRuleDropAvoidNeedsOneTool = "avoid_needs_one_tool";
inline constexpr const char* kRuleDropOmissionOnDo = "omission_on_do_rule";
inline constexpr const char* kRuleDropNoEpisodes = "no_episodes";
inline constexpr const char* kRuleDropUnknownEpisode = "unknown_episode";
inline constexpr const char* kRuleDropAvoidFromSuccesses = "avoid_rule_from_successes_only";
inline constexpr const char* kRuleDropDoFromFailures = "do_rule_from_failures_only";
inline constexpr const char* kRuleDropNoMatchingEpisode = "no_cited_episode_matches";
inline constexpr const char* kRuleDropDuplicate = "duplicate";
inline constexpr const char* kRuleDropOverLimit = "over_limit";
// A situation or action with a control character, an invisible or bidi character, or a prompt-
// injection or exfiltration pattern (text/threat_scanner.h, context scope): a rule is put in front
// of an agent (experience recall), so it is held to what curated memory is held to.
inline constexpr const char* kRuleDropUnsafeText = "unsafe_text";

// Longest situation and action kept, in code points (longer ones are cut).
inline constexpr size_t kMaxProposalTextChars = 300;

// One rule that passed every check.
struct ProposedRule {
  RulePattern pattern;
  std::string situation;                 // the model's condition, trimmed (≤ kMaxProposalTextChars)
  std::string action;                    // the model's action, trimmed (≤ kMaxProposalTextChars)
  std::vector<std::string> episode_ids;  // the cited episodes (ULIDs), each once, in citation order
};

struct ProposalCheck {
  std::vector<ProposedRule> kept;
  int returned = 0;                              // rules in the answer
  std::map<std::string, int> dropped_by_reason;  // kRuleDrop* → count
  std::vector<std::string> warnings;             // one line per dropped rule
};

// The reference of the episode at `index` (0-based) of what the model was shown: "E1", "E2", ...
std::string EpisodeRef(size_t index);

// Checks the model's rules (`items`, the array of its answer) against the decided episodes it was
// shown (`shown`, each with its steps; a cited "E<n>" is shown[n-1]). Keeps at most max_rules.
ProposalCheck CheckProposals(const nlohmann::json& items, const std::vector<Episode>& shown, int max_rules);

// The key of a rule of the LLM path: "llm|MODEL|TYPE|POLARITY|KIND|TOOL>TOOL..." ('|' in the model
// name becomes '_'). Its own key space: a proposal never supersedes an offline rule (nor the
// reverse), and two do sequences for different situations are two rules. sqlite::RuleStore reads
// the source ("llm") and the model back from it.
std::string ProposalKey(std::string_view model, std::string_view task_type, const RulePattern& pattern);

// The rule's sentence: "For tasks of type T, when SITUATION: ACTION." (a leading "when" / "if" of
// the situation and a final period of the action are not repeated).
std::string ProposalText(std::string_view task_type, const ProposedRule& rule);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_RULE_PROPOSAL_H_
