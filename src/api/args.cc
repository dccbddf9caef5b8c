#include "api/args.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "util/time.h"
#include "util/utf8.h"

namespace engram::api {
namespace {

using nlohmann::json;

Status FieldError(std::string_view name, std::string_view what) {
  return Status::InvalidArgument(fmt::format("field \"{}\": {}", name, what));
}

std::string_view JsonKindName(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a number";
    default: return "an integer";
  }
}

Status WrongType(const ParamSpec& spec, const json& v) {
  std::string_view expected = spec.type == ParamType::kTimestamp     ? "an ISO-8601 time string"
                              : spec.type == ParamType::kStringArray ? "an array of strings"
                                                                     : JsonTypeName(spec.type);
  return FieldError(spec.name, fmt::format("expected {}, got {}", expected, JsonKindName(v)));
}

// Tolerant decoding of what models send: JSON text standing for an array or object, numbers and
// booleans written as strings, a comma list for a string array.
json Loosen(const ParamSpec& spec, const json& v) {
  if (!v.is_string()) return v;
  const std::string& s = v.get_ref<const std::string&>();
  switch (spec.type) {
    case ParamType::kInteger:
    case ParamType::kNumber: {
      json parsed = json::parse(s, nullptr, false);
      return parsed.is_number() ? parsed : v;
    }
    case ParamType::kBoolean:
      if (s == "true") return true;
      if (s == "false") return false;
      return v;
    case ParamType::kObject:
    case ParamType::kArray:
    case ParamType::kStringArray: {
      json parsed = json::parse(s, nullptr, false);
      if (parsed.is_array() || parsed.is_object()) return parsed;
      if (spec.type != ParamType::kStringArray) return v;
      json items = json::array();
      size_t start = 0;
      while (start <= s.size()) {
        size_t comma = s.find(',', start);
        std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) items.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      return items;
    }
    default: return v;
  }
}

bool HasType(ParamType type, const json& v) {
  switch (type) {
    case ParamType::kString:
    case ParamType::kTimestamp: return v.is_string();
    case ParamType::kInteger: return v.is_number_integer() || (v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<int64_t>(v.get<double>())));
    case ParamType::kNumber: return v.is_number();
    case ParamType::kBoolean: return v.is_boolean();
    case ParamType::kObject: return v.is_object();
    case ParamType::kArray: return v.is_array();
    case ParamType::kStringArray:
      return v.is_array() && std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_string(); });
  }
  return false;
}

Result<json> CheckValue(const ParamSpec& spec, json v, ArgsMode mode) {
  if (mode == ArgsMode::kTolerant) v = Loosen(spec, v);
  if (!HasType(spec.type, v)) return Error(WrongType(spec, v));
  if (spec.type == ParamType::kInteger) {
    int64_t n = v.is_number_integer() ? v.get<int64_t>() : static_cast<int64_t>(v.get<double>());
    bool low = spec.minimum && n < *spec.minimum;
    bool high = spec.maximum && n > *spec.maximum;
    if ((low || high) && mode == ArgsMode::kTolerant) n = low ? *spec.minimum : *spec.maximum;
    else if (low || high) {
      return Error(FieldError(spec.name, fmt::format("{} is outside {}–{}", n, spec.minimum.value_or(INT64_MIN),
                                                     spec.maximum.value_or(INT64_MAX))));
    }
    return json(n);
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (!IsValidUtf8(s)) return Error(FieldError(spec.name, "not valid UTF-8"));
    if (spec.non_blank && IsBlank(s)) {
      return Error(FieldError(spec.name, s.empty() ? "is empty (an empty value never means all of them)"
                                                   : "is blank (an empty value never means all of them)"));
    }
    if (spec.max_length && static_cast<int64_t>(CodePointCount(s)) > *spec.max_length) {
      return Error(FieldError(spec.name, fmt::format("longer than {} characters", *spec.max_length)));
    }
    if (!spec.enum_values.empty() &&
        std::find(spec.enum_values.begin(), spec.enum_values.end(), s) == spec.enum_values.end()) {
      return Error(FieldError(spec.name, fmt::format("unknown value \"{}\" (expected one of: {})", s,
                                                     fmt::join(spec.enum_values, ", "))));
    }
    if (spec.type == ParamType::kTimestamp) {
      auto t = ParseLocalTimestamp(s);
      if (!t) return Error(t.error().WithContext(fmt::format("field \"{}\"", spec.name)));
    }
  }
  if (v.is_array() && spec.max_length && static_cast<int64_t>(v.size()) > *spec.max_length) {
    return Error(FieldError(spec.name, fmt::format("more than {} items", *spec.max_length)));
  }
  return v;
}

