#include "import/memorybank.h"

#include <date/date.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "util/time.h"

namespace engram::import {
namespace {

// ordered_json keeps the users in file order.
using json = nlohmann::ordered_json;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool IsBlank(std::string_view s) { return Trim(s).empty(); }

std::string Expected(std::string_view what, const json& got) {
  return fmt::format("expected {}, got {}", what, got.type_name());
}

// Reads "YYYY-MM-DD" (a real date) as 00:00 UTC in ms. Errors: kInvalidArgument quoting the text.
Result<TimestampMs> ParseDateKey(std::string_view text) {
  auto invalid = [&] {
    return Error(Status::InvalidArgument(
        fmt::format("\"{}\" is not a date like \"2023-04-27\"", text)));
  };
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return invalid();
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return invalid();
  }
  auto num = [&](size_t pos, size_t len) {
    int n = 0;
    for (size_t i = pos; i < pos + len; ++i) n = n * 10 + (text[i] - '0');
    return n;
  };
  date::year_month_day ymd{date::year{num(0, 4)}, date::month{static_cast<unsigned>(num(5, 2))},
                           date::day{static_cast<unsigned>(num(8, 2))}};
  if (!ymd.ok()) return invalid();
  auto tp = date::sys_days{ymd};
  return std::chrono::duration_cast<std::chrono::milliseconds>(tp.time_since_epoch()).count();
}

Status UserField(std::string_view user, std::string_view field, std::string_view problem) {
  return Status::InvalidArgument(
      fmt::format("user \"{}\": field \"{}\": {}", user, field, problem));
}

Result<MemoryBankUser> ParseUser(const std::string& key, const json& value) {
  MemoryBankUser user;
  user.name = std::string(Trim(key));
  if (user.name.empty()) {
    return Error(Status::InvalidArgument(
        fmt::format("user \"{}\": the user name (the top-level key) is blank", key)));
  }
  if (!value.is_object()) return Error(UserField(user.name, "", Expected("an object", value)));
  auto history = value.find("history");
  if (history == value.end() || history->is_null()) {
    return Error(UserField(user.name, "history", "missing"));
  }
  if (!history->is_object()) {
    return Error(UserField(user.name, "history", Expected("an object keyed by date", *history)));
  }
  for (auto it = history->begin(); it != history->end(); ++it) {
    const std::string field = "history." + it.key();
    MemoryBankDay day;
    day.date = it.key();
    Result<TimestampMs> start = ParseDateKey(day.date);
    if (!start) return Error(UserField(user.name, field, start.error().message()));
    day.start = *start;
    const json& list = it.value();
    if (!list.is_array()) {
      return Error(UserField(user.name, field, Expected("a list of exchanges", list)));
    }
    for (size_t i = 0; i < list.size(); ++i) {
      const json& pair = list[i];
      const std::string pair_field = fmt::format("{}[{}]", field, i);
      if (!pair.is_object()) return Error(UserField(user.name, pair_field, Expected("an object", pair)));
      MemoryBankExchange exchange;
      for (auto [name, out] : {std::pair<const char*, std::string*>{"query", &exchange.query},
                               {"response", &exchange.response}}) {
        auto f = pair.find(name);
        if (f == pair.end() || f->is_null()) {
          return Error(UserField(user.name, pair_field + "." + name, "missing"));
        }
        if (!f->is_string()) {
          return Error(UserField(user.name, pair_field + "." + name, Expected("a string", *f)));
        }
        *out = f->get<std::string>();
      }
      day.exchanges.push_back(std::move(exchange));
    }
    user.days.push_back(std::move(day));
  }
  std::sort(user.days.begin(), user.days.end(),
            [](const MemoryBankDay& a, const MemoryBankDay& b) { return a.start < b.start; });
  for (size_t i = 1; i < user.days.size(); ++i) {
    if (user.days[i].start == user.days[i - 1].start) {
      return Error(UserField(user.name, "history." + user.days[i].date,
                             fmt::format("date {} appears twice", user.days[i].date)));
    }
  }
  return user;
}

Result<MemoryBankQuestion> ParseGoldLine(const json& line) {
  auto field_error = [](std::string_view field, std::string_view problem) {
    return Error(Status::InvalidArgument(fmt::format("field \"{}\": {}", field, problem)));
  };
  if (!line.is_object()) {
    return Error(Status::InvalidArgument(Expected("a JSON object", line)));
  }
  MemoryBankQuestion q;
  for (auto [name, out] : {std::pair<const char*, std::string*>{"user", &q.user},
                           {"question", &q.question}}) {
    auto f = line.find(name);
    if (f == line.end() || f->is_null()) return field_error(name, "missing");
    if (!f->is_string()) return field_error(name, Expected("a string", *f));
    *out = f->get<std::string>();
  }
  q.user = std::string(Trim(q.user));
  if (q.user.empty()) return field_error("user", "blank");
  if (auto f = line.find("note"); f != line.end() && !f->is_null()) {
    if (!f->is_string()) return field_error("note", Expected("a string", *f));
    q.note = f->get<std::string>();
  }
  auto answerable = line.find("answerable");
  if (answerable == line.end() || answerable->is_null()) return field_error("answerable", "missing");
  if (!answerable->is_boolean()) {
    return field_error("answerable", Expected("true or false", *answerable));
  }
  q.answerable = answerable->get<bool>();
  auto gold = line.find("gold");
  if (gold == line.end() || gold->is_null()) return field_error("gold", "missing");
  if (!gold->is_array()) return field_error("gold", Expected("a list", *gold));
  std::set<std::pair<std::string, int>> seen;
  for (size_t i = 0; i < gold->size(); ++i) {
    const json& ref = (*gold)[i];
    const std::string field = fmt::format("gold[{}]", i);
    if (!ref.is_object()) return field_error(field, Expected("an object", ref));
    MemoryBankGoldRef out;
    auto date = ref.find("date");
    if (date == ref.end() || date->is_null()) return field_error(field + ".date", "missing");
    if (!date->is_string()) return field_error(field + ".date", Expected("a string", *date));
    out.date = date->get<std::string>();
    if (Result<TimestampMs> d = ParseDateKey(out.date); !d) {
      return field_error(field + ".date", d.error().message());
    }
    auto index = ref.find("index");
    if (index == ref.end() || index->is_null()) return field_error(field + ".index", "missing");
    if (!index->is_number_integer() || index->get<int64_t>() < 0 ||
        index->get<int64_t>() > 1'000'000) {
      return field_error(field + ".index", Expected("a non-negative integer", *index));
    }
    out.index = static_cast<int>(index->get<int64_t>());
    if (seen.emplace(out.date, out.index).second) q.gold.push_back(std::move(out));
  }
  if (!q.answerable && !q.gold.empty()) {
    return field_error("gold", "an unanswerable question (answerable: false) must have no gold");
  }
  return q;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Error(Status::IOError(fmt::format("cannot read {}: {}", path, std::strerror(errno))));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Error(Status::IOError(fmt::format("cannot read {}", path)));
  return buffer.str();
}

}  // namespace

