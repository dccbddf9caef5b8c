#include "text/injection_scanner.h"

#include "text/threat_scanner.h"

namespace engram::text {

bool LooksLikeInstruction(std::string_view text) { return MatchesThreatPattern(text, ThreatScope::kContext); }

}  // namespace engram::text
