// engine/session_lineage.h — the events of a session together with its ancestors' (a compression
// continues a conversation in a child session: what was said before still holds).
#ifndef ENGRAM_ENGINE_SESSION_LINEAGE_H_
#define ENGRAM_ENGINE_SESSION_LINEAGE_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/types.h"
#include "store/sqlite/event_store.h"

namespace engram {

// The events of the session and of its ancestors, root first, each session's in its order
// (occurred_at, seq); only the newest `max_events` of them. *lineage receives the sessions' ids,
// root first. Run inside the caller's read transaction. Errors: kNotFound (unknown namespace or
// session, named); from SQLite.
Result<std::vector<Event>> LineageEvents(sqlite::EventStore& store, std::string_view namespace_name,
                                         std::string_view session_id, size_t max_events,
                                         std::vector<std::string>* lineage);

}  // namespace engram

#endif  // ENGRAM_ENGINE_SESSION_LINEAGE_H_
