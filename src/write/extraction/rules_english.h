// write/extraction/rules_english.h — the English patterns of the rule extractor (rule_extractor.h).
//
// A shallow clause reader rather than a list of regular expressions: each sentence is cut into word
// tokens; at every clause start it skips discourse words ("Yeah,", "Thanks!", "I think"), finds the
// subject ("I", "we", "my wife and I", "my sister Mei", "Person-P", a subject-less "Joined a
// club"), reads the auxiliary chain (negation, will / going to, used to, have been, modal), and
// maps the main verb to a predicate; the value runs to the clause boundary. Lexicons are immutable
// statics built once.
//
// Thread safety: pure functions; safe from any thread.
#ifndef ENGRAM_WRITE_EXTRACTION_RULES_ENGLISH_H_
#define ENGRAM_WRITE_EXTRACTION_RULES_ENGLISH_H_

#include <string>
#include <string_view>
#include <vector>

#include "write/extraction/rule_sentences.h"

namespace engram::extraction::rules {

// Appends the raw claims of the English sentence `sentence` of `text` to *out, in text order.
// `times` holds the byte spans of the time mentions of `text` (sorted, non-overlapping): they are
// skipped before a subject and cut from values. Questions are the caller's business.
void ReadEnglish(std::string_view text, const Sentence& sentence, const std::vector<Span>& times,
                 std::vector<RawClaim>* out);

// The base form of an English verb form: "drinking" → "drink", "moved" → "move", "went" → "go",
// "lives" → "live". Heuristic but consistent: every form of one regular verb maps to one string.
std::string VerbLemma(std::string_view lower_word);

// The third person singular present of a base form: "drink" → "drinks", "go" → "goes".
std::string ThirdPersonSingular(std::string_view base);

// The slot of a `uses` value that opens with a value of values.tsv ("dark mode" → "ui_theme", "vim"
// → "editor", "Firefox" → "browser", "浅色模式" → "ui_theme"), or "" when none does.
// Case-insensitive for ASCII.
std::string UsesSlot(std::string_view value);

}  // namespace engram::extraction::rules

#endif  // ENGRAM_WRITE_EXTRACTION_RULES_ENGLISH_H_
