// engine/engine.cc — the Engine facade: opens the store, serialises calls on one connection and
// routes them to the write and recall layers.
#include "engram/engine.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <mutex>

#include "engine/curated_memory.h"
#include "engine/forget_query.h"
#include "engine/namespace_scope.h"
#include "engine/session_lineage.h"
#include "engine/text_readings.h"
#include "experience/experience_forgetting.h"
#include "experience/experience_memory.h"
#include "experience/llm_distill_pass.h"
#include "experience/llm_rule_distiller.h"
#include "lifecycle/backup.h"
#include "lifecycle/compact.h"
#include "lifecycle/doctor.h"
#include "lifecycle/export.h"
#include "lifecycle/forget.h"
#include "lifecycle/hits_log.h"
#include "lifecycle/access_batch.h"
#include "lifecycle/api_keys.h"
#include "lifecycle/import_dump.h"
#include "lifecycle/maintain.h"
#include "lifecycle/resurrect.h"
#include "providers/embedder_factory.h"
#include "providers/word_kin.h"
#include "providers/rerank_client.h"
#include "recall/context_packet.h"
#include "recall/dense_index.h"
#include "recall/event_recall.h"
#include "recall/match_expression.h"
#include "recall/recall.h"
#include "store/sqlite/api_key_store.h"
#include "store/sqlite/audit_log.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/create_database.h"
#include "store/sqlite/busy_wait.h"
#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/feedback_store.h"
#include "store/sqlite/fts5_tokenizer.h"
#include "store/sqlite/fts_merge.h"
#include "store/sqlite/job_store.h"
#include "store/sqlite/schema.h"
#include "store/sqlite/sqlite_version.h"
#include "store/sqlite/tombstone_store.h"
#include "text/analyzer.h"
#include "util/time.h"
#include "util/utf8.h"
#include "write/admission.h"
#include "write/claim_writer.h"
#include "write/event_validation.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/extractor_factory.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/statement_topics.h"
#include "write/extraction_worker.h"
#include "write/kin_change.h"
#include "write/kin_slot.h"
#include "working/working_memory.h"

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

// The newest events of a session's lineage that working memory reads (Engine::Working).
constexpr size_t kWorkingMaxEvents = 10000;
// TTLs assigned per write transaction after a drain (AssignPendingTtl).
constexpr int64_t kTtlClaimsPerTransaction = 1000;
// Merge steps per full-text index after a drain: this many per window the drain wrote (each
// window's commit leaves at most one segment per index; kFtsMergePagesPerStep pages a step), at
// least kMinFtsMergeSteps. Bounded by the drain's own work, not by "until nothing is left": while
// writers keep committing, every step finds new segments, and an unbounded merge ran for minutes
// after its drain (a CI run that never finished).
constexpr int64_t kFtsMergeStepsPerWindow = 4;
constexpr int64_t kMinFtsMergeSteps = 64;
// And bounded in time: while other processes write, each step waits its turn for the write lock
// and finds their new segments, so 4 steps a window could still take minutes after a drain of
// 5,000 events under 8 writers (and grow the WAL by hundreds of MB while readers kept it from
// being reset). The merge only speeds later queries up: FTS5's automerge bounds the segments
// meanwhile and `engram compact` rewrites both indexes.
constexpr auto kFtsMergeBudget = std::chrono::seconds(2);

// Opens the database and checks that it is an engram database whose schema reads (with
// `allow_older`, one a migration can bring up to date).
Result<std::unique_ptr<sqlite::Database>> OpenChecked(const Options& options, bool allow_older) {
  auto db = sqlite::Database::Open(options);
  if (!db) return db;
  ENGRAM_RETURN_IF_ERROR(sqlite::RegisterFts5Extensions((*db)->handle()));
  if (options.db_path != ":memory:") {
    ENGRAM_RETURN_IF_ERROR(sqlite::CheckEngramDatabase(**db, /*read_only=*/!allow_older));
  }
  return db;
}

Result<std::unique_ptr<sqlite::Database>> OpenStore(const Options& options);

// A read-only open: one connection, checked. A healthy engram database of an older schema that
// this process may write is migrated first — the one write a read command makes, once, to a file
// that passed the open checks — so that `engram recall` works right after an upgrade; one this
// process cannot write is refused by the read-only check ("needs a migration").
Result<std::unique_ptr<sqlite::Database>> OpenForReading(const Options& options) {
  auto db = OpenChecked(options, /*allow_older=*/true);
  if (!db) return db;
  auto version = (*db)->QueryInt("PRAGMA user_version");
  if (!version) return Error(version.error());
  if (*version == sqlite::kSchemaVersion) return db;
  if (::access(options.db_path.c_str(), W_OK) != 0) {
    ENGRAM_RETURN_IF_ERROR(sqlite::CheckEngramDatabase(**db, /*read_only=*/true));
    return db;
  }
  db->reset();
  Options write = options;
  write.open_mode = OpenMode::kReadWrite;
  if (auto migrated = OpenStore(write); !migrated) return migrated;
  return OpenChecked(options, /*allow_older=*/false);
}

// The database as options.open_mode allows: created whole when missing (kCreate), checked for being
// an engram database of a readable schema, and migrated (a read-only open: see OpenForReading).
Result<std::unique_ptr<sqlite::Database>> OpenStore(const Options& options) {
  Options open = options;
  if (open.db_path != ":memory:" && open.open_mode == OpenMode::kReadOnly) return OpenForReading(open);
  if (open.db_path == ":memory:") {
    auto db = OpenChecked(open, /*allow_older=*/true);
    if (db && !(*db)->read_only()) ENGRAM_RETURN_IF_ERROR(sqlite::Migrate(**db, options.analysis));
    return db;
  }
  if (open.open_mode == OpenMode::kCreate) ENGRAM_RETURN_IF_ERROR(sqlite::CreateDatabaseIfMissing(open));
  open.open_mode = OpenMode::kReadOnly;
  // Checked on a read-only connection first: a writing open may switch the file to WAL.
  if (auto probe = OpenChecked(open, /*allow_older=*/true); !probe) return probe;
  open.open_mode = OpenMode::kReadWrite;
  auto db = OpenChecked(open, /*allow_older=*/true);
  if (!db) return db;
  ENGRAM_RETURN_IF_ERROR(sqlite::Migrate(**db, options.analysis));
  return db;
}

class EngineImpl final : public Engine {
 public:
  using Engine::AuditTrail;
  using Engine::ListJobs;

  EngineImpl(std::unique_ptr<sqlite::Database> db, std::unique_ptr<text::Analyzer> analyzer,
             std::unique_ptr<extraction::Extractor> extractor,
             std::unique_ptr<extraction::Extractor> rules, const Options& options,
             std::unique_ptr<providers::EmbedderFactory> embedders, Status embedder_status,
             std::unique_ptr<providers::RerankClient> reranker,
             std::unique_ptr<experience::LlmRuleDistiller> llm_distiller, Status distiller_status)
      : db_(std::move(db)),
        store_(*db_),
        claims_(*db_),
        jobs_(*db_),
        tombstones_(*db_),
        audit_(*db_),
        feedback_(*db_),
        analyzer_(std::move(analyzer)),
        experience_(*db_, *analyzer_, options.experience),
        extractor_(std::move(extractor)),
        rules_(std::move(rules)),
        options_(options),
        embedders_(std::move(embedders)),
        embedder_status_(std::move(embedder_status)),
        reranker_(std::move(reranker)),
        llm_distiller_(std::move(llm_distiller)),
        distiller_status_(std::move(distiller_status)) {
    for (const std::string& p : options.single_valued_predicates) registry_.AddSingleValued(p);
    if (embedders_ != nullptr) {
      dense_ = std::make_unique<DenseIndex>(*db_, store_, *embedders_, /*store_vectors=*/!db_->read_only());
    }
    // Hits go beside a file that a maintenance pass can write them into (lifecycle/hits_log.h).
    if (db_->path() != ":memory:" && ::access(db_->path().c_str(), W_OK) == 0) {
      hits_log_ = std::make_unique<lifecycle::HitsLog>(db_->path());
    }
  }

