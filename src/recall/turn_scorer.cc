#include "recall/turn_scorer.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <tuple>
#include <unordered_map>

#include "recall/seq_index.h"

namespace engram {
namespace {

template <typename Count>
double Bm25(const std::vector<double>& idf, const Count* tf, double length, double avg_length,
            double k1, double b) {
  const double norm = k1 * (1.0 - b + b * length / avg_length);
  double score = 0.0;
  for (size_t i = 0; i < idf.size(); ++i) {
    if (tf[i] > 0) score += idf[i] * tf[i] * (k1 + 1.0) / (tf[i] + norm);
  }
  return score;
}

// True when both events were said by the same speaker, or, where a speaker name is missing, in
// the same role (plain user/assistant chat has no names).
bool SameVoice(const sqlite::NeighbourRow& a, const sqlite::NeighbourRow& b) {
  if (!a.speaker.empty() || !b.speaker.empty()) return a.speaker == b.speaker;
  return a.role == b.role;
}

std::atomic<int> whole_session_events{200};

template <typename Count>
int PhrasesHeld(size_t phrases, const Count* tf) {
  int held = 0;
  for (size_t i = 0; i < phrases; ++i) held += tf[i] > 0 ? 1 : 0;
  return held;
}

template <typename Count>
double Coverage(const std::vector<double>& idf, const Count* tf) {
  double present = 0, total = 0;
  for (size_t i = 0; i < idf.size(); ++i) {
    total += idf[i];
    if (tf[i] > 0) present += idf[i];
  }
  return total > 0 ? present / total : 0.0;
}

}  // namespace

int WholeSessionEvents() { return whole_session_events.load(std::memory_order_relaxed); }

void SetWholeSessionEventsForTesting(int events) {
  whole_session_events.store(std::max(events, 0), std::memory_order_relaxed);
}

double TurnBm25(const std::vector<double>& idf, const uint16_t* tf, double length, double avg_length,
                double k1, double b) {
  return Bm25(idf, tf, length, avg_length, k1, b);
}

double TermCoverage(const std::vector<double>& idf, const uint16_t* tf) { return Coverage(idf, tf); }

PendingMatches::PendingMatches(sqlite::TermPostings p, const sqlite::SearchFilter& f, double k1_in,
                               double b_in)
    : postings(std::move(p)), filter(f), k1(k1_in), b(b_in) {
  const size_t n = postings.seqs.size();
  turn.resize(n);
  state.assign(n, State::kPending);
  for (size_t i = 0; i < n; ++i) {
    turn[i] = Bm25(postings.idf, postings.Tf(i), postings.doc_lengths[i], postings.avg_length, k1, b);
  }
}

bool PendingMatches::Eligible(int64_t session_rowid, TimestampMs occurred_at) const {
  return (!filter.session_rowid || session_rowid == *filter.session_rowid) &&
         (!filter.since || occurred_at >= *filter.since) && (!filter.until || occurred_at < *filter.until);
}

Result<std::optional<ScoredTurn>> PendingMatches::Resolve(sqlite::EventStore& store, size_t i) {
  auto located = store.LocateOne(postings.seqs[i]);
  if (!located) return Error(located.error());
  if (!located->has_value() || (*located)->namespace_id != filter.namespace_id ||
      !Eligible((*located)->row.session_rowid, (*located)->row.occurred_at)) {
    state[i] = State::kOutside;
    return std::optional<ScoredTurn>();
  }
  state[i] = State::kResolved;
  sqlite::NeighbourRow& row = (*located)->row;
  ScoredTurn t;
  t.seq = row.seq;
  t.session_rowid = row.session_rowid;
  t.occurred_at = row.occurred_at;
  t.speaker = std::move(row.speaker);
  t.turn = turn[i];
  t.turn_coverage = Coverage(postings.idf, postings.Tf(i));
  t.window_coverage = t.turn_coverage;
  t.phrases_held = PhrasesHeld(postings.phrases, postings.Tf(i));
  return std::optional<ScoredTurn>(std::move(t));
}

Status ResolvePool(sqlite::EventStore& store, size_t pool, sqlite::TermMatchSet& matches,
                   PendingMatches& pending) {
  if (pending.postings.phrases != matches.idf.size()) {
    return Status::Internal("ResolvePool: the postings and the matched rows count other phrases");
  }
  // (turn, seq) of the pool so far, worst on top: a row enters when it beats the worst (higher
  // turn, or the same turn and a lower seq: ScoreTurns' order).
  using Entry = std::pair<double, int64_t>;
  auto better = [](const Entry& a, const Entry& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  };
  std::vector<Entry> heap;  // a heap under `better`: the worst entry at the front
  auto offer = [&](double turn, int64_t seq) {
    if (pool == 0) return;
    heap.emplace_back(turn, seq);
    std::push_heap(heap.begin(), heap.end(), better);
    if (heap.size() > pool) {
      std::pop_heap(heap.begin(), heap.end(), better);
      heap.pop_back();
    }
  };
  for (size_t i = 0; i < matches.rows.size(); ++i) {
    const sqlite::TermMatchRow& row = matches.rows[i];
    offer(Bm25(matches.idf, matches.Tf(i), row.doc_length, matches.avg_length, pending.k1,
               pending.b),
          row.seq);
  }
  std::vector<size_t> order(pending.turn.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return pending.turn[a] != pending.turn[b] ? pending.turn[a] > pending.turn[b] : a < b;
  });
  for (size_t i : order) {
    if (pending.state[i] != PendingMatches::State::kPending) continue;
    const Entry entry{pending.turn[i], pending.postings.seqs[i]};
    if (heap.size() >= pool && !better(entry, heap.front())) break;  // sorted: no later row enters
    auto turn = pending.Resolve(store, i);
    if (!turn) return turn.error();
    if (!turn->has_value()) continue;
    ScoredTurn& t = **turn;
    sqlite::TermMatchRow& row = matches.rows.emplace_back();
    row.seq = t.seq;
    row.session_rowid = t.session_rowid;
    row.occurred_at = t.occurred_at;
    row.speaker = std::move(t.speaker);
    row.doc_length = pending.postings.doc_lengths[i];
    const uint16_t* tf = pending.postings.Tf(i);
    matches.tf.insert(matches.tf.end(), tf, tf + pending.postings.phrases);
    offer(entry.first, entry.second);
  }
  return Status::Ok();
}

