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
// (text::AsksQuestion: a sentence-final '?' or any '？') and another speaker (or, without speaker
// names, another role) asked it: in a conversation the question
// echoes the words a later recall uses ("What gave you the idea for the colours?") and the
// answer, which holds the fact, often shares none of them ("I'm obsessed with those…"). On the
// LoCoMo dev split 60% of the gold evidence turns directly follow a turn holding a question
// mark (30% of all turns hold one), and a matching question's reply was the most common miss of
// the window channel (bench/RESULTS.md, session 5).
#ifndef ENGRAM_RECALL_TURN_SCORER_H_
#define ENGRAM_RECALL_TURN_SCORER_H_

#include <cstdint>
#include <optional>
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
  double turn = 0;  // BM25 of the event's own text
  double window = 0;  // BM25 of events i−r..i+r of its session as one text; avg length (2r+1)·avgdl
  // BM25 of event i−1 when it asks a question (text::AsksQuestion) and another speaker (another
  // role, when neither has a speaker name) asked it:
  // what this event answers. 0 otherwise.
  double reply = 0;
  // Share of the query's idf mass (Σ idf of the terms present / Σ idf of all terms, 0..1) found
  // in the event itself and in its window: how much of the question one place answers.
  double turn_coverage = 0;
  double window_coverage = 0;
  // Distinct query phrases present in the event's indexed text (speaker, content, image caption):
  // an upper bound of the question terms its content holds.
  int phrases_held = 0;
};

// BM25 of one text from its per-phrase counts `tf` (idf.size() of them) and its length in tokens:
// Σ idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / avg_length)), the turn channel's score.
double TurnBm25(const std::vector<double>& idf, const uint16_t* tf, double length,
                double avg_length, double k1, double b);
// Σ idf of the phrases present / Σ idf of all, in [0, 1] (0 when there is no phrase).
double TermCoverage(const std::vector<double>& idf, const uint16_t* tf);

// The matching rows that the pruned path of recall has not read yet (see RecallEvents): when a
// query matches many rows, the rows after the first few hundred come from
// EventStore::MatchPostings (seq, length, per-phrase counts, no event) and each row's event is read
// (EventStore::LocateOne) only when the row can still matter: when it can enter the pool of best
// turns, is the neighbour of a pool turn or another channel's candidate, or its fused score's upper
// bound reaches the last kept item.
struct PendingMatches {
  enum class State : uint8_t {
    kPending,   // not read: namespace, session and time unknown
    kResolved,  // read and a candidate
    kOutside,   // read: another namespace, or outside the filter's session or time range
  };
  sqlite::TermPostings postings;
  std::vector<double> turn;  // BM25 of each row (TurnBm25 with the scoring's k1 and b)
  std::vector<State> state;
  sqlite::SearchFilter filter;  // what a matching row must pass (as MatchTermCounts' SQL does)
  double k1 = 0.9;              // BM25 parameters of `turn`
  double b = 0.4;

  // Builds turn and state from postings (every row kPending).
  PendingMatches(sqlite::TermPostings postings, const sqlite::SearchFilter& filter, double k1,
                 double b);
  // True when an event of this namespace with this session and time passes `filter`.
  bool Eligible(int64_t session_rowid, TimestampMs occurred_at) const;
  // Reads row i's event: its ScoredTurn (turn and turn coverage set, window 0) when it is in the
  // filter's namespace, session and time range (state kResolved), nullopt otherwise (kOutside).
  // Errors: from the store.
  Result<std::optional<ScoredTurn>> Resolve(sqlite::EventStore& store, size_t i);
};

// Reads the pending rows that can enter the pool of the `pool` best turns (best turn first, ties
// by seq, until the pool holds `pool` rows and the next pending turn is below its worst): those
// that pass the filter join `matches.rows` (kResolved), the others become kOutside. Afterwards
// every pending row scores below the pool's worst turn, so the pool of ScoreTurns over
// `matches` is the pool over every matching row. Errors: from the store.
Status ResolvePool(sqlite::EventStore& store, size_t pool, sqlite::TermMatchSet& matches,
                   PendingMatches& pending);

// Sessions of at most this many events are read whole for the window channel (one layout per
// session, memoised by the store across recalls); a larger session is read around each centre
// (EventStore::SessionStretchAround). Either way a candidate's window is the same. Default 200.
int WholeSessionEvents();
// For tests: sets WholeSessionEvents (0: every session is read around each centre) for every
// later recall in the process.
void SetWholeSessionEventsForTesting(int events);

// Scores every matching row by BM25 and, for the `pool` best, the `extra_centres` (events another
// channel found: vectors, a named date) and the events within r of them (read from the session
// order), the window BM25. With `pending` (the pruned path), a pending row that is an extra or
// within r of a centre counts as a matching row (its counts feed the windows, it becomes a
// candidate with its turn score, kResolved); pending rows elsewhere are not candidates. Returns the
// candidates in no particular order: every matching row, every extra centre and extra candidate
// (found elsewhere, no window read: claims), plus the neighbours without a match of their own whose
// window holds more distinct query terms than any single event in it (terms split across turns)
// and those that answer a matching question (the reply channel; read within 1 of a centre when
// the window channel is off).
// Reads SQLite (call inside a read transaction). Errors: from the store.
Result<std::vector<ScoredTurn>> ScoreTurns(
    sqlite::EventStore& store, const sqlite::TermMatchSet& matches, const TurnScoring& scoring,
    const std::vector<sqlite::NeighbourRow>& extra_centres = {},
    const std::vector<sqlite::NeighbourRow>& extra_candidates = {},
    PendingMatches* pending = nullptr);

}  // namespace engram

#endif  // ENGRAM_RECALL_TURN_SCORER_H_
