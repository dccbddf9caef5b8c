#include "import/locomo.h"

#include <date/date.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_set>
#include <utility>

namespace engram::import {
namespace {

using json = nlohmann::json;

constexpr const char* kMonthNames[] = {"january",   "february", "march",    "april",
                                       "may",       "june",     "july",     "august",
                                       "september", "october",  "november", "december"};

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "007" → "7", "0" → "0".
std::string StripLeadingZeros(std::string digits) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return "0";
  return digits.substr(first);
}

// 1–12 for a full or abbreviated (≥ 3 letters) English month name, 0 otherwise.
unsigned MonthFromName(std::string_view name) {
  std::string lower = ToLower(name);
  if (lower.size() < 3) return 0;
  for (unsigned i = 0; i < 12; ++i) {
    std::string_view full = kMonthNames[i];
    if (full.substr(0, lower.size()) == lower) return i + 1;
  }
  return 0;
}

std::string FormatIsoUtc(TimestampMs ms) {
  date::sys_time<std::chrono::milliseconds> tp{std::chrono::milliseconds(ms)};
  return date::format("%FT%TZ", tp);
}

// Where an error happened: `sample 2 ("conv-41")`.
class Where {
 public:
  explicit Where(size_t index) : index_(index) {}
  void set_sample_id(std::string id) { sample_id_ = std::move(id); }

  Status Field(std::string_view field, std::string_view problem) const {
    if (field.empty()) return Status::InvalidArgument(fmt::format("{}: {}", Prefix(), problem));
    return Status::InvalidArgument(fmt::format("{}: field \"{}\": {}", Prefix(), field, problem));
  }
  std::string Prefix() const {
    if (sample_id_.empty()) return fmt::format("sample {}", index_);
    return fmt::format("sample {} (\"{}\")", index_, sample_id_);
  }

 private:
  size_t index_;
  std::string sample_id_;
};

std::string Expected(std::string_view what, const json& got) {
  return fmt::format("expected {}, got {}", what, got.type_name());
}

// Reads obj[key] as a string into *out. A missing key is an error only when `required`.
Status ReadString(const json& obj, const char* key, const std::string& field, bool required,
                  const Where& where, std::string* out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    if (required) return where.Field(field, "missing");
    return Status::Ok();
  }
  if (!it->is_string()) return where.Field(field, Expected("a string", *it));
  *out = it->get_ref<const std::string&>();
  return Status::Ok();
}

Status ParseTurn(const json& t, int session, int position, const std::string& field,
                 const Where& where, LocomoTurn* turn) {
  if (!t.is_object()) return where.Field(field, Expected("an object", t));
  turn->session = session;
  turn->turn = position + 1;
  if (Status s = ReadString(t, "speaker", field + ".speaker", true, where, &turn->speaker);
      !s.ok()) {
    return s;
  }
  std::string raw_id;
  if (Status s = ReadString(t, "dia_id", field + ".dia_id", true, where, &raw_id); !s.ok()) {
    return s;
  }
  std::vector<std::string> ids = NormalizeEvidence({raw_id});
  static const std::regex kWholeId(R"(^\s*D:?\d+:\d+\s*$)");
  if (ids.size() == 1 && std::regex_match(raw_id, kWholeId)) {
    turn->dia_id = ids[0];
  } else {
    turn->dia_id = std::string(Trim(raw_id));
  }
  if (turn->dia_id.empty()) return where.Field(field + ".dia_id", "empty");
  if (Status s = ReadString(t, "text", field + ".text", true, where, &turn->text); !s.ok()) {
    return s;
  }
  if (Status s = ReadString(t, "blip_caption", field + ".blip_caption", false, where,
                            &turn->image_caption);
      !s.ok()) {
    return s;
  }
  if (Status s = ReadString(t, "query", field + ".query", false, where, &turn->image_query);
      !s.ok()) {
    return s;
  }
  if (auto it = t.find("img_url"); it != t.end() && !it->is_null()) {
    if (it->is_string()) {
      turn->image_urls.push_back(it->get<std::string>());
    } else if (it->is_array()) {
      for (size_t i = 0; i < it->size(); ++i) {
        const json& url = (*it)[i];
        if (!url.is_string()) {
          return where.Field(fmt::format("{}.img_url[{}]", field, i), Expected("a string", url));
        }
        turn->image_urls.push_back(url.get<std::string>());
      }
    } else {
      return where.Field(field + ".img_url", Expected("a string or a list of strings", *it));
    }
  }
  return Status::Ok();
}

