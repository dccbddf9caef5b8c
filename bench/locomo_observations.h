// bench/locomo_observations.h — LoCoMo's own `observation` facts: per session and speaker, the
// sentences GPT-3.5 wrote about the conversation, each citing the turn(s) it rests on.
//
// Input shape (a sample of a LoCoMo file): {"sample_id": "conv-26", "observation":
// {"session_<N>_observation": {"<speaker>": [["<fact sentence>", "D1:3"], ...]}}}. The evidence
// may be one dia_id, several in one string ("D8:6; D9:17", "D1:2,D1:3") or a list of strings; it
// is normalised with import::NormalizeEvidence.
//
// Thread safety: free functions over values; safe to call from any thread.
#ifndef ENGRAM_BENCH_LOCOMO_OBSERVATIONS_H_
#define ENGRAM_BENCH_LOCOMO_OBSERVATIONS_H_

#include <map>
#include <string>
#include <vector>

namespace engram::bench {

// One observation fact.
struct LocomoObservation {
  std::string session_key;            // "session_3_observation"
  std::string speaker;                // the key it is listed under ("Caroline")
  std::string text;                   // the fact sentence, verbatim
  std::vector<std::string> evidence;  // normalised dia_ids "D<s>:<t>" (may be empty)
};

// Observations by sample_id, each sample's in file order (sessions, speakers, facts as the JSON
// objects list them). Every fact that is a list of at least two items whose first item is a
// string is kept (evidence of another shape gives an empty `evidence`); anything else is skipped.
// Returns an empty map when the file cannot be read, is not a JSON list, or has no `observation`
// field: the LoCoMo loader (import::LoadLocomoFile) has already validated the rest of the file.
std::map<std::string, std::vector<LocomoObservation>> ReadLocomoObservations(
    const std::string& path);

}  // namespace engram::bench

#endif  // ENGRAM_BENCH_LOCOMO_OBSERVATIONS_H_
