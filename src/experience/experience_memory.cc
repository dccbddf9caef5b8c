#include "experience/experience_memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "experience/agent_area.h"
#include "experience/episode_segmenter.h"
#include "experience/episode_validation.h"
#include "experience/experience_ranking.h"
#include "experience/rule_lifecycle.h"
#include "experience/task_terms.h"
#include "experience/write_signature.h"
#include "recall/match_expression.h"
#include "store/sqlite/audit_log.h"
#include "store/sqlite/episode_store.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/experience_access_store.h"
#include "store/sqlite/rule_store.h"
#include "util/ulid.h"
#include "util/utf8.h"
#include "write/event_validation.h"

namespace engram::experience {
namespace {

constexpr size_t kMaxQueryBytes = 64 * 1024;
constexpr int kMaxSupportShown = 100;

Status UnknownNamespace(std::string_view name) {
  return Status::NotFound(fmt::format("unknown namespace \"{}\"", name));
}

Status NoEpisode(std::string_view id, std::string_view namespace_name) {
  return Status::NotFound(fmt::format("no episode with id \"{}\" in namespace \"{}\"", id, namespace_name));
}

// The episode with this id in this namespace (with steps when asked). Errors: kNotFound.
Result<sqlite::StoredEpisode> EpisodeIn(sqlite::EpisodeStore& store, int64_t namespace_id,
                                        std::string_view namespace_name, std::string_view id, bool with_steps) {
  auto e = store.Get(id, with_steps);
  if (!e) return Error(e.error());
  if (!e->has_value() || (*e)->namespace_id != namespace_id) return Error(NoEpisode(id, namespace_name));
  return std::move(**e);
}

// Checks that a step's evidence event exists in the namespace. Errors: kNotFound naming the field.
Status CheckEvidence(sqlite::EventStore& events, std::string_view namespace_name, const EpisodeStep& step) {
  if (step.evidence_event_id.empty()) return Status::Ok();
  auto event = events.Get(step.evidence_event_id);
  if (!event && event.error().code() != StatusCode::kNotFound) return event.error();
  if (!event || event->namespace_name != namespace_name) {
    return Status::NotFound(fmt::format("field \"evidence_event_id\": no event with id \"{}\" in namespace \"{}\"",
                                        step.evidence_event_id, namespace_name));
  }
  return Status::Ok();
}

Status CheckLimit(std::string_view field, int64_t value, int64_t low, int64_t high) {
  if (value < low || value > high) {
    return Status::InvalidArgument(fmt::format("field \"{}\": must be between {} and {}", field, low, high));
  }
  return Status::Ok();
}

// The model's best guess for a goal, when it reaches kMinInferredProbability; {"", 0} otherwise.
std::pair<std::string, double> InferredType(const TaskTypeModel& model, text::Analyzer& analyzer,
                                            std::string_view goal) {
  auto guesses = model.Classify(TaskTerms(analyzer, goal));
  if (guesses.empty() || guesses[0].probability < kMinInferredProbability) return {};
  return {guesses[0].task_type, guesses[0].probability};
}

// Validates ExperienceQuery::agent_id: absent is the whole namespace; given, it names an agent.
Status CheckAgent(const std::optional<std::string>& agent_id) {
  if (!agent_id.has_value()) return Status::Ok();
  if (IsBlank(*agent_id)) {
    return Status::InvalidArgument(fmt::format(
        "field \"agent\": is {} (an empty value never means all of them; leave the field out to recall from the "
        "whole namespace)",
        agent_id->empty() ? "empty" : "blank"));
  }
  return ValidateNameField("agent", *agent_id, true);
}

// Copies a placement into a recalled rule or episode (area, sources, weight, why).
template <typename Recalled>
void Place(Recalled& x, const std::map<std::string, Placement>& placed, const std::string& id) {
  auto it = placed.find(id);
  if (it == placed.end()) return;
  x.area = it->second.area;
  x.source_agents = it->second.source_agents;
  x.share_weight = it->second.weight;
  if (!it->second.why.empty()) x.why += "; " + it->second.why;
}

}  // namespace

Result<int64_t> ExperienceMemory::NamespaceId(std::string_view namespace_name) {
  auto ns = sqlite::EventStore(db_).FindNamespace(namespace_name);
  if (!ns) return Error(ns.error());
  if (!ns->has_value()) return Error(UnknownNamespace(namespace_name));
  return **ns;
}

Result<Episode> ExperienceMemory::Start(const EpisodeStartInput& input, TimestampMs now) {
  auto episode = ValidateStart(input, now);
  if (!episode) return Error(episode.error());
  std::vector<EpisodeStep> steps;
  for (size_t i = 0; i < input.steps.size(); ++i) {
    auto step = ValidateStep(input.steps[i], now);
    if (!step) return Error(step.error().WithContext(fmt::format("step {}", i + 1)));
    step->ordinal = static_cast<int>(i + 1);
    steps.push_back(std::move(*step));
  }
  std::string id;
  Status st = db_.WriteTransaction([&]() -> Status {
    sqlite::EventStore events(db_);
    sqlite::EpisodeStore store(db_);
    auto ns = events.EnsureNamespace(input.namespace_name, now);
    if (!ns) return ns.error();
    for (const EpisodeStep& s : steps) {
      Status evidence = CheckEvidence(events, input.namespace_name, s);
      if (!evidence.ok()) return evidence.WithContext(fmt::format("step {}", s.ordinal));
    }
    Episode e = *episode;
    e.id = NewUlid(now);
    auto seq = store.Insert(*ns, e);
    if (!seq) return seq.error();
    for (const EpisodeStep& s : steps) ENGRAM_RETURN_IF_ERROR(store.AppendStep(*seq, s, now));
    id = e.id;
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return Get(input.namespace_name, id);
}

Result<Episode> ExperienceMemory::AddStep(const EpisodeStepAppend& input, TimestampMs now) {
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("episode_id", input.episode_id, true));
  auto step = ValidateStep(input.step, now);
  if (!step) return Error(step.error());
  Episode out;
  Status st = db_.WriteTransaction([&]() -> Status {
    sqlite::EventStore events(db_);
    sqlite::EpisodeStore store(db_);
    auto ns = NamespaceId(input.namespace_name);
    if (!ns) return ns.error();
    auto e = EpisodeIn(store, *ns, input.namespace_name, input.episode_id, false);
    if (!e) return e.error();
    if (e->episode.status != "open") {
      return Status::FailedPrecondition(fmt::format("episode \"{}\" has ended ({}): steps are added to open episodes",
                                                    input.episode_id, e->episode.outcome));
    }
    if (e->episode.step_count >= kMaxEpisodeSteps) {
      return Status::FailedPrecondition(
          fmt::format("episode \"{}\" has {} steps, the most an episode may have", input.episode_id, kMaxEpisodeSteps));
    }
    ENGRAM_RETURN_IF_ERROR(CheckEvidence(events, input.namespace_name, *step));
    step->ordinal = static_cast<int>(e->episode.step_count + 1);
    ENGRAM_RETURN_IF_ERROR(store.AppendStep(e->episode.seq, *step, now));
    auto after = EpisodeIn(store, *ns, input.namespace_name, input.episode_id, false);
    if (!after) return after.error();
    out = std::move(after->episode);
    out.steps = {*step};
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return out;
}

Result<std::pair<std::string, double>> ExperienceMemory::DerivedType(int64_t namespace_id, const Episode& episode) {
  if (episode.step_count > 0) return std::pair<std::string, double>(WriteSignatureType(episode.write_signature), 1.0);
  auto model = ModelFor(namespace_id, {episode.id});
  if (!model) return Error(model.error());
  return InferredType(**model, analyzer_, episode.goal);
}

Status ExperienceMemory::LearnFrom(int64_t namespace_id, const Episode& episode, TimestampMs now,
                                   RuleUpdateReport* report) {
  if (episode.task_type.empty() || (episode.outcome != "success" && episode.outcome != "failure")) {
    return Status::Ok();
  }
  sqlite::EpisodeStore episodes(db_);
  sqlite::RuleStore rules(db_);
  RuleLifecycle lifecycle(episodes, rules, namespace_id, now, report);
  ENGRAM_RETURN_IF_ERROR(lifecycle.ApplyEpisode(episode));
  auto waiting = rules.AddPendingEpisodes(namespace_id, episode.task_type, 1);
  if (!waiting) return waiting.error();
  if (*waiting >= options_.distill_every) return lifecycle.Distill(episode.task_type);
  return Status::Ok();
}

Result<EndEpisodeResult> ExperienceMemory::End(const EpisodeEndInput& input, TimestampMs now) {
  auto ended = ValidateEnd(input, now);
  if (!ended) return Error(ended.error());
  EndEpisodeResult out;
  Status st = db_.WriteTransaction([&]() -> Status {
    out = {};
    sqlite::EpisodeStore store(db_);
    auto ns = NamespaceId(input.namespace_name);
    if (!ns) return ns.error();
    auto e = EpisodeIn(store, *ns, input.namespace_name, input.episode_id, false);
    if (!e) return e.error();
    if (e->episode.status != "open") {
      return Status::FailedPrecondition(
          fmt::format("episode \"{}\" has already ended ({})", input.episode_id, e->episode.outcome));
    }
    return Finish(*ns, e->episode, *ended, now, &out);
  });
  if (!st.ok()) return Error(st);
  return out;
}

Status ExperienceMemory::Finish(int64_t namespace_id, const Episode& e, const Episode& ended, TimestampMs now,
                                EndEpisodeResult* out) {
  sqlite::EpisodeStore store(db_);
  ENGRAM_RETURN_IF_ERROR(store.End(e.seq, ended, now));
  if (!ended.task_type.empty()) {
    ENGRAM_RETURN_IF_ERROR(store.SetTaskType(e.seq, ended.task_type, "declared", 1.0, now));
  } else if (e.task_type_source != "declared") {
    auto derived = DerivedType(namespace_id, e);
    if (!derived) return derived.error();
    if (!derived->first.empty()) {
      const char* source = e.step_count > 0 ? "write_signature" : "inferred";
      ENGRAM_RETURN_IF_ERROR(store.SetTaskType(e.seq, derived->first, source, derived->second, now));
    }
  }
  auto after = store.GetBySeqs({e.seq}, /*with_steps=*/true);
  if (!after) return after.error();
  if (after->empty()) return Status::NotFound(fmt::format("no episode with id \"{}\"", e.id));
  out->episode = std::move(after->front().episode);
  return LearnFrom(namespace_id, out->episode, now, &out->rules);
}

Result<EndEpisodeResult> ExperienceMemory::SetType(std::string_view namespace_name, std::string_view episode_id,
                                                   std::string_view task_type, TimestampMs now) {
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("episode_id", episode_id, true));
  ENGRAM_RETURN_IF_ERROR(ValidateTaskType("task_type", task_type));
  EndEpisodeResult out;
  Status st = db_.WriteTransaction([&]() -> Status {
    out = {};
    sqlite::EpisodeStore store(db_);
    sqlite::RuleStore rules(db_);
    auto ns = NamespaceId(namespace_name);
    if (!ns) return ns.error();
    auto e = EpisodeIn(store, *ns, namespace_name, episode_id, true);
    if (!e) return e.error();
    const Episode before = e->episode;
    if (before.task_type == task_type && before.task_type_source == "declared") {
      out.episode = before;
      return Status::Ok();
    }
    RuleLifecycle lifecycle(store, rules, *ns, now, &out.rules);
    ENGRAM_RETURN_IF_ERROR(lifecycle.RemoveEpisode(before));
    if (!before.task_type.empty() && before.status == "ended") {
      auto waiting = rules.AddPendingEpisodes(*ns, before.task_type, -1);
      if (!waiting) return waiting.error();
    }
    ENGRAM_RETURN_IF_ERROR(store.SetTaskType(before.seq, task_type, "declared", 1.0, now));
    nlohmann::json detail{{"from", before.task_type}, {"from_source", before.task_type_source}, {"to", task_type}};
    ENGRAM_RETURN_IF_ERROR(sqlite::AuditLog(db_).Append(
        {.at = now, .actor = "api", .action = "retyped", .object_type = "episode", .object_id = before.id,
         .reason = "task type corrected", .detail_json = detail.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)},
        *ns));
    auto after = EpisodeIn(store, *ns, namespace_name, episode_id, true);
    if (!after) return after.error();
    out.episode = std::move(after->episode);
    return LearnFrom(*ns, out.episode, now, &out.rules);
  });
  if (!st.ok()) return Error(st);
  return out;
}

Result<Episode> ExperienceMemory::Get(std::string_view namespace_name, std::string_view episode_id) {
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", episode_id, true));
  Episode out;
  Status st = db_.ReadTransaction([&]() -> Status {
    auto ns = sqlite::EventStore(db_).FindNamespace(namespace_name);
    if (!ns) return ns.error();
    if (!ns->has_value()) return NoEpisode(episode_id, namespace_name);
    sqlite::EpisodeStore store(db_);
    auto e = EpisodeIn(store, **ns, namespace_name, episode_id, true);
    if (!e) return e.error();
    out = std::move(e->episode);
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return out;
}

Result<std::vector<Episode>> ExperienceMemory::List(const ListEpisodesQuery& q) {
  ENGRAM_RETURN_IF_ERROR(CheckLimit("limit", q.limit, 1, 1000));
  if (!q.outcome.empty()) ENGRAM_RETURN_IF_ERROR(ValidateOneOf("outcome", q.outcome, kEpisodeOutcomes));
  if (!q.status.empty()) ENGRAM_RETURN_IF_ERROR(ValidateOneOf("status", q.status, kEpisodeStatuses));
  std::vector<Episode> out;
  Status st = db_.ReadTransaction([&]() -> Status {
    auto ns = sqlite::EventStore(db_).FindNamespace(q.namespace_name);
    if (!ns) return ns.error();
    if (!ns->has_value()) return Status::Ok();
    auto page = sqlite::EpisodeStore(db_).List(
        **ns, {.task_type = q.task_type, .outcome = q.outcome, .status = q.status, .agent_id = q.agent_id}, q.limit,
        q.after_seq);
    if (!page) return page.error();
    out = std::move(*page);
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return out;
}

Result<RuleUpdateReport> ExperienceMemory::Distill(const DistillRequest& request, TimestampMs now,
                                                  const std::vector<ModelProposals>& proposals) {
  if (!request.task_type.empty()) ENGRAM_RETURN_IF_ERROR(ValidateTaskType("task_type", request.task_type));
  RuleUpdateReport report;
  Status st = db_.WriteTransaction([&]() -> Status {
    report = {};
    auto ns = NamespaceId(request.namespace_name);
    if (!ns) return ns.error();
    sqlite::EpisodeStore episodes(db_);
    sqlite::RuleStore rules(db_);
    std::vector<std::string> types;
    if (request.task_type.empty()) {
      auto all = episodes.TaskTypes(*ns);
      if (!all) return all.error();
      types = std::move(*all);
    } else {
      types.push_back(request.task_type);
    }
    RuleLifecycle lifecycle(episodes, rules, *ns, now, &report);
    for (const std::string& type : types) ENGRAM_RETURN_IF_ERROR(lifecycle.Distill(type));
    for (const ModelProposals& p : proposals) {
      ENGRAM_RETURN_IF_ERROR(lifecycle.AddProposals(p.task_type, p.model, p.rules));
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return report;
}

Result<std::vector<DistillWindow>> ExperienceMemory::DistillWindows(const DistillRequest& request) {
  if (!request.task_type.empty()) ENGRAM_RETURN_IF_ERROR(ValidateTaskType("task_type", request.task_type));
  std::vector<DistillWindow> out;
  Status st = db_.ReadTransaction([&]() -> Status {
    out.clear();
    auto ns = NamespaceId(request.namespace_name);
    if (!ns) return ns.error();
    sqlite::EpisodeStore episodes(db_);
    std::vector<std::string> types{request.task_type};
    if (request.task_type.empty()) {
      auto all = episodes.TaskTypes(*ns);
      if (!all) return all.error();
      types = std::move(*all);
    }
    for (const std::string& type : types) {
      auto window = episodes.DecidedOfType(*ns, type, kDistillWindow);
      if (!window) return window.error();
      DistillWindow w{type, {}};
      for (sqlite::StoredEpisode& e : *window) w.episodes.push_back(std::move(e.episode));
      out.push_back(std::move(w));
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return out;
}

Result<std::vector<Rule>> ExperienceMemory::ListRules(const ListRulesQuery& q) {
  ENGRAM_RETURN_IF_ERROR(CheckLimit("limit", q.limit, 1, 1000));
  if (!q.status.empty()) ENGRAM_RETURN_IF_ERROR(ValidateOneOf("status", q.status, kRuleStatuses));
  std::vector<Rule> out;
  Status st = db_.ReadTransaction([&]() -> Status {
    auto ns = sqlite::EventStore(db_).FindNamespace(q.namespace_name);
    if (!ns) return ns.error();
    if (!ns->has_value()) return Status::Ok();
    auto rules = sqlite::RuleStore(db_).List(**ns, q.task_type, q.status, q.include_deprecated, q.limit, q.after_seq);
    if (!rules) return rules.error();
    for (sqlite::StoredRule& r : *rules) out.push_back(std::move(r.rule));
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return out;
}

Result<RuleDetail> ExperienceMemory::GetRule(std::string_view namespace_name, std::string_view rule_id) {
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", rule_id, true));
  RuleDetail out;
  Status st = db_.ReadTransaction([&]() -> Status {
    out = {};
    sqlite::RuleStore rules(db_);
    auto not_found = Status::NotFound(fmt::format("no rule with id \"{}\" in namespace \"{}\"", rule_id, namespace_name));
    auto r = rules.Get(rule_id);
    if (!r) return r.error();
    if (!r->has_value() || (*r)->rule.namespace_name != namespace_name) return not_found;
    out.rule = (*r)->rule;
    auto support = rules.Support(out.rule.seq, kMaxSupportShown);
    if (!support) return support.error();
    for (const sqlite::RuleSupportRow& s : *support) out.rule.support_episode_ids.push_back(s.episode_id);
    auto history = rules.History(out.rule.seq);
    if (!history) return history.error();
    out.history = std::move(*history);
    // The chain: back through supersedes, then forward through superseded_by.
    std::vector<Rule> back;
    for (std::string id = out.rule.supersedes_id; !id.empty() && back.size() < 1000;) {
      auto prev = rules.Get(id);
      if (!prev) return prev.error();
      if (!prev->has_value()) break;
      back.push_back((*prev)->rule);
      id = (*prev)->rule.supersedes_id;
    }
    out.chain.assign(back.rbegin(), back.rend());
    out.chain.push_back(out.rule);
    for (std::string id = out.rule.superseded_by_id; !id.empty() && out.chain.size() < 2000;) {
      auto next = rules.Get(id);
      if (!next) return next.error();
      if (!next->has_value()) break;
      out.chain.push_back((*next)->rule);
      id = (*next)->rule.superseded_by_id;
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return out;
}

TaskTypeModel ExperienceMemory::TrainModel(const std::vector<TaskTypeExample>& examples) const {
  TaskTypeModelOptions training{.epochs = options_.type_model_epochs, .l2 = options_.type_model_l2};
  if (options_.type_model_l2 > 0) return TaskTypeModel::Train(examples, training);
  return TaskTypeModel::TrainSelectingL2(examples, training);
}

Result<std::shared_ptr<const TaskTypeModel>> ExperienceMemory::ModelFor(int64_t namespace_id,
                                                                        const std::set<std::string>& exclude) {
  sqlite::EpisodeStore store(db_);
  auto fingerprint = store.Fingerprint(namespace_id);
  if (!fingerprint) return Error(fingerprint.error());
  CachedModel& cached = models_[namespace_id];
  if (cached.model == nullptr || cached.fingerprint != *fingerprint) {
    auto goals = store.TypedGoals(namespace_id, kMaxTrainingEpisodes);
    if (!goals) return Error(goals.error());
    cached.examples.clear();
    cached.ids.clear();
    for (const sqlite::TypedGoal& g : *goals) {
      cached.examples.push_back({TaskTerms(analyzer_, g.goal), g.task_type});
      cached.ids.push_back(g.id);
    }
    cached.model = std::make_shared<const TaskTypeModel>(TrainModel(cached.examples));
    cached.fingerprint = *fingerprint;
  }
  if (exclude.empty()) return cached.model;
  std::vector<TaskTypeExample> kept;
  for (size_t i = 0; i < cached.examples.size(); ++i) {
    if (!exclude.contains(cached.ids[i])) kept.push_back(cached.examples[i]);
  }
  if (kept.size() == cached.examples.size()) return cached.model;
  return std::make_shared<const TaskTypeModel>(TrainModel(kept));
}

Result<ExperienceResult> ExperienceMemory::Recall(const ExperienceQuery& q, TimestampMs now) {
  const auto started = std::chrono::steady_clock::now();
  if (IsBlank(q.text)) return Error(Status::InvalidArgument("field \"text\": is required"));
  if (q.text.size() > kMaxQueryBytes || !IsValidUtf8(q.text)) {
    return Error(Status::InvalidArgument("field \"text\": must be valid UTF-8 of at most 64 KiB"));
  }
  if (!q.task_type.empty()) ENGRAM_RETURN_IF_ERROR(ValidateTaskType("task_type", q.task_type));
  ENGRAM_RETURN_IF_ERROR(CheckLimit("rule_limit", q.rule_limit, 0, 20));
  ENGRAM_RETURN_IF_ERROR(CheckLimit("episode_limit", q.episode_limit, 0, 50));
  ENGRAM_RETURN_IF_ERROR(CheckAgent(q.agent_id));
  const std::set<std::string> exclude(q.exclude_episode_ids.begin(), q.exclude_episode_ids.end());
  const TimestampMs at = q.now.value_or(now);
  ExperienceResult out;
  Status st = db_.ReadTransaction([&]() -> Status {
    out = {};
    auto ns = NamespaceId(q.namespace_name);
    if (!ns) return ns.error();
    sqlite::EpisodeStore episodes(db_);
    sqlite::RuleStore rules(db_);
    std::vector<text::QueryTerm> units = TaskUnits(analyzer_, q.text);
    for (const text::QueryTerm& u : units) out.terms.push_back(u.normalized);

    TaskTypeBelief belief;
    if (!q.task_type.empty()) {
      belief.guesses = {{q.task_type, 1.0}};
      belief.source = "given";
    } else {
      auto model = ModelFor(*ns, exclude);
      if (!model) return model.error();
      belief.guesses = (*model)->Classify(out.terms);
      if (!belief.guesses.empty()) {
        belief.source = "inferred";
        out.type_model = fmt::format("logistic regression over {} typed episodes, L2 {}", (*model)->example_count(),
                                     (*model)->l2());
      }
    }
    out.task_type_source = belief.source;
    if (!belief.guesses.empty()) out.task_type = belief.guesses[0].task_type;
    if (belief.source == "inferred") {
      for (size_t i = 0; i < belief.guesses.size() && i < kTypesConsidered; ++i) {
        out.task_type_guesses.push_back(belief.guesses[i]);
      }
    }

    // Candidates: the best full-text matches, and the recent successes of the likely types.
    std::map<int64_t, double> bm25;
    const MatchExpression match = BuildMatchExpression(units, MatchMode::kAny);
    if (!match.fts5.empty()) {
      auto hits = episodes.Search(match.fts5, *ns, 1.0, options_.steps_weight, kTextCandidates);
      if (!hits) return hits.error();
      for (const sqlite::SearchHit& h : *hits) bm25[h.seq] = h.score;
    }
    for (size_t i = 0; i < belief.guesses.size() && i < kTypesConsidered; ++i) {
      if (belief.guesses[i].probability <= 0) continue;
      auto recent = episodes.RecentOfType(*ns, belief.guesses[i].task_type, "success", kTypeCandidates);
      if (!recent) return recent.error();
      for (int64_t seq : *recent) bm25.emplace(seq, 0.0);
    }
    std::vector<int64_t> seqs;
    for (const auto& [seq, score] : bm25) seqs.push_back(seq);
    auto loaded = episodes.GetBySeqs(seqs, /*with_steps=*/false);
    if (!loaded) return loaded.error();
    auto cold = sqlite::ExperienceAccessStore(db_).ColdIds(*ns);
    if (!cold) return cold.error();
    std::optional<AgentArea> area;
    if (q.agent_id) {
      auto loaded_area = AgentArea::Load(db_, *ns, *q.agent_id, options_);
      if (!loaded_area) return loaded_area.error();
      area.emplace(std::move(*loaded_area));
    }
    std::map<std::string, Placement> placed;  // by episode or rule id (agent recall only)
    // An agent sees its own experience and the shared area; a cold one nobody sees.
    auto visible = [&](const std::string& id, auto placement) -> Result<std::optional<double>> {
      if (cold->contains(id)) return std::optional<double>();
      if (!area) return std::optional<double>(1.0);
      auto p = placement();
      if (!p) return Error(p.error());
      if (!p->has_value()) return std::optional<double>();
      const double weight = (*p)->weight;
      placed[id] = std::move(**p);
      return std::optional<double>(weight);
    };
    std::vector<EpisodeCandidate> candidates;
    for (sqlite::StoredEpisode& e : *loaded) {
      if (exclude.contains(e.episode.id)) continue;
      auto weight = visible(e.episode.id, [&] { return area->ForEpisode(e.episode); });
      if (!weight) return weight.error();
      if (!weight->has_value()) continue;
      const double score = bm25[e.episode.seq];
      candidates.push_back({std::move(e.episode), score, **weight});
    }
    out.episodes = RankEpisodes(candidates, options_, belief, at, q.episode_limit);
    for (ExperienceEpisode& x : out.episodes) {
      Place(x, placed, x.episode.id);
      auto full = episodes.GetBySeqs({x.episode.seq}, /*with_steps=*/true);
      if (!full) return full.error();
      if (!full->empty()) x.episode.steps = KeyDecisions(full->front().episode.steps);
    }

    // Rules of the likely types.
    std::vector<Rule> candidates_rules;
    std::vector<double> rule_weights;
    for (size_t i = 0; i < belief.guesses.size() && i < kTypesConsidered; ++i) {
      auto current = rules.CurrentOfType(*ns, belief.guesses[i].task_type);
      if (!current) return current.error();
      for (sqlite::StoredRule& r : *current) {
        auto weight = visible(r.rule.id, [&] { return area->ForRule(r.rule); });
        if (!weight) return weight.error();
        if (!weight->has_value()) continue;
        candidates_rules.push_back(std::move(r.rule));
        rule_weights.push_back(**weight);
      }
    }
    out.rules = RankRules(candidates_rules, belief, q.rule_limit, rule_weights);
    for (ExperienceRule& x : out.rules) {
      Place(x, placed, x.rule.id);
      auto support = rules.Support(x.rule.seq, kMaxSupportShown);
      if (!support) return support.error();
      for (const sqlite::RuleSupportRow& s : *support) x.rule.support_episode_ids.push_back(s.episode_id);
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  out.took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return out;
}


namespace {

// At most this many events of one session are segmented per call (the rest wait for the next).
constexpr int64_t kMaxSegmentEvents = 100000;
constexpr int kSessionPage = 1000;

// The session's events after its last detected episode, in session order (at most
// kMaxSegmentEvents).
Result<std::vector<Event>> EventsToSegment(sqlite::EventStore& events, int64_t session_rowid,
                                           const std::optional<sqlite::EpisodeStore::SegmentEnd>& last) {
  if (!last.has_value()) return events.SessionEvents(session_rowid, 0, kMaxSegmentEvents);
  auto seq = events.SeqOf(last->last_event_id);
  if (!seq) return Error(seq.error());
  if (seq->has_value()) {
    auto position = events.PositionInSession(**seq);
    if (!position) return Error(position.error());
    return events.SessionEvents(session_rowid, position->first + 1, kMaxSegmentEvents);
  }
  // Its last event was forgotten: the events after the time it ended.
  auto all = events.SessionEvents(session_rowid, 0, kMaxSegmentEvents);
  if (!all) return Error(all.error());
  std::erase_if(*all, [&](const Event& e) { return e.occurred_at <= last->ended_at; });
  return all;
}

void CountDecisions(const SegmentPlan& plan, SegmentReport* report) {
  for (const BoundaryDecision& d : plan.decisions) {
    if (d.decision == "waiting") {
      ++report->waiting;
      continue;
    }
    const bool committed = d.decision == "committed";
    if (!d.waited) {
      ++(committed ? report->committed_at_once : report->dropped);
      continue;
    }
    ++(committed ? report->waited_committed : report->waited_dropped);
    if (d.at_close) ++report->decided_at_close;
  }
  for (const PlannedSegment& p : plan.segments) report->closed_segments += p.by_close ? 1 : 0;
}

}  // namespace

std::vector<std::string> ExperienceMemory::TakeSegmentDistilled() {
  std::vector<std::string> out(segment_distilled_.begin(), segment_distilled_.end());
  segment_distilled_.clear();
  return out;
}

Result<SegmentReport> ExperienceMemory::Segment(const SegmentRequest& request, TimestampMs now) {
  segment_distilled_.clear();
  if (!request.session_id.empty()) {
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("session_id", request.session_id, true));
  }
  const TimestampMs clock = request.now.value_or(now);
  std::vector<std::string> sessions;
  int64_t ns = 0;
  Status st = db_.ReadTransaction([&]() -> Status {
    sessions.clear();
    auto id = NamespaceId(request.namespace_name);
    if (!id) return id.error();
    ns = *id;
    sqlite::EventStore events(db_);
    if (!request.session_id.empty()) {
      auto session = events.FindSession(ns, request.session_id);
      if (!session) return session.error();
      if (!session->has_value()) {
        return Status::NotFound(fmt::format("field \"session_id\": no session \"{}\" in namespace \"{}\"",
                                            request.session_id, request.namespace_name));
      }
      sessions.push_back(request.session_id);
      return Status::Ok();
    }
    for (int64_t after = 0;;) {
      auto page = events.ListSessions(ns, kSessionPage, after);
      if (!page) return page.error();
      for (const SessionInfo& s : *page) sessions.push_back(s.id);
      if (page->size() < static_cast<size_t>(kSessionPage)) return Status::Ok();
      after = page->back().seq;
    }
  });
  if (!st.ok()) return Error(st);
  SegmentReport report;
  for (const std::string& session : sessions) {
    ENGRAM_RETURN_IF_ERROR(SegmentSession(ns, request.namespace_name, session, request.close, clock, &report));
  }
  return report;
}

Status ExperienceMemory::SegmentSession(int64_t namespace_id, const std::string& namespace_name,
                                        const std::string& session_id, bool close, TimestampMs clock,
                                        SegmentReport* report) {
  SegmentReport delta;
  Status st = db_.WriteTransaction([&]() -> Status {
    delta = {};
    sqlite::EventStore events(db_);
    sqlite::EpisodeStore store(db_);
    auto has_explicit = store.HasExplicitEpisode(namespace_id, session_id);
    if (!has_explicit) return has_explicit.error();
    if (*has_explicit) {
      ++delta.sessions_skipped;
      return Status::Ok();
    }
    auto rowid = events.FindSession(namespace_id, session_id);
    if (!rowid) return rowid.error();
    if (!rowid->has_value()) return Status::Ok();
    auto last = store.LastSegmentEnd(namespace_id, session_id);
    if (!last) return last.error();
    auto read = EventsToSegment(events, **rowid, *last);
    if (!read) return read.error();
    ++delta.sessions_read;
    delta.events_read = static_cast<int64_t>(read->size());
    if (read->empty()) return Status::Ok();
    std::vector<StreamEvent> stream;
    for (const Event& e : *read) stream.push_back(StreamEventOf(e));
    const bool closed = close || clock - stream.back().at >= options_.segment_idle_ms;
    BoundaryDetector detector(analyzer_);
    const SegmentPlan plan = PlanSegments(detector, stream, closed);
    CountDecisions(plan, &delta);
    for (const PlannedSegment& segment : plan.segments) {
      auto draft = DraftEpisode(stream, segment);
      if (draft) ENGRAM_RETURN_IF_ERROR(CommitDraft(namespace_id, namespace_name, session_id, *draft, clock, &delta));
    }
    return Status::Ok();
  });
  if (!st.ok()) return st.WithContext(fmt::format("session \"{}\"", session_id));
  report->sessions_read += delta.sessions_read;
  report->sessions_skipped += delta.sessions_skipped;
  report->events_read += delta.events_read;
  for (Episode& e : delta.episodes) report->episodes.push_back(std::move(e));
  report->committed_at_once += delta.committed_at_once;
  report->waited_committed += delta.waited_committed;
  report->waited_dropped += delta.waited_dropped;
  report->decided_at_close += delta.decided_at_close;
  report->waiting += delta.waiting;
  report->dropped += delta.dropped;
  report->closed_segments += delta.closed_segments;
  return Status::Ok();
}

Status ExperienceMemory::CommitDraft(int64_t namespace_id, const std::string& namespace_name,
                                     const std::string& session_id, const EpisodeDraft& draft, TimestampMs now,
                                     SegmentReport* report) {
  sqlite::EpisodeStore store(db_);
  Episode e{.id = NewUlid(now), .namespace_name = namespace_name, .session_id = session_id, .goal = draft.goal};
  e.started_at = draft.started_at;
  e.boundary_confidence = draft.boundary_confidence;
  e.origin = "detected";
  e.first_event_id = draft.first_event_id;
  e.last_event_id = draft.last_event_id;
  auto seq = store.Insert(namespace_id, e);
  if (!seq) return seq.error();
  for (const EpisodeStep& step : draft.steps) ENGRAM_RETURN_IF_ERROR(store.AppendStep(*seq, step, now));
  auto stored = store.GetBySeqs({*seq}, /*with_steps=*/false);
  if (!stored) return stored.error();
  if (stored->empty()) return Status::Internal("a detected episode vanished in its own transaction");
  Episode ended{.outcome = draft.outcome, .outcome_source = draft.outcome_source, .feedback = draft.feedback};
  ended.ended_at = draft.ended_at;
  EndEpisodeResult out;
  ENGRAM_RETURN_IF_ERROR(Finish(namespace_id, stored->front().episode, ended, now, &out));
  for (std::string& type : out.rules.task_types_distilled) segment_distilled_.insert(std::move(type));
  out.episode.steps.clear();
  report->episodes.push_back(std::move(out.episode));
  return Status::Ok();
}

Status ExperienceMemory::AttachToolCall(int64_t namespace_id, const Event& event, TimestampMs now) {
  if (event.role != "tool" || event.id.empty()) return Status::Ok();
  sqlite::EpisodeStore store(db_);
  auto open = store.OpenExplicitEpisode(namespace_id, event.session_id);
  if (!open) return open.error();
  if (!open->has_value()) return Status::Ok();
  auto done = store.HasStepFrom(**open, event.id);
  if (!done) return done.error();
  if (*done) return Status::Ok();
  auto episode = store.GetBySeqs({**open}, /*with_steps=*/false);
  if (!episode) return episode.error();
  if (episode->empty() || episode->front().episode.step_count >= kMaxEpisodeSteps) return Status::Ok();
  EpisodeStep step = ToolCallStep(StreamEventOf(event));
  step.ordinal = static_cast<int>(episode->front().episode.step_count + 1);
  return store.AppendStep(**open, step, now);
}

Result<std::vector<ColdExperience>> ExperienceMemory::ListCold(std::string_view namespace_name, int limit) {
  ENGRAM_RETURN_IF_ERROR(CheckLimit("limit", limit, 1, 1000));
  std::vector<ColdExperience> out;
  Status st = db_.ReadTransaction([&]() -> Status {
    auto ns = NamespaceId(namespace_name);
    if (!ns) return ns.error();
    auto cold = sqlite::ExperienceAccessStore(db_).ListCold(*ns, limit);
    if (!cold) return cold.error();
    out = std::move(*cold);
    for (ColdExperience& c : out) {
      if (c.object_type == "episode") c.text = sqlite::ShortGoal(c.text);
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return out;
}

}  // namespace engram::experience
