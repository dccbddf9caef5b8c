#include "store/sqlite/event_store.h"

#include <sys/stat.h>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "store/sqlite/best_hits.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/job_store.h"
#include "util/time.h"
#include "util/utf8.h"

namespace engram::sqlite {
namespace {

// A row of columns (seq, occurred_at, speaker, <table>_docsize.sz, asks_question, role) as a
// NeighbourRow. Resets the statement on a malformed docsize blob.
Result<NeighbourRow> ReadNeighbourRow(Statement& s, int64_t session_rowid) {
  NeighbourRow n;
  n.seq = s.Int(0);
  n.session_rowid = session_rowid;
  n.occurred_at = s.Int(1);
  n.speaker = s.Text(2);
  int doc_length = 0;
  if (!ParseDocSizeColumn0(s.Blob(3), &doc_length)) {
    s.Reset();
    return Error(Status::Corruption(fmt::format("event_fts_docsize of seq {} is malformed", n.seq)));
  }
  n.doc_length = doc_length;
  n.asks_question = s.Int(4) != 0;
  n.role = s.Text(5);
  return n;
}

// Column `column` of the current row as an engram_term_counts blob (valid until the next Step).
// Errors (the statement is reset): kInternal for a malformed blob.
Result<TermCountsView> ReadTermCounts(Statement& s, int column) {
  std::string_view blob = s.Blob(column);
  TermCountsView counts;
  if (!counts.Parse(blob.data(), blob.size())) {
    s.Reset();
    return Error(Status::Internal("engram_term_counts returned a malformed blob"));
  }
  return counts;
}

// The query's idf per phrase and the table's average length in tokens, as every row's counts
// carry them.
void TakeQueryStatistics(const TermCountsView& counts, std::vector<double>* idf, double* avg_length) {
  const uint32_t n = counts.header().phrases;
  idf->resize(n);
  for (uint32_t i = 0; i < n; ++i) (*idf)[i] = counts.Idf(i);
  *avg_length = counts.header().avg_length > 0 ? counts.header().avg_length : 1.0;
}

constexpr const char* kEventColumns =
    "SELECT e.id, n.name, s.external_id, e.role, e.speaker, e.content, e.occurred_at, "
    "e.recorded_at, e.origin_class, e.content_hash, e.idempotency_key, e.metadata, e.tool_name, "
    "e.tool_call_id, e.utc_offset_minutes FROM events e JOIN namespaces n ON n.id = e.namespace_id "
    "JOIN sessions s ON s.id = e.session_id ";

// Reads the kEventColumns of the current row, starting at column `first`.
Event ReadEvent(const Statement& st, int first = 0) {
  Event e;
  e.id = st.Text(first + 0);
  e.namespace_name = st.Text(first + 1);
  e.session_id = st.Text(first + 2);
  e.role = st.Text(first + 3);
  e.speaker = st.Text(first + 4);
  e.content = st.Text(first + 5);
  e.occurred_at = st.Int(first + 6);
  e.recorded_at = st.Int(first + 7);
  e.origin_class = st.Text(first + 8);
  e.content_hash = st.Text(first + 9);
  e.idempotency_key = st.Text(first + 10);
  e.metadata_json = st.Text(first + 11);
  e.tool_name = st.Text(first + 12);
  e.tool_call_id = st.Text(first + 13);
  e.utc_offset_minutes = static_cast<int>(st.Int(first + 14));
  return e;
}

constexpr const char* kSessionColumns =
    "SELECT s.id, s.external_id, n.name, p.external_id, s.kind, s.source, s.title, "
    "coalesce(s.started_at, 0), coalesce(s.last_active_at, 0), s.event_count, "
    "(SELECT content FROM events pe WHERE pe.session_id = s.id "
    " ORDER BY pe.role <> 'user', pe.occurred_at, pe.seq LIMIT 1) "
    "FROM sessions s JOIN namespaces n ON n.id = s.namespace_id "
    "LEFT JOIN sessions p ON p.id = s.parent_id ";

SessionInfo ReadSession(const Statement& st) {
  SessionInfo s;
  s.seq = st.Int(0);
  s.id = st.Text(1);
  s.namespace_name = st.Text(2);
  s.parent_session_id = st.Text(3);
  s.kind = st.Text(4);
  s.source = st.Text(5);
  s.title = st.Text(6);
  s.started_at = st.Int(7);
  s.last_active_at = st.Int(8);
  s.event_count = st.Int(9);
  s.preview = TruncateCodePoints(st.Text(10), 80);
  return s;
}

int64_t FileSize(const std::string& path) {
  struct stat sb;
  if (stat(path.c_str(), &sb) != 0) return 0;
  return static_cast<int64_t>(sb.st_size);
}

}  // namespace

Result<int64_t> EventStore::EnsureNamespace(std::string_view name, TimestampMs now) {
  auto found = FindNamespace(name);
  if (!found) return Error(found.error());
  if (found->has_value()) return **found;
  auto st = db_.Cached("INSERT INTO namespaces(name, created_at) VALUES (?, ?)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, name).Bind(2, now);
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return sqlite3_last_insert_rowid(db_.handle());
}

Result<std::optional<int64_t>> EventStore::FindNamespace(std::string_view name) {
  auto st = db_.Cached("SELECT id FROM namespaces WHERE name = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, name);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return std::optional<int64_t>();
  int64_t id = (*st)->Int(0);
  (*st)->Reset();
  return std::optional<int64_t>(id);
}

Result<std::optional<int64_t>> EventStore::FindSession(int64_t namespace_id,
                                                       std::string_view external_id) {
  auto st = db_.Cached("SELECT id FROM sessions WHERE namespace_id = ? AND external_id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, external_id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return std::optional<int64_t>();
  int64_t id = (*st)->Int(0);
  (*st)->Reset();
  return std::optional<int64_t>(id);
}

Result<int64_t> EventStore::EnsureSession(int64_t namespace_id, const EventRow& row,
                                          TimestampMs now) {
  std::optional<int64_t> parent;
  if (!row.parent_session_id.empty() && row.parent_session_id != row.event.session_id) {
    auto p = FindSession(namespace_id, row.parent_session_id);
    if (!p) return Error(p.error());
    if (p->has_value()) {
      parent = **p;
    } else {
      // The parent has not written yet: a placeholder keeps the lineage (Hermes ensure_session).
      auto ins = db_.Cached(
          "INSERT INTO sessions(namespace_id, external_id, kind, created_at) "
          "VALUES (?, ?, 'interactive', ?)");
      if (!ins) return Error(ins.error());
      (*ins)->Bind(1, namespace_id).Bind(2, row.parent_session_id).Bind(3, now);
      ENGRAM_RETURN_IF_ERROR((*ins)->Run());
      parent = sqlite3_last_insert_rowid(db_.handle());
    }
  }
  auto existing = FindSession(namespace_id, row.event.session_id);
  if (!existing) return Error(existing.error());
  if (existing->has_value()) {
    int64_t id = **existing;
    // First write wins; only fill what is still missing.
    auto upd = db_.Cached(
        "UPDATE sessions SET parent_id = coalesce(parent_id, ?), source = coalesce(source, ?), "
        "title = coalesce(title, ?) WHERE id = ?");
    if (!upd) return Error(upd.error());
    if (parent) {
      (*upd)->Bind(1, *parent);
    } else {
      (*upd)->BindNull(1);
    }
    (*upd)->BindOptional(2, row.session_source).BindOptional(3, row.session_title).Bind(4, id);
    ENGRAM_RETURN_IF_ERROR((*upd)->Run());
    return id;
  }
  auto ins = db_.Cached(
      "INSERT INTO sessions(namespace_id, external_id, parent_id, kind, source, title, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?)");
  if (!ins) return Error(ins.error());
  (*ins)->Bind(1, namespace_id).Bind(2, row.event.session_id);
  if (parent) {
    (*ins)->Bind(3, *parent);
  } else {
    (*ins)->BindNull(3);
  }
  (*ins)->Bind(4, row.session_kind).BindOptional(5, row.session_source);
  (*ins)->BindOptional(6, row.session_title).Bind(7, now);
  ENGRAM_RETURN_IF_ERROR((*ins)->Run());
  return sqlite3_last_insert_rowid(db_.handle());
}

Result<std::optional<Event>> EventStore::FindByIdempotencyKey(int64_t namespace_id,
                                                              std::string_view key) {
  auto st = db_.Cached(std::string(kEventColumns) +
                       "WHERE e.namespace_id = ? AND e.idempotency_key = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, key);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return std::optional<Event>();
  Event e = ReadEvent(**st);
  (*st)->Reset();
  return std::optional<Event>(std::move(e));
}

Result<int64_t> EventStore::Insert(int64_t namespace_id, int64_t session_rowid, const EventRow& row) {
  const Event& e = row.event;
  auto st = db_.Cached(
      "INSERT INTO events(id, namespace_id, session_id, role, speaker, content, occurred_at, "
      "recorded_at, origin_class, content_hash, idempotency_key, metadata, tool_name, tool_call_id, "
      "utc_offset_minutes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, e.id).Bind(2, namespace_id).Bind(3, session_rowid).Bind(4, e.role);
  s.BindOptional(5, e.speaker).Bind(6, e.content).Bind(7, e.occurred_at).Bind(8, e.recorded_at);
  s.Bind(9, e.origin_class).Bind(10, e.content_hash).Bind(11, e.idempotency_key);
  s.BindOptional(12, e.metadata_json).BindOptional(13, e.tool_name).BindOptional(14, e.tool_call_id);
  s.Bind(15, static_cast<int64_t>(e.utc_offset_minutes));
  ENGRAM_RETURN_IF_ERROR(s.Run());
  int64_t seq = sqlite3_last_insert_rowid(db_.handle());

  auto fts = db_.Cached("INSERT INTO event_fts(rowid, body) VALUES (?, ?)");
  if (!fts) return Error(fts.error());
  (*fts)->Bind(1, seq).Bind(2, row.indexed_text);
  ENGRAM_RETURN_IF_ERROR((*fts)->Run());

  auto upd = db_.Cached(
      "UPDATE sessions SET event_count = event_count + 1, "
      "started_at = min(coalesce(started_at, ?1), ?1), "
      "last_active_at = max(coalesce(last_active_at, ?1), ?1) WHERE id = ?2");
  if (!upd) return Error(upd.error());
  (*upd)->Bind(1, e.occurred_at).Bind(2, session_rowid);
  ENGRAM_RETURN_IF_ERROR((*upd)->Run());
  return seq;
}

Result<Event> EventStore::Get(std::string_view id) {
  auto st = db_.Cached(std::string(kEventColumns) + "WHERE e.id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no event with id \"{}\"", id)));
  Event e = ReadEvent(**st);
  (*st)->Reset();
  return e;
}

Result<Event> EventStore::GetBySeq(int64_t seq) {
  auto st = db_.Cached(std::string(kEventColumns) + "WHERE e.seq = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, seq);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no event at seq {}", seq)));
  Event e = ReadEvent(**st);
  (*st)->Reset();
  return e;
}

Result<std::vector<Event>> EventStore::GetBySeqs(const std::vector<int64_t>& seqs) {
  if (seqs.empty()) return std::vector<Event>{};
  const std::string list = JsonIntArray(seqs);
  // json_each drives the join: one rowid seek per seq, no temporary index for an IN list, and
  // j.key (the seq's index in `seqs`) puts each event in place.
  auto st = db_.Cached(std::string(kEventColumns).replace(7, 0, "j.key, ") +
                       "JOIN json_each(?) j ON e.seq = j.value");
  if (!st) return Error(st.error());
  (*st)->Bind(1, list);
  std::vector<Event> out(seqs.size());
  std::vector<bool> found(seqs.size(), false);
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const auto i = static_cast<size_t>((*st)->Int(0));
    out[i] = ReadEvent(**st, 1);
    found[i] = true;
  }
  for (size_t i = 0; i < seqs.size(); ++i) {
    if (!found[i]) return Error(Status::NotFound(fmt::format("no event at seq {}", seqs[i])));
  }
  return out;
}

Result<bool> EventStore::NamespaceHoldsAllEvents(int64_t namespace_id) {
  // Both ends of the events_namespace_time index: two seeks, whatever the table's size.
  auto st = db_.Cached(
      "SELECT coalesce((SELECT min(namespace_id) FROM events) = ?1 AND "
      "(SELECT max(namespace_id) FROM events) = ?1, 1)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::Internal("namespace check returned no row"));
  bool all = (*st)->Int(0) != 0;
  (*st)->Reset();
  return all;
}

Result<std::shared_ptr<const std::vector<std::string>>> EventStore::NamespaceSpeakers(
    int64_t namespace_id, size_t max_speakers) {
  // The newest stored event: the end of the rowid b-tree, one seek. Seqs are given in ascending
  // order (max + 1), so while that event stays stored every later event has a higher seq.
  auto newest_st = db_.Cached("SELECT seq, id FROM events ORDER BY seq DESC LIMIT 1");
  if (!newest_st) return Error(newest_st.error());
  int64_t newest = 0;
  std::string newest_id;
  {
    auto row = (*newest_st)->Step();
    if (!row) return Error(row.error());
    if (*row) {
      newest = (*newest_st)->Int(0);
      newest_id = (*newest_st)->Text(1);
    }
    (*newest_st)->Reset();
  }
  int64_t after = 0;  // events with a higher seq are read
  std::set<std::string> speakers;
  bool too_many = false;
  auto found = speaker_memo_.find(namespace_id);
  if (found != speaker_memo_.end() && found->second.max_speakers == max_speakers) {
    const SpeakerMemo& memo = found->second;
    if (memo.newest_seq == newest && memo.newest_id == newest_id) return memo.speakers;
    bool still_stored = memo.newest_seq == 0;
    if (!still_stored) {
      auto id_st = db_.Cached("SELECT id FROM events WHERE seq = ?1");
      if (!id_st) return Error(id_st.error());
      (*id_st)->Bind(1, memo.newest_seq);
      auto row = (*id_st)->Step();
      if (!row) return Error(row.error());
      still_stored = *row && (*id_st)->Text(0) == memo.newest_id;
      (*id_st)->Reset();
    }
    if (still_stored) {
      after = memo.newest_seq;
      if (memo.speakers == nullptr) {
        too_many = true;  // more speakers only
      } else {
        speakers.insert(memo.speakers->begin(), memo.speakers->end());
      }
    }
  }
  if (!too_many && newest > after) {
    // All of the namespace through its index; only the new events through the rowid range
    // ('+' keeps the planner off the namespace index there).
    auto st = after == 0 ? db_.Cached(
                               "SELECT DISTINCT coalesce(speaker, '') FROM events "
                               "WHERE namespace_id = ?1 AND seq <= ?3 AND ?2 = 0")
                         : db_.Cached(
                               "SELECT DISTINCT coalesce(speaker, '') FROM events "
                               "WHERE +namespace_id = ?1 AND seq > ?2 AND seq <= ?3");
    if (!st) return Error(st.error());
    Statement& s = **st;
    s.Bind(1, namespace_id).Bind(2, after).Bind(3, newest);
    while (true) {
      auto row = s.Step();
      if (!row) {
        s.Reset();
        return Error(row.error());
      }
      if (!*row) break;
      speakers.insert(s.Text(0));
      if (speakers.size() > max_speakers) {
        too_many = true;
        break;
      }
    }
    s.Reset();
  }
  std::shared_ptr<const std::vector<std::string>> out;
  if (!too_many) out = std::make_shared<const std::vector<std::string>>(speakers.begin(), speakers.end());
  if (found == speaker_memo_.end() && speaker_memo_.size() >= kMaxMemoSpeakerNamespaces) speaker_memo_.clear();
  speaker_memo_[namespace_id] = SpeakerMemo{newest, std::move(newest_id), max_speakers, out};
  return out;
}

Result<std::vector<SearchHit>> EventStore::Search(std::string_view match,
                                                  const SearchFilter& filter, int limit,
                                                  double k1, double b) {
  // The join to events is needed only to filter; when the namespace holds every event and nothing
  // else restricts the hits, every full-text row qualifies (each has its event: same transaction).
  bool filtered = filter.session_rowid || filter.since || filter.until;
  if (!filtered) {
    auto all = NamespaceHoldsAllEvents(filter.namespace_id);
    if (!all) return Error(all.error());
    filtered = !*all;
  }
  // engram_bm25 gets the row's length from FTS5's event_fts_docsize table through this join (a
  // b-tree seek) instead of looking it up itself (a nested SQL statement per row).
  std::string sql =
      "SELECT event_fts.rowid, engram_bm25(event_fts, ?1, ?2, d.sz, 'event_fts', ?3) "
      "FROM event_fts ";
  if (filtered) sql += "CROSS JOIN events e ON e.seq = event_fts.rowid ";
  sql += "CROSS JOIN event_fts_docsize d ON d.id = event_fts.rowid WHERE event_fts MATCH ?3";
  if (filtered) sql += " AND e.namespace_id = ?4";
  if (filter.session_rowid) sql += " AND e.session_id = ?5";
  if (filter.since) sql += " AND e.occurred_at >= ?6";
  if (filter.until) sql += " AND e.occurred_at < ?7";
  auto st = db_.Cached(sql);
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, k1).Bind(2, b).Bind(3, match);
  if (filtered) s.Bind(4, filter.namespace_id);
  if (filter.session_rowid) s.Bind(5, *filter.session_rowid);
  if (filter.since) s.Bind(6, *filter.since);
  if (filter.until) s.Bind(7, *filter.until);
  std::vector<SearchHit> hits;
  while (true) {
    auto row = s.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    hits.push_back({s.Int(0), s.Double(1)});
  }
  // Best `limit` by score, ties by seq: what ORDER BY score DESC, rowid LIMIT would give, without
  // SQLite's sorter (a b-tree insert per row).
  KeepBest(hits, limit);
  return hits;
}

Result<TermMatchSet> EventStore::MatchTermCounts(std::string_view match, const SearchFilter& filter,
                                                 size_t max_rows) {
  auto range = NamespaceSeqRange(filter.namespace_id);
  if (!range) return Error(range.error());
  if (!range->has_value()) return TermMatchSet();
  // The first read after a change goes to SQLite alone: under frequent writes the memo would be
  // filled for nothing (a read of every phrase's rows in the whole namespace) and emptied again.
  const auto phrases = OrPhrases(match);
  if (phrases && RefreshMemos() == DataVersionWatch::Verdict::kUnchanged &&
      !match_memo_.TooLarge(filter.namespace_id)) {
    ENGRAM_RETURN_IF_ERROR(MemoisePhrases(match, *phrases, filter.namespace_id, **range));
    if (auto hit = match_memo_.Match(*phrases, filter, max_rows)) return std::move(*hit);
  }
  return ScanTermCounts(match, filter, **range, max_rows);
}

Status EventStore::MemoisePhrases(std::string_view match, const std::vector<std::string_view>& phrases,
                                  int64_t namespace_id, std::pair<int64_t, int64_t> seq_range) {
  const std::vector<std::string_view> missing = match_memo_.Missing(namespace_id, phrases);
  if (missing.empty()) return Status::Ok();
  const std::string missing_match = OrOfPhrases(missing);
  SearchFilter whole;
  whole.namespace_id = namespace_id;
  auto all = ScanTermCounts(missing_match, whole, seq_range, kMaxMemoScanRows);
  if (!all) return all.error();
  if (all->stopped_at_max) {
    match_memo_.MarkTooLarge(namespace_id);
    return Status::Ok();
  }
  match_memo_.Remember(namespace_id, missing, *all);
  if (!all->rows.empty()) return Status::Ok();
  // No event of the namespace holds a missing phrase: their idf comes from any row of the table
  // matching the whole expression (none: no event anywhere holds any of its phrases).
  auto idf = PhraseIdfs(match);
  if (!idf) return idf.error();
  if (!idf->has_value()) return Status::Ok();
  for (size_t i = 0; i < phrases.size(); ++i) {
    if (std::find(missing.begin(), missing.end(), phrases[i]) != missing.end()) {
      match_memo_.RememberAbsent(namespace_id, phrases[i], (**idf)[i]);
    }
  }
  return Status::Ok();
}

Result<std::optional<std::vector<double>>> EventStore::PhraseIdfs(std::string_view match) {
  auto st = db_.Cached(
      "SELECT engram_term_counts(event_fts, d.sz, 'event_fts', ?1) FROM event_fts "
      "CROSS JOIN event_fts_docsize d ON d.id = event_fts.rowid WHERE event_fts MATCH ?1 LIMIT 1");
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, match);
  auto row = s.Step();
  if (!row) return Error(row.error());
  std::optional<std::vector<double>> idf;
  if (*row) {
    auto parsed = ReadTermCounts(s, 0);
    if (!parsed) return Error(parsed.error());
    double avg_length = 0;
    TakeQueryStatistics(*parsed, &idf.emplace(), &avg_length);
  }
  s.Reset();
  return idf;
}

