#include "store/sqlite/claim_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include "store/sqlite/best_hits.h"
#include "store/sqlite/term_match_cache.h"

namespace engram::sqlite {
namespace {

constexpr const char* kClaimColumns =
    "SELECT c.seq, c.negated, c.topic_key, c.polarity_key, c.id, n.name, c.subject, c.predicate, "
    "c.slot, c.value, c.text, c.qualifiers, c.valid_from, c.valid_to, c.recorded_from, "
    "c.recorded_to, c.status, c.scope, c.authority, c.assertion, c.confidence, c.importance, "
    "c.supersedes_id, c.superseded_by_id, c.conflict_key, c.fact_hash, c.time_phrase, c.extractor, "
    "c.expires_at, c.activation, c.access_count, c.last_accessed_at "
    "FROM claims c JOIN namespaces n ON n.id = c.namespace_id ";

// The claim columns of the current claims (status active or disputed) of one key: `column` =
// ?2 in namespace ?1, read through `index`, a partial index of current claims on (namespace_id,
// column) (schema migration 11). INDEXED BY pins it: the older index on the key alone holds the
// key's whole history, and reading it made every candidate's lookups grow with the namespace.
std::string CurrentByKeySql(std::string_view index, std::string_view column) {
  std::string sql = kClaimColumns;
  const std::string from = "FROM claims c ";
  sql.replace(sql.find(from), from.size(), fmt::format("FROM claims c INDEXED BY {} ", index));
  return sql + fmt::format("WHERE c.namespace_id = ? AND c.{} = ? AND c.status IN ('active','disputed') ORDER BY c.seq",
                           column);
}

StoredClaim ReadClaim(const Statement& st) {
  StoredClaim s;
  s.seq = st.Int(0);
  s.negated = st.Int(1) != 0;
  s.topic_key = st.Text(2);
  s.polarity_key = st.Text(3);
  Claim& c = s.claim;
  c.seq = s.seq;
  c.id = st.Text(4);
  c.namespace_name = st.Text(5);
  c.subject = st.Text(6);
  c.predicate = st.Text(7);
  c.slot = st.Text(8);
  c.value = st.Text(9);
  c.text = st.Text(10);
  auto quals = nlohmann::json::parse(st.Text(11), nullptr, false);
  if (quals.is_array()) {
    for (const auto& q : quals) {
      if (q.is_string()) c.qualifiers.push_back(q.get<std::string>());
    }
  }
  c.valid_from = st.Int(12);
  if (!st.IsNull(13)) c.valid_to = st.Int(13);
  c.recorded_from = st.Int(14);
  if (!st.IsNull(15)) c.recorded_to = st.Int(15);
  c.status = st.Text(16);
  c.scope = st.Text(17);
  c.authority = st.Text(18);
  c.assertion = st.Text(19);
  c.confidence = st.Double(20);
  c.importance = st.Double(21);
  c.supersedes_id = st.Text(22);
  c.superseded_by_id = st.Text(23);
  c.conflict_key = st.Text(24);
  c.fact_hash = st.Text(25);
  c.time_phrase = st.Text(26);
  c.extractor = st.Text(27);
  if (!st.IsNull(28)) c.expires_at = st.Int(28);
  c.activation = st.Double(29);
  c.access_count = st.Int(30);
  if (!st.IsNull(31)) c.last_accessed_at = st.Int(31);
  return s;
}

}  // namespace

std::string ClaimSnapshotJson(const Claim& c) {
  nlohmann::ordered_json j;
  j["status"] = c.status;
  j["subject"] = c.subject;
  j["predicate"] = c.predicate;
  if (!c.slot.empty()) j["slot"] = c.slot;
  j["value"] = c.value;
  j["qualifiers"] = c.qualifiers;
  j["valid_from"] = c.valid_from;
  j["valid_to"] = c.valid_to ? nlohmann::ordered_json(*c.valid_to) : nlohmann::ordered_json();
  j["recorded_to"] = c.recorded_to ? nlohmann::ordered_json(*c.recorded_to) : nlohmann::ordered_json();
  if (!c.superseded_by_id.empty()) j["superseded_by_id"] = c.superseded_by_id;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<std::optional<StoredClaim>> ClaimStore::CurrentByFactHash(int64_t ns, std::string_view hash) {
  auto st = db_.Cached(std::string(kClaimColumns) +
                       "WHERE c.namespace_id = ? AND c.fact_hash = ? AND c.status IN ('active','disputed')");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, hash);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return std::optional<StoredClaim>();
  StoredClaim c = ReadClaim(**st);
  (*st)->Reset();
  return std::optional<StoredClaim>(std::move(c));
}

namespace {
Result<std::vector<StoredClaim>> ReadAll(Statement& st) {
  std::vector<StoredClaim> out;
  while (true) {
    auto row = st.Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back(ReadClaim(st));
  }
  return out;
}
}  // namespace

Result<std::vector<StoredClaim>> ClaimStore::CurrentByPolarity(int64_t ns, std::string_view key) {
  static const std::string kSql = CurrentByKeySql("claims_current_polarity", "polarity_key");
  auto st = db_.Cached(kSql);
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, key);
  return ReadAll(**st);
}

