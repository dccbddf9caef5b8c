// engine/curated_memory.h — a namespace's curated stores (curated/curated_store.h) as the Engine
// offers them: the folder of each namespace, the threat scanner they use, and the events that
// record each added or replacing entry, so that recall, explain and forget see curated memory too.
#ifndef ENGRAM_ENGINE_CURATED_MEMORY_H_
#define ENGRAM_ENGINE_CURATED_MEMORY_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/engine.h"
#include "engram/options.h"
#include "lifecycle/forget.h"

namespace engram {

// The folder of the namespace's stores: <curated root>/<namespace, percent-encoded>, where the
// root is Options::curated_dir or "<db_path>.curated". Errors: kInvalidArgument (a malformed
// namespace; an in-memory database without curated_dir).
Result<std::string> CuratedFolder(const Options& options, std::string_view namespace_name);

// Both stores of the namespace (memory first). A namespace that never wrote any has two empty
// stores. Errors: as CuratedFolder; kFailedPrecondition (a file that cannot be read).
Result<std::vector<CuratedStoreState>> ReadCuratedStores(const Options& options, std::string_view namespace_name);

// Applies the write (curated::Store::Apply, the folder created when missing), then records each
// added or replacing entry as an event of write.session_id ("curated" when empty) through
// `engine.IngestBatch`: role "system", the write's origin_class, metadata
// {"curated": {"target", "action", "file"}}. Errors: those of Apply; of IngestBatch (the file was
// written then: the message says so).
Result<CuratedWriteResult> WriteCuratedStore(Engine& engine, const Options& options, const CuratedWrite& write);

// The system-prompt block, frozen for session_id when it is given (see CuratedSnapshot).
Result<CuratedSnapshot> SnapshotCuratedStores(const Options& options, std::string_view namespace_name,
                                              std::string_view session_id);

// Makes the namespace's folder a symlink to `folder` (which must exist), e.g. a Hermes home's
// memories/. Refused when the namespace already has a folder that is not such a link (its files
// would be hidden). Returns the folder's path. Errors: kInvalidArgument, kNotFound (no such
// folder), kFailedPrecondition, kIOError.
Result<std::string> BindCuratedFolder(const Options& options, std::string_view namespace_name,
                                      const std::string& folder);

// After a forget has committed: takes each entry whose recording event was forgotten out of its
// file (an exact whole-entry match only; an entry replaced since is left alone), counting them in
// report->curated_entries. A file that cannot be changed (drift, a lock held too long) keeps its
// entry and says so in report->warnings: the database's forget stands either way.
void RemoveForgottenCuratedEntries(const Options& options, std::string_view namespace_name,
                                   const std::vector<lifecycle::CuratedEntryRef>& entries, ForgetReport* report);

}  // namespace engram

#endif  // ENGRAM_ENGINE_CURATED_MEMORY_H_