Result<TermMatchSet> EventStore::ScanTermCounts(std::string_view match, const SearchFilter& filter,
                                                std::pair<int64_t, int64_t> seq_range, size_t max_rows) {
  TermMatchSet out;
  std::string sql =
      "SELECT event_fts.rowid, engram_term_counts(event_fts, d.sz, 'event_fts', ?1), e.session_id, "
      "e.occurred_at, "
      "e.speaker FROM event_fts CROSS JOIN events e ON e.seq = event_fts.rowid "
      "CROSS JOIN event_fts_docsize d ON d.id = event_fts.rowid "
      "WHERE event_fts MATCH ?1 AND event_fts.rowid >= ?6 AND event_fts.rowid <= ?7 AND e.namespace_id = ?2";
  if (filter.session_rowid) sql += " AND e.session_id = ?3";
  if (filter.since) sql += " AND e.occurred_at >= ?4";
  if (filter.until) sql += " AND e.occurred_at < ?5";
  auto st = db_.Cached(sql);
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, match).Bind(2, filter.namespace_id).Bind(6, seq_range.first).Bind(7, seq_range.second);
  if (filter.session_rowid) s.Bind(3, *filter.session_rowid);
  if (filter.since) s.Bind(4, *filter.since);
  if (filter.until) s.Bind(5, *filter.until);
  while (out.rows.size() < max_rows) {
    auto row = s.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    auto parsed = ReadTermCounts(s, 1);
    if (!parsed) return Error(parsed.error());
    const TermCountsView& counts = *parsed;
    const uint32_t n = counts.header().phrases;
    if (out.idf.empty() && n > 0) TakeQueryStatistics(counts, &out.idf, &out.avg_length);
    if (n != out.idf.size()) {
      s.Reset();
      return Error(Status::Internal("engram_term_counts changed its phrase count between rows"));
    }
    TermMatchRow& r = out.rows.emplace_back();
    r.seq = s.Int(0);
    r.doc_length = static_cast<int32_t>(counts.header().doc_length);
    out.tf.insert(out.tf.end(), n, 0);
    uint16_t* tf = out.tf.data() + out.tf.size() - n;
    for (uint32_t i = 0; i < n; ++i) tf[i] = counts.Tf(i);
    r.session_rowid = s.Int(2);
    r.occurred_at = s.Int(3);
    r.speaker = s.Text(4);
  }
  out.stopped_at_max = out.rows.size() >= max_rows;
  s.Reset();
  return out;
}