Result<std::vector<TopicValue>> ClaimStore::CurrentValuesByTopic(int64_t ns, std::string_view key,
                                                                 std::string_view near_copy_key) {
  // Two seeks of the partial index (this key, then unknown keys), not an OR the planner might scan.
  auto st = near_copy_key.empty()
                ? db_.Cached("SELECT seq, negated, value FROM claims INDEXED BY claims_current_topic "
                             "WHERE namespace_id = ?1 AND topic_key = ?2 AND status IN ('active','disputed') "
                             "ORDER BY seq")
                : db_.Cached("SELECT seq, negated, value FROM claims INDEXED BY claims_current_near_copy "
                             "WHERE namespace_id = ?1 AND topic_key = ?2 AND near_copy_key = ?3 "
                             "AND status IN ('active','disputed') "
                             "UNION ALL "
                             "SELECT seq, negated, value FROM claims INDEXED BY claims_current_near_copy "
                             "WHERE namespace_id = ?1 AND topic_key = ?2 AND near_copy_key IS NULL "
                             "AND status IN ('active','disputed') ORDER BY seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, key);
  if (!near_copy_key.empty()) (*st)->Bind(3, near_copy_key);
  std::vector<TopicValue> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back({(*st)->Int(0), (*st)->Int(1) != 0, (*st)->Text(2)});
  }
  return out;
}

Result<StoredClaim> ClaimStore::BySeq(int64_t seq) {
  auto st = db_.Cached(std::string(kClaimColumns) + "WHERE c.seq = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, seq);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no claim with seq {}", seq)));
  StoredClaim c = ReadClaim(**st);
  (*st)->Reset();
  return c;
}

Result<std::vector<StoredClaim>> ClaimStore::CurrentBySubject(int64_t ns, std::string_view subject) {
  static const std::string kSql = CurrentByKeySql("claims_current_subject", "subject");
  auto st = db_.Cached(kSql);
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, subject);
  return ReadAll(**st);
}

Result<std::vector<StoredClaim>> ClaimStore::RecentCurrentBySubject(int64_t ns, std::string_view subject, int limit) {
  static const std::string kSql = CurrentByKeySql("claims_current_subject", "subject") + " DESC LIMIT ?";
  auto st = db_.Cached(kSql);
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, subject).Bind(3, static_cast<int64_t>(limit));
  return ReadAll(**st);
}

Result<std::vector<StoredClaim>> ClaimStore::RecentCurrent(int64_t ns, int limit) {
  auto st = db_.Cached(std::string(kClaimColumns) +
                       "WHERE c.namespace_id = ? AND c.status IN ('active','disputed') ORDER BY c.seq DESC LIMIT ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, static_cast<int64_t>(limit));
  return ReadAll(**st);
}

Result<std::optional<StoredClaim>> ClaimStore::ActiveByConflictKey(int64_t ns, std::string_view key) {
  auto st = db_.Cached(std::string(kClaimColumns) +
                       "WHERE c.namespace_id = ? AND c.conflict_key = ? AND c.status = 'active'");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, key);
  auto all = ReadAll(**st);
  if (!all) return Error(all.error());
  if (all->empty()) return std::optional<StoredClaim>();
  return std::optional<StoredClaim>(std::move(all->front()));
}

Result<std::vector<StoredClaim>> ClaimStore::CurrentByConflictKey(int64_t ns, std::string_view key) {
  static const std::string kSql = CurrentByKeySql("claims_current_conflict", "conflict_key");
  auto st = db_.Cached(kSql);
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, key);
  return ReadAll(**st);
}

Result<std::optional<StoredClaim>> ClaimStore::NextInValidTime(int64_t ns, std::string_view key,
                                                               TimestampMs after) {
  auto st = db_.Cached(std::string(kClaimColumns) +
                       "WHERE c.namespace_id = ? AND c.conflict_key = ? AND c.valid_from > ? "
                       "AND c.status IN ('active','superseded','disputed','expired') "
                       "ORDER BY c.valid_from, c.seq LIMIT 1");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, key).Bind(3, after);
  auto all = ReadAll(**st);
  if (!all) return Error(all.error());
  if (all->empty()) return std::optional<StoredClaim>();
  return std::optional<StoredClaim>(std::move(all->front()));
}

