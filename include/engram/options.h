// engram/options.h — how an Engine is opened.
#ifndef ENGRAM_INCLUDE_OPTIONS_H_
#define ENGRAM_INCLUDE_OPTIONS_H_

#include <string>
#include <vector>

namespace engram {

// How text is turned into search terms. Fixed when a database is created (stored in its schema).
enum class TextAnalysis {
  // ICU word segmentation, NFKC case folding, CJK character bigrams (and unigrams), Snowball
  // English stems indexed next to the raw word, English stopwords dropped from queries.
  kFull,
  // Lowercase alphanumeric words only: no stems, no bigrams, no stopwords. The baseline that
  // benchmarks compare against; not meant for users.
  kPlain,
};

// How recall weighs its event channels. Each channel's scores are min-max normalised over the
// candidates of one query, then summed with these weights (weighted score fusion beat reciprocal
// rank fusion on the LoCoMo dev split: 0.671 vs 0.648 recall@10). A weight of 0 turns the channel
// off. The values are the round values fixed in advance by the study in
// ../shared/reference/retrieval_findings.md (not tuned to the benchmark); docs/retrieval.md has
// the ablation.
struct RecallWeights {
  double turn = 1.0;     // BM25 of the event's own text
  double window = 0.5;   // BM25 of the events i−r..i+r of its session taken as one text
  // BM25 of the question this event answers: the event just before it in its session, by another
  // speaker (or role), asking a question (recall/turn_scorer.h). Not in the study; 0.5 like the other
  // secondary channels (+0.033 recall@5, +0.033 recall@10 on LoCoMo dev, bench/RESULTS.md).
  double reply = 0.5;
  double dense = 0.5;    // cosine similarity of the embeddings (when a vector model is set up)
  double date = 0.5;     // the event falls in a date the question names ("in May 2023")
  // The event's speaker is named in the question. The study's prior was 0.1; on LoCoMo dev 96% of
  // the gold turns of a question naming one speaker are that speaker's own (931 of 968), and
  // choosing among 0.1/0.2/0.3/0.5/1.0 on four conversations and scoring the fifth picks 0.3 every
  // time (recall@10 0.765 at 0.1 → 0.775; bench/RESULTS.md, session 5).
  double speaker = 0.3;
  // BM25 of the best claim read from the event that matches the question (claims as extra keys
  // of their evidence; such events also join the candidates: "Where do I live?" finds "I moved to
  // Porto." through its claim "user lives in Porto"). Not in the study. A nudge since session 5:
  // with the reply channel and the speaker prior at 0.3, LoCoMo dev recall@5/@10 at weights
  // 0 / 0.1 / 0.2 / 0.5 measured 0.709/0.776, 0.711/0.780, 0.704/0.780, 0.692/0.771
  // (rule-extracted claims — "did", "doing", "plans_to" — add few words their event lacks).
  double claims = 0.1;
  // Utility prior: helpful − unhelpful ratings of the event (`engram feedback`, every question).
  // Worth as much as the speaker prior (0.1): a nudge between close candidates, not an override;
  // an item rated unhelpful falls behind equally matched unrated ones.
  double feedback = 0.1;
  int window_radius = 2;   // r: events either side of the scored one in the window channel
  int window_pool = 100;   // best single-event matches whose neighbourhoods are read
  // When the question names exactly one day that holds events ("on May 4th", "5月4日",
  // "yesterday" against --now), only that day's events are candidates (issue 4: a time window is a
  // filter only when certain). Otherwise dates only boost.
  bool filter_named_day = true;
};

// The optional reranker of recall (docs/retrieval.md, "Reranker"): after fusion and folding, the
// best `pool` items are scored by a cross-encoder behind a rerank API (vLLM, llama.cpp server,
// Hugging Face TEI, Cohere-compatible gateways) and reordered by that score. Off while base_url is
// empty. Every field is overridden by its environment variable when that is set and not empty:
// $ENGRAM_RERANK_BASE_URL, _MODEL, _API_KEY, _FORMAT, _POOL, _BUDGET_MS. When the reranker is
// slow, down or answers nonsense, recall still succeeds with the fused order and says so
// (RecallResult::rerank). Engine::Open rejects bad values with kInvalidArgument naming the field.
struct RerankOptions {
  // Everything before "/rerank": "http://127.0.0.1:8000/v1" (vLLM, llama.cpp server),
  // "http://127.0.0.1:8080" (TEI). http or https. Empty = no reranker.
  std::string base_url;
  std::string model;    // sent as "model" when not empty (format "cohere")
  std::string api_key;  // sent as "Authorization: Bearer <api_key>" when not empty
  // "cohere": {"model","query","documents","top_n"} → {"results":[{"index","relevance_score"}]}
  // (vLLM, llama.cpp server, Jina, Cohere); "tei": {"query","texts"} → [{"index","score"}]
  // (text-embeddings-inference's native /rerank). Either reply shape is accepted.
  std::string format = "cohere";
  // How many of the best fused items are sent (1–100; when larger than the query's limit, the
  // stage looks this deep and the limit is cut after it). 20: twice the default limit of 10, so
  // the model can lift an item from just below the cut; a cross-encoder's cost grows linearly
  // with the pairs it reads (a CPU-only llama.cpp reranker was measured at ≈ 0.5 s per pair, and
  // cutting its pool from 50 to 20 cut latency 2.5×:
  // https://git.jpaul.io/justin/crop-chem-docs/raw/commit/278fe5f456a952204a5b6e6354a5415235a2945d/deploy/rerank-docker.md).
  int pool = 20;
  // The whole rerank step (every attempt and retry), ms, 1–60000. 300 ms: recall itself takes a
  // few ms, and an agent waits for the packet before it can answer; 300 ms is enough for a GPU
  // cross-encoder over 20 short chat turns but not for a CPU-only one (raise it there, e.g. to
  // 2000). Not measured here (no model weights, no network): see docs/retrieval.md.
  int budget_ms = 300;
};

// The lifecycle (docs/lifecycle.md): TTL, activation decay, archive, resurrection. The TTL table,
// half-lives and thresholds are constants of lifecycle/ttl.h and lifecycle/decay.h (HL-Mem's,
// ../shared/reference/hlmem_hindsight.md §A5); these are the switches around them.
struct LifecycleOptions {
  // When a recall finds nothing current, search archived claims and bring the best matches back
  // to active (audited as "resurrected"). Off by default, as in HL-Mem 1.1.5 (§A4 item 10).
  bool resurrect_archived = false;
  int resurrect_limit = 3;  // at most this many claims per recall
  // Recall hits are counted in memory and appended to the hits log beside the database
  // ("<db>-hits", lifecycle/hits_log.h: one write(2), no database lock) when this many claims are
  // pending or the oldest pending hit is this old (ms), and when the Engine is destroyed; Maintain
  // writes the log into the claims. Recall never writes the database.
  int access_flush_claims = 256;
  int access_flush_ms = 60000;
  // Claims updated per write transaction by a maintenance pass: the write lock is released
  // between batches so that writers interleave (readers never wait: WAL).
  int maintain_batch = 500;
};

// Experience memory (docs/experience.md): how experience recall ranks similar episodes, and when
// rules are distilled.
struct ExperienceOptions {
  // The score of a stored successful episode for a new task: similarity × (BM25 of its goal and
  // steps, divided by the best candidate's) + type_match × (the probability that its task type is
  // the new task's) + recency × exp(−days since it ended / recency_days). DESIGN.md starts from
  // 0.6 / 0.25 / 0.15 and 30 days; the values here are the ones the EXP-1 / EXP-2 benchmarks chose
  // (bench/RESULTS.md, 2026-12-03, and docs/experience.md: how and why).
  double similarity = 0.25;
  double type_match = 0.6;
  double recency = 0.15;
  double recency_days = 30;
  // BM25 weight of a match in the steps against one in the goal (1): the new task is a goal, and
  // steps hold arguments (ids, amounts) that other tasks share by accident.
  double steps_weight = 0.2;
  // The task-type model (experience/task_type_model.h): SGD epochs, and its L2 weight decay — 0 =
  // chosen per namespace by 3-fold cross-validation over its episodes (TrainSelectingL2), the
  // default: long telling goals want a weak decay, short vague ones a strong one.
  int type_model_epochs = 20;
  double type_model_l2 = 0;
  // Rules of a type are distilled once this many decided episodes of the type arrived since its
  // last distillation (DESIGN.md: "about 10"); `engram experience distill` distils at once.
  int distill_every = 10;
  // Distillation: "offline" (default: the counting distiller alone) or "llm" (the offline distiller
  // and, besides it, a chat model over an OpenAI-compatible API configured as for the LLM extractor
  // by ENGRAM_LLM_BASE_URL / ENGRAM_LLM_MODEL / ENGRAM_LLM_API_KEY; docs/experience.md, "The LLM
  // distiller"). $ENGRAM_DISTILLER overrides it when set. Its calls: this timeout per attempt (ms,
  // for connecting, sending and reading each) and this many extra attempts for timeouts, 429 and 5xx.
  std::string distiller = "offline";
  int distiller_timeout_ms = 30000;
  int distiller_max_retries = 1;
  // The episode segmenter (Engine::SegmentEpisodes) treats a session whose last event is this old
  // (ms) as over: what waits in its buffer is decided and its open segment becomes its last
  // episode. 30 minutes of inactivity, the session timeout of web analytics (Google Analytics'
  // default).
  int64_t segment_idle_ms = 30 * 60 * 1000;
  // Sharing between agents (docs/experience.md, experience/sharing_gate.h). DESIGN.md: an
  // experience enters the shared area after ≥ 70% success over ≥ 3 agents.
  int share_min_agents = 3;
  double share_min_success_rate = 0.7;
  // The weight of a shared experience for an agent that has typed episodes, none of the
  // experience's type (DESIGN.md: "down-weighted for agents of other task types"; 0.5 is the
  // weight this layer already gives what DESIGN.md calls down-weighted: pending rules).
  double shared_other_type_weight = 0.5;
  // Forgetting experience (experience/experience_forget_score.h). DESIGN.md: score = 0.5 ×
  // exp(−days since access / 60) + 0.3 × ln(accesses + 1) + 0.2 × success rate; below 0.2 cold
  // (out of recall), below 0.05 deleted (through the forget cascade, with tombstones, by a
  // maintenance pass after the one that made it cold).
  double forget_access_days = 60;
  double forget_cold_below = 0.2;
  double forget_delete_below = 0.05;
};

// What Engine::Open may do to the file at Options::db_path (docs/integrity.md). In every mode an
// existing file that is empty, not an SQLite database or not an engram database is refused with
// kCorruption and left exactly as it is, and a missing folder is kNotFound naming it (unless
// Options::create_folders).
enum class OpenMode {
  // Reads only: the file must exist and hold this build's schema (an older one is kCorruption:
  // "needs a migration", which any writing open does). Opened with SQLITE_OPEN_READONLY: no byte of
  // the database is written, nothing is created or migrated, and writes fail with kIOError. SQLite
  // keeps its -wal and -shm files beside a WAL database as for any reader; in a folder that cannot
  // be written and has none, the file is opened immutable. Recall hits go to the hits log
  // (lifecycle/hits_log.h), never to the database.
  kReadOnly,
  // Reads and writes an existing engram database; pending migrations run. A missing file is
  // kNotFound; a file or folder without write permission is kIOError ("read-only").
  kReadWrite,
  // kReadWrite, but a path that does not exist becomes a new database. It is built under a
  // temporary name beside it and linked into place when complete, so no other process ever sees
  // a half-made file at the path.
  kCreate,
};

struct Options {
  // Path of the SQLite database file (see open_mode).
  std::string db_path;

