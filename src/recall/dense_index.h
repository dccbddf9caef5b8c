// recall/dense_index.h — the dense (vector) channel of recall: event vectors of a namespace under
// the configured embedding model, kept up to date in the vectors table and in memory.
//
// * Embedding is lazy: the first recall of a namespace (in a process) embeds every event that has
//   no vector of the configured model and stores it (VectorStore, with model id and dimension);
//   later recalls embed only events newer than the last one seen. `engram reindex` re-embeds all.
// * B45: when the namespace holds event vectors of another model id, nothing is embedded and the
//   channel is off for that namespace, with a message naming both models and `engram reindex`;
//   full-text recall keeps working. Vectors of different model ids are never compared.
// * SIF state ("glove"): word frequencies p(w) from the namespace's own text and the first
//   principal component are fitted once, when the namespace is first embedded (or reindexed),
//   over its events up to seq S. The fit is kept in `meta` under key
//   "dense_fit/<namespace id>/<model id>" as JSON {"through_seq": S, "generation": g,
//   "component": [...]}; the frequencies are recounted from the namespace's events with seq ≤ S
//   when a process loads the fit (they are not stored). Newer events are embedded with the same
//   fit, so all vectors of a namespace stay comparable; `engram reindex` refits (generation + 1)
//   and re-embeds. A process that sees the stored fit change (another process reindexed) reloads.
//   A writable database's fit is made again, the same way, when the namespace has grown to twice
//   the events it was made on (up to 100,000), so a namespace first recalled at its second event is not read
//   forever with that event's word frequencies; no principal component is removed below 50
//   texts (dense_index.cc, kMinComponentTexts).
// * In memory: one row-major float matrix per namespace. Before each recall a count and max(seq)
//   of the namespace's vector rows are compared with the matrix; new rows are appended, anything
//   else (a forget deleted rows, a reindex) reloads the matrix. Forgotten events' vectors are
//   deleted by the forget cascade and so never returned. Both checks are skipped when nothing
//   was written since the last one (PRAGMA data_version and the connection's change count are
//   unchanged): measured at 100k events × 100 dims on the 2-core VM, the count costs ≈ 12 ms, the
//   in-memory scan with top-100 ≈ 8 ms, VectorStore::TopK through SQLite ≈ 59 ms.
//
// Not thread-safe: the Engine serialises calls.
#ifndef ENGRAM_RECALL_DENSE_INDEX_H_
#define ENGRAM_RECALL_DENSE_INDEX_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engram/status.h"
#include "providers/embedder.h"
#include "providers/embedder_factory.h"
#include "store/sqlite/database.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/vector_store.h"

namespace engram {

// The event vectors of one namespace under one model.
struct DenseMatrix {
  int dim = 0;
  std::vector<int64_t> seqs;  // ascending
  std::vector<float> values;  // seqs.size() × dim, row-major, L2-normalised (or zero)
  std::unordered_map<int64_t, size_t> row_of;
  int64_t max_seq = 0;
};

// What RecallEvents needs for the dense channel (see RecallContext::dense).
struct DenseQuery {
  const DenseMatrix* matrix = nullptr;
  std::vector<float> vector;  // the query, matrix->dim floats
  // False for a SIF fit without a principal component (fewer than 50 texts): every cosine is near
  // the common direction's (a question's with its answer had median 0.86, with an unrelated
  // event's 0.81 on two-event namespaces), so the cosines only score the candidates other channels
  // found; the best of them do not join the candidates.
  bool admits_candidates = true;
};

class DenseIndex {
 public:
  // store_vectors = false (a read-only database): the SIF fit and the vectors of events that have
  // none are computed and kept in this object only, never written.
  DenseIndex(sqlite::Database& db, sqlite::EventStore& store, const providers::EmbedderFactory& factory,
             bool store_vectors = true);
  ~DenseIndex();

  // The dense channel of one recall: nullopt query with a warning when the channel is off for
  // this namespace (another model's vectors, a dimension mismatch, an embedder error — never an
  // error of the recall), nullopt without a warning for an unknown namespace. Embeds events that
  // lack a vector (a write transaction; in memory only without store_vectors) and refreshes the
  // matrix first. Errors: SQLite errors.
  struct Prepared {
    std::optional<DenseQuery> query;
    std::string warning;
  };
  Result<Prepared> Prepare(std::string_view namespace_name, std::string_view text);

  // Deletes every vector of the namespace's events (all models), refits the SIF state and embeds
  // every event with the configured model. Returns the number of events embedded.
  // Errors: kNotFound (unknown namespace); the embedder's errors; SQLite errors.
  Result<int64_t> Reindex(std::string_view namespace_name);

  // The text an event is embedded from: "speaker: content", or the content alone.
  static std::string EventText(std::string_view speaker, std::string_view content);

 private:
  struct Space;
  Result<Space*> SpaceOf(int64_t namespace_id);
  // Loads the stored fit, or fits (refit, or none stored) and stores it unless another process
  // stored one since it was read: then that one is loaded (once; retry = false fails instead with
  // kFailedPrecondition).
  Status LoadOrFit(Space& space, int64_t namespace_id, bool refit, bool retry = true);
  Status CatchUp(Space& space, int64_t namespace_id);
  Status Refresh(Space& space, int64_t namespace_id);
  // The namespace's space, caught up and refreshed, fitted again when outgrown; once more from the
  // start when another process stored a new fit meanwhile. Errors: as CatchUp, Refresh, Refit.
  Result<Space*> Current(int64_t namespace_id);
  // True when a fitted ("glove") space of a writable database, caught up, was fitted on fewer
  // than 1/kRefitGrowth of the namespace's events (and on fewer than kRefitUpTo).
  bool Outgrown(const Space& space) const;
  // The stored fit of the namespace under the configured model ("" when none). Errors: SQLite.
  Result<std::string> StoredFit(int64_t namespace_id);
  // Fits the namespace again on all its events (generation + 1) and re-embeds every event (in
  // memory only without store_vectors). A new fit is stored in one transaction with the deletion
  // of the model's earlier vectors; every_model deletes every model's first (reindex). Errors: the
  // embedder's; SQLite errors.
  Result<Space*> Refit(int64_t namespace_id, bool every_model);

  sqlite::Database& db_;
  sqlite::EventStore& store_;
  const providers::EmbedderFactory& factory_;
  sqlite::VectorStore vectors_;
  std::map<int64_t, std::unique_ptr<Space>> spaces_;
  bool store_vectors_ = true;
};

}  // namespace engram

#endif  // ENGRAM_RECALL_DENSE_INDEX_H_
