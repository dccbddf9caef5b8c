// text/protected_atoms.h — the atoms of a value that two near-copies must share (numbers,
// versions, dates, paths, quoted values, negation words, capitalised names), and the near-copy
// key built from them. Text only: the claim writer (write/claim_identity.h) decides with them
// whether a new value is a near-copy of a current one, and the schema migration that gives
// claims written before the key existed their key (store/sqlite/schema.cc) computes the same one.
#ifndef ENGRAM_TEXT_PROTECTED_ATOMS_H_
#define ENGRAM_TEXT_PROTECTED_ATOMS_H_

#include <set>
#include <string>
#include <string_view>

namespace engram {

// Protected atoms (HL-Mem §A3 item 11) found in `text` (UTF-8), each as "<kind>:<lower-cased
// atom>" where kind 1 = number, version or date, 2 = path, 3 = quoted value, 4 and 5 = negation
// word (English, Chinese), 6 = capitalised name. Invalid UTF-8 is read as ICU converts it. Thread-safe.
std::set<std::string> ProtectedAtoms(std::string_view text);

// The near-copy key of a value: "a:" then its protected atoms, sorted, each followed by \x1f;
// never "". Two values can be near-copies only when their keys are equal (the near-copy rule
// requires equal atoms), so a writer reads only the current claims with the candidate's key.
// Thread-safe.
std::string NearCopyKey(std::string_view value);

}  // namespace engram

#endif  // ENGRAM_TEXT_PROTECTED_ATOMS_H_
