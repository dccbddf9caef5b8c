#include "lifecycle/doctor.h"

#include <sqlite3.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <streambuf>
#include <vector>

#include <fmt/format.h>

#include "lifecycle/export.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/schema.h"
#include "store/sqlite/sqlite_version.h"

namespace engram::lifecycle {
namespace {

constexpr size_t kMaxLines = 200;
// The first SQLite whose integrity_check runs the FTS5 check (xIntegrity) on a read-only database.
constexpr int kIntegrityCoversFts5 = 3045001;

struct Lines {
  std::vector<std::string> lines;
  std::string error;  // why the statement stopped early; empty when it ran to the end
  bool ok() const { return error.empty() && lines.size() == 1 && lines[0] == "ok"; }
};

// Column 0 of every row of `sql` (at most kMaxLines), and the error that stopped it, if any.
Lines RowsOf(sqlite::Database& db, const std::string& sql) {
  Lines out;
  auto st = sqlite::Statement::Prepare(db.handle(), sql);
  if (!st) {
    out.error = st.error().message();
    return out;
  }
  while (out.lines.size() < kMaxLines) {
    auto row = st->Step();
    if (!row) {
      out.error = row.error().message();
      break;
    }
    if (!*row) break;
    out.lines.push_back(st->Text(0));
  }
  return out;
}

struct SchemaObject {
  std::string type;   // "table" or "index"
  std::string name;
  std::string table;  // the table an index belongs to
  bool is_virtual = false;
};

std::string Describe(const SchemaObject& o) {
  return o.type == "index" ? fmt::format("index {} (table {})", o.name, o.table) : o.type + " " + o.name;
}

std::string Quoted(const std::string& name) {
  std::string out = "'";
  for (char c : name) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// The tables and indexes the problem lines name: "index X", "Tree <root page>", "Page <n>" (the
// last through the dbstat table when this SQLite has it).
class DamageNamer {
 public:
  DamageNamer(sqlite::Database& db, const std::vector<SchemaObject>& objects,
              const std::map<int64_t, size_t>& by_root)
      : db_(db), objects_(objects), by_root_(by_root) {}

  void Name(const std::string& line, std::set<std::string>& out) {
    static const std::regex kIndex(R"(index (\S+))"), kTree(R"(Tree (\d+))"), kPage(R"([Pp]age (\d+))");
    std::smatch m;
    if (std::regex_search(line, m, kIndex)) {
      for (const SchemaObject& o : objects_) {
        if (o.name == m[1].str()) out.insert(Describe(o));
      }
    }
    if (std::regex_search(line, m, kTree)) AddRoot(std::stoll(m[1].str()), out);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kPage); it != std::sregex_iterator(); ++it) {
      const int64_t page = std::stoll((*it)[1].str());
      if (by_root_.count(page) > 0) {
        AddRoot(page, out);
        continue;
      }
      LoadPages();
      auto owner = page_owner_.find(page);
      if (owner != page_owner_.end()) out.insert(owner->second);
    }
  }

 private:
  void AddRoot(int64_t root, std::set<std::string>& out) {
    auto it = by_root_.find(root);
    if (it != by_root_.end()) out.insert(Describe(objects_[it->second]));
  }
  // One pass over dbstat (which walks every tree; on a damaged one it stops where the walk does).
  void LoadPages() {
    if (pages_loaded_) return;
    pages_loaded_ = true;
    auto st = sqlite::Statement::Prepare(db_.handle(), "SELECT name, pageno FROM dbstat");
    if (!st) return;  // not compiled in
    std::map<std::string, std::string> described;
    for (const SchemaObject& o : objects_) described[o.name] = Describe(o);
    while (true) {
      auto row = st->Step();
      if (!row || !*row) break;
      auto d = described.find(st->Text(0));
      page_owner_[st->Int(1)] = d != described.end() ? d->second : st->Text(0);
    }
  }

