#include "store/sqlite/episode_store.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/sqlite/best_hits.h"
#include "store/sqlite/string_list.h"
#include "util/utf8.h"

namespace engram::sqlite {
namespace {

constexpr const char* kEpisodeColumns =
    "SELECT e.seq, e.namespace_id, e.id, n.name, e.agent_id, e.session_id, e.goal, e.task_type, "
    "e.task_type_source, e.task_type_confidence, e.status, e.outcome, e.reward, e.outcome_source, "
    "e.feedback, e.tools_used, e.write_signature, e.step_count, e.started_at, e.ended_at, "
    "e.boundary_confidence, e.origin, e.first_event_id, e.last_event_id FROM episodes e JOIN namespaces n ON n.id = e.namespace_id ";

StoredEpisode ReadEpisode(const Statement& q) {
  StoredEpisode s;
  Episode& e = s.episode;
  e.seq = q.Int(0);
  s.namespace_id = q.Int(1);
  e.id = q.Text(2);
  e.namespace_name = q.Text(3);
  e.agent_id = q.Text(4);
  e.session_id = q.Text(5);
  e.goal = q.Text(6);
  e.goal_short = ShortGoal(e.goal);
  e.task_type = q.Text(7);
  e.task_type_source = q.Text(8);
  e.task_type_confidence = q.Double(9);
  e.status = q.Text(10);
  e.outcome = q.Text(11);
  if (!q.IsNull(12)) e.reward = q.Double(12);
  e.outcome_source = q.Text(13);
  e.feedback = q.Text(14);
  e.tools_used = StringListFromJson(q.Text(15));
  e.write_signature = StringListFromJson(q.Text(16));
  e.step_count = q.Int(17);
  e.started_at = q.Int(18);
  if (!q.IsNull(19)) e.ended_at = q.Int(19);
  e.boundary_confidence = q.Double(20);
  e.origin = q.Text(21);
  e.first_event_id = q.Text(22);
  e.last_event_id = q.Text(23);
  return s;
}

// The text one step adds to the steps column of the full-text row.
std::string StepText(const EpisodeStep& step) {
  std::string text = step.tool_name;
  for (const std::string* part : {&step.action, &step.reason, &step.result}) {
    if (part->empty()) continue;
    if (!text.empty()) text += ' ';
    text += *part;
  }
  return text;
}

}  // namespace

std::string ShortGoal(std::string_view goal, size_t max_chars) {
  if (CodePointCount(goal) <= max_chars) return std::string(goal);
  std::string cut = TruncateCodePoints(goal, max_chars);  // ends with "…"
  std::string body = cut.substr(0, cut.size() - std::string_view("…").size());
  // Back to the last space when it keeps at least two thirds of the text.
  size_t space = body.find_last_of(' ');
  if (space != std::string::npos && CodePointCount(body.substr(0, space)) >= max_chars * 2 / 3) {
    body.resize(space);
  }
  while (!body.empty() && (body.back() == ' ' || body.back() == ',' || body.back() == '.')) body.pop_back();
  return body + "…";
}

Result<int64_t> EpisodeStore::Insert(int64_t namespace_id, const Episode& e) {
  auto st = db_.Cached(
      "INSERT INTO episodes(id, namespace_id, agent_id, session_id, goal, task_type, task_type_source, "
      "task_type_confidence, status, outcome, started_at, boundary_confidence, updated_at, origin, first_event_id, "
      "last_event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', 'unknown', ?, ?, ?, ?, ?, ?)");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, e.id).Bind(2, namespace_id).Bind(3, e.agent_id).Bind(4, e.session_id).Bind(5, e.goal);
  q.Bind(6, e.task_type).Bind(7, e.task_type_source).Bind(8, e.task_type_confidence).Bind(9, e.started_at);
  q.Bind(10, e.boundary_confidence).Bind(11, e.started_at).Bind(12, e.origin).Bind(13, e.first_event_id);
  q.Bind(14, e.last_event_id);
  ENGRAM_RETURN_IF_ERROR(q.Run());
  int64_t seq = sqlite3_last_insert_rowid(db_.handle());
  auto fts = db_.Cached("INSERT INTO episode_fts(rowid, goal, steps) VALUES (?, ?, '')");
  if (!fts) return Error(fts.error());
  (*fts)->Bind(1, seq).Bind(2, e.goal);
  ENGRAM_RETURN_IF_ERROR((*fts)->Run());
  return seq;
}

