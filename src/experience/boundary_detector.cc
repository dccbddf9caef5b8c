#include "experience/boundary_detector.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "text/dialogue_act.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"

namespace engram::experience {
namespace {

// True when the text's first word-like characters are a greeting ("Hi! ...", "你好，...").
bool StartsWithGreeting(std::string_view lowered) {
  const auto hits = extraction::Lexicon::Get().FindMarkers(lowered, "opening");
  if (hits.empty()) return false;
  const std::string_view before = lowered.substr(0, hits.front().begin);
  return std::all_of(before.begin(), before.end(), [](char c) { return c == ' ' || c == '\n' || c == '\t'; });
}

// The user/assistant turn before events[i] (a tool event or a system one is skipped); nullptr
// when there is none at or after `from`.
const StreamEvent* TurnBefore(const std::vector<StreamEvent>& events, size_t from, size_t i) {
  for (size_t k = i; k > from; --k) {
    const StreamEvent& e = events[k - 1];
    if (e.role == "user" || e.role == "assistant") return &e;
  }
  return nullptr;
}

// The closing of the segment [from, to): the last user turn's, or half an assistant's after it.
double SegmentClosing(const std::vector<StreamEvent>& events, size_t from, size_t to) {
  double assistant = 0;
  for (size_t k = to; k > from; --k) {
    const StreamEvent& e = events[k - 1];
    if (e.role == "user") return std::max(BoundaryDetector::ClosingStrength(e.text), assistant);
    if (e.role == "assistant") {
      assistant = std::max(assistant, kAssistantClosingShare * BoundaryDetector::ClosingStrength(e.text));
    }
  }
  return assistant;
}

// The terminal-tool evidence of the segment [from, to).
double TerminalTool(const std::vector<StreamEvent>& events, size_t from, size_t to) {
  const StreamEvent* last = nullptr;
  bool wrote = false;
  for (size_t k = from; k < to; ++k) {
    const StreamEvent& e = events[k];
    if (e.role != "tool") continue;
    last = &e;
    wrote = wrote || (e.changes_state && !e.failed);
  }
  if (last == nullptr) return 0;
  if (last->changes_state) return last->failed ? 0.5 : 1.0;
  return wrote ? 0.5 : 0.0;
}

}  // namespace

double BoundaryEvidence::Explicit() const { return 1.0 - (1.0 - closing) * (1.0 - new_request); }

double BoundaryEvidence::Confidence() const {
  return kExplicitSignalWeight * Explicit() + kTerminalToolWeight * terminal_tool +
         kTopicShiftWeight * topic_shift.value_or(0.0);
}

double BoundaryEvidence::MaxConfidence() const {
  return kExplicitSignalWeight * Explicit() + kTerminalToolWeight * terminal_tool +
         kTopicShiftWeight * topic_shift.value_or(1.0);
}

double BoundaryDetector::ClosingStrength(std::string_view text) {
  const std::string lowered = extraction::rules::LowerAscii(text);
  if (!extraction::Lexicon::Get().HasMarker(lowered, "closing")) return 0;
  if (text::AsksQuestion(text) || extraction::Lexicon::Get().HasMarker(lowered, "request")) return 0.5;
  return 1;
}

double BoundaryDetector::RequestStrength(std::string_view text, bool answers_question) {
  const std::string lowered = extraction::rules::LowerAscii(text);
  if (StartsWithGreeting(lowered)) return 1;
  if (!extraction::Lexicon::Get().HasMarker(lowered, "request")) return 0;
  return answers_question ? 0.5 : 1.0;
}

const std::vector<std::string>& BoundaryDetector::TermsOf(const StreamEvent& event) {
  auto it = terms_.find(event.event_id);
  if (it != terms_.end() && !event.event_id.empty()) return it->second;
  const std::string text = event.role == "tool" ? event.tool_name + " " + event.tool_args : event.text;
  std::set<std::string, std::less<>> stopwords;
  for (const text::QueryTerm& t : analyzer_.QueryTerms(text)) {
    if (t.stopword) stopwords.insert(t.normalized);
  }
  std::vector<std::string> terms;  // every occurrence: a window counts terms as TextTiling does
  analyzer_.Tokenize(text, text::TokenizeMode::kQuery, [&](std::string_view token, int, int, bool) {
    if (!stopwords.contains(token)) terms.emplace_back(token);
  });
  return terms_[event.event_id] = std::move(terms);
}

std::map<std::string, double> BoundaryDetector::Window(const std::vector<StreamEvent>& events, size_t from, size_t to,
                                                       bool backwards, bool* full) {
  std::map<std::string, double> counts;
  size_t taken = 0;
  for (size_t n = 0; n < to - from && taken < kTopicWindowTerms; ++n) {
    const StreamEvent& e = events[backwards ? to - 1 - n : from + n];
    if (e.role == "system") continue;
    for (const std::string& term : TermsOf(e)) {
      counts[term] += 1;
      if (++taken >= kTopicWindowTerms) break;
    }
  }
  *full = taken >= kTopicWindowTerms;
  return counts;
}

BoundaryEvidence BoundaryDetector::Score(const std::vector<StreamEvent>& events, size_t segment_begin,
                                         size_t candidate, bool closed) {
  BoundaryEvidence out;
  out.closing = SegmentClosing(events, segment_begin, candidate);
  const StreamEvent* previous = TurnBefore(events, segment_begin, candidate);
  const bool answers = previous != nullptr && previous->role == "assistant" && text::AsksQuestion(previous->text);
  out.new_request = RequestStrength(events[candidate].text, answers);
  out.terminal_tool = TerminalTool(events, segment_begin, candidate);
  bool before_full = false, after_full = false;
  const auto before = Window(events, segment_begin, candidate, /*backwards=*/true, &before_full);
  const auto after = Window(events, candidate, events.size(), /*backwards=*/false, &after_full);
  out.window_full = after_full;
  if (after_full || closed) out.topic_shift = 1.0 - Cosine(before, after);
  return out;
}

double Cosine(const std::map<std::string, double>& a, const std::map<std::string, double>& b) {
  double dot = 0, na = 0, nb = 0;
  for (const auto& [term, x] : a) {
    na += x * x;
    auto it = b.find(term);
    if (it != b.end()) dot += x * it->second;
  }
  for (const auto& [term, y] : b) nb += y * y;
  if (na == 0 || nb == 0) return 0;
  return std::clamp(dot / std::sqrt(na * nb), 0.0, 1.0);
}

}  // namespace engram::experience