std::ptrdiff_t TermPostings::Find(int64_t seq) const {
  auto it = std::lower_bound(seqs.begin(), seqs.end(), seq);
  return it != seqs.end() && *it == seq ? it - seqs.begin() : -1;
}

Result<bool> EventStore::OwnsSeqRange(int64_t namespace_id, int64_t after_seq, int64_t last_seq) {
  const TermMatchCache::SeqRange* known = match_memo_.NamespaceRange(namespace_id);
  if (known == nullptr) {
    auto range = NamespaceSeqRange(namespace_id);
    if (!range) return Error(range.error());
    TermMatchCache::SeqRange read;
    if (range->has_value()) {
      auto st = db_.Cached("SELECT EXISTS (SELECT 1 FROM events WHERE seq BETWEEN ?1 AND ?2 AND namespace_id <> ?3)");
      if (!st) return Error(st.error());
      Statement& s = **st;
      s.Bind(1, (*range)->first).Bind(2, (*range)->second).Bind(3, namespace_id);
      auto row = s.Step();
      if (!row) return Error(row.error());
      read = {(*range)->first, (*range)->second, *row && s.Int(0) == 0};
      s.Reset();
    }
    match_memo_.SetNamespaceRange(namespace_id, read);
    known = match_memo_.NamespaceRange(namespace_id);
  }
  return known->owned && after_seq >= known->first - 1 && last_seq <= known->last;
}

