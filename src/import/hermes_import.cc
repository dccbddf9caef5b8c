#include "import/hermes_import.h"

#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "curated/curated_file.h"
#include "store/sqlite/database.h"
#include "store/sqlite/open_target.h"
#include "util/time.h"
#include "util/utf8.h"
#include "write/event_validation.h"

namespace engram::import {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Hermes stores list or dict (multimodal) content as this prefix and the JSON text (hermes.md §2.7).
constexpr std::string_view kJsonContentPrefix{"\0json:", 6};
// A read that keeps finding the file changed gives up after this many connections.
constexpr int kMaxReads = 5;

// ---- the read-only connection ------------------------------------------------------------------

// What identifies a version of the file: an immutable connection's reads are valid while it holds.
struct FileStamp {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  timespec mtime{};
  timespec ctime{};

  bool operator==(const FileStamp& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime.tv_sec == o.mtime.tv_sec &&
           mtime.tv_nsec == o.mtime.tv_nsec && ctime.tv_sec == o.ctime.tv_sec && ctime.tv_nsec == o.ctime.tv_nsec;
  }
};

Result<FileStamp> StampOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Error(Status::NotFound(fmt::format("no Hermes state.db at \"{}\"", path)));
    return Error(Status::IOError(fmt::format("cannot stat \"{}\": {}", path, std::strerror(errno))));
  }
  if (S_ISDIR(st.st_mode)) {
    return Error(Status::InvalidArgument(fmt::format("\"{}\" is a folder, not a state.db", path)));
  }
  return FileStamp{st.st_dev, st.st_ino, st.st_size, st.st_mtim, st.st_ctim};
}

// Whether the file is in WAL mode, from its header (bytes 18 and 19 are 2). Errors:
// kInvalidArgument for an empty file or one without the SQLite header.
Result<bool> ReadsAsWal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(Status::IOError(fmt::format("cannot read \"{}\"", path)));
  std::array<unsigned char, 100> header{};
  in.read(reinterpret_cast<char*>(header.data()), header.size());
  const auto got = static_cast<size_t>(in.gcount());
  if (got == 0) return Error(Status::InvalidArgument(fmt::format("\"{}\" is empty: not a Hermes state.db", path)));
  static constexpr char kMagic[] = "SQLite format 3";  // with its NUL: 16 bytes
  if (got < header.size() || std::memcmp(header.data(), kMagic, sizeof(kMagic)) != 0) {
    return Error(Status::InvalidArgument(
        fmt::format("\"{}\" is not an SQLite database, so not a Hermes state.db", path)));
  }
  return header[18] == 2 || header[19] == 2;
}

// One read-only connection to a state.db; see the file comment of hermes_import.h. Not
// thread-safe.
class StateDb {
 public:
  explicit StateDb(std::string path) : path_(std::move(path)) {}
  StateDb(const StateDb&) = delete;
  StateDb& operator=(const StateDb&) = delete;
  ~StateDb() { Close(); }

  // Runs `read` inside one read transaction, so that it sees one state of the file; on an
  // immutable connection, again on a new connection while the file changed during the read.
  // `read` must be repeatable (it starts over what it fills). Returns `read`'s Status; kBusy when
  // the file changed kMaxReads times.
  Status Read(const std::function<Status(sqlite3*)>& read, int64_t* rereads) {
    for (int attempt = 0; attempt < kMaxReads; ++attempt) {
      if (db_ == nullptr) ENGRAM_RETURN_IF_ERROR(Connect());
      Status st = Exec("BEGIN");
      if (st.ok()) {
        st = read(db_);
        Status end = Exec(st.ok() ? "COMMIT" : "ROLLBACK");
        if (st.ok()) st = end;
      }
      // SQLite's errors say what failed, not in which file (ours name it).
      if (!st.ok() && st.code() != StatusCode::kInvalidArgument && st.code() != StatusCode::kNotFound) {
        st = st.WithContext(fmt::format("reading \"{}\"", path_));
      }
      if (immutable_) {
        // Changed, or a writer is live now (it may have checkpointed into the file already; a
        // new connection then reads through its -wal).
        auto now = StampOf(path_);
        std::error_code ec;
        if (!now || !(*now == stamp_) || fs::exists(path_ + "-wal", ec)) {
          Close();
          if (rereads != nullptr && attempt + 1 < kMaxReads) ++*rereads;
          continue;
        }
      }
      return st;
    }
    return Status::Busy(fmt::format(
        "\"{}\" changed {} times while it was read (Hermes is writing it): run the import again", path_, kMaxReads));
  }

