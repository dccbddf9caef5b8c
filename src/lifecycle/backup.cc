#include "lifecycle/backup.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "lifecycle/compact.h"
#include "lifecycle/forget.h"
#include "store/sqlite/audit_log.h"
#include "store/sqlite/open_target.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "store/sqlite/tombstone_store.h"
#include "util/hash.h"
#include "util/time.h"

namespace engram::lifecycle {
namespace {

namespace fs = std::filesystem;

constexpr const char* kEngramVersion = ENGRAM_VERSION;
constexpr int kManifestFormat = 1;

std::string ManifestPath(const std::string& path) { return path + ".manifest.json"; }

bool Exists(const std::string& path) {
  struct stat sb;
  return stat(path.c_str(), &sb) == 0;
}

// XXH3-128 of the file's bytes, 32 hex digits (as util/hash.h ContentHash), and its size.
// XXH3-128 (hex) and size of a file. With `header_neutral`, the SQLite header fields that merely
// opening the file in WAL mode rewrites are hashed as constants: the file format write/read
// versions (offsets 18, 19: 1 = rollback journal, 2 = WAL), the file change counter (24–27) and
// the version-valid-for number (92–95). Verified on SQLite 3.40: `PRAGMA journal_mode=WAL` on a
// rollback-journal file changes exactly these 10 bytes.
Result<std::pair<std::string, int64_t>> HashFile(const std::string& path, bool header_neutral = false) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(Status::NotFound(fmt::format("cannot open \"{}\"", path)));
  XXH3_state_t* state = XXH3_createState();
  if (state == nullptr) return Error(Status::Internal("XXH3_createState failed"));
  XXH3_128bits_reset(state);
  std::vector<char> buf(1 << 16);
  int64_t size = 0;
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const std::streamsize n = in.gcount();
    if (header_neutral && size == 0 && n >= 100) {
      buf[18] = 1;
      buf[19] = 1;
      std::fill(buf.begin() + 24, buf.begin() + 28, '\0');
      std::fill(buf.begin() + 92, buf.begin() + 96, '\0');
    }
    if (n > 0) {
      XXH3_128bits_update(state, buf.data(), static_cast<size_t>(n));
      size += n;
    }
  }
  const bool bad = in.bad();
  XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  if (bad) return Error(Status::IOError(fmt::format("reading \"{}\" failed", path)));
  return std::pair{fmt::format("{:016x}{:016x}", h.high64, h.low64), size};
}

// True when another process holds a POSIX lock on bytes [start, start+len) of `path` (F_GETLK
// ignores the caller's own locks). Opening and closing the file here would drop this process's
// own SQLite locks on it, which is why no connection of this process may be open (see header).
bool LockedByOther(const std::string& path, off_t start, off_t len) {
  int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = start;
  fl.l_len = len;
  const bool locked = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
  close(fd);
  return locked;
}

Status CheckNotInUse(const std::string& live) {
  // SQLite's unix VFS: the -shm DMS byte is 128 (held shared by every open WAL connection); the
  // main file's lock bytes are PENDING 0x40000000, RESERVED, and 510 SHARED bytes.
  if (LockedByOther(live + "-shm", 128, 1) || LockedByOther(live, 0x40000000, 512)) {
    return Status::Busy(
        fmt::format("another process has the database \"{}\" open; stop it (worker, serve, ...) "
                    "and run restore again",
                    live));
  }
  return Status::Ok();
}

// The ledger summary of an open database: count, highest id, hash of the sorted ids.
Status LedgerSummary(sqlite3* db, BackupManifest& m) {
  auto has = sqlite::Statement::Prepare(
      db, "SELECT count(*) FROM sqlite_schema WHERE name = 'tombstones'");
  if (!has) return has.error();
  auto row = has->Step();
  if (!row) return row.error();
  std::string joined;
  m.tombstone_count = 0;
  m.max_tombstone_id.clear();
  if (*row && has->Int(0) > 0) {
    auto q = sqlite::Statement::Prepare(db, "SELECT id FROM tombstones ORDER BY id");
    if (!q) return q.error();
    while (true) {
      auto r = q->Step();
      if (!r) return r.error();
      if (!*r) break;
      m.max_tombstone_id = q->Text(0);
      joined += m.max_tombstone_id + "\n";
      ++m.tombstone_count;
    }
  }
  m.ledger_xxh3 = ContentHash(joined);
  return Status::Ok();
}