Result<std::optional<std::pair<int64_t, int64_t>>> EventStore::NamespaceSeqRange(int64_t namespace_id) {
  auto st = db_.Cached(
      "SELECT (SELECT min(seq) FROM events WHERE namespace_id = ?1), "
      "(SELECT max(seq) FROM events WHERE namespace_id = ?1)");
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, namespace_id);
  auto row = s.Step();
  if (!row) return Error(row.error());
  std::optional<std::pair<int64_t, int64_t>> range;
  if (*row && !s.IsNull(0) && !s.IsNull(1)) range = std::pair{s.Int(0), s.Int(1)};
  s.Reset();
  return range;
}

Result<TermPostings> EventStore::MatchPostings(std::string_view match, int64_t namespace_id, int64_t after_seq,
                                               int64_t last_seq, size_t max_rows) {
  // From the memo only where SQLite's rows are the namespace's alone: no other namespace has an
  // event in the range asked (its rows would be returned, and count against max_rows).
  const auto phrases = OrPhrases(match);
  if (phrases && RefreshMemos() == DataVersionWatch::Verdict::kUnchanged && !match_memo_.TooLarge(namespace_id)) {
    auto owns = OwnsSeqRange(namespace_id, after_seq, last_seq);
    if (!owns) return Error(owns.error());
    if (*owns) {
      if (auto hit = match_memo_.Postings(*phrases, namespace_id, after_seq, last_seq, max_rows)) {
        ++postings_memo_answers_;
        return std::move(*hit);
      }
    }
  }
  auto st = db_.Cached(
      "SELECT event_fts.rowid, engram_term_counts(event_fts, d.sz, 'event_fts', ?1) FROM event_fts "
      "CROSS JOIN event_fts_docsize d ON d.id = event_fts.rowid "
      "WHERE event_fts MATCH ?1 AND event_fts.rowid > ?2 AND event_fts.rowid <= ?3");
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, match).Bind(2, after_seq).Bind(3, last_seq);
  TermPostings out;
  bool first = true;
  while (out.seqs.size() < max_rows) {
    auto row = s.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    auto parsed = ReadTermCounts(s, 1);
    if (!parsed) return Error(parsed.error());
    const TermCountsView& counts = *parsed;
    const uint32_t n = counts.header().phrases;
    if (first) {
      first = false;
      out.phrases = n;
      TakeQueryStatistics(counts, &out.idf, &out.avg_length);
    } else if (n != out.phrases) {
      s.Reset();
      return Error(Status::Internal("engram_term_counts changed its phrase count between rows"));
    }
    out.seqs.push_back(s.Int(0));
    out.doc_lengths.push_back(static_cast<int32_t>(counts.header().doc_length));
    for (uint32_t i = 0; i < n; ++i) out.tf.push_back(counts.Tf(i));
  }
  s.Reset();
  return out;
}