  // "immutable" or "read-only": how the last connection was opened.
  const char* mode() const { return immutable_ ? "immutable" : "read-only"; }

 private:
  Status Connect() {
    auto stamp = StampOf(path_);
    if (!stamp) return stamp.error();
    auto wal = ReadsAsWal(path_);
    if (!wal) return wal.error();
    std::error_code ec;
    immutable_ = *wal && !fs::exists(path_ + "-wal", ec);
    stamp_ = *stamp;
    const std::string uri =
        "file:" + sqlite::SqliteUriPath(path_) + (immutable_ ? "?mode=ro&immutable=1" : "?mode=ro");
    int rc = sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
      Status st = sqlite::StatusFromSqlite(rc, db_, fmt::format("open \"{}\" read-only", path_));
      Close();
      return st;
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 5000);
    // A damaged or duplicated FTS entry in sqlite_master must not stop the base tables from
    // reading (hermes.md §2.5): schema errors are tolerated. The connection cannot write.
    int on = 1;
    sqlite3_db_config(db_, SQLITE_DBCONFIG_WRITABLE_SCHEMA, 1, &on);
    return Status::Ok();
  }

  void Close() {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = nullptr;
  }

  Status Exec(const char* sql) {
    int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
    return rc == SQLITE_OK ? Status::Ok() : sqlite::StatusFromSqlite(rc, db_, sql);
  }

  std::string path_;
  sqlite3* db_ = nullptr;
  bool immutable_ = false;
  FileStamp stamp_;
};

// ---- the schema --------------------------------------------------------------------------------

// Steps `st` to its end, calling `row` on each row.
Status EachRow(sqlite::Statement& st, const std::function<void(const sqlite::Statement&)>& row) {
  for (;;) {
    auto more = st.Step();
    if (!more) return more.error();
    if (!*more) return Status::Ok();
    row(st);
  }
}

// The columns of one table ({} when there is no such table).
Result<std::set<std::string>> ColumnsOf(sqlite3* db, const std::string& table) {
  auto st = sqlite::Statement::Prepare(db, fmt::format("PRAGMA table_info(\"{}\")", table));
  if (!st) return Error(st.error());
  std::set<std::string> columns;
  ENGRAM_RETURN_IF_ERROR(EachRow(*st, [&](const sqlite::Statement& row) { columns.insert(row.Text(1)); }));
  return columns;
}

// Which columns this state.db has, and how to select them (NULL for a missing one).
struct StateSchema {
  int64_t version = 0;
  std::set<std::string> sessions, messages;

  std::string Column(const std::set<std::string>& table, const char* name) const {
    return table.count(name) > 0 ? fmt::format("\"{}\"", name) : "NULL";
  }
};

// Columns the import reads beyond the required ones (older schema versions lack some).
constexpr const char* kSessionColumns[] = {"source", "title", "parent_session_id", "started_at", "model_config"};
constexpr const char* kMessageColumns[] = {"tool_call_id", "tool_calls", "tool_name", "timestamp", "active",
                                           "compacted"};

