#include "curated/curated_store.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <set>

#include "curated/curated_file.h"
#include "util/hash.h"
#include "util/normalize.h"
#include "util/utf8.h"

namespace engram::curated {
namespace {

constexpr size_t kPreviewChars = 80;

std::string Rule() {
  std::string rule;
  for (int i = 0; i < 46; ++i) rule += "\xE2\x95\x90";  // ═
  return rule;
}

// "[1] first entry\n[2] second entry", or "(none)".
std::string Listing(const std::vector<std::string>& entries) {
  if (entries.empty()) return "(none)";
  std::string out;
  for (size_t i = 0; i < entries.size(); ++i) out += fmt::format("{}[{}] {}", i == 0 ? "" : "\n", i + 1, entries[i]);
  return out;
}

std::string Thousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// The words of a text as NormalizeKey reads them.
std::set<std::string> WordsOf(std::string_view text) {
  std::set<std::string> words;
  std::string key = NormalizeKey(text);
  size_t start = 0;
  while (start < key.size()) {
    size_t end = key.find(' ', start);
    if (end == std::string::npos) end = key.size();
    if (end > start) words.insert(key.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

// Reads like `entry`: the same text but for case, punctuation and spacing, or (both of at least 3
// words) sharing at least 80% of their words (Jaccard).
bool NearCopy(std::string_view candidate, std::string_view entry) {
  if (NormalizeKey(candidate) == NormalizeKey(entry)) return true;
  const std::set<std::string> a = WordsOf(candidate), b = WordsOf(entry);
  if (a.size() < 3 || b.size() < 3) return false;
  size_t shared = 0;
  for (const std::string& w : a) shared += b.count(w);
  return 5 * shared >= 4 * (a.size() + b.size() - shared);
}

std::string FieldName(bool batch, size_t index, std::string_view name) {
  return batch ? fmt::format("operations[{}].{}", index, name) : std::string(name);
}

// Shape checks and the threat scan, before the lock (hermes.md §1.10: old_text is not scanned).
Status CheckOps(const std::vector<CuratedOp>& ops, bool batch, const Scanner& scanner) {
  if (ops.empty()) return Status::InvalidArgument("field \"operations\": is empty: give at least one operation");
  for (size_t i = 0; i < ops.size(); ++i) {
    const CuratedOp& op = ops[i];
    if (op.action != "add" && op.action != "replace" && op.action != "remove") {
      return Status::InvalidArgument(fmt::format("field \"{}\": unknown value \"{}\" (expected one of: add, replace, remove)",
                                                 FieldName(batch, i, "action"), op.action));
    }
    if (op.action != "add" && IsBlank(op.old_text)) {
      return Status::InvalidArgument(fmt::format(
          "field \"{}\": '{}' needs old_text — a short unique part of the entry to {}", FieldName(batch, i, "old_text"),
          op.action, op.action));
    }
    if (op.action != "remove" && IsBlank(op.content)) {
      return Status::InvalidArgument(fmt::format("field \"{}\": '{}' needs content that is not blank{}",
                                                 FieldName(batch, i, "content"), op.action,
                                                 op.action == "replace" ? " (use 'remove' to delete an entry)" : ""));
    }
    if (op.action != "remove" && !IsValidUtf8(op.content)) {
      return Status::InvalidArgument(fmt::format("field \"{}\": is not valid UTF-8", FieldName(batch, i, "content")));
    }
    if (op.action != "remove" && scanner) {
      std::vector<std::string> ids = scanner(op.content);
      if (!ids.empty()) {
        return Status::InvalidArgument(fmt::format("field \"{}\": {}", FieldName(batch, i, "content"), BlockedMessage(ids)));
      }
    }
  }
  return Status::Ok();
}

// The index of the entry old_text names: the equal entry, else the one entry holding it.
Result<size_t> MatchEntry(const std::vector<std::string>& entries, std::string_view old_text, bool exact,
                          const std::string& field, std::string_view file) {
  const std::string needle = StripSpace(old_text);
  for (size_t k = 0; k < entries.size(); ++k) {
    if (entries[k] == needle) return k;
  }
  std::vector<size_t> hits;
  for (size_t k = 0; k < entries.size() && !exact; ++k) {
    if (entries[k].find(needle) != std::string::npos) hits.push_back(k);
  }
  if (hits.empty()) {
    return Error(Status::NotFound(fmt::format(
        "field \"{}\": no entry of {} matched '{}'. Retry with the exact text (or a unique part) of the entry. "
        "Current entries:\n{}",
        field, file, needle, Listing(entries))));
  }
  if (hits.size() > 1) {
    std::vector<std::string> previews;
    for (size_t k : hits) previews.push_back(TruncateCodePoints(entries[k], kPreviewChars));
    return Error(Status::InvalidArgument(fmt::format(
        "field \"{}\": '{}' matches {} entries of {}; give more of the one you mean:\n{}", field, needle, hits.size(),
        file, Listing(previews))));
  }
  return hits.front();
}

}  // namespace

Result<Target> ParseTarget(std::string_view name) {
  if (name == "memory") return Target::kMemory;
  if (name == "user") return Target::kUser;
  return Error(Status::InvalidArgument(
      fmt::format("field \"target\": unknown value \"{}\" (expected one of: memory, user)", name)));
}

std::string_view TargetName(Target target) { return target == Target::kMemory ? "memory" : "user"; }
std::string_view FileName(Target target) { return target == Target::kMemory ? "MEMORY.md" : "USER.md"; }

std::string BlockedMessage(const std::vector<std::string>& ids) {
  if (ids.empty()) return "";
  constexpr std::string_view kInvisible = "invisible_unicode_";
  if (ids.front().rfind(kInvisible, 0) == 0) {
    return fmt::format("Blocked: content contains invisible unicode character {} (possible injection).",
                       ids.front().substr(kInvisible.size()));
  }
  return fmt::format("Blocked: content matches threat pattern '{}'. Content is injected into the system prompt "
                     "and must not contain injection or exfiltration payloads.",
                     ids.front());
}

std::string UsageText(int64_t chars, int64_t limit) {
  const int64_t percent = limit <= 0 ? 0 : std::min<int64_t>(100, chars * 100 / limit);
  return fmt::format("{}% \xE2\x80\x94 {}/{} chars", percent, Thousands(chars), Thousands(limit));
}

Store::Store(std::string folder, Limits limits, Scanner scanner)
    : folder_(std::move(folder)), limits_(limits), scanner_(std::move(scanner)) {}

std::string Store::PathOf(Target target) const { return folder_ + "/" + std::string(FileName(target)); }

int64_t Store::LimitOf(Target target) const {
  return target == Target::kMemory ? limits_.memory_chars : limits_.user_chars;
}

CuratedStoreState Store::StateOf(Target target, const std::vector<std::string>& entries,
                                 const std::string& version) const {
  CuratedStoreState s;
  s.target = TargetName(target);
  s.file = PathOf(target);
  s.entries = entries;
  s.chars = UsageChars(entries);
  s.limit = LimitOf(target);
  s.usage = UsageText(s.chars, s.limit);
  s.version = version;
  return s;
}

Result<CuratedStoreState> Store::Read(Target target) const {
  auto read = ReadFile(PathOf(target));
  if (!read) return Error(read.error());
  return StateOf(target, ParseEntries(read->bytes), read->version);
}

Result<Applied> Store::Apply(Target target, const std::vector<CuratedOp>& ops, bool batch,
                             std::string_view if_version, int64_t now_unix_s) const {
  ENGRAM_RETURN_IF_ERROR(CheckOps(ops, batch, scanner_));
  const std::string path = PathOf(target);
  const std::string file(FileName(target));
  const int64_t limit = LimitOf(target);
  auto lock = FileLock::Acquire(path, limits_.lock_wait_ms);
  if (!lock) return Error(lock.error());
  auto read = ReadFile(path);
  if (!read) return Error(read.error());
  if (!if_version.empty() && read->version != if_version) {
    return Error(Status::FailedPrecondition(fmt::format(
        "{} changed since version {} was read (it is now {}); read it again and retry", file, if_version,
        read->version.empty() ? "absent" : read->version)));
  }
  // Drift guards replace and remove, which rewrite entries; add only appends (Hermes #42874).
  const bool only_adds = std::all_of(ops.begin(), ops.end(), [](const CuratedOp& op) { return op.action == "add"; });
  if (!only_adds && read->exists) {
    if (std::string why = DriftReason(read->bytes, limit); !why.empty()) {
      auto backup = WriteBackup(path, read->bytes, now_unix_s);
      const std::string where = backup ? *backup : "(BACKUP FAILED — file unchanged on disk)";
      return Error(Status::FailedPrecondition(fmt::format(
          "{} was changed outside a curated store: {}. Nothing was changed; a copy of the file is in {}. "
          "Rewrite it as entries separated by a line holding only \xC2\xA7 (or move the extra text out), "
          "then retry; entries lost from view can be added back one at a time (Hermes issue #26045).",
          file, why, where)));
    }
  }

  const std::vector<std::string> before = ParseEntries(read->bytes);
  std::vector<std::string> working = before;
  Applied out;
  CuratedWriteResult& r = out.result;
  int duplicates = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const CuratedOp& op = ops[i];
    if (op.action == "add") {
      std::string content = StripSpace(op.content);
      if (std::find(working.begin(), working.end(), content) != working.end()) {
        ++duplicates;
        continue;
      }
      for (const std::string& e : working) {
        if (NearCopy(content, e)) r.near_duplicates.push_back(e);
      }
      working.push_back(content);
      out.new_entries.emplace_back("add", std::move(content));
    } else {
      auto k = MatchEntry(working, op.old_text, op.exact, FieldName(batch, i, "old_text"), file);
      if (!k) return Error(k.error());
      const int index = static_cast<int>(i) + 1;
      if (op.action == "remove") {
        r.removed_entries[index] = working[*k];
        working.erase(working.begin() + static_cast<std::ptrdiff_t>(*k));
      } else {
        std::string content = StripSpace(op.content);
        if (content == working[*k]) continue;
        r.replaced_entries[index] = working[*k];
        if (std::find(working.begin(), working.end(), content) != working.end()) {
          working.erase(working.begin() + static_cast<std::ptrdiff_t>(*k));  // now a copy of another
        } else {
          working[*k] = content;
          out.new_entries.emplace_back("replace", std::move(content));
        }
      }
    }
    ++r.applied;
  }

  const int64_t chars_before = UsageChars(before), chars_after = UsageChars(working);
  if (chars_after > limit && chars_after > chars_before) {
    std::string what = ops.size() == 1 && ops[0].action == "add"
                           ? fmt::format("Adding this entry ({} chars) would exceed the limit",
                                         CodePointCount(StripSpace(ops[0].content)))
                           : fmt::format("These operations would put it at {}/{} chars", Thousands(chars_after),
                                         Thousands(limit));
    return Error(Status::FailedPrecondition(fmt::format(
        "{} is at {}/{} chars. {}. Consolidate: replace entries with shorter ones or remove stale ones, then "
        "retry — in one batch, as the budget is checked on the final state. Current entries:\n{}",
        file, Thousands(chars_before), Thousands(limit), what, Listing(before))));
  }
  if (ops.size() > 1 && !before.empty() && working.empty()) {
    return Error(Status::FailedPrecondition(fmt::format(
        "these {} operations would remove every entry of {}; nothing was changed (a deliberate wipe takes one "
        "remove per entry)",
        ops.size(), file)));
  }
  std::string version = read->version;
  if (working != before) {
    const std::string bytes = JoinEntries(working);
    ENGRAM_RETURN_IF_ERROR(WriteFileAtomically(path, bytes));
    version = ContentHash(bytes);
  }
  r.state = StateOf(target, working, version);
  if (ops.size() > 1) {
    r.message = fmt::format("Applied {} operation(s).", r.applied);
  } else if (duplicates > 0) {
    r.message = "Entry already exists (no duplicate added).";
  } else {
    r.message = ops[0].action == "add" ? "Entry added." : ops[0].action == "replace" ? "Entry replaced." : "Entry removed.";
  }
  return out;
}

Result<CuratedSnapshot> Store::Render() const {
  CuratedSnapshot snap;
  for (Target t : {Target::kMemory, Target::kUser}) {
    auto state = Read(t);
    if (!state) return Error(state.error());
    if (state->entries.empty()) continue;
    std::vector<std::string> shown;
    for (const std::string& e : state->entries) {
      std::vector<std::string> ids = e.rfind("[BLOCKED:", 0) == 0 || !scanner_ ? std::vector<std::string>{} : scanner_(e);
      if (ids.empty()) {
        shown.push_back(e);
        continue;
      }
      std::string joined;
      for (const std::string& id : ids) joined += (joined.empty() ? "" : ", ") + id;
      shown.push_back(fmt::format("[BLOCKED: {} entry contained threat pattern(s): {}. Removed from system prompt; "
                                  "remove the original from the file to delete it.]",
                                  FileName(t), joined));
    }
    const std::string header = t == Target::kMemory ? "MEMORY (your personal notes)" : "USER PROFILE (who the user is)";
    std::string block = fmt::format("{}\n{} [{}]\n{}\n{}", Rule(), header, state->usage, Rule(), JoinEntries(shown));
    (t == Target::kMemory ? snap.memory : snap.user) = block;
  }
  snap.block = snap.memory.empty() ? snap.user : snap.user.empty() ? snap.memory : snap.memory + "\n\n" + snap.user;
  return snap;
}

Result<CuratedSnapshot> Store::Frozen(std::string_view session_id, TimestampMs now) const {
  const std::string folder = folder_ + "/.snapshots";
  const std::string path = folder + "/" + ContentHash(session_id) + ".json";
  auto kept = ReadFile(path);
  if (kept && kept->exists) {
    nlohmann::json j = nlohmann::json::parse(kept->bytes, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.value("session_id", "") == session_id) {
      CuratedSnapshot snap;
      snap.session_id = std::string(session_id);
      snap.taken_at = j.value("taken_at", int64_t{0});
      snap.memory = j.value("memory", "");
      snap.user = j.value("user", "");
      snap.block = j.value("block", "");
      return snap;
    }
  }
  auto snap = Render();
  if (!snap) return snap;
  snap->session_id = std::string(session_id);
  snap->taken_at = now;
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    return Error(Status::IOError(fmt::format("cannot create {}", folder)));
  }
  nlohmann::json j{{"session_id", snap->session_id}, {"taken_at", now}, {"block", snap->block},
                   {"memory", snap->memory}, {"user", snap->user}};
  ENGRAM_RETURN_IF_ERROR(WriteFileAtomically(path, j.dump()));
  return snap;
}

}  // namespace engram::curated
