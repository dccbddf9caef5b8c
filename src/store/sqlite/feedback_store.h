// store/sqlite/feedback_store.h — ratings of recalled items (`engram feedback`), the utility prior
// of recall. One row per (item, question): a later rating of the same item for the same question
// replaces the earlier one.
//
// Callers own transactions, as with EventStore. Not thread-safe (the Engine serialises calls).
#ifndef ENGRAM_STORE_SQLITE_FEEDBACK_STORE_H_
#define ENGRAM_STORE_SQLITE_FEEDBACK_STORE_H_

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

// A recalled item as stored: its table, row and namespace.
struct FeedbackTarget {
  int64_t seq = 0;
  int64_t namespace_id = 0;
  std::string namespace_name;
};

struct FeedbackCounts {
  int64_t helpful = 0;
  int64_t unhelpful = 0;
};

class FeedbackStore {
 public:
  explicit FeedbackStore(Database& db) : db_(db) {}

  // The event or claim ("event" | "claim") with this id. Errors: kNotFound.
  Result<FeedbackTarget> Resolve(std::string_view item_type, std::string_view item_id);
  // Records (or replaces) the rating of the item for the question hash.
  Status Record(const FeedbackTarget& target, std::string_view item_type, std::string_view query_hash,
                bool helpful, TimestampMs now);
  // Ratings of one item over every question.
  Result<FeedbackCounts> Counts(std::string_view item_type, int64_t seq);
  // True when some item of the namespace has a rating (one seek).
  Result<bool> HasRatings(int64_t namespace_id);
  // helpful − unhelpful per event seq, for the events among `seqs` that were rated (one query);
  // empty when the namespace has no ratings at all (one seek).
  Result<std::unordered_map<int64_t, double>> EventUtility(int64_t namespace_id,
                                                          const std::vector<int64_t>& seqs);

 private:
  Database& db_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_FEEDBACK_STORE_H_
