// working/working_memory.h — a session's working state, rendered under a token budget: one line of
// goal, the user's constraints word for word (pinned: never summarised, never dropped for the
// budget), the paths already ruled out, then the newest turns verbatim while they fit
// (../shared/DESIGN.md, "Experience layer": working memory). A retraction in a later turn takes a
// constraint back (it moves to `retracted`, superseded by that turn).
#ifndef ENGRAM_WORKING_WORKING_MEMORY_H_
#define ENGRAM_WORKING_WORKING_MEMORY_H_

#include <string_view>
#include <vector>

#include "engram/types.h"

namespace engram::working {

// Builds the working memory of `events` — a session's lineage, oldest first (ancestors' events
// first) — with `query`'s budget and, when query.summary is given, the constraints it lacks.
// Constraints and retractions are read from user turns only; a path is ruled out by any turn.
// Fills every field of WorkingMemory but namespace_name, session_id and lineage. Pure; thread-safe.
WorkingMemory BuildWorkingMemory(const std::vector<Event>& events, const WorkingMemoryQuery& query);

// The constraints (current ones) whose text does not occur in `summary`, white space compared
// loosely (runs of spaces and line breaks as one space).
std::vector<std::string> MissingConstraints(const std::vector<WorkingConstraint>& constraints,
                                            std::string_view summary);

}  // namespace engram::working

#endif  // ENGRAM_WORKING_WORKING_MEMORY_H_
