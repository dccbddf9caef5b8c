// import/jsonl_import.h — `engram ingest FILE --format jsonl`: one event object per line.
#ifndef ENGRAM_IMPORT_JSONL_IMPORT_H_
#define ENGRAM_IMPORT_JSONL_IMPORT_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "engram/engine.h"

namespace engram::import {

struct JsonlImportOptions {
  // false: stop at the first bad line (the good lines before it stay stored, so a fixed file can be
  // imported again without duplicates). true: report every bad line and import the rest.
  bool keep_going = false;
  size_t batch_size = 500;  // events per transaction
  // Called after each batch with bytes read so far (for a progress bar); may be empty.
  std::function<void(uint64_t bytes_read)> on_progress;
};

struct JsonlImportReport {
  int64_t lines = 0;       // non-empty lines read
  int64_t stored = 0;      // new events
  int64_t duplicates = 0;  // lines whose idempotency key was already stored
  int64_t forgotten = 0;   // lines matching a tombstone: not stored (docs/forget.md)
  std::vector<std::string> errors;  // "line 7: field \"role\": unknown value ..."
};

// Reads events from `in` and ingests them in batches. A bad line (not JSON, unknown field, wrong
// type, or rejected by Engine::ValidateEvent) stores nothing of that line and is reported as
// "line N: <problem>". Blank lines are skipped. Returns the report; the Status is an error only
// when the store fails (kBusy, kIOError) or, without keep_going, at the first bad line
// (kInvalidArgument, message "line N: ...", report filled up to that point via `report`).
Status ImportJsonl(Engine& engine, std::istream& in, const JsonlImportOptions& options,
                   JsonlImportReport* report);

}  // namespace engram::import

#endif  // ENGRAM_IMPORT_JSONL_IMPORT_H_