std::string MemoryBankExchangeId(std::string_view date, int index) {
  return fmt::format("{}#{}", date, index);
}

Result<std::vector<MemoryBankUser>> ParseMemoryBank(std::string_view json_text) {
  json root;
  try {
    root = json::parse(json_text.begin(), json_text.end());
  } catch (const json::exception& e) {
    return Error(Status::InvalidArgument(fmt::format("not valid JSON: {}", e.what())));
  }
  if (!root.is_object()) {
    return Error(Status::InvalidArgument(
        fmt::format("expected a JSON object keyed by user name, got {}", root.type_name())));
  }
  std::vector<MemoryBankUser> users;
  std::set<std::string> names;
  for (auto it = root.begin(); it != root.end(); ++it) {
    Result<MemoryBankUser> user = ParseUser(it.key(), it.value());
    if (!user) return Error(user.error());
    if (!names.insert(user->name).second) {
      return Error(Status::InvalidArgument(fmt::format(
          "user \"{}\": appears twice (keys are compared without surrounding spaces)",
          user->name)));
    }
    users.push_back(std::move(*user));
  }
  return users;
}

Result<std::vector<MemoryBankUser>> LoadMemoryBankFile(const std::string& path) {
  Result<std::string> text = ReadWholeFile(path);
  if (!text) return Error(text.error());
  Result<std::vector<MemoryBankUser>> parsed = ParseMemoryBank(*text);
  if (!parsed) return Error(parsed.error().WithContext(path));
  return parsed;
}