Status EpisodeStore::AppendStep(int64_t episode_seq, const EpisodeStep& step, TimestampMs now) {
  auto ins = db_.Cached(
      "INSERT INTO episode_steps(episode_seq, ordinal, action, reason, result, tool_name, changes_state, "
      "evidence_event_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!ins) return ins.error();
  Statement& q = **ins;
  q.Bind(1, episode_seq).Bind(2, static_cast<int64_t>(step.ordinal)).Bind(3, step.action).Bind(4, step.reason);
  q.Bind(5, step.result).Bind(6, step.tool_name).Bind(7, static_cast<int64_t>(step.changes_state ? 1 : 0));
  q.Bind(8, step.evidence_event_id).Bind(9, step.at);
  ENGRAM_RETURN_IF_ERROR(q.Run());

  // tools_used in first-use order; write_signature sorted and unique.
  auto cur = db_.Cached("SELECT tools_used, write_signature FROM episodes WHERE seq = ?");
  if (!cur) return cur.error();
  (*cur)->Bind(1, episode_seq);
  auto row = (*cur)->Step();
  if (!row) return row.error();
  if (!*row) return Status::NotFound(fmt::format("no episode with seq {}", episode_seq));
  std::vector<std::string> tools = StringListFromJson((*cur)->Text(0));
  std::vector<std::string> signature = StringListFromJson((*cur)->Text(1));
  (*cur)->Reset();
  if (!step.tool_name.empty()) {
    if (std::find(tools.begin(), tools.end(), step.tool_name) == tools.end()) tools.push_back(step.tool_name);
    if (step.changes_state) {
      auto at = std::lower_bound(signature.begin(), signature.end(), step.tool_name);
      if (at == signature.end() || *at != step.tool_name) signature.insert(at, step.tool_name);
    }
  }
  auto upd = db_.Cached(
      "UPDATE episodes SET step_count = ?2, tools_used = ?3, write_signature = ?4, updated_at = ?5 WHERE seq = ?1");
  if (!upd) return upd.error();
  (*upd)->Bind(1, episode_seq).Bind(2, static_cast<int64_t>(step.ordinal)).Bind(3, StringListToJson(tools));
  (*upd)->Bind(4, StringListToJson(signature)).Bind(5, now);
  ENGRAM_RETURN_IF_ERROR((*upd)->Run());

  auto fts = db_.Cached(
      "UPDATE episode_fts SET steps = CASE WHEN steps = '' THEN ?2 ELSE steps || char(10) || ?2 END WHERE rowid = ?1");
  if (!fts) return fts.error();
  (*fts)->Bind(1, episode_seq).Bind(2, StepText(step));
  return (*fts)->Run();
}

Status EpisodeStore::End(int64_t episode_seq, const Episode& ended, TimestampMs now) {
  auto st = db_.Cached(
      "UPDATE episodes SET status = 'ended', outcome = ?2, reward = ?3, outcome_source = ?4, feedback = ?5, "
      "ended_at = ?6, updated_at = ?7 WHERE seq = ?1");
  if (!st) return st.error();
  Statement& q = **st;
  q.Bind(1, episode_seq).Bind(2, ended.outcome);
  if (ended.reward) {
    q.Bind(3, *ended.reward);
  } else {
    q.BindNull(3);
  }
  q.Bind(4, ended.outcome_source).Bind(5, ended.feedback).Bind(6, ended.ended_at.value_or(now)).Bind(7, now);
  return q.Run();
}

Status EpisodeStore::SetTaskType(int64_t episode_seq, std::string_view task_type, std::string_view source,
                                 double confidence, TimestampMs now) {
  auto st = db_.Cached(
      "UPDATE episodes SET task_type = ?2, task_type_source = ?3, task_type_confidence = ?4, updated_at = ?5 "
      "WHERE seq = ?1");
  if (!st) return st.error();
  (*st)->Bind(1, episode_seq).Bind(2, task_type).Bind(3, source).Bind(4, confidence).Bind(5, now);
  return (*st)->Run();
}

Result<std::vector<EpisodeStep>> EpisodeStore::Steps(int64_t episode_seq) {
  auto st = db_.Cached(
      "SELECT ordinal, action, reason, result, tool_name, changes_state, evidence_event_id, at "
      "FROM episode_steps WHERE episode_seq = ? ORDER BY ordinal");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, episode_seq);
  std::vector<EpisodeStep> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back({.ordinal = static_cast<int>(q.Int(0)), .action = q.Text(1), .reason = q.Text(2),
                   .result = q.Text(3), .tool_name = q.Text(4), .changes_state = q.Int(5) != 0,
                   .evidence_event_id = q.Text(6), .at = q.Int(7)});
  }
  return out;
}

