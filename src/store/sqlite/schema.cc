#include "store/sqlite/schema.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "store/sqlite/vector_store.h"
#include "text/protected_atoms.h"

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

// Migration 2: claims with evidence, their history and the decisions that made them, the durable
// job queue, and a full-text index over claim text.
constexpr const char* kMigration2 = R"sql(
CREATE TABLE claims (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  namespace_id     INTEGER NOT NULL REFERENCES namespaces(id),
  subject          TEXT NOT NULL,
  predicate        TEXT NOT NULL,
  slot             TEXT NOT NULL DEFAULT '',
  value            TEXT NOT NULL,
  text             TEXT NOT NULL,
  qualifiers       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(qualifiers)),
  negated          INTEGER NOT NULL DEFAULT 0,
  valid_from       INTEGER NOT NULL,
  valid_to         INTEGER,
  recorded_from    INTEGER NOT NULL,
  recorded_to      INTEGER,
  status           TEXT NOT NULL CHECK (status IN
                     ('active','superseded','disputed','archived','retracted','expired')),
  scope            TEXT NOT NULL,
  authority        TEXT NOT NULL CHECK (authority IN ('high','medium','low')),
  assertion        TEXT NOT NULL CHECK (assertion IN ('fact','observation')),
  confidence       REAL NOT NULL,
  importance       REAL NOT NULL,
  activation       REAL NOT NULL DEFAULT 1.0,
  access_count     INTEGER NOT NULL DEFAULT 0,
  supersedes_id    TEXT,
  superseded_by_id TEXT,
  topic_key        TEXT NOT NULL,  -- norm(subject)|predicate|slot
  conflict_key     TEXT,           -- topic_key when the predicate is single-valued
  polarity_key     TEXT NOT NULL,  -- topic_key|norm(value): a negation flip shares it
  fact_hash        TEXT NOT NULL,
  time_phrase      TEXT,
  extractor        TEXT NOT NULL
) STRICT;
CREATE INDEX claims_namespace_status ON claims(namespace_id, status);
CREATE INDEX claims_polarity ON claims(namespace_id, polarity_key);
CREATE INDEX claims_topic ON claims(namespace_id, topic_key);
-- At most one current claim per fact (B13: concurrent identical writes make one claim) and per
-- single-valued slot (two current answers to "where do I live" cannot exist).
CREATE UNIQUE INDEX claims_one_current_fact ON claims(namespace_id, fact_hash)
  WHERE status IN ('active','disputed');
CREATE UNIQUE INDEX claims_one_current_value ON claims(namespace_id, conflict_key)
  WHERE status = 'active' AND conflict_key IS NOT NULL;