Status ReadSchema(sqlite3* db, const std::string& path, StateSchema* schema) {
  *schema = StateSchema{};
  auto sessions = ColumnsOf(db, "sessions");
  if (!sessions) {
    if (sessions.error().code() == StatusCode::kCorruption &&
        sessions.error().message().find("not a database") != std::string::npos) {
      return Status::InvalidArgument(fmt::format("\"{}\" is not an SQLite database, so not a Hermes state.db", path));
    }
    return sessions.error();
  }
  auto messages = ColumnsOf(db, "messages");
  if (!messages) return messages.error();
  schema->sessions = std::move(*sessions);
  schema->messages = std::move(*messages);
  auto not_hermes = [&](std::string_view why) {
    return Status::InvalidArgument(fmt::format("\"{}\" is not a Hermes state.db: {}", path, why));
  };
  if (schema->sessions.empty()) return not_hermes("it has no table \"sessions\"");
  if (schema->messages.empty()) return not_hermes("it has no table \"messages\"");
  if (schema->sessions.count("id") == 0) return not_hermes("table \"sessions\" has no column \"id\"");
  for (const char* c : {"id", "session_id", "role", "content"}) {
    if (schema->messages.count(c) == 0) return not_hermes(fmt::format("table \"messages\" has no column \"{}\"", c));
  }
  auto version_table = ColumnsOf(db, "schema_version");
  if (!version_table) return version_table.error();
  if (version_table->count("version") > 0) {
    auto st = sqlite::Statement::Prepare(db, "SELECT max(version) FROM schema_version");
    if (!st) return st.error();
    auto row = st->Step();
    if (!row) return row.error();
    if (*row && !st->IsNull(0)) schema->version = st->Int(0);
  }
  return Status::Ok();
}

// ---- sessions ----------------------------------------------------------------------------------

struct HermesSession {
  std::string id;
  std::string source;
  std::string title;
  std::string parent_id;  // "" when none, or when the parent is not in the file (or in a cycle)
  std::string kind;       // engram's session_kind
  double started_at = 0;  // seconds; 0 when unknown
};

// "cron" → cron; "subagent", or a delegate child (model_config `_delegate_from`) → subagent; else
// interactive (hermes.md §2.6).
std::string KindOf(const std::string& source, const std::string& model_config) {
  if (source == "cron") return "cron";
  if (source == "subagent") return "subagent";
  if (!model_config.empty()) {
    auto config = json::parse(model_config, nullptr, /*allow_exceptions=*/false);
    if (config.is_object() && config.contains("_delegate_from")) return "subagent";
  }
  return "interactive";
}

Status ReadSessions(sqlite3* db, const StateSchema& schema, std::vector<HermesSession>* out,
                    std::vector<std::string>* orphans) {
  out->clear();
  orphans->clear();
  const auto& s = schema.sessions;
  auto st = sqlite::Statement::Prepare(
      db, fmt::format("SELECT id, {}, {}, {}, {}, {} FROM sessions", schema.Column(s, "source"),
                      schema.Column(s, "title"), schema.Column(s, "parent_session_id"), schema.Column(s, "started_at"),
                      schema.Column(s, "model_config")));
  if (!st) return st.error();
  ENGRAM_RETURN_IF_ERROR(EachRow(*st, [&](const sqlite::Statement& row) {
    HermesSession& session = out->emplace_back();
    session.id = row.Text(0);
    session.source = row.Text(1);
    session.title = row.Text(2);
    session.parent_id = row.Text(3);
    session.started_at = row.IsNull(4) ? 0 : row.Double(4);
    session.kind = KindOf(session.source, row.Text(5));
  }));
  // Messages whose session has no row (a file written without foreign keys).
  auto lost = sqlite::Statement::Prepare(
      db, "SELECT DISTINCT session_id FROM messages WHERE session_id NOT IN (SELECT id FROM sessions)");
  if (!lost) return lost.error();
  return EachRow(*lost, [&](const sqlite::Statement& row) { orphans->push_back(row.Text(0)); });
}

// The sessions in import order: by started_at, then id, each preceded by its ancestors. A parent
// missing from the file, or one that closes a cycle, is dropped with a note.
std::vector<HermesSession> LineageOrder(std::vector<HermesSession> sessions, std::vector<std::string>* notes) {
  std::sort(sessions.begin(), sessions.end(), [](const HermesSession& a, const HermesSession& b) {
    return a.started_at != b.started_at ? a.started_at < b.started_at : a.id < b.id;
  });
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < sessions.size(); ++i) index.emplace(sessions[i].id, i);
  for (HermesSession& s : sessions) {
    if (s.parent_id == s.id) s.parent_id.clear();  // its own parent: no lineage
    if (s.parent_id.empty() || index.count(s.parent_id) > 0) continue;
    notes->push_back(fmt::format("session {}: its parent {} is not in state.db; imported without a parent", s.id,
                                 s.parent_id));
    s.parent_id.clear();
  }
  enum : char { kNew, kOnChain, kDone };
  std::vector<char> state(sessions.size(), kNew);
  std::vector<size_t> order;
  for (size_t i = 0; i < sessions.size(); ++i) {
    std::vector<size_t> chain;  // i, its parent, its grandparent, ... while not yet placed
    for (size_t j = i; state[j] == kNew;) {
      state[j] = kOnChain;
      chain.push_back(j);
      if (sessions[j].parent_id.empty()) break;
      const size_t parent = index.at(sessions[j].parent_id);
      if (state[parent] == kOnChain) {
        notes->push_back(fmt::format("session {}: its parent {} descends from it (a cycle); imported without a parent",
                                     sessions[j].id, sessions[j].parent_id));
        sessions[j].parent_id.clear();
        break;
      }
      j = parent;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      state[*it] = kDone;
      order.push_back(*it);
    }
  }
  std::vector<HermesSession> out;
  out.reserve(sessions.size());
  for (size_t i : order) out.push_back(std::move(sessions[i]));
  return out;
}

