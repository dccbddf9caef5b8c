#include "write/extraction/fact_frame.h"

#include <array>

namespace engram::extraction {
namespace {

constexpr std::array<std::pair<ClauseKind, std::string_view>, 9> kNames = {{
    {ClauseKind::kFact, "fact"},
    {ClauseKind::kChange, "change"},
    {ClauseKind::kPlan, "plan"},
    {ClauseKind::kRequirement, "requirement"},
    {ClauseKind::kQuotation, "quotation"},
    {ClauseKind::kHypothetical, "hypothetical"},
    {ClauseKind::kQuestion, "question"},
    {ClauseKind::kNegated, "negated"},
    {ClauseKind::kPast, "past"},
}};

}  // namespace

std::string_view ClauseKindName(ClauseKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "fact";
}

bool ParseClauseKind(std::string_view name, ClauseKind* kind) {
  for (const auto& [k, n] : kNames) {
    if (n == name) {
      *kind = k;
      return true;
    }
  }
  return false;
}

}  // namespace engram::extraction
