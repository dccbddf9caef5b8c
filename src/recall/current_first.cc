#include "recall/current_first.h"

#include <algorithm>

namespace engram {

CurrentFirstKey CurrentFirstKeyOf(const RecallItem& item) {
  CurrentFirstKey key;
  if (item.type != "claim") {
    key.said_at = item.occurred_at;
    key.speaker = item.speaker.empty() ? item.role : item.speaker;
    key.event_id = item.id;
    return key;
  }
  key.said_at = item.valid_from;
  for (const EvidenceRef& e : item.evidence) {
    if (e.relation != "supports") continue;
    key.said_at = e.occurred_at;
    key.speaker = e.speaker.empty() ? e.role : e.speaker;
    break;
  }
  return key;
}

bool SameThingNewer(const CurrentFirstKey& newer, const CurrentFirstKey& older, size_t question_terms) {
  if (newer.said_at <= older.said_at) return false;
  if (!older.event_id.empty() && std::find(newer.replaced_events.begin(), newer.replaced_events.end(),
                                           older.event_id) != newer.replaced_events.end()) {
    return true;  // the evidence of what the newer claim replaced
  }
  if (!newer.speaker.empty() && !older.speaker.empty() && newer.speaker != older.speaker) return false;
  // An extracted fact is passed only by a fact of its own slot: a newer wish, quote or plan that
  // shares its words ("I wish I worked at Valve" after "I work at Oracle") is not its new value.
  if (!older.slot.empty()) return newer.slot == older.slot;
  return !older.held.empty() && 2 * older.held.size() >= question_terms &&
         newer.held == older.held;
}

std::vector<size_t> CurrentFirstOrder(const std::vector<CurrentFirstKey>& keys, size_t question_terms) {
  std::vector<size_t> order;
  order.reserve(keys.size());
  for (size_t j = 0; j < keys.size(); ++j) {
    size_t at = order.size();
    while (at > 0 && SameThingNewer(keys[j], keys[order[at - 1]], question_terms)) --at;
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), j);
  }
  return order;
}

}  // namespace engram