// ---- messages ----------------------------------------------------------------------------------

struct HermesMessage {
  int64_t id = 0;
  std::string role;
  std::string content;
  std::string tool_call_id;
  std::string tool_calls;
  std::string tool_name;
  std::optional<double> timestamp;  // seconds
  bool active = true;               // NULL counts as active (hermes.md §2.5, #51646)
  bool compacted = false;
};

// One page of a session's messages after id `after_id`, in id order.
Status ReadMessagePage(sqlite3* db, const StateSchema& schema, const std::string& session_id, int64_t after_id,
                       size_t limit, std::vector<HermesMessage>* out) {
  out->clear();
  const auto& m = schema.messages;
  auto st = sqlite::Statement::Prepare(
      db, fmt::format("SELECT id, role, content, {}, {}, {}, {}, {}, {} FROM messages WHERE session_id = ? AND id > ? "
                      "ORDER BY id LIMIT ?",
                      schema.Column(m, "tool_call_id"), schema.Column(m, "tool_calls"), schema.Column(m, "tool_name"),
                      schema.Column(m, "timestamp"), schema.Column(m, "active"), schema.Column(m, "compacted")));
  if (!st) return st.error();
  st->Bind(1, session_id).Bind(2, after_id).Bind(3, static_cast<int64_t>(limit));
  return EachRow(*st, [&](const sqlite::Statement& row) {
    HermesMessage& msg = out->emplace_back();
    msg.id = row.Int(0);
    msg.role = row.Text(1);
    msg.content = row.Text(2);
    msg.tool_call_id = row.Text(3);
    msg.tool_calls = row.Text(4);
    msg.tool_name = row.Text(5);
    if (!row.IsNull(6)) msg.timestamp = row.Double(6);
    msg.active = row.IsNull(7) || row.Int(7) != 0;
    msg.compacted = !row.IsNull(8) && row.Int(8) != 0;
  });
}

// engram's role for a Hermes role; "" for rows that are not messages ("session_meta", ...).
std::string EngramRole(const std::string& role) {
  if (role == "user" || role == "assistant" || role == "tool" || role == "system") return role;
  if (role == "developer") return "system";
  if (role == "function") return "tool";
  return "";
}

// The text parts of decoded multimodal content (a list of parts, one part, or a string), joined by
// newlines; the types of the other parts go to `other_parts`.
std::string TextParts(const json& content, std::vector<std::string>* other_parts) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  auto add = [&text](const std::string& part) {
    if (IsBlank(part)) return;
    if (!text.empty()) text += "\n";
    text += part;
  };
  const json parts = content.is_array() ? content : json::array({content});
  for (const json& part : parts) {
    if (part.is_string()) {
      add(part.get<std::string>());
      continue;
    }
    const std::string type = part.is_object() ? part.value("type", "") : "";
    const bool textual = type.empty() || type == "text" || type == "input_text" || type == "output_text";
    if (textual && part.is_object() && part.contains("text") && part["text"].is_string()) {
      add(part["text"].get<std::string>());
    } else {
      other_parts->push_back(type.empty() ? std::string(part.type_name()) : type);
    }
  }
  return text;
}

