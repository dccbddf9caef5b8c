// experience/boundary_detector.h — how sure a point of a session's event stream is a task boundary
// (docs/experience.md, "Episodes from the event stream").
//
// A candidate boundary sits before a user turn. Its evidence, each part in [0, 1]:
//   * explicit signal: the task was closed — the last user turn before it says thanks / bye /
//     that's all / 谢谢 / 好的就这样 / 再见 (an assistant's "you're welcome" counts half: the user
//     decides when their task is over) — or the turn at it opens a new request (a greeting, or a
//     request such as "I want" / "can you" / 帮我 that does not answer a question of the assistant);
//     the two combine as a noisy-or. The words are data: data/lexicon/episode_signals.tsv.
//   * terminal tool: the open segment's last tool call changed state (1 when it worked, 0.5 when it
//     failed or when a successful write came earlier in the segment and reads followed it).
//   * topic shift: 1 − the cosine of the term vectors of the text before and after it.
// Its confidence is DESIGN.md's weighted sum: 0.5 × explicit + 0.3 × terminal tool + 0.2 × topic
// shift. The topic shift needs the text after the candidate: until kTopicWindowTerms terms have
// arrived (or the stream is closed) it is unknown, and the candidate may have to wait.
//
// Thread safety: a BoundaryDetector uses its Analyzer (not thread-safe); the static functions are
// pure.
#ifndef ENGRAM_EXPERIENCE_BOUNDARY_DETECTOR_H_
#define ENGRAM_EXPERIENCE_BOUNDARY_DETECTOR_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/types.h"
#include "text/analyzer.h"

namespace engram::experience {

// DESIGN.md, "Experience layer": "Episode boundaries are scored from an explicit end signal
// (thanks, done, next question; weight 0.5), a terminal tool call (submit, send; 0.3) and a topic
// shift (0.2); an episode is committed at ≥ 0.8, otherwise it waits in a buffer for more
// evidence." Fixed before any benchmark ran; not tuned.
inline constexpr double kExplicitSignalWeight = 0.5;
inline constexpr double kTerminalToolWeight = 0.3;
inline constexpr double kTopicShiftWeight = 0.2;
inline constexpr double kCommitConfidence = 0.8;
// The text compared either side of a candidate: up to 200 terms, TextTiling's block (Hearst 1997,
// "TextTiling: segmenting text into multi-paragraph subtopic passages"; NLTK's defaults are
// pseudo-sentences of w = 20 tokens in blocks of k = 10).
inline constexpr size_t kTopicWindowTerms = 200;
// An assistant's closing ("you're welcome", "have a nice day") weighs half a user's.
inline constexpr double kAssistantClosingShare = 0.5;

// True when a confidence reaches kCommitConfidence (within 1e-9: 0.5 + 0.3 is 0.8 in decimal, not
// always in binary floating point).
inline bool ReachesCommit(double confidence) { return confidence >= kCommitConfidence - 1e-9; }

// One event of a session as the segmenter reads it (episode_segmenter.h fills it from an Event).
struct StreamEvent {
  std::string event_id;
  std::string role;         // user, assistant, tool or system
  std::string text;         // the content (a tool event's one-line description)
  std::string tool_name;    // tool events: the tool called ("" when unknown)
  std::string tool_args;    // tool events: a summary of the arguments ("" when unknown)
  std::string tool_result;  // tool events: what came back, short ("" when unknown)
  bool changes_state = false;  // tool events: the tool writes (write_signature.h, IsReadToolName)
  bool failed = false;         // tool events: the call failed (an error outcome)
  TimestampMs at = 0;          // occurred_at, ms UTC
};

// The evidence for one candidate boundary.
struct BoundaryEvidence {
  double closing = 0;        // 0, 0.5 or 1
  double new_request = 0;    // 0, 0.5 or 1
  double terminal_tool = 0;  // 0, 0.5 or 1
  std::optional<double> topic_shift;  // [0, 1]; nullopt while the text after is too short
  bool window_full = false;  // the text after held kTopicWindowTerms terms (else: the stream closed)
  // The explicit signal: 1 − (1 − closing)(1 − new_request).
  double Explicit() const;
  // The weighted sum, with an unknown topic shift counted 0.
  double Confidence() const;
  // The weighted sum with an unknown topic shift counted 1: the most later events can make of it.
  double MaxConfidence() const;
};

class BoundaryDetector {
 public:
  explicit BoundaryDetector(text::Analyzer& analyzer) : analyzer_(analyzer) {}

  // How much a turn closes a task: 1 when it holds a closing phrase and neither asks a question
  // nor requests anything, 0.5 when it also does (gratitude attached to a request: "Yes, please go
  // ahead. Thank you!"), else 0.
  static double ClosingStrength(std::string_view text);
  // How much a user turn opens a new request: 1 when it starts with a greeting, or holds a request
  // phrase and does not answer a question (`answers_question`: the turn before it asked one); 0.5
  // for a request that answers a question; else 0.
  static double RequestStrength(std::string_view text, bool answers_question);

  // The evidence for a boundary before events[candidate] (a user turn) in a stream whose open
  // segment began at events[segment_begin] (segment_begin < candidate < events.size()). `closed`:
  // no event will follow the last one (the topic shift is then measured on what there is).
  BoundaryEvidence Score(const std::vector<StreamEvent>& events, size_t segment_begin, size_t candidate,
                         bool closed);

 private:
  // The analyzer's query tokens (stems, CJK bigrams) of the event's text, every occurrence,
  // stopwords left out (a tool event: its name and arguments), memoised by event id.
  const std::vector<std::string>& TermsOf(const StreamEvent& event);
  // Term counts of the events [from, to) walking away from the candidate, up to kTopicWindowTerms;
  // *full tells whether the window reached that many.
  std::map<std::string, double> Window(const std::vector<StreamEvent>& events, size_t from, size_t to, bool backwards,
                                       bool* full);

  text::Analyzer& analyzer_;
  std::map<std::string, std::vector<std::string>> terms_;
};

// The cosine of two term-count vectors, in [0, 1]; 0 when either is empty.
double Cosine(const std::map<std::string, double>& a, const std::map<std::string, double>& b);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_BOUNDARY_DETECTOR_H_
