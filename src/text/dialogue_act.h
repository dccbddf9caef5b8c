// text/dialogue_act.h — what a turn of conversation does, as far as recall's reply channel needs
// it: whether it asks a question.
#ifndef ENGRAM_TEXT_DIALOGUE_ACT_H_
#define ENGRAM_TEXT_DIALOGUE_ACT_H_

#include <string_view>

namespace engram::text {

// True when `text` (UTF-8) asks a question: it holds the fullwidth '？' (U+FF1F, CJK text), or an
// ASCII '?' that ends a sentence — right after a non-space character and followed by the end of
// the text, whitespace, closing punctuation (" ' ) ] } . , ! ? : ;) or a non-ASCII character.
// A '?' inside a URL ("search?q=x") or code ("a ? b : c") does not count.
bool AsksQuestion(std::string_view text);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_DIALOGUE_ACT_H_
