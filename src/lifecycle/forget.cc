#include "lifecycle/forget.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "store/sqlite/event_store.h"
#include "util/hash.h"
#include "util/time.h"
#include "util/ulid.h"
#include "util/utf8.h"

namespace engram::lifecycle {
namespace {

using sqlite::Statement;

// The working sets of one forget: seqs and why each one is in. Temp tables live in the
// connection's temp database, so they never reach the main file.
constexpr const char* kSetup =
    "CREATE TEMP TABLE IF NOT EXISTS forget_events(seq INTEGER PRIMARY KEY, why TEXT NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS forget_claims(seq INTEGER PRIMARY KEY, why TEXT NOT NULL);"
    "CREATE TEMP TABLE IF NOT EXISTS forget_sessions(id INTEGER PRIMARY KEY);"
    "CREATE TEMP TABLE IF NOT EXISTS forget_episodes(seq INTEGER PRIMARY KEY);"
    "CREATE TEMP TABLE IF NOT EXISTS forget_goals(seq INTEGER PRIMARY KEY);"
    "DELETE FROM temp.forget_events; DELETE FROM temp.forget_claims; DELETE FROM temp.forget_sessions;"
    "DELETE FROM temp.forget_episodes; DELETE FROM temp.forget_goals;";

// Rule 2: events that support a forgotten claim and no surviving one.
constexpr const char* kPrivateEvidence =
    "INSERT OR IGNORE INTO temp.forget_events(seq, why) "
    "SELECT DISTINCT ce.event_seq, 'private_evidence' FROM claim_evidence ce "
    "WHERE ce.relation = 'supports' AND ce.claim_seq IN (SELECT seq FROM temp.forget_claims) "
    "AND NOT EXISTS (SELECT 1 FROM claim_evidence o WHERE o.event_seq = ce.event_seq "
    "AND o.relation = 'supports' AND o.claim_seq NOT IN (SELECT seq FROM temp.forget_claims))";

// Rule 1: claims whose every supporting event is forgotten.
constexpr const char* kNoEvidenceLeft =
    "INSERT OR IGNORE INTO temp.forget_claims(seq, why) "
    "SELECT DISTINCT ce.claim_seq, 'no_evidence_left' FROM claim_evidence ce "
    "WHERE ce.relation = 'supports' AND ce.event_seq IN (SELECT seq FROM temp.forget_events) "
    "AND NOT EXISTS (SELECT 1 FROM claim_evidence o WHERE o.claim_seq = ce.claim_seq "
    "AND o.relation = 'supports' AND o.event_seq NOT IN (SELECT seq FROM temp.forget_events))";

// Runs a cached statement with optional int/text bindings; returns the rows it changed.
Result<int64_t> Run(sqlite::Database& db, const std::string& sql) {
  auto st = db.Cached(sql);
  if (!st) return Error(st.error());
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return static_cast<int64_t>(sqlite3_changes(db.handle()));
}

Status Done(const Result<int64_t>& r) { return r ? Status::Ok() : r.error(); }

struct Selected {
  int64_t seq = 0;
  std::string id;
  int64_t namespace_id = 0;
  std::string hash;             // events: content hash; claims: fact hash
  std::string idempotency_key;  // events
  std::string why;
  std::string text;
  std::string curated_target;  // events recording a curated entry: "memory" or "user"
  bool is_event = false;       // else a claim
};

const char* ObjectType(const Selected& o) { return o.is_event ? "event" : "claim"; }

Result<std::vector<Selected>> LoadSet(sqlite::Database& db, bool events) {
  const std::string sql =
      events ? "SELECT e.seq, e.id, e.namespace_id, e.content_hash, e.idempotency_key, f.why, e.content, "
               "coalesce(json_extract(e.metadata, '$.curated.target'), '') "
               "FROM temp.forget_events f JOIN events e ON e.seq = f.seq ORDER BY e.id"
             : "SELECT c.seq, c.id, c.namespace_id, c.fact_hash, '', f.why, c.text, '' "
               "FROM temp.forget_claims f JOIN claims c ON c.seq = f.seq ORDER BY c.id";
  auto st = db.Cached(sql);
  if (!st) return Error(st.error());
  std::vector<Selected> out;
  while (true) {
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) break;
    const Statement& q = **st;
    out.push_back({q.Int(0), q.Text(1), q.Int(2), q.Text(3), q.Text(4), q.Text(5), q.Text(6), q.Text(7), events});
  }
  return out;
}

// Looks `id` up among events, then claims; inserts it into the matching working set. Returns
// false when it is neither.
Result<bool> SelectId(sqlite::Database& db, std::string_view id, std::optional<int64_t> ns) {
  for (const char* table : {"events", "claims"}) {
    auto st = db.Cached(fmt::format("SELECT seq, namespace_id FROM {} WHERE id = ?", table));
    if (!st) return Error(st.error());
    (*st)->Bind(1, id);
    auto row = (*st)->Step();
    if (!row) return Error(row.error());
    if (!*row) continue;
    const int64_t seq = (*st)->Int(0);
    const int64_t owner_ns = (*st)->Int(1);
    (*st)->Reset();
    if (ns && owner_ns != *ns) return false;
    auto ins = db.Cached(fmt::format("INSERT OR IGNORE INTO temp.forget_{}(seq, why) VALUES (?, 'selected')", table));
    if (!ins) return Error(ins.error());
    (*ins)->Bind(1, seq);
    ENGRAM_RETURN_IF_ERROR((*ins)->Run());
    return true;
  }
  return false;
}

Result<int64_t> SelectBySql(sqlite::Database& db, const std::string& sql, int64_t ns,
                            std::optional<int64_t> int_arg, std::string_view text_arg) {
  auto st = db.Cached(sql);
  if (!st) return Error(st.error());
  (*st)->Bind(1, ns);
  if (int_arg) (*st)->Bind(2, *int_arg);
  if (!text_arg.empty()) (*st)->Bind(2, text_arg);
  ENGRAM_RETURN_IF_ERROR((*st)->Run());
  return static_cast<int64_t>(sqlite3_changes(db.handle()));
}

std::string SelectorJson(const ForgetRequest& r) {
  nlohmann::ordered_json j;
  if (!r.ids.empty()) {
    j["kind"] = "id";
  } else if (r.all) {
    j["kind"] = "all";
  } else if (!r.session_id.empty()) {
    j["kind"] = "session";
    j["session"] = r.session_id;
  } else if (!r.subject.empty()) {
    j["kind"] = "subject";
    j["subject_hash"] = ContentHash(r.subject);  // a subject may be a name: no text
  } else if (r.before) {
    j["kind"] = "before";
    j["before"] = FormatTimestamp(*r.before);
  } else {
    j["kind"] = "query";
    j["query_hash"] = ContentHash(r.query);  // the query may be the very content being forgotten
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Json(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

namespace {

// The namespace `name` names, or none when it is empty. Errors: kNotFound for an unknown one.
Result<std::optional<int64_t>> ResolveNamespace(sqlite::Database& db, const std::string& name) {
  if (name.empty()) return std::optional<int64_t>();
  auto id = sqlite::EventStore(db).FindNamespace(name);
  if (id && !id->has_value()) return Error(Status::NotFound(fmt::format("namespace \"{}\" does not exist", name)));
  return id;
}

// Selects the events and claims named by `ids` (each once); an id forgotten before (in `ns`, when
// given) goes to report->already_forgotten. Errors: kNotFound for an id neither stored nor forgotten.
Status SelectIds(ForgetStores& s, const std::vector<std::string>& ids, std::optional<int64_t> ns,
                 const std::string& namespace_name, ForgetReport* report) {
  std::set<std::string> seen;
  for (const std::string& id : ids) {
    if (!seen.insert(id).second) continue;
    auto found = SelectId(s.db, id, ns);
    if (!found) return found.error();
    if (*found) continue;
    auto tomb = s.tombstones.Find(id);
    if (!tomb) return tomb.error();
    if (tomb->has_value() && (!ns || (*tomb)->namespace_name == namespace_name)) {
      report->already_forgotten.push_back(id);
      continue;
    }
    return Status::NotFound(ns ? fmt::format("no event or claim with id \"{}\" in namespace \"{}\"", id, namespace_name)
                               : fmt::format("no event or claim with id \"{}\"", id));
  }
  return Status::Ok();
}

// Selects the events of the request's session, and marks the session to be recounted. Errors:
// kNotFound for an unknown session.
Status SelectSession(sqlite::Database& db, int64_t ns, const ForgetRequest& request) {
  auto st = db.Cached("SELECT id FROM sessions WHERE namespace_id = ? AND external_id = ?");
  if (!st) return st.error();
  (*st)->Bind(1, ns).Bind(2, request.session_id);
  auto row = (*st)->Step();
  if (!row) return row.error();
  if (!*row) {
    return Status::NotFound(
        fmt::format("no session \"{}\" in namespace \"{}\"", request.session_id, request.namespace_name));
  }
  const int64_t session = (*st)->Int(0);
  (*st)->Reset();
  ENGRAM_RETURN_IF_ERROR(Done(SelectBySql(db,
                                          "INSERT INTO temp.forget_events(seq, why) SELECT seq, 'selected' FROM events "
                                          "WHERE namespace_id = ?1 AND session_id = ?2",
                                          ns, session, "")));
  auto mark = db.Cached("INSERT OR IGNORE INTO temp.forget_sessions(id) VALUES (?)");
  if (!mark) return mark.error();
  (*mark)->Bind(1, session);
  return (*mark)->Run();
}

// Step 1: the objects the request selects, into the working sets (why: 'selected'). Every selector
// but ids and query comes with its namespace (Engine::Forget validated the request).
Status SelectObjects(ForgetStores& s, const ForgetRequest& request, const std::vector<std::string>& query_ids,
                     std::optional<int64_t> ns, ForgetReport* report) {
  sqlite::Database& db = s.db;
  if (!request.ids.empty() || !request.query.empty()) {
    return SelectIds(s, request.ids.empty() ? query_ids : request.ids, ns, request.namespace_name, report);
  }
  if (request.all) {
    ENGRAM_RETURN_IF_ERROR(Done(SelectBySql(
        db, "INSERT INTO temp.forget_events(seq, why) SELECT seq, 'selected' FROM events WHERE namespace_id = ?1", *ns,
        std::nullopt, "")));
    return Done(SelectBySql(
        db, "INSERT INTO temp.forget_claims(seq, why) SELECT seq, 'selected' FROM claims WHERE namespace_id = ?1", *ns,
        std::nullopt, ""));
  }
  if (!request.session_id.empty()) return SelectSession(db, *ns, request);
  if (!request.subject.empty()) {
    return Done(SelectBySql(db,
                            "INSERT INTO temp.forget_claims(seq, why) SELECT seq, 'selected' FROM claims "
                            "WHERE namespace_id = ?1 AND subject = ?2",
                            *ns, std::nullopt, request.subject));
  }
  if (request.before) {
    return Done(SelectBySql(db,
                            "INSERT INTO temp.forget_events(seq, why) SELECT seq, 'selected' FROM events "
                            "WHERE namespace_id = ?1 AND occurred_at < ?2",
                            *ns, *request.before, ""));
  }
  return Status::Ok();
}

// Step 2: the closure — both rules (forget.h) until neither adds anything.
Status CloseUnderEvidenceRules(sqlite::Database& db) {
  for (int round = 0; round < 1000; ++round) {
    auto a = Run(db, kPrivateEvidence);
    if (!a) return a.error();
    auto b = Run(db, kNoEvidenceLeft);
    if (!b) return b.error();
    if (*a == 0 && *b == 0) break;
  }
  return Status::Ok();
}

// Step 3: what goes — events first, then claims, each by id — counted and listed in `report` (with
// its text, cut to 120 characters, in a preview).
Result<std::vector<Selected>> LoadForgotten(sqlite::Database& db, ForgetReport* report) {
  auto forgotten = LoadSet(db, true);
  if (!forgotten) return forgotten;
  auto claims = LoadSet(db, false);
  if (!claims) return claims;
  report->events = static_cast<int64_t>(forgotten->size());
  report->claims = static_cast<int64_t>(claims->size());
  forgotten->insert(forgotten->end(), std::make_move_iterator(claims->begin()), std::make_move_iterator(claims->end()));
  for (const Selected& o : *forgotten) {
    ForgetItem item{ObjectType(o), o.id, o.why, ""};
    if (report->preview) item.text = TruncateCodePoints(o.text, 120);
    report->items.push_back(std::move(item));
  }
  return forgotten;
}

// Step 4: one tombstone per object (an event's content and idempotency hashes, a claim's fact hash),
// under report->operation_id. Written first: if the ledger cannot be written, nothing is deleted.
Status WriteTombstones(ForgetStores& s, const ForgetRequest& request, const std::vector<Selected>& forgotten,
                       const std::string& selector, TimestampMs now, ForgetReport* report) {
  for (const Selected& o : forgotten) {
    Tombstone t;
    t.id = NewUlid(now);
    t.object_type = ObjectType(o);
    t.object_id = o.id;
    if (o.is_event) {
      t.content_hash = o.hash;
      t.idempotency_hash = ContentHash(o.idempotency_key);
    } else {
      t.fact_hash = o.hash;
    }
    t.reason = request.reason;
    t.selector_json = selector;
    t.operation_id = report->operation_id;
    t.actor = request.actor;
    t.created_at = now;
    ENGRAM_RETURN_IF_ERROR(s.tombstones.Insert(o.namespace_id, t));
    report->tombstone_ids.push_back(t.id);
  }
  return Status::Ok();
}

// Step 5: the audit trail — the forgotten claims' history without content (B22), the operation
// (once per namespace it touched), and one row per forgotten object with its tombstone.
Status WriteAuditRows(ForgetStores& s, const ForgetRequest& request, const std::vector<Selected>& forgotten,
                      const std::string& selector, TimestampMs now, const ForgetReport& report) {
  ENGRAM_RETURN_IF_ERROR(Done(Run(
      s.db,
      "INSERT INTO audit_log(at, actor, action, object_type, object_id, namespace_id, reason, detail) "
      "SELECT h.at, h.actor, h.action, 'claim', c.id, c.namespace_id, h.reason, "
      "json_object('before_status', json_extract(h.before, '$.status'), "
      "'after_status', json_extract(h.after, '$.status'), 'source', 'claim_history') "
      "FROM claim_history h JOIN claims c ON c.seq = h.claim_seq "
      "WHERE h.claim_seq IN (SELECT seq FROM temp.forget_claims) ORDER BY h.seq")));
  std::set<int64_t> namespaces;
  for (const Selected& o : forgotten) namespaces.insert(o.namespace_id);
  nlohmann::ordered_json detail;
  detail["selector"] = nlohmann::ordered_json::parse(selector);
  detail["events"] = report.events;
  detail["claims"] = report.claims;
  const AuditEntry operation{.at = now, .actor = request.actor, .action = "forget", .object_type = "operation",
                             .object_id = report.operation_id, .reason = request.reason, .detail_json = Json(detail)};
  for (int64_t n : namespaces) ENGRAM_RETURN_IF_ERROR(s.audit.Append(operation, n));
  for (size_t i = 0; i < forgotten.size(); ++i) {
    const Selected& o = forgotten[i];
    const AuditEntry e{.at = now, .actor = request.actor, .action = "forget", .object_type = ObjectType(o),
                       .object_id = o.id, .reason = request.reason,
                       .detail_json = Json({{"tombstone", report.tombstone_ids[i]},
                                            {"operation", report.operation_id},
                                            {"why", o.why}})};
    ENGRAM_RETURN_IF_ERROR(s.audit.Append(e, o.namespace_id));
  }
  return Status::Ok();
}

// A statement of the deletions and the report counter its changed rows add to (null: none).
struct Deletion {
  const char* sql;
  int64_t* counter;
};

Status RunDeletions(sqlite::Database& db, std::initializer_list<Deletion> deletions) {
  for (const Deletion& d : deletions) {
    auto n = Run(db, d.sql);
    if (!n) return n.error();
    if (d.counter != nullptr) *d.counter += *n;
  }
  return Status::Ok();
}

// Step 6: what hangs off the forgotten events and claims (feedback, vectors, decision records,
// history, evidence links, extraction jobs), and the claims with their full-text rows; children
// before parents (foreign keys are on).
Status DeleteClaimsAndLinks(sqlite::Database& db, ForgetReport* report) {
  return RunDeletions(
      db,
      {
          {"DELETE FROM feedback WHERE owner_type = 'event' AND owner_seq IN (SELECT seq FROM temp.forget_events)",
           &report->feedback},
          {"DELETE FROM feedback WHERE owner_type = 'claim' AND owner_seq IN (SELECT seq FROM temp.forget_claims)",
           &report->feedback},
          {"DELETE FROM vectors WHERE owner_type = 'event' AND owner_seq IN (SELECT seq FROM temp.forget_events)",
           &report->vectors},
          {"DELETE FROM vectors WHERE owner_type = 'claim' AND owner_seq IN (SELECT seq FROM temp.forget_claims)",
           &report->vectors},
          {"DELETE FROM claim_decisions WHERE claim_seq IN (SELECT seq FROM temp.forget_claims)", nullptr},
          {"DELETE FROM claim_decisions WHERE event_seq IN (SELECT seq FROM temp.forget_events)", nullptr},
          {"DELETE FROM claim_history WHERE claim_seq IN (SELECT seq FROM temp.forget_claims)", nullptr},
          {"DELETE FROM claim_evidence WHERE claim_seq IN (SELECT seq FROM temp.forget_claims)", nullptr},
          {"DELETE FROM claim_evidence WHERE event_seq IN (SELECT seq FROM temp.forget_events)", nullptr},
          {"DELETE FROM claim_fts WHERE rowid IN (SELECT seq FROM temp.forget_claims)", nullptr},
          {"DELETE FROM claims WHERE seq IN (SELECT seq FROM temp.forget_claims)", nullptr},
          {"DELETE FROM jobs WHERE event_seq IN (SELECT seq FROM temp.forget_events)", &report->jobs},
      });
}

// Step 7, the experience cascade: what episodes copied from the forgotten events, while those rows
// still exist. Episode steps that copied a forgotten event (docs/experience.md): their text goes, the
// tool (a name, not content) and the step's place stay, and the episode's full-text row is rebuilt.
// A detected episode's goal is a copy of a user turn of its session (experience/
// episode_segmenter.h: the first one of its segment, cut to kMaxEpisodeTextChars with "…"): when
// that turn is forgotten, the goal goes too (the episode, its steps and outcome stay).
Status ClearExperienceCopies(sqlite::Database& db) {
  return RunDeletions(
      db,
      {
          {"INSERT OR IGNORE INTO temp.forget_episodes(seq) SELECT DISTINCT episode_seq FROM episode_steps WHERE "
           "evidence_event_id IN (SELECT id FROM events WHERE seq IN (SELECT seq FROM temp.forget_events))",
           nullptr},
          {"UPDATE episode_steps SET action = '', reason = '', result = '', evidence_event_id = '' WHERE "
           "evidence_event_id IN (SELECT id FROM events WHERE seq IN (SELECT seq FROM temp.forget_events))",
           nullptr},
          {"INSERT OR IGNORE INTO temp.forget_goals(seq) SELECT ep.seq FROM events e "
           "JOIN sessions s ON s.id = e.session_id "
           "JOIN episodes ep ON ep.namespace_id = e.namespace_id AND ep.session_id = s.external_id "
           "WHERE e.seq IN (SELECT seq FROM temp.forget_events) AND e.role = 'user' AND ep.origin = 'detected' "
           "AND ep.goal != '' AND (ep.goal = e.content OR (substr(ep.goal, -1) = '…' AND "
           "substr(e.content, 1, length(ep.goal) - 1) = substr(ep.goal, 1, length(ep.goal) - 1)))",
           nullptr},
          {"UPDATE episodes SET goal = '' WHERE seq IN (SELECT seq FROM temp.forget_goals)", nullptr},
          {"UPDATE episode_fts SET goal = '' WHERE rowid IN (SELECT seq FROM temp.forget_goals)", nullptr},
          {"UPDATE episode_fts SET steps = coalesce((SELECT group_concat(trim(s.tool_name || ' ' || s.action || ' ' || "
           "s.reason || ' ' || s.result), char(10)) FROM (SELECT * FROM episode_steps WHERE episode_seq = "
           "episode_fts.rowid ORDER BY ordinal) s), '') WHERE rowid IN (SELECT seq FROM temp.forget_episodes)",
           nullptr},
      });
}

// Step 8: the events with their full-text rows; then the sessions that lost events (all of the
// namespace's for `all`) are recounted, and those left empty, with no job, deleted.
Status DeleteEventsAndSessions(sqlite::Database& db, const ForgetRequest& request, std::optional<int64_t> ns,
                               ForgetReport* report) {
  ENGRAM_RETURN_IF_ERROR(Done(Run(db,
                                  "INSERT OR IGNORE INTO temp.forget_sessions(id) SELECT DISTINCT session_id "
                                  "FROM events WHERE seq IN (SELECT seq FROM temp.forget_events)")));
  if (request.all) {
    ENGRAM_RETURN_IF_ERROR(Done(SelectBySql(
        db, "INSERT OR IGNORE INTO temp.forget_sessions(id) SELECT id FROM sessions WHERE namespace_id = ?1", *ns,
        std::nullopt, "")));
  }
  return RunDeletions(
      db,
      {
          {"DELETE FROM event_fts WHERE rowid IN (SELECT seq FROM temp.forget_events)", nullptr},
          {"DELETE FROM events WHERE seq IN (SELECT seq FROM temp.forget_events)", nullptr},
          {"UPDATE sessions SET event_count = (SELECT count(*) FROM events e WHERE e.session_id = sessions.id), "
           "started_at = (SELECT min(occurred_at) FROM events e WHERE e.session_id = sessions.id), "
           "last_active_at = (SELECT max(occurred_at) FROM events e WHERE e.session_id = sessions.id) "
           "WHERE id IN (SELECT id FROM temp.forget_sessions)",
           nullptr},
          {"DELETE FROM sessions WHERE id IN (SELECT id FROM temp.forget_sessions) AND event_count = 0 "
           "AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.session_id = sessions.id)",
           &report->sessions},
      });
}

// The cascade of events and claims (forget.h): select, close, then — unless a preview — tombstones,
// audit rows and the deletions, in that order.
Result<ForgetReport> ForgetEventsAndClaims(ForgetStores& s, const ForgetRequest& request,
                                           const std::vector<std::string>& query_ids, TimestampMs now,
                                           std::vector<CuratedEntryRef>* curated) {
  ENGRAM_RETURN_IF_ERROR(s.db.Exec(kSetup));
  ForgetReport report;
  report.preview = request.preview || (!request.query.empty() && !request.confirm);
  auto ns = ResolveNamespace(s.db, request.namespace_name);
  if (!ns) return Error(ns.error());
  ENGRAM_RETURN_IF_ERROR(SelectObjects(s, request, query_ids, *ns, &report));
  ENGRAM_RETURN_IF_ERROR(CloseUnderEvidenceRules(s.db));
  auto forgotten = LoadForgotten(s.db, &report);
  if (!forgotten) return Error(forgotten.error());
  if (report.preview || forgotten->empty()) return report;
  if (curated != nullptr) {
    for (const Selected& o : *forgotten) {
      if (!o.curated_target.empty()) curated->push_back({o.curated_target, o.text});
    }
  }
  report.operation_id = NewUlid(now);
  const std::string selector = SelectorJson(request);
  ENGRAM_RETURN_IF_ERROR(WriteTombstones(s, request, *forgotten, selector, now, &report));
  ENGRAM_RETURN_IF_ERROR(WriteAuditRows(s, request, *forgotten, selector, now, report));
  ENGRAM_RETURN_IF_ERROR(DeleteClaimsAndLinks(s.db, &report));
  ENGRAM_RETURN_IF_ERROR(ClearExperienceCopies(s.db));
  ENGRAM_RETURN_IF_ERROR(DeleteEventsAndSessions(s.db, request, *ns, &report));
  return report;
}

}  // namespace

Result<Tombstone> UnforgetInTransaction(ForgetStores& s, std::string_view id, std::string_view actor,
                                        std::string_view reason, TimestampMs now) {
  auto found = s.tombstones.Find(id);
  if (!found) return Error(found.error());
  if (!found->has_value()) return Error(Status::NotFound(fmt::format("no tombstone with id \"{}\"", id)));
  const Tombstone t = **found;
  auto deleted = s.tombstones.Delete(t.id);
  if (!deleted) return Error(deleted.error());
  auto ns = s.db.Cached("SELECT id FROM namespaces WHERE name = ?");
  if (!ns) return Error(ns.error());
  (*ns)->Bind(1, t.namespace_name);
  auto row = (*ns)->Step();
  if (!row) return Error(row.error());
  std::optional<int64_t> namespace_id;
  if (*row) namespace_id = (*ns)->Int(0);
  (*ns)->Reset();
  const std::string detail = Json({{"tombstone", t.id}, {"operation", t.operation_id}});
  for (const auto& [type, object] : {std::pair{std::string("tombstone"), t.id}, std::pair{t.object_type, t.object_id}}) {
    AuditEntry e;
    e.at = now;
    e.actor = std::string(actor);
    e.action = "unforget";
    e.object_type = type;
    e.object_id = object;
    e.reason = std::string(reason);
    e.detail_json = detail;
    ENGRAM_RETURN_IF_ERROR(s.audit.Append(e, namespace_id));
  }
  return t;
}

namespace {

// An episode or rule a forget request names by id (experience memory, docs/experience.md), with
// its namespace.
struct ExperienceById {
  ForgottenExperience object;
  int64_t namespace_id = 0;
};

// The ids of `ids` that are episodes or rules of namespace `ns` ("" = any).
Result<std::vector<ExperienceById>> ExperienceIds(sqlite::Database& db, const std::vector<std::string>& ids,
                                                  const std::string& ns) {
  std::vector<ExperienceById> out;
  for (const std::string& id : ids) {
    for (const char* type : {"episode", "rule"}) {
      auto st = db.Cached(fmt::format("SELECT x.seq, x.namespace_id FROM {}s x JOIN namespaces n ON n.id = x.namespace_id "
                                      "WHERE x.id = ?1 AND (?2 = '' OR n.name = ?2)",
                                      type));
      if (!st) return Error(st.error());
      (*st)->Bind(1, id).Bind(2, ns);
      auto row = (*st)->Step();
      if (!row) return Error(row.error());
      if (*row) out.push_back({{type, (*st)->Int(0), id}, (*st)->Int(1)});
      (*st)->Reset();
    }
  }
  return out;
}

// Forgets the episodes and rules named by id, one operation per namespace (or lists them, for a
// preview), and adds them to `report`.
Result<ForgetReport> AddExperience(ForgetStores& s, const ForgetRequest& request,
                                   const std::vector<ExperienceById>& named, TimestampMs now, ForgetReport report) {
  std::map<int64_t, std::vector<ForgottenExperience>> by_namespace;
  for (const ExperienceById& e : named) {
    if (report.preview) report.items.push_back({e.object.object_type, e.object.id, "selected", ""});
    by_namespace[e.namespace_id].push_back(e.object);
  }
  if (report.preview) return report;
  for (const auto& [namespace_id, objects] : by_namespace) {
    auto done = ForgetExperienceInTransaction(s, namespace_id, objects, request.reason, request.actor, now, "id");
    if (!done) return done;
    if (report.operation_id.empty()) report.operation_id = done->operation_id;
    report.items.insert(report.items.end(), done->items.begin(), done->items.end());
    report.tombstone_ids.insert(report.tombstone_ids.end(), done->tombstone_ids.begin(), done->tombstone_ids.end());
  }
  return report;
}

}  // namespace

// Episodes and rules named by id go through the experience cascade (their rows, one tombstone
// each); every other selector, and the other ids, through the cascade of events and claims.
Result<ForgetReport> ForgetInTransaction(ForgetStores& s, const ForgetRequest& request,
                                         const std::vector<std::string>& query_ids, TimestampMs now,
                                         std::vector<CuratedEntryRef>* curated) {
  auto named = ExperienceIds(s.db, request.ids, request.namespace_name);
  if (!named) return Error(named.error());
  if (named->empty()) return ForgetEventsAndClaims(s, request, query_ids, now, curated);
  ForgetRequest rest = request;
  std::erase_if(rest.ids, [&](const std::string& id) {
    return std::any_of(named->begin(), named->end(), [&](const ExperienceById& e) { return e.object.id == id; });
  });
  ForgetReport report;
  report.preview = request.preview;
  if (!rest.ids.empty()) {  // never empty ids into the other cascade: no ids there means another selector
    auto events = ForgetEventsAndClaims(s, rest, query_ids, now, curated);
    if (!events) return events;
    report = std::move(*events);
  }
  return AddExperience(s, request, *named, now, std::move(report));
}

namespace {

// Runs `sql` with ?1 bound to `arg` (a seq or an id).
template <typename T>
Status RunBound(sqlite::Database& db, const char* sql, T arg) {
  auto st = db.Cached(sql);
  if (!st) return st.error();
  (*st)->Bind(1, arg);
  return (*st)->Run();
}

// The rows of one forgotten episode or rule, children before parents (foreign keys are on).
Status DeleteExperience(sqlite::Database& db, const ForgottenExperience& o) {
  ENGRAM_RETURN_IF_ERROR(RunBound(db, "DELETE FROM experience_access WHERE object_id = ?1", std::string_view(o.id)));
  if (o.object_type == "rule") {
    for (const char* sql : {"DELETE FROM rule_support WHERE rule_seq = ?1", "DELETE FROM rule_history WHERE rule_seq = ?1",
                            "DELETE FROM rules WHERE seq = ?1"}) {
      ENGRAM_RETURN_IF_ERROR(RunBound(db, sql, o.seq));
    }
    return Status::Ok();
  }
  for (const char* sql : {"DELETE FROM rule_support WHERE episode_seq = ?1", "DELETE FROM episode_steps WHERE episode_seq = ?1",
                          "DELETE FROM episode_fts WHERE rowid = ?1", "DELETE FROM episodes WHERE seq = ?1"}) {
    ENGRAM_RETURN_IF_ERROR(RunBound(db, sql, o.seq));
  }
  return Status::Ok();
}

}  // namespace

Result<ForgetReport> ForgetExperienceInTransaction(ForgetStores& s, int64_t namespace_id,
                                                   const std::vector<ForgottenExperience>& objects,
                                                   std::string_view reason, std::string_view actor, TimestampMs now,
                                                   std::string_view why) {
  ForgetReport report;
  if (objects.empty()) return report;
  report.operation_id = NewUlid(now);
  const std::string selector = Json({{"kind", why}});
  // 1. Tombstones first: if the ledger cannot be written, nothing is deleted.
  for (const ForgottenExperience& o : objects) {
    Tombstone t;
    t.id = NewUlid(now);
    t.object_type = o.object_type;
    t.object_id = o.id;
    // No hash: content_hash is what ingest checks new events against, and an event may say what a
    // forgotten episode's goal said. The tombstone proves the forget by id, type and operation.
    t.reason = std::string(reason);
    t.selector_json = selector;
    t.operation_id = report.operation_id;
    t.actor = std::string(actor);
    t.created_at = now;
    ENGRAM_RETURN_IF_ERROR(s.tombstones.Insert(namespace_id, t));
    report.tombstone_ids.push_back(t.id);
    report.items.push_back({o.object_type, o.id, std::string(why), ""});
  }
  // 2. The audit trail: the operation, then one row per object (ids only).
  AuditEntry op{.at = now, .actor = std::string(actor), .action = "forget", .object_type = "operation",
                .object_id = report.operation_id, .reason = std::string(reason),
                .detail_json = Json({{"selector", nlohmann::ordered_json::parse(selector)},
                                     {"experience", static_cast<int64_t>(objects.size())}})};
  ENGRAM_RETURN_IF_ERROR(s.audit.Append(op, namespace_id));
  for (size_t i = 0; i < objects.size(); ++i) {
    AuditEntry e{.at = now, .actor = std::string(actor), .action = "forget", .object_type = objects[i].object_type,
                 .object_id = objects[i].id, .reason = std::string(reason),
                 .detail_json = Json({{"tombstone", report.tombstone_ids[i]},
                                      {"operation", report.operation_id},
                                      {"why", why}})};
    ENGRAM_RETURN_IF_ERROR(s.audit.Append(e, namespace_id));
  }
  // 3. The deletions.
  for (const ForgottenExperience& o : objects) ENGRAM_RETURN_IF_ERROR(DeleteExperience(s.db, o));
  return report;
}

}  // namespace engram::lifecycle