Status ParseQuestion(const json& q, const std::string& field, const Where& where,
                     const std::unordered_set<std::string>& known_ids, LocomoQuestion* out) {
  if (!q.is_object()) return where.Field(field, Expected("an object", q));
  if (Status s = ReadString(q, "question", field + ".question", true, where, &out->question);
      !s.ok()) {
    return s;
  }
  if (auto it = q.find("answer"); it != q.end() && !it->is_null()) {
    if (it->is_string()) {
      out->answer = it->get<std::string>();
    } else if (it->is_number() || it->is_boolean()) {
      out->answer = it->dump();  // 2022 → "2022"
    } else {
      return where.Field(field + ".answer", Expected("a string or a number", *it));
    }
  }
  auto cat = q.find("category");
  if (cat == q.end() || cat->is_null()) return where.Field(field + ".category", "missing");
  if (!cat->is_number_integer()) {
    return where.Field(field + ".category", Expected("an integer", *cat));
  }
  int64_t category = cat->get<int64_t>();
  if (category < 0 || category > 1000) {
    return where.Field(field + ".category", fmt::format("out of range: {}", category));
  }
  out->category = static_cast<int>(category);
  if (auto ev = q.find("evidence"); ev != q.end() && !ev->is_null()) {
    if (ev->is_string()) {
      out->raw_evidence.push_back(ev->get<std::string>());
    } else if (ev->is_array()) {
      for (size_t i = 0; i < ev->size(); ++i) {
        const json& e = (*ev)[i];
        if (!e.is_string()) {
          return where.Field(fmt::format("{}.evidence[{}]", field, i), Expected("a string", e));
        }
        out->raw_evidence.push_back(e.get<std::string>());
      }
    } else {
      return where.Field(field + ".evidence", Expected("a list of strings", *ev));
    }
  }
  for (std::string& id : NormalizeEvidence(out->raw_evidence)) {
    if (known_ids.count(id) > 0) out->evidence.push_back(std::move(id));
  }
  return Status::Ok();
}

