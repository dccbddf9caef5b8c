// write/extraction/rules_chinese.h — the Chinese patterns of the rule extractor (rule_extractor.h).
//
// ICU regular expressions, compiled once into a function-local static table, run clause by clause
// (a clause ends at ，。！？；、 and their ASCII forms). Each pattern names a predicate and the
// capture group of its value (住在(X) → lives_in, 喜欢(X) → likes, 我妹妹小梅 → has_relation ...).
// The subject comes from the clause opening: 我/我们 or nothing → the speaker; 我(的)妹妹小梅 →
// 小梅; 我朋友说他… → 我朋友 with "reported"; 他/她/你 opening a clause → nothing is read. Values
// keep the source bytes, cut at conjunctions (因为, 但是 …) and trimmed of particles (了, 吧 …),
// quantifiers (一只, 两个) and time expressions.
//
// Thread safety: pure functions over immutable statics; safe from any thread.
#ifndef ENGRAM_WRITE_EXTRACTION_RULES_CHINESE_H_
#define ENGRAM_WRITE_EXTRACTION_RULES_CHINESE_H_

#include <string_view>
#include <vector>

#include "write/extraction/rule_sentences.h"

namespace engram::extraction::rules {

// Appends the raw claims of the sentence `sentence` of `text` (which holds Han characters) to
// *out, in text order, each with RawClaim::chinese set. `times` holds the byte spans of the time
// mentions of `text` (sorted, non-overlapping). Questions are the caller's business.
void ReadChinese(std::string_view text, const Sentence& sentence, const std::vector<Span>& times,
                 std::vector<RawClaim>* out);

}  // namespace engram::extraction::rules

#endif  // ENGRAM_WRITE_EXTRACTION_RULES_CHINESE_H_
