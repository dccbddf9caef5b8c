// store/sqlite/vector_store.h — embedding vectors of events and claims, and exact top-k search
// over one namespace.
//
// Every row records the model id and dimension of its vector; a search reads only rows of one
// model id and refuses a query of another dimension, so vectors of different models are never
// compared (B45). Within one namespace a model id has one dimension: Put refuses a vector of
// another. Vectors are float32, stored as little-endian BLOBs of 4·dim bytes, normally
// L2-normalised by the embedder (the score is the plain dot product, i.e. the cosine then).
//
// Callers own transactions, as with EventStore and ClaimStore. A VectorStore must not outlive its
// Database (it keeps prepared statements on the connection). Not thread-safe: the Engine
// serialises calls on a connection.
#ifndef ENGRAM_STORE_SQLITE_VECTOR_STORE_H_
#define ENGRAM_STORE_SQLITE_VECTOR_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engram/status.h"
#include "store/sqlite/database.h"

namespace engram::sqlite {

// What a vector belongs to: stored as owner_type 'event' or 'claim', with the owner's seq.
enum class VectorOwner { kEvent, kClaim };

// "event" or "claim".
std::string_view VectorOwnerName(VectorOwner owner);

// One model's vectors in a namespace (see VectorStore::ModelsInUse).
struct VectorModelUsage {
  std::string model_id;
  int dim = 0;
  int64_t events = 0;  // rows with owner_type 'event'
  int64_t claims = 0;  // rows with owner_type 'claim'
};

class VectorStore {
 public:
  // The table and its scan index, for the schema migration (several statements; run with
  // Database::Exec inside the migration's transaction). Needs the `namespaces` table.
  static const char* const kVectorSchemaSql;

  explicit VectorStore(Database& db);
  ~VectorStore();
  VectorStore(const VectorStore&) = delete;
  VectorStore& operator=(const VectorStore&) = delete;

  // Stores (or replaces) the owner's vector for `model_id`.
  // Errors: kInvalidArgument when model_id is empty, the vector is empty, longer than 65536 or
  // holds a non-finite value, or the namespace already has vectors of this model id with another
  // dimension (the message names both); others from SQLite.
  Status Put(VectorOwner owner, int64_t owner_seq, int64_t namespace_id, std::string_view model_id,
             const std::vector<float>& vector);

  // The owner's vector for `model_id`, or nullopt. Errors: kCorruption for a blob whose length
  // is not 4·dim; others from SQLite.
  Result<std::optional<std::vector<float>>> Get(VectorOwner owner, int64_t owner_seq,
                                                std::string_view model_id);

  // Deletes the owner's vectors of every model; the number of rows deleted.
  Result<int64_t> Delete(VectorOwner owner, int64_t owner_seq);
  // Deletes every vector of a namespace; the number of rows deleted.
  Result<int64_t> DeleteNamespace(int64_t namespace_id);
  // Deletes a namespace's vectors of one model (after re-embedding with another); rows deleted.
  Result<int64_t> DeleteModel(int64_t namespace_id, std::string_view model_id);

  // The `k` owners of `owner` type in the namespace whose `model_id` vectors have the largest dot
  // product with `query`: (owner_seq, score), best first, ties by ascending owner_seq. Exact scan
  // over the namespace's rows of that model (no allocation per row). k ≤ 0 or no rows: empty.
  // Errors: kInvalidArgument when the query is empty or non-finite, or its dimension differs from
  // the stored vectors' (the message names both: re-embed or disable the vector channel);
  // kCorruption for a blob whose length is not 4·dim; others from SQLite.
  Result<std::vector<std::pair<int64_t, float>>> TopK(VectorOwner owner, int64_t namespace_id,
                                                      std::string_view model_id,
                                                      const std::vector<float>& query, int k);

  // The models with vectors in the namespace, by model id then dim, with row counts per owner
  // type. A model id listed twice (two dims) means the rows predate Put's check.
  Result<std::vector<VectorModelUsage>> ModelsInUse(int64_t namespace_id);

  // Number of rows of `model_id` in the namespace (of one owner type when given).
  Result<int64_t> Count(int64_t namespace_id, std::string_view model_id,
                        std::optional<VectorOwner> owner = std::nullopt);

 private:
  struct Impl;
  Database& db_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_VECTOR_STORE_H_
