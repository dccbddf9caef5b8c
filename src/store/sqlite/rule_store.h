// store/sqlite/rule_store.h — SQL over distilled rules (procedural memory, docs/experience.md):
// the rules with their counts, status and version links, the episodes that matched each one (in
// arrival order), their change history, and per task type when it was last distilled. Callers own
// transactions, as with EventStore. Not thread-safe (one connection).
#ifndef ENGRAM_STORE_SQLITE_RULE_STORE_H_
#define ENGRAM_STORE_SQLITE_RULE_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

// Keys of rules of the LLM path start with this: "llm|MODEL|task_type|polarity|kind|tool>tool"
// (experience/rule_proposal.h, ProposalKey); reading one sets Rule::source "llm" and
// Rule::source_model MODEL. Other keys are the offline distiller's.
inline constexpr std::string_view kLlmKeyPrefix = "llm|";

struct StoredRule {
  int64_t namespace_id = 0;
  std::string key;  // task_type|polarity|kind|tool: at most one current (not superseded) version
  Rule rule;        // rule.seq is the row's seq; support_episode_ids not loaded
};

// One episode that matched a rule, in arrival order.
struct RuleSupportRow {
  int64_t episode_seq = 0;
  std::string episode_id;
  std::string outcome;     // success or failure
  bool confirmed = false;  // the outcome the rule predicts (success for do, failure for avoid)
};

class RuleStore {
 public:
  explicit RuleStore(Database& db) : db_(db) {}

  // Inserts the rule; returns its seq. `r.rule.id` must be a new ULID. Errors: from SQLite.
  Result<int64_t> Insert(int64_t namespace_id, const StoredRule& r);
  // Writes the mutable fields (counts, confidence, status, reason, superseded_by, conflicts,
  // updated_at) of the rule with r.rule.seq. Errors: from SQLite.
  Status Update(const StoredRule& r);

  // The rule with this id (any namespace); nullopt when none.
  Result<std::optional<StoredRule>> Get(std::string_view id);
  // The namespace's rules of one type that have not been superseded (every status), oldest first.
  Result<std::vector<StoredRule>> CurrentOfType(int64_t namespace_id, std::string_view task_type);
  // One page of the namespace's rules, oldest first (seq > after_seq): of one type and status
  // when given; deprecated ones only when include_deprecated or asked for by status.
  Result<std::vector<StoredRule>> List(int64_t namespace_id, std::string_view task_type, std::string_view status,
                                       bool include_deprecated, int limit, int64_t after_seq);

  // Records that an episode matched the rule (once per rule and episode: a repeat changes
  // nothing and returns false). Errors: from SQLite.
  Result<bool> AddSupport(int64_t rule_seq, int64_t episode_seq, std::string_view outcome, bool confirmed);
  // Removes an episode's support from every rule; returns the rules it was removed from.
  Result<std::vector<int64_t>> RemoveSupportOf(int64_t episode_seq);
  // The episodes that matched the rule, in arrival order, the last `limit` (0 = all).
  Result<std::vector<RuleSupportRow>> Support(int64_t rule_seq, int limit = 0);

  Status AddHistory(int64_t rule_seq, TimestampMs at, std::string_view action, std::string_view reason,
                    std::string_view episode_id);
  Result<std::vector<RuleChange>> History(int64_t rule_seq);

  // Distillation bookkeeping per (namespace, task type): adds `delta` to the decided episodes
  // waiting since the last distillation and returns the new count.
  Result<int64_t> AddPendingEpisodes(int64_t namespace_id, std::string_view task_type, int64_t delta);
  // Marks the type distilled at `at`: its waiting count goes back to 0.
  Status MarkDistilled(int64_t namespace_id, std::string_view task_type, TimestampMs at);

 private:
  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_RULE_STORE_H_
