#include "recall/turn_scorer.h"

#include <algorithm>
#include <memory>
#include <tuple>
#include <unordered_map>

namespace engram {
namespace {

double Bm25(const std::vector<double>& idf, const std::vector<uint32_t>& tf, double length,
            double avg_length, double k1, double b) {
  const double norm = k1 * (1.0 - b + b * length / avg_length);
  double score = 0.0;
  for (size_t i = 0; i < idf.size(); ++i) {
    if (tf[i] > 0) score += idf[i] * tf[i] * (k1 + 1.0) / (tf[i] + norm);
  }
  return score;
}

// Sessions of at most this many events are read whole for the window channel.
constexpr int kWholeSessionEvents = 200;

double Coverage(const std::vector<double>& idf, const std::vector<uint32_t>& tf) {
  double present = 0, total = 0;
  for (size_t i = 0; i < idf.size(); ++i) {
    total += idf[i];
    if (tf[i] > 0) present += idf[i];
  }
  return total > 0 ? present / total : 0.0;
}

}  // namespace

Result<std::vector<ScoredTurn>> ScoreTurns(sqlite::EventStore& store,
                                           const sqlite::TermMatchSet& matches,
                                           const TurnScoring& scoring,
                                           const std::vector<sqlite::NeighbourRow>& extra_centres,
                                           const std::vector<sqlite::NeighbourRow>& extra_candidates) {
  const size_t phrases = matches.idf.size();
  std::vector<uint32_t> tf(phrases);
  std::vector<ScoredTurn> out;
  out.reserve(matches.rows.size());
  // seq → index in out; the first matches.rows.size() entries of out are matches.rows, in order.
  std::unordered_map<int64_t, size_t> index_of;
  index_of.reserve(matches.rows.size());
  for (const sqlite::TermMatchRow& row : matches.rows) {
    for (size_t i = 0; i < phrases; ++i) tf[i] = row.tf[i];
    ScoredTurn t;
    t.seq = row.seq;
    t.session_rowid = row.session_rowid;
    t.occurred_at = row.occurred_at;
    t.speaker = row.speaker;
    t.turn = Bm25(matches.idf, tf, row.doc_length, matches.avg_length, scoring.k1, scoring.b);
    t.turn_coverage = Coverage(matches.idf, tf);
    t.window_coverage = t.turn_coverage;
    index_of.emplace(row.seq, out.size());
    out.push_back(std::move(t));
  }
  const size_t matched = matches.rows.size();
  // Events found by another channel are candidates whatever their own match (after the matched
  // rows, so out[i] for i < matched stays matches.rows[i]).
  for (const auto* extras : {&extra_centres, &extra_candidates}) {
    for (const sqlite::NeighbourRow& extra : *extras) {
      if (index_of.count(extra.seq) != 0) continue;
      ScoredTurn t;
      t.seq = extra.seq;
      t.session_rowid = extra.session_rowid;
      t.occurred_at = extra.occurred_at;
      t.speaker = extra.speaker;
      index_of.emplace(extra.seq, out.size());
      out.push_back(std::move(t));
    }
  }
  const int r = scoring.window_radius;
  // How far from a pool turn candidates are read: the window's radius, or the one event after it
  // for the reply channel alone.
  const int reach = std::max(r, scoring.reply ? 1 : 0);
  if (reach <= 0 || out.empty()) return out;
  auto match_of = [&](int64_t seq) -> const sqlite::TermMatchRow* {
    auto it = index_of.find(seq);
    return it != index_of.end() && it->second < matched ? &matches.rows[it->second] : nullptr;
  };

  // The centres whose neighbourhoods are read: the pool (the best single-turn matches), then the
  // extra centres.
  std::vector<size_t> order(matched);
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const size_t pool = std::min(scoring.pool, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(pool), order.end(),
                    [&](size_t a, size_t b) {
                      return out[a].turn != out[b].turn ? out[a].turn > out[b].turn
                                                        : out[a].seq < out[b].seq;
                    });
  order.resize(pool);
  for (const sqlite::NeighbourRow& extra : extra_centres) order.push_back(index_of.at(extra.seq));

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
  std::vector<Candidate> candidates;
  std::unordered_map<int64_t, size_t> whole;  // session rowid → index in stretches (small sessions)
  std::unordered_map<int64_t, bool> large;    // session rowid → too large to read whole
  auto add_candidates = [&](size_t stretch, std::ptrdiff_t pos) {
    const std::vector<sqlite::NeighbourRow>& rows = *stretches[stretch];
    const auto lo = std::max<std::ptrdiff_t>(0, pos - reach);
    const auto hi = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(rows.size()) - 1, pos + reach);
    for (auto i = lo; i <= hi; ++i) {
      candidates.push_back({rows[i].session_rowid, rows[i].occurred_at, rows[i].seq, stretch, i});
    }
  };
  for (size_t idx : order) {
    const ScoredTurn& center = out[idx];
    if (!large[center.session_rowid]) {
      auto known = whole.find(center.session_rowid);
      if (known == whole.end()) {
        auto read = store.MemoSessionLayout(center.session_rowid, kWholeSessionEvents);
        if (!read) return Error(read.error());
        if (*read == nullptr) {
          large[center.session_rowid] = true;
        } else {
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
    auto around = store.SessionStretchAround(center.session_rowid, center.occurred_at, center.seq, 2 * reach, 2 * reach);
    if (!around) return Error(around.error());
    if (!around->centre) continue;  // not stored (cannot happen inside one read transaction)
    const auto centre = static_cast<std::ptrdiff_t>(*around->centre);
    stretches.push_back(std::make_shared<const std::vector<sqlite::NeighbourRow>>(std::move(around->rows)));
    add_candidates(stretches.size() - 1, centre);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());

  const double window_avg = matches.avg_length * (2 * r + 1);  // (unused when r = 0)
  std::vector<uint32_t> asked_tf(phrases);
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
        const sqlite::TermMatchRow* m = match_of(rows[i].seq);
        if (m == nullptr) continue;
        size_t distinct = 0;
        for (size_t k = 0; k < phrases; ++k) {
          tf[k] += m->tf[k];
          distinct += m->tf[k] > 0 ? 1 : 0;
        }
        best_single = std::max(best_single, distinct);
      }
      window = Bm25(matches.idf, tf, length, window_avg, scoring.k1, scoring.b);
      for (size_t k = 0; k < phrases; ++k) window_distinct += tf[k] > 0 ? 1 : 0;
    }
    // The reply channel: the event right before this one asked a question (and someone else
    // asked it) that shares the question's terms.
    double reply = 0;
    if (scoring.reply && c.pos > 0) {
      const sqlite::NeighbourRow& asked = rows[c.pos - 1];
      const sqlite::TermMatchRow* m = asked.asks_question && asked.speaker != rows[c.pos].speaker
                                          ? match_of(asked.seq)
                                          : nullptr;
      if (m != nullptr) {
        for (size_t k = 0; k < phrases; ++k) asked_tf[k] = m->tf[k];
        reply = Bm25(matches.idf, asked_tf, m->doc_length, matches.avg_length, scoring.k1, scoring.b);
      }
    }
    auto found = index_of.find(c.seq);
    if (found == index_of.end()) {
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
      found = index_of.emplace(t.seq, out.size()).first;
      out.push_back(std::move(t));
    }
    out[found->second].reply = reply;
    if (r > 0) {
      out[found->second].window = window;
      out[found->second].window_coverage = Coverage(matches.idf, tf);
    }
  }
  return out;
}

}  // namespace engram
