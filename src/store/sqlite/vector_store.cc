#include "store/sqlite/vector_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

namespace engram::sqlite {

static_assert(std::endian::native == std::endian::little,
              "vector BLOBs are little-endian float32 and read in place");

const char* const VectorStore::kVectorSchemaSql = R"sql(
CREATE TABLE vectors (
  owner_type   TEXT NOT NULL CHECK (owner_type IN ('event','claim')),
  owner_seq    INTEGER NOT NULL,
  namespace_id INTEGER NOT NULL REFERENCES namespaces(id),
  model_id     TEXT NOT NULL,
  dim          INTEGER NOT NULL CHECK (dim > 0),
  vector       BLOB NOT NULL CHECK (length(vector) = 4 * dim),
  PRIMARY KEY (owner_type, owner_seq, model_id)
) STRICT;
CREATE INDEX vectors_scan ON vectors(namespace_id, model_id, owner_type);
)sql";

namespace {

constexpr size_t kMaxDim = 65536;

// A prepared statement on the raw connection (Statement has no BLOB binding).
struct StmtDeleter {
  void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtDeleter>;

// Resets and clears the bindings when a use of a cached statement ends.
class StmtUse {
 public:
  explicit StmtUse(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~StmtUse() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  StmtUse(const StmtUse&) = delete;
  StmtUse& operator=(const StmtUse&) = delete;

 private:
  sqlite3_stmt* stmt_;
};

void BindText(sqlite3_stmt* stmt, int index, std::string_view text) {
  sqlite3_bind_text64(stmt, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

std::string_view ColumnText(sqlite3_stmt* stmt, int column) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
  if (p == nullptr) return {};
  return std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(stmt, column)));
}

// Dot product of `query` with a float32 blob that may be unaligned, 8 floats per step in two
// 4-lane vectors (GCC/Clang vector extension: SSE on x86-64, NEON on ARM), the rest one by one.
using Float4 = float __attribute__((vector_size(16)));

float DotBlob(const float* query, const unsigned char* blob, size_t n) {
  Float4 acc0 = {0, 0, 0, 0};
  Float4 acc1 = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    Float4 q0, q1, x0, x1;
    std::memcpy(&q0, query + i, sizeof q0);
    std::memcpy(&q1, query + i + 4, sizeof q1);
    std::memcpy(&x0, blob + 4 * i, sizeof x0);
    std::memcpy(&x1, blob + 4 * i + 16, sizeof x1);
    acc0 += q0 * x0;
    acc1 += q1 * x1;
  }
  const Float4 acc = acc0 + acc1;
  float sum = (acc[0] + acc[2]) + (acc[1] + acc[3]);
  for (; i < n; ++i) {
    float x;
    std::memcpy(&x, blob + 4 * i, sizeof x);
    sum += query[i] * x;
  }
  return sum;
}

Status CheckFinite(const std::vector<float>& v, const char* what) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      return Status::InvalidArgument(
          fmt::format("vector store: {} value {} is not finite", what, i));
    }
  }
  return Status::Ok();
}

}  // namespace

struct VectorStore::Impl {
  sqlite3* db = nullptr;
  std::map<std::string, Stmt, std::less<>> cache;

  // The cached statement for `sql`, prepared on first use.
  Result<sqlite3_stmt*> Prepare(std::string_view sql) {
    auto it = cache.find(sql);
    if (it != cache.end()) return it->second.get();
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                                SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return Error(StatusFromSqlite(rc, db, fmt::format("prepare \"{}\"", sql.substr(0, 80))));
    }
    cache.emplace(std::string(sql), Stmt(stmt));
    return stmt;
  }

  Status StepError(int rc, std::string_view what) const { return StatusFromSqlite(rc, db, what); }

  // Runs a DELETE (or other no-row statement) bound by `bind`; the number of rows changed.
  template <typename Bind>
  Result<int64_t> Change(std::string_view sql, Bind&& bind, std::string_view what) {
    auto stmt = Prepare(sql);
    if (!stmt) return Error(stmt.error());
    StmtUse use(*stmt);
    bind(*stmt);
    int rc = sqlite3_step(*stmt);
    if (rc != SQLITE_DONE) return Error(StepError(rc, what));
    return static_cast<int64_t>(sqlite3_changes64(db));
  }
};

std::string_view VectorOwnerName(VectorOwner owner) {
  return owner == VectorOwner::kEvent ? "event" : "claim";
}

VectorStore::VectorStore(Database& db) : db_(db), impl_(std::make_unique<Impl>()) {
  impl_->db = db_.handle();
}

VectorStore::~VectorStore() = default;