CREATE TABLE claim_evidence (
  claim_seq  INTEGER NOT NULL REFERENCES claims(seq) ON DELETE CASCADE,
  event_seq  INTEGER NOT NULL REFERENCES events(seq),
  relation   TEXT NOT NULL CHECK (relation IN ('supports','contradicts','supersedes')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (claim_seq, event_seq, relation)
) STRICT, WITHOUT ROWID;
CREATE INDEX claim_evidence_event ON claim_evidence(event_seq);

CREATE TABLE claim_history (
  seq        INTEGER PRIMARY KEY,
  claim_seq  INTEGER NOT NULL REFERENCES claims(seq) ON DELETE CASCADE,
  at         INTEGER NOT NULL,
  actor      TEXT NOT NULL,
  action     TEXT NOT NULL,
  reason     TEXT NOT NULL DEFAULT '',
  before     TEXT NOT NULL DEFAULT '{}',
  after      TEXT NOT NULL DEFAULT '{}'
) STRICT;
CREATE INDEX claim_history_claim ON claim_history(claim_seq, seq);

CREATE TABLE claim_decisions (
  seq          INTEGER PRIMARY KEY,
  namespace_id INTEGER NOT NULL REFERENCES namespaces(id),
  event_seq    INTEGER REFERENCES events(seq),
  claim_seq    INTEGER REFERENCES claims(seq) ON DELETE SET NULL,
  at           INTEGER NOT NULL,
  decision     TEXT NOT NULL,
  reason       TEXT NOT NULL,
  detail       TEXT NOT NULL DEFAULT '',
  candidate    TEXT NOT NULL DEFAULT '{}'
) STRICT;
CREATE INDEX claim_decisions_claim ON claim_decisions(claim_seq);

CREATE TABLE jobs (
  id               INTEGER PRIMARY KEY,
  kind             TEXT NOT NULL CHECK (kind IN ('extract')),
  namespace_id     INTEGER NOT NULL REFERENCES namespaces(id),
  session_id       INTEGER NOT NULL REFERENCES sessions(id),
  event_seq        INTEGER NOT NULL REFERENCES events(seq),
  status           TEXT NOT NULL CHECK (status IN ('pending','leased','done','failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  lease_token      TEXT,
  lease_expires_at INTEGER,
  available_at     INTEGER NOT NULL,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
) STRICT;
CREATE INDEX jobs_ready ON jobs(status, available_at);
CREATE INDEX jobs_session ON jobs(session_id, status);
)sql";

// Migration 3: recall feedback (the utility prior; `engram feedback`). The vectors table comes
// from VectorStore::kVectorSchemaSql in the same migration.
constexpr const char* kMigration3 = R"sql(
CREATE TABLE feedback (
  id           INTEGER PRIMARY KEY,
  namespace_id INTEGER NOT NULL REFERENCES namespaces(id),
  owner_type   TEXT NOT NULL CHECK (owner_type IN ('event','claim')),
  owner_seq    INTEGER NOT NULL,
  query_hash   TEXT NOT NULL,
  helpful      INTEGER NOT NULL CHECK (helpful IN (0, 1)),
  created_at   INTEGER NOT NULL,
  UNIQUE (owner_type, owner_seq, query_hash)
) STRICT;
CREATE INDEX feedback_owner ON feedback(owner_type, owner_seq);
)sql";

// Migration 4: the tombstone ledger and the audit log (docs/forget.md). Neither ever holds
// content: a tombstone keeps the forgotten object's id and identity hashes (an event's content
// hash and the hash of its idempotency key; a claim's fact hash), so that re-ingesting the same
// content can be recognised and refused; the audit log keeps who did what to which id, when and
// why, with details that are ids, counts and statuses only.
constexpr const char* kMigration4 = R"sql(
CREATE TABLE tombstones (
  id               TEXT PRIMARY KEY,           -- ULID
  namespace_id     INTEGER NOT NULL REFERENCES namespaces(id),
  object_type      TEXT NOT NULL CHECK (object_type IN ('event','claim')),
  object_id        TEXT NOT NULL,              -- the forgotten event or claim id
  content_hash     TEXT,                       -- events: XXH3-128 of the content
  idempotency_hash TEXT,                       -- events: XXH3-128 of the idempotency key
  fact_hash        TEXT,                       -- claims: the claim's fact hash
  reason           TEXT NOT NULL DEFAULT '',
  selector         TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(selector)),
  operation_id     TEXT NOT NULL,              -- one forget call; shared by its tombstones
  actor            TEXT NOT NULL,
  created_at       INTEGER NOT NULL
) STRICT;

CREATE TABLE audit_log (
  seq          INTEGER PRIMARY KEY,
  at           INTEGER NOT NULL,
  actor        TEXT NOT NULL,
  action       TEXT NOT NULL,    -- forget, unforget, compact, created, superseded, ...
  object_type  TEXT NOT NULL,    -- event, claim, tombstone, operation, database
  object_id    TEXT NOT NULL DEFAULT '',
  namespace_id INTEGER REFERENCES namespaces(id),
  reason       TEXT NOT NULL DEFAULT '',
  detail       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail))
) STRICT;
CREATE INDEX audit_log_object ON audit_log(object_id, at, seq);
)sql";

