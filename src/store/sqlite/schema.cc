#include "store/sqlite/schema.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace engram::sqlite {
namespace {

// Migration 1: namespaces, sessions, events and the full-text index over events.
// Times are INTEGER milliseconds since the epoch, UTC. `seq` is the event's rowid and its rowid in
// event_fts. Events are immutable: a trigger refuses UPDATE.
constexpr const char* kMigration1 = R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE namespaces (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
  id                INTEGER PRIMARY KEY,
  namespace_id      INTEGER NOT NULL REFERENCES namespaces(id),
  external_id       TEXT NOT NULL,
  parent_id         INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  kind              TEXT NOT NULL CHECK (kind IN ('interactive','cron','heartbeat','subagent')),
  source            TEXT,
  title             TEXT,
  created_at        INTEGER NOT NULL,
  started_at        INTEGER,            -- min(occurred_at) of its events
  last_active_at    INTEGER,            -- max(occurred_at) of its events
  event_count       INTEGER NOT NULL DEFAULT 0,
  UNIQUE (namespace_id, external_id)
) STRICT;
CREATE INDEX sessions_parent ON sessions(parent_id);
CREATE INDEX sessions_namespace_active ON sessions(namespace_id, last_active_at);

CREATE TABLE events (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  namespace_id    INTEGER NOT NULL REFERENCES namespaces(id),
  session_id      INTEGER NOT NULL REFERENCES sessions(id),
  role            TEXT NOT NULL CHECK (role IN ('user','assistant','tool','system')),
  speaker         TEXT,
  content         TEXT NOT NULL,
  occurred_at     INTEGER NOT NULL,
  recorded_at     INTEGER NOT NULL,
  origin_class    TEXT NOT NULL
                  CHECK (origin_class IN ('direct_user','agent','external','system','unknown')),
  content_hash    TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  metadata        TEXT CHECK (metadata IS NULL OR json_valid(metadata)),
  tool_name       TEXT,
  tool_call_id    TEXT,
  UNIQUE (namespace_id, idempotency_key)
) STRICT;
CREATE INDEX events_session_time ON events(session_id, occurred_at, seq);
CREATE INDEX events_namespace_time ON events(namespace_id, occurred_at);

CREATE TRIGGER events_immutable BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are immutable');
END;
)sql";

// The FTS table's tokenizer argument depends on the analysis chosen at creation.
std::string FtsDdl(TextAnalysis analysis) {
  return fmt::format(
      "CREATE VIRTUAL TABLE event_fts USING fts5(body, tokenize='engram {}');",
      analysis == TextAnalysis::kPlain ? "plain" : "full");
}

const char* AnalysisName(TextAnalysis a) { return a == TextAnalysis::kPlain ? "plain" : "full"; }

}  // namespace

Result<TextAnalysis> StoredTextAnalysis(Database& db) {
  auto v = db.QueryText("SELECT value FROM meta WHERE key = 'text_analysis'");
  if (!v) return Error(Status::Corruption("meta.text_analysis is missing"));
  if (*v == "full") return TextAnalysis::kFull;
  if (*v == "plain") return TextAnalysis::kPlain;
  return Error(Status::Corruption(fmt::format("unknown text analysis \"{}\"", *v)));
}

Status Migrate(Database& db, TextAnalysis analysis) {
  // The common case — already current — takes no write lock, so opening never waits for a writer.
  auto current = db.QueryInt("PRAGMA user_version");
  if (!current) return current.error();
  if (*current == kSchemaVersion) return Status::Ok();
  return db.WriteTransaction([&]() -> Status {
    auto version = db.QueryInt("PRAGMA user_version");
    if (!version) return version.error();
    if (*version > kSchemaVersion) {
      return Status::Corruption(fmt::format(
          "database schema version {} is newer than this engram supports ({}); upgrade engram",
          *version, kSchemaVersion));
    }
    if (*version == 0) {
      // A fresh file must be empty: refuse to take over somebody else's database.
      auto tables = db.QueryInt("SELECT count(*) FROM sqlite_schema");
      if (!tables) return tables.error();
      if (*tables != 0) {
        return Status::Corruption(
            "the file is an SQLite database but not an engram database (it has other tables)");
      }
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration1));
      ENGRAM_RETURN_IF_ERROR(db.Exec(FtsDdl(analysis)));
      ENGRAM_RETURN_IF_ERROR(db.Exec(fmt::format(
          "INSERT INTO meta(key, value) VALUES ('text_analysis', '{}'), ('created_by', 'engram {}')",
          AnalysisName(analysis), "0.1.0")));
      ENGRAM_RETURN_IF_ERROR(db.Exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion)));
    }
    // Later migrations go here: `if (*version < 2) { ... PRAGMA user_version = 2; }`.
    return Status::Ok();
  });
}

}  // namespace engram::sqlite
