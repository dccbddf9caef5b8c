// The admin group: whole-file operations (counts, integrity, extraction jobs, maintenance, export
// and import, backup, compaction, the audit trail) and re-embedding one namespace. Admin access
// only.
//
// Not capabilities, and so CLI-only: `restore` (it needs the live database closed, and every
// capability runs on an open Engine), `models install` (it writes a model file of this machine)
// and `ingest --format locomo` (it reads a local file of a benchmark's format).
#include <fmt/format.h>

#include <sstream>

#include "api/common.h"
#include "api/groups.h"
#include "api/page.h"
#include "util/time.h"

namespace engram::api {
namespace {

// ---- jobs and extraction -----------------------------------------------------------------------

Result<Reply> RunListJobs(Engine& engine, const Args& args, const CallContext&) {
  std::vector<JobInfo> page;
  auto next = FetchPage(
      args, page,
      [&](int limit, int64_t after) {
        return engine.ListJobs(ListJobsQuery{.status = args.String("status"), .limit = limit, .after_id = after});
      },
      [](const JobInfo& j) { return j.id; });
  if (!next) return Error(next.error());
  OrderedJson items = OrderedJson::array();
  for (const JobInfo& j : page) items.push_back(JobInfoToJson(j));
  return Reply{.body = {{"items", std::move(items)}, {"next_cursor", std::move(*next)}}};
}

Result<Reply> RunRetryJobs(Engine& engine, const Args& args, const CallContext&) {
  auto n = engine.RetryJobs(args.Int("id"));
  if (!n) return Error(n.error());
  return Reply{.body = {{"retried", *n}}};
}

Result<Reply> RunProcess(Engine& engine, const Args& args, const CallContext&) {
  auto report = engine.Process(args.Bool("drain"));
  if (!report) return Error(report.error());
  return Reply{.body = ProcessReportToJson(*report)};
}

// ---- maintenance ---------------------------------------------------------------------------------

Result<Reply> RunMaintain(Engine& engine, const Args& args, const CallContext&) {
  MaintainRequest request;
  auto scope = ScopeOf(args);
  if (!scope) return Error(scope.error());
  request.namespace_name = scope->namespace_name;
  request.all_namespaces = scope->all_namespaces;
  auto now = args.Time("now");
  if (!now) return Error(now.error());
  request.now = *now;  // the actor stays "maintain" (claim history says "archived by maintain")
  auto report = engine.Maintain(request);
  if (!report) return Error(report.error());
  return Reply{.body = MaintainReportToJson(*report)};
}

Result<Reply> RunCompact(Engine& engine, const Args&, const CallContext&) {
  auto r = engine.Compact();
  if (!r) return Error(r.error());
  return Reply{.body = CompactReportToJson(*r)};
}

Result<Reply> RunReindex(Engine& engine, const Args& args, const CallContext&) {
  auto n = engine.Reindex(args.String("namespace"));
  if (!n) return Error(n.error());
  return Reply{.body = {{"namespace", args.String("namespace")}, {"embedded", *n}}};
}

// ---- export, import, backup --------------------------------------------------------------------

// The dump in Reply::raw (JSONL); the body says what was written. With salvage, a damaged
// database still gives every line that reads: the body then has "damaged": true and the error
// (the faces report it after the dump; the CLI exits with the corruption code).
Result<Reply> RunExport(Engine& engine, const Args& args, const CallContext&) {
  auto scope = ScopeOf(args);
  if (!scope) return Error(scope.error());
  const bool salvage = args.Bool("salvage");
  std::ostringstream out;
  auto counts = salvage ? engine.Salvage(*scope, out) : engine.Export(*scope, out);
  const bool damaged = !counts && salvage && counts.error().code() == StatusCode::kCorruption;
  if (!counts && !damaged) return Error(counts.error());
  Reply reply{.raw = std::move(out).str(), .content_type = "application/x-ndjson"};
  reply.body = {{"namespace", scope->all_namespaces ? OrderedJson() : OrderedJson(scope->namespace_name)},
                {"exported", counts ? DumpCountsToJson(*counts) : OrderedJson()},
                {"damaged", damaged}};
  if (damaged) reply.body["error"] = StatusToJson(counts.error())["error"];
  return reply;
}

Result<Reply> RunImport(Engine& engine, const Args& args, const CallContext&) {
  std::istringstream in(args.String("dump"));
  auto r = engine.Import(in);
  if (!r) return Error(r.error());
  return Reply{.body = {{"imported", DumpCountsToJson(r->imported)},
                        {"skipped_forgotten", r->skipped_forgotten},
                        {"skipped_existing", r->skipped_existing}}};
}

Result<Reply> RunBackup(Engine& engine, const Args& args, const CallContext& context) {
  auto path = ResolveFilePath(context, args.String("path"));
  if (!path) return Error(path.error());
  auto m = engine.Backup(*path);
  if (!m) return Error(m.error());
  return Reply{.body = {{"backup", args.String("path")}, {"manifest", ManifestToJson(*m)}}, .http_status = 201};
}

// Reads only the backup; the Engine is not used (the CLI calls Engine::VerifyBackup itself, as
// `restore --verify-only` must work without a live database).
Result<Reply> RunVerifyBackup(Engine&, const Args& args, const CallContext& context) {
  auto path = ResolveFilePath(context, args.String("path"));
  if (!path) return Error(path.error());
  auto m = Engine::VerifyBackup(*path);
  if (!m) return Error(m.error());
  return Reply{.body = VerifiedBackupToJson(args.String("path"), *m)};
}

// ---- audit ---------------------------------------------------------------------------------------

// A page of the audit rows (the cursor pages them); the object's tombstones (an object has one or
// two) come whole with every page.
Result<Reply> RunAuditTrail(Engine& engine, const Args& args, const CallContext&) {
  const std::string id = args.String("id");
  std::vector<AuditEntry> audit;
  auto next = FetchPage(
      args, audit,
      [&](int limit, int64_t after) {
        return engine.AuditTrail(AuditQuery{.object_id = id, .limit = limit, .after_seq = after});
      },
      [](const AuditEntry& a) { return a.seq; });
  if (!next) return Error(next.error());
  auto tombstones = engine.ListTombstones({.object_id = id, .limit = 100000, .all_namespaces = true});
  if (!tombstones) return Error(tombstones.error());
  if (audit.empty() && tombstones->empty() && !args.Has("cursor")) {
    return Error(Status::NotFound(fmt::format("no audit rows or tombstones for id \"{}\"", id)));
  }
  OrderedJson entries = OrderedJson::array();
  for (const AuditEntry& a : audit) entries.push_back(AuditEntryToJson(a));
  OrderedJson tombs = OrderedJson::array();
  for (const Tombstone& t : *tombstones) tombs.push_back(TombstoneToJson(t));
  return Reply{.body = {{"id", id}, {"forgotten", !tombstones->empty()}, {"tombstones", std::move(tombs)},
                        {"audit", std::move(entries)}, {"next_cursor", std::move(*next)}}};
}

// ---- descriptions --------------------------------------------------------------------------------

ParamSpec PathParam(const char* description) {
  return {.name = "path", .description = description, .required = true, .max_length = 4096};
}

OrderedJson CountsSchema() {
  return Object({{"namespaces", IntegerType()}, {"sessions", IntegerType()}, {"tombstones", IntegerType()},
                 {"events", IntegerType()}, {"claims", IntegerType()}});
}

OrderedJson ManifestSchema() {
  return Object({{"schema_version", IntegerType()}, {"created_at", StringType("ISO-8601 UTC")},
                 {"engram_version", StringType()}, {"file_bytes", IntegerType("bytes")},
                 {"file_xxh3", StringType("XXH3-128 of the file, 32 hex digits")},
                 {"tombstone_count", IntegerType()}, {"max_tombstone_id", StringType()},
                 {"ledger_xxh3", StringType()}},
                {"schema_version", "file_bytes", "file_xxh3"});
}

// A whole-file capability: admin access, no namespace (routes under /v1/admin).
Capability Admin(Capability c) {
  c.group = "admin";
  c.access = Access::kAdmin;
  c.namespaced = false;
  return c;
}

Capability ListJobs() {
  return Admin({.name = "list_jobs",
                .description = "Extraction jobs of every namespace, newest last: pending, leased (with the lease's "
                               "owner and whether it is stale) or failed.",
                .params = {{.name = "status", .description = "only this status (default: every status but done)",
                            .enum_values = {"pending", "leased", "done", "failed"}, .in = ParamIn::kQuery},
                           LimitParam(100, 10000), CursorParam()},
                .result_schema = PageSchema(AnyObject("a job: id, kind, status, namespace, session_id, event_id, "
                                                      "attempts, last_error, updated_at, lease?"),
                                            /*namespaced=*/false),
                .handler = RunListJobs,
                .rest = {"GET", "/v1/admin/jobs"}});
}

Capability RetryJobs() {
  return Admin({.name = "retry_jobs",
                .description = "Put a failed job (or, with id 0, every failed job) and every stale lease back in the "
                               "queue.",
                .params = {{.name = "id", .type = ParamType::kInteger, .description = "the job id; 0 = every failed job",
                            .minimum = 0, .default_value = 0}},
                .result_schema = Object({{"retried", IntegerType("jobs put back in the queue")}}, {"retried"}),
                .handler = RunRetryJobs,
                .rest = {"POST", "/v1/admin/jobs:retry"}});
}

Capability Process() {
  return Admin({.name = "process",
                .description = "Extract claims from pending events now (a server's worker does this by itself). "
                               "Seconds for a large queue.",
                .params = {{.name = "drain", .type = ParamType::kBoolean,
                            .description = "true: until no job is left; false: one batch", .default_value = true}},
                .result_schema = Object({{"batches", IntegerType()}, {"events", IntegerType()},
                                         {"claims_created", IntegerType()}, {"claims_confirmed", IntegerType()},
                                         {"claims_superseded", IntegerType()}, {"claims_disputed", IntegerType()},
                                         {"candidates_rejected", IntegerType()}, {"jobs_failed", IntegerType()},
                                         {"errors", ArrayOf(StringType())}},
                                        {"batches", "events"}),
                .handler = RunProcess,
                .rest = {"POST", "/v1/admin/process"}});
}

Capability Maintain() {
  return Admin({.name = "maintain",
                .description = "A lifecycle pass: TTL expiry, activation decay, archive and duplicate convergence "
                               "(docs/lifecycle.md), in one namespace or, with all_namespaces, every one.",
                .params = {OptionalNamespaceParam(ParamIn::kBody),
                           {.name = "all_namespaces", .type = ParamType::kBoolean,
                            .description = "true: every namespace (never implied by a missing namespace)",
                            .default_value = false},
                           {.name = "now", .type = ParamType::kTimestamp,
                            .description = "the pass's clock (default now)"}},
                .result_schema = Object({{"now", StringType()},
                                         {"namespaces", ArrayOf(AnyObject("one namespace's counts"))},
                                         {"took_ms", NumberType("ms")}},
                                        {"namespaces"}),
                .handler = RunMaintain,
                .rest = {"POST", "/v1/admin/maintain"}});
}

Capability Compact() {
  return Admin({.name = "compact",
                .description = "Merge the full-text indexes, VACUUM and truncate the WAL, so forgotten bytes leave the "
                               "files. Blocks writers while it runs.",
                .result_schema = Object({{"file_bytes_before", IntegerType("bytes")},
                                         {"file_bytes_after", IntegerType("bytes")}, {"wal_truncated", BooleanType()},
                                         {"took_ms", NumberType("ms")}},
                                        {"file_bytes_before", "file_bytes_after"}),
                .handler = RunCompact,
                .rest = {"POST", "/v1/admin/compact"}});
}

// Namespaced, but admin: it rewrites every vector of the namespace.
Capability Reindex() {
  return {.name = "reindex",
          .group = "admin",
          .description = "Re-embed every event of the namespace with the configured embedder (after a model change). "
                         "Slow: one embedding per event.",
          .access = Access::kAdmin,
          .params = {NamespaceParam()},
          .result_schema = Object({{"namespace", StringType()}, {"embedded", IntegerType("events embedded")}},
                                  {"namespace", "embedded"}),
          .handler = RunReindex,
          .rest = {"POST", "/v1/namespaces/{namespace}/reindex"}};
}

Capability AuditTrail() {
  return Admin({.name = "audit_trail",
                .description = "The audit rows and tombstones of an object (a forgotten event or claim, or a "
                               "tombstone): who changed or forgot it, when and why; never content.",
                .params = {IdParam("an event, claim or tombstone id"), LimitParam(1000, 100000), CursorParam()},
                .result_schema = Object({{"id", StringType()}, {"forgotten", BooleanType()},
                                         {"tombstones", ArrayOf(TombstoneSchema())},
                                         {"audit", ArrayOf(AnyObject("at, action, object_type, actor, reason, "
                                                                     "detail"))},
                                         {"next_cursor", NullableString("the audit rows' next page; null: none")}},
                                        {"id", "forgotten", "tombstones", "audit", "next_cursor"}),
                .handler = RunAuditTrail,
                .rest = {"GET", "/v1/admin/audit/{id}"}});
}

Capability ExportDump() {
  return Admin({.name = "export",
                .description = "One namespace (or, with all_namespaces, the whole database) as JSONL "
                               "(application/x-ndjson), one object a line; a damaged database is refused unless "
                               "salvage.",
                .params = {OptionalNamespaceParam(ParamIn::kQuery), AllNamespacesParam(),
                           {.name = "salvage", .type = ParamType::kBoolean,
                            .description = "a damaged database: every line that still reads (damaged: true says so)",
                            .default_value = false, .in = ParamIn::kQuery}},
                .result_schema = Object({{"namespace", NullableString("null: every namespace (all_namespaces)")},
                                         {"exported", CountsSchema()}, {"damaged", BooleanType()},
                                         {"error", AnyObject("with damaged: what could not be read")}},
                                        {"damaged"}),
                .raw_media_type = "application/x-ndjson",
                .handler = RunExport,
                .rest = {"GET", "/v1/admin/export"}});
}

Capability ImportDump() {
  return Admin({.name = "import",
                .description = "Load a JSONL dump written by export, in one transaction: every line is validated "
                               "first; tombstones are honoured.",
                .params = {{.name = "dump",
                            .description = "the JSONL text (a REST body of application/x-ndjson is taken as it)",
                            .required = true, .max_length = int64_t{1} << 30}},
                .result_schema = Object({{"imported", CountsSchema()}, {"skipped_forgotten", IntegerType()},
                                         {"skipped_existing", IntegerType()}},
                                        {"imported", "skipped_forgotten", "skipped_existing"}),
                .handler = RunImport,
                .rest = {"POST", "/v1/admin/import"}});
}

Capability BackupFile() {
  return Admin({.name = "backup",
                .description = "A consistent online snapshot of the database at path (on the server's file system), "
                               "and its manifest at path.manifest.json.",
                .params = {PathParam("the backup file; must not exist")},
                .result_schema = Object({{"backup", StringType()}, {"manifest", ManifestSchema()}}, {"backup", "manifest"}),
                .handler = RunBackup,
                .rest = {"POST", "/v1/admin/backup"}});
}

Capability VerifyBackup() {
  return Admin({.name = "verify_backup",
                .description = "Check a backup against its manifest and run its integrity check, reading only the "
                               "backup.",
                .params = {PathParam("the backup file (with PATH.manifest.json)")},
                .result_schema = Object({{"verified", StringType()}, {"manifest", ManifestSchema()}},
                                        {"verified", "manifest"}),
                .handler = RunVerifyBackup,
                .rest = {"POST", "/v1/admin/backup:verify"}});
}

Result<Reply> RunStats(Engine& engine, const Args&, const CallContext&) {
  auto s = engine.Stats();
  if (!s) return Error(s.error());
  return Reply{.body = StatsToJson(*s)};
}

Result<Reply> RunDoctor(Engine& engine, const Args&, const CallContext&) {
  auto d = engine.Doctor();
  if (!d) return Error(d.error());
  return Reply{.body = DoctorReportToJson(*d)};
}

}  // namespace

OrderedJson DumpCountsToJson(const DumpCounts& c) {
  return {{"namespaces", c.namespaces}, {"sessions", c.sessions}, {"tombstones", c.tombstones},
          {"events", c.events}, {"claims", c.claims}};
}

OrderedJson ManifestToJson(const BackupManifest& m) {
  return {{"schema_version", m.schema_version}, {"created_at", FormatTimestamp(m.created_at)},
          {"engram_version", m.engram_version}, {"file_bytes", m.file_bytes}, {"file_xxh3", m.file_xxh3},
          {"tombstone_count", m.tombstone_count}, {"max_tombstone_id", m.max_tombstone_id},
          {"ledger_xxh3", m.ledger_xxh3}};
}

OrderedJson VerifiedBackupToJson(const std::string& path, const BackupManifest& m) {
  return {{"verified", path}, {"manifest", ManifestToJson(m)}};
}

std::vector<Capability> AdminCapabilities() {
  std::vector<Capability> out;
  out.push_back(Admin({.name = "stats",
                       .description = "Counts and file sizes (bytes) of the database, and what a quick integrity "
                                      "check finds.",
                       .result_schema = AnyObject("counts and sizes"),
                       .handler = RunStats,
                       .rest = {"GET", "/v1/admin/stats"}}));
  out.push_back(Admin({.name = "doctor",
                       .description = "Check the database's integrity (reads only); problems are reported, not fixed.",
                       .result_schema = Object({{"ok", BooleanType()}, {"problems", ArrayOf(StringType())}}, {"ok"}),
                       .handler = RunDoctor,
                       .rest = {"GET", "/v1/admin/doctor"}}));
  for (Capability (*make)() : {ListJobs, RetryJobs, Process, Maintain, Compact, Reindex, AuditTrail, ExportDump,
                               ImportDump, BackupFile, VerifyBackup}) {
    out.push_back(make());
  }
  return out;
}

}  // namespace engram::api
