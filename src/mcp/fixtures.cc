#include "mcp/fixtures.h"

#include <string>

namespace engram::mcp {
namespace {

// A 1x1 red PNG and a 44-byte silent WAV, base64.
constexpr const char* kPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
constexpr const char* kWav = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

OrderedJson NoArgs() { return OrderedJson{{"type", "object"}, {"properties", OrderedJson::object()}}; }

OrderedJson Tool(const char* name, const char* description, OrderedJson input = NoArgs()) {
  return OrderedJson{{"name", name},
                     {"title", name},
                     {"description", description},
                     {"inputSchema", std::move(input)},
                     {"annotations",
                      {{"readOnlyHint", true}, {"destructiveHint", false}, {"idempotentHint", true},
                       {"openWorldHint", false}}}};
}

OrderedJson Text(const char* text) { return OrderedJson{{"type", "text"}, {"text", text}}; }
OrderedJson Image() { return OrderedJson{{"type", "image"}, {"data", kPng}, {"mimeType", "image/png"}}; }
OrderedJson Resource() {
  return OrderedJson{{"type", "resource"},
                     {"resource",
                      {{"uri", "test://embedded-resource"}, {"mimeType", "text/plain"},
                       {"text", "This is an embedded resource content."}}}};
}

OrderedJson SchemaTool() {
  OrderedJson input{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                    {"type", "object"},
                    {"$defs",
                     {{"address",
                       {{"type", "object"},
                        {"properties", {{"street", {{"type", "string"}}}, {"city", {{"type", "string"}}}}}}}}},
                    {"properties", {{"name", {{"type", "string"}}}, {"address", {{"$ref", "#/$defs/address"}}}}},
                    {"additionalProperties", false}};
  return Tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", std::move(input));
}

OrderedJson Content(OrderedJson blocks, bool is_error = false) {
  return OrderedJson{{"content", std::move(blocks)}, {"isError", is_error}};
}

}  // namespace

const std::vector<OrderedJson>& FixtureTools() {
  static const std::vector<OrderedJson> tools = {
      Tool("test_simple_text", "Returns a simple text."),
      Tool("test_image_content", "Returns an image."),
      Tool("test_audio_content", "Returns audio."),
      Tool("test_embedded_resource", "Returns an embedded resource."),
      Tool("test_multiple_content_types", "Returns text, an image and a resource."),
      Tool("test_error_handling", "Always fails with isError."),
      SchemaTool(),
  };
  return tools;
}

std::optional<OrderedJson> CallFixture(std::string_view name) {
  if (name == "test_simple_text") return Content({Text("This is a simple text response for testing.")});
  if (name == "test_image_content") return Content({Image()});
  if (name == "test_audio_content") {
    return Content({OrderedJson{{"type", "audio"}, {"data", kWav}, {"mimeType", "audio/wav"}}});
  }
  if (name == "test_embedded_resource") return Content({Resource()});
  if (name == "test_multiple_content_types") {
    return Content({Text("Multiple content types test:"), Image(), Resource()});
  }
  if (name == "test_error_handling") return Content({Text("This tool intentionally returns an error for testing")}, true);
  if (name == "json_schema_2020_12_tool") return Content({Text("ok")});
  return std::nullopt;
}

}  // namespace engram::mcp