nlohmann::ordered_json ManifestToJson(const BackupManifest& m) {
  return {{"format", m.format},
          {"schema_version", m.schema_version},
          {"created_at", FormatTimestamp(m.created_at)},
          {"engram_version", m.engram_version},
          {"file_bytes", m.file_bytes},
          {"file_xxh3", m.file_xxh3},
          {"tombstone_count", m.tombstone_count},
          {"max_tombstone_id", m.max_tombstone_id},
          {"ledger_xxh3", m.ledger_xxh3}};
}

Result<BackupManifest> ReadManifest(const std::string& path) {
  std::ifstream in(ManifestPath(path));
  if (!in)
    return Error(Status::NotFound(fmt::format("manifest \"{}\" is missing", ManifestPath(path))));
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    BackupManifest m;
    m.format = j.at("format").get<int>();
    m.schema_version = j.at("schema_version").get<int>();
    auto created = ParseTimestamp(j.at("created_at").get<std::string>());
    if (!created) return Error(Status::Corruption("manifest: field \"created_at\" is not a time"));
    m.created_at = *created;
    m.engram_version = j.at("engram_version").get<std::string>();
    m.file_bytes = j.at("file_bytes").get<int64_t>();
    m.file_xxh3 = j.at("file_xxh3").get<std::string>();
    m.tombstone_count = j.at("tombstone_count").get<int64_t>();
    m.max_tombstone_id = j.at("max_tombstone_id").get<std::string>();
    m.ledger_xxh3 = j.at("ledger_xxh3").get<std::string>();
    if (m.format != kManifestFormat) {
      return Error(Status::Corruption(fmt::format("manifest: unknown format {}", m.format)));
    }
    return m;
  } catch (const std::exception& e) {
    return Error(Status::Corruption(
        fmt::format("manifest \"{}\" is unreadable: {}", ManifestPath(path), e.what())));
  }
}

// A raw connection for one short job (no engram settings), closed on destruction.
struct RawDb {
  sqlite3* db = nullptr;
  ~RawDb() {
    if (db != nullptr) sqlite3_close(db);
  }
};

Result<int64_t> CountRows(sqlite::Database& db, const std::string& sql, std::string_view a,
                          std::string_view b, std::vector<std::string>& ids) {
  auto q = db.Cached(sql);
  if (!q) return Error(q.error());
  (*q)->Bind(1, a).Bind(2, b);
  int64_t n = 0;
  while (true) {
    auto r = (*q)->Step();
    if (!r) return Error(r.error());
    if (!*r) break;
    ids.push_back((*q)->Text(0));
    ++n;
  }
  (*q)->Reset();
  return n;
}

void RemoveQuietly(const std::string& path) {
  std::error_code ec;
  fs::remove(path, ec);
}

}  // namespace

namespace {

// kInvalidArgument unless `path` names a file: a NUL byte would cut the name short (SQLite and the
// file system read it up to there: "a\0b.db" wrote "a"), and a path ending in "/", "/." or "/.."
// names a folder, which VACUUM INTO cannot open (it failed as "unable to open database", a 500
// over REST for a name schemathesis made).
Status CheckBackupPath(const std::string& path) {
  if (path.empty()) return Status::InvalidArgument("field \"path\": is required");
  if (path.find('\0') != std::string::npos) {
    return Status::InvalidArgument("field \"path\": contains a NUL character");
  }
  const std::string name = fs::path(path).filename().string();
  if (name.empty() || name == "." || name == "..") {
    return Status::InvalidArgument(
        fmt::format("field \"path\": \"{}\" names a folder; name the backup file inside it", path));
  }
  return Status::Ok();
}

}  // namespace

