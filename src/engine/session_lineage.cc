#include "engine/session_lineage.h"

#include <fmt/format.h>

#include <algorithm>

namespace engram {

Result<std::vector<Event>> LineageEvents(sqlite::EventStore& store, std::string_view namespace_name,
                                         std::string_view session_id, size_t max_events,
                                         std::vector<std::string>* lineage) {
  auto ns = store.FindNamespace(namespace_name);
  if (!ns) return Error(ns.error());
  if (!ns->has_value()) return Error(Status::NotFound(fmt::format("namespace \"{}\" does not exist", namespace_name)));
  auto session = store.FindSession(**ns, session_id);
  if (!session) return Error(session.error());
  if (!session->has_value()) {
    return Error(Status::NotFound(fmt::format("session \"{}\" does not exist in namespace \"{}\"", session_id,
                                              namespace_name)));
  }
  auto chain = store.Lineage(**session);
  if (!chain) return Error(chain.error());
  // Newest first across the chain, so that the cap keeps the newest events.
  std::vector<std::vector<Event>> parts;
  size_t total = 0;
  for (auto it = chain->rbegin(); it != chain->rend() && total < max_events; ++it) {
    auto info = store.GetSession(*it);
    if (!info) return Error(info.error());
    const int64_t count = std::min<int64_t>(info->event_count, static_cast<int64_t>(max_events - total));
    auto events = store.SessionEvents(*it, info->event_count - count, count);
    if (!events) return Error(events.error());
    total += events->size();
    parts.push_back(std::move(*events));
    lineage->insert(lineage->begin(), info->id);
  }
  std::vector<Event> out;
  out.reserve(total);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    out.insert(out.end(), std::make_move_iterator(it->begin()), std::make_move_iterator(it->end()));
  }
  return out;
}

}  // namespace engram
