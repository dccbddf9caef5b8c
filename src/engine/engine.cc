// engine/engine.cc — the Engine facade: opens the store, serialises calls on one connection and
// routes them to the write and recall layers.
#include "engram/engine.h"

#include <cstdlib>
#include <fmt/format.h>
#include <mutex>

#include "recall/event_recall.h"
#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/schema.h"
#include "text/analyzer.h"
#include "util/time.h"
#include "write/event_validation.h"

namespace engram {

std::string DefaultDatabasePath() {
  if (const char* env = std::getenv("ENGRAM_DB"); env != nullptr && *env != '\0') return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::string(xdg) + "/engram/engram.db";
  }
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : ".") + "/.local/share/engram/engram.db";
}

namespace {

class EngineImpl final : public Engine {
 public:
  EngineImpl(std::unique_ptr<sqlite::Database> db, std::unique_ptr<text::Analyzer> analyzer,
             const Options& options)
      : db_(std::move(db)), store_(*db_), analyzer_(std::move(analyzer)), options_(options) {}

  Result<IngestResult> Ingest(const EventInput& input) override {
    auto row = ValidateEventInput(input, NowMs());
    if (!row) return Error(row.error());
    std::lock_guard<std::mutex> lock(mu_);
    IngestResult result;
    Status st = db_->WriteTransaction([&]() -> Status {
      auto r = StoreRow(*row);
      if (!r) return r.error();
      result = std::move(*r);
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return result;
  }

  Result<std::vector<IngestResult>> IngestBatch(const std::vector<EventInput>& inputs) override {
    std::vector<sqlite::EventRow> rows;
    rows.reserve(inputs.size());
    TimestampMs now = NowMs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto row = ValidateEventInput(inputs[i], now);
      if (!row) return Error(row.error().WithContext(fmt::format("event {}", i)));
      rows.push_back(std::move(*row));
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<IngestResult> results;
    Status st = db_->WriteTransaction([&]() -> Status {
      results.clear();
      for (size_t i = 0; i < rows.size(); ++i) {
        auto r = StoreRow(rows[i]);
        if (!r) return r.error().WithContext(fmt::format("event {}", i));
        results.push_back(std::move(*r));
      }
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return results;
  }

  Result<Event> GetEvent(std::string_view id) override {
    std::lock_guard<std::mutex> lock(mu_);
    return store_.Get(id);
  }

  Result<RecallResult> Recall(const RecallQuery& query) override {
    std::lock_guard<std::mutex> lock(mu_);
    RecallContext ctx{*db_, store_, *analyzer_, options_};
    return RecallEvents(ctx, query);
  }

  Result<std::vector<SessionInfo>> ListSessions(const ListSessionsQuery& query) override {
    if (query.limit < 1 || query.limit > 1000) {
      return Error(Status::InvalidArgument(fmt::format("field \"limit\": {} is outside 1–1000", query.limit)));
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<int64_t> ns;
    if (!query.namespace_name.empty()) {
      auto found = store_.FindNamespace(query.namespace_name);
      if (!found) return Error(found.error());
      if (!found->has_value()) return std::vector<SessionInfo>{};
      ns = **found;
    }
    return store_.ListSessions(ns, query.limit);
  }

  Result<SessionSearchResult> SearchSessions(const SessionSearchQuery& query) override {
    std::lock_guard<std::mutex> lock(mu_);
    RecallContext ctx{*db_, store_, *analyzer_, options_};
    return engram::SearchSessions(ctx, query);
  }

  Result<DoctorReport> Doctor() override {
    std::lock_guard<std::mutex> lock(mu_);
    DoctorReport report;
    auto check = [&](const std::string& name, const std::string& problem) {
      if (problem.empty()) {
        report.checks.push_back(name + ": ok");
      } else {
        report.checks.push_back(name + ": " + problem);
        report.problems.push_back(name + ": " + problem);
      }
    };
    auto version = db_->QueryInt("PRAGMA user_version");
    if (!version) return Error(version.error());
    report.schema_version = static_cast<int>(*version);
    check("schema_version", *version == sqlite::kSchemaVersion
                                ? ""
                                : fmt::format("{} (expected {})", *version, sqlite::kSchemaVersion));
    auto mode = db_->QueryText("PRAGMA journal_mode");
    if (!mode) return Error(mode.error());
    report.journal_mode = *mode;
    check("journal_mode", *mode == "wal" ? "" : *mode + " (expected wal)");

    auto integrity = sqlite::Statement::Prepare(db_->handle(), "PRAGMA integrity_check");
    if (!integrity) return Error(integrity.error());
    std::string integrity_problems;
    while (true) {
      auto row = integrity->Step();
      if (!row) return Error(row.error());
      if (!*row) break;
      std::string line = integrity->Text(0);
      if (line != "ok") integrity_problems += (integrity_problems.empty() ? "" : "; ") + line;
    }
    check("integrity_check", integrity_problems);

    Status fts = db_->WriteTransaction([&] {
      return db_->Exec("INSERT INTO event_fts(event_fts) VALUES ('integrity-check')");
    });
    check("fulltext_index", fts.ok() ? "" : fts.message());

    auto invariants = store_.CheckInvariants();
    if (!invariants) return Error(invariants.error());
    std::string joined;
    for (const std::string& p : *invariants) joined += (joined.empty() ? "" : "; ") + p;
    check("invariants", joined);

    auto stats = store_.Stats();
    if (!stats) return Error(stats.error());
    report.stats = std::move(*stats);
    report.ok = report.problems.empty();
    return report;
  }

  Result<StoreStats> Stats() override {
    std::lock_guard<std::mutex> lock(mu_);
    return store_.Stats();
  }

 private:
  // Stores one validated row inside the caller's write transaction (idempotent on its key).
  Result<IngestResult> StoreRow(const sqlite::EventRow& row) {
    const Event& e = row.event;
    auto ns = store_.EnsureNamespace(e.namespace_name, e.recorded_at);
    if (!ns) return Error(ns.error());
    auto existing = store_.FindByIdempotencyKey(*ns, e.idempotency_key);
    if (!existing) return Error(existing.error());
    if (existing->has_value()) return IngestResult{std::move(**existing), true};
    auto session = store_.EnsureSession(*ns, row, e.recorded_at);
    if (!session) return Error(session.error());
    ENGRAM_RETURN_IF_ERROR(store_.Insert(*ns, *session, row));
    return IngestResult{e, false};
  }

  std::mutex mu_;
  std::unique_ptr<sqlite::Database> db_;
  sqlite::EventStore store_;
  std::unique_ptr<text::Analyzer> analyzer_;
  Options options_;
};

}  // namespace

Status Engine::ValidateEvent(const EventInput& input) {
  auto row = ValidateEventInput(input, NowMs());
  return row ? Status::Ok() : row.error();
}

Result<std::unique_ptr<Engine>> Engine::Open(const Options& options) {
  auto db = sqlite::Database::Open(options);
  if (!db) return Error(db.error());
  ENGRAM_RETURN_IF_ERROR(sqlite::RegisterFts5Extensions((*db)->handle()));
  ENGRAM_RETURN_IF_ERROR(sqlite::Migrate(**db, options.analysis));
  auto analysis = sqlite::StoredTextAnalysis(**db);
  if (!analysis) return Error(analysis.error());
  auto analyzer = text::Analyzer::Create(*analysis);
  if (!analyzer) return Error(analyzer.error());
  return std::unique_ptr<Engine>(new EngineImpl(std::move(*db), std::move(*analyzer), options));
}

}  // namespace engram
