// experience/task_terms.h — the words of a task description that say what kind of task it is.
//
// The analyzer's query units (text/analyzer.h: Snowball stems, CJK bigrams) minus English stopwords
// and entity-like units: a unit whose text holds a digit or '@' (order and account ids, zip codes,
// amounts, dates, e-mail addresses). Entities say which customer or order a task is about, not what
// is to be done, and a user who appears in several tasks would pull every one of them toward the
// others (the trap of ../shared/data/taubench/SOURCE.md, EXP-1). Names without digits stay: the
// task-type model learns that they say nothing about the type. Thread safety: as the Analyzer (not
// thread-safe).
#ifndef ENGRAM_EXPERIENCE_TASK_TERMS_H_
#define ENGRAM_EXPERIENCE_TASK_TERMS_H_

#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"

namespace engram::experience {

// True when a unit's text (as typed) holds an ASCII digit or '@'.
bool IsEntityLike(std::string_view surface);

// The query units of `text` that are neither stopwords nor entity-like, first occurrence first.
std::vector<text::QueryTerm> TaskUnits(text::Analyzer& analyzer, std::string_view text);

// Their normalized forms (stems, bigrams), distinct, first occurrence first.
std::vector<std::string> TaskTerms(text::Analyzer& analyzer, std::string_view text);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_TASK_TERMS_H_
