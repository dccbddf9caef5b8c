#include "engine/curated_memory.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "curated/curated_store.h"
#include "engine/namespace_scope.h"
#include "text/threat_scanner.h"
#include "util/time.h"
#include "util/ulid.h"
#include "write/event_validation.h"

namespace engram {
namespace {

constexpr const char* kDefaultSession = "curated";

curated::Limits LimitsOf(const Options& options) {
  return {.memory_chars = options.curated_memory_chars, .user_chars = options.curated_user_chars};
}

// What may not go into a system prompt: Hermes's memory scope, `strict` (hermes.md §1.9) —
// injection, role hijack, C2 promptware, exfiltration, persistence, hard-coded secrets, and
// invisible Unicode characters.
std::vector<std::string> ScanEntry(std::string_view text) {
  return text::ScanForThreats(text, text::ThreatScope::kStrict);
}

curated::Store StoreAt(const Options& options, const std::string& folder) {
  return curated::Store(folder, LimitsOf(options), ScanEntry);
}

// Creates `folder` and its parents. Errors: kIOError naming it.
Status MakeFolders(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return Status::IOError(fmt::format("cannot create {}: {}", folder, ec.message()));
  return Status::Ok();
}

}  // namespace

Result<std::string> CuratedFolder(const Options& options, std::string_view namespace_name) {
  ENGRAM_RETURN_IF_ERROR(ValidateNamespaceScope(namespace_name, false));
  std::string root = options.curated_dir;
  if (root.empty()) {
    if (options.db_path.empty() || options.db_path == ":memory:") {
      return Error(Status::InvalidArgument(
          "field \"curated_dir\": an in-memory database has no curated folder: set Options::curated_dir"));
    }
    root = options.db_path + ".curated";
  }
  // Percent-encoding keeps every namespace name a single, reversible folder name.
  std::string name;
  for (unsigned char c : namespace_name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_' || (c == '.' && !name.empty());
    name += plain ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return root + "/" + name;
}

Result<std::vector<CuratedStoreState>> ReadCuratedStores(const Options& options, std::string_view namespace_name) {
  auto folder = CuratedFolder(options, namespace_name);
  if (!folder) return Error(folder.error());
  curated::Store store = StoreAt(options, *folder);
  std::vector<CuratedStoreState> out;
  for (curated::Target t : {curated::Target::kMemory, curated::Target::kUser}) {
    auto state = store.Read(t);
    if (!state) return Error(state.error());
    out.push_back(std::move(*state));
  }
  return out;
}

Result<CuratedWriteResult> WriteCuratedStore(Engine& engine, const Options& options, const CuratedWrite& write) {
  auto folder = CuratedFolder(options, write.namespace_name);
  if (!folder) return Error(folder.error());
  auto target = curated::ParseTarget(write.target);
  if (!target) return Error(target.error());
  const std::string session = write.session_id.empty() ? kDefaultSession : write.session_id;
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("session_id", session, true));
  ENGRAM_RETURN_IF_ERROR(MakeFolders(*folder));
  curated::Store store = StoreAt(options, *folder);
  const TimestampMs now = NowMs();
  auto applied = store.Apply(*target, write.operations, write.operations.size() > 1, write.if_version, now / 1000);
  if (!applied) return Error(applied.error());
  CuratedWriteResult result = std::move(applied->result);
  if (applied->new_entries.empty()) return result;

  std::vector<EventInput> events;
  for (const auto& [action, entry] : applied->new_entries) {
    EventInput e;
    e.namespace_name = write.namespace_name;
    e.session_id = session;
    e.role = "system";
    e.content = entry;
    e.origin_class = write.origin_class;
    e.metadata_json = nlohmann::json{{"curated", {{"target", write.target},
                                                  {"action", action},
                                                  {"file", std::string(curated::FileName(*target))}}}}
                          .dump();
    // One key per change made (a retried add finds the entry present and records nothing; the same
    // text added again after a remove is a change of its own, so file versions cannot name it).
    e.idempotency_key = fmt::format("curated:{}:{}", write.target, NewUlid(now));
    events.push_back(std::move(e));
  }
  auto ingested = engine.IngestBatch(events);
  if (!ingested) {
    return Error(ingested.error().WithContext(
        fmt::format("{} was written, but recording the change as events failed", result.state.file)));
  }
  for (const IngestResult& r : *ingested) {
    if (!r.forgotten) result.event_ids.push_back(r.event.id);
  }
  return result;
}

Result<CuratedSnapshot> SnapshotCuratedStores(const Options& options, std::string_view namespace_name,
                                              std::string_view session_id) {
  auto folder = CuratedFolder(options, namespace_name);
  if (!folder) return Error(folder.error());
  curated::Store store = StoreAt(options, *folder);
  if (session_id.empty()) return store.Render();
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("session_id", session_id, true));
  ENGRAM_RETURN_IF_ERROR(MakeFolders(*folder));
  return store.Frozen(session_id, NowMs());
}

void RemoveForgottenCuratedEntries(const Options& options, std::string_view namespace_name,
                                   const std::vector<lifecycle::CuratedEntryRef>& entries, ForgetReport* report) {
  if (entries.empty()) return;
  auto folder = CuratedFolder(options, namespace_name);
  if (!folder) {
    report->warnings.push_back(folder.error().ToString());
    return;
  }
  curated::Store store = StoreAt(options, *folder);
  for (const lifecycle::CuratedEntryRef& ref : entries) {
    auto target = curated::ParseTarget(ref.target);
    if (!target) continue;
    CuratedOp remove{.action = "remove", .old_text = ref.entry, .exact = true};
    auto done = store.Apply(*target, {remove}, false, "", NowMs() / 1000);
    if (done) {
      report->curated_entries += done->result.applied;
    } else if (done.error().code() != StatusCode::kNotFound) {
      report->warnings.push_back(fmt::format("the curated entry stays in {}: {}", curated::FileName(*target),
                                             done.error().ToString()));
    }
  }
}

Result<std::string> BindCuratedFolder(const Options& options, std::string_view namespace_name,
                                      const std::string& folder) {
  auto link = CuratedFolder(options, namespace_name);
  if (!link) return Error(link.error());
  if (folder.empty()) return Error(Status::InvalidArgument("field \"folder\": is required"));
  std::error_code ec;
  const std::filesystem::path target = std::filesystem::absolute(folder, ec);
  if (ec || !std::filesystem::is_directory(target, ec)) {
    return Error(Status::NotFound(fmt::format("field \"folder\": {} is not a folder", folder)));
  }
  const std::filesystem::path at(*link);
  const auto status = std::filesystem::symlink_status(at, ec);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_symlink(status)) {
      return Error(Status::FailedPrecondition(fmt::format(
          "{} already holds this namespace's curated files; move them into {} first, then bind", *link, folder)));
    }
    std::filesystem::remove(at, ec);
    if (ec) return Error(Status::IOError(fmt::format("cannot replace the link {}: {}", *link, ec.message())));
  }
  ENGRAM_RETURN_IF_ERROR(MakeFolders(at.parent_path().string()));
  std::filesystem::create_directory_symlink(target, at, ec);
  if (ec) return Error(Status::IOError(fmt::format("cannot link {} to {}: {}", *link, target.string(), ec.message())));
  return target.string();
}

}  // namespace engram