  sqlite::Database& db_;
  const std::vector<SchemaObject>& objects_;
  const std::map<int64_t, size_t>& by_root_;
  bool pages_loaded_ = false;
  std::map<int64_t, std::string> page_owner_;
};

// Reads every column of every row of `table` (overflow pages included).
TableHealth ScanTable(sqlite::Database& db, const std::string& table) {
  TableHealth health;
  health.name = table;
  std::string sql = "SELECT * FROM \"";
  for (char c : table) sql += c == '"' ? std::string("\"\"") : std::string(1, c);
  sql += "\"";
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt, nullptr);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) (void)sqlite3_column_bytes(stmt, i);
      ++health.rows;
    }
  }
  if (rc != SQLITE_DONE) health.error = sqlite3_errmsg(db.handle());
  sqlite3_finalize(stmt);
  return health;
}

bool HeaderSaysWal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[20] = {};
  return in.read(header, sizeof(header)) && header[18] == 2;
}

// Discards what is written (the export dry run).
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c == traits_type::eof() ? 0 : c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

class Diagnosis {
 public:
  explicit Diagnosis(sqlite::Database& db) : db_(db), store_(db) {}

  // The library engram runs on (store/sqlite/sqlite_version.h): an affected one is a problem even
  // when Options::allow_affected_sqlite let the database open.
  void CheckSqliteVersion() {
    report_.sqlite_version = sqlite::RunningSqliteVersion();
    Check("sqlite_version", sqlite::HasWalResetBug(sqlite3_libversion_number())
                                ? report_.sqlite_version + " has the WAL-reset bug (committed writes can be lost)"
                                : "");
  }

  DoctorReport Run() {
    auto version = db_.QueryInt("PRAGMA user_version");
    if (!version) return Fail("header", version.error());
    report_.schema_version = static_cast<int>(*version);
    Check("schema_version", *version == sqlite::kSchemaVersion
                                ? ""
                                : fmt::format("{} (expected {})", *version, sqlite::kSchemaVersion));
    auto mode = db_.QueryText("PRAGMA journal_mode");
    if (!mode) return Fail("journal_mode", mode.error());
    // An immutable open (a read-only folder) reports "delete" whatever the file is: byte 18 of the
    // header (the write version, 2 = WAL) says what it is.
    if (*mode != "wal" && HeaderSaysWal(db_.path())) *mode = "wal";
    report_.journal_mode = *mode;
    Check("journal_mode", *mode == "wal" ? "" : *mode + " (expected wal)");
    CheckSqliteVersion();
    Status schema = ReadSchema();
    if (!schema.ok()) return Fail("schema", schema);
    CheckIntegrity();
    CheckFulltext();
    auto invariants = store_.CheckInvariants();
    std::string joined = invariants ? "" : "cannot run: " + invariants.error().message();
    if (invariants) {
      for (const std::string& p : *invariants) joined += (joined.empty() ? "" : "; ") + p;
    }
    Check("invariants", joined);
    auto stats = store_.Stats();
    if (stats) {
      report_.stats = std::move(*stats);
    } else {
      Check("stats", "cannot be counted: " + stats.error().message());
    }
    if (!report_.problems.empty()) DescribeWhatReads();
    report_.ok = report_.problems.empty();
    return report_;
  }

 private:
  void Check(const std::string& name, const std::string& problem) {
    report_.checks.push_back(name + ": " + (problem.empty() ? "ok" : problem));
    if (!problem.empty()) report_.problems.push_back(name + ": " + problem);
  }

  DoctorReport Fail(const std::string& name, const Status& st) {
    Check(name, st.message());
    report_.ok = false;
    return report_;
  }

  Status ReadSchema() {
    auto st = sqlite::Statement::Prepare(
        db_.handle(), "SELECT type, name, tbl_name, rootpage, coalesce(sql, '') FROM sqlite_schema");
    if (!st) return st.error();
    while (true) {
      auto row = st->Step();
      if (!row) return row.error();
      if (!*row) break;
      const std::string type = st->Text(0);
      if (type != "table" && type != "index") continue;
      SchemaObject o{type, st->Text(1), st->Text(2), st->Text(4).rfind("CREATE VIRTUAL", 0) == 0};
      if (st->Int(3) > 0) by_root_[st->Int(3)] = objects_.size();
      objects_.push_back(std::move(o));
    }
    return Status::Ok();
  }

