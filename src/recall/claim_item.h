// recall/claim_item.h — a claim as a recalled item.
#ifndef ENGRAM_RECALL_CLAIM_ITEM_H_
#define ENGRAM_RECALL_CLAIM_ITEM_H_

#include <string>

#include "engram/types.h"

namespace engram {

// `c` as a recalled item of type "claim" with `score` (no channels): its text, status, subject,
// predicate, slot, value, qualifiers, valid and recorded time, and evidence (the session and role
// of the first). Thread safety: pure.
RecallItem ClaimItem(Claim&& c, double score);

// What recall's orders (recall/current_first.h, recall/asked_attribute.h) need of a claim item
// beyond the item: its conflict key and the id of the claim it superseded ("" for none).
struct ClaimSlot {
  std::string conflict_key;
  std::string replaced_id;
};

}  // namespace engram

#endif  // ENGRAM_RECALL_CLAIM_ITEM_H_
