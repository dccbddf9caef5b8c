// experience/episode_segmenter.h — a session's events, in order, cut into tasks (docs/experience.md,
// "Episodes from the event stream"): where the boundaries are, which ones wait in the buffer for
// more evidence, and what each committed segment becomes as an episode. Pure functions over the
// events (ExperienceMemory::Segment reads and writes the database).
//
// Candidates are decided in order. A candidate whose confidence (boundary_detector.h) reaches
// kCommitConfidence commits the segment before it; one that cannot reach it even with a full topic
// shift is dropped (its turns stay in the segment); one that only a topic shift could lift waits
// until kTopicWindowTerms terms follow it, and the candidates after it wait behind it: that is the
// buffer. The decision of a candidate depends only on the events up to its window, so a session
// segmented event by event gets the same episodes as one segmented once at the end. When the stream
// is closed (the session is over or idle) a waiting candidate is decided on the text there is, and
// the open segment is committed as the last episode.
//
// Thread safety: PlanSegments uses the detector's Analyzer (not thread-safe); the rest is pure.
#ifndef ENGRAM_EXPERIENCE_EPISODE_SEGMENTER_H_
#define ENGRAM_EXPERIENCE_EPISODE_SEGMENTER_H_

#include <optional>
#include <string>
#include <vector>

#include "engram/types.h"
#include "experience/boundary_detector.h"

namespace engram::experience {

// What became of one candidate boundary.
struct BoundaryDecision {
  size_t candidate = 0;  // index of the user turn it sits before
  BoundaryEvidence evidence;
  std::string decision;  // "committed", "dropped" or "waiting" (in the buffer at the end of the plan)
  // Its decision needed the text after it: without the topic shift it was below kCommitConfidence,
  // with a full shift it could reach it.
  bool waited = false;
  bool at_close = false;  // decided because the stream closed before its window filled
};

// A committed segment: events [begin, end).
struct PlannedSegment {
  size_t begin = 0;
  size_t end = 0;
  double end_confidence = 1.0;  // the confidence of the boundary that ended it (1: the stream closed)
  bool by_close = false;        // it ended because the stream closed
};

struct SegmentPlan {
  std::vector<PlannedSegment> segments;  // committed, in order
  size_t open_begin = 0;                 // the open segment (the buffer) is events [open_begin, end)
  std::vector<BoundaryDecision> decisions;  // every candidate looked at, in order
};

// Plans the segments of `events` (one session, in order). `closed`: no more events will come.
SegmentPlan PlanSegments(BoundaryDetector& detector, const std::vector<StreamEvent>& events, bool closed);

// An episode read from a committed segment.
struct EpisodeDraft {
  std::string goal;                // the segment's first user request (≤ 10,000 characters)
  std::vector<EpisodeStep> steps;  // its tool calls, or when it has none its assistant turns (≤ 1,000)
  std::string outcome;             // failure (its last tool call failed), success (the user closed it
                                   // with thanks), else unknown
  std::string outcome_source;      // heuristic, user_feedback or ""
  std::string feedback;            // the user's closing turn for a success
  TimestampMs started_at = 0;
  TimestampMs ended_at = 0;
  std::string first_event_id;
  std::string last_event_id;
  double boundary_confidence = 1.0;  // PlannedSegment::end_confidence
};

// The episode of a segment; nullopt when it holds no user turn with text (nothing was asked).
std::optional<EpisodeDraft> DraftEpisode(const std::vector<StreamEvent>& events, const PlannedSegment& segment);

// The step a tool call becomes: action "tool(argument summary)" (the event's text when the tool
// is unknown), result the outcome and what came back (≤ 300 characters), the tool, whether it
// changes state, the event as evidence, its time; ordinal left 0.
EpisodeStep ToolCallStep(const StreamEvent& event);

// How the segmenter reads a stored event. A tool event's name is Event::tool_name; an event of
// `engram mcp-tap` (metadata.capture, docs/capture.md) gives its argument summary, and its outcome
// says whether it failed (anything but "ok") and what came back; another tool event fails when its
// metadata says "is_error": true, and its content is what came back. A tool writes unless its name
// starts with a read verb (write_signature.h).
StreamEvent StreamEventOf(const Event& event);

}  // namespace engram::experience

#endif  // ENGRAM_EXPERIENCE_EPISODE_SEGMENTER_H_