Result<std::optional<LocatedEvent>> EventStore::LocateOne(int64_t seq) {
  auto st = db_.Cached(
      // asks_question is left false: only session layouts and stretches need it, and reading the
      // content here would cost every row the pruned path resolves.
      "SELECT e.seq, e.occurred_at, e.speaker, d.sz, 0, e.role, "
      "e.session_id, e.namespace_id FROM events e JOIN event_fts_docsize d ON d.id = e.seq WHERE e.seq = ?1");
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, seq);
  auto row = s.Step();
  if (!row) return Error(row.error());
  if (!*row) {
    s.Reset();
    return std::optional<LocatedEvent>();
  }
  LocatedEvent out;
  out.namespace_id = s.Int(7);
  auto n = ReadNeighbourRow(s, s.Int(6));
  if (!n) return Error(n.error());
  out.row = std::move(*n);
  s.Reset();
  return std::optional<LocatedEvent>(std::move(out));
}

Result<EventStore::SessionStretch> EventStore::SessionStretchAround(int64_t session_rowid, TimestampMs occurred_at,
                                                                  int64_t seq, int before, int after) {
  // Both walk the events_session_time index from the event outwards; the first takes the event
  // itself too.
  static constexpr const char* kSql[2] = {
      "SELECT e.seq, e.occurred_at, e.speaker, d.sz, engram_asks_question(e.content), e.role "
      "FROM events e JOIN event_fts_docsize d ON d.id = e.seq WHERE e.session_id = ?1 AND "
      "(e.occurred_at, e.seq) <= (?2, ?3) ORDER BY e.occurred_at DESC, e.seq DESC LIMIT ?4",
      "SELECT e.seq, e.occurred_at, e.speaker, d.sz, engram_asks_question(e.content), e.role "
      "FROM events e JOIN event_fts_docsize d ON d.id = e.seq WHERE e.session_id = ?1 AND "
      "(e.occurred_at, e.seq) > (?2, ?3) ORDER BY e.occurred_at, e.seq LIMIT ?4"};
  SessionStretch out;
  std::vector<NeighbourRow> sides[2];
  for (int side = 0; side < 2; ++side) {
    const int count = side == 0 ? std::max(before, 0) + 1 : after;
    if (count <= 0) continue;
    auto st = db_.Cached(kSql[side]);
    if (!st) return Error(st.error());
    Statement& s = **st;
    s.Bind(1, session_rowid).Bind(2, occurred_at).Bind(3, seq).Bind(4, static_cast<int64_t>(count));
    while (true) {
      auto row = s.Step();
      if (!row) return Error(row.error());
      if (!*row) break;
      auto n = ReadNeighbourRow(s, session_rowid);
      if (!n) return Error(n.error());
      sides[side].push_back(std::move(*n));
    }
  }
  std::vector<NeighbourRow>& preceding = sides[0];  // nearest first, the event itself (if stored) first of all
  const bool stored = !preceding.empty() && preceding.front().seq == seq;
  if (!stored && preceding.size() > static_cast<size_t>(std::max(before, 0))) preceding.pop_back();
  out.rows.reserve(preceding.size() + sides[1].size());
  out.rows.insert(out.rows.end(), preceding.rbegin(), preceding.rend());
  if (stored) out.centre = out.rows.size() - 1;
  out.rows.insert(out.rows.end(), sides[1].begin(), sides[1].end());
  return out;
}

