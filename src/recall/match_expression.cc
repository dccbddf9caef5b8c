#include "recall/match_expression.h"

#include <algorithm>

namespace engram {

MatchExpression BuildMatchExpression(text::Analyzer& analyzer, std::string_view query,
                                     MatchMode mode) {
  return BuildMatchExpression(analyzer.QueryTerms(query), mode);
}

MatchExpression BuildMatchExpression(std::vector<text::QueryTerm> units, MatchMode mode) {
  units.erase(std::remove_if(units.begin(), units.end(),
                             [](const text::QueryTerm& u) { return u.normalized.empty(); }),
              units.end());
  bool all_stopwords = std::all_of(units.begin(), units.end(),
                                   [](const text::QueryTerm& u) { return u.stopword; });
  MatchExpression out;
  const char* joiner = mode == MatchMode::kAll ? " AND " : " OR ";
  for (const text::QueryTerm& u : units) {
    if (u.stopword && !all_stopwords) continue;
    if (!out.fts5.empty()) out.fts5 += joiner;
    out.fts5 += '"';
    for (char c : u.surface) {
      if (c == '"') out.fts5 += '"';
      out.fts5 += c;
    }
    out.fts5 += '"';
    out.terms.push_back(u.normalized);
  }
  return out;
}

}  // namespace engram
