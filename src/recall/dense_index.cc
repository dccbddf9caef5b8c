#include "recall/dense_index.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "providers/word_vectors.h"

namespace engram {
namespace {

// Texts per Embed call and per write transaction while catching up.
constexpr size_t kEmbedBatch = 256;

// SIF's first principal component is a common direction of a corpus. On two texts it is their mean
// direction, and removing it leaves the two vectors exactly opposite: one always scores below zero
// and never joins the candidates. Below this many texts no component is removed (a judgement, not
// a measurement; docs/retrieval.md, "SIF state").
constexpr size_t kMinComponentTexts = 50;

// A fit made when the namespace was small (an agent recalls after its first turns) is made again,
// and every vector re-embedded, once the namespace holds kRefitGrowth times the events it was made
// on, until a fit covers kRefitUpTo events (then `engram reindex` refits). Doubling keeps the total
// re-embedding under twice the embedding of the final namespace.
constexpr int64_t kRefitGrowth = 2;
constexpr int64_t kRefitUpTo = 100000;

// CatchUp's error when another process stored a new fit while this one embedded with the old.
constexpr const char* kFitChanged = "the namespace's vectors were fitted again by another process";

std::string FitKey(int64_t namespace_id, std::string_view model_id) {
  return fmt::format("dense_fit/{}/{}", namespace_id, model_id);
}

}  // namespace

struct DenseIndex::Space {
  std::unique_ptr<providers::Embedder> embedder;
  std::string fit_json;   // the stored fit this embedder was set up from ("" when not fitted)
  int64_t generation = 0;
  int64_t fitted_events = 0;  // the events the fit was made on (its texts)
  int64_t watermark = 0;  // every event with seq ≤ watermark has been checked for a vector
  DenseMatrix matrix;
  // The database's state when the matrix was last known current: PRAGMA data_version (commits by
  // other connections) and sqlite3_total_changes64 (rows changed by this one). Unchanged = skip
  // the catch-up and freshness queries (≈ 12 ms each at 100k events).
  std::optional<std::pair<int64_t, int64_t>> checked_at;
  // Without store_vectors: the vectors embedded by this process, by event seq (never written).
  std::map<int64_t, std::vector<float>> unstored;
};

DenseIndex::DenseIndex(sqlite::Database& db, sqlite::EventStore& store,
                       const providers::EmbedderFactory& factory, bool store_vectors)
    : db_(db), store_(store), factory_(factory), vectors_(db), store_vectors_(store_vectors) {}

DenseIndex::~DenseIndex() = default;

std::string DenseIndex::EventText(std::string_view speaker, std::string_view content) {
  if (speaker.empty()) return std::string(content);
  return fmt::format("{}: {}", speaker, content);
}

Result<std::string> DenseIndex::StoredFit(int64_t namespace_id) {
  auto st = db_.Cached("SELECT value FROM meta WHERE key = ?");
  if (!st) return Error(st.error());
  (*st)->Bind(1, FitKey(namespace_id, factory_.model_id()));
  auto row = (*st)->Step();
  if (!row) return Error(row.error());
  std::string stored = *row ? (*st)->Text(0) : std::string();
  (*st)->Reset();
  return stored;
}

Status DenseIndex::LoadOrFit(Space& space, int64_t namespace_id, bool refit, bool retry) {
  auto embedder = factory_.New();
  if (!embedder) return embedder.error();
  space.embedder = std::move(*embedder);
  space.fit_json.clear();
  auto* glove = dynamic_cast<providers::GloveSifEmbedder*>(space.embedder.get());
  if (glove == nullptr) return Status::Ok();
  const std::string key = FitKey(namespace_id, factory_.model_id());

  auto read = StoredFit(namespace_id);
  if (!read) return read.error();
  std::string stored = *read;
  const std::string seen = stored;  // what this fit replaces: the compare of a compare-and-swap
  int64_t through_seq = 0;
  int64_t generation = 0;
  std::vector<float> component;
  bool have_fit = false;
  if (!stored.empty()) {
    try {
      auto j = nlohmann::json::parse(stored);
      through_seq = j.at("through_seq").get<int64_t>();
      generation = j.at("generation").get<int64_t>();
      component = j.at("component").get<std::vector<float>>();
      have_fit = true;
    } catch (const std::exception&) {
      have_fit = false;  // an unreadable fit is refitted
    }
  }
  const bool fit_now = refit || !have_fit;
  if (fit_now) {
    auto max_seq = db_.Cached("SELECT coalesce(max(seq), 0) FROM events WHERE namespace_id = ?");
    if (!max_seq) return max_seq.error();
    (*max_seq)->Bind(1, namespace_id);
    auto row = (*max_seq)->Step();
    if (!row) return row.error();
    through_seq = (*max_seq)->Int(0);
    (*max_seq)->Reset();
  }
  // The frequencies are recounted from the namespace's text up to the fit's seq.
  std::vector<std::string> texts;
  {
    auto st = db_.Cached(
        "SELECT speaker, content FROM events WHERE namespace_id = ? AND seq <= ? ORDER BY seq");
    if (!st) return st.error();
    (*st)->Bind(1, namespace_id).Bind(2, through_seq);
    while (true) {
      auto row = (*st)->Step();
      if (!row) return row.error();
      if (!*row) break;
      texts.push_back(EventText((*st)->Text(0), (*st)->Text(1)));
    }
  }
  providers::WordFrequencies frequencies;
  for (const std::string& t : texts) frequencies.AddDocument(glove->Words(t));
  glove->set_frequencies(std::move(frequencies));
  if (fit_now) {
    component.clear();
    if (texts.size() >= kMinComponentTexts && glove->FitPrincipalComponent(texts).ok()) {
      component = glove->principal_component();
    }
    generation += 1;
    nlohmann::json j;
    j["through_seq"] = through_seq;
    j["generation"] = generation;
    j["component"] = component;
    stored = j.dump();
    // Stored only if no other process stored a fit since `seen` was read (else that fit is
    // loaded), and with the deletion of the earlier fit's vectors: another process never sees the
    // new fit beside them, nor the old fit without them. CatchUp writes vectors only while the
    // stored fit is still the one they were made with.
    bool lost = false;
    if (store_vectors_) ENGRAM_RETURN_IF_ERROR(db_.WriteTransaction([&]() -> Status {
      auto now = StoredFit(namespace_id);
      if (!now) return now.error();
      if (*now != seen) {
        lost = true;
        return Status::Ok();
      }
      auto drop = db_.Cached(
          "DELETE FROM vectors WHERE namespace_id = ? AND model_id = ? AND owner_type = 'event'");
      if (!drop) return drop.error();
      (*drop)->Bind(1, namespace_id).Bind(2, factory_.model_id());
      ENGRAM_RETURN_IF_ERROR((*drop)->Run());
      auto st = db_.Cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
      if (!st) return st.error();
      (*st)->Bind(1, key).Bind(2, stored);
      return (*st)->Run();
    }));
    if (lost) {
      if (!retry) return Status::FailedPrecondition("another process is fitting this namespace's vectors");
      return LoadOrFit(space, namespace_id, /*refit=*/false, /*retry=*/false);
    }
  } else if (!component.empty()) {
    ENGRAM_RETURN_IF_ERROR(glove->SetPrincipalComponent(component));
  }
  space.fit_json = stored;
  space.generation = generation;
  space.fitted_events = static_cast<int64_t>(texts.size());
  return Status::Ok();
}

Result<DenseIndex::Space*> DenseIndex::SpaceOf(int64_t namespace_id) {
  auto it = spaces_.find(namespace_id);
  if (it != spaces_.end() && factory_.fitted()) {
    // Another process may have refitted (reindexed) the namespace: then start over.
    auto stored = StoredFit(namespace_id);
    if (!stored) return Error(stored.error());
    if (*stored != it->second->fit_json) {
      spaces_.erase(it);
      it = spaces_.end();
    }
  }
  if (it == spaces_.end()) {
    auto space = std::make_unique<Space>();
    ENGRAM_RETURN_IF_ERROR(LoadOrFit(*space, namespace_id, false));
    it = spaces_.emplace(namespace_id, std::move(space)).first;
  }
  return it->second.get();
}

Status DenseIndex::CatchUp(Space& space, int64_t namespace_id) {
  auto max_stmt = db_.Cached("SELECT coalesce(max(seq), 0) FROM events WHERE namespace_id = ?");
  if (!max_stmt) return max_stmt.error();
  (*max_stmt)->Bind(1, namespace_id);
  auto row = (*max_stmt)->Step();
  if (!row) return row.error();
  const int64_t max_seq = (*max_stmt)->Int(0);
  (*max_stmt)->Reset();
  if (max_seq <= space.watermark) return Status::Ok();

  std::vector<int64_t> seqs;
  std::vector<std::string> texts;
  {
    auto st = db_.Cached(
        "SELECT e.seq, e.speaker, e.content FROM events e WHERE e.namespace_id = ?1 AND e.seq > ?2 "
        "AND e.seq <= ?3 AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.owner_type = 'event' AND "
        "v.owner_seq = e.seq AND v.model_id = ?4) ORDER BY e.seq");
    if (!st) return st.error();
    (*st)->Bind(1, namespace_id).Bind(2, space.watermark).Bind(3, max_seq).Bind(4, factory_.model_id());
    while (true) {
      auto r = (*st)->Step();
      if (!r) return r.error();
      if (!*r) break;
      seqs.push_back((*st)->Int(0));
      texts.push_back(EventText((*st)->Text(1), (*st)->Text(2)));
    }
  }
  for (size_t begin = 0; begin < texts.size(); begin += kEmbedBatch) {
    const size_t end = std::min(texts.size(), begin + kEmbedBatch);
    std::vector<std::string> batch(texts.begin() + static_cast<std::ptrdiff_t>(begin),
                                   texts.begin() + static_cast<std::ptrdiff_t>(end));
    auto vectors = space.embedder->Embed(batch);
    if (!vectors) return vectors.error();
    if (!store_vectors_) {
      for (size_t i = begin; i < end; ++i) space.unstored[seqs[i]] = std::move((*vectors)[i - begin]);
      continue;
    }
    ENGRAM_RETURN_IF_ERROR(db_.WriteTransaction([&]() -> Status {
      if (factory_.fitted()) {
        auto now = StoredFit(namespace_id);
        if (!now) return now.error();
        if (*now != space.fit_json) return Status::FailedPrecondition(kFitChanged);
      }
      for (size_t i = begin; i < end; ++i) {
        ENGRAM_RETURN_IF_ERROR(vectors_.Put(sqlite::VectorOwner::kEvent, seqs[i], namespace_id,
                                            factory_.model_id(), (*vectors)[i - begin]));
      }
      return Status::Ok();
    }));
  }
  space.watermark = max_seq;
  return Status::Ok();
}

Status DenseIndex::Refresh(Space& space, int64_t namespace_id) {
  DenseMatrix& m = space.matrix;
  auto count_stmt = db_.Cached(
      "SELECT count(*), coalesce(max(owner_seq), 0) FROM vectors WHERE namespace_id = ? AND "
      "model_id = ? AND owner_type = 'event'");
  if (!count_stmt) return count_stmt.error();
  (*count_stmt)->Bind(1, namespace_id).Bind(2, factory_.model_id());
  auto row = (*count_stmt)->Step();
  if (!row) return row.error();
  const int64_t count = (*count_stmt)->Int(0);
  const int64_t max_seq = (*count_stmt)->Int(1);
  (*count_stmt)->Reset();
  if (space.unstored.empty() && static_cast<size_t>(count) == m.seqs.size() && max_seq == m.max_seq) {
    return Status::Ok();
  }

  auto load = [&](int64_t after) -> Status {
    auto st = db_.Cached(
        "SELECT owner_seq, dim, vector FROM vectors WHERE namespace_id = ? AND model_id = ? AND "
        "owner_type = 'event' AND owner_seq > ? ORDER BY owner_seq");
    if (!st) return st.error();
    (*st)->Bind(1, namespace_id).Bind(2, factory_.model_id()).Bind(3, after);
    while (true) {
      auto r = (*st)->Step();
      if (!r) return r.error();
      if (!*r) break;
      const int64_t seq = (*st)->Int(0);
      const int dim = static_cast<int>((*st)->Int(1));
      std::string_view blob = (*st)->Blob(2);
      if (m.dim == 0) m.dim = dim;
      if (dim != m.dim || blob.size() != 4 * static_cast<size_t>(dim)) {
        return Status::InvalidArgument(fmt::format(
            "model \"{}\" has vectors of {} and {} dimensions in this namespace: re-embed it with "
            "`engram reindex`",
            factory_.model_id(), m.dim, dim));
      }
      const size_t at = m.values.size();
      m.values.resize(at + static_cast<size_t>(dim));
      std::memcpy(m.values.data() + at, blob.data(), blob.size());
      m.row_of[seq] = m.seqs.size();
      m.seqs.push_back(seq);
      m.max_seq = seq;
    }
    return Status::Ok();
  };
  if (max_seq > m.max_seq && space.unstored.empty()) {
    ENGRAM_RETURN_IF_ERROR(load(m.max_seq));
    if (m.seqs.size() == static_cast<size_t>(count)) return Status::Ok();
  }
  // Rows went away (forget, reindex) or changed, or this process holds vectors of its own: reload.
  m = DenseMatrix{};
  ENGRAM_RETURN_IF_ERROR(load(0));
  for (const auto& [seq, vector] : space.unstored) {
    if (m.row_of.count(seq) > 0) continue;
    if (m.dim == 0) m.dim = static_cast<int>(vector.size());
    if (static_cast<int>(vector.size()) != m.dim) continue;  // never compared: Prepare says why
    m.values.insert(m.values.end(), vector.begin(), vector.end());
    m.row_of[seq] = m.seqs.size();
    m.seqs.push_back(seq);
    m.max_seq = std::max(m.max_seq, seq);
  }
  return Status::Ok();
}

Result<DenseIndex::Prepared> DenseIndex::Prepare(std::string_view namespace_name, std::string_view text) {
  Prepared out;
  auto ns = store_.FindNamespace(namespace_name);
  if (!ns) return Error(ns.error());
  if (!ns->has_value()) return out;
  const int64_t namespace_id = **ns;
  auto off = [&](const std::string& why) {
    out.query.reset();
    out.warning = "dense channel disabled: " + why;
    return out;
  };
  auto state = [&]() -> Result<std::pair<int64_t, int64_t>> {
    auto version = db_.QueryInt("PRAGMA data_version");
    if (!version) return Error(version.error());
    return std::pair<int64_t, int64_t>(*version, sqlite3_total_changes64(db_.handle()));
  };
  auto before = state();
  if (!before) return Error(before.error());
  auto known = spaces_.find(namespace_id);
  Space* space = known != spaces_.end() && known->second->checked_at == *before ? known->second.get() : nullptr;
  if (space == nullptr) {
    // Something was written since the last check (or this is the first): check the models in use,
    // embed what is missing and refresh the matrix.
    auto models = vectors_.ModelsInUse(namespace_id);
    if (!models) return Error(models.error());
    for (const sqlite::VectorModelUsage& m : *models) {
      if (m.events > 0 && m.model_id != factory_.model_id()) {
        return off(fmt::format(
            "namespace \"{}\" has {} event vectors of model \"{}\" ({} dimensions), the configured "
            "embedder is \"{}\"; vectors of different models are never compared. Run `engram reindex "
            "--namespace {}` to re-embed it with the configured model (full-text recall is unaffected)",
            namespace_name, m.events, m.model_id, m.dim, factory_.model_id(), namespace_name));
      }
    }
    auto found = Current(namespace_id);
    if (!found) {
      spaces_.erase(namespace_id);  // start over next time
      return off(found.error().ToString());
    }
    space = *found;
    auto after = state();
    if (!after) return Error(after.error());
    space->checked_at = *after;
  }
  const DenseMatrix& m = space->matrix;
  if (m.seqs.empty()) return out;
  auto q = space->embedder->Embed({std::string(text)});
  if (!q) return off(q.error().ToString());
  if (q->size() != 1 || static_cast<int>((*q)[0].size()) != m.dim) {
    return off(fmt::format("the query vector has {} dimensions, the stored vectors {}",
                           q->empty() ? 0 : (*q)[0].size(), m.dim));
  }
  const auto* glove = dynamic_cast<const providers::GloveSifEmbedder*>(space->embedder.get());
  const bool admits = glove == nullptr || !glove->principal_component().empty();
  out.query = DenseQuery{&m, std::move((*q)[0]), admits};
  return out;
}

Result<DenseIndex::Space*> DenseIndex::Current(int64_t namespace_id) {
  Status st;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto found = SpaceOf(namespace_id);
    if (!found) return found;
    Space* space = *found;
    st = CatchUp(*space, namespace_id);
    if (st.ok()) st = Refresh(*space, namespace_id);
    if (st.ok() && Outgrown(*space)) {
      auto refit = Refit(namespace_id, /*every_model=*/false);
      if (refit) return refit;
      st = refit.error();
    }
    if (st.ok()) return space;
    spaces_.erase(namespace_id);
    if (st.code() != StatusCode::kFailedPrecondition) break;  // only a fit changed under us retries
  }
  return Error(st);
}

