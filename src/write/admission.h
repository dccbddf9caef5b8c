// write/admission.h — the deterministic admission policy: which candidate claims become claims,
// with what authority, and a reason code for every rejection (reference: HL-Mem §A3 items 3 and 5).
#ifndef ENGRAM_WRITE_ADMISSION_H_
#define ENGRAM_WRITE_ADMISSION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/types.h"
#include "write/extraction/extractor.h"

namespace engram {

// Rejection reason codes.
inline constexpr const char* kReasonEmpty = "empty";
inline constexpr const char* kReasonNotNotable = "not_notable";
inline constexpr const char* kReasonNotLocatable = "evidence_not_locatable";
inline constexpr const char* kReasonSecret = "secret";
inline constexpr const char* kReasonInstructionLike = "instruction_like";
inline constexpr const char* kReasonSessionKind = "provenance_session_kind";
inline constexpr const char* kReasonAssistantAttribution = "assistant_attribution";

struct AdmissionDecision {
  bool admitted = false;
  std::string reason;     // a code above when rejected; "admitted" otherwise
  std::string detail;     // human-readable specifics
  std::string authority;  // high (the user said it), medium (agent), low (external, cron)
  std::string assertion;  // fact, or observation for low-authority sources
};

// Decides about one candidate from `batch` (the events given to the extractor) in a session of
// `session_kind`. Rules, in order:
//   heartbeat/subagent session → rejected (the events are kept, no claims);
//   a source index outside the batch, an evidence span not found verbatim in the source event, or a
//   number in the value that the source does not contain → evidence_not_locatable;
//   blank subject/predicate/value → empty; a one-character or stopword-only value → not_notable;
//   a password, API key or token → secret; "ignore previous instructions"-style text → instruction_like
//   (bug_scenarios.md B50, zero-width characters removed first);
//   a claim about the user (subject "user" or a user-role speaker of the batch) resting only on
//   assistant events → assistant_attribution (B48);
//   admitted: authority high for user events, medium for assistant events, low for tool/external/
//   unknown events and cron sessions, which also make only observations.
AdmissionDecision Admit(const extraction::CandidateClaim& candidate, const std::vector<Event>& batch,
                        std::string_view session_kind);

// The part of Admit that reads only the candidate and its batch, never the database: every rule
// above but the session kind's. Writers run it before they take the write lock: its regular
// expressions are the slowest part of admission (the threat scan's DFA is built on first use,
// about 10 ms in a fresh CLI process), and the lock is held by nobody while it runs (B43).
struct ContentScreening {
  std::optional<AdmissionDecision> rejection;  // set when a content rule rejects the candidate
  bool any_user = false;       // a source is a direct user event
  bool any_assistant = false;  // a source is an assistant event
};
ContentScreening ScreenContent(const extraction::CandidateClaim& candidate, const std::vector<Event>& batch);

// Admit's last step: the session kind's rules (which come first: a heartbeat session rejects
// whatever the content) applied to a screening. Admit(c, batch, kind) ==
// Admit(ScreenContent(c, batch), kind).
AdmissionDecision Admit(const ContentScreening& screening, std::string_view session_kind);

}  // namespace engram

#endif  // ENGRAM_WRITE_ADMISSION_H_