Status VectorStore::Put(VectorOwner owner, int64_t owner_seq, int64_t namespace_id,
                        std::string_view model_id, const std::vector<float>& vector) {
  if (model_id.empty()) return Status::InvalidArgument("vector store: model id is empty");
  if (vector.empty() || vector.size() > kMaxDim) {
    return Status::InvalidArgument(
        fmt::format("vector store: vector has {} values (expected 1..{})", vector.size(), kMaxDim));
  }
  ENGRAM_RETURN_IF_ERROR(CheckFinite(vector, "vector"));
  const int64_t dim = static_cast<int64_t>(vector.size());

  // One dimension per model id and namespace: every row agrees, so one row (found through the
  // scan index) tells the dimension.
  {
    auto stmt =
        impl_->Prepare("SELECT dim FROM vectors WHERE namespace_id = ?1 AND model_id = ?2 LIMIT 1");
    if (!stmt) return stmt.error();
    StmtUse use(*stmt);
    sqlite3_bind_int64(*stmt, 1, namespace_id);
    BindText(*stmt, 2, model_id);
    int rc = sqlite3_step(*stmt);
    if (rc == SQLITE_ROW && sqlite3_column_int64(*stmt, 0) != dim) {
      return Status::InvalidArgument(fmt::format(
          "vector store: model \"{}\" has {}-dimensional vectors in namespace {}, this vector has "
          "{} (a different model under the same id: re-embed the namespace with `engram "
          "reindex`)",
          model_id, sqlite3_column_int64(*stmt, 0), namespace_id, dim));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      return impl_->StepError(rc, "vector store: check dimension");
    }
  }

  auto stmt = impl_->Prepare(
      "INSERT OR REPLACE INTO vectors (owner_type, owner_seq, namespace_id, model_id, dim, vector) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  if (!stmt) return stmt.error();
  StmtUse use(*stmt);
  BindText(*stmt, 1, VectorOwnerName(owner));
  sqlite3_bind_int64(*stmt, 2, owner_seq);
  sqlite3_bind_int64(*stmt, 3, namespace_id);
  BindText(*stmt, 4, model_id);
  sqlite3_bind_int64(*stmt, 5, dim);
  sqlite3_bind_blob64(*stmt, 6, vector.data(), vector.size() * sizeof(float), SQLITE_STATIC);
  int rc = sqlite3_step(*stmt);
  if (rc != SQLITE_DONE) return impl_->StepError(rc, "vector store: put");
  return Status::Ok();
}

Result<std::optional<std::vector<float>>> VectorStore::Get(VectorOwner owner, int64_t owner_seq,
                                                           std::string_view model_id) {
  auto stmt = impl_->Prepare(
      "SELECT dim, vector FROM vectors WHERE owner_type = ?1 AND owner_seq = ?2 AND model_id = ?3");
  if (!stmt) return Error(stmt.error());
  StmtUse use(*stmt);
  BindText(*stmt, 1, VectorOwnerName(owner));
  sqlite3_bind_int64(*stmt, 2, owner_seq);
  BindText(*stmt, 3, model_id);
  int rc = sqlite3_step(*stmt);
  if (rc == SQLITE_DONE) return std::optional<std::vector<float>>();
  if (rc != SQLITE_ROW) return Error(impl_->StepError(rc, "vector store: get"));
  const int64_t dim = sqlite3_column_int64(*stmt, 0);
  const void* blob = sqlite3_column_blob(*stmt, 1);
  const int bytes = sqlite3_column_bytes(*stmt, 1);
  if (dim <= 0 || bytes != 4 * dim || blob == nullptr) {
    return Error(Status::Corruption(
        fmt::format("vector store: {} {} model \"{}\": blob of {} bytes for dim {}",
                    VectorOwnerName(owner), owner_seq, model_id, bytes, dim)));
  }
  std::vector<float> v(static_cast<size_t>(dim));
  std::memcpy(v.data(), blob, static_cast<size_t>(bytes));
  return std::optional<std::vector<float>>(std::move(v));
}

Result<int64_t> VectorStore::Delete(VectorOwner owner, int64_t owner_seq) {
  return impl_->Change(
      "DELETE FROM vectors WHERE owner_type = ?1 AND owner_seq = ?2",
      [&](sqlite3_stmt* s) {
        BindText(s, 1, VectorOwnerName(owner));
        sqlite3_bind_int64(s, 2, owner_seq);
      },
      "vector store: delete");
}

Result<int64_t> VectorStore::DeleteNamespace(int64_t namespace_id) {
  return impl_->Change(
      "DELETE FROM vectors WHERE namespace_id = ?1",
      [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, namespace_id); },
      "vector store: delete namespace");
}

Result<int64_t> VectorStore::DeleteModel(int64_t namespace_id, std::string_view model_id) {
  return impl_->Change(
      "DELETE FROM vectors WHERE namespace_id = ?1 AND model_id = ?2",
      [&](sqlite3_stmt* s) {
        sqlite3_bind_int64(s, 1, namespace_id);
        BindText(s, 2, model_id);
      },
      "vector store: delete model");
}

