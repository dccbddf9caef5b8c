#include "recall/current_first.h"

#include <algorithm>

namespace engram {
namespace {

// True when the sorted term lists share a term.
bool SharesATerm(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j) ++i; else ++j;
  }
  return false;
}

}  // namespace

std::string_view StatementOf(const RecallItem& item) {
  if (item.type == "claim") {
    for (const EvidenceRef& e : item.evidence) {
      if (e.relation == "supports" && !e.content.empty()) return e.content;
    }
  }
  return item.text;
}

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

bool SameThingNewer(const CurrentFirstKey& newer, const CurrentFirstKey& older, QuestionTermCount question) {
  if (newer.said_at <= older.said_at) return false;
  if (!older.event_id.empty() && std::find(newer.replaced_events.begin(), newer.replaced_events.end(),
                                           older.event_id) != newer.replaced_events.end()) {
    return true;  // the evidence of what the newer claim replaced
  }
  if (!newer.speaker.empty() && !older.speaker.empty() && newer.speaker != older.speaker) return false;
  if (newer.Stance() == text::NowStance::kNotNow) return false;
  // An extracted fact is passed only by a fact of its own slot: a newer wish, quote or plan that
  // shares its words ("I wish I worked at Valve" after "I work at Oracle") is not its new value.
  if (!older.slot.empty() && newer.slot == older.slot) return true;
  const bool answers = !older.held.empty() && 2 * older.held.size() >= question.all;
  if (!answers) return false;
  if (older.slot.empty() && newer.held == older.held) return true;
  // A statement of change words the thing its own way (see the header). An extracted fact's slot
  // is narrower than its words ("eu-west" in "We upgraded us-east; eu-west is unchanged"): a
  // change passes it only holding every term it holds.
  if (!text::SaysAChange(newer.Stance()) || 2 * newer.content_held < question.content) return false;
  if (older.slot.empty()) return SharesATerm(newer.held, older.held);
  return newer.slot.empty() &&
         std::includes(newer.held.begin(), newer.held.end(), older.held.begin(), older.held.end());
}

std::vector<size_t> CurrentFirstOrder(const std::vector<CurrentFirstKey>& keys, QuestionTermCount question) {
  std::vector<size_t> order;
  order.reserve(keys.size());
  for (size_t j = 0; j < keys.size(); ++j) {
    size_t at = order.size();
    while (at > 0 && SameThingNewer(keys[j], keys[order[at - 1]], question)) --at;
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), j);
  }
  return order;
}

}  // namespace engram