  // What opening may do to the file. The default creates a missing database, as before; the CLI
  // opens read commands kReadOnly, writing ones kReadWrite, and only ingest, remember and import
  // kCreate.
  OpenMode open_mode = OpenMode::kCreate;
  // kCreate only: create the missing parent folders of db_path. Off: a missing folder is kNotFound
  // (a typo in a path must not silently become a new, empty database).
  bool create_folders = false;

  // SQLite busy timeout per attempt, in ms. Short on purpose: contention is handled by retrying
  // the whole write with jitter (reference: Hermes state.db, 1 s, 15 attempts, 20–150 ms).
  int busy_timeout_ms = 1000;
  int max_write_attempts = 15;
  int retry_jitter_min_ms = 20;
  int retry_jitter_max_ms = 150;
  // A file that each connection appends one JSON line to when it closes, with how long its write
  // transactions waited for the write lock and held it: {"pid", "transactions", "wait_total_ms",
  // "wait_max_ms", "hold_total_ms", "hold_max_ms"} (a wait runs from the first BEGIN IMMEDIATE to
  // the one that took the lock, retries included; a hold from then to COMMIT done). "" = none. The CLI takes it from $ENGRAM_LOCK_WAIT_LOG (benchmarks:
  // bench/tools/writer_starvation.py).
  std::string lock_wait_log;
  // The WAL is checkpointed (PASSIVE) once it holds this many frames (pages), by the one process
  // that holds the checkpointer role of the file; 1000 is SQLite's own automatic-checkpoint
  // default. store/sqlite/checkpointer.h says why there is one checkpointer.
  int checkpoint_wal_frames = 1000;
  // Open even when the SQLite engram runs on has the WAL-reset bug (store/sqlite/sqlite_version.h);
  // also $ENGRAM_ALLOW_AFFECTED_SQLITE=1. Only for experiments: that bug loses committed writes.
  bool allow_affected_sqlite = false;
  // Bytes of the database file that SQLite reads through a memory map instead of read() calls
  // (PRAGMA mmap_size; 0 = off; SQLite caps it at its compile-time maximum). Recall over a large
  // namespace seeks all over the file: with the default 2 MB page cache, ≈ 23% of a recall at 1M
  // events went to copying pages out of the OS cache (bench/RESULTS.md, session 4). Address
  // space only: pages are shared with the OS file cache, not copied.
  int64_t mmap_bytes = int64_t{1} << 30;

