// text/chinese_name.h — where a Chinese personal name written without a title may end: after a
// surname that ICU's dictionary word breaker leaves as a word of its own, one or two characters of
// given name (王|磊, 林|小雨, 周|杰|伦). Words that open with a surname's character are dictionary
// words, so the breaker keeps them whole (马上, 周末, 高兴, 黄金周, 石家庄) and they give no name.
//
// The surnames themselves are the caller's (the lexicon's markers `surname`).
//
// Thread safety: each thread uses a BreakIterator of its own; safe from any thread.
#ifndef ENGRAM_TEXT_CHINESE_NAME_H_
#define ENGRAM_TEXT_CHINESE_NAME_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace engram::text {

// The byte offsets in `text` (UTF-8) where a personal name that begins at `pos` with a surname of
// `surname_bytes` bytes may end, shorter first: after a given name of one character and, when that
// and the next are single-character words, of two ("周杰伦": {周杰, 周杰伦}); after a given name that
// is one two-character word ("林小雨"). Empty when the breaker makes the surname's characters part
// of a longer word ("马上"), when no Han character follows, or on an ICU error. Reads at most 12
// characters from `pos`.
std::vector<size_t> ChineseNameEnds(std::string_view text, size_t pos, size_t surname_bytes);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_CHINESE_NAME_H_
