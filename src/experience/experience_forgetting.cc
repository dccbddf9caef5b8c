#include "experience/experience_forgetting.h"

#include <vector>

#include "experience/experience_forget_score.h"
#include "experience/rule_lifecycle.h"
#include "store/sqlite/episode_store.h"
#include "store/sqlite/experience_access_store.h"
#include "store/sqlite/rule_store.h"

namespace engram::experience {
namespace {

constexpr const char* kReason = "forget score below the delete threshold (docs/experience.md)";

double SuccessRate(const sqlite::ExperienceAccessRow& row) {
  return row.object_type == "episode" ? EpisodeSuccessRate(row.outcome) : RuleSuccessRate(row.rule_counts);
}

// Takes the deleted episodes out of the rules they supported, before their rows go.
Status UncountEpisodes(sqlite::Database& db, int64_t namespace_id, TimestampMs now,
                       const std::vector<sqlite::ExperienceAccessRow>& deleted) {
  sqlite::EpisodeStore episodes(db);
  sqlite::RuleStore rules(db);
  RuleLifecycle lifecycle(episodes, rules, namespace_id, now, nullptr);
  for (const sqlite::ExperienceAccessRow& row : deleted) {
    if (row.object_type != "episode") continue;
    Episode e;
    e.seq = row.seq;
    e.id = row.id;
    e.task_type = row.task_type;
    ENGRAM_RETURN_IF_ERROR(lifecycle.RemoveEpisode(e, "the episode was forgotten (its forget score)"));
  }
  return Status::Ok();
}

}  // namespace

Result<ForgettingReport> ForgetColdExperience(lifecycle::ForgetStores& stores, int64_t namespace_id, TimestampMs now,
                                              const ExperienceOptions& options, std::string_view actor) {
  sqlite::ExperienceAccessStore access(stores.db);
  auto rows = access.Rows(namespace_id);
  if (!rows) return Error(rows.error());
  ForgettingReport report;
  std::vector<sqlite::ExperienceAccessRow> deleted;
  for (const sqlite::ExperienceAccessRow& row : *rows) {
    const double score = ForgetScore(
        {.last_access = row.last_accessed_at.value_or(row.made_at), .accesses = row.access_count,
         .success_rate = SuccessRate(row)},
        now, options);
    const ForgetVerdict verdict = Judge(score, options);
    if (verdict == ForgetVerdict::kDelete && row.cold_at.has_value()) {
      deleted.push_back(row);
    } else if (verdict != ForgetVerdict::kWarm && !row.cold_at.has_value()) {
      ENGRAM_RETURN_IF_ERROR(access.SetCold(namespace_id, row.object_type, row.id, now));
      ++report.cold;
    } else if (verdict == ForgetVerdict::kWarm && row.cold_at.has_value()) {
      ENGRAM_RETURN_IF_ERROR(access.SetCold(namespace_id, row.object_type, row.id, std::nullopt));
      ++report.warmed;
    }
  }
  if (deleted.empty()) return report;
  ENGRAM_RETURN_IF_ERROR(UncountEpisodes(stores.db, namespace_id, now, deleted));
  std::vector<lifecycle::ForgottenExperience> objects;
  for (const sqlite::ExperienceAccessRow& row : deleted) objects.push_back({row.object_type, row.seq, row.id});
  auto forgotten = lifecycle::ForgetExperienceInTransaction(stores, namespace_id, objects, kReason, actor, now);
  if (!forgotten) return Error(forgotten.error());
  report.forgotten = static_cast<int64_t>(objects.size());
  return report;
}

}  // namespace engram::experience