Result<BackupManifest> Backup(sqlite::Database& db, const std::string& path) {
  ENGRAM_RETURN_IF_ERROR(CheckBackupPath(path));
  if (Exists(path) || Exists(ManifestPath(path))) {
    return Error(Status::AlreadyExists(
        fmt::format("\"{}\" (or its manifest) already exists; choose a new path", path)));
  }
  {
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
      return Error(Status::InvalidArgument(fmt::format(
          "field \"path\": its folder \"{}\" is not a folder and cannot be made one", parent.string())));
    }
  }
  // One read snapshot, written as a fresh file; writers go on meanwhile (WAL).
  ENGRAM_RETURN_IF_ERROR(db.RetryOnBusy([&]() -> Status {
    auto q = sqlite::Statement::Prepare(db.handle(), "VACUUM INTO ?");
    if (!q) return q.error();
    q->Bind(1, path);
    return q->Run();
  }));
  BackupManifest m;
  m.format = kManifestFormat;
  m.created_at = NowMs();
  m.engram_version = kEngramVersion;
  {
    // The copy is made a plain rollback-journal file, so that reading or copying it never creates
    // -wal/-shm sidecars; restore turns WAL back on. The ledger summary is read from the copy.
    RawDb raw;
    int rc = sqlite3_open_v2(path.c_str(), &raw.db, SQLITE_OPEN_READWRITE, nullptr);
    if (rc != SQLITE_OK) return Error(sqlite::StatusFromSqlite(rc, raw.db, "open backup"));
    rc = sqlite3_exec(raw.db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return Error(sqlite::StatusFromSqlite(rc, raw.db, "backup: journal_mode"));
    auto v = sqlite::Statement::Prepare(raw.db, "PRAGMA user_version");
    if (!v) return Error(v.error());
    auto row = v->Step();
    if (!row) return Error(row.error());
    m.schema_version = static_cast<int>(v->Int(0));
    v->Reset();
    *v = sqlite::Statement();
    ENGRAM_RETURN_IF_ERROR(LedgerSummary(raw.db, m));
  }
  auto hash = HashFile(path);
  if (!hash) return Error(hash.error());
  m.file_xxh3 = hash->first;
  m.file_bytes = hash->second;
  auto neutral = HashFile(path, /*header_neutral=*/true);
  if (!neutral) return Error(neutral.error());
  const std::string tmp = ManifestPath(path) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    nlohmann::ordered_json j = ManifestToJson(m);
    j["content_xxh3"] = neutral->first;
    out << j.dump(2) << "\n";
    out.flush();
    if (!out) return Error(Status::IOError(fmt::format("cannot write \"{}\"", tmp)));
  }
  if (std::rename(tmp.c_str(), ManifestPath(path).c_str()) != 0) {
    return Error(Status::IOError(fmt::format("cannot rename \"{}\"", tmp)));
  }
  return m;
}

// The manifest's header-neutral hash ("content_xxh3"; manifests written before it have none: "").
std::string ManifestContentHash(const std::string& backup_path) {
  std::ifstream in(ManifestPath(backup_path));
  auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("content_xxh3") || !j["content_xxh3"].is_string()) return "";
  return j["content_xxh3"].get<std::string>();
}

// `file` holds the snapshot `backup_path`'s manifest describes: the same bytes, or the same bytes
// but for the header fields an open in WAL mode rewrites (see HashFile). Errors: kCorruption.
Status MatchesManifest(const std::string& file, const std::string& backup_path, const BackupManifest& m) {
  auto hash = HashFile(file);
  if (!hash) return hash.error();
  if (hash->second == m.file_bytes && hash->first == m.file_xxh3) return Status::Ok();
  // Only a file that SQLite switched to WAL (header bytes 18 and 19 are 2; a backup is written in
  // rollback-journal mode, 1) may differ from file_xxh3; its content must still match.
  char header[20] = {};
  {
    std::ifstream in(file, std::ios::binary);
    in.read(header, sizeof(header));
  }
  const bool opened_in_wal = header[18] == 2 && header[19] == 2;
  const std::string content = ManifestContentHash(backup_path);
  if (hash->second == m.file_bytes && opened_in_wal && !content.empty()) {
    auto neutral = HashFile(file, /*header_neutral=*/true);
    if (!neutral) return neutral.error();
    if (neutral->first == content) return Status::Ok();
  }
  return Status::Corruption(
      fmt::format("backup \"{}\" does not match its manifest (size {} vs {}, xxh3 {} vs {}): it "
                  "was changed or truncated",
                  backup_path, hash->second, m.file_bytes, hash->first, m.file_xxh3));
}

// A `-wal`, `-shm` or `-journal` next to the backup is not part of the hashed snapshot, and SQLite
// would apply it when the file is opened normally. Errors: kInvalidArgument.
Status RefuseStraySidecars(const std::string& backup_path) {
  for (const char* sidecar : {"-wal", "-shm", "-journal"}) {
    if (Exists(backup_path + sidecar)) {
      return Status::InvalidArgument(
          fmt::format("stray \"{}{}\" next to the backup: it is not part of the verified snapshot "
                      "and SQLite would apply it; "
                      "remove it (or restore from a clean copy) and run restore again",
                      backup_path, sidecar));
    }
  }
  return Status::Ok();
}

