// recall/turn_scorer.h — the lexical event channels of recall: BM25 of each matching event
// ("turn"), BM25 of its neighbourhood in the session ("window") and BM25 of the question it
// answers ("reply").
//
// The window channel scores event i by the text of events i−r..i+r of its session taken as one
// document: the answer to a question is often the reply right after the turn that shares the
// question's words, and a term split across a question and its answer counts only when both are
// read together. It was the largest single lever in the LoCoMo study
// (../shared/reference/retrieval_findings.md: +0.075 recall@10). FTS5's per-row bm25() cannot do
// this, so matching rows come with their per-term counts (engram_term_counts) and are folded into
// windows here.
//
// The reply channel scores event i by the event just before it when that one asks a question
// (its text holds '?' or '？') and another speaker asked it: in a conversation the question
// echoes the words a later recall uses ("What gave you the idea for the colours?") and the
// answer, which holds the fact, often shares none of them ("I'm obsessed with those…"). On the
// LoCoMo dev split 60% of the gold evidence turns directly follow a turn holding a question
// mark (30% of all turns hold one), and a matching question's reply was the most common miss of
// the window channel (bench/RESULTS.md, session 5).
#ifndef ENGRAM_RECALL_TURN_SCORER_H_
#define ENGRAM_RECALL_TURN_SCORER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/event_store.h"

namespace engram {

struct TurnScoring {
  double k1 = 0.9;  // BM25 parameters (Options::bm25_k1 / bm25_b)
  double b = 0.4;
  int window_radius = 2;  // r; 0 turns the window channel off
  bool reply = true;      // score ScoredTurn::reply (the reply channel)
  size_t pool = 100;      // best single-turn matches whose neighbourhoods are read
};

// A candidate event and its lexical scores (0 when it has none in a channel).
struct ScoredTurn {
  int64_t seq = 0;
  int64_t session_rowid = 0;
  TimestampMs occurred_at = 0;
  std::string speaker;
  double turn = 0;    // BM25 of the event's own text
  double window = 0;  // BM25 of events i−r..i+r of its session as one text; avg length (2r+1)·avgdl
  // BM25 of event i−1 when it asks a question (holds '?' or '？') and another speaker asked it:
  // what this event answers. 0 otherwise.
  double reply = 0;
  // Share of the query's idf mass (Σ idf of the terms present / Σ idf of all terms, 0..1) found
  // in the event itself and in its window: how much of the question one place answers.
  double turn_coverage = 0;
  double window_coverage = 0;
};

// Scores every matching row by BM25 and, for the `pool` best, the `extra_centres` (events another
// channel found: vectors, a named date) and the events within r of them (read from the session
// order), the window BM25. Returns the candidates in no particular order: every matching row,
// every extra centre and extra candidate (found elsewhere, no window read: claims), plus the
// neighbours without a match of their own whose window holds more distinct query terms than any
// single event in it (terms split across turns).
// Reads SQLite (call inside a read transaction). Errors: from the store.
Result<std::vector<ScoredTurn>> ScoreTurns(sqlite::EventStore& store,
                                           const sqlite::TermMatchSet& matches,
                                           const TurnScoring& scoring,
                                           const std::vector<sqlite::NeighbourRow>& extra_centres = {},
                                           const std::vector<sqlite::NeighbourRow>& extra_candidates = {});

}  // namespace engram

#endif  // ENGRAM_RECALL_TURN_SCORER_H_