Result<std::optional<std::vector<NeighbourRow>>> EventStore::SmallSessionLayout(int64_t session_rowid,
                                                                                int max_events) {
  auto st = db_.Cached(
      "SELECT e.seq, e.occurred_at, e.speaker, d.sz, engram_asks_question(e.content), e.role FROM events e "
      "JOIN event_fts_docsize d ON d.id = e.seq WHERE e.session_id = ?1 ORDER BY e.occurred_at, e.seq LIMIT ?2");
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, session_rowid).Bind(2, static_cast<int64_t>(max_events) + 1);
  std::vector<NeighbourRow> rows;
  while (true) {
    auto row = s.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    if (rows.size() >= static_cast<size_t>(max_events)) {
      s.Reset();
      return std::optional<std::vector<NeighbourRow>>();
    }
    auto n = ReadNeighbourRow(s, session_rowid);
    if (!n) return Error(n.error());
    rows.push_back(std::move(*n));
  }
  return std::optional<std::vector<NeighbourRow>>(std::move(rows));
}

DataVersionWatch::Verdict EventStore::RefreshMemos() {
  const DataVersionWatch::Verdict verdict = memo_watch_.Check(db_);
  if (verdict != DataVersionWatch::Verdict::kUnchanged) {
    layout_memo_ = LayoutMemo();
    match_memo_.Clear();
  }
  return verdict;
}

