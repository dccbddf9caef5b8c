// api/args.h — the arguments of a capability: their description (ParamSpec) and the one
// validation every face (CLI, REST, MCP) runs on them.
//
// A face turns what its caller sent into one JSON object (CLI flags, a REST body plus path and
// query parameters, MCP tool arguments) and calls ParseArgs; the capability then reads typed
// values from the Args it returns. The JSON Schema of the arguments (OpenAPI, MCP inputSchema) is
// generated from the same ParamSpecs (api/schema.h), so the document and the validation cannot
// drift apart.
#ifndef ENGRAM_API_ARGS_H_
#define ENGRAM_API_ARGS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::api {

enum class ParamType {
  kString,
  kInteger,
  kNumber,
  kBoolean,
  kTimestamp,    // an ISO-8601 string (util/time.h ParseTimestamp); read with Args::Time
  kStringArray,  // an array of strings
  kObject,       // any JSON object (metadata)
  kArray,        // an array of objects (a batch of events)
};

// Where a REST face takes the argument from. The CLI and MCP ignore it.
enum class ParamIn { kBody, kPath, kQuery, kHeader };

struct ParamSpec {
  std::string name;         // snake_case field name, the same on every face
  ParamType type = ParamType::kString;
  std::string description;  // one sentence, shown in --help, OpenAPI and MCP
  bool required = false;
  std::optional<int64_t> minimum;  // kInteger: inclusive bounds
  std::optional<int64_t> maximum;
  std::optional<int64_t> max_length;     // kString: characters (code points); arrays: items
  // kString: an empty or blank (white space only) value is an error naming the field, never a
  // default (a namespace "" never means every namespace, B27). JSON Schema: minLength 1, pattern \S.
  bool non_blank = false;
  std::vector<std::string> enum_values;  // kString: one of these
  nlohmann::json default_value;          // null = no default
  ParamIn in = ParamIn::kBody;
  std::string header;                    // kHeader: the HTTP header name ("Idempotency-Key")
};

// How forgiving ParseArgs is. Strict (CLI, REST): an unknown field or a wrong JSON type is an
// error naming the field. Tolerant (MCP, whose callers are models): unknown fields are ignored
// (and listed in Args::ignored), a string holding a JSON array or object is decoded, a number
// written as a string ("5") is read, a comma string is split for a string array, and an integer
// outside its bounds is clamped.
enum class ArgsMode { kStrict, kTolerant };

// Validated arguments: every declared field present in the input, with defaults filled in, each of
// its declared type and within its limits.
class Args {
 public:
  Args() = default;
  explicit Args(nlohmann::json values, std::vector<std::string> ignored = {})
      : values_(std::move(values)), ignored_(std::move(ignored)) {}

  bool Has(std::string_view name) const;
  // The value of a declared field; "" / 0 / false when absent and without a default.
  std::string String(std::string_view name) const;
  std::optional<std::string> OptString(std::string_view name) const;
  int64_t Int(std::string_view name) const;
  std::optional<int64_t> OptInt(std::string_view name) const;
  double Number(std::string_view name) const;
  bool Bool(std::string_view name) const;
  std::optional<bool> OptBool(std::string_view name) const;
  std::vector<std::string> Strings(std::string_view name) const;
  // A kTimestamp field parsed as local time at `utc_offset_minutes` when it names no offset.
  // Errors: kInvalidArgument naming the field.
  Result<std::optional<TimestampMs>> Time(std::string_view name, int utc_offset_minutes = 0) const;
  const nlohmann::json& Raw(std::string_view name) const;  // null when absent
  const nlohmann::json& values() const { return values_; }
  // Unknown fields a tolerant parse dropped.
  const std::vector<std::string>& ignored() const { return ignored_; }

 private:
  nlohmann::json values_ = nlohmann::json::object();
  std::vector<std::string> ignored_;
};

// Validates `input` (must be a JSON object; null counts as {}) against `specs`.
// Errors: kInvalidArgument with the message `field "<name>": <what is wrong>` — missing required
// field, wrong type, empty or blank where non_blank, too long, outside its range, not one of its values, unknown field (strict).
Result<Args> ParseArgs(const std::vector<ParamSpec>& specs, const nlohmann::json& input,
                       ArgsMode mode);

// The field a kInvalidArgument message names (`field "limit": ...` → "limit"; also after a
// location prefix such as "event 3: "), or "" when it names none. Used for problem+json.
std::string FieldOfMessage(std::string_view message);

// The name of a ParamType in JSON Schema terms ("string", "integer", ...).
std::string_view JsonTypeName(ParamType type);

}  // namespace engram::api

#endif  // ENGRAM_API_ARGS_H_