  // integrity_check over the file; when it stops or complains, quick_check (it keeps going past
  // a bad page) and integrity_check table by table say where.
  void CheckIntegrity() {
    Lines whole = RowsOf(db_, "PRAGMA integrity_check(200)");
    if (whole.ok()) return Check("integrity_check", "");
    std::set<std::string> damaged;
    DamageNamer namer(db_, objects_, by_root_);
    auto take = [&](const Lines& l, const std::string& label) {
      for (const std::string& line : l.lines) {
        if (line == "ok") continue;
        report_.integrity.push_back(label + line);
        namer.Name(line, damaged);
      }
      if (!l.error.empty()) report_.integrity.push_back(label + "stopped: " + l.error);
    };
    take(RowsOf(db_, "PRAGMA quick_check(200)"), "quick_check: ");
    for (const SchemaObject& o : objects_) {
      if (o.type != "table" || o.is_virtual) continue;
      Lines one = RowsOf(db_, "PRAGMA integrity_check(" + Quoted(o.name) + ")");
      if (one.ok()) continue;
      damaged.insert(Describe(o));
      take(one, "integrity_check(" + o.name + "): ");
    }
    if (report_.integrity.empty()) take(whole, "integrity_check: ");
    report_.damaged.assign(damaged.begin(), damaged.end());
    std::string names;
    for (const std::string& d : report_.damaged) names += (names.empty() ? "" : ", ") + d;
    Check("integrity_check", fmt::format("{} problem(s){}", report_.integrity.size(),
                                         names.empty() ? "" : " in " + names));
  }

  void CheckFulltext() {
    if (sqlite3_libversion_number() >= kIntegrityCoversFts5) {
      report_.checks.push_back("fulltext_index: checked by integrity_check");
      return;
    }
    report_.checks.push_back(fmt::format(
        "fulltext_index: not checked: SQLite {} runs FTS5's integrity-check only as a write (3.45.1 and "
        "later check it inside integrity_check, read-only); the invariants still compare its rows",
        sqlite3_libversion()));
  }

  void DescribeWhatReads() {
    for (const SchemaObject& o : objects_) {
      if (o.type == "table" && !o.is_virtual) report_.tables.push_back(ScanTable(db_, o.name));
    }
    NullBuffer discard;
    std::ostream out(&discard);
    auto counts = ExportDump(db_, "", out);
    report_.export_check =
        counts ? fmt::format("ok: every exported row reads ({} namespaces, {} sessions, {} events, {} claims, {} "
                             "tombstones); `engram export --salvage` writes them",
                             counts->namespaces, counts->sessions, counts->events, counts->claims, counts->tombstones)
               : "stops: " + counts.error().message();
  }

  sqlite::Database& db_;
  sqlite::EventStore store_;
  DoctorReport report_;
  std::vector<SchemaObject> objects_;
  std::map<int64_t, size_t> by_root_;
};

}  // namespace

Result<DoctorReport> Diagnose(sqlite::Database& db) { return Diagnosis(db).Run(); }

namespace {

std::vector<std::string> PragmaProblems(sqlite::Database& db, std::string_view pragma, int limit) {
  Lines l = RowsOf(db, fmt::format("PRAGMA {}({})", pragma, limit));
  std::vector<std::string> problems;
  for (const std::string& line : l.lines) {
    if (line != "ok") problems.push_back(line);
  }
  if (!l.error.empty()) problems.push_back(l.error);
  return problems;
}

}  // namespace

std::vector<std::string> QuickCheckProblems(sqlite::Database& db, int limit) {
  return PragmaProblems(db, "quick_check", limit);
}

std::vector<std::string> IntegrityCheckProblems(sqlite::Database& db, int limit) {
  return PragmaProblems(db, "integrity_check", limit);
}

DoctorReport UnreadableFileReport(const Status& why) {
  DoctorReport report;
  report.sqlite_version = sqlite::RunningSqliteVersion();
  report.checks.push_back("file: " + why.message());
  report.problems.push_back("file: " + why.message());
  report.export_check = "stops: the file is not a database";
  return report;
}

}  // namespace engram::lifecycle