Result<std::shared_ptr<const std::vector<NeighbourRow>>> EventStore::MemoSessionLayout(
    int64_t session_rowid, int max_events) {
  const bool usable = RefreshMemos() != DataVersionWatch::Verdict::kUnusable;
  auto found = layout_memo_.layouts.find(session_rowid);
  if (found != layout_memo_.layouts.end() && found->second.first == max_events) {
    return found->second.second;
  }
  auto read = SmallSessionLayout(session_rowid, max_events);
  if (!read) return Error(read.error());
  std::shared_ptr<const std::vector<NeighbourRow>> layout;
  if (read->has_value()) layout = std::make_shared<const std::vector<NeighbourRow>>(std::move(**read));
  const size_t rows = layout ? layout->size() : 0;
  if (usable) {
    if (layout_memo_.rows + rows > kMaxMemoLayoutRows) {
      layout_memo_.layouts.clear();
      layout_memo_.rows = 0;
    }
    layout_memo_.rows += rows;
    layout_memo_.layouts[session_rowid] = {max_events, layout};
  }
  return layout;
}

Result<std::vector<NeighbourRow>> EventStore::Locate(const std::vector<int64_t>& seqs) {
  std::vector<NeighbourRow> out;
  if (seqs.empty()) return out;
  const std::string list = JsonIntArray(seqs);
  auto st = db_.Cached(
      // asks_question is left false, as in LocateOne (the content is not read).
      "SELECT e.seq, e.occurred_at, e.speaker, d.sz, 0, e.role, e.session_id "
      "FROM json_each(?) j "
      "JOIN events e ON e.seq = j.value JOIN event_fts_docsize d ON d.id = e.seq");
  if (!st) return Error(st.error());
  Statement& s = **st;
  s.Bind(1, list);
  while (true) {
    auto row = s.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    auto n = ReadNeighbourRow(s, s.Int(6));
    if (!n) return Error(n.error());
    out.push_back(std::move(*n));
  }
  return out;
}

Result<std::vector<int64_t>> EventStore::SeqsInTimeRange(int64_t namespace_id, TimestampMs start,
                                                         TimestampMs end, int max_events) {
  auto st = db_.Cached(
      "SELECT seq FROM events WHERE namespace_id = ? AND occurred_at >= ? AND occurred_at < ? "
      "ORDER BY occurred_at LIMIT ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, start).Bind(3, end).Bind(4, static_cast<int64_t>(max_events) + 1);
  return (*st)->Ints();
}

Result<std::vector<int64_t>> EventStore::LatestSeqsInTimeRange(int64_t namespace_id, TimestampMs start,
                                                               TimestampMs end, int limit) {
  auto st = db_.Cached(
      "SELECT seq FROM events WHERE namespace_id = ? AND occurred_at >= ? AND occurred_at < ? "
      "ORDER BY occurred_at DESC LIMIT ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_id).Bind(2, start).Bind(3, end).Bind(4, static_cast<int64_t>(limit));
  return (*st)->Ints();
}

Result<std::vector<Event>> EventStore::SessionEvents(int64_t session_rowid, int64_t offset,
                                                     int64_t count) {
  auto st = db_.Cached(std::string(kEventColumns) +
                       "WHERE e.session_id = ? ORDER BY e.occurred_at, e.seq LIMIT ? OFFSET ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, session_rowid).Bind(2, count).Bind(3, offset);
  std::vector<Event> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back(ReadEvent(**st));
  }
  return out;
}

Result<std::optional<int64_t>> EventStore::SeqOf(std::string_view id) {
  auto st = db_.Cached("SELECT seq FROM events WHERE id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  auto seqs = (*st)->Ints();
  if (!seqs) return Error(seqs.error());
  if (seqs->empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(seqs->front());
}

Result<std::pair<int64_t, int64_t>> EventStore::PositionInSession(int64_t seq) {
  auto st = db_.Cached(
      "SELECT (SELECT count(*) FROM events o WHERE o.session_id = e.session_id AND "
      "(o.occurred_at < e.occurred_at OR (o.occurred_at = e.occurred_at AND o.seq < e.seq))), "
      "s.event_count FROM events e JOIN sessions s ON s.id = e.session_id WHERE e.seq = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, seq);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no event at seq {}", seq)));
  std::pair<int64_t, int64_t> out{(*st)->Int(0), (*st)->Int(1)};
  (*st)->Reset();
  return out;
}

Result<SessionInfo> EventStore::GetSession(int64_t session_rowid) {
  auto st = db_.Cached(std::string(kSessionColumns) + "WHERE s.id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, session_rowid);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no session row {}", session_rowid)));
  SessionInfo info = ReadSession(**st);
  (*st)->Reset();
  return info;
}

Result<int64_t> EventStore::SessionRowidOfEvent(int64_t seq) {
  auto st = db_.Cached("SELECT session_id FROM events WHERE seq = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, seq);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no event at seq {}", seq)));
  int64_t id = (*st)->Int(0);
  (*st)->Reset();
  return id;
}

Result<std::vector<int64_t>> EventStore::Lineage(int64_t session_rowid) {
  auto st = db_.Cached("SELECT parent_id FROM sessions WHERE id = ?");
  if (!st) return Error(st.error());
  std::vector<int64_t> chain = {session_rowid};
  for (int hop = 0; hop < 100; ++hop) {
    (*st)->Reset();
    (*st)->Bind(1, chain.back());
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row || (*st)->IsNull(0)) break;
    const int64_t parent = (*st)->Int(0);
    if (std::find(chain.begin(), chain.end(), parent) != chain.end()) break;  // a cycle
    chain.push_back(parent);
  }
  (*st)->Reset();
  std::reverse(chain.begin(), chain.end());
  return chain;
}

Result<int64_t> EventStore::LineageRoot(int64_t session_rowid) {
  auto chain = Lineage(session_rowid);
  if (!chain) return Error(chain.error());
  return chain->front();
}

