// lifecycle/export.h — `engram export`: the contents of the database as JSONL, one object per
// line with a "kind": namespace, session, tombstone, event, claim (with its evidence refs, every
// time field, status and supersede links). Keys are sorted and rows ordered by insertion, so the
// same contents always give the same bytes: export → import into a fresh database → export is
// byte-identical (lifecycle/export_test.cc). Not exported: derived or operational rows that are
// rebuilt or only describe the past of this one file — full-text rows (rebuilt on import), vectors,
// feedback, jobs, claim history and decision records, and the audit log. Layer: store/ and below.
#ifndef ENGRAM_LIFECYCLE_EXPORT_H_
#define ENGRAM_LIFECYCLE_EXPORT_H_

#include <ostream>
#include <string_view>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

// Writes the dump of one namespace (or every namespace when `namespace_name` is empty) to `out`,
// from one read snapshot. Returns the number of lines of each kind.
// Errors: kNotFound (unknown namespace), kIOError (the stream failed), others from SQLite.
Result<DumpCounts> ExportDump(sqlite::Database& db, std::string_view namespace_name,
                              std::ostream& out);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_EXPORT_H_
