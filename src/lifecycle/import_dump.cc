#include "lifecycle/import_dump.h"

#include <fmt/format.h>

#include <cstdint>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "util/time.h"
#include "write/claim_writer.h"
#include "write/event_validation.h"

namespace engram::lifecycle {
namespace {

using nlohmann::json;

// One parsed line: its number (1-based) and object.
struct Line {
  size_t number = 0;
  json obj;
};

Status FieldError(std::string_view field, std::string_view what) {
  return Status::InvalidArgument(fmt::format("field \"{}\": {}", field, what));
}

// Checks that `field` has the JSON type the kind needs: "s" string, "s?" string or null, "i"
// integer, "i?" integer or null, "n" number, "a" array.
// Checks that each field is present with its JSON type: "s" string, "i" integer (int64), "n"
// number, "a" array, "t" a time (integer ms since the epoch, years 1–9999); a trailing "?" allows
// null or absence.
Status CheckFields(const json& o,
                   std::initializer_list<std::pair<const char*, const char*>> fields) {
  for (const auto& [name, type] : fields) {
    const std::string t = type;
    const bool nullable = t.size() == 2;
    auto it = o.find(name);
    if (it == o.end() || it->is_null()) {
      if (nullable) continue;
      return FieldError(name, "is required");
    }
    // nlohmann keeps integers above INT64_MAX as unsigned: they are not int64 values.
    const bool int64 = it->is_number_integer() &&
                       !(it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX));
    bool ok = true;
    std::string expected;
    switch (t[0]) {
      case 's':
        ok = it->is_string();
        expected = "a string";
        break;
      case 'i':
        ok = int64;
        expected = "an integer";
        break;
      case 'n':
        ok = it->is_number();
        expected = "a number";
        break;
      case 'a':
        ok = it->is_array();
        expected = "an array";
        break;
      case 't':
        ok = int64;
        expected = "an ISO-8601 time or an integer of ms since the epoch, UTC";
        if (ok && (it->get<int64_t>() < kMinTimestampMs || it->get<int64_t>() > kMaxTimestampMs)) {
          return FieldError(name, fmt::format("{} is outside the years 1–9999 (ms since the epoch, UTC)",
                                              it->get<int64_t>()));
        }
        break;
    }
    if (!ok) {
      return FieldError(name, fmt::format("has the wrong type (expected {}{})", expected, nullable ? " or null" : ""));
    }
  }
  return Status::Ok();
}

std::string S(const json& o, const char* f) {
  auto it = o.find(f);
  return it == o.end() || it->is_null() ? std::string() : it->get<std::string>();
}

// Binds a JSON scalar: null → NULL, integer, real, string.
void BindJson(sqlite::Statement& s, int index, const json& o, const char* f) {
  auto it = o.find(f);
  if (it == o.end() || it->is_null()) {
    s.BindNull(index);
  } else if (it->is_number_integer()) {
    s.Bind(index, it->get<int64_t>());
  } else if (it->is_number()) {
    s.Bind(index, it->get<double>());
  } else if (it->is_boolean()) {
    s.Bind(index, static_cast<int64_t>(it->get<bool>()));
  } else {
    s.Bind(index, std::string_view(it->get_ref<const std::string&>()));
  }
}

constexpr const char* kClaimColumns[] = {"id",
                                         "subject",
                                         "predicate",
                                         "slot",
                                         "value",
                                         "text",
                                         "qualifiers",
                                         "negated",
                                         "valid_from",
                                         "valid_to",
                                         "recorded_from",
                                         "recorded_to",
                                         "status",
                                         "scope",
                                         "authority",
                                         "assertion",
                                         "confidence",
                                         "importance",
                                         "activation",
                                         "access_count",
                                         "last_accessed_at",
                                         "decay_below_since",
                                         "supersedes_id",
                                         "superseded_by_id",
                                         "topic_key",
                                         "conflict_key",
                                         "polarity_key",
                                         "fact_hash",
                                         "time_phrase",
                                         "extractor"};

// Validates one line by kind; for an event also builds the row to store (through the one event
// validation) and checks the content hash.
// Times are exported as ISO-8601 strings ("2023-05-08T13:56:00.000Z"); dumps written before that
// carry integers of ms since the epoch. Both read: a string time is replaced by its ms here, so
// the checks and inserts below see one form. Errors: kInvalidArgument naming the field.
Status TimesToMs(json& o) {
  static constexpr const char* kTimeFields[] = {"created_at",    "started_at",  "last_active_at",   "occurred_at",
                                                "recorded_at",   "valid_from",  "valid_to",         "recorded_from",
                                                "recorded_to",   "last_accessed_at", "decay_below_since"};
  if (!o.is_object()) return Status::Ok();
  for (const char* field : kTimeFields) {
    auto it = o.find(field);
    if (it == o.end() || !it->is_string()) continue;
    auto ms = ParseTimestamp(it->get<std::string>());
    if (!ms) return ms.error().WithContext(fmt::format("field \"{}\"", field));
    *it = *ms;
  }
  auto evidence = o.find("evidence");
  if (evidence != o.end() && evidence->is_array()) {
    for (json& ev : *evidence) ENGRAM_RETURN_IF_ERROR(TimesToMs(ev).WithContext("evidence"));
  }
  return Status::Ok();
}

Status ValidateLine(const json& o, sqlite::EventRow* event_row) {
  if (!o.is_object()) return Status::InvalidArgument("not a JSON object");
  auto kind = o.find("kind");
  if (kind == o.end() || !kind->is_string()) return FieldError("kind", "is required");
  const std::string k = *kind;
  if (k == "namespace") {
    ENGRAM_RETURN_IF_ERROR(CheckFields(o, {{"name", "s"}, {"created_at", "i"}}));
    return ValidateNameField("name", S(o, "name"), true);
  }
  if (k == "session") {
    ENGRAM_RETURN_IF_ERROR(CheckFields(o, {{"namespace", "s"},
                                           {"id", "s"},
                                           {"parent", "s?"},
                                           {"session_kind", "s"},
                                           {"source", "s?"},
                                           {"title", "s?"},
                                           {"created_at", "i"}}));
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("namespace", S(o, "namespace"), true));
    return ValidateNameField("id", S(o, "id"), true);
  }
  if (k == "tombstone") {
    ENGRAM_RETURN_IF_ERROR(CheckFields(o, {{"id", "s"},
                                           {"namespace", "s"},
                                           {"object_type", "s"},
                                           {"object_id", "s"},
                                           {"content_hash", "s?"},
                                           {"idempotency_hash", "s?"},
                                           {"fact_hash", "s?"},
                                           {"reason", "s"},
                                           {"selector", "s"},
                                           {"operation_id", "s"},
                                           {"actor", "s"},
                                           {"created_at", "i"}}));
    const std::string type = S(o, "object_type");
    if (type != "event" && type != "claim" && type != "episode" && type != "rule") {
      return FieldError("object_type",
                        fmt::format("unknown value \"{}\" (expected one of: event, claim, episode, rule)", type));
    }
    return ValidateNameField("namespace", S(o, "namespace"), true);
  }
  if (k == "event") {
    ENGRAM_RETURN_IF_ERROR(CheckFields(o, {{"id", "s"},
                                           {"namespace", "s"},
                                           {"session", "s"},
                                           {"role", "s"},
                                           {"speaker", "s?"},
                                           {"content", "s"},
                                           {"occurred_at", "t"},
                                           {"recorded_at", "t"},
                                           {"origin_class", "s"},
                                           {"content_hash", "s"},
                                           {"idempotency_key", "s"},
                                           {"metadata", "s?"},
                                           {"tool_name", "s?"},
                                           {"tool_call_id", "s?"},
                                           // Absent in dumps written before session 6: UTC.
                                           {"utc_offset_minutes", "i?"}}));
    EventInput in;
    in.namespace_name = S(o, "namespace");
    in.session_id = S(o, "session");
    in.role = S(o, "role");
    in.content = S(o, "content");
    in.occurred_at = FormatTimestamp(o["occurred_at"].get<int64_t>());
    in.speaker = S(o, "speaker");
    in.idempotency_key = S(o, "idempotency_key");
    in.metadata_json = S(o, "metadata");
    in.origin_class = S(o, "origin_class");
    in.tool_name = S(o, "tool_name");
    in.tool_call_id = S(o, "tool_call_id");
    auto row = ValidateEventInput(in, o["recorded_at"].get<int64_t>());
    if (!row) return row.error();
    if (row->event.content_hash != S(o, "content_hash")) {
      return FieldError("content_hash", "does not match the content");
    }
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", S(o, "id"), true));
    row->event.id = S(o, "id");
    row->event.occurred_at = o["occurred_at"].get<int64_t>();
    row->event.recorded_at = o["recorded_at"].get<int64_t>();
    if (auto offset = o.find("utc_offset_minutes"); offset != o.end() && !offset->is_null()) {
      const int64_t minutes = offset->get<int64_t>();
      if (minutes < kMinUtcOffsetMinutes || minutes > kMaxUtcOffsetMinutes) {
        return FieldError("utc_offset_minutes", fmt::format("{} is outside −720…840", minutes));
      }
      row->event.utc_offset_minutes = static_cast<int>(minutes);
    }
    *event_row = std::move(*row);
    return Status::Ok();
  }
  if (k == "claim") {
    ENGRAM_RETURN_IF_ERROR(CheckFields(o, {{"id", "s"},
                                           {"namespace", "s"},
                                           {"subject", "s"},
                                           {"predicate", "s"},
                                           {"slot", "s"},
                                           {"value", "s"},
                                           {"text", "s"},
                                           {"qualifiers", "s"},
                                           {"negated", "i"},
                                           {"valid_from", "t"},
                                           {"valid_to", "t?"},
                                           {"recorded_from", "t"},
                                           {"recorded_to", "t?"},
                                           {"status", "s"},
                                           {"scope", "s"},
                                           {"authority", "s"},
                                           {"assertion", "s"},
                                           {"confidence", "n"},
                                           {"importance", "n"},
                                           {"activation", "n"},
                                           {"access_count", "i"},
                                           // Absent in dumps written before session 6: NULL.
                                           {"last_accessed_at", "t?"},
                                           {"decay_below_since", "t?"},
                                           {"supersedes_id", "s?"},
                                           {"superseded_by_id", "s?"},
                                           {"topic_key", "s"},
                                           {"conflict_key", "s?"},
                                           {"polarity_key", "s"},
                                           {"fact_hash", "s"},
                                           {"time_phrase", "s?"},
                                           {"extractor", "s"},
                                           {"evidence", "a"}}));
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", S(o, "id"), true));
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("namespace", S(o, "namespace"), true));
    const std::string status = S(o, "status");
    static const std::set<std::string> kStatuses = {"active",   "superseded", "disputed",
                                                    "archived", "retracted",  "expired"};
    if (!kStatuses.contains(status)) {
      return FieldError("status",
                        fmt::format("unknown value \"{}\" (expected one of: active, superseded, "
                                    "disputed, archived, retracted, expired)",
                                    status));
    }
    for (const json& ev : o["evidence"]) {
      if (!ev.is_object()) return FieldError("evidence", "every item must be an object");
      ENGRAM_RETURN_IF_ERROR(
          CheckFields(ev, {{"event", "s"}, {"relation", "s"}, {"created_at", "t"}})
              .WithContext("evidence"));
      const std::string rel = S(ev, "relation");
      if (rel != "supports" && rel != "contradicts" && rel != "supersedes") {
        return FieldError(
            "evidence.relation",
            fmt::format("unknown value \"{}\" (expected one of: supports, contradicts, supersedes)",
                        rel));
      }
    }
    return Status::Ok();
  }
  return FieldError(
      "kind", fmt::format("unknown value \"{}\" (expected one of: namespace, session, tombstone, "
                          "event, claim)",
                          k));
}

