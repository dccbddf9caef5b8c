#include "engine/text_readings.h"

#include "text/injection_scanner.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/statement_topics.h"

namespace engram {

TextReadings::Reading& TextReadings::Of(std::string_view text) {
  auto found = by_text_.find(text);
  if (found != by_text_.end()) return found->second;
  if (bytes_ + text.size() + kEntryBytes > kMaxBytes) {
    by_text_.clear();
    bytes_ = 0;
  }
  bytes_ += text.size() + kEntryBytes;
  return by_text_.emplace(std::string(text), Reading{}).first->second;
}

text::NowStance TextReadings::NowStance(std::string_view text) {
  Reading& r = Of(text);
  if (!r.stance) r.stance = extraction::ReadNowStance(text);
  return *r.stance;
}

bool TextReadings::LooksLikeInstruction(std::string_view text) {
  Reading& r = Of(text);
  if (!r.instruction_like) r.instruction_like = text::LooksLikeInstruction(text);
  return *r.instruction_like;
}

std::vector<std::string> TextReadings::Topics(std::string_view text) {
  Reading& r = Of(text);
  if (!r.topics) {
    r.topics = extraction::StatementTopics(text);
    for (const std::string& topic : *r.topics) bytes_ += topic.size();
  }
  return *r.topics;
}

std::vector<std::string_view> TextReadings::ChangeSentences(std::string_view text) {
  Reading& r = Of(text);
  if (!r.sentences) {
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    for (std::string_view s : extraction::ChangeSentences(text)) {
      spans.emplace_back(static_cast<uint32_t>(s.data() - text.data()), static_cast<uint32_t>(s.size()));
    }
    r.sentences = std::move(spans);
  }
  std::vector<std::string_view> out;
  out.reserve(r.sentences->size());
  for (const auto& [at, size] : *r.sentences) out.push_back(text.substr(at, size));
  return out;
}

}  // namespace engram
