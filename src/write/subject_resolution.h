// write/subject_resolution.h — whose fact a candidate is, when its text did not say it in full
// (issue 16: subjects are resolved, never defaulted to the user).
//
// Two cases, both about things (a person has no version or state):
// * the text named no thing ("bumped it to 3.12", "上周末升到 8.0 了", "现在是 1.29";
//   CandidateClaim::subject_unsaid): the subject, and the identity qualifiers, of the namespace's
//   most recently recorded current claim of the same attribute — for a version, first the most
//   recent one whose number it continues (the same major number: "everything's running 3.12"
//   after "Python 3.9" and "React 17" is Python's); "everything" at a dotted number of another
//   major is nobody's ("bumped everything to 4.3" after "Python 3.11"), "it" the one said last
//   ("upgraded it to 24.04" after "Ubuntu 20.04");
// * the text named the thing in part ("VPN's online again" after "The VPN gateway is offline",
//   "Search is operational" after "the search cluster is degraded"): for an attribute only things
//   have (one with facets in data/lexicon/attributes.tsv), the one current subject of that
//   single-valued attribute whose name holds the words said, in order, as whole words — when
//   the subject said has no current claim of that attribute itself; also for where a thing is and
//   when ("用户中心已经迁到腾讯云" after "用户中心服务部署在阿里云").
// With nothing to resolve against, or more than one candidate subject, the candidate is kept as it
// came.
//
// Thread safety: as ClaimStore (one connection, one thread).
#ifndef ENGRAM_WRITE_SUBJECT_RESOLUTION_H_
#define ENGRAM_WRITE_SUBJECT_RESOLUTION_H_

#include <cstdint>
#include <string_view>

#include "engram/status.h"
#include "store/sqlite/claim_store.h"
#include "write/claim_identity.h"
#include "write/extraction/extractor.h"

namespace engram {

// The candidate with its subject resolved as above (unchanged when there is nothing to resolve).
// Errors: from SQLite.
Result<extraction::CandidateClaim> ResolveSubject(sqlite::ClaimStore& store, int64_t namespace_id,
                                                  const extraction::CandidateClaim& candidate,
                                                  const PredicateRegistry& registry);

// True for an attribute only things have: one whose slots are told apart by a thing's parts
// (data/lexicon/attributes.tsv: version, state, service_health, ...), or where a thing is and when
// and how many of a unit it has (location, when, count: a person has lives_in, no time of their
// own, and no count read).
bool IsThingAttribute(const std::string& predicate);

// True when `part`'s words (ASCII case-insensitive; a Han name by substring) appear in `whole`
// in order and contiguous, and `part` is shorter: "VPN" in "VPN gateway", "search" in "search
// cluster", "订单" in "订单服务"; not "VPN" in "VPNs".
bool NamesPartOf(std::string_view part, std::string_view whole);

}  // namespace engram

#endif  // ENGRAM_WRITE_SUBJECT_RESOLUTION_H_
