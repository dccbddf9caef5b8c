// import/hermes_import.h — `engram import hermes`: a Hermes Agent home into one engram namespace:
// the session archive (`state.db`: sessions with their lineage, messages with roles, tool calls and
// times) as events, and the curated memory (`memories/MEMORY.md`, `USER.md`) as the namespace's
// curated entries. docs/hermes.md ("Importing a Hermes home"); the file formats:
// ../shared/reference/hermes.md §2 (state.db, schema version 21/22) and §1.1 (memories).
//
// state.db is read, never written, with a connection of its own:
//   * a file in rollback-journal mode, or in WAL mode with its `-wal` beside it (Hermes is running,
//     or was killed), is opened `mode=ro`: SQLite reads through the writer's own sidecars and
//     creates nothing (except a missing `-shm` next to an existing `-wal`, which it needs to read
//     the WAL);
//   * a WAL-mode file without a `-wal` (no one has it open: the last connection removes both
//     sidecars) is opened `mode=ro&immutable=1`, because a plain `mode=ro` open would create a
//     `-wal` and `-shm` next to a file we do not own and leave them there. immutable takes no lock,
//     so each read is checked against the file's identity, size, mtime and ctime taken before the
//     connection opened; when a Hermes that started meanwhile checkpointed into the file, the read
//     is discarded and done again on a new connection (HermesImportReport::rereads).
// Hermes's full-text tables are never read: the schema is loaded with writable_schema on (a
// read-only connection never writes), so a damaged or duplicated messages_fts entry in
// sqlite_master does not stop the base tables from reading.
//
// Thread safety: ImportHermes may run on any thread; the Engine it is given serialises its calls.
#ifndef ENGRAM_IMPORT_HERMES_IMPORT_H_
#define ENGRAM_IMPORT_HERMES_IMPORT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engram/engine.h"

namespace engram::import {

struct HermesImportOptions {
  std::string state_db;       // path of a Hermes state.db; "" imports no sessions
  std::string memories_dir;   // a Hermes memories/ folder (MEMORY.md, USER.md); "" imports none
  std::string namespace_name = "hermes";
  size_t batch_size = 500;    // messages read per page and events per IngestBatch (one transaction)
  // For tests: runs after each page of messages is read, before the read is checked for a change
  // of the file (a test changes the file here to make the import read the page again).
  std::function<void()> after_page_read;
};

// A message that was not imported because the Engine refused it (or its content could not be
// decoded). Re-running the import reports it again.
struct HermesRefusedMessage {
  std::string session_id;
  int64_t message_id = 0;  // messages.id
  std::string reason;      // `field "content": contains a NUL byte`
};

// What happened to one curated store (MEMORY.md or USER.md).
struct HermesCuratedReport {
  std::string target;            // "memory" or "user"
  std::string file;              // the Hermes file read; "" when the folder has none
  int64_t entries = 0;           // entries in the file (split on "\n§\n", empty and repeated ones dropped)
  int64_t added = 0;             // new entries of the namespace's store
  int64_t already_present = 0;   // the store had the entry (a duplicate add changes nothing)
  // entry (its first 80 characters) → why the store refused it (over the budget, blocked by the
  // threat scanner, ...: the first line of the Engine's message), in file order.
  std::vector<std::pair<std::string, std::string>> refused;
  std::string error;             // the file could not be read (not UTF-8, unreadable): nothing imported
};

struct HermesImportReport {
  std::string namespace_name;
  // ---- state.db ("" / 0 when none was read)
  std::string state_db;
  std::string opened;            // "read-only" or "immutable" (see the file comment)
  int64_t schema_version = 0;    // the file's schema_version row; 0 when it has none
  // Columns of the current schema the import uses that this (older) file lacks, as
  // "messages.tool_calls": what they would have carried is absent from the events.
  std::vector<std::string> missing_columns;
  int64_t sessions = 0;          // sessions read (rows of `sessions`, plus session ids that only
                                 // messages name)
  int64_t messages = 0;          // message rows read
  int64_t events_imported = 0;   // new events
  int64_t events_already_present = 0;  // imported before (same Hermes session and message id)
  int64_t events_forgotten = 0;  // match a tombstone of the namespace: not stored (docs/forget.md)
  int64_t skipped_rewound = 0;   // active = 0 and compacted = 0: taken back by the user (/undo, rewind)
  int64_t skipped_empty = 0;     // no text: no text part, and no tool call to name
  std::map<std::string, int64_t> skipped_roles;  // rows of other roles (Hermes's "session_meta")
  std::vector<HermesRefusedMessage> refused;
  int64_t rereads = 0;           // pages read again because the file changed while they were read
  // ---- memories/
  std::vector<HermesCuratedReport> curated;  // "memory" then "user"; empty when none was read
  // Lineage without its parent, sessions that only messages name, ...
  std::vector<std::string> notes;
};

// Imports a Hermes home into options.namespace_name through `engine`:
//   sessions — every session becomes an engram session with the same id, its Hermes `source` as
//     session_source, its title, session_kind "cron" for source cron, "subagent" for source
//     subagent or a delegate child (model_config `_delegate_from`), else "interactive", and its
//     parent_session_id; parents are imported before their children (sessions ordered by
//     started_at, then id, each preceded by its ancestors); a parent missing from the file leaves
//     the child without one (noted).
//   messages — in id order per session (never timestamp order), one event each: roles user,
//     assistant, tool, system (developer → system, function → tool; others skipped and counted);
//     content as text (`\x00json:` multimodal content decoded to its text parts; <memory-context>
//     blocks a provider injected are cut out); occurred_at from `timestamp` (REAL seconds, UTC);
//     idempotency key "hermes-state:<session id>:<message id>"; tool messages keep tool_name and
//     tool_call_id; an assistant message's tool_calls go into metadata {"hermes": {"message_id",
//     "tool_calls", ...}} (ids and names only when the arguments would not fit the metadata limit)
//     and, when it has no text, "tool calls: NAME, NAME" becomes its content. Rewound rows
//     (active 0, compacted 0) are skipped and counted; compacted ones (active 0, compacted 1) are
//     imported, marked "compacted": true. Rows without text are skipped and counted.
//   curated memory — each entry of MEMORY.md and USER.md is one Engine::WriteCurated add (origin
//     "agent", session "curated"): an entry already there is a no-op; one the store refuses (over
//     its budget, blocked, ...) is reported.
// Every event goes through Engine::ValidateEvent and IngestBatch; a message the Engine refuses is
// reported (HermesImportReport::refused) and the import goes on: the archive is not the user's to
// fix, so one bad row must not hold back the rest. A re-run imports nothing twice; a grown archive
// imports what is new.
// Returns the report (also filled as far as it got when an error is returned). Errors:
// kInvalidArgument (nothing to import; the namespace, naming it; a file that is not an SQLite
// database or not a Hermes state.db, naming the missing table or column), kNotFound (no file at
// state_db; no folder at memories_dir), kCorruption (a damaged state.db base table), kBusy (the
// engram database stayed locked; state.db kept changing while it was read), kIOError.
Status ImportHermes(Engine& engine, const HermesImportOptions& options, HermesImportReport* report);

// The Hermes home: `flag` when given, else $HERMES_HOME, else ~/.hermes (Hermes's own order).
// Errors: kInvalidArgument when neither is set nor $HOME.
Result<std::string> ResolveHermesHome(const std::string& flag);

}  // namespace engram::import

#endif  // ENGRAM_IMPORT_HERMES_IMPORT_H_