Result<std::vector<std::pair<int64_t, float>>> VectorStore::TopK(VectorOwner owner,
                                                                 int64_t namespace_id,
                                                                 std::string_view model_id,
                                                                 const std::vector<float>& query,
                                                                 int k) {
  using Hit = std::pair<int64_t, float>;
  if (query.empty())
    return Error(Status::InvalidArgument("vector store: the query vector is empty"));
  ENGRAM_RETURN_IF_ERROR(CheckFinite(query, "query"));
  std::vector<Hit> heap;
  if (k <= 0) return heap;
  // `better(a, b)`: a ranks before b. The heap keeps the worst kept hit on top.
  auto better = [](const Hit& a, const Hit& b) {
    return a.second > b.second || (a.second == b.second && a.first < b.first);
  };
  heap.reserve(static_cast<size_t>(std::min(k, 4096)));

  auto stmt = impl_->Prepare(
      "SELECT owner_seq, dim, vector FROM vectors "
      "WHERE namespace_id = ?1 AND model_id = ?2 AND owner_type = ?3");
  if (!stmt) return Error(stmt.error());
  StmtUse use(*stmt);
  sqlite3_bind_int64(*stmt, 1, namespace_id);
  BindText(*stmt, 2, model_id);
  BindText(*stmt, 3, VectorOwnerName(owner));
  const int64_t dim = static_cast<int64_t>(query.size());
  const int64_t bytes_expected = 4 * dim;
  int rc;
  while ((rc = sqlite3_step(*stmt)) == SQLITE_ROW) {
    const int64_t seq = sqlite3_column_int64(*stmt, 0);
    const int64_t row_dim = sqlite3_column_int64(*stmt, 1);
    if (row_dim != dim) {
      return Error(Status::InvalidArgument(fmt::format(
          "vector store: model \"{}\" has {}-dimensional vectors in namespace {}, the query has "
          "{}: vectors of different dimensions are never compared (re-embed with `engram "
          "reindex`, or the vector channel stays off)",
          model_id, row_dim, namespace_id, dim)));
    }
    const auto* blob = static_cast<const unsigned char*>(sqlite3_column_blob(*stmt, 2));
    if (blob == nullptr || sqlite3_column_bytes(*stmt, 2) != bytes_expected) {
      return Error(Status::Corruption(
          fmt::format("vector store: {} {} model \"{}\": blob of {} bytes for dim {}",
                      VectorOwnerName(owner), seq, model_id, sqlite3_column_bytes(*stmt, 2), dim)));
    }
    Hit hit{seq, DotBlob(query.data(), blob, query.size())};
    if (heap.size() < static_cast<size_t>(k)) {
      heap.push_back(hit);
      std::push_heap(heap.begin(), heap.end(), better);
    } else if (better(hit, heap.front())) {
      std::pop_heap(heap.begin(), heap.end(), better);
      heap.back() = hit;
      std::push_heap(heap.begin(), heap.end(), better);
    }
  }
  if (rc != SQLITE_DONE) return Error(impl_->StepError(rc, "vector store: top-k scan"));
  std::sort_heap(heap.begin(), heap.end(), better);
  return heap;
}

Result<std::vector<VectorModelUsage>> VectorStore::ModelsInUse(int64_t namespace_id) {
  auto stmt = impl_->Prepare(
      "SELECT model_id, dim, owner_type, count(*) FROM vectors WHERE namespace_id = ?1 "
      "GROUP BY model_id, dim, owner_type ORDER BY model_id, dim");
  if (!stmt) return Error(stmt.error());
  StmtUse use(*stmt);
  sqlite3_bind_int64(*stmt, 1, namespace_id);
  std::vector<VectorModelUsage> out;
  int rc;
  while ((rc = sqlite3_step(*stmt)) == SQLITE_ROW) {
    std::string_view model_id = ColumnText(*stmt, 0);
    const int dim = static_cast<int>(sqlite3_column_int64(*stmt, 1));
    if (out.empty() || out.back().model_id != model_id || out.back().dim != dim) {
      out.push_back({std::string(model_id), dim, 0, 0});
    }
    const int64_t count = sqlite3_column_int64(*stmt, 3);
    (ColumnText(*stmt, 2) == "event" ? out.back().events : out.back().claims) += count;
  }
  if (rc != SQLITE_DONE) return Error(impl_->StepError(rc, "vector store: models in use"));
  return out;
}

Result<int64_t> VectorStore::Count(int64_t namespace_id, std::string_view model_id,
                                   std::optional<VectorOwner> owner) {
  auto stmt = impl_->Prepare(
      "SELECT count(*) FROM vectors WHERE namespace_id = ?1 AND model_id = ?2 "
      "AND (?3 IS NULL OR owner_type = ?3)");
  if (!stmt) return Error(stmt.error());
  StmtUse use(*stmt);
  sqlite3_bind_int64(*stmt, 1, namespace_id);
  BindText(*stmt, 2, model_id);
  if (owner) BindText(*stmt, 3, VectorOwnerName(*owner));
  int rc = sqlite3_step(*stmt);
  if (rc != SQLITE_ROW) return Error(impl_->StepError(rc, "vector store: count"));
  return sqlite3_column_int64(*stmt, 0);
}

}  // namespace engram::sqlite