Result<int64_t> ClaimStore::Insert(int64_t ns, const StoredClaim& s) {
  const Claim& c = s.claim;
  auto st = db_.Cached(
      "INSERT INTO claims(id, namespace_id, subject, predicate, slot, value, text, qualifiers, negated, "
      "valid_from, valid_to, recorded_from, recorded_to, status, scope, authority, assertion, confidence, "
      "importance, supersedes_id, superseded_by_id, topic_key, conflict_key, polarity_key, fact_hash, "
      "time_phrase, extractor, near_copy_key) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
      "?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)");
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, c.id).Bind(2, ns).Bind(3, c.subject).Bind(4, c.predicate).Bind(5, c.slot).Bind(6, c.value);
  q.Bind(7, c.text).Bind(8, nlohmann::json(c.qualifiers).dump()).Bind(9, static_cast<int64_t>(s.negated));
  q.Bind(10, c.valid_from);
  if (c.valid_to) {
    q.Bind(11, *c.valid_to);
  } else {
    q.BindNull(11);
  }
  q.Bind(12, c.recorded_from);
  if (c.recorded_to) {
    q.Bind(13, *c.recorded_to);
  } else {
    q.BindNull(13);
  }
  q.Bind(14, c.status).Bind(15, c.scope).Bind(16, c.authority).Bind(17, c.assertion);
  q.Bind(18, c.confidence).Bind(19, c.importance).BindOptional(20, c.supersedes_id);
  q.BindOptional(21, c.superseded_by_id).Bind(22, s.topic_key).BindOptional(23, c.conflict_key);
  q.Bind(24, s.polarity_key).Bind(25, c.fact_hash).BindOptional(26, c.time_phrase).Bind(27, c.extractor);
  q.BindOptional(28, s.near_copy_key);
  ENGRAM_RETURN_IF_ERROR(q.Run());
  int64_t seq = sqlite3_last_insert_rowid(db_.handle());
  auto fts = db_.Cached("INSERT INTO claim_fts(rowid, body) VALUES (?, ?)");
  if (!fts) return Error(fts.error());
  (*fts)->Bind(1, seq).Bind(2, s.search_words.empty() ? c.text : c.text + "\n" + s.search_words);
  ENGRAM_RETURN_IF_ERROR((*fts)->Run());
  return seq;
}

Status ClaimStore::AddEvidence(int64_t claim_seq, int64_t event_seq, std::string_view relation,
                               TimestampMs now) {
  auto st = db_.Cached(
      "INSERT OR IGNORE INTO claim_evidence(claim_seq, event_seq, relation, created_at) VALUES (?, ?, ?, ?)");
  if (!st) return st.error();
  (*st)->Bind(1, claim_seq).Bind(2, event_seq).Bind(3, relation).Bind(4, now);
  return (*st)->Run();
}

Status ClaimStore::MarkSuperseded(int64_t claim_seq, std::string_view by_id, TimestampMs valid_to,
                                  TimestampMs recorded_to) {
  auto st = db_.Cached(
      "UPDATE claims SET status = 'superseded', superseded_by_id = ?2, "
      "valid_to = CASE WHEN valid_to IS NULL OR valid_to > ?3 THEN max(?3, valid_from) ELSE valid_to END, "
      "recorded_to = ?4 WHERE seq = ?1");
  if (!st) return st.error();
  (*st)->Bind(1, claim_seq).Bind(2, by_id).Bind(3, valid_to).Bind(4, recorded_to);
  return (*st)->Run();
}

Status ClaimStore::AddHistory(int64_t claim_seq, TimestampMs at, std::string_view actor,
                              std::string_view action, std::string_view reason,
                              std::string_view before_json, std::string_view after_json) {
  auto st = db_.Cached(
      "INSERT INTO claim_history(claim_seq, at, actor, action, reason, before, after) "
      "VALUES (?, ?, ?, ?, ?, ?, ?)");
  if (!st) return st.error();
  (*st)->Bind(1, claim_seq).Bind(2, at).Bind(3, actor).Bind(4, action).Bind(5, reason);
  (*st)->Bind(6, before_json).Bind(7, after_json);
  return (*st)->Run();
}