Result<std::optional<int64_t>> QueryOptInt(sqlite::Database& db, const std::string& sql,
                                           std::initializer_list<std::string_view> args) {
  auto q = db.Cached(sql);
  if (!q) return Error(q.error());
  int i = 1;
  for (std::string_view a : args) (*q)->Bind(i++, a);
  auto row = (*q)->Step();
  if (!row) return Error(row.error());
  std::optional<int64_t> out;
  if (*row) out = (*q)->Int(0);
  (*q)->Reset();
  return out;
}

}  // namespace

Result<ImportReport> ImportDump(sqlite::Database& db, sqlite::EventStore& events,
                                sqlite::TombstoneStore& tombstones, std::istream& in) {
  // 1. Parse and validate everything before writing anything.
  std::vector<Line> lines;
  std::map<size_t, sqlite::EventRow> event_rows;  // by line number
  std::string text;
  size_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    Line line;
    line.number = number;
    try {
      line.obj = json::parse(text);
    } catch (const std::exception& e) {
      return Error(
          Status::InvalidArgument(fmt::format("line {}: not valid JSON: {}", number, e.what())));
    }
    sqlite::EventRow row;
    Status st = TimesToMs(line.obj);
    if (st.ok()) st = ValidateLine(line.obj, &row);
    if (!st.ok()) return Error(st.WithContext(fmt::format("line {}", number)));
    if (line.obj["kind"] == "event") event_rows.emplace(number, std::move(row));
    lines.push_back(std::move(line));
  }
  if (in.bad()) return Error(Status::IOError("import: reading the input failed"));

  // 2. One transaction; the order of kinds makes every reference resolvable.
  ImportReport report;
  Status st = db.WriteTransaction([&]() -> Status {
    report = ImportReport{};
    const TimestampMs now = NowMs();
    auto ensure_ns = [&](const json& o, const char* field) {
      return events.EnsureNamespace(S(o, field), now);
    };
    for (const char* kind : {"namespace", "session", "tombstone", "event", "claim"}) {
      const std::string k = kind;
      for (const Line& line : lines) {
        const json& o = line.obj;
        if (o["kind"] != k) continue;
        Status s = [&]() -> Status {
          if (k == "namespace") {
            auto q = db.Cached(
                "INSERT INTO namespaces(name, created_at) VALUES (?, ?) ON CONFLICT(name) DO "
                "NOTHING");
            if (!q) return q.error();
            (*q)->Bind(1, S(o, "name")).Bind(2, o["created_at"].get<int64_t>());
            ENGRAM_RETURN_IF_ERROR((*q)->Run());
            report.imported.namespaces += sqlite3_changes(db.handle());
            return Status::Ok();
          }
          if (k == "session") {
            auto ns = ensure_ns(o, "namespace");
            if (!ns) return ns.error();
            auto q = db.Cached(
                "INSERT INTO sessions(namespace_id, external_id, kind, source, title, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(namespace_id, external_id) DO NOTHING");
            if (!q) return q.error();
            (*q)->Bind(1, *ns).Bind(2, S(o, "id")).Bind(3, S(o, "session_kind"));
            BindJson(**q, 4, o, "source");
            BindJson(**q, 5, o, "title");
            (*q)->Bind(6, o["created_at"].get<int64_t>());
            ENGRAM_RETURN_IF_ERROR((*q)->Run());
            report.imported.sessions += sqlite3_changes(db.handle());
            if (!S(o, "parent").empty()) {
              // The parent's row may come later in the file: it is created as a placeholder now and
              // keeps its own line's metadata only if that line inserts first (first write wins).
              auto p = db.Cached(
                  "INSERT INTO sessions(namespace_id, external_id, kind, created_at) VALUES (?, ?, "
                  "'interactive', ?) "
                  "ON CONFLICT(namespace_id, external_id) DO NOTHING");
              if (!p) return p.error();
              (*p)->Bind(1, *ns).Bind(2, S(o, "parent")).Bind(3, o["created_at"].get<int64_t>());
              ENGRAM_RETURN_IF_ERROR((*p)->Run());
              auto u = db.Cached(
                  "UPDATE sessions SET parent_id = (SELECT id FROM sessions WHERE namespace_id = "
                  "?1 AND "
                  "external_id = ?2) WHERE namespace_id = ?1 AND external_id = ?3 AND parent_id IS "
                  "NULL");
              if (!u) return u.error();
              (*u)->Bind(1, *ns).Bind(2, S(o, "parent")).Bind(3, S(o, "id"));
              ENGRAM_RETURN_IF_ERROR((*u)->Run());
            }
            return Status::Ok();
          }
          if (k == "tombstone") {
            auto ns = ensure_ns(o, "namespace");
            if (!ns) return ns.error();
            auto q = db.Cached(
                "INSERT INTO tombstones(id, namespace_id, object_type, object_id, content_hash, "
                "idempotency_hash, "
                "fact_hash, reason, selector, operation_id, actor, created_at) VALUES "
                "(?,?,?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT(id) DO NOTHING");
            if (!q) return q.error();
            (*q)->Bind(1, S(o, "id")).Bind(2, *ns);
            int i = 3;
            for (const char* f :
                 {"object_type", "object_id", "content_hash", "idempotency_hash", "fact_hash",
                  "reason", "selector", "operation_id", "actor", "created_at"}) {
              BindJson(**q, i++, o, f);
            }
            ENGRAM_RETURN_IF_ERROR((*q)->Run());
            report.imported.tombstones += sqlite3_changes(db.handle());
            return Status::Ok();
          }
          if (k == "event") {
            const sqlite::EventRow& row = event_rows.at(line.number);
            auto ns = ensure_ns(o, "namespace");
            if (!ns) return ns.error();
            auto by_id = tombstones.Find(row.event.id);
            if (!by_id) return by_id.error();
            auto tomb =
                tombstones.FindForEvent(*ns, row.event.content_hash, row.event.idempotency_key);
            if (!tomb) return tomb.error();
            if (by_id->has_value() || tomb->has_value()) {
              ++report.skipped_forgotten;
              return Status::Ok();
            }
            auto same_id = QueryOptInt(db, "SELECT seq FROM events WHERE id = ?", {row.event.id});
            if (!same_id) return same_id.error();
            auto same_key = events.FindByIdempotencyKey(*ns, row.event.idempotency_key);
            if (!same_key) return same_key.error();
            if (same_id->has_value() || same_key->has_value()) {
              ++report.skipped_existing;
              return Status::Ok();
            }
            auto session = events.EnsureSession(*ns, row, now);
            if (!session) return session.error();
            auto seq = events.Insert(*ns, *session, row);
            if (!seq) return seq.error();
            ++report.imported.events;
            return Status::Ok();
          }
          // claim
          auto ns = ensure_ns(o, "namespace");
          if (!ns) return ns.error();
          auto by_id = tombstones.Find(S(o, "id"));
          if (!by_id) return by_id.error();
          auto tomb = tombstones.FindForFact(*ns, S(o, "fact_hash"));
          if (!tomb) return tomb.error();
          if (by_id->has_value() || tomb->has_value()) {
            ++report.skipped_forgotten;
            return Status::Ok();
          }
          auto same_id = QueryOptInt(db, "SELECT seq FROM claims WHERE id = ?", {S(o, "id")});
          if (!same_id) return same_id.error();
          if (same_id->has_value()) {
            ++report.skipped_existing;
            return Status::Ok();
          }
          // Evidence whose event is not stored (skipped as forgotten) is dropped; a claim left
          // without support is not imported (the forget cascade's rule).
          std::vector<std::pair<int64_t, const json*>> evidence;
          bool supported = false;
          for (const json& ev : o["evidence"]) {
            auto seq = QueryOptInt(db, "SELECT seq FROM events WHERE id = ?", {S(ev, "event")});
            if (!seq) return seq.error();
            if (!seq->has_value()) continue;
            // Evidence never crosses namespaces: a forget in one namespace must not be able to
            // reach a claim of another through a shared event.
            auto event_ns = QueryOptInt(db, "SELECT namespace_id FROM events WHERE seq = ?",
                                        {std::to_string(**seq)});
            if (!event_ns) return event_ns.error();
            if (!event_ns->has_value() || **event_ns != *ns) {
              return FieldError("evidence",
                                fmt::format("event \"{}\" belongs to another namespace", S(ev, "event")));
            }
            if (S(ev, "relation") == "supports") supported = true;
            evidence.emplace_back(**seq, &ev);
          }
          if (!supported && !o["evidence"].empty()) {
            ++report.skipped_forgotten;
            return Status::Ok();
          }
          std::string cols = "namespace_id", params = "?";
          for (const char* c : kClaimColumns) {
            cols += std::string(", ") + c;
            params += ", ?";
          }
          auto q = db.Cached(fmt::format("INSERT INTO claims({}) VALUES ({})", cols, params));
          if (!q) return q.error();
          (*q)->Bind(1, *ns);
          int i = 2;
          for (const char* c : kClaimColumns) BindJson(**q, i++, o, c);
          ENGRAM_RETURN_IF_ERROR((*q)->Run());
          const int64_t claim_seq = sqlite3_last_insert_rowid(db.handle());
          auto fts = db.Cached("INSERT INTO claim_fts(rowid, body) VALUES (?, ?)");
          if (!fts) return fts.error();
          const std::string words = ClaimSearchWords(S(o, "predicate"), S(o, "slot"));
          (*fts)->Bind(1, claim_seq).Bind(2, words.empty() ? S(o, "text") : S(o, "text") + "\n" + words);
          ENGRAM_RETURN_IF_ERROR((*fts)->Run());
          for (const auto& [event_seq, ev] : evidence) {
            auto e = db.Cached(
                "INSERT INTO claim_evidence(claim_seq, event_seq, relation, created_at) VALUES (?, "
                "?, ?, ?)");
            if (!e) return e.error();
            (*e)->Bind(1, claim_seq).Bind(2, event_seq).Bind(3, S(*ev, "relation"));
            (*e)->Bind(4, (*ev)["created_at"].get<int64_t>());
            ENGRAM_RETURN_IF_ERROR((*e)->Run());
          }
          ++report.imported.claims;
          return Status::Ok();
        }();
        if (!s.ok()) return s.WithContext(fmt::format("line {}", line.number));
      }
    }
    // Supersede links to a claim that was not imported (forgotten) are dropped, as forget does.
    return db.Exec(
        "UPDATE claims SET supersedes_id = NULL WHERE supersedes_id IS NOT NULL AND supersedes_id "
        "NOT IN "
        "(SELECT id FROM claims); UPDATE claims SET superseded_by_id = NULL WHERE superseded_by_id "
        "IS NOT NULL "
        "AND superseded_by_id NOT IN (SELECT id FROM claims);");
  });
  if (!st.ok()) return Error(st);
  return report;
}

}  // namespace engram::lifecycle