Result<std::optional<StoredEpisode>> EpisodeStore::Get(std::string_view id, bool with_steps) {
  auto st = db_.Cached(std::string(kEpisodeColumns) + "WHERE e.id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return std::optional<StoredEpisode>();
  StoredEpisode e = ReadEpisode(**st);
  (*st)->Reset();
  if (with_steps) {
    auto steps = Steps(e.episode.seq);
    if (!steps) return Error(steps.error());
    e.episode.steps = std::move(*steps);
  }
  return std::optional<StoredEpisode>(std::move(e));
}

Result<std::vector<StoredEpisode>> EpisodeStore::GetBySeqs(const std::vector<int64_t>& seqs, bool with_steps) {
  auto st = db_.Cached(std::string(kEpisodeColumns) + "WHERE e.seq = ?");
  if (!st) return Error(st.error());
  std::vector<StoredEpisode> out;
  for (int64_t seq : seqs) {
    (*st)->Bind(1, seq);
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) {
      (*st)->Reset();
      continue;
    }
    StoredEpisode e = ReadEpisode(**st);
    (*st)->Reset();
    if (with_steps) {
      auto steps = Steps(e.episode.seq);
      if (!steps) return Error(steps.error());
      e.episode.steps = std::move(*steps);
    }
    out.push_back(std::move(e));
  }
  return out;
}

Result<std::vector<Episode>> EpisodeStore::List(int64_t namespace_id, const EpisodeFilter& f, int limit,
                                                int64_t before_seq) {
  auto st = db_.Cached(std::string(kEpisodeColumns) +
                       "WHERE e.namespace_id = ?1 AND (?2 = 0 OR e.seq < ?2) AND (?3 = '' OR e.task_type = ?3) "
                       "AND (?4 = '' OR e.outcome = ?4) AND (?5 = '' OR e.status = ?5) AND (?6 = '' OR e.agent_id = ?6) "
                       "ORDER BY e.seq DESC LIMIT ?7");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, namespace_id).Bind(2, before_seq).Bind(3, f.task_type).Bind(4, f.outcome).Bind(5, f.status);
  q.Bind(6, f.agent_id).Bind(7, static_cast<int64_t>(limit));
  std::vector<Episode> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back(ReadEpisode(q).episode);
  }
  return out;
}

