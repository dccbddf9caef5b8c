// store/sqlite/episode_store.h — SQL over episodes (one task an agent did), their ordered steps and
// the full-text index over goal and steps (docs/experience.md). Callers own transactions, as with
// EventStore: every method runs inside the caller's transaction. Not thread-safe (one connection).
#ifndef ENGRAM_STORE_SQLITE_EPISODE_STORE_H_
#define ENGRAM_STORE_SQLITE_EPISODE_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"

namespace engram::sqlite {

struct StoredEpisode {
  int64_t namespace_id = 0;
  Episode episode;  // episode.seq is the row's seq; steps loaded only when asked
};

// Filters of EpisodeStore::List (empty = any).
struct EpisodeFilter {
  std::string task_type;
  std::string outcome;
  std::string status;
  std::string agent_id;
};

// The goal and type of an episode (what the task-type model learns from).
struct TypedGoal {
  int64_t seq = 0;
  std::string id;
  std::string goal;
  std::string task_type;
};

class EpisodeStore {
 public:
  explicit EpisodeStore(Database& db) : db_(db) {}

  // Inserts the episode (no steps: AppendStep adds them) and its full-text row (goal; steps
  // empty); returns its seq. `e.id` must be a new ULID. Errors: kAlreadyExists (id taken), from
  // SQLite.
  Result<int64_t> Insert(int64_t namespace_id, const Episode& e);

  // Appends `step` (its ordinal must be step_count + 1) to the episode: the step row, the
  // episode's step_count, tools_used and write_signature, and the steps column of its full-text
  // row. Errors: kAlreadyExists (ordinal taken), from SQLite.
  Status AppendStep(int64_t episode_seq, const EpisodeStep& step, TimestampMs now);

  // Ends the episode: status "ended" and the outcome fields. Errors: from SQLite.
  Status End(int64_t episode_seq, const Episode& ended, TimestampMs now);

  // Sets the task type (and its source and confidence). Errors: from SQLite.
  Status SetTaskType(int64_t episode_seq, std::string_view task_type, std::string_view source,
                     double confidence, TimestampMs now);

  // The episode with this id (any namespace), with its steps when `with_steps`; nullopt when none.
  Result<std::optional<StoredEpisode>> Get(std::string_view id, bool with_steps);
  // The episodes with these seqs, in the order of `seqs` (missing seqs skipped).
  Result<std::vector<StoredEpisode>> GetBySeqs(const std::vector<int64_t>& seqs, bool with_steps);

  // One page of the namespace's episodes, newest first, seq < before_seq when before_seq > 0.
  Result<std::vector<Episode>> List(int64_t namespace_id, const EpisodeFilter& filter, int limit,
                                    int64_t before_seq);

  // The ended episodes of one type whose outcome is success or failure, the most recent `limit`
  // (by seq), returned oldest first, with steps: the distiller's window.
  Result<std::vector<StoredEpisode>> DecidedOfType(int64_t namespace_id, std::string_view task_type, int limit);

  // Seqs of the namespace's ended episodes of one type with this outcome, newest first, at most
  // `limit`.
  Result<std::vector<int64_t>> RecentOfType(int64_t namespace_id, std::string_view task_type, std::string_view outcome,
                                            int limit);

  // The session's episodes as the segmenter needs them (docs/experience.md): whether it holds an
  // explicit one (it is then not segmented), the last event and end time of its newest detected one
  // (nullopt when none: segmenting starts at the session's first event), and the seq of its newest open
  // explicit episode (nullopt when none: a captured tool call then becomes no step).
  Result<bool> HasExplicitEpisode(int64_t namespace_id, std::string_view session_id);
  struct SegmentEnd {
    std::string last_event_id;
    TimestampMs ended_at = 0;
  };
  Result<std::optional<SegmentEnd>> LastSegmentEnd(int64_t namespace_id, std::string_view session_id);
  Result<std::optional<int64_t>> OpenExplicitEpisode(int64_t namespace_id, std::string_view session_id);
  // True when the episode has a step whose evidence is this event.
  Result<bool> HasStepFrom(int64_t episode_seq, std::string_view event_id);

  // Distinct task types of the namespace's ended episodes, sorted.
  Result<std::vector<std::string>> TaskTypes(int64_t namespace_id);

  // The goals of the ended, typed episodes the task-type model learns from: successes and partials
  // whose type was declared or read from their write signature (what was done and worked; a
  // failure's calls need not be what its task needed, and training on declared failures too lowered
  // EXP-2's type accuracy from 0.44 to 0.34: bench/RESULTS.md); never an inferred type (the model
  // would learn its own guesses). The most recent `limit`, oldest first.
  Result<std::vector<TypedGoal>> TypedGoals(int64_t namespace_id, int limit);

  // A number that changes whenever an episode of the namespace is written (max updated_at and
  // count): the task-type model of the namespace is rebuilt when it changes.
  Result<std::string> Fingerprint(int64_t namespace_id);

  // Full-text search of the namespace's episodes with FTS5's bm25 (k1 1.2, b 0.75, its built-in
  // constants), goal hits weighted `goal_weight` and step hits `steps_weight`; best `limit` first,
  // scores positive (higher is better). `match` is an FTS5 expression (recall/match_expression).
  Result<std::vector<SearchHit>> Search(std::string_view match, int64_t namespace_id, double goal_weight,
                                        double steps_weight, int limit);

 private:
  Result<std::vector<EpisodeStep>> Steps(int64_t episode_seq);
  Database& db_;
};

// The first ≈ `max_chars` characters of a goal, cut at a word boundary when one is near, with "…"
// when cut (Episode::goal_short).
std::string ShortGoal(std::string_view goal, size_t max_chars = 50);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_EPISODE_STORE_H_