// Migration 6: the claim lifecycle (docs/lifecycle.md). `expires_at` is the TTL deadline (ms UTC,
// NULL = none); `ttl_version` says which TTL table computed it (0 = not yet: the next maintenance
// pass or write assigns it); `last_accessed_at` is the last recall hit (ms UTC) and, with
// access_count and activation (both from migration 2), drives the half-life decay;
// `decay_below_since` is when activation fell below the archive threshold (NULL while above).
// The columns are added only when missing (a file whose user_version was lowered by hand, as the
// older-schema tests do, keeps them).
constexpr const char* kMigration6Columns = R"sql(
ALTER TABLE claims ADD COLUMN expires_at INTEGER;
ALTER TABLE claims ADD COLUMN ttl_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE claims ADD COLUMN last_accessed_at INTEGER;
ALTER TABLE claims ADD COLUMN decay_below_since INTEGER;
)sql";
constexpr const char* kMigration6Indexes = R"sql(
CREATE INDEX IF NOT EXISTS claims_ttl_pending ON claims(namespace_id) WHERE ttl_version = 0;
CREATE INDEX IF NOT EXISTS claims_expiry ON claims(namespace_id, expires_at)
  WHERE expires_at IS NOT NULL AND status IN ('active','disputed');
)sql";

// Migration 11: the current claims of a key (issue 17, B43). The claim writer looks up, for every
// candidate, the current claims (status active or disputed) of its topic, polarity, single-valued
// slot and subject. The indexes on the keys alone hold a key's whole history: a slot restated
// 5,000 times was read 5,000 rows deep (each row's status checked in the table) per candidate, and
// the subject lookup read every current claim of the namespace, so extraction slowed as the
// namespace grew. These partial indexes hold only current claims; the lookups name them
// (ClaimStore, INDEXED BY), so a lookup reads the current claims of its key and nothing else.
constexpr const char* kMigration11 = R"sql(
CREATE INDEX IF NOT EXISTS claims_current_topic ON claims(namespace_id, topic_key)
  WHERE status IN ('active','disputed');
CREATE INDEX IF NOT EXISTS claims_current_polarity ON claims(namespace_id, polarity_key)
  WHERE status IN ('active','disputed');
CREATE INDEX IF NOT EXISTS claims_current_conflict ON claims(namespace_id, conflict_key)
  WHERE status IN ('active','disputed');
CREATE INDEX IF NOT EXISTS claims_current_subject ON claims(namespace_id, subject)
  WHERE status IN ('active','disputed');
)sql";

// Migration 10: API keys (store/sqlite/api_key_store.h). `namespaces` is a JSON array of names
// ("*" = every namespace); `revoked_at` (ms UTC) is set once and never cleared.
constexpr const char* kMigration10 = R"sql(
CREATE TABLE IF NOT EXISTS api_keys (
  id          TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL UNIQUE,
  access      TEXT NOT NULL CHECK (access IN ('read', 'write', 'admin')),
  namespaces  TEXT NOT NULL CHECK (json_valid(namespaces)),
  label       TEXT NOT NULL DEFAULT '',
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
) STRICT;
)sql";