  // The word kin of Options::word_kin, opened the first time it is asked for (caller holds mu_);
  // null when off or the file cannot be opened (word_kin_status_ then holds the error).
  providers::WordKin* WordKinLocked() {
    if (!word_kin_status_) {
      auto opened = providers::OpenConfiguredWordKin(options_.word_kin);
      if (opened) {
        word_kin_ = std::move(*opened);
        word_kin_status_ = Status::Ok();
      } else {
        word_kin_status_ = opened.error();
      }
    }
    return word_kin_.get();
  }

  // Kin words for the claim writer, which calls them holding mu_: the file is opened by the first
  // write that compares a change with an older claim by kin (a write that changes nothing never
  // maps it).
  KinLookup MakeWriteKin() {
    KinLookup kin;
    kin.words = [this](std::string_view text) {
      providers::WordKin* k = WordKinLocked();
      return k == nullptr ? std::vector<std::string>{} : k->KinCandidates(text);
    };
    kin.names = [this](std::string_view text) {
      providers::WordKin* k = WordKinLocked();
      return k == nullptr ? std::vector<std::string>{} : k->KinNames(text);
    };
    kin.kin = [this](const std::vector<std::string>& older, const std::vector<std::string>& newer) {
      providers::WordKin* k = WordKinLocked();
      return k != nullptr && k->FindKin(older, newer).has_value();
    };
    return kin;
  }