// Opens the backup read-only and immutable (no lock, no journal, no sidecar, no byte written) and
// runs integrity_check; its schema must not be newer than this build, and the manifest's schema
// version and ledger summary (not covered by the file hash) must be the file's. Errors:
// kCorruption.
Status CheckReadOnly(const std::string& path, const BackupManifest& m) {
  sqlite3* db = nullptr;
  const std::string uri = "file:" + sqlite::SqliteUriPath(path) + "?mode=ro&immutable=1";
  int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  Status st = Status::Ok();
  if (rc != SQLITE_OK) {
    st = sqlite::StatusFromSqlite(rc, db, "backup: open read-only");
  } else {
    auto run = [&]() -> Status {
      ENGRAM_RETURN_IF_ERROR(sqlite::RegisterFts5Extensions(db));
      auto check = sqlite::Statement::Prepare(db, "PRAGMA integrity_check");
      if (!check) return check.error();
      auto row = check->Step();
      if (!row) return row.error();
      if (!*row || check->Text(0) != "ok") {
        return Status::Corruption(fmt::format("backup integrity_check: {}", *row ? check->Text(0) : "no answer"));
      }
      auto version = sqlite::Statement::Prepare(db, "PRAGMA user_version");
      if (!version) return version.error();
      auto vrow = version->Step();
      if (!vrow) return vrow.error();
      if (*vrow && version->Int(0) > sqlite::kSchemaVersion) {
        return Status::Corruption(fmt::format("backup schema version {} is newer than this engram supports ({})",
                                              version->Int(0), sqlite::kSchemaVersion));
      }
      const int64_t file_version = *vrow ? version->Int(0) : 0;
      BackupManifest held = m;
      ENGRAM_RETURN_IF_ERROR(LedgerSummary(db, held));
      if (file_version != m.schema_version || held.tombstone_count != m.tombstone_count ||
          held.max_tombstone_id != m.max_tombstone_id || held.ledger_xxh3 != m.ledger_xxh3) {
        return Status::Corruption(fmt::format(
            "manifest of \"{}\" does not describe the file: it says schema v{}, {} tombstones "
            "(ledger {}); the file holds schema v{}, {} tombstones (ledger {})",
            path, m.schema_version, m.tombstone_count, m.ledger_xxh3, file_version,
            held.tombstone_count, held.ledger_xxh3));
      }
      return Status::Ok();
    };
    st = run();
  }
  sqlite3_close_v2(db);
  return st;
}

Result<BackupManifest> VerifyBackup(const std::string& path) {
  if (path.empty()) return Error(Status::InvalidArgument("field \"path\": is required"));
  if (!Exists(path))
    return Error(Status::NotFound(fmt::format("backup \"{}\" does not exist", path)));
  auto m = ReadManifest(path);
  if (!m) return m;
  ENGRAM_RETURN_IF_ERROR(MatchesManifest(path, path, *m));
  return m;
}

Result<BackupManifest> VerifyBackupReadOnly(const std::string& path) {
  // What restore would refuse is not a good backup, even though the immutable open ignores it.
  if (!path.empty()) ENGRAM_RETURN_IF_ERROR(RefuseStraySidecars(path));
  auto m = VerifyBackup(path);
  if (!m) return m;
  ENGRAM_RETURN_IF_ERROR(CheckReadOnly(path, *m));
  return m;
}