Result<LocomoConversation> ParseSample(const json& sample, size_t index) {
  Where where(index);
  if (!sample.is_object()) return Error(where.Field("", Expected("an object", sample)));
  LocomoConversation conv;
  if (Status s = ReadString(sample, "sample_id", "sample_id", true, where, &conv.sample_id);
      !s.ok()) {
    return Error(s);
  }
  where.set_sample_id(conv.sample_id);
  if (conv.sample_id.empty()) return Error(where.Field("sample_id", "empty"));

  auto c = sample.find("conversation");
  if (c == sample.end()) return Error(where.Field("conversation", "missing"));
  if (!c->is_object()) return Error(where.Field("conversation", Expected("an object", *c)));
  if (Status s =
          ReadString(*c, "speaker_a", "conversation.speaker_a", true, where, &conv.speaker_a);
      !s.ok()) {
    return Error(s);
  }
  if (Status s =
          ReadString(*c, "speaker_b", "conversation.speaker_b", true, where, &conv.speaker_b);
      !s.ok()) {
    return Error(s);
  }

  // Sessions are the existing `session_<N>` keys, ordered by N (not the date keys: a file may hold
  // more dates than sessions).
  std::map<int, std::string> session_keys;
  for (auto it = c->begin(); it != c->end(); ++it) {
    const std::string& key = it.key();
    constexpr std::string_view kPrefix = "session_";
    if (key.size() <= kPrefix.size() || key.compare(0, kPrefix.size(), kPrefix) != 0) continue;
    std::string_view digits = std::string_view(key).substr(kPrefix.size());
    if (digits.size() > 6 ||
        !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      continue;
    int n = std::stoi(std::string(digits));
    if (!session_keys.emplace(n, key).second) {
      return Error(where.Field("conversation." + key, fmt::format("session {} appears twice", n)));
    }
  }

  std::unordered_set<std::string> known_ids;
  for (const auto& [n, key] : session_keys) {
    const std::string field = "conversation." + key;
    const json& turns = (*c)[key];
    if (!turns.is_array()) return Error(where.Field(field, Expected("a list of turns", turns)));
    LocomoSession session;
    session.index = n;
    const std::string date_key = key + "_date_time";
    if (Status s = ReadString(*c, date_key.c_str(), "conversation." + date_key, true, where,
                              &session.date_time_text);
        !s.ok()) {
      return Error(s);
    }
    Result<TimestampMs> started = ParseLocomoDateTime(session.date_time_text);
    if (!started) return Error(where.Field("conversation." + date_key, started.error().message()));
    session.started_at = *started;
    for (size_t i = 0; i < turns.size(); ++i) {
      LocomoTurn turn;
      const std::string turn_field = fmt::format("{}[{}]", field, i);
      if (Status s = ParseTurn(turns[i], n, static_cast<int>(i), turn_field, where, &turn);
          !s.ok()) {
        return Error(s);
      }
      if (!known_ids.insert(turn.dia_id).second) {
        return Error(
            where.Field(turn_field + ".dia_id", fmt::format("\"{}\" appears twice", turn.dia_id)));
      }
      session.turns.push_back(std::move(turn));
    }
    conv.sessions.push_back(std::move(session));
  }

  if (auto qa = sample.find("qa"); qa != sample.end() && !qa->is_null()) {
    if (!qa->is_array()) return Error(where.Field("qa", Expected("a list", *qa)));
    for (size_t i = 0; i < qa->size(); ++i) {
      LocomoQuestion question;
      if (Status s = ParseQuestion((*qa)[i], fmt::format("qa[{}]", i), where, known_ids, &question);
          !s.ok()) {
        return Error(s);
      }
      conv.questions.push_back(std::move(question));
    }
  }
  return conv;
}

}  // namespace

Result<TimestampMs> ParseLocomoDateTime(std::string_view text) {
  // h:mm am/pm on D Month, YYYY — e.g. "1:56 pm on 8 May, 2023".
  static const std::regex kPattern(
      R"(^\s*(\d{1,2})\s*:\s*(\d{2})\s*([ap])\.?\s*m\.?\s*(?:on\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?\s*,?\s*(\d{4})\s*$)",
      std::regex::ECMAScript | std::regex::icase);
  std::string s(text);
  std::smatch m;
  auto invalid = [&](std::string_view why) {
    return Error(Status::InvalidArgument(fmt::format(
        "cannot read \"{}\" as a time like \"1:56 pm on 8 May, 2023\": {}", text, why)));
  };
  if (!std::regex_match(s, m, kPattern)) return invalid("unexpected shape");
  int hour = std::stoi(m[1].str());
  int minute = std::stoi(m[2].str());
  bool pm = std::tolower(static_cast<unsigned char>(m[3].str()[0])) == 'p';
  unsigned day = static_cast<unsigned>(std::stoi(m[4].str()));
  unsigned month = MonthFromName(m[5].str());
  int year = std::stoi(m[6].str());
  if (hour < 1 || hour > 12) return invalid("hour outside 1–12");
  if (minute > 59) return invalid("minute outside 0–59");
  if (month == 0) return invalid(fmt::format("unknown month \"{}\"", m[5].str()));
  date::year_month_day ymd{date::year{year}, date::month{month}, date::day{day}};
  if (!ymd.ok()) return invalid("no such date");
  int hour24 = hour % 12 + (pm ? 12 : 0);
  auto tp = date::sys_days{ymd} + std::chrono::hours(hour24) + std::chrono::minutes(minute);
  return std::chrono::duration_cast<std::chrono::milliseconds>(tp.time_since_epoch()).count();
}