// `text` without the <memory-context>…</memory-context> blocks a memory provider put into a turn
// (recalled memory, not what was said; Hermes strips them too when it replays a transcript), and
// then without the white space around what is left.
std::string WithoutMemoryContext(std::string text) {
  static constexpr std::string_view kOpen = "<memory-context>", kClose = "</memory-context>";
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (bool cut = false;;) {
    const std::string folded = lower(text);
    const size_t open = folded.find(kOpen);
    const size_t close = open == std::string::npos ? open : folded.find(kClose, open);
    if (close == std::string::npos) return cut ? curated::StripSpace(text) : text;
    text.erase(open, close + kClose.size() - open);
    cut = true;
  }
}

// The names of the functions a tool_calls value calls ({"function": {"name"}} or {"name"}).
std::vector<std::string> ToolCallNames(const json& calls) {
  std::vector<std::string> names;
  const json list = calls.is_array() ? calls : json::array({calls});
  for (const json& call : list) {
    if (!call.is_object()) continue;
    const json* name = nullptr;
    if (call.contains("function") && call["function"].is_object() && call["function"].contains("name")) {
      name = &call["function"]["name"];
    } else if (call.contains("name")) {
      name = &call["name"];
    }
    if (name != nullptr && name->is_string() && !IsBlank(name->get<std::string>())) {
      names.push_back(name->get<std::string>());
    }
  }
  return names;
}

// The calls with only their ids and names (arguments can be whole files: the metadata limit).
json ToolCallsWithoutArguments(const json& calls) {
  json out = json::array();
  const json list = calls.is_array() ? calls : json::array({calls});
  for (const json& call : list) {
    if (!call.is_object()) continue;
    json brief = json::object();
    if (call.contains("id")) brief["id"] = call["id"];
    const std::vector<std::string> names = ToolCallNames(json::array({call}));
    if (!names.empty()) brief["name"] = names[0];
    out.push_back(std::move(brief));
  }
  return out;
}

// What became of one message row.
enum class Outcome { kEvent, kRewound, kEmpty, kOtherRole, kUndecodable };

struct Converted {
  Outcome outcome = Outcome::kEvent;
  EventInput event;
  std::string problem;  // kUndecodable: why
};

Converted ToEvent(const HermesMessage& msg, const HermesSession& session, const std::string& namespace_name) {
  Converted out;
  if (!msg.active && !msg.compacted) {
    out.outcome = Outcome::kRewound;
    return out;
  }
  const std::string role = EngramRole(msg.role);
  if (role.empty()) {
    out.outcome = Outcome::kOtherRole;
    return out;
  }
  json hermes = json::object();
  hermes["message_id"] = msg.id;
  if (msg.compacted && !msg.active) hermes["compacted"] = true;
  if (role != msg.role) hermes["role"] = msg.role;

  std::string text = msg.content;
  if (std::string_view(text).substr(0, kJsonContentPrefix.size()) == kJsonContentPrefix) {
    auto decoded = json::parse(text.begin() + static_cast<std::ptrdiff_t>(kJsonContentPrefix.size()), text.end(),
                               nullptr, /*allow_exceptions=*/false);
    if (decoded.is_discarded()) {
      out.outcome = Outcome::kUndecodable;
      out.problem = "field \"content\": starts with Hermes's \\x00json: prefix but the rest is not JSON";
      return out;
    }
    std::vector<std::string> other_parts;
    text = TextParts(decoded, &other_parts);
    if (!other_parts.empty()) hermes["non_text_parts"] = other_parts;
  }
  if (role == "user" || role == "assistant") text = WithoutMemoryContext(std::move(text));

  if (!msg.tool_calls.empty()) {
    auto calls = json::parse(msg.tool_calls, nullptr, /*allow_exceptions=*/false);
    if (calls.is_discarded()) {
      hermes["tool_calls"] = msg.tool_calls;  // as Hermes stored it
    } else if (!calls.is_null()) {
      hermes["tool_calls"] = calls;
      const std::vector<std::string> names = ToolCallNames(calls);
      if (IsBlank(text) && !names.empty()) {
        text = "tool calls: ";
        for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : ", ") + names[i];
      }
    }
  }
  if (IsBlank(text)) {
    out.outcome = Outcome::kEmpty;
    return out;
  }

  EventInput& e = out.event;
  e.namespace_name = namespace_name;
  e.session_id = session.id;
  e.role = role;
  e.content = std::move(text);
  const double seconds = msg.timestamp.value_or(session.started_at);
  if (std::isfinite(seconds) && seconds > 0) {
    const auto ms = static_cast<TimestampMs>(std::llround(seconds * 1000.0));
    if (ms <= kMaxTimestampMs) e.occurred_at = FormatTimestamp(ms);
  }
  e.idempotency_key = fmt::format("hermes-state:{}:{}", session.id, msg.id);
  e.parent_session_id = session.parent_id;
  e.session_kind = session.kind;
  e.session_source = session.source;
  e.session_title = session.title;
  if (role == "tool") {
    e.tool_name = msg.tool_name;
    e.tool_call_id = msg.tool_call_id;
  }
  json metadata{{"hermes", hermes}};
  std::string dumped = metadata.dump(-1, ' ', false, json::error_handler_t::replace);
  if (dumped.size() > kMaxMetadataBytes && hermes.contains("tool_calls") && hermes["tool_calls"].is_array()) {
    metadata["hermes"]["tool_calls"] = ToolCallsWithoutArguments(hermes["tool_calls"]);
    metadata["hermes"]["tool_call_arguments_left_out"] = true;
    dumped = metadata.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  e.metadata_json = std::move(dumped);
  return out;
}

