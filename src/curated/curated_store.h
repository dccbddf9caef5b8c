// curated/curated_store.h — the two curated stores of one folder (MEMORY.md and USER.md): reading
// them, changing them all-or-nothing under the file lock, and rendering the system-prompt block.
//
// The rules are Hermes Agent's built-in memory tool's (../shared/reference/hermes.md §1.3–1.7,
// §1.15), the newer upstream ones where they differ: an exact whole-entry match of old_text wins
// over substring matches; a replace overwrites the whole matched entry and reports what it
// overwrote; the budget is checked on the final state of a batch; an exact duplicate add is a
// no-op; a batch that would empty a non-empty store is refused; a store whose file cannot be read
// is never treated as empty; replace and remove are refused on a file that was changed outside a
// curated store (drift, with a backup of the file as found).
#ifndef ENGRAM_CURATED_CURATED_STORE_H_
#define ENGRAM_CURATED_CURATED_STORE_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::curated {

enum class Target { kMemory, kUser };

// "memory" or "user". Errors: kInvalidArgument naming field "target".
Result<Target> ParseTarget(std::string_view name);
std::string_view TargetName(Target target);  // "memory", "user"
std::string_view FileName(Target target);    // "MEMORY.md", "USER.md"

struct Limits {
  int64_t memory_chars = 2200;  // Hermes's memory_char_limit (hermes.md §1.2)
  int64_t user_chars = 1375;    // Hermes's user_char_limit
  int64_t lock_wait_ms = 10000; // how long a write waits for another writer's lock
};

// The threat pattern ids `text` matches ("" entries never), in the order to report them; empty
// when it may go into a system prompt. Ids "invisible_unicode_U+XXXX" name an invisible character.
using Scanner = std::function<std::vector<std::string>(std::string_view text)>;

// The message for content a scanner blocked (its first id), Hermes's wording (hermes.md §1.9).
std::string BlockedMessage(const std::vector<std::string>& ids);

// What Apply changed, with the entry texts that are new (added, or replacing another), in order,
// each with its action ("add", "replace"): the caller records them as events.
struct Applied {
  CuratedWriteResult result;
  std::vector<std::pair<std::string, std::string>> new_entries;
};

class Store {
 public:
  // `folder` must exist (the files are created on first write). Not thread-safe by itself; several
  // Store objects (threads, processes) on one folder are safe: every change holds the file lock.
  Store(std::string folder, Limits limits, Scanner scanner);

  // The live state of a store. Errors: kFailedPrecondition (the file cannot be read or is not
  // UTF-8).
  Result<CuratedStoreState> Read(Target target) const;

  // Applies `ops` in order to the store, all or nothing. `batch` names fields as
  // "operations[i].content" (else "content"). `if_version`, when not empty, must equal the file's
  // version. `now_unix_s` stamps a drift backup. Errors: kInvalidArgument (no operation, an
  // unknown action, a missing or blank content / old_text, content the scanner blocks, old_text
  // matching several entries — the message lists them), kNotFound (old_text matches no entry —
  // the message lists the entries), kFailedPrecondition (over the budget — with the usage and
  // the entry's size; drift — naming the backup; a batch that empties the store; a version
  // mismatch; an unreadable file), kBusy (the lock), kIOError.
  Result<Applied> Apply(Target target, const std::vector<CuratedOp>& ops, bool batch,
                        std::string_view if_version, int64_t now_unix_s) const;

  // The system-prompt block of both stores as they are now: per store a rule of 46 '═', the
  // header with the usage, a rule, the entries joined by the delimiter; an entry the scanner
  // flags is replaced by a [BLOCKED: ...] line (the file keeps it). Errors: as Read.
  Result<CuratedSnapshot> Render() const;

  // The block frozen for `session_id`: the first call renders it and keeps it in the folder
  // (.snapshots/), later calls return it unchanged whatever was written since (Hermes's frozen
  // snapshot, §1.7). Errors: as Read; kIOError when it cannot be kept.
  Result<CuratedSnapshot> Frozen(std::string_view session_id, TimestampMs now) const;

  std::string PathOf(Target target) const;

 private:
  int64_t LimitOf(Target target) const;
  CuratedStoreState StateOf(Target target, const std::vector<std::string>& entries,
                            const std::string& version) const;

  std::string folder_;
  Limits limits_;
  Scanner scanner_;
};

// "56% — 1,234/2,200 chars" (floor of the percentage, capped at 100; 0 when limit <= 0).
std::string UsageText(int64_t chars, int64_t limit);

}  // namespace engram::curated

#endif  // ENGRAM_CURATED_CURATED_STORE_H_
