// experience/write_signature.h — the LLM-free task type of an episode: its write signature, the set
// of state-changing tools it called (../shared/data/taubench/SOURCE.md, "Task type without
// labelling"), and how a task type is written and split.
//
// A task type is a string of components joined by "+": a write signature is its sorted tool names
// ("cancel_order+refund"), a declared type may be one word ("refund"). An episode whose steps changed
// nothing has the type kReadOnlyType. Thread safety: pure functions.
#ifndef ENGRAM_EXPERIENCE_WRITE_SIGNATURE_H_
#define ENGRAM_EXPERIENCE_WRITE_SIGNATURE_H_

#include <string>
#include <string_view>
#include <vector>

namespace engram::experience {

// The type of an episode whose steps called no state-changing tool.
inline constexpr std::string_view kReadOnlyType = "read_only";

// True when a tool of this name reads without changing anything, by its first word (the name up to
// the first '_', '-', '.', ' ' or lower-to-upper case change, case folded): get, find, list,
// calculate, think (SOURCE.md's read prefixes) or search, lookup, read, fetch, query, show, describe,
// view, count, check (engram's additions). Used when a step does not say whether it changes state.
bool IsReadToolName(std::string_view tool_name);

// The task type of a write signature: the distinct names sorted and joined by "+"; kReadOnlyType
// when there are none.
std::string WriteSignatureType(std::vector<std::string> tools);

// The components of a task type: its "+"-separated parts, sorted and distinct, empty parts dropped
// ("b+a" → {a, b}; "refund" → {refund}; "" → {}).
std::vector<std::string> TypeComponents(std::string_view task_type);

// |A ∩ B| / |A ∪ B| of the components of two types, in [0, 1]; 1 when both are equal (two empty
// types included).
double TypeJaccard(std::string_view a, std::string_view b);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_WRITE_SIGNATURE_H_
