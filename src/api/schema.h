// api/schema.h — JSON Schema (2020-12, as OpenAPI 3.1 and MCP use it) generated from capability
// descriptions, and small builders for result schemas.
#ifndef ENGRAM_API_SCHEMA_H_
#define ENGRAM_API_SCHEMA_H_

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "api/capability.h"

namespace engram::api {

// The schema of one argument: {"type", "description", "minimum"?, "maximum"?, "maxLength"?,
// "enum"?, "default"?, "format": "date-time" for kTimestamp, "items" for arrays}.
OrderedJson ParamSchema(const ParamSpec& spec);

// The input schema of the arguments named in `names` (all when empty) that a face takes in the
// body: {"type": "object", "properties": {...}, "required": [...]}. No additionalProperties:false
// (models add fields; the strict faces reject them in ParseArgs, with a message naming the field).
OrderedJson InputSchema(const std::vector<ParamSpec>& specs, const std::vector<std::string>& names = {},
                        bool body_only = false);

// Result-schema builders. Object() lists properties; `required` names those always present.
OrderedJson Object(std::initializer_list<std::pair<const char*, OrderedJson>> properties,
                   std::initializer_list<const char*> required = {});
OrderedJson StringType(const char* description = nullptr);
OrderedJson NullableString(const char* description = nullptr);  // a string or null
OrderedJson NullableNumber(const char* description = nullptr);  // a number or null
OrderedJson IntegerType(const char* description = nullptr);
OrderedJson NumberType(const char* description = nullptr);
OrderedJson BooleanType(const char* description = nullptr);
OrderedJson ArrayOf(OrderedJson items);
OrderedJson AnyObject(const char* description = nullptr);  // an object of any shape

}  // namespace engram::api

#endif  // ENGRAM_API_SCHEMA_H_
