// capture/capture_journal.cc — see capture_journal.h.
#include "capture/capture_journal.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "engram/options.h"
#include "store/sqlite/database.h"
#include "util/sha256.h"

// Declares or assigns `lhs` from the Result `expr`, returning its error when there is one.
#define JOURNAL_CONCAT_(a, b) a##b
#define JOURNAL_CONCAT(a, b) JOURNAL_CONCAT_(a, b)
#define ENGRAM_ASSIGN_OR_RETURN(lhs, expr)                                      \
  auto JOURNAL_CONCAT(result_, __LINE__) = (expr);                              \
  if (!JOURNAL_CONCAT(result_, __LINE__))                                       \
    return ::engram::internal::ErrorReturn{JOURNAL_CONCAT(result_, __LINE__).error()}; \
  lhs = std::move(*JOURNAL_CONCAT(result_, __LINE__))

namespace engram::capture {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS captures (
  seq INTEGER PRIMARY KEY,
  capture_id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  delivered_at INTEGER,
  event_id TEXT
);
CREATE INDEX IF NOT EXISTS captures_due ON captures (next_attempt_at, seq) WHERE state = 'pending';
CREATE TABLE IF NOT EXISTS payloads (
  sha256 TEXT PRIMARY KEY,
  bytes BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS payload_refs (
  seq INTEGER NOT NULL REFERENCES captures (seq),
  sha256 TEXT NOT NULL,
  PRIMARY KEY (seq, sha256)
);
CREATE INDEX IF NOT EXISTS payload_refs_sha256 ON payload_refs (sha256);
)sql";

constexpr std::string_view kRefPrefix = "sha256:";

// 0.25 s × 2^(attempts-1), at most 60 s.
TimestampMs Backoff(int attempts) {
  const int shift = std::clamp(attempts - 1, 0, 20);
  return std::min<TimestampMs>(60'000, TimestampMs{250} << shift);
}

}  // namespace

CaptureJournal::CaptureJournal(std::unique_ptr<sqlite::Database> db) : db_(std::move(db)) {}
CaptureJournal::~CaptureJournal() = default;

Result<std::unique_ptr<CaptureJournal>> CaptureJournal::Open(const std::string& path) {
  std::error_code ec;
  // A journal created by a process killed before SQLite wrote its header is an empty file: nothing
  // was ever committed to it, and SQLite (and engram's open checks) would refuse it.
  if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0 && !ec) {
    std::filesystem::remove(path, ec);
  }
  Options options;
  options.db_path = path;
  options.open_mode = OpenMode::kCreate;
  options.busy_timeout_ms = 5000;
  auto db = sqlite::Database::Open(options);
  if (!db) return Error(db.error());
  ENGRAM_RETURN_IF_ERROR((*db)->Exec(kSchema));
  return std::unique_ptr<CaptureJournal>(new CaptureJournal(std::move(*db)));
}

Result<std::string> CaptureJournal::StorePayload(const std::string& bytes) {
  const std::string hash = Sha256Hex(bytes);
  ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                          db_->Cached("INSERT OR IGNORE INTO payloads (sha256, bytes) VALUES (?, ?)"));
  ENGRAM_RETURN_IF_ERROR(st->Bind(1, hash).Bind(2, std::string_view(bytes)).Run());
  return std::string(kRefPrefix) + hash;
}

Status CaptureJournal::AddRefs(const ToolCallRecord& r) {
  ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                          db_->Cached("INSERT OR IGNORE INTO payload_refs (seq, sha256) SELECT seq, ? FROM captures "
                                      "WHERE capture_id = ?"));
  for (const std::string* ref : {&r.args_ref, &r.result_ref}) {
    if (ref->empty()) continue;
    ENGRAM_RETURN_IF_ERROR(st->Bind(1, std::string_view(*ref).substr(kRefPrefix.size())).Bind(2, r.capture_id).Run());
    st->Reset();
  }
  return Status::Ok();
}