bool DenseIndex::Outgrown(const Space& space) const {
  // A read-only process reads the stored vectors as they are: a fit of its own would not match
  // them. After CatchUp every event has a vector, so the matrix counts the namespace's events.
  if (!store_vectors_ || !factory_.fitted() || space.fitted_events >= kRefitUpTo) return false;
  return static_cast<int64_t>(space.matrix.seqs.size()) >= kRefitGrowth * std::max<int64_t>(space.fitted_events, 1);
}

Result<DenseIndex::Space*> DenseIndex::Refit(int64_t namespace_id, bool every_model) {
  if (store_vectors_ && every_model) {
    ENGRAM_RETURN_IF_ERROR(db_.WriteTransaction([&]() -> Status {
      auto st = db_.Cached("DELETE FROM vectors WHERE namespace_id = ? AND owner_type = 'event'");
      if (!st) return st.error();
      (*st)->Bind(1, namespace_id);
      return (*st)->Run();
    }));
  }
  spaces_.erase(namespace_id);
  auto space = std::make_unique<Space>();
  ENGRAM_RETURN_IF_ERROR(LoadOrFit(*space, namespace_id, true));
  ENGRAM_RETURN_IF_ERROR(CatchUp(*space, namespace_id));
  ENGRAM_RETURN_IF_ERROR(Refresh(*space, namespace_id));
  return spaces_.emplace(namespace_id, std::move(space)).first->second.get();
}

Result<int64_t> DenseIndex::Reindex(std::string_view namespace_name) {
  auto ns = store_.FindNamespace(namespace_name);
  if (!ns) return Error(ns.error());
  if (!ns->has_value()) {
    return Error(Status::NotFound(fmt::format("namespace \"{}\" does not exist", namespace_name)));
  }
  auto space = Refit(**ns, /*every_model=*/true);
  if (!space) return Error(space.error());
  return static_cast<int64_t>((*space)->matrix.seqs.size());
}

}  // namespace engram
