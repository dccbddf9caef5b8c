#include "recall/turn_scorer.h"

#include <algorithm>
#include <map>
#include <optional>
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

// One event of a session as the window channel sees it.
struct SessionSlot {
  int64_t seq = 0;
  std::string speaker;
  int32_t doc_length = 0;
  const sqlite::TermMatchRow* match = nullptr;  // null: no query term
};

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
  std::unordered_map<int64_t, size_t> index_of;  // seq → index in out
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
  // Events found by another channel are candidates whatever their own match.
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
  if (r <= 0 || out.empty()) return out;

  std::unordered_map<int64_t, const sqlite::TermMatchRow*> match_of;
  match_of.reserve(matches.rows.size());
  for (const sqlite::TermMatchRow& row : matches.rows) match_of.emplace(row.seq, &row);

  // The centres whose neighbourhoods are read: the best single-turn matches (the pool), then the
  // events other channels found.
  std::vector<size_t> order(matches.rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const size_t pool = std::min(scoring.pool, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(pool), order.end(),
                    [&](size_t a, size_t b) {
                      return out[a].turn != out[b].turn ? out[a].turn > out[b].turn
                                                        : out[a].seq < out[b].seq;
                    });
  order.resize(pool);
  std::vector<SessionSlot> centres;
  centres.reserve(order.size() + extra_centres.size());
  for (size_t idx : order) {
    const sqlite::TermMatchRow* m = match_of[out[idx].seq];
    centres.push_back(SessionSlot{out[idx].seq, out[idx].speaker, m->doc_length, m});
  }
  for (const sqlite::NeighbourRow& extra : extra_centres) {
    auto m = match_of.find(extra.seq);
    centres.push_back(SessionSlot{extra.seq, extra.speaker, extra.doc_length,
                                  m == match_of.end() ? nullptr : m->second});
  }

  // Each centre's 2r neighbours either side: every candidate (within r of a centre) then has its
  // own r neighbours on the contiguous stretch read around that centre.
  using Key = std::tuple<int64_t, TimestampMs, int64_t>;  // session, occurred_at, seq
  std::map<Key, SessionSlot> slots;
  std::vector<Key> candidates;
  // A small session is read whole, once (one query instead of two per centre in it).
  std::map<int64_t, std::optional<std::vector<sqlite::NeighbourRow>>> layouts;
  for (const SessionSlot& centre : centres) {
    const ScoredTurn& center = out[index_of.at(centre.seq)];
    Key self{center.session_rowid, center.occurred_at, center.seq};
    auto layout = layouts.find(center.session_rowid);
    if (layout == layouts.end()) {
      auto read = store.SmallSessionLayout(center.session_rowid, kWholeSessionEvents);
      if (!read) return Error(read.error());
      layout = layouts.emplace(center.session_rowid, std::move(*read)).first;
      if (layout->second) {
        for (const sqlite::NeighbourRow& n : *layout->second) {
          auto m = match_of.find(n.seq);
          slots.emplace(Key{center.session_rowid, n.occurred_at, n.seq},
                        SessionSlot{n.seq, n.speaker, n.doc_length,
                                    m == match_of.end() ? nullptr : m->second});
        }
      }
    }
    if (layout->second) {
      const std::vector<sqlite::NeighbourRow>& rows = *layout->second;
      auto at = std::find_if(rows.begin(), rows.end(),
                             [&](const sqlite::NeighbourRow& n) { return n.seq == center.seq; });
      if (at != rows.end()) {
        const auto pos = at - rows.begin();
        const auto lo = std::max<std::ptrdiff_t>(0, pos - r);
        const auto hi = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(rows.size()) - 1, pos + r);
        for (auto i = lo; i <= hi; ++i) {
          candidates.push_back(Key{center.session_rowid, rows[i].occurred_at, rows[i].seq});
        }
        continue;
      }
    }
    auto around =
        store.SessionNeighbours(center.session_rowid, center.occurred_at, center.seq, 2 * r, 2 * r);
    if (!around) return Error(around.error());
    auto add = [&](const sqlite::NeighbourRow& n, int distance) {
      Key key{center.session_rowid, n.occurred_at, n.seq};
      auto m = match_of.find(n.seq);
      slots.emplace(key, SessionSlot{n.seq, n.speaker, n.doc_length,
                                     m == match_of.end() ? nullptr : m->second});
      if (distance <= r) candidates.push_back(key);
    };
    for (size_t i = 0; i < around->first.size(); ++i) add(around->first[i], static_cast<int>(i) + 1);
    for (size_t i = 0; i < around->second.size(); ++i) add(around->second[i], static_cast<int>(i) + 1);
    slots.emplace(self, centre);
    candidates.push_back(self);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());

  const double window_avg = matches.avg_length * (2 * r + 1);
  for (const Key& key : candidates) {
    auto it = slots.find(key);
    std::fill(tf.begin(), tf.end(), 0);
    double length = 0;
    size_t best_single = 0;  // most distinct terms in one event of the window
    auto take = [&](const SessionSlot& s) {
      length += s.doc_length;
      if (s.match == nullptr) return;
      size_t distinct = 0;
      for (size_t i = 0; i < phrases; ++i) {
        tf[i] += s.match->tf[i];
        distinct += s.match->tf[i] > 0 ? 1 : 0;
      }
      best_single = std::max(best_single, distinct);
    };
    take(it->second);
    auto lo = it;
    for (int i = 0; i < r && lo != slots.begin(); ++i) {
      --lo;
      if (std::get<0>(lo->first) != std::get<0>(key)) break;
      take(lo->second);
    }
    auto hi = it;
    for (int i = 0; i < r; ++i) {
      ++hi;
      if (hi == slots.end() || std::get<0>(hi->first) != std::get<0>(key)) break;
      take(hi->second);
    }
    const double window = Bm25(matches.idf, tf, length, window_avg, scoring.k1, scoring.b);
    size_t window_distinct = 0;
    for (size_t i = 0; i < phrases; ++i) window_distinct += tf[i] > 0 ? 1 : 0;
    auto found = index_of.find(it->second.seq);
    if (found == index_of.end()) {
      // An event without a query term of its own joins only when its window holds more distinct
      // query terms than any one event in it (the terms are split across turns, as a question
      // and its answer are); otherwise it would only borrow a neighbour's match.
      if (window_distinct <= best_single) continue;
      ScoredTurn t;
      t.seq = it->second.seq;
      t.session_rowid = std::get<0>(key);
      t.occurred_at = std::get<1>(key);
      t.speaker = it->second.speaker;
      index_of.emplace(t.seq, out.size());
      out.push_back(std::move(t));
      found = index_of.find(it->second.seq);
    }
    out[found->second].window = window;
    out[found->second].window_coverage = Coverage(matches.idf, tf);
  }
  return out;
}

}  // namespace engram
