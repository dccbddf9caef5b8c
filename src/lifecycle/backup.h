// lifecycle/backup.h — `engram backup` and `engram restore` (docs/backup.md).
//
// Backup: `VACUUM INTO` writes a consistent snapshot of the live database (one read transaction;
// writers are not blocked) into a new file with no WAL and no free pages, then a manifest
// `PATH.manifest.json` binds it to its tombstone ledger: schema version, time, engram version,
// file size, XXH3-128 of the file, tombstone count, highest tombstone id and a hash of the sorted
// tombstone ids (all read from the backup file itself).
//
// Restore never trusts the backup's ledger alone: content forgotten after the backup was taken
// must stay forgotten (bug_scenarios.md B21). It verifies the manifest (size and hash), refuses
// stray `-wal`/`-shm` sidecars next to the backup (they are not part of the hashed snapshot and
// SQLite would apply them), copies the file next to the live database, runs integrity_check,
// migrates an older schema, replays every tombstone of the live ledger (forgetting what they name,
// copying them in), compacts (no forgotten byte stays in the file), and only then renames it over
// the live file. Any failure before the rename leaves the live database untouched.
//
// Detecting another user of the live database: every SQLite connection to a WAL database holds a
// shared POSIX lock on the DMS byte of its `-shm` file while it is open, and a connection in a
// transaction holds locks in the lock-byte range of the main file. Restore probes both with
// fcntl(F_GETLK) and returns kBusy when another process holds either. POSIX locks do not conflict
// within one process, so connections of the calling process are not seen: close every Engine of
// this process before restoring. Layer: store/ and below.
#ifndef ENGRAM_LIFECYCLE_BACKUP_H_
#define ENGRAM_LIFECYCLE_BACKUP_H_

#include <string>

#include "engram/options.h"
#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/database.h"

namespace engram::lifecycle {

// Writes the snapshot of `db` to `path` and the manifest to `path + ".manifest.json"`.
// Errors: kInvalidArgument (empty path; its folder is a file), kAlreadyExists (path or its manifest exists), kBusy,
// kIOError.
Result<BackupManifest> Backup(sqlite::Database& db, const std::string& path);

// Reads and checks a backup's manifest and file (size and hash). The file matches when its bytes
// hash to the manifest's file_xxh3, or — manifests since the lifecycle work carry content_xxh3 —
// when they do once the header fields that an open in WAL mode rewrites (journal-mode versions,
// change counter, version-valid-for) are set aside: opening a backup with engram no longer makes
// it unrestorable. Never opens the file with SQLite. Errors: kNotFound (file or manifest
// missing), kCorruption (manifest unreadable, size or hash mismatch).
Result<BackupManifest> VerifyBackup(const std::string& path);

// VerifyBackup, then opens the file read-only and immutable (URI mode=ro&immutable=1: no lock, no
// journal, no sidecar, not a byte written, whatever its journal mode) and runs integrity_check;
// a schema newer than this build is kCorruption. `engram restore --verify-only`.
Result<BackupManifest> VerifyBackupReadOnly(const std::string& path);

// Restores the backup at `backup_path` over the live database `options.db_path` (created when
// missing), as described above. No Engine of this process may have the live database open.
// Errors: kInvalidArgument (stray sidecar next to the backup), kNotFound, kCorruption (manifest
// mismatch, integrity_check failure, newer schema), kBusy (another process uses the live
// database), kIOError.
Result<RestoreReport> Restore(const Options& options, const std::string& backup_path);

}  // namespace engram::lifecycle

#endif  // ENGRAM_LIFECYCLE_BACKUP_H_
