// text/script.h — character classes shared by the analyzer, the hashing embedder and the token
// estimate of recall's context packet, so that all three split CJK text the same way.
#ifndef ENGRAM_TEXT_SCRIPT_H_
#define ENGRAM_TEXT_SCRIPT_H_

#include <unicode/umachine.h>

namespace engram::text {

// Han, Hiragana, Katakana or Hangul, by Script_Extensions so that U+30FC "ー" (Common, scx Hira
// Kana) and U+3099 (combining voiced mark) count. CJK punctuation such as "、" also has these
// script extensions, so punctuation and spaces are excluded explicitly.
bool IsCjk(UChar32 c);

// A combining mark (Mn, Me, Mc): it belongs to the character before it.
bool IsMark(UChar32 c);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_SCRIPT_H_
