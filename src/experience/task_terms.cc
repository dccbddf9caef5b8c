#include "experience/task_terms.h"

#include <algorithm>

namespace engram::experience {

bool IsEntityLike(std::string_view surface) {
  return std::any_of(surface.begin(), surface.end(), [](char c) { return (c >= '0' && c <= '9') || c == '@'; });
}

std::vector<text::QueryTerm> TaskUnits(text::Analyzer& analyzer, std::string_view text) {
  std::vector<text::QueryTerm> units = analyzer.QueryTerms(text);
  units.erase(std::remove_if(units.begin(), units.end(),
                             [](const text::QueryTerm& u) {
                               return u.stopword || u.normalized.empty() || IsEntityLike(u.surface);
                             }),
              units.end());
  return units;
}

std::vector<std::string> TaskTerms(text::Analyzer& analyzer, std::string_view text) {
  std::vector<std::string> out;
  for (text::QueryTerm& u : TaskUnits(analyzer, text)) out.push_back(std::move(u.normalized));
  return out;
}

}  // namespace engram::experience
