// experience/rule_confidence.h — how sure engram is of a distilled rule, from its counts alone.
//
// A rule predicts an outcome for the episodes it matches (success for "do", failure for "avoid").
// Its confidence is the Wilson score lower bound of the share of matching episodes that ended as
// predicted — E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
// JASA 22 (1927) 209–212; the usual way to rank by a proportion without trusting small counts
// (E. Miller, "How not to sort by average rating", 2009) and the LLM-free confidence that
// ../shared/reference/experience_memory.md §1.2 proposes. z = 1.96 (95%): 6 of 6 confirmations give
// 0.61, 9 of 10 give 0.60, 5 of 5 only 0.57. Below kActiveConfidence (DESIGN.md: 0.6) a rule is
// pending and down-weighted. Thread safety: pure functions.
#ifndef ENGRAM_EXPERIENCE_RULE_CONFIDENCE_H_
#define ENGRAM_EXPERIENCE_RULE_CONFIDENCE_H_

#include <cstdint>

namespace engram::experience {

inline constexpr double kWilsonZ = 1.96;
// DESIGN.md "Experience layer": below 0.6 a rule is pending.
inline constexpr double kActiveConfidence = 0.6;

// The Wilson lower bound of `confirmed` successes in `trials` at z = kWilsonZ, in [0, 1]; 0 when
// trials ≤ 0. `confirmed` is clamped to [0, trials].
double WilsonLowerBound(int64_t confirmed, int64_t trials);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_RULE_CONFIDENCE_H_