Result<std::vector<StoredEpisode>> EpisodeStore::DecidedOfType(int64_t namespace_id, std::string_view task_type,
                                                              int limit) {
  auto st = db_.Cached(
      "SELECT seq FROM episodes WHERE namespace_id = ? AND task_type = ? AND status = 'ended' "
      "AND outcome IN ('success','failure') ORDER BY seq DESC LIMIT ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, task_type).Bind(3, static_cast<int64_t>(limit));
  auto seqs = (*st)->Ints();
  if (!seqs) return Error(seqs.error());
  std::reverse(seqs->begin(), seqs->end());
  return GetBySeqs(*seqs, /*with_steps=*/true);
}

Result<std::vector<int64_t>> EpisodeStore::RecentOfType(int64_t namespace_id, std::string_view task_type,
                                                       std::string_view outcome, int limit) {
  auto st = db_.Cached(
      "SELECT seq FROM episodes INDEXED BY episodes_namespace_type WHERE namespace_id = ? AND task_type = ? "
      "AND status = 'ended' AND outcome = ? ORDER BY seq DESC LIMIT ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, task_type).Bind(3, outcome).Bind(4, static_cast<int64_t>(limit));
  return (*st)->Ints();
}

namespace {

// The first column of the rows of a prepared, bound query that has at most one row.
Result<std::optional<int64_t>> AtMostOneInt(Statement& q) {
  auto rows = q.Ints();
  if (!rows) return Error(rows.error());
  if (rows->empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(rows->front());
}

}  // namespace

Result<bool> EpisodeStore::HasExplicitEpisode(int64_t namespace_id, std::string_view session_id) {
  auto st = db_.Cached(
      "SELECT 1 FROM episodes WHERE namespace_id = ? AND session_id = ? AND origin = 'explicit' LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, session_id);
  auto row = AtMostOneInt(**st);
  if (!row) return Error(row.error());
  return row->has_value();
}

Result<std::optional<EpisodeStore::SegmentEnd>> EpisodeStore::LastSegmentEnd(int64_t namespace_id,
                                                                              std::string_view session_id) {
  auto st = db_.Cached(
      "SELECT last_event_id, coalesce(ended_at, started_at) FROM episodes WHERE namespace_id = ? AND session_id = ? "
      "AND origin = 'detected' ORDER BY seq DESC LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, session_id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  std::optional<SegmentEnd> out;
  if (*row) out = SegmentEnd{(*st)->Text(0), (*st)->Int(1)};
  (*st)->Reset();
  return out;
}

Result<std::optional<int64_t>> EpisodeStore::OpenExplicitEpisode(int64_t namespace_id, std::string_view session_id) {
  auto st = db_.Cached(
      "SELECT seq FROM episodes WHERE namespace_id = ? AND session_id = ? AND origin = 'explicit' "
      "AND status = 'open' ORDER BY seq DESC LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, session_id);
  return AtMostOneInt(**st);
}

Result<bool> EpisodeStore::HasStepFrom(int64_t episode_seq, std::string_view event_id) {
  auto st = db_.Cached("SELECT 1 FROM episode_steps WHERE episode_seq = ? AND evidence_event_id = ? LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, episode_seq).Bind(2, event_id);
  auto row = AtMostOneInt(**st);
  if (!row) return Error(row.error());
  return row->has_value();
}

Result<std::vector<std::string>> EpisodeStore::TaskTypes(int64_t namespace_id) {
  auto st = db_.Cached(
      "SELECT DISTINCT task_type FROM episodes WHERE namespace_id = ? AND status = 'ended' AND task_type != '' "
      "ORDER BY task_type");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id);
  std::vector<std::string> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back((*st)->Text(0));
  }
  return out;
}

Result<std::vector<TypedGoal>> EpisodeStore::TypedGoals(int64_t namespace_id, int limit) {
  auto st = db_.Cached(
      "SELECT seq, id, goal, task_type FROM (SELECT seq, id, goal, task_type FROM episodes "
      "WHERE namespace_id = ? AND status = 'ended' AND outcome IN ('success','partial') AND task_type != '' "
      "AND task_type_source IN ('declared','write_signature') ORDER BY seq DESC LIMIT ?) ORDER BY seq");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, namespace_id).Bind(2, static_cast<int64_t>(limit));
  std::vector<TypedGoal> out;
  while (true) {
    auto row = q.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Text(3)});
  }
  return out;
}

Result<std::string> EpisodeStore::Fingerprint(int64_t namespace_id) {
  auto st = db_.Cached("SELECT count(*), coalesce(max(updated_at), 0), coalesce(max(seq), 0) FROM episodes "
                       "WHERE namespace_id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  std::string out = fmt::format("{}:{}:{}", (*st)->Int(0), (*st)->Int(1), (*st)->Int(2));
  (*st)->Reset();
  return out;
}

Result<std::vector<SearchHit>> EpisodeStore::Search(std::string_view match, int64_t namespace_id, double goal_weight,
                                                    double steps_weight, int limit) {
  // FTS5's bm25() is negative (lower is better): negated here, as engram_bm25 scores are.
  auto st = db_.Cached(
      "SELECT episode_fts.rowid, -bm25(episode_fts, ?2, ?3) FROM episode_fts "
      "CROSS JOIN episodes e ON e.seq = episode_fts.rowid WHERE episode_fts MATCH ?1 AND e.namespace_id = ?4");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, match).Bind(2, goal_weight).Bind(3, steps_weight).Bind(4, namespace_id);
  return BestHits(q, limit);
}

}  // namespace engram::sqlite
