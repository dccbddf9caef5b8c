// recall/claim_item.cc — see claim_item.h.
#include "recall/claim_item.h"

#include <utility>

namespace engram {

RecallItem ClaimItem(Claim&& c, double score) {
  RecallItem item;
  item.type = "claim";
  item.id = std::move(c.id);
  item.text = std::move(c.text);
  item.score = score;
  item.occurred_at = c.valid_from;
  item.recorded_at = c.recorded_from;
  item.speaker = c.subject;
  if (!c.evidence.empty()) {
    item.session_id = c.evidence.front().session_id;
    item.role = c.evidence.front().role;
  }
  item.status = std::move(c.status);
  item.subject = std::move(c.subject);
  item.predicate = std::move(c.predicate);
  item.slot = std::move(c.slot);
  item.value = std::move(c.value);
  item.qualifiers = std::move(c.qualifiers);
  item.valid_from = c.valid_from;
  item.valid_to = c.valid_to;
  item.evidence = std::move(c.evidence);
  return item;
}

}  // namespace engram
