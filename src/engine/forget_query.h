// engine/forget_query.h — what `forget --query TEXT` selects: every event and every claim of the
// namespace whose text holds every term of the query, whatever its status.
//
// Not recall: recall ranks, folds an event into its claim, keeps only what answers a question
// about now (an event whose claim was superseded is left out) and cuts at its limit, so a
// forget that went through it missed stored copies of the very text it was asked to forget (the
// reliability driver forget_concurrency found superseded "My locker code is …" events still in
// the file after `forget --query CODE --yes`).
#ifndef ENGRAM_ENGINE_FORGET_QUERY_H_
#define ENGRAM_ENGINE_FORGET_QUERY_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/event_store.h"
#include "text/analyzer.h"

namespace engram {

// The ids of the events (best `limit` by BM25) and of the claims of any status, superseded,
// expired and archived ones included (best `limit`), of the namespace in which every search unit
// of `query` occurs; events first. Empty when the query has no searchable unit or the namespace
// does not exist. Run inside the caller's transaction. Errors: from SQLite.
Result<std::vector<std::string>> SelectForgetByQuery(text::Analyzer& analyzer, sqlite::EventStore& events,
                                                     sqlite::ClaimStore& claims, const Options& options,
                                                     std::string_view namespace_name, std::string_view query,
                                                     int limit);

}  // namespace engram

#endif  // ENGRAM_ENGINE_FORGET_QUERY_H_