Result<std::vector<SessionInfo>> EventStore::ListSessions(std::optional<int64_t> namespace_id,
                                                          int limit, int64_t after_seq) {
  // Keyset on the rowid (creation order, never reused while the row lives): a session written or
  // made active between two pages neither repeats nor shifts them.
  std::string sql = std::string(kSessionColumns) +
                    (namespace_id ? "WHERE s.namespace_id = ?1 " : "WHERE ?1 IS NULL ") +
                    "AND (?3 = 0 OR s.id < ?3) ORDER BY s.id DESC LIMIT ?2";
  auto st = db_.Cached(sql);
  if (!st) return Error(st.error());
  if (namespace_id) {
    (*st)->Bind(1, *namespace_id);
  } else {
    (*st)->BindNull(1);
  }
  (*st)->Bind(2, static_cast<int64_t>(limit)).Bind(3, after_seq);
  std::vector<SessionInfo> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back(ReadSession(**st));
  }
  return out;
}

Result<StoreStats> EventStore::Stats() {
  StoreStats stats;
  stats.path = db_.path();
  stats.file_bytes = FileSize(db_.path());
  stats.wal_bytes = FileSize(db_.path() + "-wal");
  auto st = db_.Cached(
      "SELECT n.name, (SELECT count(*) FROM sessions s WHERE s.namespace_id = n.id), "
      "(SELECT coalesce(sum(event_count), 0) FROM sessions s WHERE s.namespace_id = n.id), "
      "(SELECT count(*) FROM claims c WHERE c.namespace_id = n.id), "
      "(SELECT count(*) FROM claims c WHERE c.namespace_id = n.id AND c.status = 'active') "
      "FROM namespaces n ORDER BY n.name");
  if (!st) return Error(st.error());
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    NamespaceStats ns{(*st)->Text(0), (*st)->Int(1), (*st)->Int(2), (*st)->Int(3), (*st)->Int(4)};
    stats.namespaces += 1;
    stats.sessions += ns.sessions;
    stats.events += ns.events;
    stats.claims += ns.claims;
    stats.active_claims += ns.active_claims;
    stats.per_namespace.push_back(std::move(ns));
  }
  auto jobs = JobStore(db_).Counts(NowMs());
  if (!jobs) return Error(jobs.error());
  stats.pending_jobs = jobs->pending;
  stats.leased_jobs = jobs->leased;
  stats.stale_leased_jobs = jobs->stale_leases;
  stats.failed_jobs = jobs->failed;
  return stats;
}

Result<std::vector<std::string>> EventStore::CheckInvariants() {
  std::vector<std::string> problems;
  struct Check {
    const char* sql;
    const char* what;
  };
  static const Check kChecks[] = {
      {"SELECT count(*) FROM events e WHERE NOT EXISTS "
       "(SELECT 1 FROM event_fts f WHERE f.rowid = e.seq)",
       "events missing from the full-text index"},
      {"SELECT count(*) FROM event_fts f WHERE NOT EXISTS "
       "(SELECT 1 FROM events e WHERE e.seq = f.rowid)",
       "full-text rows without an event"},
      {"SELECT count(*) FROM sessions s WHERE s.event_count <> "
       "(SELECT count(*) FROM events e WHERE e.session_id = s.id)",
       "sessions whose event_count is wrong"},
      {"SELECT count(*) FROM claims c WHERE NOT EXISTS "
       "(SELECT 1 FROM claim_evidence ce WHERE ce.claim_seq = c.seq AND ce.relation = 'supports')",
       "claims without evidence"},
      {"SELECT count(*) FROM claims c WHERE NOT EXISTS (SELECT 1 FROM claim_fts f WHERE f.rowid = c.seq)",
       "claims missing from the full-text index"},
      {"SELECT count(*) FROM tombstones t WHERE EXISTS (SELECT 1 FROM events e WHERE e.id = t.object_id) "
       "OR EXISTS (SELECT 1 FROM claims c WHERE c.id = t.object_id)",
       "forgotten objects (with a tombstone) still stored"},
      {"SELECT count(*) FROM claim_fts f WHERE NOT EXISTS (SELECT 1 FROM claims c WHERE c.seq = f.rowid)",
       "claim full-text rows without a claim"},
      {"SELECT count(*) FROM vectors v WHERE (v.owner_type = 'event' AND NOT EXISTS "
       "(SELECT 1 FROM events e WHERE e.seq = v.owner_seq)) OR (v.owner_type = 'claim' AND NOT EXISTS "
       "(SELECT 1 FROM claims c WHERE c.seq = v.owner_seq))",
       "vectors whose event or claim is gone"},
      {"SELECT count(*) FROM feedback f WHERE (f.owner_type = 'event' AND NOT EXISTS "
       "(SELECT 1 FROM events e WHERE e.seq = f.owner_seq)) OR (f.owner_type = 'claim' AND NOT EXISTS "
       "(SELECT 1 FROM claims c WHERE c.seq = f.owner_seq))",
       "feedback whose event or claim is gone"},

  };
  for (const Check& c : kChecks) {
    auto n = db_.QueryInt(c.sql);
    if (!n) return Error(n.error());
    if (*n != 0) problems.push_back(fmt::format("{} {}", *n, c.what));
  }
  auto fk = Statement::Prepare(db_.handle(), "PRAGMA foreign_key_check");
  if (!fk) return Error(fk.error());
  int64_t violations = 0;
  while (true) {
    auto row = fk->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    ++violations;
  }
  if (violations != 0) problems.push_back(fmt::format("{} foreign key violations", violations));
  return problems;
}

}  // namespace engram::sqlite