std::vector<std::string> NormalizeEvidence(const std::vector<std::string>& raw) {
  static const std::regex kId(R"(D:?(\d+):(\d+))");
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& s : raw) {
    for (auto it = std::sregex_iterator(s.begin(), s.end(), kId); it != std::sregex_iterator();
         ++it) {
      std::string id = fmt::format("D{}:{}", StripLeadingZeros((*it)[1].str()),
                                   StripLeadingZeros((*it)[2].str()));
      if (seen.insert(id).second) out.push_back(std::move(id));
    }
  }
  return out;
}

Result<std::vector<LocomoConversation>> ParseLocomo(std::string_view json_text) {
  json root;
  try {
    root = json::parse(json_text.begin(), json_text.end());
  } catch (const json::exception& e) {
    return Error(Status::InvalidArgument(fmt::format("not valid JSON: {}", e.what())));
  }
  if (!root.is_array()) {
    return Error(Status::InvalidArgument(
        fmt::format("expected a JSON list of LoCoMo samples, got {}", root.type_name())));
  }
  std::vector<LocomoConversation> out;
  out.reserve(root.size());
  std::set<std::string> sample_ids;
  for (size_t i = 0; i < root.size(); ++i) {
    Result<LocomoConversation> conv = ParseSample(root[i], i);
    if (!conv) return Error(conv.error());
    if (!sample_ids.insert(conv->sample_id).second) {
      return Error(Status::InvalidArgument(
          fmt::format("sample {}: field \"sample_id\": \"{}\" appears twice", i, conv->sample_id)));
    }
    out.push_back(std::move(*conv));
  }
  return out;
}

Result<std::vector<LocomoConversation>> LoadLocomoFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Error(Status::IOError(fmt::format("cannot read {}: {}", path, std::strerror(errno))));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Error(Status::IOError(fmt::format("cannot read {}", path)));
  Result<std::vector<LocomoConversation>> parsed = ParseLocomo(buffer.str());
  if (!parsed) return Error(parsed.error().WithContext(path));
  return parsed;
}

std::vector<EventInput> ToEventInputs(const LocomoConversation& conversation) {
  std::vector<EventInput> out;
  for (const LocomoSession& session : conversation.sessions) {
    for (size_t i = 0; i < session.turns.size(); ++i) {
      const LocomoTurn& turn = session.turns[i];
      EventInput e;
      e.content = turn.text;
      if (IsBlank(e.content)) e.content = turn.image_caption;
      if (IsBlank(e.content)) continue;
      e.namespace_name = conversation.sample_id;
      e.session_id = fmt::format("session_{}", session.index);
      e.role = "user";
      e.speaker = turn.speaker;
      e.occurred_at = FormatIsoUtc(session.started_at + static_cast<TimestampMs>(i) * 1000);
      e.idempotency_key = conversation.sample_id + ":" + turn.dia_id;
      json meta = json::object();
      meta["dia_id"] = turn.dia_id;
      if (!turn.image_caption.empty()) meta["image_caption"] = turn.image_caption;
      if (!turn.image_urls.empty()) meta["image_urls"] = turn.image_urls;
      if (!turn.image_query.empty()) meta["image_query"] = turn.image_query;
      e.metadata_json = meta.dump(-1, ' ', false, json::error_handler_t::replace);
      e.session_kind = "interactive";
      e.session_source = "locomo";
      e.session_title = session.date_time_text;
      out.push_back(std::move(e));
    }
  }
  return out;
}

int LocomoSessionOf(std::string_view dia_id) {
  dia_id = Trim(dia_id);
  if (dia_id.empty() || dia_id[0] != 'D') return 0;
  dia_id.remove_prefix(1);
  if (!dia_id.empty() && dia_id[0] == ':') dia_id.remove_prefix(1);
  int n = 0;
  size_t digits = 0;
  while (digits < dia_id.size() && digits < 9 && dia_id[digits] >= '0' && dia_id[digits] <= '9') {
    n = n * 10 + (dia_id[digits] - '0');
    ++digits;
  }
  return digits == 0 ? 0 : n;
}

}  // namespace engram::import
