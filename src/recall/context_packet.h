// recall/context_packet.h — turns ranked recall items into the context packet an agent puts in its
// prompt: token estimates, packing under a budget, the answerability signal and feedback ids.
//
// Tokens are estimated, not counted with a model's tokenizer (engram does not know which model
// reads the packet): each Han, kana or Hangul character counts 1 token, and every other run of
// non-space characters counts ceil(bytes / 4) tokens — OpenAI's documented rule of thumb of about
// 4 characters per token for English, and about one token per CJK character in cl100k-style
// vocabularies. A claim counts its text plus the content of its evidence events.
#ifndef ENGRAM_RECALL_CONTEXT_PACKET_H_
#define ENGRAM_RECALL_CONTEXT_PACKET_H_

#include <optional>
#include <string>
#include <string_view>

#include "engram/status.h"
#include "engram/types.h"

namespace engram {

// Estimated tokens of `text` (see above); 0 for empty or blank text.
int EstimateTokens(std::string_view text);

// Sets every item's `tokens`; with budget_tokens > 0 keeps items best first while they fit,
// skipping one that does not (a smaller later one may still fit) and setting `truncated`. Sets
// `used_tokens`, and `answerability` from the items found (before packing: a budget too small for
// any item leaves an empty packet that is still "ok" or "low_confidence", with `truncated`) and
// `evidence_strength`.
void PackContext(RecallResult& result, int budget_tokens);

// "no_evidence" when nothing was found, else "ok" when evidence_strength (of the first item) is at
// least 0.5, else "low_confidence".
std::string Answerability(bool found, double evidence_strength);

// Feedback ids name the item and the question, so that no state is written at recall time:
// "fb1:<e|c>:<item id>:<16 hex digits of XXH3-64 of the query text>".
std::string MakeFeedbackId(const RecallItem& item, std::string_view query_text);

struct ParsedFeedbackId {
  std::string item_type;  // event or claim
  std::string item_id;
  std::string query_hash;
};
// Errors: kInvalidArgument naming what is wrong with the id.
Result<ParsedFeedbackId> ParseFeedbackId(std::string_view feedback_id);

}  // namespace engram

#endif  // ENGRAM_RECALL_CONTEXT_PACKET_H_