// ---- writing -----------------------------------------------------------------------------------

// Events waiting for IngestBatch, with where each came from.
class Pending {
 public:
  Pending(Engine& engine, HermesImportReport* report) : engine_(engine), report_(report) {}

  // Queues `event` when the Engine accepts it; reports it otherwise.
  void Add(EventInput event, const std::string& session_id, int64_t message_id) {
    if (Status st = Engine::ValidateEvent(event); !st.ok()) {
      report_->refused.push_back({session_id, message_id, st.message()});
      return;
    }
    events_.push_back(std::move(event));
  }

  size_t size() const { return events_.size(); }

  Status Flush() {
    if (events_.empty()) return Status::Ok();
    auto results = engine_.IngestBatch(events_);
    events_.clear();
    if (!results) return results.error();
    for (const IngestResult& r : *results) {
      ++(r.duplicate ? report_->events_already_present : r.forgotten ? report_->events_forgotten
                                                                      : report_->events_imported);
    }
    return Status::Ok();
  }

 private:
  Engine& engine_;
  HermesImportReport* report_;
  std::vector<EventInput> events_;
};

Status ImportSessions(Engine& engine, const HermesImportOptions& options, HermesImportReport* report) {
  StateDb db(options.state_db);
  report->state_db = options.state_db;
  StateSchema schema;
  std::vector<HermesSession> sessions;
  std::vector<std::string> orphans;
  ENGRAM_RETURN_IF_ERROR(db.Read(
      [&](sqlite3* handle) -> Status {
        ENGRAM_RETURN_IF_ERROR(ReadSchema(handle, options.state_db, &schema));
        return ReadSessions(handle, schema, &sessions, &orphans);
      },
      &report->rereads));
  report->opened = db.mode();
  report->schema_version = schema.version;
  for (const char* c : kSessionColumns) {
    if (schema.sessions.count(c) == 0) report->missing_columns.push_back(fmt::format("sessions.{}", c));
  }
  for (const char* c : kMessageColumns) {
    if (schema.messages.count(c) == 0) report->missing_columns.push_back(fmt::format("messages.{}", c));
  }
  for (std::string& id : orphans) {
    report->notes.push_back(
        fmt::format("session {}: messages without a sessions row; imported without source or title", id));
    sessions.push_back(HermesSession{.id = std::move(id), .kind = "interactive"});
  }
  report->sessions = static_cast<int64_t>(sessions.size());
  sessions = LineageOrder(std::move(sessions), &report->notes);

  Pending pending(engine, report);
  std::vector<HermesMessage> page;
  for (const HermesSession& session : sessions) {
    for (int64_t after = 0;;) {
      ENGRAM_RETURN_IF_ERROR(db.Read(
          [&](sqlite3* handle) -> Status {
            ENGRAM_RETURN_IF_ERROR(ReadMessagePage(handle, schema, session.id, after, options.batch_size, &page));
            if (options.after_page_read) options.after_page_read();
            return Status::Ok();
          },
          &report->rereads));
      if (page.empty()) break;
      for (const HermesMessage& msg : page) {
        ++report->messages;
        Converted c = ToEvent(msg, session, options.namespace_name);
        switch (c.outcome) {
          case Outcome::kEvent:
            pending.Add(std::move(c.event), session.id, msg.id);
            break;
          case Outcome::kRewound:
            ++report->skipped_rewound;
            break;
          case Outcome::kEmpty:
            ++report->skipped_empty;
            break;
          case Outcome::kOtherRole:
            ++report->skipped_roles[msg.role];
            break;
          case Outcome::kUndecodable:
            report->refused.push_back({session.id, msg.id, c.problem});
            break;
        }
      }
      after = page.back().id;
      if (pending.size() >= options.batch_size) ENGRAM_RETURN_IF_ERROR(pending.Flush());
    }
  }
  return pending.Flush();
}

