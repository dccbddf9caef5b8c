// experience/rule_distiller.h — the offline distiller (no model): rules from contrasting the
// successful and failed episodes of one task type (docs/experience.md, "Rules").
//
// From a window of decided episodes (success or failure) of one type, each seen as the tools its
// steps called in order:
//   * do, sequence — the tools that most successes call (share ≥ kCommonShare of the successes,
//     at least kMinEpisodes of them), in the order of their mean first use: "call A, then B, then C".
//     When only one tool is that common: do, tool — "call A".
//   * avoid, tool — a tool that failures call (≥ kMinEpisodes failures and ≥ kFailureShare of them)
//     and successes rarely do (≤ kRareShare of the successes): "avoid calling X".
//   * avoid, omission — a tool that most successes call (as for do rules) and failures leave out
//     (≥ kMinEpisodes failures and ≥ kFailureShare of them): "avoid finishing without calling X"
//     (the step whose absence precedes failures).
//   At most kMaxAvoidRules avoid rules per type, the most failure-specific first (share of the
//   failures that show the pattern minus share of the successes that do).
// A rule matches an episode when the episode called its tool (tool rules), did not call it
// (omission rules) or called every tool of its sequence with first uses in that order (sequence
// rules); it predicts success (do) or failure (avoid). The thresholds are round numbers fixed before any benchmark ran; DESIGN.md asks for 3–5
// rules per type, general rather than tied to one case (rules name tools, never arguments).
//
// Thread safety: pure functions.
#ifndef ENGRAM_EXPERIENCE_RULE_DISTILLER_H_
#define ENGRAM_EXPERIENCE_RULE_DISTILLER_H_

#include <string>
#include <string_view>
#include <vector>

namespace engram::experience {

inline constexpr double kCommonShare = 0.6;   // "most successes": 3 of 5
inline constexpr double kFailureShare = 0.5;  // half of the failures
inline constexpr double kRareShare = 0.2;     // "rare in successes": 1 in 5
inline constexpr int kMinEpisodes = 2;        // a pattern of one episode is an anecdote
inline constexpr int kMaxAvoidRules = 3;

// One decided episode as the distiller sees it.
struct DistillEpisode {
  bool success = false;            // false: failure
  std::vector<std::string> tools;  // tool names of its steps in call order (repeats kept)
};

// What a rule prescribes, without its counts.
struct RulePattern {
  std::string polarity;            // do, avoid
  std::string kind;                // tool, omission, sequence
  std::vector<std::string> tools;  // one tool, or the sequence in order
  bool operator==(const RulePattern&) const = default;
};

// The rules the window supports, do rules first (deterministic for a given window).
std::vector<RulePattern> DistillPatterns(const std::vector<DistillEpisode>& window);

// True when an episode that called `tools` (in order) matches the pattern.
bool PatternMatches(const RulePattern& pattern, const std::vector<std::string>& tools);

// True when the pattern predicts `success` (do) or a failure (avoid) for a matching episode.
bool PatternConfirmedBy(const RulePattern& pattern, bool success);

// Two patterns prescribe opposite actions in the same situation (the same task type): one has a
// tool called (do rules, avoid-omission rules) that the other forbids (avoid-tool rules).
bool PatternsConflict(const RulePattern& a, const RulePattern& b);

// "task_type|polarity|kind|tool" ("" for the tools of a sequence): the one current version per key.
std::string PatternKey(std::string_view task_type, const RulePattern& pattern);

// The rule as a sentence: "For tasks of type T: call A, then B." / "...: avoid calling X." /
// "...: avoid finishing without calling X."
std::string PatternText(std::string_view task_type, const RulePattern& pattern);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_RULE_DISTILLER_H_
