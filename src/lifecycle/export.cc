#include "lifecycle/export.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace engram::lifecycle {
namespace {

// Each query returns one column: the JSON text of one line. `?1` is the namespace id, or NULL for
// every namespace. json_object keeps NULL as null and REAL as %!.15g, so re-exporting an imported
// value prints the same text.
constexpr const char* kNamespaces =
    "SELECT json_object('kind','namespace','name',name,'created_at',iso_time(created_at)) FROM namespaces "
    "WHERE ?1 IS NULL OR id = ?1 ORDER BY id";
constexpr const char* kSessions =
    "SELECT json_object('kind','session','namespace',n.name,'id',s.external_id,"
    "'parent',(SELECT p.external_id FROM sessions p WHERE p.id = "
    "s.parent_id),'session_kind',s.kind,"
    "'source',s.source,'title',s.title,'created_at',iso_time(s.created_at),'started_at',iso_time(s.started_at),"
    "'last_active_at',iso_time(s.last_active_at),'event_count',s.event_count) "
    "FROM sessions s JOIN namespaces n ON n.id = s.namespace_id WHERE ?1 IS NULL OR s.namespace_id "
    "= ?1 "
    "ORDER BY s.id";
constexpr const char* kTombstones =
    "SELECT "
    "json_object('kind','tombstone','id',t.id,'namespace',n.name,'object_type',t.object_type,"
    "'object_id',t.object_id,'content_hash',t.content_hash,'idempotency_hash',t.idempotency_hash,"
    "'fact_hash',t.fact_hash,'reason',t.reason,'selector',t.selector,'operation_id',t.operation_id,"
    "'actor',t.actor,'created_at',iso_time(t.created_at)) "
    "FROM tombstones t JOIN namespaces n ON n.id = t.namespace_id WHERE ?1 IS NULL OR "
    "t.namespace_id = ?1 "
    "ORDER BY t.id";
constexpr const char* kEvents =
    "SELECT "
    "json_object('kind','event','id',e.id,'namespace',n.name,'session',s.external_id,'role',e.role,"
    "'speaker',e.speaker,'content',e.content,'occurred_at',iso_time(e.occurred_at),'recorded_at',iso_time(e.recorded_at),"
    "'origin_class',e.origin_class,'content_hash',e.content_hash,'idempotency_key',e.idempotency_"
    "key,"
    "'metadata',e.metadata,'tool_name',e.tool_name,'tool_call_id',e.tool_call_id,'utc_offset_minutes',e.utc_offset_minutes) "
    "FROM events e JOIN namespaces n ON n.id = e.namespace_id JOIN sessions s ON s.id = "
    "e.session_id "
    "WHERE ?1 IS NULL OR e.namespace_id = ?1 ORDER BY e.seq";
constexpr const char* kClaims =
    "SELECT json_object('kind','claim','id',c.id,'namespace',n.name,'subject',c.subject,"
    "'predicate',c.predicate,'slot',c.slot,'value',c.value,'text',c.text,'qualifiers',c.qualifiers,"
    "'negated',c.negated,'valid_from',iso_time(c.valid_from),'valid_to',iso_time(c.valid_to),'recorded_from',iso_time(c.recorded_from),"
    "'recorded_to',iso_time(c.recorded_to),'status',c.status,'scope',c.scope,'authority',c.authority,"
    "'assertion',c.assertion,'confidence',c.confidence,'importance',c.importance,'activation',c."
    "activation,"
    "'access_count',c.access_count,'last_accessed_at',iso_time(c.last_accessed_at),"
    "'decay_below_since',iso_time(c.decay_below_since),'supersedes_id',c.supersedes_id,'superseded_by_id',c.superseded_"
    "by_id,"
    "'topic_key',c.topic_key,'conflict_key',c.conflict_key,'polarity_key',c.polarity_key,"
    "'fact_hash',c.fact_hash,'time_phrase',c.time_phrase,'extractor',c.extractor,"
    "'evidence',json((SELECT json_group_array(json_object('event',x.event_id,'relation',x.relation,"
    "'created_at',iso_time(x.created_at))) FROM (SELECT e.id AS event_id, ce.relation, ce.created_at "
    "FROM claim_evidence ce JOIN events e ON e.seq = ce.event_seq WHERE ce.claim_seq = c.seq "
    "ORDER BY e.seq, ce.relation) x))) "
    "FROM claims c JOIN namespaces n ON n.id = c.namespace_id WHERE ?1 IS NULL OR c.namespace_id = "
    "?1 "
    "ORDER BY c.seq";

}  // namespace

Result<DumpCounts> ExportDump(sqlite::Database& db, std::string_view namespace_name,
                              std::ostream& out) {
  DumpCounts counts;
  Status st = db.ReadTransaction([&]() -> Status {
    counts = DumpCounts{};
    std::optional<int64_t> ns;
    if (!namespace_name.empty()) {
      auto q = sqlite::Statement::Prepare(db.handle(), "SELECT id FROM namespaces WHERE name = ?");
      if (!q) return q.error();
      q->Bind(1, namespace_name);
      auto row = q->Step();
      if (!row) return row.error();
      if (!*row)
        return Status::NotFound(fmt::format("namespace \"{}\" does not exist", namespace_name));
      ns = q->Int(0);
    }
    struct Part {
      const char* name;
      const char* sql;
      int64_t* count;
    };
    const Part parts[] = {{"namespace", kNamespaces, &counts.namespaces},
                          {"session", kSessions, &counts.sessions},
                          {"tombstone", kTombstones, &counts.tombstones},
                          {"event", kEvents, &counts.events},
                          {"claim", kClaims, &counts.claims}};
    for (const auto& [name, sql, count] : parts) {
      auto q = sqlite::Statement::Prepare(db.handle(), sql);
      if (!q) return q.error();
      if (ns) {
        q->Bind(1, *ns);
      } else {
        q->BindNull(1);
      }
      while (true) {
        auto row = q->Step();
        if (!row) return row.error();
        if (!*row) break;
        // Re-serialised with sorted keys so that the line does not depend on SQLite's key order.
        try {
          nlohmann::json line = nlohmann::json::parse(q->Text(0));
          out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict) << '\n';
        } catch (const std::exception& e) {
          // Every stored text was valid UTF-8 when it was written (Engine::ValidateEvent), so a row
          // that no longer reads as JSON is damaged data.
          return Status::Corruption(fmt::format("export: {} {} of the dump does not read back (damaged data; "
                                                "`engram doctor` shows what is damaged): {}",
                                                name, *count + 1, e.what()));
        }
        ++*count;
      }
    }
    out.flush();
    if (!out) return Status::IOError("export: writing the output failed");
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return counts;
}

}  // namespace engram::lifecycle