Status CaptureJournal::Insert(const ToolCallRecord& call, const PayloadPolicy& policy) {
  ToolCallRecord r = call;
  r.args_json.clear();
  r.result_json.clear();
  if (policy.keep) {
    auto keep = [&](const std::string& payload, std::string* inline_out, std::string* ref_out) -> Status {
      if (payload.size() <= policy.inline_bytes) {
        *inline_out = payload;
        return Status::Ok();
      }
      ENGRAM_ASSIGN_OR_RETURN(*ref_out, StorePayload(payload));
      return Status::Ok();
    };
    ENGRAM_RETURN_IF_ERROR(keep(call.args_json, &r.args_json, &r.args_ref));
    ENGRAM_RETURN_IF_ERROR(keep(call.result_json, &r.result_json, &r.result_ref));
  }
  ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                          db_->Cached("INSERT OR IGNORE INTO captures (capture_id, record) VALUES (?, ?)"));
  ENGRAM_RETURN_IF_ERROR(st->Bind(1, r.capture_id).Bind(2, ToJson(r).dump()).Run());
  return AddRefs(r);
}

Status CaptureJournal::Append(const ToolCallRecord& call, const PayloadPolicy& policy) {
  return db_->WriteTransaction([&]() -> Status { return Insert(call, policy); });
}

Status CaptureJournal::AppendAll(const std::vector<ToolCallRecord>& calls, const PayloadPolicy& policy) {
  if (calls.empty()) return Status::Ok();
  return db_->WriteTransaction([&]() -> Status {
    for (const ToolCallRecord& call : calls) ENGRAM_RETURN_IF_ERROR(Insert(call, policy));
    return Status::Ok();
  });
}

Result<std::vector<JournalEntry>> CaptureJournal::Due(TimestampMs now_ms, int limit) {
  ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                          db_->Cached("SELECT seq, record, attempts FROM captures WHERE state = 'pending' AND "
                                      "next_attempt_at <= ? ORDER BY seq LIMIT ?"));
  st->Bind(1, int64_t{now_ms}).Bind(2, int64_t{limit});
  std::vector<JournalEntry> out;
  while (true) {
    ENGRAM_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    const nlohmann::json j = nlohmann::json::parse(st->Text(1), nullptr, /*allow_exceptions=*/false);
    auto record = FromJson(j);
    if (!record) {
      st->Reset();
      return Error(Status::Corruption(fmt::format("capture journal record {}: {}", st->Int(0), record.error().message())));
    }
    out.push_back({st->Int(0), std::move(*record), static_cast<int>(st->Int(2))});
  }
  st->Reset();
  return out;
}

Status CaptureJournal::MarkDelivered(const std::vector<std::pair<int64_t, std::string>>& acks, TimestampMs now_ms) {
  if (acks.empty()) return Status::Ok();
  return db_->WriteTransaction([&]() -> Status {
    ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                            db_->Cached("UPDATE captures SET state = 'delivered', delivered_at = ?, event_id = ?, "
                                        "last_error = NULL, record = '' WHERE seq = ?"));
    for (const auto& [seq, event_id] : acks) {
      ENGRAM_RETURN_IF_ERROR(st->Bind(1, int64_t{now_ms}).Bind(2, event_id).Bind(3, seq).Run());
      st->Reset();
    }
    return Status::Ok();
  });
}

Status CaptureJournal::MarkFailed(int64_t seq, const std::string& error, bool permanent, TimestampMs now_ms) {
  return db_->WriteTransaction([&]() -> Status {
    ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * get, db_->Cached("SELECT attempts FROM captures WHERE seq = ?"));
    get->Bind(1, seq);
    ENGRAM_ASSIGN_OR_RETURN(bool found, get->Step());
    const int attempts = found ? static_cast<int>(get->Int(0)) + 1 : 0;
    get->Reset();
    if (!found) return Status::NotFound(fmt::format("no capture record {}", seq));
    const bool dead = permanent || attempts >= kMaxDeliveryAttempts;
    ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                            db_->Cached("UPDATE captures SET attempts = ?, last_error = ?, next_attempt_at = ?, "
                                        "state = ? WHERE seq = ?"));
    return st->Bind(1, int64_t{attempts})
        .Bind(2, error)
        .Bind(3, int64_t{now_ms + Backoff(attempts)})
        .Bind(4, std::string_view(dead ? "dead" : "pending"))
        .Bind(5, seq)
        .Run();
  });
}

Result<int64_t> CaptureJournal::RetryDead() {
  int64_t changed = 0;
  ENGRAM_RETURN_IF_ERROR(db_->WriteTransaction([&]() -> Status {
    ENGRAM_RETURN_IF_ERROR(
        db_->Exec("UPDATE captures SET state = 'pending', attempts = 0, next_attempt_at = 0 WHERE state = 'dead'"));
    changed = sqlite3_changes64(db_->handle());
    return Status::Ok();
  }));
  return changed;
}