// Migration 12: experience memory (docs/experience.md). An episode is one task (goal, task type and
// where it came from, outcome, reward, feedback) with its ordered steps; episode_fts indexes the
// goal (column 0) and the steps' text (column 1) with engram's tokenizer. A rule is advice
// distilled from the episodes of one task type, with its counts, confidence, status and version
// chain; rule_support lists the episodes that matched it (in arrival order: the recent ones decide
// deprecation), rule_history its changes, experience_types when each type was last distilled.
// Episodes name their session and evidence events by id (text, not a reference): forgetting an
// event or session leaves the episode. Additive: no existing table changes.
constexpr const char* kMigration12 = R"sql(
CREATE TABLE IF NOT EXISTS episodes (
  seq                  INTEGER PRIMARY KEY,
  id                   TEXT NOT NULL UNIQUE,
  namespace_id         INTEGER NOT NULL REFERENCES namespaces(id),
  agent_id             TEXT NOT NULL DEFAULT '',
  session_id           TEXT NOT NULL DEFAULT '',
  goal                 TEXT NOT NULL,
  task_type            TEXT NOT NULL DEFAULT '',
  task_type_source     TEXT NOT NULL DEFAULT ''
                       CHECK (task_type_source IN ('','declared','write_signature','inferred')),
  task_type_confidence REAL NOT NULL DEFAULT 0,
  status               TEXT NOT NULL CHECK (status IN ('open','ended')),
  outcome              TEXT NOT NULL DEFAULT 'unknown'
                       CHECK (outcome IN ('success','partial','failure','unknown')),
  reward               REAL,
  outcome_source       TEXT NOT NULL DEFAULT ''
                       CHECK (outcome_source IN ('','env','user_feedback','self_judge','heuristic')),
  feedback             TEXT NOT NULL DEFAULT '',
  tools_used           TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tools_used)),
  write_signature      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(write_signature)),
  step_count           INTEGER NOT NULL DEFAULT 0,
  started_at           INTEGER NOT NULL,
  ended_at             INTEGER,
  boundary_confidence  REAL NOT NULL DEFAULT 1.0,
  updated_at           INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS episodes_namespace_seq ON episodes(namespace_id, seq);
CREATE INDEX IF NOT EXISTS episodes_namespace_type ON episodes(namespace_id, task_type, seq);

CREATE TABLE IF NOT EXISTS episode_steps (
  episode_seq       INTEGER NOT NULL REFERENCES episodes(seq) ON DELETE CASCADE,
  ordinal           INTEGER NOT NULL,
  action            TEXT NOT NULL,
  reason            TEXT NOT NULL DEFAULT '',
  result            TEXT NOT NULL DEFAULT '',
  tool_name         TEXT NOT NULL DEFAULT '',
  changes_state     INTEGER NOT NULL CHECK (changes_state IN (0, 1)),
  evidence_event_id TEXT NOT NULL DEFAULT '',
  at                INTEGER NOT NULL,
  PRIMARY KEY (episode_seq, ordinal)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rules (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  namespace_id     INTEGER NOT NULL REFERENCES namespaces(id),
  task_type        TEXT NOT NULL,
  polarity         TEXT NOT NULL CHECK (polarity IN ('do','avoid')),
  kind             TEXT NOT NULL CHECK (kind IN ('tool','omission','sequence')),
  tools            TEXT NOT NULL CHECK (json_valid(tools)),
  rule_key         TEXT NOT NULL,  -- task_type|polarity|kind|tool ("" for a sequence): one current version
  text             TEXT NOT NULL,
  support          INTEGER NOT NULL DEFAULT 0,
  success_count    INTEGER NOT NULL DEFAULT 0,
  failure_count    INTEGER NOT NULL DEFAULT 0,
  confidence       REAL NOT NULL DEFAULT 0,
  status           TEXT NOT NULL CHECK (status IN ('pending','active','deprecated','disputed')),
  status_reason    TEXT NOT NULL DEFAULT '',
  version          INTEGER NOT NULL DEFAULT 1,
  supersedes_id    TEXT,
  superseded_by_id TEXT,
  conflicts_with   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(conflicts_with)),
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS rules_namespace_type ON rules(namespace_id, task_type);
CREATE INDEX IF NOT EXISTS rules_namespace_seq ON rules(namespace_id, seq);

CREATE TABLE IF NOT EXISTS rule_support (
  id          INTEGER PRIMARY KEY,
  rule_seq    INTEGER NOT NULL REFERENCES rules(seq) ON DELETE CASCADE,
  episode_seq INTEGER NOT NULL REFERENCES episodes(seq) ON DELETE CASCADE,
  outcome     TEXT NOT NULL CHECK (outcome IN ('success','failure')),
  confirmed   INTEGER NOT NULL CHECK (confirmed IN (0, 1)),
  UNIQUE (rule_seq, episode_seq)
) STRICT;
CREATE INDEX IF NOT EXISTS rule_support_episode ON rule_support(episode_seq);

CREATE TABLE IF NOT EXISTS rule_history (
  seq        INTEGER PRIMARY KEY,
  rule_seq   INTEGER NOT NULL REFERENCES rules(seq) ON DELETE CASCADE,
  at         INTEGER NOT NULL,
  action     TEXT NOT NULL,
  reason     TEXT NOT NULL DEFAULT '',
  episode_id TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX IF NOT EXISTS rule_history_rule ON rule_history(rule_seq, seq);

CREATE TABLE IF NOT EXISTS experience_types (
  namespace_id     INTEGER NOT NULL REFERENCES namespaces(id),
  task_type        TEXT NOT NULL,
  pending_episodes INTEGER NOT NULL DEFAULT 0,  -- decided episodes since the last distillation
  distilled_at     INTEGER,
  PRIMARY KEY (namespace_id, task_type)
) STRICT, WITHOUT ROWID;
)sql";

// Migration 14: episodes formed from the event stream (see the migration step below).
constexpr const char* kMigration14Columns = R"sql(
ALTER TABLE episodes ADD COLUMN origin TEXT NOT NULL DEFAULT 'explicit' CHECK (origin IN ('explicit','detected'));
ALTER TABLE episodes ADD COLUMN first_event_id TEXT NOT NULL DEFAULT '';
ALTER TABLE episodes ADD COLUMN last_event_id TEXT NOT NULL DEFAULT '';
)sql";
constexpr const char* kMigration14 = R"sql(
CREATE UNIQUE INDEX IF NOT EXISTS episodes_segment ON episodes(namespace_id, session_id, first_event_id)
  WHERE origin = 'detected';
