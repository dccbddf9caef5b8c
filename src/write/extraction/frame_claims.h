// write/extraction/frame_claims.h — turns a fact frame (fact_frame.h) into a candidate claim:
// the one place where a frame's kind becomes qualifiers (only facts and changes may change a
// state), its coordinates become identity qualifiers ("deployment=blue"), and its subject becomes
// a name. Both extractors use it.
//
// Thread safety: pure.
#ifndef ENGRAM_WRITE_EXTRACTION_FRAME_CLAIMS_H_
#define ENGRAM_WRITE_EXTRACTION_FRAME_CLAIMS_H_

#include <string>

#include "write/extraction/extractor.h"
#include "write/extraction/fact_frame.h"

namespace engram::extraction {

// The candidate of `frame` said by `speaker` (the event's speaker or role). Fills subject,
// predicate (= the attribute), slot, value, qualifiers, replaces_value, correction, scope,
// importance, confidence and text; the caller fills times, sources and evidence. `chinese`: write
// the text in Chinese.
CandidateClaim FrameToCandidate(const FactFrame& frame, const std::string& speaker, bool chinese);

// The qualifiers of a frame's kind: plan → planned, requirement → required, quotation →
// reported, hypothetical → hypothetical, negated → negated, past → past; none for fact/change.
std::vector<std::string> KindQualifiers(ClauseKind kind);

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_FRAME_CLAIMS_H_
