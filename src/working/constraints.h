// working/constraints.h — negative constraints in what a person said ("don't use red", "you do not
// want insurance", "不要用红色"), found sentence by sentence and kept word for word, and the later
// turns that take one back ("you can use red again").
//
// Why verbatim and pinned: compaction loses them — Governance Decay (arXiv 2606.22528) measured
// violations rising from 0% to 30% after a summary, and to 0% again once constraints were pinned
// outside it (../shared/reference/experience_memory.md §0, §4). The words that make a sentence a
// constraint are data: the `forbid*`, `not_constraint`, `not_forbid`, `retract` and `ruled_out`
// markers of data/lexicon/markers.tsv.
#ifndef ENGRAM_WORKING_CONSTRAINTS_H_
#define ENGRAM_WORKING_CONSTRAINTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace engram::working {

// The sentences of `text` (ICU sentence boundaries), each stripped of surrounding white space, in
// order; byte-exact substrings of `text` otherwise.
std::vector<std::string> Sentences(std::string_view text);

// True when `sentence` states a negative constraint: a forbid marker whose next word is not a state
// or a thought ("don't remember"), a forbid_start word opening it ("No baggage."), or "without"
// before an -ing verb. A question is never one.
bool IsConstraint(std::string_view sentence);

// The constraints of `sentence`, verbatim: the sentence itself when it states one, or — when it
// states several ("Don't use red, and never mention the price.") — each of its clauses that does,
// cut at the separator (",", ";", "，", "；", " and ", " but ") before each further negation, so that
// one can be retracted without the other. Empty when it states none.
std::vector<std::string> ConstraintClauses(std::string_view sentence);

// True when `sentence` marks a path as tried and ruled out ("that didn't work").
bool IsRuledOut(std::string_view sentence);

// True when `sentence` takes back `constraint`: it holds a retract phrase and shares a content word
// with the constraint (the thing it forbade: "red" in "you can use red again").
bool Retracts(std::string_view sentence, std::string_view constraint);

}  // namespace engram::working

#endif  // ENGRAM_WORKING_CONSTRAINTS_H_
