// recall/match_expression.h — turns a user's query into an FTS5 MATCH expression that is always
// literal: every search unit is a double-quoted string, so no character the user types (quotes,
// AND/OR/NOT/NEAR, '*', '^', ':', parentheses) acts as FTS5 syntax, and no query can raise a syntax
// error (bug_scenarios.md B32).
#ifndef ENGRAM_RECALL_MATCH_EXPRESSION_H_
#define ENGRAM_RECALL_MATCH_EXPRESSION_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/types.h"
#include "text/analyzer.h"

namespace engram {

struct MatchExpression {
  std::string fts5;                // "" when the query has no searchable unit
  std::vector<std::string> terms;  // normalised terms searched for, in query order
};

// Builds the expression from the analyzer's query units. English stopwords are dropped unless
// every unit is one ("who is it" still searches). kAny joins units with OR (ranked by BM25), kAll
// with AND. Inside a unit, `"` is doubled.
MatchExpression BuildMatchExpression(text::Analyzer& analyzer, std::string_view query, MatchMode mode);
// The same from units already computed by analyzer.QueryTerms(query) (recall analyses a question
// once for all its channels).
MatchExpression BuildMatchExpression(std::vector<text::QueryTerm> units, MatchMode mode);

}  // namespace engram

#endif  // ENGRAM_RECALL_MATCH_EXPRESSION_H_
