// store/sqlite/experience_access_store.h — what the forget score of experience reads and writes
// (experience/experience_forget_score.h, docs/experience.md "Forgetting cold experience"): per
// episode or rule id, how often experience recall returned it, when last, and since when it is
// cold (table experience_access, migration 13; a row exists only once one of these is set). Callers
// own transactions. Not thread-safe (one connection).
#ifndef ENGRAM_STORE_SQLITE_EXPERIENCE_ACCESS_STORE_H_
#define ENGRAM_STORE_SQLITE_EXPERIENCE_ACCESS_STORE_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

// One ended episode or one rule of a namespace, with what its forget score needs.
struct ExperienceAccessRow {
  std::string object_type;  // episode or rule
  int64_t seq = 0;          // the episode's or rule's seq
  std::string id;
  std::string task_type;
  TimestampMs made_at = 0;  // episode: ended_at; rule: created_at
  int64_t access_count = 0;
  std::optional<TimestampMs> last_accessed_at;
  std::optional<TimestampMs> cold_at;
  // The success-rate inputs: an episode's outcome; a rule's polarity and counts.
  std::string outcome;
  Rule rule_counts;  // rules only: polarity, support, success_count, failure_count
};

class ExperienceAccessStore {
 public:
  explicit ExperienceAccessStore(Database& db) : db_(db) {}

  // Adds `count` recall hits of the episode or rule `id`, the latest at `last` (ms UTC). Returns
  // false when the id is no episode or rule (forgotten, or a claim's). Errors: from SQLite.
  Result<bool> AddHits(std::string_view id, int64_t count, TimestampMs last);
  // The ended episodes, then the rules, of the namespace. Errors: from SQLite.
  Result<std::vector<ExperienceAccessRow>> Rows(int64_t namespace_id);
  // Marks the object cold at `at` (or warm again: nullopt). Errors: from SQLite.
  Status SetCold(int64_t namespace_id, std::string_view object_type, std::string_view id,
                 std::optional<TimestampMs> at);
  // The ids of the namespace's cold episodes and rules. Errors: from SQLite.
  Result<std::set<std::string>> ColdIds(int64_t namespace_id);
  // Cold episodes and rules, oldest cold first. Errors: from SQLite.
  Result<std::vector<ColdExperience>> ListCold(int64_t namespace_id, int limit);

 private:
  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_EXPERIENCE_ACCESS_STORE_H_