Status ClaimStore::AddDecision(int64_t ns, std::optional<int64_t> event_seq,
                               std::optional<int64_t> claim_seq, TimestampMs at,
                               std::string_view decision, std::string_view reason,
                               std::string_view detail, std::string_view candidate_json) {
  auto st = db_.Cached(
      "INSERT INTO claim_decisions(namespace_id, event_seq, claim_seq, at, decision, reason, detail, "
      "candidate) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!st) return st.error();
  Statement& q = **st;
  q.Bind(1, ns);
  if (event_seq) {
    q.Bind(2, *event_seq);
  } else {
    q.BindNull(2);
  }
  if (claim_seq) {
    q.Bind(3, *claim_seq);
  } else {
    q.BindNull(3);
  }
  q.Bind(4, at).Bind(5, decision).Bind(6, reason).Bind(7, detail).Bind(8, candidate_json);
  return q.Run();
}

Result<std::optional<TimestampMs>> ClaimStore::TimeMentionStart(int64_t claim_seq) {
  auto st = db_.Cached(
      "SELECT valid_from FROM claims WHERE seq = ? AND time_phrase IS NOT NULL AND time_phrase <> ''");
  if (!st) return Error(st.error());
  (*st)->Bind(1, claim_seq);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  std::optional<TimestampMs> from;
  if (*row) from = (*st)->Int(0);
  (*st)->Reset();
  return from;
}

Result<std::vector<int64_t>> ClaimStore::EventsDatedIn(int64_t ns, TimestampMs start, TimestampMs end, int limit) {
  constexpr TimestampMs kHalfDayMs = 12LL * 3600 * 1000;  // the middle of the claim's day
  auto st = db_.Cached(
      "SELECT DISTINCT (SELECT min(ce.event_seq) FROM claim_evidence ce WHERE ce.claim_seq = c.seq AND "
      "ce.relation = 'supports') AS first FROM claims c WHERE c.namespace_id = ? AND c.time_phrase IS NOT NULL "
      "AND c.time_phrase <> '' AND c.valid_from >= ? AND c.valid_from < ? AND first IS NOT NULL ORDER BY first LIMIT ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, start - kHalfDayMs).Bind(3, end - kHalfDayMs).Bind(4, static_cast<int64_t>(limit));
  std::vector<int64_t> out;
  for (;;) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    out.push_back((*st)->Int(0));
  }
  (*st)->Reset();
  return out;
}

Result<std::vector<ClaimStore::Support>> ClaimStore::SupportingEvents(const std::vector<int64_t>& claim_seqs) {
  if (RefreshMemos() != DataVersionWatch::Verdict::kUnchanged) return ReadSupports(claim_seqs);
  // Room is made before what is missing is worked out: every claim asked is then either memoised
  // or read below (a call asking more than the bound holds its claims until the next one).
  if (supports_memo_.size() + claim_seqs.size() > supports_memo_limit_) supports_memo_.clear();
  std::vector<int64_t> missing;
  for (const int64_t seq : claim_seqs) {
    if (!supports_memo_.contains(seq) && std::find(missing.begin(), missing.end(), seq) == missing.end()) {
      missing.push_back(seq);
    }
  }
  if (!missing.empty()) {
    auto read = ReadSupports(missing);
    if (!read) return Error(read.error());
    for (const int64_t seq : missing) supports_memo_[seq];  // a claim without such evidence too
    for (const Support& s : *read) supports_memo_[s.claim_seq].push_back(s.event_seq);
  }
  std::vector<Support> out;
  for (const int64_t seq : claim_seqs) {
    for (const int64_t event_seq : supports_memo_.at(seq)) out.push_back({seq, event_seq});
  }
  return out;
}

DataVersionWatch::Verdict ClaimStore::RefreshMemos() {
  const DataVersionWatch::Verdict verdict = memo_watch_.Check(db_);
  if (verdict != DataVersionWatch::Verdict::kUnchanged) {
    match_memo_.Clear();
    supports_memo_.clear();
  }
  return verdict;
}

Result<std::vector<ClaimStore::Support>> ClaimStore::ReadSupports(const std::vector<int64_t>& claim_seqs) {
  std::vector<Support> out;
  if (claim_seqs.empty()) return out;
  const std::string list = JsonIntArray(claim_seqs);
  // The joins are pinned (CROSS JOIN) to the order of the answer — the list, then each claim's
  // evidence by event seq (claim_evidence's primary key) — so that no sorter copies the rows; the
  // order is checked below all the same and restored when it is not so.
  auto st = db_.Cached(
      "SELECT j.key, ce.claim_seq, ce.event_seq FROM json_each(?) j CROSS JOIN claim_evidence ce "
      "ON ce.claim_seq = j.value AND ce.relation = 'supports'");
  if (!st) return Error(st.error());
  (*st)->Bind(1, list);
  std::vector<int64_t> keys;  // the position in `claim_seqs` of each row's claim
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    keys.push_back((*st)->Int(0));
    out.push_back({(*st)->Int(1), (*st)->Int(2)});
  }
  auto before = [&](size_t a, size_t b) {
    return keys[a] != keys[b] ? keys[a] < keys[b] : out[a].event_seq < out[b].event_seq;
  };
  bool sorted = true;
  for (size_t i = 1; i < out.size() && sorted; ++i) sorted = !before(i, i - 1);
  if (!sorted) {
    std::vector<size_t> order(out.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), before);
    std::vector<Support> reordered;
    reordered.reserve(out.size());
    for (size_t i : order) reordered.push_back(std::move(out[i]));
    out = std::move(reordered);
  }
  return out;
}