  // Used only when the database is created; an existing database keeps its own.
  TextAnalysis analysis = TextAnalysis::kFull;

  // Curated memory (docs/curated.md): the folder that holds one folder per namespace, each with
  // MEMORY.md and USER.md. "" = "<db_path>.curated" (no default for ":memory:"). A namespace's
  // folder may be a symlink to another folder (`engram memory bind`: a Hermes home's memories/).
  std::string curated_dir;
  // Budgets in characters (code points, delimiters counted): Hermes's memory_char_limit and
  // user_char_limit (../shared/reference/hermes.md §1.2).
  int64_t curated_memory_chars = 2200;
  int64_t curated_user_chars = 1375;

  // BM25 parameters. Chat turns are short, so length normalisation is weak (b 0.4) and term
  // frequency saturates early (k1 0.9): measured on the LoCoMo dev split, see
  // docs/retrieval.md and ../shared/reference/retrieval_findings.md. Classic defaults: 1.2 / 0.75.
  double bm25_k1 = 0.9;
  double bm25_b = 0.4;

  RecallWeights recall;

  // Claim extraction: "rules" (offline, default), "llm" (OpenAI-compatible chat API from
  // ENGRAM_LLM_BASE_URL / ENGRAM_LLM_MODEL / ENGRAM_LLM_API_KEY) or "none". $ENGRAM_EXTRACTOR
  // overrides it when set.
  std::string extractor = "rules";
  // The worker's batch window: at most this many events of one session per extraction, or
  // whatever is pending after this wait (ms). Reference: HL-Mem's 5 events / 120 s.
  int extraction_batch_events = 5;
  int extraction_batch_wait_ms = 120000;
  int extraction_max_attempts = 5;
  // Extra single-valued predicates (beyond the built-in registry; see docs/claims.md).
  std::vector<std::string> single_valued_predicates;

