#include "api/schema.h"

#include <algorithm>

namespace engram::api {
namespace {

OrderedJson Typed(const char* type, const char* description) {
  OrderedJson j{{"type", type}};
  if (description != nullptr) j["description"] = description;
  return j;
}

OrderedJson NullableOf(const char* type, const char* description) {
  OrderedJson j{{"type", OrderedJson::array({type, "null"})}};
  if (description != nullptr) j["description"] = description;
  return j;
}

}  // namespace

OrderedJson ParamSchema(const ParamSpec& spec) {
  OrderedJson j{{"type", std::string(JsonTypeName(spec.type))}};
  if (!spec.description.empty()) j["description"] = spec.description;
  if (spec.type == ParamType::kTimestamp) j["format"] = "date-time";
  if (spec.type == ParamType::kStringArray) j["items"] = OrderedJson{{"type", "string"}};
  if (spec.type == ParamType::kArray) j["items"] = OrderedJson{{"type", "object"}};
  if (spec.minimum) j["minimum"] = *spec.minimum;
  if (spec.maximum) j["maximum"] = *spec.maximum;
  if (spec.non_blank) {
    j["minLength"] = 1;
    j["pattern"] = "\\S";
  }
  if (spec.max_length) {
    j[spec.type == ParamType::kString || spec.type == ParamType::kTimestamp ? "maxLength" : "maxItems"] =
        *spec.max_length;
  }
  if (!spec.enum_values.empty()) j["enum"] = spec.enum_values;
  if (!spec.default_value.is_null()) j["default"] = OrderedJson::parse(spec.default_value.dump());
  return j;
}

OrderedJson InputSchema(const std::vector<ParamSpec>& specs, const std::vector<std::string>& names,
                        bool body_only) {
  OrderedJson properties = OrderedJson::object();
  OrderedJson required = OrderedJson::array();
  auto add = [&](const ParamSpec& spec) {
    if (body_only && spec.in != ParamIn::kBody) return;
    properties[spec.name] = ParamSchema(spec);
    if (spec.required) required.push_back(spec.name);
  };
  if (names.empty()) {
    for (const ParamSpec& spec : specs) add(spec);
  } else {
    for (const std::string& name : names) {
      auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == name; });
      if (it != specs.end()) add(*it);
    }
  }
  OrderedJson j{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) j["required"] = std::move(required);
  return j;
}

OrderedJson Object(std::initializer_list<std::pair<const char*, OrderedJson>> properties,
                   std::initializer_list<const char*> required) {
  OrderedJson props = OrderedJson::object();
  for (const auto& [name, schema] : properties) props[name] = schema;
  OrderedJson j{{"type", "object"}, {"properties", std::move(props)}};
  if (required.size() > 0) {
    OrderedJson names = OrderedJson::array();
    for (const char* name : required) names.push_back(name);
    j["required"] = std::move(names);
  }
  return j;
}

OrderedJson StringType(const char* description) { return Typed("string", description); }
OrderedJson IntegerType(const char* description) { return Typed("integer", description); }
OrderedJson NumberType(const char* description) { return Typed("number", description); }
OrderedJson BooleanType(const char* description) { return Typed("boolean", description); }

OrderedJson NullableString(const char* description) { return NullableOf("string", description); }
OrderedJson NullableNumber(const char* description) { return NullableOf("number", description); }

OrderedJson ArrayOf(OrderedJson items) { return OrderedJson{{"type", "array"}, {"items", std::move(items)}}; }

OrderedJson AnyObject(const char* description) { return Typed("object", description); }

}  // namespace engram::api