  // Appends the batched recall hits to the hits log (never the database).
  ~EngineImpl() override {
    std::lock_guard<std::mutex> lock(mu_);
    SpillAccess();
  }

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
    auto e = store_.Get(id);
    if (!e && e.error().code() == StatusCode::kNotFound) return Error(ForgottenOr(id, e.error()));
    return e;
  }

  Result<std::string> NamespaceOf(std::string_view id) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", id, true));
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto e = store_.Get(id);
      if (e) return e->namespace_name;
      if (e.error().code() != StatusCode::kNotFound) return Error(e.error());
      auto tomb = tombstones_.Find(id);
      if (!tomb) return Error(tomb.error());
      if (tomb->has_value()) return (*tomb)->namespace_name;
    }
    auto c = GetClaim(id);
    if (c) return c->namespace_name;
    if (c.error().code() != StatusCode::kNotFound) return Error(c.error());
    return Error(Status::NotFound(fmt::format("no event or claim (nor a tombstone) with id \"{}\"", id)));
  }

  Result<FeedbackResult> Feedback(const FeedbackInput& input) override {
    std::lock_guard<std::mutex> lock(mu_);
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(input.namespace_name, false));
    auto parsed = ParseFeedbackId(input.feedback_id);
    if (!parsed) return Error(parsed.error());
    FeedbackResult out;
    out.item_type = parsed->item_type;
    out.item_id = parsed->item_id;
    Status st = db_->WriteTransaction([&]() -> Status {
      auto target = feedback_.Resolve(parsed->item_type, parsed->item_id);
      if (!target) return ForgottenOr(parsed->item_id, target.error());
      if (target->namespace_name != input.namespace_name) {
        return Status::NotFound(fmt::format("no {} {} in namespace \"{}\"", parsed->item_type,
                                            parsed->item_id, input.namespace_name));
      }
      out.namespace_name = target->namespace_name;
      ENGRAM_RETURN_IF_ERROR(
          feedback_.Record(*target, parsed->item_type, parsed->query_hash, input.helpful, NowMs()));
      auto counts = feedback_.Counts(parsed->item_type, target->seq);
      if (!counts) return counts.error();
      out.helpful = counts->helpful;
      out.unhelpful = counts->unhelpful;
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return out;
  }

  Result<RecallResult> Recall(const RecallQuery& query) override {
    ENGRAM_RETURN_IF_ERROR(ValidateRecallQuery(query));
    if (query.rerank.value_or(false) && reranker_ == nullptr) {
      return Error(Status::InvalidArgument(
          "field \"rerank\": no reranker is configured (set ENGRAM_RERANK_BASE_URL, "
          "Options::rerank.base_url or --rerank-url)"));
    }
    const providers::RerankClient* reranker =
        reranker_ != nullptr && query.rerank.value_or(true) ? reranker_.get() : nullptr;
    RecallCandidates candidates;
    DenseIndex::Prepared dense;
    std::string kin_warning;  // why Options::word_kin is off, when it names a file that cannot be used
    double prepare_ms = 0;
    {
      // The database steps under the lock; the reranker's network call, below, without it: a slow
      // reranker delays this recall only, not the other calls on this Engine.
      std::lock_guard<std::mutex> lock(mu_);
      auto started = std::chrono::steady_clock::now();
      RecallContext ctx{*db_, store_, claims_, feedback_, *analyzer_, options_};
      // Read once per text by this Engine (engine/text_readings.h): the same events come back.
      ctx.now_stance = [this](std::string_view text) { return readings_.NowStance(text); };
      ctx.change_sentences = [this](std::string_view text) { return readings_.ChangeSentences(text); };
      ctx.says_only_what_is = [](std::string_view text) {
        return extraction::SaysOnlyWhatIs(text) && !SaysWhatMayBe(text);
      };
      ctx.topics_of = [this](std::string_view text) { return readings_.Topics(text); };
      ctx.looks_like_instruction = [this](std::string_view text) { return readings_.LooksLikeInstruction(text); };
      ctx.topic_words = [](std::string_view topic) { return extraction::Lexicon::Get().TopicWords(topic); };
      ctx.asked_attributes = [](std::string_view text) {
        std::vector<AskedAttribute> asked;
        for (extraction::NamedAttribute& a : extraction::Lexicon::Get().NamedAttributes(text)) {
          asked.push_back({std::move(a.word), std::move(a.attribute), std::move(a.slot)});
        }
        return asked;
      };
      providers::WordKin* kin = WordKinLocked();
      if (!word_kin_status_->ok()) kin_warning = "kin words disabled: " + word_kin_status_->ToString();
      if (kin != nullptr) {
        ctx.kin_words = [kin](std::string_view text) { return kin->KinCandidates(text); };
        ctx.kin = [kin](const std::vector<std::string>& older, const std::vector<std::string>& newer) {
          return kin->FindKin(older, newer).has_value();
        };
        ctx.kin_names = [kin](std::string_view text) { return kin->KinNames(text); };
      }
      if (reranker != nullptr) {
        ctx.reranker = reranker;  // only sizes the candidates: FindRecallCandidates never calls it
        ctx.rerank_pool = reranker->options().endpoint.pool;
      }
      if (options_.recall.dense > 0 && query.include_events) {
        if (!embedder_status_.ok()) {
          dense.warning = "dense channel disabled: " + embedder_status_.ToString();
        } else if (dense_ != nullptr) {
          auto prepared = dense_->Prepare(query.namespace_name, query.text);
          if (prepared) {
            dense = std::move(*prepared);
          } else {
            dense.warning = "dense channel disabled: " + prepared.error().ToString();
          }
          if (dense.query) ctx.dense = &*dense.query;
        }
      }
      prepare_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
      auto found = FindRecallCandidates(ctx, query);
      if (!found) return Error(NoteDamage(found.error()));
      // The cold path (lifecycle/resurrect.h): only when nothing current answered (judged on the
      // fused order: the reranker has not run yet, and only reorders what was found).
      if (options_.lifecycle.resurrect_archived && !db_->read_only() && query.include_claims &&
          found->result.answerability != "ok" && !query.as_of && !query.known_as_of &&
          !query.include_history) {
        auto revived = ResurrectFor(query);
        if (!revived) return Error(revived.error());
        if (*revived > 0) {
          found = FindRecallCandidates(ctx, query);
          if (!found) return Error(found.error());
        }
      }
      candidates = std::move(*found);
    }
    if (reranker != nullptr) RerankCandidates(*reranker, reranker->options().endpoint.pool, candidates);
    RecallResult result = FinishRecall(std::move(candidates));
    result.took_ms += prepare_ms;
    if (!dense.warning.empty()) result.warnings.push_back(std::move(dense.warning));
    if (!kin_warning.empty()) result.warnings.push_back(std::move(kin_warning));
    // Recall hits feed activation (lifecycle/decay.h): counted in memory, appended to the hits log
    // when due, written into the claims by the next maintenance pass. Never a database write here.
    std::vector<std::string> hit_claims;
    for (const RecallItem& item : result.items) {
      if (item.type == "claim") hit_claims.push_back(item.id);
    }
    std::lock_guard<std::mutex> lock(mu_);
    const TimestampMs now = NowMs();
    if (!damaged_) access_.Record(hit_claims, now);
    if (access_.Due(now, options_.lifecycle.access_flush_claims, options_.lifecycle.access_flush_ms)) SpillAccess();
    return result;
  }

  Result<MaintainReport> Maintain(const MaintainRequest& request) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(request.namespace_name, request.all_namespaces));
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("actor", request.actor, true));
    const auto started = std::chrono::steady_clock::now();
    MaintainReport report;
    report.now = request.now.value_or(NowMs());
    std::vector<std::pair<int64_t, std::string>> namespaces;
    int64_t flushed = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (hits_log_ != nullptr) {
        auto taken = hits_log_->TakeInto(access_);
        if (!taken) return Error(taken.error());
      }
      auto flush = FlushAccess();
      if (!flush) return Error(flush.error());
      flushed = *flush;
      auto found = lifecycle::MaintainedNamespaces(*db_, request.namespace_name);
      if (!found) return Error(found.error());
      namespaces = std::move(*found);
    }
    // Each batch takes the mutex and the write lock, then lets both go: calls on this Engine and
    // other connections interleave with the pass.
    lifecycle::MaintainContext ctx{*db_, claims_, audit_,
                                   [this](const std::function<Status()>& body) {
                                     std::lock_guard<std::mutex> lock(mu_);
                                     return db_->WriteTransaction(body);
                                   },
                                   report.now, request.actor, options_.lifecycle.maintain_batch};
    report.total.access_flushed = flushed;
    for (const auto& [id, name] : namespaces) {
      auto one = lifecycle::MaintainNamespace(ctx, id, name);
      if (!one) return Error(one.error().WithContext(fmt::format("namespace \"{}\"", name)));
      MaintainNamespaceReport& t = report.total;
      t.ttl_assigned += one->ttl_assigned;
      t.expired += one->expired;
      t.decayed += one->decayed;
      t.archived += one->archived;
      t.vectors_dropped += one->vectors_dropped;
      t.converged += one->converged;
      auto forgetting = ForgetColdExperience(ctx, id, request.actor);
      if (!forgetting) return Error(forgetting.error().WithContext(fmt::format("namespace \"{}\"", name)));
      one->experience_cold = forgetting->cold;
      one->experience_warmed = forgetting->warmed;
      one->experience_forgotten = forgetting->forgotten;
      t.experience_cold += forgetting->cold;
      t.experience_warmed += forgetting->warmed;
      t.experience_forgotten += forgetting->forgotten;
      report.namespaces.push_back(std::move(*one));
    }
    report.took_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return report;
  }

  Result<int64_t> Reindex(std::string_view namespace_name) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(namespace_name, false));
    if (!embedder_status_.ok()) return Error(embedder_status_);
    if (dense_ == nullptr) {
      return Error(Status::InvalidArgument(
          "no embedder is configured: set Options::embedder, $ENGRAM_EMBEDDER or --embedder (glove, hash, openai)"));
    }
    std::lock_guard<std::mutex> lock(mu_);
    return dense_->Reindex(namespace_name);
  }

  Result<RememberResult> Remember(const RememberInput& input) override {
    const TimestampMs now = NowMs();
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(input.namespace_name, false));
    bool structured = !input.subject.empty() || !input.predicate.empty() || !input.value.empty();
    if (structured && (IsBlank(input.subject) || IsBlank(input.predicate) || IsBlank(input.value))) {
      return Error(Status::InvalidArgument("give subject, predicate and value together (or TEXT)"));
    }
    if (!structured && IsBlank(input.text)) {
      return Error(Status::InvalidArgument("field \"text\": is empty (give TEXT or subject, predicate and value)"));
    }
    if (structured && !IsValidUtf8(input.subject + input.predicate + input.value)) {
      return Error(Status::InvalidArgument("subject, predicate and value must be valid UTF-8"));
    }
    EventInput event_input;
    event_input.namespace_name = input.namespace_name;
    event_input.session_id = input.session_id.empty() ? "explicit" : input.session_id;
    event_input.role = "user";
    event_input.speaker = input.speaker;
    event_input.content = structured ? input.subject + " " + input.predicate + " " + input.value : input.text;
    event_input.occurred_at = input.at;
    event_input.idempotency_key = input.idempotency_key;
    event_input.session_source = "remember";
    event_input.origin_class = "direct_user";
    auto row = ValidateEventInput(event_input, now);
    if (!row) return Error(row.error());

    // The candidates are read before taking the lock (the rule extractor is pure and fast).
    std::vector<extraction::CandidateClaim> candidates;
    const std::string subject_default = input.speaker.empty() ? "user" : input.speaker;
    if (structured) {
      extraction::CandidateClaim c;
      c.subject = input.subject;
      c.predicate = input.predicate;
      c.value = input.value;
      c.text = event_input.content;
      c.scope = "explicit";
      c.confidence = 1.0;
      c.importance = 0.8;
      c.source_events = {0};
      candidates.push_back(std::move(c));
    } else {
      auto extracted = rules_->Extract({row->event});
      if (extracted) candidates = std::move(*extracted);
      // A text remembered is kept whole when the grammar read nothing from it: as explicit_memory,
      // which also changes an older claim about the same thing (write/same_thing.h), so the
      // extractor's statement kept only as a successor is not needed beside it. Beside claims read,
      // a sentence kept as a successor ("I'm no longer at Amazon.") stays: it closes what ended.
      // A correction kept as a successor stays beside it ("sorry, I meant gate C7, not B12"): it
      // rewrites the value it corrects (write/corrected_value.h), which the whole text does not.
      const bool read_any = std::any_of(candidates.begin(), candidates.end(),
                                        [](const extraction::CandidateClaim& c) { return !c.successor_only; });
      if (!read_any) {
        std::erase_if(candidates, [](const extraction::CandidateClaim& c) { return !c.correction; });
      }
      if (!read_any) {
        extraction::CandidateClaim c;
        c.subject = subject_default;
        c.predicate = "explicit_memory";
        c.value = input.text;
        c.text = input.text;
        c.scope = "explicit";
        c.confidence = 1.0;
        c.importance = 0.8;
        c.source_events = {0};
        c.evidence_span = input.text;
        candidates.push_back(std::move(c));
      }
    }

    // Admission's content rules read no table: screened before the lock (write/admission.h).
    const std::vector<Event> batch{row->event};
    std::vector<ContentScreening> screenings;
    for (const extraction::CandidateClaim& c : candidates) screenings.push_back(ScreenContent(c, batch));

    std::lock_guard<std::mutex> lock(mu_);
    RememberResult result;
    Status st = db_->WriteTransaction([&]() -> Status {
      result = RememberResult{};
      const Event& e = row->event;
      auto ns = store_.EnsureNamespace(e.namespace_name, now);
      if (!ns) return ns.error();
      auto existing = store_.FindByIdempotencyKey(*ns, e.idempotency_key);
      if (!existing) return existing.error();
      if (existing->has_value()) {
        result.event = std::move(**existing);
        result.duplicate = true;
        return Status::Ok();
      }
      auto tomb = tombstones_.FindForEvent(*ns, e.content_hash, e.idempotency_key);
      if (!tomb) return tomb.error();
      if (tomb->has_value()) {
        result.event = e;
        result.event.id.clear();
        result.forgotten = true;
        result.tombstone_id = **tomb;
        return Status::Ok();
      }
      auto session = store_.EnsureSession(*ns, *row, now);
      if (!session) return session.error();
      auto seq = store_.Insert(*ns, *session, *row);
      if (!seq) return seq.error();
      const int64_t event_seq = *seq;
      result.event = e;
      // Admission follows the session's own kind (a heartbeat session makes no claims, a cron
      // session only low-authority observations), whatever entry point wrote into it.
      auto session_info = store_.GetSession(*session);
      if (!session_info) return session_info.error();
      const RememberWrite w{*ns, event_seq, &e, structured, now};
      for (size_t i = 0; i < candidates.size(); ++i) {
        ENGRAM_RETURN_IF_ERROR(WriteRemembered(w, candidates[i], Admit(screenings[i], session_info->kind), &result));
      }
      // The text read into nothing in an older claim's slot: a value of the older's kind (write/kin_slot.h).
      if (!structured) {
        auto kin_slots = KinSlotCandidates(
            claims_, *ns, KinSlotTurn{e.content, subject_default, e.occurred_at, 0, ReadValues(candidates, 0)}, write_kin_);
        if (!kin_slots) return kin_slots.error();
        for (const extraction::CandidateClaim& c : *kin_slots) {
          ENGRAM_RETURN_IF_ERROR(WriteRemembered(w, c, Admit(ScreenContent(c, batch), session_info->kind), &result));
        }
      }
      auto ttl = lifecycle::AssignTtlInTransaction(*db_, *ns, 1000);
      if (!ttl) return ttl.error();
      for (Claim& c : result.claims) {
        auto stored = claims_.Get(c.id);
        if (!stored) return stored.error();
        c.expires_at = stored->claim.expires_at;
      }
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return result;
  }

  // One remembered text's write: where it is stored and how.
  struct RememberWrite {
    int64_t ns = 0;
    int64_t event_seq = 0;
    const Event* event = nullptr;
    bool structured = false;
    TimestampMs now = 0;
  };

  // Writes one candidate of a remembered text inside the caller's transaction (or records its
  // rejection), and adds its decision and claim to `result`. Errors: from SQLite.
  Status WriteRemembered(const RememberWrite& w, const extraction::CandidateClaim& c, const AdmissionDecision& admission,
                         RememberResult* result) {
    if (!admission.admitted) {
      ENGRAM_RETURN_IF_ERROR(claims_.AddDecision(w.ns, w.event_seq, std::nullopt, w.now, "rejected", admission.reason,
                                                 admission.detail, CandidateJson(c)));
      result->decisions.push_back("rejected:" + admission.reason);
      return Status::Ok();
    }
    ClaimWriteInput in;
    in.namespace_id = w.ns;
    in.namespace_name = w.event->namespace_name;
    in.candidate = &c;
    in.admission = admission;
    in.source_event_seqs = {w.event_seq};
    in.source_time = w.event->occurred_at;
    in.extractor = w.structured ? "explicit" : "explicit+" + rules_->Name();
    in.actor = "remember";
    in.now = w.now;
    in.kin = &write_kin_;
    auto outcome = WriteClaim(claims_, tombstones_, registry_, in);
    if (!outcome) return outcome.error();
    result->decisions.push_back(outcome->decision);
    if (outcome->claim.id.empty()) return Status::Ok();  // rejected: the fact was forgotten
    // Reloaded so that the caller sees the claim with its evidence, as stored.
    auto stored = claims_.Get(outcome->claim.id);
    if (!stored) return stored.error();
    result->claims.push_back(std::move(stored->claim));
    return Status::Ok();
  }

  Result<ProcessReport> Process(bool drain) override {
    ExtractionWorkerOptions options;
    options.batch_events = static_cast<size_t>(std::max(1, options_.extraction_batch_events));
    options.batch_wait_ms = options_.extraction_batch_wait_ms;
    options.max_attempts = options_.extraction_max_attempts;
    options.kin = &write_kin_;
    ExtractionWorker worker(*db_, mu_, *extractor_, registry_, options);
    auto report = worker.Run(drain, 0);
    if (report && report->batches > 0) {
      // New claims get their TTL now, so that recall hides them once it passes even before the
      // next maintenance pass.
      std::lock_guard<std::mutex> lock(mu_);
      ENGRAM_RETURN_IF_ERROR(AssignPendingTtl());
    }
    if (report && drain && report->batches > 0) {
      // A drain writes claims in many small commits; each leaves a full-text segment that every
      // later query must visit. Merging them here keeps recall fast (best effort; measured on
      // LoCoMo: events recall p50 1.1 → 0.8 ms), in short transactions (one `optimize` held the
      // write lock for the whole rewrite of both indexes, B43), and level by level, so that the
      // merge costs what the drain wrote and not the index's size (sqlite/fts_merge.h).
      std::lock_guard<std::mutex> lock(mu_);
      const int64_t steps = std::max(kMinFtsMergeSteps, kFtsMergeStepsPerWindow * report->batches);
      const auto deadline = std::chrono::steady_clock::now() + kFtsMergeBudget;
      for (const char* table : {"claim_fts", "event_fts"}) {
        (void)sqlite::MergeFtsSegments(*db_, table, steps, deadline);
      }
    }
    return report;
  }

  Result<std::vector<Claim>> ListClaims(const ListClaimsQuery& query) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(query.namespace_name, false));
    if (query.limit < 1 || query.limit > 100000 || query.offset < 0 || query.after_seq < 0) {
      return Error(Status::InvalidArgument("field \"limit\": outside 1–100000 (or negative offset or cursor)"));
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Claim> out;
    Status st = db_->ReadTransaction([&]() -> Status {
      auto ns = store_.FindNamespace(query.namespace_name);
      if (!ns) return ns.error();
      if (!ns->has_value()) return Status::Ok();
      auto seqs = claims_.List(**ns, query.subject, query.include_history, query.limit, query.offset,
                                query.after_seq);
      if (!seqs) return seqs.error();
      auto claims = claims_.GetBySeqs(*seqs);
      if (!claims) return claims.error();
      out = std::move(*claims);
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return out;
  }

  Result<Claim> GetClaim(std::string_view id) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto c = claims_.Get(id);
    if (!c && c.error().code() == StatusCode::kNotFound) return Error(ForgottenOr(id, c.error()));
    if (!c) return Error(c.error());
    return std::move(c->claim);
  }

  Result<ClaimExplanation> ExplainClaim(std::string_view id) override {
    std::lock_guard<std::mutex> lock(mu_);
    ClaimExplanation out;
    Status st = db_->ReadTransaction([&]() -> Status {
      auto c = claims_.Get(id);
      if (!c) return c.error();
      out.claim = c->claim;
      auto decisions = claims_.Decisions(c->seq);
      if (!decisions) return decisions.error();
      out.decisions = std::move(*decisions);
      auto history = claims_.History(c->seq);
      if (!history) return history.error();
      out.history = std::move(*history);
      // The supersede chain: walk back through supersedes_id, then forward through superseded_by_id.
      std::vector<Claim> back;
      std::string prev = out.claim.supersedes_id;
      for (int hop = 0; hop < 100 && !prev.empty(); ++hop) {
        auto p = claims_.Get(prev);
        if (!p) break;
        prev = p->claim.supersedes_id;
        back.push_back(std::move(p->claim));
      }
      out.chain.assign(back.rbegin(), back.rend());
      out.chain.push_back(out.claim);
      std::string next = out.claim.superseded_by_id;
      for (int hop = 0; hop < 100 && !next.empty(); ++hop) {
        auto n = claims_.Get(next);
        if (!n) break;
        next = n->claim.superseded_by_id;
        out.chain.push_back(std::move(n->claim));
      }
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    const Claim& c = out.claim;
    out.current = c.status == "active" && (!c.valid_to || *c.valid_to > NowMs());
    if (c.status == "superseded") {
      out.why = fmt::format("superseded by {}; true from {} until {}", c.superseded_by_id, FormatTimestamp(c.valid_from),
                            c.valid_to ? FormatTimestamp(*c.valid_to) : "open");
    } else if (c.status == "disputed") {
      out.why = "disputed: it contradicts the current value and cannot be ordered against it; review it";
    } else if (!out.current) {
      out.why = fmt::format("status {}", c.status);
    } else {
      out.why = fmt::format("active since {}, supported by {} event(s)", FormatTimestamp(c.valid_from), c.evidence.size());
    }
    return out;
  }

  Result<std::vector<JobInfo>> ListJobs(const ListJobsQuery& query) override {
    const std::string& status = query.status;
    if (!status.empty() && status != "pending" && status != "leased" && status != "done" && status != "failed") {
      return Error(Status::InvalidArgument(
          fmt::format("field \"status\": unknown value \"{}\" (expected pending, leased, done or failed)", status)));
    }
    if (query.limit < 1 || query.limit > 10000) {
      return Error(Status::InvalidArgument("field \"limit\": outside 1–10000"));
    }
    std::lock_guard<std::mutex> lock(mu_);
    return jobs_.List(status, query.limit, NowMs(), query.after_id);
  }

  Result<int64_t> RetryJobs(int64_t id) override {
    std::lock_guard<std::mutex> lock(mu_);
    int64_t n = 0;
    Status st = db_->WriteTransaction([&]() -> Status {
      auto r = jobs_.Retry(id, NowMs());
      if (!r) return r.error();
      n = *r;
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    if (id != 0 && n == 0) {
      return Error(Status::NotFound(fmt::format("no failed job or stale lease with id {}", id)));
    }
    return n;
  }

  Result<std::vector<SessionInfo>> ListSessions(const ListSessionsQuery& query) override {
    if (query.limit < 1 || query.limit > 1000) {
      return Error(Status::InvalidArgument(fmt::format("field \"limit\": {} is outside 1–1000", query.limit)));
    }
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(query.namespace_name, query.all_namespaces));
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<int64_t> ns;
    if (!query.all_namespaces) {
      auto found = store_.FindNamespace(query.namespace_name);
      if (!found) return Error(found.error());
      if (!found->has_value()) return std::vector<SessionInfo>{};
      ns = **found;
    }
    return store_.ListSessions(ns, query.limit, query.after_seq);
  }

  Result<SessionSearchResult> SearchSessions(const SessionSearchQuery& query) override {
    std::lock_guard<std::mutex> lock(mu_);
    RecallContext ctx{*db_, store_, claims_, feedback_, *analyzer_, options_};
    return engram::SearchSessions(ctx, query);
  }

  Result<DoctorReport> Doctor() override {
    std::lock_guard<std::mutex> lock(mu_);
    return lifecycle::Diagnose(*db_);
  }

  Result<StoreStats> Stats() override {
    std::lock_guard<std::mutex> lock(mu_);
    auto stats = store_.Stats();
    if (!stats) return Error(NoteDamage(stats.error()));
    stats->damage = lifecycle::QuickCheckProblems(*db_, kDamageLines);
    return stats;
  }

  Result<ForgetReport> Forget(const ForgetRequest& input) override {
    ForgetRequest request = input;
    if (request.actor.empty()) request.actor = "api";
    ENGRAM_RETURN_IF_ERROR(ValidateForgetRequest(request));
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> query_ids;
    if (!request.query.empty()) {
      // Every event and claim holding every term, whatever its status; a preview unless confirmed.
      auto found = db_->ReadTransaction([&]() -> Status {
        auto ids = SelectForgetByQuery(*analyzer_, store_, claims_, options_, request.namespace_name,
                                       request.query, request.query_limit);
        if (!ids) return ids.error();
        query_ids = std::move(*ids);
        return Status::Ok();
      });
      if (!found.ok()) return Error(found);
      if (query_ids.empty()) {
        ForgetReport empty;
        empty.preview = !request.confirm;
        return empty;
      }
    }
    ForgetReport report;
    lifecycle::ForgetStores stores{*db_, tombstones_, audit_};
    std::vector<lifecycle::CuratedEntryRef> curated;
    Status st = db_->WriteTransaction([&]() -> Status {
      curated.clear();
      auto r = lifecycle::ForgetInTransaction(stores, request, query_ids, NowMs(), &curated);
      if (!r) return r.error();
      report = std::move(*r);
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    // The files after the database: a failure here leaves the entry in its file, said in warnings.
    RemoveForgottenCuratedEntries(options_, request.namespace_name, curated, &report);
    return report;
  }

  Result<Tombstone> Unforget(std::string_view id, std::string_view reason) override {
    if (id.empty()) return Error(Status::InvalidArgument("field \"id\": is required and must not be empty"));
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", id, true));
    std::lock_guard<std::mutex> lock(mu_);
    Tombstone removed;
    lifecycle::ForgetStores stores{*db_, tombstones_, audit_};
    Status st = db_->WriteTransaction([&]() -> Status {
      auto r = lifecycle::UnforgetInTransaction(stores, id, "api", reason, NowMs());
      if (!r) return r.error();
      removed = std::move(*r);
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return removed;
  }

  Result<CreatedApiKey> CreateApiKey(const ApiKeyInput& input) override {
    std::lock_guard<std::mutex> lock(mu_);
    return lifecycle::CreateApiKey(*db_, input, NowMs());
  }

  Result<std::vector<ApiKeyInfo>> ListApiKeys(bool include_revoked) override {
    std::lock_guard<std::mutex> lock(mu_);
    return sqlite::ApiKeyStore(*db_).List(include_revoked);
  }

  Result<ApiKeyInfo> RevokeApiKey(std::string_view id) override {
    std::lock_guard<std::mutex> lock(mu_);
    return lifecycle::RevokeApiKey(*db_, id, NowMs());
  }

  Result<ApiKeyInfo> VerifyApiKey(std::string_view secret) override {
    std::lock_guard<std::mutex> lock(mu_);
    return lifecycle::VerifyApiKey(*db_, secret);
  }

  Result<CompactReport> Compact() override {
    std::lock_guard<std::mutex> lock(mu_);
    return lifecycle::Compact(*db_, audit_, "api");
  }

  Result<std::vector<Tombstone>> ListTombstones(const ListTombstonesQuery& query) override {
    if (query.limit < 1 || query.limit > 100000) {
      return Error(Status::InvalidArgument(fmt::format("field \"limit\": {} is outside 1–100000", query.limit)));
    }
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(query.namespace_name, query.all_namespaces));
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<int64_t> ns;
    if (!query.all_namespaces) {
      auto found = store_.FindNamespace(query.namespace_name);
      if (!found) return Error(found.error());
      if (!found->has_value()) {
        return Error(Status::NotFound(fmt::format("namespace \"{}\" does not exist", query.namespace_name)));
      }
      ns = **found;
    }
    return tombstones_.List(ns, query.object_id, query.limit, query.after_seq);
  }

  Result<std::vector<AuditEntry>> AuditTrail(const AuditQuery& query) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", query.object_id, true));
    if (query.limit < 1 || query.limit > 100000) {
      return Error(Status::InvalidArgument(fmt::format("field \"limit\": {} is outside 1–100000", query.limit)));
    }
    std::lock_guard<std::mutex> lock(mu_);
    return audit_.ForObject(query.object_id, query.after_seq, query.limit);
  }

  Result<DumpCounts> Export(const NamespaceScope& scope, std::ostream& out) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(scope.namespace_name, scope.all_namespaces));
    const std::string& namespace_name = scope.namespace_name;
    std::lock_guard<std::mutex> lock(mu_);
    // integrity_check, not quick_check: a damaged row its indexes disagree with reads without
    // an error and would be left out of the dump silently.
    const std::vector<std::string> damage = lifecycle::IntegrityCheckProblems(*db_, kDamageLines);
    if (!damage.empty()) {
      return Error(NoteDamage(Status::Corruption(fmt::format(
          "the database is damaged (integrity_check: {}); nothing exported: `engram doctor` shows what still "
          "reads, `engram export --salvage` writes it",
          JoinFirst(damage)))));
    }
    return lifecycle::ExportDump(*db_, namespace_name, out);
  }

  Result<DumpCounts> Salvage(const NamespaceScope& scope, std::ostream& out) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(scope.namespace_name, scope.all_namespaces));
    const std::string& namespace_name = scope.namespace_name;
    std::lock_guard<std::mutex> lock(mu_);
    const std::vector<std::string> damage = lifecycle::QuickCheckProblems(*db_, kDamageLines);
    auto counts = lifecycle::ExportDump(*db_, namespace_name, out);
    if (!counts) {
      if (counts.error().code() != StatusCode::kCorruption) return counts;
      return Error(NoteDamage(counts.error().WithContext("salvage stopped; the lines before it were written")));
    }
    if (damage.empty()) return counts;
    return Error(NoteDamage(Status::Corruption(fmt::format(
        "the database is damaged (quick_check: {}); every exported row was read and written ({} events, {} "
        "claims, {} tombstones)",
        JoinFirst(damage), counts->events, counts->claims, counts->tombstones))));
  }

  Result<ImportReport> Import(std::istream& in) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto report = lifecycle::ImportDump(*db_, store_, tombstones_, in);
    if (!report) return report;
    ENGRAM_RETURN_IF_ERROR(AssignPendingTtl());
    return report;
  }

  Result<WorkingMemory> Working(const WorkingMemoryQuery& query) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(query.namespace_name, false));
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("session_id", query.session_id, true));
    if (query.budget_tokens < 1 || query.budget_tokens > 1000000) {
      return Error(Status::InvalidArgument(
          fmt::format("field \"budget_tokens\": {} is outside 1–1,000,000", query.budget_tokens)));
    }
    if (query.summary.size() > 1000000) {
      return Error(Status::InvalidArgument("field \"summary\": over 1,000,000 bytes"));
    }
    std::lock_guard<std::mutex> lock(mu_);
    WorkingMemory wm;
    std::vector<std::string> lineage;
    Status st = db_->ReadTransaction([&]() -> Status {
      auto events = LineageEvents(store_, query.namespace_name, query.session_id, kWorkingMaxEvents, &lineage);
      if (!events) return events.error();
      wm = working::BuildWorkingMemory(*events, query);
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    wm.lineage = std::move(lineage);
    wm.namespace_name = query.namespace_name;
    wm.session_id = query.session_id;
    return wm;
  }

  Result<std::vector<CuratedStoreState>> ReadCurated(std::string_view namespace_name) override {
    return ReadCuratedStores(options_, namespace_name);
  }

  Result<CuratedWriteResult> WriteCurated(const CuratedWrite& write) override {
    return WriteCuratedStore(*this, options_, write);
  }

  Result<CuratedSnapshot> SnapshotCurated(std::string_view namespace_name, std::string_view session_id) override {
    return SnapshotCuratedStores(options_, namespace_name, session_id);
  }

  Result<std::string> BindCurated(std::string_view namespace_name, const std::string& folder) override {
    return BindCuratedFolder(options_, namespace_name, folder);
  }

  Result<Episode> StartEpisode(const EpisodeStartInput& input) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(input.namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    return experience_.Start(input, NowMs());
  }

  Result<Episode> AddEpisodeStep(const EpisodeStepAppend& input) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(input.namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    return experience_.AddStep(input, NowMs());
  }

  Result<EndEpisodeResult> EndEpisode(const EpisodeEndInput& input) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(input.namespace_name, false));
    Result<EndEpisodeResult> ended = [&] {
      std::lock_guard<std::mutex> lock(mu_);
      return experience_.End(input, NowMs());
    }();
    if (ended) AskModelAfter(input.namespace_name, &ended->rules);
    return ended;
  }

  Result<EndEpisodeResult> SetEpisodeType(std::string_view namespace_name, std::string_view episode_id,
                                          std::string_view task_type) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(namespace_name, false));
    Result<EndEpisodeResult> retyped = [&] {
      std::lock_guard<std::mutex> lock(mu_);
      return experience_.SetType(namespace_name, episode_id, task_type, NowMs());
    }();
    if (retyped) AskModelAfter(namespace_name, &retyped->rules);
    return retyped;
  }

  Result<Episode> GetEpisode(std::string_view namespace_name, std::string_view episode_id) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    return experience_.Get(namespace_name, episode_id);
  }

  Result<std::vector<Episode>> ListEpisodes(const ListEpisodesQuery& query) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(query.namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    return experience_.List(query);
  }

  Result<RuleUpdateReport> Distill(const DistillRequest& request) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(request.namespace_name, false));
    return DistillPass(request);
  }

  Result<std::vector<Rule>> ListRules(const ListRulesQuery& query) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(query.namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    return experience_.ListRules(query);
  }

  Result<RuleDetail> GetRule(std::string_view namespace_name, std::string_view rule_id) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    return experience_.GetRule(namespace_name, rule_id);
  }

  Result<ExperienceResult> RecallExperience(const ExperienceQuery& query) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(query.namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    const TimestampMs now = NowMs();
    auto result = experience_.Recall(query, now);
    if (!result) return result;
    // What recall returned counts as an access of its forget score (experience_forget_score.h):
    // batched with the claims' recall hits, written by the next maintenance pass.
    std::vector<std::string> hits;
    for (const ExperienceRule& r : result->rules) hits.push_back(r.rule.id);
    for (const ExperienceEpisode& e : result->episodes) hits.push_back(e.episode.id);
    if (!damaged_) access_.Record(hits, now);
    if (access_.Due(now, options_.lifecycle.access_flush_claims, options_.lifecycle.access_flush_ms)) SpillAccess();
    return result;
  }

  Result<std::vector<ColdExperience>> ListColdExperience(std::string_view namespace_name, int limit) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(namespace_name, false));
    std::lock_guard<std::mutex> lock(mu_);
    return experience_.ListCold(namespace_name, limit);
  }

  Result<SegmentReport> SegmentEpisodes(const SegmentRequest& request) override {
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(request.namespace_name, false));
    RuleUpdateReport rules;
    Result<SegmentReport> report = [&] {
      std::lock_guard<std::mutex> lock(mu_);
      auto r = experience_.Segment(request, NowMs());
      rules.task_types_distilled = experience_.TakeSegmentDistilled();
      return r;
    }();
    // The segment report has no rule report: what the LLM path did there is only logged.
    AskModelAfter(request.namespace_name, &rules);
    return report;
  }

  Result<BackupManifest> Backup(const std::string& path) override {
    std::lock_guard<std::mutex> lock(mu_);
    return lifecycle::Backup(*db_, path);
  }

 private:
  // One rule for every entry point (library, CLI, later REST and MCP).
  static Status ValidateForgetRequest(const ForgetRequest& r) {
    const int selectors = static_cast<int>(!r.ids.empty()) + static_cast<int>(r.all) +
                          static_cast<int>(!r.session_id.empty()) + static_cast<int>(!r.subject.empty()) +
                          static_cast<int>(r.before.has_value()) + static_cast<int>(!r.query.empty());
    if (selectors == 0) {
      return Status::InvalidArgument("nothing selected: give ids, or one of all, session, subject, before, query");
    }
    if (selectors > 1) {
      return Status::InvalidArgument(
          "ids, all, session, subject, before and query exclude each other: give exactly one");
    }
    ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(r.namespace_name, false));
    for (const std::string& id : r.ids) ENGRAM_RETURN_IF_ERROR(ValidateNameField("id", id, true));
    if (!r.session_id.empty()) ENGRAM_RETURN_IF_ERROR(ValidateNameField("session", r.session_id, true));
    if (!r.subject.empty()) ENGRAM_RETURN_IF_ERROR(ValidateNameField("subject", r.subject, true));
    if (!r.query.empty()) {
      if (!IsValidUtf8(r.query)) return Status::InvalidArgument("field \"query\": is not valid UTF-8");
      if (IsBlank(r.query)) return Status::InvalidArgument("field \"query\": must not be blank");
    }
    if (r.query_limit < 1 || r.query_limit > 1000) {
      return Status::InvalidArgument(fmt::format("field \"limit\": {} is outside 1–1000", r.query_limit));
    }
    if (!IsValidUtf8(r.reason) || CodePointCount(r.reason) > 1000) {
      return Status::InvalidArgument("field \"reason\": must be valid UTF-8 and at most 1000 characters");
    }
    ENGRAM_RETURN_IF_ERROR(ValidateNameField("actor", r.actor, true));
    return Status::Ok();
  }

  // Writes the batched recall hits into the claims in one write transaction (waiting for the lock
  // like any writer); returns how many claims were updated. On an error they stay pending (and go
  // back to the hits log when the Engine is destroyed). Caller holds mu_.
  Result<int64_t> FlushAccess() {
    if (access_.pending() == 0) return int64_t{0};
    int64_t n = 0;
    Status st = db_->WriteTransaction([&]() -> Status {
      auto written = access_.WriteInTransaction(*db_);
      if (!written) return written.error();
      n = *written;
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    access_.Clear();
    return n;
  }

  // The maintenance step of experience forgetting over one namespace, in one write batch.
  Result<experience::ForgettingReport> ForgetColdExperience(lifecycle::MaintainContext& ctx, int64_t namespace_id,
                                                            const std::string& actor) {
    experience::ForgettingReport out;
    Status st = ctx.run_batch([&]() -> Status {
      lifecycle::ForgetStores stores{*db_, tombstones_, audit_};
      auto r = experience::ForgetColdExperience(stores, namespace_id, ctx.now, options_.experience, actor);
      if (!r) return r.error();
      out = *r;
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return out;
  }

  // Appends the pending hits to the hits log and forgets them (best effort: they are advisory).
  // Without a log (":memory:", a file this process cannot write) they stay for Maintain. Nothing is
  // logged for a database a read found damaged. Caller holds mu_.
  void SpillAccess() {
    if (hits_log_ == nullptr || access_.pending() == 0) return;
    if (!damaged_) (void)hits_log_->Append(access_);
    access_.Clear();
  }

  // Remembers that a read found the file damaged (no more hits are logged for it); returns `st`.
  Status NoteDamage(const Status& st) {
    if (st.code() == StatusCode::kCorruption) {
      damaged_ = true;
      access_.Clear();
    }
    return st;
  }

  // The first lines of `lines`, joined with "; ".
  static std::string JoinFirst(const std::vector<std::string>& lines) {
    std::string out;
    for (size_t i = 0; i < lines.size() && i < 3; ++i) out += (i ? "; " : "") + lines[i];
    if (lines.size() > 3) out += fmt::format("; {} more", lines.size() - 3);
    return out;
  }

  // Assigns the TTL of claims written since the last pass (lifecycle/maintain.h), when there are
  // any (one index seek otherwise). Caller holds mu_.
  // kTtlClaimsPerTransaction claims a transaction, the write lock given up between two (B43: a
  // drain's 20,000 new claims in one transaction kept every other writer waiting).
  Status AssignPendingTtl() {
    auto pending = db_->QueryInt("SELECT EXISTS (SELECT 1 FROM claims WHERE ttl_version = 0)");
    if (!pending) return pending.error();
    if (*pending == 0) return Status::Ok();
    for (int64_t assigned = kTtlClaimsPerTransaction; assigned == kTtlClaimsPerTransaction;) {
      ENGRAM_RETURN_IF_ERROR(db_->WriteTransaction([&]() -> Status {
        auto n = lifecycle::AssignTtlInTransaction(*db_, 0, kTtlClaimsPerTransaction);
        if (!n) return n.error();
        assigned = *n;
        return Status::Ok();
      }));
      if (assigned == kTtlClaimsPerTransaction) sqlite::YieldWriteLock();
    }
    return Status::Ok();
  }

  // The resurrection cold path for `query` (caller holds mu_): archived claims matching it become
  // active again. Returns how many.
  Result<int64_t> ResurrectFor(const RecallQuery& query) {
    auto ns = store_.FindNamespace(query.namespace_name);
    if (!ns) return Error(ns.error());
    if (!ns->has_value()) return int64_t{0};
    MatchExpression match = BuildMatchExpression(*analyzer_, query.text, query.match);
    if (match.fts5.empty()) return int64_t{0};
    int64_t revived = 0;
    Status st = db_->WriteTransaction([&]() -> Status {
      auto ids = lifecycle::ResurrectInTransaction(*db_, claims_, audit_, **ns, match.fts5,
                                                   options_.lifecycle.resurrect_limit, NowMs(), "recall",
                                                   options_.bm25_k1, options_.bm25_b);
      if (!ids) return ids.error();
      revived = static_cast<int64_t>(ids->size());
      return Status::Ok();
    });
    if (!st.ok()) return Error(st);
    return revived;
  }

  // `not_found`, or — when `id` was forgotten — a kNotFound that says so (never the content).
  Status ForgottenOr(std::string_view id, const Status& not_found) {
    auto tomb = tombstones_.Find(id);
    if (!tomb || !tomb->has_value()) return not_found;
    const Tombstone& t = **tomb;
    return Status::NotFound(fmt::format("{} \"{}\" was forgotten at {} (tombstone {})", t.object_type, t.object_id,
                                        FormatTimestamp(t.created_at), t.id));
  }

  // Stores one validated row inside the caller's write transaction (idempotent on its key).
  Result<IngestResult> StoreRow(const sqlite::EventRow& row) {
    const Event& e = row.event;
    auto ns = store_.EnsureNamespace(e.namespace_name, e.recorded_at);
    if (!ns) return Error(ns.error());
    auto existing = store_.FindByIdempotencyKey(*ns, e.idempotency_key);
    if (!existing) return Error(existing.error());
    if (existing->has_value()) return IngestResult{std::move(**existing), true, false, ""};
    // Forgotten content stays forgotten (docs/forget.md): nothing is stored.
    auto tomb = tombstones_.FindForEvent(*ns, e.content_hash, e.idempotency_key);
    if (!tomb) return Error(tomb.error());
    if (tomb->has_value()) {
      IngestResult forgotten{e, false, true, **tomb};
      forgotten.event.id.clear();
      return forgotten;
    }
    auto session = store_.EnsureSession(*ns, row, e.recorded_at);
    if (!session) return Error(session.error());
    auto seq = store_.Insert(*ns, *session, row);
    if (!seq) return Error(seq.error());
    // Extraction is enqueued in the same transaction: an acknowledged event is never forgotten.
    ENGRAM_RETURN_IF_ERROR(jobs_.EnqueueExtraction(*ns, *session, *seq, e.recorded_at));
    // A tool call in a session with an open explicit episode is its next step, in the same
    // transaction: stored once with the event (a replay returned above).
    ENGRAM_RETURN_IF_ERROR(experience_.AttachToolCall(*ns, e, e.recorded_at));
    return IngestResult{e, false, false, ""};
  }

  // One distillation pass (experience/llm_distill_pass.h): with the LLM distiller, the windows are
  // read under the lock, the model is asked without it, and the offline rules and the checked
  // proposals are written under it in one transaction; without it, the offline pass alone.
  Result<RuleUpdateReport> DistillPass(const DistillRequest& request) {
    if (!distiller_status_.ok()) return Error(distiller_status_);
    RuleUpdateReport asked;
    std::vector<experience::ModelProposals> proposals;
    if (llm_distiller_ != nullptr) {
      Result<std::vector<experience::DistillWindow>> windows = [&] {
        std::lock_guard<std::mutex> lock(mu_);
        return experience_.DistillWindows(request);
      }();
      if (!windows) return Error(windows.error());
      proposals = experience::AskModel(*llm_distiller_, *windows, &asked);
    }
    std::lock_guard<std::mutex> lock(mu_);
    auto report = experience_.Distill(request, NowMs(), proposals);
    if (report) experience::MergeLlmReport(asked, &*report);
    return report;
  }

  // After an episode end, retype or segmentation that distilled types offline (its transaction committed): the
  // LLM path for those types, its counts added to *report. A failure is a line of
  // report->llm_errors, never the call's error: the episode and the offline rules are stored. So is
  // a distiller that cannot be set up (distiller_status_).
  void AskModelAfter(std::string_view namespace_name, RuleUpdateReport* report) {
    if (llm_distiller_ == nullptr && distiller_status_.ok()) return;
    for (const std::string& type : std::vector<std::string>(report->task_types_distilled)) {
      auto pass = DistillPass({.namespace_name = std::string(namespace_name), .task_type = type});
      if (!pass) {
        spdlog::warn("llm distiller: the pass after the episode for type {} failed: {}", type,
                     pass.error().ToString());
        report->llm_errors.push_back(fmt::format("{}: {}", type, pass.error().ToString()));
        continue;
      }
      experience::MergeLlmReport(*pass, report);
    }
  }

  std::mutex mu_;
  std::unique_ptr<sqlite::Database> db_;
  sqlite::EventStore store_;
  sqlite::ClaimStore claims_;
  sqlite::JobStore jobs_;
  sqlite::TombstoneStore tombstones_;
  sqlite::AuditLog audit_;
  sqlite::FeedbackStore feedback_;
  std::unique_ptr<text::Analyzer> analyzer_;
  TextReadings readings_;  // recall's readings of texts, under mu_
  experience::ExperienceMemory experience_;  // episodes, rules, experience recall (guarded by mu_)
  std::unique_ptr<extraction::Extractor> extractor_;
  std::unique_ptr<extraction::Extractor> rules_;
  PredicateRegistry registry_;
  Options options_;
  std::unique_ptr<providers::EmbedderFactory> embedders_;
  Status embedder_status_;  // why the configured embedder cannot be used (OK when it can)
  std::unique_ptr<providers::RerankClient> reranker_;  // null = no reranker configured
  std::unique_ptr<experience::LlmRuleDistiller> llm_distiller_;  // null = offline distillation only
  Status distiller_status_;  // why the configured distiller cannot be set up (OK when it can)
  std::unique_ptr<DenseIndex> dense_;
  // Options::word_kin, opened by the first recall (under mu_): a CLI call that only writes never
  // maps the file. Null when off or it cannot be opened (word_kin_status_ says why).
  std::unique_ptr<providers::WordKin> word_kin_;
  KinLookup write_kin_ = MakeWriteKin();  // ClaimWriteInput::kin
  std::optional<Status> word_kin_status_;  // set once tried
  lifecycle::AccessBatch access_;  // recall hits not yet in the log or the claims (guarded by mu_)
  std::unique_ptr<lifecycle::HitsLog> hits_log_;  // null: no log (see SpillAccess)
  bool damaged_ = false;  // a read found the file damaged (guarded by mu_)
  static constexpr int kDamageLines = 20;  // quick_check lines kept by Stats and Export
};

}  // namespace

Status Engine::ValidateEvent(const EventInput& input) {
  auto row = ValidateEventInput(input, NowMs());
  return row ? Status::Ok() : row.error();
}

Result<RestoreReport> Engine::Restore(const Options& options, const std::string& backup_path) {
  return lifecycle::Restore(options, backup_path);
}

Result<BackupManifest> Engine::VerifyBackup(const std::string& backup_path) {
  return lifecycle::VerifyBackupReadOnly(backup_path);
}

VersionInfo GetVersionInfo() {
  return VersionInfo{ENGRAM_VERSION, sqlite::RunningSqliteVersion(),
                     sqlite::HasWalResetBug(sqlite3_libversion_number())};
}

Result<DoctorReport> Engine::DoctorFile(const Options& options) {
  Options read = options;
  read.open_mode = OpenMode::kReadOnly;
  auto db = sqlite::Database::Open(read);
  if (!db) {
    if (db.error().code() == StatusCode::kCorruption) return lifecycle::UnreadableFileReport(db.error());
    return Error(db.error());
  }
  ENGRAM_RETURN_IF_ERROR(sqlite::RegisterFts5Extensions((*db)->handle()));
  return lifecycle::Diagnose(**db);
}

Status Engine::ValidateDistiller(const Options& options) {
  auto distiller = experience::MakeLlmDistiller(options.experience);
  return distiller ? Status::Ok() : distiller.error();
}

Result<std::unique_ptr<Engine>> Engine::Open(const Options& options) {
  // The reranker's settings first: bad ones are the caller's error at every entry point (library,
  // CLI), before any file is created.
  auto rerank_options = providers::ResolveRerankOptions(options.rerank);
  if (!rerank_options) return Error(rerank_options.error());
  // A distiller that cannot be set up fails only the calls that distil (DistillPass): reading
  // and writing memory do not need it.
  auto llm_distiller = experience::MakeLlmDistiller(options.experience);
  const Status distiller_status = llm_distiller ? Status::Ok() : llm_distiller.error();
  auto db = OpenStore(options);
  if (!db) return Error(db.error());
  auto analysis = sqlite::StoredTextAnalysis(**db);
  if (!analysis) return Error(analysis.error());
  auto analyzer = text::Analyzer::Create(*analysis);
  if (!analyzer) return Error(analyzer.error());
  std::string extractor_name = options.extractor;
  if (const char* env = std::getenv("ENGRAM_EXTRACTOR"); env != nullptr && *env != '\0') extractor_name = env;
  auto extractor = extraction::MakeExtractor(extractor_name);
  if (!extractor) return Error(extractor.error());
  auto rules = extraction::MakeExtractor("rules");
  if (!rules) return Error(rules.error());
  // A configured embedder that cannot be set up (a missing model file) does not stop the engine:
  // full-text recall works and every recall says why the dense channel is off.
  std::unique_ptr<providers::EmbedderFactory> embedders;
  Status embedder_status = Status::Ok();
  auto factory = providers::EmbedderFactory::FromOptions(options);
  if (factory) {
    embedders = std::move(*factory);
  } else {
    if (factory.error().code() == StatusCode::kInvalidArgument) return Error(factory.error());
    embedder_status = factory.error();
  }
  std::unique_ptr<providers::RerankClient> reranker;
  if (!rerank_options->base_url.empty()) {
    auto client = providers::RerankClient::Create({*rerank_options, 2, 20, nullptr});
    if (!client) return Error(client.error());
    reranker = std::move(*client);
  }
  return std::unique_ptr<Engine>(new EngineImpl(std::move(*db), std::move(*analyzer), std::move(*extractor),
                                                std::move(*rules), options, std::move(embedders),
                                                std::move(embedder_status), std::move(reranker),
                                                llm_distiller ? std::move(*llm_distiller) : nullptr,
                                                distiller_status));
}

}  // namespace engram
