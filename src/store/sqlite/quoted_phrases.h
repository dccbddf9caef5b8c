// store/sqlite/quoted_phrases.h — the phrases of an FTS5 MATCH expression that is nothing but
// double-quoted strings joined by OR or AND (what recall's BuildMatchExpression writes).
#ifndef ENGRAM_STORE_SQLITE_QUOTED_PHRASES_H_
#define ENGRAM_STORE_SQLITE_QUOTED_PHRASES_H_

#include <string_view>
#include <vector>

namespace engram::sqlite {

// Fills `phrases` with the text between the quotes of each phrase, in order (a doubled `""` inside
// is left doubled: the text is a key, not the phrase's words), and returns true when `match` is
//   "..." ( (" OR " | " AND ") "..." )*
// exactly. Returns false (and `phrases` unspecified) for anything else: FTS5 syntax outside the
// quotes (a prefix `*`, `^`, a column filter, NEAR, parentheses, NOT, bare words) can change what
// a phrase matches, so only this form names each phrase by its text alone. Thread-safe.
bool QuotedPhrases(std::string_view match, std::vector<std::string_view>* phrases);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_QUOTED_PHRASES_H_
