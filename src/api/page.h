// api/page.h — one page of a list, the same on every face (B47): a capability fetches `limit`
// items after the cursor's position, and answers {items, next_cursor}; next_cursor is the opaque
// cursor (api::MakeCursor) of the last item's keyset position, null on the last page. Lists are
// paged by a keyset on a column that only grows (a rowid or seq), never by an offset, so items
// written between two pages neither repeat nor shift the pages.
#ifndef ENGRAM_API_PAGE_H_
#define ENGRAM_API_PAGE_H_

#include <cstdint>
#include <vector>

#include "api/args.h"
#include "api/common.h"
#include "codec/json_codec.h"

namespace engram::api {

// The keyset position the "cursor" argument names, 0 when it is absent (the first page).
// Errors: kInvalidArgument naming field "cursor".
Result<int64_t> CursorPosition(const Args& args);

// One page of a list: `fetch(limit, after)` returns at most `limit` items after keyset position
// `after` (0: from the first); `key(item)` is an item's position. Fills `items` with the page
// ("limit" items after "cursor") and returns the next page's cursor — that of the last item, when
// one more item follows it (asked with a second fetch of one), else null. Errors: CursorPosition's
// and fetch's.
template <typename T, typename Fetch, typename Key>
Result<OrderedJson> FetchPage(const Args& args, std::vector<T>& items, Fetch fetch, Key key) {
  auto after = CursorPosition(args);
  if (!after) return Error(after.error());
  const int limit = static_cast<int>(args.Int("limit"));
  auto page = fetch(limit, *after);
  if (!page) return Error(page.error());
  items = std::move(*page);
  if (items.empty() || static_cast<int>(items.size()) < limit) return OrderedJson();
  auto more = fetch(1, key(items.back()));
  if (!more) return Error(more.error());
  return more->empty() ? OrderedJson() : OrderedJson(MakeCursor(key(items.back())));
}

// The result schema of a page of `item` objects: {namespace?, items, next_cursor}.
OrderedJson PageSchema(OrderedJson item, bool namespaced);

}  // namespace engram::api

#endif  // ENGRAM_API_PAGE_H_
