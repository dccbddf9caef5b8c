#include "recall/context_packet.h"

#include <fmt/format.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>
#include <xxhash.h>

#include "text/script.h"
#include "util/utf8.h"

namespace engram {
namespace {

int ItemTokens(const RecallItem& item) {
  int tokens = EstimateTokens(item.text);
  if (item.type == "claim") {
    for (const EvidenceRef& e : item.evidence) tokens += EstimateTokens(e.content);
  }
  return tokens;
}

}  // namespace

int EstimateTokens(std::string_view text) {
  int tokens = 0;
  int run_bytes = 0;  // bytes of the current run of non-space, non-CJK characters
  auto end_run = [&] {
    tokens += (run_bytes + 3) / 4;
    run_bytes = 0;
  };
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const auto length = static_cast<int32_t>(text.size());
  int32_t i = 0;
  while (i < length) {
    if (s[i] < 0x80) {  // ASCII: White_Space is \t..\r and space; no ASCII character is CJK
      const uint8_t b = s[i++];
      if ((b >= 0x09 && b <= 0x0D) || b == 0x20) {
        end_run();
      } else {
        ++run_bytes;
      }
      continue;
    }
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(s, i, length, c);
    if (c < 0 || u_isUWhiteSpace(c)) {
      end_run();
    } else if (text::IsCjk(c)) {
      end_run();
      ++tokens;
    } else {
      run_bytes += i - start;
    }
  }
  end_run();
  return tokens;
}

void PackContext(RecallResult& result, int budget_tokens) {
  result.used_tokens = 0;
  result.truncated = false;
  // Answerability says what recall found, whether or not the budget leaves room for it.
  const bool found = !result.items.empty();
  std::vector<RecallItem> packed;
  packed.reserve(result.items.size());
  for (RecallItem& item : result.items) {
    item.tokens = ItemTokens(item);
    if (budget_tokens > 0 && result.used_tokens + item.tokens > budget_tokens) {
      result.truncated = true;
      continue;
    }
    result.used_tokens += item.tokens;
    packed.push_back(std::move(item));
  }
  result.items = std::move(packed);
  result.answerability = Answerability(found, result.evidence_strength);
}

std::string Answerability(bool found, double evidence_strength) {
  if (!found) return "no_evidence";
  return evidence_strength >= 0.5 ? "ok" : "low_confidence";
}

std::string MakeFeedbackId(const RecallItem& item, std::string_view query_text) {
  const XXH64_hash_t h = XXH3_64bits(query_text.data(), query_text.size());
  return fmt::format("fb1:{}:{}:{:016x}", item.type == "claim" ? 'c' : 'e', item.id,
                     static_cast<uint64_t>(h));
}

Result<ParsedFeedbackId> ParseFeedbackId(std::string_view id) {
  auto bad = [&](std::string_view why) {
    return Error(Status::InvalidArgument(fmt::format(
        "field \"feedback_id\": \"{}\" {} (expected fb1:<e|c>:<item id>:<16 hex digits>, as "
        "recall returns it)",
        TruncateCodePoints(id, 80), why)));
  };
  if (id.substr(0, 4) != "fb1:") return bad("does not start with fb1:");
  std::string_view rest = id.substr(4);
  if (rest.size() < 2 || (rest[0] != 'e' && rest[0] != 'c') || rest[1] != ':') {
    return bad("has no item type e or c");
  }
  ParsedFeedbackId out;
  out.item_type = rest[0] == 'c' ? "claim" : "event";
  rest = rest.substr(2);
  const size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad("has no item id");
  out.item_id = std::string(rest.substr(0, colon));
  out.query_hash = std::string(rest.substr(colon + 1));
  if (out.query_hash.size() != 16 ||
      out.query_hash.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return bad("has no 16-digit query hash");
  }
  return out;
}

}  // namespace engram
