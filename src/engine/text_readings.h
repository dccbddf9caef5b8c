// engine/text_readings.h — one Engine's memo of what recall reads of a text from the text alone:
// its stance toward now (extraction::ReadNowStance), its topics (extraction::StatementTopics),
// the sentences that state a change (extraction::ChangeSentences) and whether it reads like an
// instruction (text::LooksLikeInstruction). Recall reads them of the
// events and claims it returns, and the same ones come back for many questions: the memo reads
// each text once. The readings are pure functions of the text, so the memo never goes stale; it
// is bounded (kMaxBytes of texts) and starts again when full.
//
// Not thread-safe: the Engine uses it under its lock.
#ifndef ENGRAM_ENGINE_TEXT_READINGS_H_
#define ENGRAM_ENGINE_TEXT_READINGS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "text/now_stance.h"

namespace engram {

class TextReadings {
 public:
  // Bytes the memo holds at most (its texts, an entry's overhead each, their topics; one entry's
  // topics may pass it until the next text is added): about 8 MB.
  static constexpr size_t kMaxBytes = size_t{8} << 20;
  // What an entry costs besides its text and topics: its hash node, Reading and vectors.
  static constexpr size_t kEntryBytes = 160;

  // extraction::ReadNowStance(text), extraction::StatementTopics(text),
  // extraction::ChangeSentences(text) (views into `text`) and text::LooksLikeInstruction(text),
  // read once per text.
  text::NowStance NowStance(std::string_view text);
  std::vector<std::string> Topics(std::string_view text);
  std::vector<std::string_view> ChangeSentences(std::string_view text);
  bool LooksLikeInstruction(std::string_view text);

  // Bytes held, counted as kMaxBytes counts them.
  size_t bytes() const { return bytes_; }

 private:
  struct Reading {
    std::optional<text::NowStance> stance;
    std::optional<bool> instruction_like;
    std::optional<std::vector<std::string>> topics;
    std::optional<std::vector<std::pair<uint32_t, uint32_t>>> sentences;  // offset, length in the text
  };
  // The text's entry, added (after emptying the memo when it is full) when missing.
  Reading& Of(std::string_view text);

  // Looked up by a view (no copy of the text per lookup).
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  std::unordered_map<std::string, Reading, TextHash, std::equal_to<>> by_text_;
  size_t bytes_ = 0;
};

}  // namespace engram

#endif  // ENGRAM_ENGINE_TEXT_READINGS_H_