const json& NullJson() {
  static const json null_value;
  return null_value;
}

}  // namespace

std::string_view JsonTypeName(ParamType type) {
  switch (type) {
    case ParamType::kString:
    case ParamType::kTimestamp: return "string";
    case ParamType::kInteger: return "integer";
    case ParamType::kNumber: return "number";
    case ParamType::kBoolean: return "boolean";
    case ParamType::kObject: return "object";
    case ParamType::kArray:
    case ParamType::kStringArray: return "array";
  }
  return "string";
}

Result<Args> ParseArgs(const std::vector<ParamSpec>& specs, const json& input, ArgsMode mode) {
  if (!input.is_null() && !input.is_object()) {
    return Error(Status::InvalidArgument(fmt::format("arguments: expected a JSON object, got {}", JsonKindName(input))));
  }
  json values = json::object();
  std::vector<std::string> ignored;
  if (input.is_object()) {
    for (const auto& [key, value] : input.items()) {
      auto spec = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == key; });
      if (spec == specs.end()) {
        if (mode == ArgsMode::kStrict) return Error(FieldError(key, "unknown field"));
        ignored.push_back(key);
        continue;
      }
      // null stands for "not given" (models send it for optional fields).
      if (value.is_null()) continue;
      auto checked = CheckValue(*spec, value, mode);
      if (!checked) return Error(checked.error());
      values[key] = std::move(*checked);
    }
  }
  for (const ParamSpec& spec : specs) {
    if (values.contains(spec.name)) continue;
    if (spec.required) return Error(FieldError(spec.name, "required"));
    if (!spec.default_value.is_null()) values[spec.name] = spec.default_value;
  }
  return Args(std::move(values), std::move(ignored));
}

bool Args::Has(std::string_view name) const { return values_.contains(name); }

const json& Args::Raw(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? NullJson() : *it;
}

std::string Args::String(std::string_view name) const { return OptString(name).value_or(""); }

std::optional<std::string> Args::OptString(std::string_view name) const {
  const json& v = Raw(name);
  if (!v.is_string()) return std::nullopt;
  return v.get<std::string>();
}

int64_t Args::Int(std::string_view name) const { return OptInt(name).value_or(0); }

std::optional<int64_t> Args::OptInt(std::string_view name) const {
  const json& v = Raw(name);
  if (!v.is_number()) return std::nullopt;
  return v.get<int64_t>();
}

double Args::Number(std::string_view name) const {
  const json& v = Raw(name);
  return v.is_number() ? v.get<double>() : 0.0;
}

bool Args::Bool(std::string_view name) const { return OptBool(name).value_or(false); }

std::optional<bool> Args::OptBool(std::string_view name) const {
  const json& v = Raw(name);
  if (!v.is_boolean()) return std::nullopt;
  return v.get<bool>();
}

std::vector<std::string> Args::Strings(std::string_view name) const {
  const json& v = Raw(name);
  if (!v.is_array()) return {};
  return v.get<std::vector<std::string>>();
}

Result<std::optional<TimestampMs>> Args::Time(std::string_view name, int utc_offset_minutes) const {
  auto text = OptString(name);
  if (!text) return std::optional<TimestampMs>();
  auto t = ParseTimestampAtOffset(*text, utc_offset_minutes);
  if (!t) return Error(t.error().WithContext(fmt::format("field \"{}\"", name)));
  return std::optional<TimestampMs>(*t);
}

std::string FieldOfMessage(std::string_view message) {
  static const std::regex kField("field \"([^\"]+)\"");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(message.begin(), message.end(), m, kField)) return "";
  return m[1].str();
}

}  // namespace engram::api