Result<JournalCounts> CaptureJournal::Counts() {
  JournalCounts c;
  ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                          db_->Cached("SELECT state, count(*) FROM captures GROUP BY state"));
  while (true) {
    ENGRAM_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    const std::string state = st->Text(0);
    (state == "pending" ? c.pending : state == "delivered" ? c.delivered : c.dead) = st->Int(1);
  }
  st->Reset();
  ENGRAM_ASSIGN_OR_RETURN(c.payloads, db_->QueryInt("SELECT count(*) FROM payloads"));
  ENGRAM_ASSIGN_OR_RETURN(c.payload_bytes, db_->QueryInt("SELECT coalesce(sum(length(bytes)), 0) FROM payloads"));
  return c;
}

Result<std::vector<DeadLetter>> CaptureJournal::DeadLetters(int limit) {
  ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                          db_->Cached("SELECT seq, capture_id, json_extract(record, '$.tool_name'), attempts, "
                                      "coalesce(last_error, '') FROM captures WHERE state = 'dead' ORDER BY seq LIMIT ?"));
  st->Bind(1, int64_t{limit});
  std::vector<DeadLetter> out;
  while (true) {
    ENGRAM_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    out.push_back({st->Int(0), st->Text(1), st->Text(2), static_cast<int>(st->Int(3)), st->Text(4)});
  }
  st->Reset();
  return out;
}

Result<std::string> CaptureJournal::Payload(const std::string& ref) {
  if (ref.rfind(kRefPrefix, 0) != 0) {
    return Error(Status::InvalidArgument(fmt::format("\"{}\" is not a payload reference (sha256:<hex>)", ref)));
  }
  ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st, db_->Cached("SELECT bytes FROM payloads WHERE sha256 = ?"));
  st->Bind(1, std::string_view(ref).substr(kRefPrefix.size()));
  ENGRAM_ASSIGN_OR_RETURN(bool row, st->Step());
  std::string bytes = row ? std::string(st->Blob(0)) : "";
  st->Reset();
  if (!row) return Error(Status::NotFound(fmt::format("no payload {} in this journal", ref)));
  return bytes;
}

Result<PruneReport> CaptureJournal::PruneForgotten(const std::function<Result<bool>(const std::string&)>& is_live) {
  // The delivered records that still hold payloads, and their events.
  std::vector<std::pair<int64_t, std::string>> holders;
  {
    ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * st,
                            db_->Cached("SELECT DISTINCT c.seq, c.event_id FROM captures c JOIN payload_refs r ON "
                                        "r.seq = c.seq WHERE c.state = 'delivered'"));
    while (true) {
      ENGRAM_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      holders.emplace_back(st->Int(0), st->Text(1));
    }
    st->Reset();
  }
  std::vector<int64_t> forgotten;
  for (const auto& [seq, event_id] : holders) {
    ENGRAM_ASSIGN_OR_RETURN(bool live, is_live(event_id));
    if (!live) forgotten.push_back(seq);
  }
  PruneReport report{.forgotten_calls = static_cast<int64_t>(forgotten.size())};
  if (forgotten.empty()) return report;
  ENGRAM_RETURN_IF_ERROR(db_->WriteTransaction([&]() -> Status {
    ENGRAM_ASSIGN_OR_RETURN(sqlite::Statement * refs, db_->Cached("DELETE FROM payload_refs WHERE seq = ?"));
    for (int64_t seq : forgotten) {
      ENGRAM_RETURN_IF_ERROR(refs->Bind(1, seq).Run());
      refs->Reset();
    }
    ENGRAM_RETURN_IF_ERROR(db_->Exec(
        "DELETE FROM payloads WHERE NOT EXISTS (SELECT 1 FROM payload_refs r WHERE r.sha256 = payloads.sha256)"));
    report.payloads_deleted = sqlite3_changes64(db_->handle());
    return Status::Ok();
  }));
  return report;
}

Result<TimestampMs> CaptureJournal::NextDue() {
  ENGRAM_ASSIGN_OR_RETURN(int64_t due,
                          db_->QueryInt("SELECT coalesce(min(next_attempt_at), 0) FROM captures WHERE state = 'pending'"));
  return TimestampMs{due};
}

}  // namespace engram::capture