CREATE INDEX IF NOT EXISTS episodes_session ON episodes(namespace_id, session_id, status);
)sql";

// Migration 15: sharing and forgetting experience (docs/experience.md, "Sharing between agents"
// and "Forgetting cold experience"). experience_access keeps, per episode or rule id, how often
// experience recall returned it and when last (folded in from the hits log by maintenance, like
// claims' access counts), and since when it is cold (its forget score below the cold threshold:
// out of recall, kept and listable). A side table, so the episodes and rules tables do not change.
// The tombstone ledger is rebuilt so that its object_type admits forgotten episodes and rules
// (SQLite cannot alter a CHECK constraint in place); its rows and indexes are kept as they are.
constexpr const char* kMigration15 = R"sql(
CREATE TABLE IF NOT EXISTS experience_access (
  object_id        TEXT PRIMARY KEY,          -- an episode or rule id
  object_type      TEXT NOT NULL CHECK (object_type IN ('episode','rule')),
  namespace_id     INTEGER NOT NULL REFERENCES namespaces(id),
  access_count     INTEGER NOT NULL DEFAULT 0,
  last_accessed_at INTEGER,                   -- ms UTC; NULL: never returned by recall
  cold_at          INTEGER                    -- ms UTC; NULL: not cold
) STRICT;
CREATE INDEX IF NOT EXISTS experience_access_cold ON experience_access(namespace_id, object_type)
  WHERE cold_at IS NOT NULL;

