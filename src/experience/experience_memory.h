// experience/experience_memory.h — episodes, rules and experience recall over one database
// connection, as the Engine offers them (docs/experience.md). Owns the write transactions of its
// operations and a per-namespace cache of the task-type model (rebuilt when the namespace's
// episodes change).
//
// Not thread-safe: the Engine serialises calls (its mutex), as for every store.
#ifndef ENGRAM_EXPERIENCE_EXPERIENCE_MEMORY_H_
#define ENGRAM_EXPERIENCE_EXPERIENCE_MEMORY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"
#include "engram/types.h"
#include "experience/episode_segmenter.h"
#include "experience/llm_distill_pass.h"
#include "experience/task_type_model.h"
#include "store/sqlite/database.h"
#include "text/analyzer.h"

namespace engram::experience {

// A type inferred for an ended episode without steps is kept only from this probability on.
inline constexpr double kMinInferredProbability = 0.5;
// The task-type model learns from the namespace's most recent 5,000 typed successful episodes.
inline constexpr int kMaxTrainingEpisodes = 5000;
// Experience recall reads the 200 best full-text matches and the 100 most recent successes of each
// of the task's 3 most probable types.
inline constexpr int kTextCandidates = 200;
inline constexpr int kTypeCandidates = 100;
inline constexpr size_t kTypesConsidered = 3;

class ExperienceMemory {
 public:
  ExperienceMemory(sqlite::Database& db, text::Analyzer& analyzer, const ExperienceOptions& options)
      : db_(db), analyzer_(analyzer), options_(options) {}

  // The operations of the Engine of the same names (engram/engine.h has their contracts); the
  // namespace is validated by the caller. `now` is the wall clock, ms UTC.
  Result<Episode> Start(const EpisodeStartInput& input, TimestampMs now);
  Result<Episode> AddStep(const EpisodeStepAppend& input, TimestampMs now);
  Result<EndEpisodeResult> End(const EpisodeEndInput& input, TimestampMs now);
  Result<EndEpisodeResult> SetType(std::string_view namespace_name, std::string_view episode_id,
                                   std::string_view task_type, TimestampMs now);
  Result<Episode> Get(std::string_view namespace_name, std::string_view episode_id);
  Result<std::vector<Episode>> List(const ListEpisodesQuery& query);
  // Engine::Distill, offline: then, in the same write transaction, the checked rules a model
  // proposed for each type (`proposals`, the LLM path: experience/llm_distill_pass.h) through
  // RuleLifecycle::AddProposals.
  Result<RuleUpdateReport> Distill(const DistillRequest& request, TimestampMs now,
                                   const std::vector<ModelProposals>& proposals = {});
  // What a distillation of `request` reads, for the LLM path: the kDistillWindow most recent
  // decided episodes (with steps) of every type with episodes, or of request.task_type. A read
  // transaction. Errors: kInvalidArgument (task_type), kNotFound (namespace), from SQLite.
  Result<std::vector<DistillWindow>> DistillWindows(const DistillRequest& request);
  Result<std::vector<Rule>> ListRules(const ListRulesQuery& query);
  Result<RuleDetail> GetRule(std::string_view namespace_name, std::string_view rule_id);
  Result<ExperienceResult> Recall(const ExperienceQuery& query, TimestampMs now);
  // Engine::SegmentEpisodes: one write transaction per session.
  Result<SegmentReport> Segment(const SegmentRequest& request, TimestampMs now);
  // The task types that the episodes of the last Segment call distilled (offline), sorted, for the
  // LLM path the Engine runs after it (SegmentReport has no rule report); clears them.
  std::vector<std::string> TakeSegmentDistilled();

  // A tool event just stored (inside the caller's write transaction, `namespace_id` its
  // namespace's row): when its session has an open explicit episode (the newest one when several),
  // the call becomes that episode's next step — action from the tool name and argument summary,
  // result from the outcome, evidence the event — unless a step of it already exists. Any other
  // event, or no open episode, changes nothing. Errors: from SQLite.
  Status AttachToolCall(int64_t namespace_id, const Event& event, TimestampMs now);
  Result<std::vector<ColdExperience>> ListCold(std::string_view namespace_name, int limit);

 private:
  struct CachedModel {
    std::string fingerprint;
    std::vector<TaskTypeExample> examples;
    std::vector<std::string> ids;  // episode id of each example
    std::shared_ptr<const TaskTypeModel> model;
  };
  // The namespace's task-type model, without the episodes of `exclude` (retrained, not cached,
  // when one of them is a training example). Runs inside the caller's transaction.
  Result<std::shared_ptr<const TaskTypeModel>> ModelFor(int64_t namespace_id, const std::set<std::string>& exclude);
  // The type of an ended episode that declares none: its write signature, or (no steps at all) the
  // model's guess when sure enough; "" when neither.
  Result<std::pair<std::string, double>> DerivedType(int64_t namespace_id, const Episode& episode);
  // After an episode is decided: counts it in the rules of its type, and distils the type when
  // ExperienceOptions::distill_every decided episodes arrived since the last time.
  Status LearnFrom(int64_t namespace_id, const Episode& episode, TimestampMs now, RuleUpdateReport* report);
  Result<int64_t> NamespaceId(std::string_view namespace_name);
  // Ends the stored open episode `e` with the outcome fields of `ended`, gives it its type (the
  // declared one, else derived) and learns from it; *out gets the ended episode with its steps.
  // Inside the caller's transaction.
  Status Finish(int64_t namespace_id, const Episode& e, const Episode& ended, TimestampMs now, EndEpisodeResult* out);
  // Segments one session (a write transaction): see Segment.
  Status SegmentSession(int64_t namespace_id, const std::string& namespace_name, const std::string& session_id,
                        bool close, TimestampMs clock, SegmentReport* report);
  // Stores a detected episode (inside the caller's transaction).
  Status CommitDraft(int64_t namespace_id, const std::string& namespace_name, const std::string& session_id,
                     const EpisodeDraft& draft, TimestampMs now, SegmentReport* report);
  // Trains a task-type model with the options' epochs and L2 (chosen by cross-validation when 0).
  TaskTypeModel TrainModel(const std::vector<TaskTypeExample>& examples) const;

  sqlite::Database& db_;
  text::Analyzer& analyzer_;
  ExperienceOptions options_;
  std::map<int64_t, CachedModel> models_;
  std::set<std::string> segment_distilled_;  // see TakeSegmentDistilled
};

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_EXPERIENCE_MEMORY_H_