Result<std::vector<MemoryBankQuestion>> ParseMemoryBankGold(std::string_view jsonl_text) {
  std::vector<MemoryBankQuestion> out;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= jsonl_text.size()) {
    size_t end = jsonl_text.find('\n', pos);
    if (end == std::string_view::npos) end = jsonl_text.size();
    std::string_view line = jsonl_text.substr(pos, end - pos);
    ++line_no;
    pos = end + 1;
    if (IsBlank(line)) continue;
    json parsed = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
      return Error(Status::InvalidArgument(fmt::format("line {}: not valid JSON", line_no)));
    }
    Result<MemoryBankQuestion> q = ParseGoldLine(parsed);
    if (!q) return Error(Status::InvalidArgument(
                  fmt::format("line {}: {}", line_no, q.error().message())));
    out.push_back(std::move(*q));
  }
  return out;
}

Result<std::vector<MemoryBankQuestion>> LoadMemoryBankGoldFile(const std::string& path) {
  Result<std::string> text = ReadWholeFile(path);
  if (!text) return Error(text.error());
  Result<std::vector<MemoryBankQuestion>> parsed = ParseMemoryBankGold(*text);
  if (!parsed) return Error(parsed.error().WithContext(path));
  return parsed;
}

std::vector<EventInput> ToEventInputs(const MemoryBankUser& user) {
  std::vector<EventInput> out;
  for (const MemoryBankDay& day : user.days) {
    for (size_t i = 0; i < day.exchanges.size(); ++i) {
      const MemoryBankExchange& exchange = day.exchanges[i];
      const int index = static_cast<int>(i);
      const std::string exchange_id = MemoryBankExchangeId(day.date, index);
      for (int part = 0; part < 2; ++part) {
        const bool is_query = part == 0;
        const std::string& content = is_query ? exchange.query : exchange.response;
        if (IsBlank(content)) continue;
        const char* part_name = is_query ? "query" : "response";
        EventInput e;
        e.namespace_name = user.name;
        e.session_id = day.date;
        e.role = is_query ? "user" : "assistant";
        e.speaker = is_query ? user.name : "AI";
        e.content = content;
        e.occurred_at = FormatTimestamp(day.start + (2 * static_cast<TimestampMs>(i) + part) * 1000);
        e.idempotency_key = fmt::format("memorybank:{}:{}:{}", user.name, exchange_id, part_name);
        json meta = {{"exchange", exchange_id},
                     {"date", day.date},
                     {"index", index},
                     {"part", part_name}};
        e.metadata_json = meta.dump(-1, ' ', false, json::error_handler_t::replace);
        e.session_kind = "interactive";
        e.session_source = "memorybank";
        e.session_title = day.date;
        out.push_back(std::move(e));
      }
    }
  }
  return out;
}

std::string MemoryBankExchangeOfMetadata(std::string_view metadata_json) {
  if (metadata_json.empty()) return "";
  json meta = json::parse(metadata_json.begin(), metadata_json.end(), nullptr,
                          /*allow_exceptions=*/false);
  if (!meta.is_object()) return "";
  auto it = meta.find("exchange");
  if (it == meta.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

}  // namespace engram::import