Result<std::vector<EvidenceRef>> ClaimStore::Evidence(int64_t claim_seq) {
  auto st = db_.Cached(
      "SELECT e.id, ce.relation, e.role, e.speaker, e.origin_class, s.external_id, e.occurred_at, "
      "e.content, e.metadata FROM claim_evidence ce JOIN events e ON e.seq = ce.event_seq "
      "JOIN sessions s ON s.id = e.session_id WHERE ce.claim_seq = ? ORDER BY e.occurred_at, e.seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, claim_seq);
  std::vector<EvidenceRef> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **st;
    out.push_back({q.Text(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5), q.Int(6), q.Text(7),
                   q.Text(8)});
  }
  return out;
}

Result<StoredClaim> ClaimStore::Get(std::string_view id) {
  auto st = db_.Cached(std::string(kClaimColumns) + "WHERE c.id = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, id);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  if (!*row) return Error(Status::NotFound(fmt::format("no claim with id \"{}\"", id)));
  StoredClaim c = ReadClaim(**st);
  (*st)->Reset();
  auto evidence = Evidence(c.seq);
  if (!evidence) return Error(evidence.error());
  c.claim.evidence = std::move(*evidence);
  return c;
}

Result<std::vector<Claim>> ClaimStore::GetBySeqs(const std::vector<int64_t>& seqs) {
  std::vector<Claim> out(seqs.size());
  if (seqs.empty()) return out;
  std::string list = nlohmann::json(seqs).dump();
  // Position of each seq in the answer (a seq may repeat).
  std::map<int64_t, std::vector<size_t>> positions;
  for (size_t i = 0; i < seqs.size(); ++i) positions[seqs[i]].push_back(i);

  // The claims, then all their evidence, in two statements (not two per claim).
  auto st = db_.Cached(std::string(kClaimColumns) + "WHERE c.seq IN (SELECT value FROM json_each(?))");
  if (!st) return Error(st.error());
  (*st)->Bind(1, list);
  size_t found = 0;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    StoredClaim c = ReadClaim(**st);
    const std::vector<size_t>& at = positions[c.seq];
    for (size_t k = 0; k < at.size(); ++k) {
      out[at[k]] = k + 1 == at.size() ? std::move(c.claim) : c.claim;
      ++found;
    }
  }
  if (found != seqs.size()) return Error(Status::NotFound("a claim of the list does not exist"));

  // Each claim's evidence by (occurred_at, event seq); rows of one event under several relations
  // keep the primary key's order (by relation). Sorted here rather than by SQLite, whose sorter
  // would copy every row, content included.
  auto ev = db_.Cached(
      "SELECT ce.claim_seq, e.id, ce.relation, e.role, e.speaker, e.origin_class, s.external_id, "
      "e.occurred_at, e.content, e.metadata, e.seq FROM claim_evidence ce JOIN events e ON e.seq = ce.event_seq "
      "JOIN sessions s ON s.id = e.session_id WHERE ce.claim_seq IN (SELECT value FROM json_each(?)) "
      "ORDER BY ce.claim_seq, ce.event_seq, ce.relation");
  if (!ev) return Error(ev.error());
  (*ev)->Bind(1, list);
  struct Row {
    int64_t claim_seq;
    int64_t event_seq;
    EvidenceRef ref;
  };
  std::vector<Row> rows;
  while (true) {
    auto row = (*ev)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **ev;
    rows.push_back({q.Int(0), q.Int(10),
                    EvidenceRef{q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5), q.Text(6), q.Int(7),
                                q.Text(8), q.Text(9)}});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
    if (x.claim_seq != y.claim_seq) return x.claim_seq < y.claim_seq;
    if (x.ref.occurred_at != y.ref.occurred_at) return x.ref.occurred_at < y.ref.occurred_at;
    return x.event_seq < y.event_seq;
  });
  for (Row& r : rows) {
    const std::vector<size_t>& at = positions[r.claim_seq];
    for (size_t k = 0; k < at.size(); ++k) {
      if (k + 1 == at.size()) {
        out[at[k]].evidence.push_back(std::move(r.ref));
      } else {
        out[at[k]].evidence.push_back(r.ref);
      }
    }
  }
  return out;
}

Result<std::vector<int64_t>> ClaimStore::List(int64_t ns, std::string_view subject, bool include_history,
                                              int limit, int offset, int64_t after_seq) {
  auto st = db_.Cached(
      "SELECT seq FROM claims WHERE namespace_id = ?1 AND (?2 = '' OR subject = ?2) "
      "AND (?3 OR status IN ('active','disputed')) AND seq > ?6 ORDER BY seq LIMIT ?4 OFFSET ?5");
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns).Bind(2, subject).Bind(3, static_cast<int64_t>(include_history));
  (*st)->Bind(4, static_cast<int64_t>(limit)).Bind(5, static_cast<int64_t>(offset)).Bind(6, after_seq);
  return (*st)->Ints();
}