Result<RestoreReport> Restore(const Options& options, const std::string& backup_path) {
  const std::string& live = options.db_path;
  if (live.empty())
    return Error(Status::InvalidArgument("field \"db\": the live database path is required"));
  if (backup_path.empty()) return Error(Status::InvalidArgument("field \"path\": is required"));
  ENGRAM_RETURN_IF_ERROR(RefuseStraySidecars(backup_path));
  RestoreReport report;
  auto manifest = VerifyBackup(backup_path);
  if (!manifest) return Error(manifest.error());
  report.manifest = *manifest;
  ENGRAM_RETURN_IF_ERROR(CheckNotInUse(live));

  // The live ledger: every tombstone must hold in the restored file too.
  std::vector<Tombstone> ledger;
  std::set<std::string> live_survivors;  // hash matches the live database kept (see below)
  if (Exists(live)) {
    auto db = sqlite::Database::Open(options);
    if (!db) return Error(db.error());
    auto has = (*db)->QueryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'tombstones'");
    if (!has) return Error(has.error());
    if (*has > 0) {
      sqlite::TombstoneStore store(**db);
      auto list = store.List(std::nullopt, "", 1 << 30);
      if (!list) return Error(list.error());
      ledger.assign(list->rbegin(), list->rend());  // oldest first
      // Objects the live database still holds although a tombstone names their content or fact
      // hash: a forget by id keeps another copy of the same words (or a claim of the same fact
      // that was current while the forgotten one had expired). The replay must keep them too, or
      // restoring a backup taken a moment ago would delete live data.
      std::vector<std::string> kept;
      for (const Tombstone& t : ledger) {
        if (!t.content_hash.empty()) {
          auto n = CountRows(**db,
                             "SELECT e.id FROM events e JOIN namespaces n ON n.id = e.namespace_id "
                             "WHERE e.content_hash = ?1 AND n.name = ?2",
                             t.content_hash, t.namespace_name, kept);
          if (!n) return Error(n.error());
        }
        if (!t.fact_hash.empty()) {
          auto n = CountRows(**db,
                             "SELECT c.id FROM claims c JOIN namespaces n ON n.id = c.namespace_id "
                             "WHERE c.fact_hash = ?1 AND n.name = ?2",
                             t.fact_hash, t.namespace_name, kept);
          if (!n) return Error(n.error());
        }
      }
      live_survivors.insert(kept.begin(), kept.end());
    }
  }  // closed: the last connection checkpoints the WAL and removes it

  const std::string tmp = live + ".restore-tmp";
  auto cleanup = [&] {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) RemoveQuietly(tmp + suffix);
  };
  cleanup();
  {
    std::error_code ec;
    const fs::path parent = fs::path(live).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    fs::copy_file(backup_path, tmp, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      cleanup();
      return Error(Status::IOError(
          fmt::format("cannot copy \"{}\" to \"{}\": {}", backup_path, tmp, ec.message())));
    }
  }
  Status st = [&]() -> Status {
    // The copy must be the verified bytes (the backup could change between the check and the copy).
    if (Status same = MatchesManifest(tmp, backup_path, *manifest); !same.ok()) {
      return Status::Corruption("the copied backup does not match its manifest");
    }
    Options tmp_options = options;
    tmp_options.db_path = tmp;
    auto db = sqlite::Database::Open(tmp_options);
    if (!db) return db.error();
    sqlite::Database& d = **db;
    ENGRAM_RETURN_IF_ERROR(sqlite::RegisterFts5Extensions(d.handle()));
    auto check = d.QueryText("PRAGMA integrity_check");
    if (!check) return check.error();
    if (*check != "ok")
      return Status::Corruption(fmt::format("backup integrity_check: {}", *check));
    auto version = d.QueryInt("PRAGMA user_version");
    if (!version) return version.error();
    report.migrated = *version < sqlite::kSchemaVersion;
    ENGRAM_RETURN_IF_ERROR(sqlite::Migrate(d, options.analysis));

    sqlite::EventStore events(d);
    sqlite::TombstoneStore tombstones(d);
    sqlite::AuditLog audit(d);
    ENGRAM_RETURN_IF_ERROR(d.WriteTransaction([&]() -> Status {
      report.tombstones_replayed = report.events_forgotten = report.claims_forgotten = 0;
      const TimestampMs now = NowMs();
      std::vector<std::string> ids;
      std::vector<std::pair<int64_t, const Tombstone*>> missing;
      for (const Tombstone& t : ledger) {
        auto ns = events.EnsureNamespace(t.namespace_name, now);
        if (!ns) return ns.error();
        const std::string nss = std::to_string(*ns);
        // What the tombstone names: the object itself, and in its namespace the same content
        // (events) or the same fact (claims), as Ingest and the claim writer would refuse it.
        auto n = CountRows(
            d,
            "SELECT id FROM events WHERE id = ?1 UNION SELECT id FROM claims WHERE id = ?1 "
            "UNION SELECT ?2 WHERE 0",
            t.object_id, "", ids);
        if (!n) return n.error();
        std::vector<std::string> same_hash;
        if (!t.content_hash.empty()) {
          n = CountRows(d,
                        "SELECT id FROM events WHERE content_hash = ?1 AND namespace_id = CAST(?2 "
                        "AS INTEGER)",
                        t.content_hash, nss, same_hash);
          if (!n) return n.error();
        }
        if (!t.fact_hash.empty()) {
          n = CountRows(
              d,
              "SELECT id FROM claims WHERE fact_hash = ?1 AND namespace_id = CAST(?2 AS INTEGER)",
              t.fact_hash, nss, same_hash);
          if (!n) return n.error();
        }
        for (std::string& id : same_hash) {
          if (!live_survivors.contains(id)) ids.push_back(std::move(id));
        }
        auto present = d.Cached("SELECT 1 FROM tombstones WHERE id = ?");
        if (!present) return present.error();
        (*present)->Bind(1, t.id);
        auto row = (*present)->Step();
        if (!row) return row.error();
        (*present)->Reset();
        if (!*row) missing.emplace_back(*ns, &t);
      }
      std::string operation;
      if (!ids.empty()) {
        ForgetStores stores{d, tombstones, audit};
        ForgetRequest request;
        request.ids = ids;
        request.reason = "restore: replay of the live tombstone ledger";
        request.actor = "restore";
        auto forgot = ForgetInTransaction(stores, request, {}, now);
        if (!forgot) return forgot.error();
        report.events_forgotten = forgot->events;
        report.claims_forgotten = forgot->claims;
        operation = forgot->operation_id;
      }
      for (const auto& [ns, t] : missing) {
        ENGRAM_RETURN_IF_ERROR(tombstones.Insert(ns, *t));
        ++report.tombstones_replayed;
      }
      if (!operation.empty()) {
        // The replay's own tombstones are kept only for objects no ledger tombstone names (the
        // cascade's private evidence), so the restored ledger is the live one plus those.
        auto del = d.Cached(
            "DELETE FROM tombstones WHERE operation_id = ?1 AND EXISTS (SELECT 1 FROM tombstones "
            "t2 "
            "WHERE t2.object_id = tombstones.object_id AND t2.operation_id <> ?1)");
        if (!del) return del.error();
        (*del)->Bind(1, operation);
        ENGRAM_RETURN_IF_ERROR((*del)->Run());
      }
      AuditEntry e;
      e.at = now;
      e.actor = "restore";
      e.action = "restore";
      e.object_type = "database";
      e.detail_json =
          nlohmann::ordered_json{{"backup_created_at", FormatTimestamp(manifest->created_at)},
                                 {"backup_xxh3", manifest->file_xxh3},
                                 {"tombstones_replayed", report.tombstones_replayed},
                                 {"events_forgotten", report.events_forgotten},
                                 {"claims_forgotten", report.claims_forgotten}}
              .dump();
      return audit.Append(e, std::nullopt);
    }));
    // No forgotten byte may survive in the file that becomes the live database.
    auto compacted = Compact(d, audit, "restore");
    if (!compacted) return compacted.error();
    return Status::Ok();
  }();  // the temporary database is closed here: its WAL is checkpointed and removed
  if (!st.ok()) {
    cleanup();
    return Error(st.WithContext("restore (the live database was not changed)"));
  }
  // The swap: nobody may have opened the live database meanwhile; its old sidecars go first (its
  // WAL was checkpointed when the last connection closed), then one rename replaces the file.
  Status busy = CheckNotInUse(live);
  if (!busy.ok()) {
    cleanup();
    return Error(busy);
  }
  RemoveQuietly(tmp + "-wal");
  RemoveQuietly(tmp + "-shm");
  {
    struct stat sb;
    if (stat((live + "-wal").c_str(), &sb) == 0 && sb.st_size > 0) {
      cleanup();
      return Error(
          Status::Busy(fmt::format("\"{}-wal\" still holds frames that are not in the database; "
                                   "open the database once (engram stats) "
                                   "so that it is checkpointed, then run restore again",
                                   live)));
    }
  }
  RemoveQuietly(live + "-wal");
  RemoveQuietly(live + "-shm");
  if (std::rename(tmp.c_str(), live.c_str()) != 0) {
    cleanup();
    return Error(Status::IOError(fmt::format("cannot rename \"{}\" to \"{}\"", tmp, live)));
  }
  return report;
}

}  // namespace engram::lifecycle