// Why a store refused an entry: the first line of the Engine's message, without the sentence that
// introduces what followed it (the budget message goes on with "Current entries:" and the list).
std::string RefusalReason(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  if (line.size() < message.size() && !line.empty() && line.back() == ':') {
    if (size_t end = line.rfind(". "); end != std::string::npos) line.resize(end + 1);
  }
  return line;
}

Status ImportCurated(Engine& engine, const HermesImportOptions& options, HermesImportReport* report) {
  std::error_code ec;
  if (!fs::is_directory(options.memories_dir, ec)) {
    return Status::NotFound(fmt::format("no Hermes memories folder at \"{}\"", options.memories_dir));
  }
  for (const auto& [target, file] : {std::pair<const char*, const char*>{"memory", "MEMORY.md"}, {"user", "USER.md"}}) {
    HermesCuratedReport& r = report->curated.emplace_back();
    r.target = target;
    const std::string path = (fs::path(options.memories_dir) / file).string();
    if (!fs::exists(path, ec)) continue;
    r.file = path;
    auto read = curated::ReadFile(path);
    if (!read) {
      r.error = read.error().message();
      continue;
    }
    const std::vector<std::string> entries = curated::ParseEntries(read->bytes);
    r.entries = static_cast<int64_t>(entries.size());
    for (const std::string& entry : entries) {
      auto written = engine.WriteCurated(CuratedWrite{.namespace_name = options.namespace_name,
                                                      .target = target,
                                                      .operations = {CuratedOp{.action = "add", .content = entry}}});
      if (written) {
        ++(written->applied > 0 ? r.added : r.already_present);
        continue;
      }
      const StatusCode code = written.error().code();
      if (code != StatusCode::kInvalidArgument && code != StatusCode::kFailedPrecondition) {
        return written.error().WithContext(fmt::format("{} entry \"{}\"", file, TruncateCodePoints(entry, 80)));
      }
      r.refused.emplace_back(TruncateCodePoints(entry, 80), RefusalReason(written.error().message()));
    }
  }
  return Status::Ok();
}

}  // namespace

Status ImportHermes(Engine& engine, const HermesImportOptions& options, HermesImportReport* report) {
  report->namespace_name = options.namespace_name;
  if (options.state_db.empty() && options.memories_dir.empty()) {
    return Status::InvalidArgument("nothing to import: give a Hermes home, a state.db or a memories folder");
  }
  ENGRAM_RETURN_IF_ERROR(ValidateNameField("namespace", options.namespace_name, true));
  if (options.batch_size == 0) return Status::InvalidArgument("batch_size: must be at least 1");
  if (!options.state_db.empty()) ENGRAM_RETURN_IF_ERROR(ImportSessions(engine, options, report));
  if (!options.memories_dir.empty()) ENGRAM_RETURN_IF_ERROR(ImportCurated(engine, options, report));
  return Status::Ok();
}

Result<std::string> ResolveHermesHome(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("HERMES_HOME"); env != nullptr && *env != '\0') return std::string(env);
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return (fs::path(home) / ".hermes").string();
  }
  return Error(Status::InvalidArgument("--home: not given, and neither $HERMES_HOME nor $HOME is set"));
}

}  // namespace engram::import
