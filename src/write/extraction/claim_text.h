// write/extraction/claim_text.h — the readable statement of a candidate claim ("Lin lives in
// Hangzhou", "Lin 住在杭州", "component-00 version v1.2"), in the language of the source.
//
// Thread safety: pure functions.
#ifndef ENGRAM_WRITE_EXTRACTION_CLAIM_TEXT_H_
#define ENGRAM_WRITE_EXTRACTION_CLAIM_TEXT_H_

#include <string>

#include "write/extraction/extractor.h"

namespace engram::extraction {

// True when c.qualifiers holds `qualifier`.
bool HasQualifier(const CandidateClaim& claim, const char* qualifier);

// `subject` is how the subject reads ("Lin", "Lin's friend"). Predicates without a template of
// their own read "<subject> <predicate words> <value>".
std::string EnglishStatement(const CandidateClaim& c, const std::string& subject);
std::string ChineseStatement(const CandidateClaim& c, std::string subject);

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_CLAIM_TEXT_H_