  // The embedder of the dense recall channel (docs/retrieval.md, "Dense channel"): "none"
  // (default: no vectors, full text only), "glove" (SIF-weighted GloVe vectors from the file
  // written by `engram models install glove`), "hash" (character n-gram hashing, 256 dims; always
  // available, meant for tests) or "openai" (an OpenAI-compatible /v1/embeddings server configured
  // by ENGRAM_EMBED_BASE_URL / ENGRAM_EMBED_MODEL / ENGRAM_EMBED_API_KEY). $ENGRAM_EMBEDDER
  // overrides it when set.
  std::string embedder = "none";
  // "glove": the word-vector file; empty = DefaultGloveModelPath(). $ENGRAM_EMBEDDER_MODEL
  // overrides it when set.
  std::string embedder_model;
  // Kin words for current-first recall (docs/retrieval.md, "Kin words"; providers/word_kin.h): a
  // newer statement naming another thing of the kind an older one named ("Firefox" after "Chrome")
  // comes before it. "auto" (default): the word-vector file of `engram models install glove`
  // (DefaultGloveModelPath()) when it is installed, else off; "none": off; else the path of a
  // word-vector file. $ENGRAM_WORD_KIN overrides it when set.
  std::string word_kin = "auto";

  // The optional reranker (off by default; see RerankOptions).
  RerankOptions rerank;

  LifecycleOptions lifecycle;

  ExperienceOptions experience;
};

// The database path used when none is given: $ENGRAM_DB, else $XDG_DATA_HOME/engram/engram.db,
// else $HOME/.local/share/engram/engram.db.
std::string DefaultDatabasePath();

// Where `engram models install glove` writes the word vectors and where "glove" looks for them by
// default: $XDG_DATA_HOME/engram/models/glove-wink-100d.ewv, else
// $HOME/.local/share/engram/models/glove-wink-100d.ewv.
std::string DefaultGloveModelPath();

}  // namespace engram

#endif  // ENGRAM_INCLUDE_OPTIONS_H_
