#include "api/page.h"

#include "api/schema.h"

namespace engram::api {

Result<int64_t> CursorPosition(const Args& args) {
  auto cursor = args.OptString("cursor");
  if (!cursor) return int64_t{0};
  return ParseCursor(*cursor);
}

OrderedJson PageSchema(OrderedJson item, bool namespaced) {
  OrderedJson next = NullableString("pass as cursor for the next page; null on the last page");
  if (!namespaced) {
    return Object({{"items", ArrayOf(std::move(item))}, {"next_cursor", std::move(next)}}, {"items", "next_cursor"});
  }
  return Object({{"namespace", StringType()}, {"items", ArrayOf(std::move(item))}, {"next_cursor", std::move(next)}},
                {"namespace", "items", "next_cursor"});
}

}  // namespace engram::api
