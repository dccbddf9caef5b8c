// text/named_words.h — the words a text writes as names or numbers: what a statement names as a
// value ("Marseille", "Raj", "Node 20", "PS 2025"), read from how it is written, with no list of
// names. Current-first order asks a later statement to name one before it passes an older fact
// (recall/current_first.h): "I live with two flatmates" names nothing, "Ines loves her apartment in
// Marseille" names a place.
//
// Thread safety: pure; safe from any thread.
#ifndef ENGRAM_TEXT_NAMED_WORDS_H_
#define ENGRAM_TEXT_NAMED_WORDS_H_

#include <string>
#include <string_view>
#include <vector>

namespace engram::text {

// The words of `text` (UTF-8; invalid bytes end a word) that are written as a name or a number: a
// word of letters and digits (with inner '.', '-', '\'' or '/') that holds a digit ("20", "3.12",
// "v2.4.0", "L6"), or whose first letter is upper case where no sentence starts (after ". ", "! ",
// "? ", a line break or the text's start a capital says nothing), other than "I" and its
// contractions ("I'm", "I've"). Han, kana and Hangul have no case: in CJK text only its Latin
// words and numbers count. In text order, as written. Never fails.
std::vector<std::string> NamedWords(std::string_view text);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_NAMED_WORDS_H_
