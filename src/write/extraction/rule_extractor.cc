#include "write/extraction/rule_extractor.h"

namespace engram::extraction {

std::string RuleExtractor::Name() const { return "rules/1"; }

Result<std::vector<CandidateClaim>> RuleExtractor::Extract(const std::vector<Event>& batch) {
  return std::vector<CandidateClaim>{};
}

}  // namespace engram::extraction