CREATE TABLE tombstones_15 (
  id               TEXT PRIMARY KEY,
  namespace_id     INTEGER NOT NULL REFERENCES namespaces(id),
  object_type      TEXT NOT NULL CHECK (object_type IN ('event','claim','episode','rule')),
  object_id        TEXT NOT NULL,
  content_hash     TEXT,
  idempotency_hash TEXT,
  fact_hash        TEXT,
  reason           TEXT NOT NULL DEFAULT '',
  selector         TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(selector)),
  operation_id     TEXT NOT NULL,
  actor            TEXT NOT NULL,
  created_at       INTEGER NOT NULL
) STRICT;
INSERT INTO tombstones_15(rowid, id, namespace_id, object_type, object_id, content_hash, idempotency_hash,
  fact_hash, reason, selector, operation_id, actor, created_at) SELECT rowid, id, namespace_id, object_type, object_id, content_hash, idempotency_hash,
  fact_hash, reason, selector, operation_id, actor, created_at FROM tombstones;
DROP TABLE tombstones;
ALTER TABLE tombstones_15 RENAME TO tombstones;
)sql";

// The indexes of the tombstone ledger: made by migration 4, and again by migration 15 on the
// rebuilt table.
constexpr const char* kTombstoneIndexes = R"sql(
CREATE INDEX tombstones_object ON tombstones(object_id);
CREATE INDEX tombstones_content ON tombstones(namespace_id, content_hash) WHERE content_hash IS NOT NULL;
CREATE INDEX tombstones_idempotency ON tombstones(namespace_id, idempotency_hash)
  WHERE idempotency_hash IS NOT NULL;
CREATE INDEX tombstones_fact ON tombstones(namespace_id, fact_hash) WHERE fact_hash IS NOT NULL;
CREATE INDEX tombstones_namespace_time ON tombstones(namespace_id, created_at);
)sql";