Result<std::vector<ClaimDecision>> ClaimStore::Decisions(int64_t claim_seq) {
  auto st = db_.Cached(
      "SELECT d.at, d.decision, d.reason, d.detail, coalesce(e.id, '') FROM claim_decisions d "
      "LEFT JOIN events e ON e.seq = d.event_seq WHERE d.claim_seq = ? ORDER BY d.seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, claim_seq);
  std::vector<ClaimDecision> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **st;
    out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4)});
  }
  return out;
}

Result<std::vector<ClaimChange>> ClaimStore::History(int64_t claim_seq) {
  auto st = db_.Cached(
      "SELECT at, actor, action, reason, before, after FROM claim_history WHERE claim_seq = ? ORDER BY seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, claim_seq);
  std::vector<ClaimChange> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **st;
    out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5)});
  }
  return out;
}

Result<std::vector<SearchHit>> ClaimStore::Search(std::string_view match, int64_t ns,
                                                  const ClaimVisibility& v, TimestampMs now, int limit,
                                                  double k1, double b) {
  const auto phrases = OrPhrases(match);
  if (!phrases || !ClaimMatchCache::Answers(v)) return ScanSearch(match, ns, v, now, limit, k1, b);
  if (RefreshMemos() != DataVersionWatch::Verdict::kUnchanged) return ScanSearch(match, ns, v, now, limit, k1, b);
  match_memo_.UseParameters(k1, b);
  if (match_memo_.TooLarge(ns, *phrases)) return ScanSearch(match, ns, v, now, limit, k1, b);
  if (!match_memo_.Missing(ns, *phrases).empty()) {
    auto range = NamespaceSeqRange(ns);
    if (!range) return Error(range.error());
    if (!range->has_value()) return std::vector<SearchHit>{};
    ENGRAM_RETURN_IF_ERROR(MemoisePhrases(*phrases, ns, **range, k1, b));
  }
  if (auto hits = match_memo_.Search(ns, *phrases, v, now, limit)) {
    ++memo_answers_;
    return std::move(*hits);
  }
  return ScanSearch(match, ns, v, now, limit, k1, b);
}

Status ClaimStore::MemoisePhrases(const std::vector<std::string_view>& phrases, int64_t ns,
                                  std::pair<int64_t, int64_t> seq_range, double k1, double b) {
  // Every claim of the namespace holding a missing phrase, whatever its status or time (visibility
  // is decided per search), with each phrase's share of its score: one walk, as ScanSearch's.
  const std::vector<std::string_view> missing = match_memo_.Missing(ns, phrases);
  const std::string match = OrOfPhrases(missing);
  auto st = db_.Cached(
      "SELECT claim_fts.rowid, engram_bm25_shares(claim_fts, ?1, ?2, d.sz, 'claim_fts', ?3), c.status, "
      "c.valid_from, c.valid_to, c.expires_at FROM claim_fts CROSS JOIN claims c ON c.seq = claim_fts.rowid "
      "CROSS JOIN claim_fts_docsize d ON d.id = claim_fts.rowid "
      "WHERE claim_fts MATCH ?3 AND claim_fts.rowid >= ?5 AND claim_fts.rowid <= ?6 AND c.namespace_id = ?4");
  if (!st) return st.error();
  Statement& q = **st;
  q.Bind(1, k1).Bind(2, b).Bind(3, match).Bind(4, ns).Bind(5, seq_range.first).Bind(6, seq_range.second);
  std::vector<std::vector<ClaimMatchCache::Row>> rows(missing.size());
  while (true) {
    auto row = q.Step();
    if (!row) return row.error();
    if (!*row) break;
    const std::string_view shares = q.Blob(1);
    if (shares.size() != missing.size() * sizeof(double)) {
      return Status::Internal(fmt::format("engram_bm25_shares gave {} bytes for {} phrases", shares.size(), missing.size()));
    }
    auto status = ClaimStanding::ParseStatus(q.Text(2));
    if (!status) return Status::Corruption(fmt::format("claim {} has the unknown status \"{}\"", q.Int(0), q.Text(2)));
    ClaimStanding standing{*status, q.Int(3), std::nullopt, std::nullopt};
    if (!q.IsNull(4)) standing.valid_to = q.Int(4);
    if (!q.IsNull(5)) standing.expires_at = q.Int(5);
    for (size_t i = 0; i < missing.size(); ++i) {
      double share = 0;
      std::memcpy(&share, shares.data() + i * sizeof(double), sizeof share);
      if (share > 0) rows[i].push_back({q.Int(0), share, standing});
    }
  }
  q.Reset();
  match_memo_.Remember(ns, missing, std::move(rows));
  return Status::Ok();
}

