#include "working/working_memory.h"

#include <fmt/format.h>

#include <algorithm>

#include "recall/context_packet.h"
#include "util/utf8.h"
#include "working/constraints.h"

namespace engram::working {
namespace {

constexpr size_t kGoalChars = 100;         // "one line for the goal" (DESIGN.md)
constexpr size_t kRuledOutChars = 200;     // a ruled-out path is quoted up to this long
constexpr size_t kMaxRuledOut = 10;        // the newest ones

std::string Collapsed(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

WorkingConstraint At(const Event& e, std::string sentence) {
  return WorkingConstraint{.text = std::move(sentence), .event_id = e.id, .session_id = e.session_id,
                           .at = e.occurred_at};
}

// Constraints, retractions and ruled-out paths, in the order the turns came.
void ReadTurns(const std::vector<Event>& events, WorkingMemory* wm) {
  for (const Event& e : events) {
    for (std::string& sentence : Sentences(e.content)) {
      if (e.role == "user") {
        for (auto it = wm->constraints.begin(); it != wm->constraints.end();) {
          if (Retracts(sentence, it->text)) {
            it->retracted_by = e.id;
            it->retraction = sentence;
            wm->retracted.push_back(std::move(*it));
            it = wm->constraints.erase(it);
          } else {
            ++it;
          }
        }
        std::vector<std::string> clauses = ConstraintClauses(sentence);
        for (std::string& clause : clauses) wm->constraints.push_back(At(e, std::move(clause)));
        if (!clauses.empty()) continue;
      }
      if (IsRuledOut(sentence)) wm->ruled_out.push_back(At(e, TruncateCodePoints(sentence, kRuledOutChars)));
    }
    if (wm->goal.empty() && e.role == "user") {
      auto first = Sentences(e.content);
      if (!first.empty()) wm->goal = TruncateCodePoints(Collapsed(first.front()), kGoalChars);
    }
  }
  if (wm->ruled_out.size() > kMaxRuledOut) {
    wm->ruled_out.erase(wm->ruled_out.begin(), wm->ruled_out.end() - static_cast<std::ptrdiff_t>(kMaxRuledOut));
  }
}

std::string Turn(const Event& e) {
  return fmt::format("{}: {}", e.speaker.empty() ? e.role : e.speaker, e.content);
}

// The pinned part: goal, constraints, ruled-out paths.
std::string Pinned(const WorkingMemory& wm) {
  std::string out = "Goal: " + (wm.goal.empty() ? std::string("(not stated)") : wm.goal) + "\n";
  if (!wm.constraints.empty()) {
    out += "Constraints (the user's own words; keep them):\n";
    for (const WorkingConstraint& c : wm.constraints) out += "- " + c.text + "\n";
  }
  if (!wm.ruled_out.empty()) {
    out += "Ruled out:\n";
    for (const WorkingConstraint& c : wm.ruled_out) out += "- " + c.text + "\n";
  }
  return out;
}

}  // namespace

WorkingMemory BuildWorkingMemory(const std::vector<Event>& events, const WorkingMemoryQuery& query) {
  WorkingMemory wm;
  ReadTurns(events, &wm);
  for (const Event& e : events) wm.total_tokens += EstimateTokens(Turn(e));
  std::string text = Pinned(wm);
  int used = EstimateTokens(text);
  wm.over_budget = used > query.budget_tokens;
  // The newest turns that fit, newest first; shown oldest first.
  const std::string heading = "Recent turns:\n";
  int room = query.budget_tokens - used - EstimateTokens(heading);
  std::vector<const Event*> kept;
  for (auto it = events.rbegin(); it != events.rend() && room > 0; ++it) {
    const int cost = EstimateTokens(Turn(*it));
    if (cost > room) break;  // verbatim or not at all; an older turn is not shown past a gap
    room -= cost;
    kept.push_back(&*it);
  }
  if (!kept.empty()) {
    text += heading;
    for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
      text += Turn(**it) + "\n";
      wm.recent.push_back(**it);
    }
  }
  wm.text = std::move(text);
  wm.used_tokens = EstimateTokens(wm.text);
  if (!query.summary.empty()) wm.missing = MissingConstraints(wm.constraints, query.summary);
  return wm;
}

std::vector<std::string> MissingConstraints(const std::vector<WorkingConstraint>& constraints,
                                            std::string_view summary) {
  const std::string haystack = Collapsed(summary);
  std::vector<std::string> missing;
  for (const WorkingConstraint& c : constraints) {
    if (haystack.find(Collapsed(c.text)) == std::string::npos) missing.push_back(c.text);
  }
  return missing;
}

}  // namespace engram::working
