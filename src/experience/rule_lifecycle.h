// experience/rule_lifecycle.h — the life of distilled rules in the store (docs/experience.md,
// "The rule lifecycle"): counting new episodes, pending → active → deprecated, disputes, versions.
//
//   * A rule's counts are over the episodes that matched it since it was made (rule_support):
//     support, successes, failures. Its confidence is the Wilson lower bound of the share that ended
//     as it predicts (experience/rule_confidence.h); status pending below 0.6, active from 0.6.
//   * A rule whose support keeps failing is deprecated, for good, with the reason: when at least
//     kRecentWindow episodes matched it and at most one of the last kRecentWindow ended as it
//     predicts ("4 of its last 5 matching episodes failed: ...").
//   * Two rules of one type that both reach 0.6 and prescribe opposite actions (do / avoid a common
//     tool) are both disputed, and both kept; when one of them falls below 0.6 or is deprecated, the
//     other goes back to its own status.
//   * Distillation makes a rule per pattern of the window (experience/rule_distiller.h) whose key
//     has no current version; when the current version of a key is deprecated, or prescribes another
//     sequence, the new rule is its next version: it supersedes it (version + 1, supersedes /
//     superseded_by), and the old one is deprecated with the reason.
// Every change is a rule_history row. Callers own the write transaction.
#ifndef ENGRAM_EXPERIENCE_RULE_LIFECYCLE_H_
#define ENGRAM_EXPERIENCE_RULE_LIFECYCLE_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "experience/rule_distiller.h"
#include "experience/rule_proposal.h"
#include "store/sqlite/episode_store.h"
#include "store/sqlite/rule_store.h"

namespace engram::experience {

inline constexpr int kRecentWindow = 5;      // the last 5 matching episodes decide deprecation
inline constexpr int kMaxRecentConfirmed = 1;  // at most 1 of them as predicted: deprecated
inline constexpr int kDistillWindow = 50;    // the distiller reads the 50 most recent decided episodes

// The rules of one namespace as one write transaction sees them.
class RuleLifecycle {
 public:
  RuleLifecycle(sqlite::EpisodeStore& episodes, sqlite::RuleStore& rules, int64_t namespace_id, TimestampMs now,
                RuleUpdateReport* report)
      : episodes_(episodes), rules_(rules), namespace_id_(namespace_id), now_(now), report_(report) {}

  // Counts a decided episode (ended, outcome success or failure, typed; steps loaded) in each
  // current, not deprecated rule of its type that it matches, then refreshes the type's statuses.
  // Any other episode changes nothing. Errors: from SQLite.
  Status ApplyEpisode(const Episode& episode);

  // Takes the episode out of every rule it supported (its type or outcome is about to change, or it
  // is being forgotten: `reason` goes into each rule's history) and refreshes the rules of its type.
  // Errors: from SQLite.
  Status RemoveEpisode(const Episode& episode,
                       std::string_view reason = "the episode's type or outcome changed: no longer counted");

  // Distils the type from its kDistillWindow most recent decided episodes and refreshes it. A
  // pattern that a live rule of the LLM path already prescribes is not made again.
  // Errors: from SQLite.
  Status Distill(std::string_view task_type);

  // Makes the checked rules a model proposed for the type (experience/rule_proposal.h) rules of the
  // lifecycle, then refreshes the type. A proposal whose pattern a live rule of the type already
  // prescribes (offline or LLM) is counted as known and changes nothing; otherwise it becomes a
  // pending rule keyed ProposalKey(model, ...) — the next version of a deprecated rule of that key —
  // whose support is counted as an offline rule's: every episode of the type's kDistillWindow most
  // recent decided ones that matches it, not only those the model cited (a model must not pick its
  // evidence). None left (forgotten or retyped since): dropped as kRuleDropNoMatchingEpisode.
  // Counts, confidence and status come from that support, as for any rule. Errors: from SQLite.
  Status AddProposals(std::string_view task_type, std::string_view model, const std::vector<ProposedRule>& proposals);

 private:
  // What makes a rule: its key, pattern, sentence and the reason of its "created" history row.
  struct NewRule {
    std::string key;
    RulePattern pattern;
    std::string text;
    std::string why;
  };
  // Inserts the rule as pending with `support` (episodes that match it), superseding `previous`
  // when given (deprecated with the reason). Errors: from SQLite.
  Status Create(std::string_view task_type, const NewRule& rule, const sqlite::StoredRule* previous,
                const std::vector<const sqlite::StoredEpisode*>& support);

  // Recounts every current rule of the type from its support, then deprecations, disputes and
  // statuses; writes what changed (with history, attributed to `episode_id` when not empty).
  Status Refresh(std::string_view task_type, std::string_view episode_id);

  sqlite::EpisodeStore& episodes_;
  sqlite::RuleStore& rules_;
  int64_t namespace_id_;
  TimestampMs now_;
  RuleUpdateReport* report_;
};

// The tool names of an episode's steps, in order (steps without a tool left out).
std::vector<std::string> EpisodeTools(const Episode& episode);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_RULE_LIFECYCLE_H_