Result<std::vector<SearchHit>> ClaimStore::ScanSearch(std::string_view match, int64_t ns,
                                                      const ClaimVisibility& v, TimestampMs now, int limit,
                                                      double k1, double b) {
  // As in EventStore::Search: the row length comes from the docsize join, and the top `limit` is
  // picked in C++ rather than by SQLite's sorter.
  std::string sql =
      "SELECT claim_fts.rowid, engram_bm25(claim_fts, ?1, ?2, d.sz, 'claim_fts', ?3) AS score "
      "FROM claim_fts CROSS JOIN claims c ON c.seq = claim_fts.rowid "
      "CROSS JOIN claim_fts_docsize d ON d.id = claim_fts.rowid "
      "WHERE claim_fts MATCH ?3 AND claim_fts.rowid >= ?10 AND claim_fts.rowid <= ?11 AND c.namespace_id = ?4 ";
  if (v.archived_only) {
    sql += "AND c.status = 'archived' ";
  } else if (v.any_status) {
    // no status or time condition
  } else if (v.known_as_of) {
    // What engram believed at K: recorded by then and not yet closed; its validity as known then.
    // A valid_to written by a later supersede (recorded after K) was not known at K.
    sql += "AND c.recorded_from <= ?5 AND (c.recorded_to IS NULL OR ?5 < c.recorded_to) "
           "AND c.valid_from <= ?6 AND (c.valid_to IS NULL OR ?6 < c.valid_to OR "
           "(c.recorded_to IS NOT NULL AND c.recorded_to > ?5)) AND c.status NOT IN ('retracted') ";
  } else if (v.as_of) {
    // What was true at T, as known now.
    sql += "AND c.valid_from <= ?6 AND (c.valid_to IS NULL OR ?6 < c.valid_to) "
           "AND c.status IN ('active','superseded','disputed','expired') ";
  } else if (v.include_history) {
    sql += "AND c.status IN ('active','superseded','disputed','expired') ";
  } else {
    // Current: not closed in valid time and not past its TTL (a claim may be past expires_at
    // before the maintenance pass marks it expired).
    sql += "AND c.status IN ('active','disputed') AND (c.valid_to IS NULL OR c.valid_to > ?7) "
           "AND (c.expires_at IS NULL OR c.expires_at > ?7) ";
  }
  sql += "AND (?8 IS NULL OR c.valid_from < ?8) AND (?9 IS NULL OR c.valid_to IS NULL OR c.valid_to > ?9) ";

  auto range = NamespaceSeqRange(ns);
  if (!range) return Error(range.error());
  if (!range->has_value()) return std::vector<SearchHit>{};
  auto st = db_.Cached(sql);
  if (!st) return Error(st.error());
  Statement& q = **st;
  q.Bind(1, k1).Bind(2, b).Bind(3, match).Bind(4, ns).Bind(10, (*range)->first).Bind(11, (*range)->second);
  if (v.archived_only || v.any_status) {
    // No time bounds: archived claims (or every claim) are searched by text alone.
  } else if (v.known_as_of) {
    q.Bind(5, *v.known_as_of).Bind(6, v.as_of.value_or(*v.known_as_of));
  } else if (v.as_of) {
    q.Bind(6, *v.as_of);
  } else if (!v.include_history) {
    q.Bind(7, now);
  }
  if (v.valid_until) {
    q.Bind(8, *v.valid_until);
  } else {
    q.BindNull(8);
  }
  if (v.valid_since) {
    q.Bind(9, *v.valid_since);
  } else {
    q.BindNull(9);
  }
  return BestHits(q, limit);
}