Result<std::vector<ScoredTurn>> ScoreTurns(sqlite::EventStore& store,
                                           const sqlite::TermMatchSet& matches,
                                           const TurnScoring& scoring,
                                           const std::vector<sqlite::NeighbourRow>& extra_centres,
                                           const std::vector<sqlite::NeighbourRow>& extra_candidates,
                                           PendingMatches* pending) {
  const size_t phrases = matches.idf.size();
  std::vector<uint32_t> tf(phrases);
  std::vector<ScoredTurn> out;
  // Room for every candidate there can be (matching rows, extras, each centre's neighbours), so
  // that no ScoredTurn is moved by a reallocation.
  const size_t centres = std::min(scoring.pool, matches.rows.size()) + extra_centres.size();
  const size_t reach_bound = static_cast<size_t>(std::max(scoring.window_radius, scoring.reply ? 1 : 0));
  out.reserve(matches.rows.size() + extra_centres.size() + extra_candidates.size() + centres * (2 * reach_bound + 1));
  // seq → index in out; the first matches.rows.size() entries of out are matches.rows, in order.
  SeqIndex index_of(matches.rows.size());
  for (size_t m = 0; m < matches.rows.size(); ++m) {
    const sqlite::TermMatchRow& row = matches.rows[m];
    const uint16_t* row_tf = matches.Tf(m);
    for (size_t i = 0; i < phrases; ++i) tf[i] = row_tf[i];
    ScoredTurn t;
    t.seq = row.seq;
    t.session_rowid = row.session_rowid;
    t.occurred_at = row.occurred_at;
    t.speaker = row.speaker;
    t.turn = Bm25(matches.idf, tf.data(), row.doc_length, matches.avg_length, scoring.k1, scoring.b);
    t.turn_coverage = Coverage(matches.idf, tf.data());
    t.window_coverage = t.turn_coverage;
    t.phrases_held = PhrasesHeld(phrases, tf.data());
    index_of.Insert(row.seq, out.size());
    out.push_back(std::move(t));
  }
  const size_t matched = matches.rows.size();
  // A pending row (pruned path) that passes the filter for an event of this session and time:
  // its index in pending->postings, or -1.
  auto pending_match = [&](int64_t seq, int64_t session_rowid, TimestampMs occurred_at) -> std::ptrdiff_t {
    if (pending == nullptr) return -1;
    const std::ptrdiff_t p = pending->postings.Find(seq);
    if (p < 0 || pending->state[p] == PendingMatches::State::kOutside ||
        !pending->Eligible(session_rowid, occurred_at)) {
      return -1;
    }
    return p;
  };
  // Makes pending row p a candidate (the extra or neighbour `at`, whose place is known).
  auto resolve_pending = [&](std::ptrdiff_t p, const sqlite::NeighbourRow& at) {
    pending->state[p] = PendingMatches::State::kResolved;
    ScoredTurn t;
    t.seq = at.seq;
    t.session_rowid = at.session_rowid;
    t.occurred_at = at.occurred_at;
    t.speaker = at.speaker;
    t.turn = pending->turn[p];
    t.turn_coverage = Coverage(matches.idf, pending->postings.Tf(p));
    t.window_coverage = t.turn_coverage;
    t.phrases_held = PhrasesHeld(phrases, pending->postings.Tf(p));
    index_of.Insert(at.seq, out.size());
    out.push_back(std::move(t));
  };
  // Events found by another channel are candidates whatever their own match (after the matched
  // rows, so out[i] for i < matched stays matches.rows[i]).
  for (const auto* extras : {&extra_centres, &extra_candidates}) {
    for (const sqlite::NeighbourRow& extra : *extras) {
      if (index_of.Find(extra.seq) != nullptr) continue;
      if (const std::ptrdiff_t p = pending_match(extra.seq, extra.session_rowid, extra.occurred_at); p >= 0) {
        resolve_pending(p, extra);
        continue;
      }
      ScoredTurn t;
      t.seq = extra.seq;
      t.session_rowid = extra.session_rowid;
      t.occurred_at = extra.occurred_at;
      t.speaker = extra.speaker;
      index_of.Insert(extra.seq, out.size());
      out.push_back(std::move(t));
    }
  }
  const int r = scoring.window_radius;
  // How far from a pool turn candidates are read: the window's radius, or the one event after it
  // for the reply channel alone.
  const int reach = std::max(r, scoring.reply ? 1 : 0);
  if (reach <= 0 || out.empty()) return out;
  // The per-phrase counts and length of a matching row (nullptr counts: not a matching row).
  struct MatchRef {
    const uint16_t* tf = nullptr;
    int32_t doc_length = 0;
  };
  auto match_of = [&](int64_t seq, int64_t session_rowid, TimestampMs occurred_at) -> MatchRef {
    const size_t* at = index_of.Find(seq);
    if (at != nullptr && *at < matched) return {matches.Tf(*at), matches.rows[*at].doc_length};
    const std::ptrdiff_t p = pending_match(seq, session_rowid, occurred_at);
    if (p < 0) return {};
    return {pending->postings.Tf(p), pending->postings.doc_lengths[p]};
  };

  // The centres whose neighbourhoods are read: the pool (the best single-turn matches), then the
  // extra centres.
  // (Selected, not sorted: the order the centres are read in changes no candidate. The keys are
  // copied beside their index so that the selection does not chase ScoredTurns.)
  struct PoolKey {
    double turn;
    int64_t seq;
    size_t at;
  };
  std::vector<PoolKey> keys(matched);
  for (size_t i = 0; i < matched; ++i) keys[i] = {out[i].turn, out[i].seq, i};
  const size_t pool = std::min(scoring.pool, matched);
  if (pool < matched) {
    std::nth_element(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(pool), keys.end(),
                     [](const PoolKey& a, const PoolKey& b) { return a.turn != b.turn ? a.turn > b.turn : a.seq < b.seq; });
  }
  std::vector<size_t> order(pool);
  for (size_t i = 0; i < pool; ++i) order[i] = keys[i].at;
  // Every extra centre was inserted above, so Find cannot return nullptr here.
  for (const sqlite::NeighbourRow& extra : extra_centres) order.push_back(*index_of.Find(extra.seq));

  // Stretches of session order: a small session's whole layout (memoised by the store across
  // recalls), or for a larger one the pool turn's 2r neighbours either side. Every candidate
  // (within r of a pool turn) has its own r neighbours on the stretch it was found on, so its
  // window is read from that stretch alone.
  std::vector<std::shared_ptr<const std::vector<sqlite::NeighbourRow>>> stretches;
  struct Candidate {
    int64_t session_rowid;
    TimestampMs occurred_at;
    int64_t seq;
    size_t stretch;
    std::ptrdiff_t pos;
    bool operator<(const Candidate& o) const {
      return std::tie(session_rowid, occurred_at, seq) < std::tie(o.session_rowid, o.occurred_at, o.seq);
    }
    bool operator==(const Candidate& o) const { return seq == o.seq && session_rowid == o.session_rowid; }
  };
  std::vector<Candidate> candidates;  // of the stretches read around one centre
  std::unordered_map<int64_t, size_t> whole;  // session rowid → index in stretches (small sessions)
  std::unordered_map<int64_t, bool> large;    // session rowid → too large to read whole
  // Per stretch, the positions taken when it is a whole session's layout (empty otherwise): a
  // layout's candidates are marked, then listed once each in session order, unsorted.
  std::vector<std::vector<char>> taken;
  auto add_candidates = [&](size_t stretch, std::ptrdiff_t pos) {
    const std::vector<sqlite::NeighbourRow>& rows = *stretches[stretch];
    const auto lo = std::max<std::ptrdiff_t>(0, pos - reach);
    const auto hi = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(rows.size()) - 1, pos + reach);
    for (auto i = lo; i <= hi; ++i) {
      if (!taken[stretch].empty()) {
        taken[stretch][i] = 1;
      } else {
        candidates.push_back({rows[i].session_rowid, rows[i].occurred_at, rows[i].seq, stretch, i});
      }
    }
  };
  for (size_t idx : order) {
    const ScoredTurn& center = out[idx];
    if (!large[center.session_rowid]) {
      auto known = whole.find(center.session_rowid);
      if (known == whole.end()) {
        auto read = store.MemoSessionLayout(center.session_rowid, WholeSessionEvents());
        if (!read) return Error(read.error());
        if (*read == nullptr) {
          large[center.session_rowid] = true;
        } else {
          taken.emplace_back((*read)->size(), 0);
          stretches.push_back(std::move(*read));
          known = whole.emplace(center.session_rowid, stretches.size() - 1).first;
        }
      }
      if (known != whole.end()) {
        const std::vector<sqlite::NeighbourRow>& rows = *stretches[known->second];
        auto at = std::find_if(rows.begin(), rows.end(),
                               [&](const sqlite::NeighbourRow& n) { return n.seq == center.seq; });
        if (at != rows.end()) {
          add_candidates(known->second, at - rows.begin());
          continue;
        }
      }
    }
    auto around = store.SessionStretchAround(center.session_rowid, center.occurred_at, center.seq, 2 * reach,
                                             2 * reach);
    if (!around) return Error(around.error());
    if (!around->centre) continue;  // not stored (cannot happen inside one read transaction)
    const auto centre = static_cast<std::ptrdiff_t>(*around->centre);
    stretches.push_back(std::make_shared<const std::vector<sqlite::NeighbourRow>>(std::move(around->rows)));
    taken.emplace_back();
    add_candidates(stretches.size() - 1, centre);
  }
  // In (session, occurred_at, seq) order, once each: the layouts' marks, session by session, are
  // in that order already (a layout is read in it); stretches read around a centre are sorted in.
  std::vector<std::pair<int64_t, size_t>> layouts(whole.begin(), whole.end());
  std::sort(layouts.begin(), layouts.end());
  const bool around_any = !candidates.empty();
  std::vector<Candidate> marked;
  for (const auto& [session_rowid, stretch] : layouts) {
    const std::vector<sqlite::NeighbourRow>& rows = *stretches[stretch];
    for (size_t i = 0; i < rows.size(); ++i) {
      if (taken[stretch][i]) {
        marked.push_back({rows[i].session_rowid, rows[i].occurred_at, rows[i].seq, stretch, static_cast<std::ptrdiff_t>(i)});
      }
    }
  }
  if (around_any) {
    candidates.insert(candidates.end(), marked.begin(), marked.end());
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  } else {
    candidates = std::move(marked);
  }

  // Each position's match, looked up once per stretch: a row is in up to 2r + 1 windows. (What
  // match_of answers does not change in this loop: the turns it adds are indexed after
  // `matched`, and a pending row it resolves stays a match.)
  struct RowMatch {
    MatchRef ref;
    int distinct = -1;  // phrases the row holds; -1: not looked up yet
  };
  std::vector<std::vector<RowMatch>> row_matches(stretches.size());
  auto match_at = [&](size_t stretch, std::ptrdiff_t i) -> const RowMatch& {
    std::vector<RowMatch>& known = row_matches[stretch];
    if (known.empty()) known.resize(stretches[stretch]->size());
    RowMatch& m = known[static_cast<size_t>(i)];
    if (m.distinct < 0) {
      const sqlite::NeighbourRow& row = (*stretches[stretch])[static_cast<size_t>(i)];
      m.ref = match_of(row.seq, row.session_rowid, row.occurred_at);
      m.distinct = m.ref.tf == nullptr ? 0 : PhrasesHeld(phrases, m.ref.tf);
    }
    return m;
  };
  const double window_avg = matches.avg_length * (2 * r + 1);  // (unused when r = 0)
  for (const Candidate& c : candidates) {
    const std::vector<sqlite::NeighbourRow>& rows = *stretches[c.stretch];
    std::fill(tf.begin(), tf.end(), 0);
    double window = 0;
    size_t window_distinct = 0;
    size_t best_single = 0;  // most distinct terms in one event of the window
    if (r > 0) {
      double length = 0;
      const auto lo = std::max<std::ptrdiff_t>(0, c.pos - r);
      const auto hi = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(rows.size()) - 1, c.pos + r);
      for (auto i = lo; i <= hi; ++i) {
        length += rows[i].doc_length;
        const RowMatch& m = match_at(c.stretch, i);
        if (m.ref.tf == nullptr) continue;
        for (size_t k = 0; k < phrases; ++k) tf[k] += m.ref.tf[k];
        best_single = std::max(best_single, static_cast<size_t>(m.distinct));
      }
      window = Bm25(matches.idf, tf.data(), length, window_avg, scoring.k1, scoring.b);
      for (size_t k = 0; k < phrases; ++k) window_distinct += tf[k] > 0 ? 1 : 0;
    }
    // The reply channel: the event right before this one asks a question, someone else asked
    // it, and it shares the query's terms.
    double reply = 0;
    if (scoring.reply && c.pos > 0) {
      const sqlite::NeighbourRow& asked = rows[c.pos - 1];
      if (asked.asks_question && !SameVoice(asked, rows[c.pos])) {
        const MatchRef& m = match_at(c.stretch, c.pos - 1).ref;
        if (m.tf != nullptr) reply = Bm25(matches.idf, m.tf, m.doc_length, matches.avg_length, scoring.k1, scoring.b);
      }
    }
    const size_t* found = index_of.Find(c.seq);
    if (found == nullptr) {
      if (const std::ptrdiff_t p = pending_match(c.seq, c.session_rowid, c.occurred_at); p >= 0) {
        resolve_pending(p, rows[c.pos]);  // a matching row: a candidate as every other
        found = index_of.Find(c.seq);
      }
    }
    size_t slot = found != nullptr ? *found : out.size();
    if (found == nullptr) {
      // An event without a query term of its own joins when it answers a matching question, or
      // when its window holds more distinct query terms than any one event in it (the terms are
      // split across turns, as a question and its answer are); otherwise it would only borrow a
      // neighbour's match.
      if (reply == 0 && window_distinct <= best_single) continue;  // (always, when r = 0)
      ScoredTurn t;
      t.seq = c.seq;
      t.session_rowid = c.session_rowid;
      t.occurred_at = c.occurred_at;
      t.speaker = rows[c.pos].speaker;
      index_of.Insert(t.seq, slot);
      out.push_back(std::move(t));
    }
    out[slot].reply = reply;
    if (r > 0) {
      out[slot].window = window;
      out[slot].window_coverage = Coverage(matches.idf, tf.data());
    }
  }
  return out;
}

}  // namespace engram
