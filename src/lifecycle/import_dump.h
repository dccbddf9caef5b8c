// lifecycle/import_dump.h — `engram import`: loads a dump written by lifecycle/export.h.
//
// Every line is parsed and checked before anything is written: an event line goes through the one
// event validation (ValidateEventInput, as Ingest) and its content_hash must match its content;
// every line must have its kind's required fields with the right JSON types. A bad line fails the
// whole import with kInvalidArgument "line N: field \"x\": ..." and nothing is written; then all
// rows are written in one write transaction. Tombstones are honoured — the file's (written first)
// and the target database's: an event whose id, content hash or idempotency key is tombstoned in
// its namespace, and a claim whose id or fact hash is, is skipped (counted in skipped_forgotten);
// a claim left without a supporting event is skipped with it. Rows already stored (same id, or an
// event with the same idempotency key) are skipped, so importing twice is harmless. Full-text rows
// are rebuilt; no extraction job is queued (the dump's claims are the extraction's result).
// Layer: store/ and write/ (for the validation) and below.
#ifndef ENGRAM_LIFECYCLE_IMPORT_DUMP_H_
#define ENGRAM_LIFECYCLE_IMPORT_DUMP_H_

#include <istream>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/tombstone_store.h"

namespace engram::lifecycle {

// Reads the whole of `in`, validates it, then imports it in one write transaction (retried on
// contention). Errors: kInvalidArgument (a bad line, naming line and field), kBusy, kIOError.
Result<ImportReport> ImportDump(sqlite::Database& db, sqlite::EventStore& events,
                                sqlite::TombstoneStore& tombstones, std::istream& in);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_IMPORT_DUMP_H_