// The FTS table's tokenizer argument depends on the analysis chosen at creation.
std::string FtsDdl(const char* table, TextAnalysis analysis) {
  return fmt::format("CREATE VIRTUAL TABLE {} USING fts5(body, tokenize='engram {}');", table,
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

namespace {

// Migration 16: the near-copy key (text/protected_atoms.h) of every current claim written before
// schema 13 added the column. Without it such a claim is read by every near-copy check of its
// topic (claim_store.h, CurrentValuesByTopic), so a database upgraded from before 13 kept the
// cost that grows with a topic's current values (B43): measured on a 180k-event file upgraded from
// schema 12, 11,700 of 15,577 current claims had none, and 73% of a drain's CPU was that check.
// Current claims only: the others are never read by it (the partial index holds current ones), and
// a claim that becomes current again without a key is still read, only more slowly.
Status BackfillNearCopyKeys(Database& db) {
  auto read = db.Cached(
      "SELECT seq, value FROM claims WHERE near_copy_key IS NULL AND status IN ('active','disputed')");
  if (!read) return read.error();
  std::vector<std::pair<int64_t, std::string>> keys;
  while (true) {
    auto row = (*read)->Step();
    if (!row) return row.error();
    if (!*row) break;
    keys.emplace_back((*read)->Int(0), NearCopyKey((*read)->Text(1)));
  }
  auto write = db.Cached("UPDATE claims SET near_copy_key = ?2 WHERE seq = ?1");
  if (!write) return write.error();
  for (const auto& [seq, key] : keys) {
    (*write)->Reset();
    (*write)->Bind(1, seq).Bind(2, key);
    ENGRAM_RETURN_IF_ERROR((*write)->Run());
  }
  return Status::Ok();
}

}  // namespace

Status CheckEngramDatabase(Database& db, bool read_only) {
  auto where = [&](const Status& st) { return st.WithContext(fmt::format("database \"{}\"", db.path())); };
  auto tables = db.QueryInt("SELECT count(*) FROM sqlite_schema");  // parses every definition
  if (!tables) return where(tables.error());
  auto version = db.QueryInt("PRAGMA user_version");
  if (!version) return where(version.error());
  if (*version == 0) {
    return where(Status::Corruption(*tables == 0 ? "an empty SQLite database, not an engram database; left unchanged"
                                                 : "an SQLite database but not an engram database; left unchanged"));
  }
  if (*version > kSchemaVersion) {
    return where(Status::Corruption(fmt::format(
        "schema version {} is newer than this engram supports ({}); upgrade engram", *version, kSchemaVersion)));
  }
  if (read_only && *version < kSchemaVersion) {
    return where(Status::Corruption(fmt::format(
        "schema version {} needs a migration to {}, and a read-only open does not write: run a writing "
        "command once (e.g. `engram maintain`)", *version, kSchemaVersion)));
  }
  auto analysis = StoredTextAnalysis(db);
  if (!analysis) return where(analysis.error());
  return Status::Ok();
}

Status Migrate(Database& db, TextAnalysis analysis) {
  // The common case — already current — takes no write lock, so opening never waits for a writer.
  int64_t current = 0;
  ENGRAM_RETURN_IF_ERROR(db.RetryOnBusy([&]() -> Status {
    auto v = db.QueryInt("PRAGMA user_version");
    if (!v) return v.error();
    current = *v;
    return Status::Ok();
  }));
  if (current == kSchemaVersion) return Status::Ok();
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
      ENGRAM_RETURN_IF_ERROR(db.Exec(FtsDdl("event_fts", analysis)));
      ENGRAM_RETURN_IF_ERROR(db.Exec(fmt::format(
          "INSERT INTO meta(key, value) VALUES ('text_analysis', '{}'), ('created_by', 'engram {}')",
          AnalysisName(analysis), "0.1.0")));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 1"));
      *version = 1;
    }
    if (*version < 2) {
      auto stored = StoredTextAnalysis(db);
      if (!stored) return stored.error();
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration2));
      ENGRAM_RETURN_IF_ERROR(db.Exec(FtsDdl("claim_fts", *stored)));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 2"));
    }
    if (*version < 3) {
      ENGRAM_RETURN_IF_ERROR(db.Exec(VectorStore::kVectorSchemaSql));
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration3));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 3"));
    }
    if (*version < 4) {
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration4));
      ENGRAM_RETURN_IF_ERROR(db.Exec(kTombstoneIndexes));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 4"));
    }
    if (*version < 5) {
      // Lease picks the oldest ready job by walking this index (one seek) instead of grouping
      // every ready job per lease, which made a drain quadratic in the backlog.
      ENGRAM_RETURN_IF_ERROR(db.Exec("CREATE INDEX IF NOT EXISTS jobs_status_id ON jobs(status, id)"));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 5"));
    }
    if (*version < 6) {
      auto has = db.QueryInt("SELECT count(*) FROM pragma_table_info('claims') WHERE name = 'expires_at'");
      if (!has) return has.error();
      if (*has == 0) ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration6Columns));
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration6Indexes));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 6"));
    }
    if (*version < 7) {
      // The current and next values of a single-valued slot by its conflict key: without this
      // index CurrentByConflictKey (status active or disputed) and NextInValidTime scanned every
      // current claim of the namespace for each extracted candidate, which made extraction
      // quadratic in the namespace's claims.
      ENGRAM_RETURN_IF_ERROR(db.Exec(
          "CREATE INDEX IF NOT EXISTS claims_conflict ON claims(namespace_id, conflict_key, valid_from) "
          "WHERE conflict_key IS NOT NULL"));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 7"));
    }
    if (*version < 8) {
      // The UTC offset each event's occurred_at was written with (Event::utc_offset_minutes):
      // relative dates in its text resolve in the speaker's local days. Rows stored before
      // this column were taken as UTC, as they were then.
      auto has = db.QueryInt("SELECT count(*) FROM pragma_table_info('events') WHERE name = 'utc_offset_minutes'");
      if (!has) return has.error();
      if (*has == 0) {
        ENGRAM_RETURN_IF_ERROR(
            db.Exec("ALTER TABLE events ADD COLUMN utc_offset_minutes INTEGER NOT NULL DEFAULT 0"));
      }
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 8"));
    }
    if (*version < 9) {
      // Who holds a lease (util/process_identity.h: host, pid, start time, boot, pid namespace),
      // so that the lease of a process that died is taken over at once instead of after its
      // expiry (issue 18). Rows leased before this column name no owner: they wait for expiry.
      auto has = db.QueryInt("SELECT count(*) FROM pragma_table_info('jobs') WHERE name = 'lease_owner'");
      if (!has) return has.error();
      if (*has == 0) ENGRAM_RETURN_IF_ERROR(db.Exec("ALTER TABLE jobs ADD COLUMN lease_owner TEXT"));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 9"));
    }
    if (*version < 10) {
      // API keys of the servers (`engram keys`, docs/server.md): the SHA-256 of the secret, never
      // the secret. Additive: no existing table changes.
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration10));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 10"));
    }
    if (*version < 11) {
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration11));
      // The seq range of a namespace's events and claims in two seeks each
      // (EventStore::NamespaceSeqRange, ClaimStore::NamespaceSeqRange): recall bounds its full-text
      // queries by it, so that FTS5 walks only the part of each posting list where the namespace's
      // rows can be instead of every namespace's. Additive: no existing table changes.
      ENGRAM_RETURN_IF_ERROR(db.Exec(
          "CREATE INDEX IF NOT EXISTS events_namespace_seq ON events(namespace_id, seq);"
          "CREATE INDEX IF NOT EXISTS claims_namespace_seq ON claims(namespace_id, seq);"));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 11"));
    }
    if (*version < 12) {
      auto stored = StoredTextAnalysis(db);
      if (!stored) return stored.error();
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration12));
      ENGRAM_RETURN_IF_ERROR(db.Exec(fmt::format(
          "CREATE VIRTUAL TABLE IF NOT EXISTS episode_fts USING fts5(goal, steps, tokenize='engram {}');",
          AnalysisName(*stored))));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 12"));
    }
    if (*version < 13) {
      // The near-copy key of a claim (StoredClaim::near_copy_key): a value merges only into a
      // current claim of its topic with the same protected atoms, so the writer reads only those
      // (issue 17, B43: one additive topic held thousands of current values, all read for every
      // candidate). Claims written before it have none and are read as before.
      auto has = db.QueryInt("SELECT count(*) FROM pragma_table_info('claims') WHERE name = 'near_copy_key'");
      if (!has) return has.error();
      if (*has == 0) ENGRAM_RETURN_IF_ERROR(db.Exec("ALTER TABLE claims ADD COLUMN near_copy_key TEXT"));
      ENGRAM_RETURN_IF_ERROR(db.Exec(
          "CREATE INDEX IF NOT EXISTS claims_current_near_copy ON claims(namespace_id, topic_key, near_copy_key) "
          "WHERE status IN ('active','disputed')"));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 13"));
    }
    if (*version < 14) {
      // Episodes formed from the event stream (experience/episode_segmenter.h): where an episode
      // came from (explicit: written through the episode calls; detected: the segmenter's) and the
      // first and last events of its segment, unique per session for detected ones, so that
      // segmenting a session again never writes a segment twice. Additive: existing rows are
      // explicit episodes with no segment.
      auto has = db.QueryInt("SELECT count(*) FROM pragma_table_info('episodes') WHERE name = 'origin'");
      if (!has) return has.error();
      if (*has == 0) ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration14Columns));
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration14));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 14"));
    }
    if (*version < 15) {
      ENGRAM_RETURN_IF_ERROR(db.Exec(kMigration15));
      ENGRAM_RETURN_IF_ERROR(db.Exec(kTombstoneIndexes));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 15"));
    }
    if (*version < 16) {
      ENGRAM_RETURN_IF_ERROR(BackfillNearCopyKeys(db));
      ENGRAM_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = 16"));
    }
    // Later migrations go here: `if (*version < 17) { ... PRAGMA user_version = 17; }`.
    return Status::Ok();
  });
}

}  // namespace engram::sqlite
