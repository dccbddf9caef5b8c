// lifecycle/doctor.h — `engram doctor`: what is damaged in a database file and what can still be
// read or exported (docs/integrity.md). Reads only, on a connection that may be read-only, and no
// check stops the others: a damaged page is reported with the tables and indexes it belongs to,
// and the checks after it still run.
#ifndef ENGRAM_LIFECYCLE_DOCTOR_H_
#define ENGRAM_LIFECYCLE_DOCTOR_H_

#include <string>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

// Runs, in order: the schema version and journal mode; PRAGMA integrity_check (on SQLite 3.45.1
// and later it covers the FTS5 indexes too; older versions run FTS5's check only as a write, so it
// is reported as not run); when that cannot finish or finds problems, quick_check and an
// integrity_check per table, naming what is damaged; engram's invariants; the counts; and, when a
// problem was found, how many rows every table still reads and whether an export reads to the
// end. The FTS5 extensions must be registered on `db`. Never fails for a problem found: problems
// are in the report (ok = false). Errors: none but kInternal for a bug. Not thread-safe.
Result<DoctorReport> Diagnose(sqlite::Database& db);

// PRAGMA quick_check(limit): its lines other than "ok", then the error that stopped it if one did;
// empty when the file is sound. Reads only; O(file size). Not thread-safe.
std::vector<std::string> QuickCheckProblems(sqlite::Database& db, int limit);

// The same for PRAGMA integrity_check(limit), which also finds a table row its indexes disagree
// with (a row quick_check passes and a read may silently skip). Reads only; O(N log N) in the rows.
// Not thread-safe.
std::vector<std::string> IntegrityCheckProblems(sqlite::Database& db, int limit);

// The report for a file SQLite cannot read as a database at all (`why`: the open's error, e.g.
// "... is empty (0 bytes)"): ok = false, one problem. Thread-safe.
DoctorReport UnreadableFileReport(const Status& why);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_DOCTOR_H_