Result<std::optional<std::pair<int64_t, int64_t>>> ClaimStore::NamespaceSeqRange(int64_t namespace_id) {
  auto st = db_.Cached(
      "SELECT (SELECT min(seq) FROM claims WHERE namespace_id = ?1), "
      "(SELECT max(seq) FROM claims WHERE namespace_id = ?1)");
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

Result<bool> ClaimStore::HasNonCurrentClaims(std::string_view namespace_name, TimestampMs now) {
  // The version is read before the claims: a commit in between makes the memo look older than
  // what it holds, and the next call reads again (never the other way round).
  int64_t version = -1;
  if (auto v = db_.Cached("PRAGMA data_version"); v) {
    auto row = (*v)->Step();
    if (row && *row) version = (*v)->Int(0);
    (*v)->Reset();
  }
  const int64_t changes = sqlite3_total_changes64(db_.handle());
  if (version < 0 || non_current_memo_.data_version != version || non_current_memo_.total_changes != changes) {
    non_current_memo_ = NonCurrentMemo();
    non_current_memo_.data_version = version;
    non_current_memo_.total_changes = changes;
  }
  // The memo holds what does not depend on `now` (a status that no longer stands, the earliest
  // expires_at); whether that expiry has passed is decided per call.
  auto answer = [now](const NonCurrentMemo::Entry& e) {
    return e.by_status || (e.first_expiry && *e.first_expiry <= now);
  };
  if (version >= 0) {
    auto found = non_current_memo_.by_namespace.find(namespace_name);
    if (found != non_current_memo_.by_namespace.end()) return answer(found->second);
  }
  auto st = db_.Cached(
      "SELECT EXISTS (SELECT 1 FROM claims c JOIN namespaces n ON n.id = c.namespace_id "
      "WHERE n.name = ?1 AND c.status NOT IN ('active','disputed','archived')), "
      "(SELECT min(c.expires_at) FROM claims c JOIN namespaces n ON n.id = c.namespace_id "
      "WHERE n.name = ?1 AND c.expires_at IS NOT NULL)");
  if (!st) return Error(st.error());
  (*st)->Bind(1, namespace_name);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  NonCurrentMemo::Entry entry;
  if (*row) {
    entry.by_status = (*st)->Int(0) != 0;
    if (!(*st)->IsNull(1)) entry.first_expiry = (*st)->Int(1);
  }
  (*st)->Reset();
  if (version >= 0) non_current_memo_.by_namespace.emplace(std::string(namespace_name), entry);
  return answer(entry);
}

Result<std::vector<std::string>> ClaimStore::TextsBySeqs(const std::vector<int64_t>& seqs) {
  std::vector<std::string> out(seqs.size());
  if (seqs.empty()) return out;
  std::map<int64_t, std::vector<size_t>> positions;
  for (size_t i = 0; i < seqs.size(); ++i) positions[seqs[i]].push_back(i);
  auto st = db_.Cached("SELECT c.seq, c.text FROM json_each(?) j JOIN claims c ON c.seq = j.value");
  if (!st) return Error(st.error());
  (*st)->Bind(1, JsonIntArray(seqs));
  size_t found = 0;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    auto it = positions.find((*st)->Int(0));
    if (it == positions.end()) continue;
    for (size_t i : it->second) {
      out[i] = (*st)->Text(1);
      ++found;
    }
    positions.erase(it);  // a repeated seq in the list gives one row per repetition
  }
  if (found != seqs.size()) return Error(Status::NotFound("a claim of the list does not exist"));
  return out;
}

Result<bool> ClaimStore::IsStaleEvidence(int64_t event_seq, TimestampMs now) {
  // A claim past its expires_at no longer stands even before the maintenance pass marks it
  // expired (as in Search), so the pass does not change what recall shows.
  auto st = db_.Cached(
      "SELECT count(*), coalesce(max(c.status IN ('active','disputed','archived') "
      "AND (c.expires_at IS NULL OR c.expires_at > ?2)), 0) "
      "FROM claim_evidence ce "
      "JOIN claims c ON c.seq = ce.claim_seq WHERE ce.event_seq = ?1 AND ce.relation = 'supports'");
  if (!st) return Error(st.error());
  (*st)->Bind(1, event_seq).Bind(2, now);
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  bool stale = *row && (*st)->Int(0) > 0 && (*st)->Int(1) == 0;
  (*st)->Reset();
  return stale;
}

Result<std::vector<int64_t>> ClaimStore::SupersededClaimsReadFrom(int64_t event_seq) {
  auto st = db_.Cached(
      "SELECT c.seq FROM claim_evidence ce JOIN claims c ON c.seq = ce.claim_seq "
      "WHERE ce.event_seq = ?1 AND ce.relation = 'supports' AND c.status = 'superseded' ORDER BY c.seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, event_seq);
  return (*st)->Ints();
}

Result<std::vector<std::string>> ClaimStore::ConflictKeysReadFrom(std::string_view event_id) {
  auto facts = StandingFactsReadFrom(event_id);
  if (!facts) return Error(facts.error());
  std::vector<std::string> keys;
  for (StandingFact& f : *facts) {
    if (!f.conflict_key.empty()) keys.push_back(std::move(f.conflict_key));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

Result<std::vector<ClaimStore::StandingFact>> ClaimStore::StandingFactsReadFrom(std::string_view event_id) {
  auto st = db_.Cached(
      "SELECT c.seq, c.id, c.subject, c.predicate, c.slot, COALESCE(c.conflict_key, '') FROM events e "
      "JOIN claim_evidence ce ON ce.event_seq = e.seq AND ce.relation = 'supports' "
      "JOIN claims c ON c.seq = ce.claim_seq "
      "WHERE e.id = ?1 AND c.status IN ('active','disputed') ORDER BY c.seq");
  if (!st) return Error(st.error());
  (*st)->Bind(1, event_id);
  std::vector<StandingFact> facts;
  while (true) {
    auto row = (*st)->Step();
    if (!row) {
      (*st)->Reset();
      return Error(row.error());
    }
    if (!*row) break;
    facts.push_back({(*st)->Int(0), (*st)->Text(1), (*st)->Text(2), (*st)->Text(3), (*st)->Text(4), (*st)->Text(5)});
  }
  (*st)->Reset();
  return facts;
}

}  // namespace engram::sqlite
