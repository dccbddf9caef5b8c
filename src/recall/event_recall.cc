#include "recall/event_recall.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "recall/dense_index.h"
#include "recall/match_expression.h"
#include "recall/score_fusion.h"
#include "recall/turn_scorer.h"
#include "text/injection_scanner.h"
#include "text/time_expression.h"
#include "util/best_first.h"
#include "util/time.h"
#include "util/utf8.h"

namespace engram {
namespace {

constexpr int kMaxRecallLimit = 1000;
constexpr size_t kMaxQueryBytes = 64 * 1024;
constexpr int kMaxBudgetTokens = 1000000;
// How many full-text hits session search looks through for distinct lineages (Hermes: 300).
constexpr int kSessionSearchPool = 300;

Status CheckQueryText(std::string_view text) {
  size_t bad = 0;
  if (!IsValidUtf8(text, &bad)) {
    return Status::InvalidArgument(fmt::format("field \"query\": is not valid UTF-8 (byte {})", bad));
  }
  if (text.size() > kMaxQueryBytes) {
    return Status::InvalidArgument(
        fmt::format("field \"query\": is {} bytes; the limit is {}", text.size(), kMaxQueryBytes));
  }
  return Status::Ok();
}

Result<int64_t> RequireNamespace(RecallContext& ctx, std::string_view name) {
  if (name.empty()) return Error(Status::InvalidArgument("field \"namespace\": is required"));
  auto ns = ctx.store.FindNamespace(name);
  if (!ns) return Error(ns.error());
  if (!ns->has_value()) {
    return Error(Status::NotFound(fmt::format("namespace \"{}\" does not exist", TruncateCodePoints(name, 80))));
  }
  return **ns;
}

// True when the day `m` bounds a range rather than naming the day itself: "after May 4th",
// "before", "since", "until", "till", "by", "from", or "5月4日之后/以后/之前/以前/以来/起". Such a
// day is not a one-day filter (the answer lies outside it); it still boosts.
bool BoundsARange(std::string_view text, const text::TimeMention& m) {
  size_t end = std::min(m.byte_start, text.size());
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  size_t start = end;
  while (start > 0 && std::isalpha(static_cast<unsigned char>(text[start - 1]))) --start;
  std::string word(text.substr(start, end - start));
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view w : {"after", "before", "since", "until", "till", "by", "from"}) {
    if (word == w) return true;
  }
  const std::string_view rest = text.substr(std::min(m.byte_end, text.size()));
  for (std::string_view w : {"之后", "以后", "之前", "以前", "以来", "起", "前", "后"}) {
    if (rest.substr(0, w.size()) == w) return true;
  }
  return false;
}

}  // namespace

RecallItem EventItem(Event event) {
  RecallItem item;
  item.id = std::move(event.id);
  item.text = std::move(event.content);
  item.occurred_at = event.occurred_at;
  item.recorded_at = event.recorded_at;
  item.session_id = std::move(event.session_id);
  item.speaker = std::move(event.speaker);
  item.role = std::move(event.role);
  item.metadata_json = std::move(event.metadata_json);
  return item;
}

bool LooksLikeInstruction(const RecallContext& ctx, std::string_view text) {
  return ctx.looks_like_instruction ? ctx.looks_like_instruction(text) : text::LooksLikeInstruction(text);
}

Status ValidateRecallQuery(const RecallQuery& query) {
  if (query.namespace_name.empty()) return Status::InvalidArgument("field \"namespace\": is required");
  for (auto [field, value] : {std::pair{"namespace", &query.namespace_name}, std::pair{"session_id", &query.session_id}}) {
    size_t bad = 0;
    if (!IsValidUtf8(*value, &bad)) {
      return Status::InvalidArgument(fmt::format("field \"{}\": is not valid UTF-8 (byte {})", field, bad));
    }
  }
  ENGRAM_RETURN_IF_ERROR(CheckQueryText(query.text));
  if (query.limit < 1 || query.limit > kMaxRecallLimit) {
    return Status::InvalidArgument(
        fmt::format("field \"limit\": {} is outside 1–{}", query.limit, kMaxRecallLimit));
  }
  if (query.budget_tokens < 0 || query.budget_tokens > kMaxBudgetTokens) {
    return Status::InvalidArgument(fmt::format("field \"budget_tokens\": {} is outside 0–{}",
                                               query.budget_tokens, kMaxBudgetTokens));
  }
  if (query.utc_offset_minutes < kMinUtcOffsetMinutes || query.utc_offset_minutes > kMaxUtcOffsetMinutes) {
    return Status::InvalidArgument(fmt::format("field \"utc_offset_minutes\": {} is outside −720…840",
                                               query.utc_offset_minutes));
  }
  if (query.since && query.until && *query.since >= *query.until) {
    return Status::InvalidArgument("field \"since\": must be earlier than \"until\"");
  }
  return Status::Ok();
}

namespace {

std::atomic<size_t> exhaustive_match_rows{500};

// At most this many matching rows are scored per query (a bound on the cost of very common terms
// in huge namespaces; rows beyond it are not read).
constexpr size_t kMaxMatchedRows = 200000;
// A date the question names adds its events to the candidates when it holds at most this many
// (a day of conversation; LoCoMo sessions hold 10–50 turns, MemoryBank days 2–10 exchanges).
constexpr int kMaxDateCandidates = 200;
// The speaker channel's score for the events of a speaker the question names after another one
// (the first named scores 1). When a LoCoMo dev question names both speakers, 69% of its gold
// turns are the first-named speaker's (83 of 120); 0.5 against 1.0 (no difference) measured
// recall@5 0.715 vs 0.711 and recall@10 0.782 vs 0.780, no conversation losing (0.3: 0.715/0.781,
// 0: 0.713/0.781; bench/RESULTS.md, session 6).
constexpr double kLaterNamedSpeaker = 0.5;
// The pruned path bounds a pending row's speaker score by the namespace's speakers when it has at
// most this many (EventStore::NamespaceSpeakers; each costs a NamePosition per recall); with
// more, every pending row is given the full speaker weight.
constexpr size_t kMaxBoundedSpeakers = 1000;

// What recall needs of a speaker name: its query units (normalized, in order) and the index
// tokens of "name: ", the start of its events' indexed text (IndexedText; the space ends every
// word, so these tokens start the indexed text whatever follows).
struct NameAnalysis {
  std::vector<std::string> units;
  std::vector<std::string> prefix_tokens;
};

// The analysis of `name`, memoised per thread and analysis (a pure function of both; the pruned
// path asks it of every speaker of a namespace on every recall): at most 4096 names, all
// dropped when full. The reference is valid until the next call.
const NameAnalysis& AnalyseName(text::Analyzer& analyzer, const std::string& name) {
  constexpr size_t kMaxMemoNames = 4096;
  thread_local std::unordered_map<std::string, NameAnalysis> memo[2];
  auto& names = memo[analyzer.analysis() == TextAnalysis::kPlain ? 1 : 0];
  auto found = names.find(name);
  if (found != names.end()) return found->second;
  if (names.size() >= kMaxMemoNames) names.clear();
  NameAnalysis a;
  if (!name.empty()) {
    for (text::QueryTerm& u : analyzer.QueryTerms(name)) a.units.push_back(std::move(u.normalized));
    analyzer.Tokenize(name + ": ", text::TokenizeMode::kIndex,
                      [&](std::string_view t, int, int, bool) { a.prefix_tokens.emplace_back(t); });
  }
  return names.emplace(name, std::move(a)).first->second;
}

// Where the query names `name`: the index in `units` (the query's units in order of first
// appearance) of the first unit of its first full mention, or -1 when some unit of the name is
// missing. "Caroline" is named by "What did Caroline say?", "Mary Ann" needs both words.
int NamePosition(text::Analyzer& analyzer, const std::string& name,
                 const std::vector<text::QueryTerm>& query_units) {
  if (name.empty()) return -1;
  const std::vector<std::string>& units = AnalyseName(analyzer, name).units;
  if (units.empty()) return -1;
  int position = -1;
  for (const std::string& u : units) {
    auto it = std::find_if(query_units.begin(), query_units.end(),
                           [&](const text::QueryTerm& q) { return q.normalized == u; });
    if (it == query_units.end()) return -1;
    if (position < 0) position = static_cast<int>(it - query_units.begin());
  }
  return position;
}

// The NamePosition of the speaker named first among `named` (speaker → NamePosition), or -1.
int FirstNamedPosition(const std::map<std::string, int>& named) {
  int first = -1;
  for (const auto& [name, position] : named) {
    if (position >= 0 && (first < 0 || position < first)) first = position;
  }
  return first;
}

// A speaker the query names, for the pruned path's bound of the speaker channel.
struct NamedSpeaker {
  int position = -1;  // NamePosition in the query
  // The match expression's phrases (indices) among the index tokens of "speaker: ", the start
  // of each of its events' indexed text (IndexedText): every event of this speaker holds them.
  std::vector<uint32_t> phrases;
};

// The speakers of `speakers` that the query (its `units`) names, each with the phrases of
// `terms` (the match expression's, one token each) that its events' indexed text holds.
std::vector<NamedSpeaker> NamedSpeakers(text::Analyzer& analyzer, const std::vector<std::string>& speakers,
                                        const std::vector<text::QueryTerm>& units,
                                        const std::vector<std::string>& terms) {
  std::vector<NamedSpeaker> out;
  for (const std::string& speaker : speakers) {
    const int position = NamePosition(analyzer, speaker, units);
    if (position < 0) continue;
    const std::vector<std::string>& tokens = AnalyseName(analyzer, speaker).prefix_tokens;
    NamedSpeaker n;
    n.position = position;
    for (uint32_t k = 0; k < terms.size(); ++k) {
      if (std::find(tokens.begin(), tokens.end(), terms[k]) != tokens.end()) n.phrases.push_back(k);
    }
    out.push_back(std::move(n));
  }
  return out;
}

// The seqs of `seqs` (sorted) that are not rows of `matches`. ScoreTurns skips an extra
// candidate that is a matching row (every matching row is a candidate already), so reading such
// events (EventStore::Locate) is wasted. FTS5 returns rows in rowid order; were they not sorted,
// every seq is kept (the same candidates, only slower).
std::vector<int64_t> SeqsNotMatched(const std::vector<int64_t>& seqs, const sqlite::TermMatchSet& matches) {
  auto by_seq = [](const sqlite::TermMatchRow& a, const sqlite::TermMatchRow& b) { return a.seq < b.seq; };
  if (!std::is_sorted(matches.rows.begin(), matches.rows.end(), by_seq)) return seqs;
  std::vector<int64_t> out;
  out.reserve(seqs.size());
  auto row = matches.rows.begin();
  for (int64_t seq : seqs) {
    while (row != matches.rows.end() && row->seq < seq) ++row;
    if (row == matches.rows.end() || row->seq != seq) out.push_back(seq);
  }
  return out;
}

}  // namespace

size_t ExhaustiveMatchRows() { return exhaustive_match_rows.load(std::memory_order_relaxed); }

void SetExhaustiveMatchRowsForTesting(size_t rows) {
  exhaustive_match_rows.store(std::max<size_t>(rows, 1), std::memory_order_relaxed);
}

Result<RecallResult> RecallEvents(RecallContext& ctx, const RecallQuery& query,
                                  const EventHitFilter* hit_filter, const ClaimKeysOfEvents* claim_keys,
                                  const std::vector<text::QueryTerm>* given_units,
                                  std::vector<EventItemFacts>* facts) {
  // Ties: for a question about now, the newest event first (the latest statement of a state is
  // the current one); for a question about the past or a time, the oldest.
  const bool newest_first = !query.include_history && !query.as_of && !query.known_as_of;
  auto started = std::chrono::steady_clock::now();
  ENGRAM_RETURN_IF_ERROR(ValidateRecallQuery(query));
  const RecallWeights& weights = ctx.options.recall;
  RecallResult result;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    auto ns = RequireNamespace(ctx, query.namespace_name);
    if (!ns) return ns.error();
    sqlite::SearchFilter filter;
    filter.namespace_id = *ns;
    filter.since = query.since;
    filter.until = query.until;
    if (!query.session_id.empty()) {
      auto session = ctx.store.FindSession(*ns, query.session_id);
      if (!session) return session.error();
      if (!session->has_value()) {
        return Status::NotFound(fmt::format("session \"{}\" does not exist in namespace \"{}\"",
                                            TruncateCodePoints(query.session_id, 80),
                                            query.namespace_name));
      }
      filter.session_rowid = **session;
    }
    std::vector<text::QueryTerm> own_units;
    if (given_units == nullptr) own_units = ctx.analyzer.QueryTerms(query.text);
    const std::vector<text::QueryTerm>& units = given_units != nullptr ? *given_units : own_units;
    MatchExpression match = BuildMatchExpression(units, query.match);
    result.terms = match.terms;
    if (match.fts5.empty()) return Status::Ok();
    // The first rows with their events (every row of a small namespace); past that, the pruned
    // path: postings only, events read where a row can still matter (PendingMatches).
    const size_t exhaustive_rows = std::min(ExhaustiveMatchRows(), kMaxMatchedRows);
    auto matches = ctx.store.MatchTermCounts(match.fts5, filter, exhaustive_rows);
    if (!matches) return matches.error();
    std::optional<PendingMatches> pending;
    if (matches->stopped_at_max && !matches->rows.empty()) {
      auto range = ctx.store.NamespaceSeqRange(*ns);
      if (!range) return range.error();
      const int64_t last_seq = range->has_value() ? (*range)->second : 0;
      auto more = ctx.store.MatchPostings(match.fts5, *ns, matches->rows.back().seq, last_seq,
                                          kMaxMatchedRows - matches->rows.size());
      if (!more) return more.error();
      if (!more->seqs.empty()) pending.emplace(std::move(*more), filter, ctx.options.bm25_k1, ctx.options.bm25_b);
    }
    const size_t matched_rows = matches->rows.size() + (pending ? pending->postings.seqs.size() : 0);
    // The dense channel: the cosine of every event vector with the query's; the best `pool`
    // events join the candidates (unless the fit admits none: DenseQuery::admits_candidates).
    std::vector<float> cosine;
    const DenseMatrix* matrix = ctx.dense != nullptr && weights.dense > 0 ? ctx.dense->matrix : nullptr;
    // Events other channels found: by vectors or a named date (with window scores of their own,
    // read around them), by claims (candidates only: reading a window around each claim's
    // evidence cost more than it found on LoCoMo).
    std::vector<int64_t> found_elsewhere;
    std::vector<int64_t> found_by_claims;
    if (claim_keys != nullptr && weights.claims > 0) {
      for (const auto& [seq, score] : claim_keys->score) found_by_claims.push_back(seq);
      std::sort(found_by_claims.begin(), found_by_claims.end());
    }
    // The date channel: the events of a date the question names join the candidates when the
    // date holds few enough events to list ("what did we talk about on May 4th?" shares no word
    // with its answers); a broader range ("in 2023") only boosts.
    std::vector<text::TimeMention> times;
    const TimestampMs asked_at = query.now.value_or(NowMs());
    if (weights.date > 0) times = text::FindTimeMentions(query.text, asked_at, query.utc_offset_minutes);
    // A single named day that holds events is certain enough to filter by ("on May 4th", "5月4日",
    // "yesterday"); anything broader or ambiguous only boosts.
    std::optional<std::pair<TimestampMs, TimestampMs>> day_filter;
    // A named range holds too many events to list: some of them may stay pending rows.
    bool broad_time = false;
    std::unordered_set<int64_t> dated_to_day;  // events a claim dates to a day the question names
    for (text::TimeMention& m : times) {
      auto in_range = ctx.store.SeqsInTimeRange(*ns, m.start, m.end, kMaxDateCandidates);
      if (!in_range) return in_range.error();
      if (m.year_implied && m.start > asked_at && in_range->empty()) {
        // A date without a year still ahead this year holds nothing yet. The occurrence just
        // past is meant when it is the nearer one and holds events ("what did we watch on Dec
        // 31st?", asked on New Year's Day); a nearer coming date is a question about plans
        // ("where am I flying on May 4th?", asked in January) and stays.
        text::TimeMention earlier = text::PreviousYearOf(m, query.utc_offset_minutes);
        const bool past_is_nearer = asked_at - earlier.end < m.start - asked_at;
        auto earlier_range = past_is_nearer
                                 ? ctx.store.SeqsInTimeRange(*ns, earlier.start, earlier.end, kMaxDateCandidates)
                                 : Result<std::vector<int64_t>>(std::vector<int64_t>{});
        if (!earlier_range) return earlier_range.error();
        if (!earlier_range->empty()) {
          m = std::move(earlier);
          in_range = std::move(earlier_range);
        }
      }
      if (in_range->size() <= static_cast<size_t>(kMaxDateCandidates)) {
        found_elsewhere.insert(found_elsewhere.end(), in_range->begin(), in_range->end());
      } else {
        broad_time = true;
      }
      // Events a claim dates to this day though they were written on another ("I visited Lisbon
      // yesterday", said the day after: B35) are the day's events too.
      if (m.precision == text::TimeMention::Precision::kDay) {
        auto dated = ctx.claims.EventsDatedIn(*ns, m.start, m.end, kMaxDateCandidates);
        if (!dated) return dated.error();
        found_elsewhere.insert(found_elsewhere.end(), dated->begin(), dated->end());
        dated_to_day.insert(dated->begin(), dated->end());
        if (!dated->empty()) in_range->push_back(dated->front());  // the day holds events
      }
      if (times.size() == 1 && m.precision == text::TimeMention::Precision::kDay && !in_range->empty() &&
          weights.filter_named_day && !BoundsARange(query.text, m)) {
        day_filter = {m.start, m.end};
      }
    }
    if (matrix != nullptr) {
      const size_t rows = matrix->seqs.size();
      const auto dim = static_cast<size_t>(matrix->dim);
      cosine.resize(rows);
      for (size_t r = 0; r < rows; ++r) {
        cosine[r] = providers::Dot(ctx.dense->vector.data(), matrix->values.data() + r * dim, dim);
      }
      std::vector<size_t> best(rows);
      for (size_t r = 0; r < rows; ++r) best[r] = r;
      const size_t pool = std::min(rows, static_cast<size_t>(std::max(weights.window_pool, query.limit)));
      SortBest(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(pool), best.end(),
               [&](size_t a, size_t b) { return cosine[a] != cosine[b] ? cosine[a] > cosine[b] : a < b; });
      for (size_t i = 0; i < pool && ctx.dense->admits_candidates; ++i) {
        if (!(cosine[best[i]] > 0)) break;
        found_elsewhere.push_back(matrix->seqs[best[i]]);
      }
    }
    std::sort(found_elsewhere.begin(), found_elsewhere.end());
    found_elsewhere.erase(std::unique(found_elsewhere.begin(), found_elsewhere.end()), found_elsewhere.end());
    auto extra_centres = ctx.store.Locate(found_elsewhere);
    if (!extra_centres) return extra_centres.error();
    auto extra_candidates = ctx.store.Locate(SeqsNotMatched(found_by_claims, *matches));
    if (!extra_candidates) return extra_candidates.error();
    TurnScoring scoring;
    scoring.k1 = ctx.options.bm25_k1;
    scoring.b = ctx.options.bm25_b;
    scoring.window_radius = weights.window > 0 ? weights.window_radius : 0;
    scoring.reply = weights.reply > 0;
    scoring.pool = static_cast<size_t>(std::max(weights.window_pool, query.limit));
    if (pending) ENGRAM_RETURN_IF_ERROR(ResolvePool(ctx.store, scoring.pool, *matches, *pending));
    auto turns = ScoreTurns(ctx.store, *matches, scoring, *extra_centres, *extra_candidates,
                            pending ? &*pending : nullptr);
    if (!turns) return turns.error();
    result.stages.push_back({"matched", static_cast<int64_t>(matched_rows)});
    result.stages.push_back({"window", static_cast<int64_t>(turns->size())});
    // The window channel reaches events outside since/until and the session filter: drop them.
    // A named day keeps the events of that day, and those whose matching claim is dated to it.
    Status dated_status;
    auto outside_day = [&](const ScoredTurn& t) {
      if (!day_filter || (t.occurred_at >= day_filter->first && t.occurred_at < day_filter->second)) return false;
      if (dated_to_day.count(t.seq) > 0) return false;
      if (claim_keys == nullptr || !claim_keys->dated_in || claim_keys->score.count(t.seq) == 0) return true;
      auto dated = claim_keys->dated_in(t.seq, day_filter->first, day_filter->second);
      if (!dated) {
        dated_status = dated.error();
        return true;
      }
      return !*dated;
    };
    auto outside = [&](const ScoredTurn& t) {
      return (filter.session_rowid && t.session_rowid != *filter.session_rowid) ||
             (filter.since && t.occurred_at < *filter.since) ||
             (filter.until && t.occurred_at >= *filter.until) || outside_day(t);
    };
    turns->erase(std::remove_if(turns->begin(), turns->end(), outside), turns->end());
    if (!dated_status.ok()) return dated_status;
    if (day_filter) result.stages.push_back({"day_filter", static_cast<int64_t>(turns->size())});

    std::vector<ChannelScores> channels;
    std::vector<double> fused;
    std::vector<size_t> kept;
    std::map<std::string, int> speaker_named;  // speaker → NamePosition in the query
    // The hit filter's answers so far (seq → keep): rank runs again after pending rows are read.
    std::unordered_map<int64_t, bool> filtered;
    auto passes_filter = [&](int64_t seq) -> Result<bool> {
      if (hit_filter == nullptr) return true;
      auto known = filtered.find(seq);
      if (known == filtered.end()) {
        auto keep = hit_filter->keep(seq);
        if (!keep) return Error(keep.error());
        known = filtered.emplace(seq, *keep).first;
      }
      return known->second;
    };
    // Scores the candidates in `turns` by every channel, fuses them and keeps the best
    // query.limit that pass the hit filter.
    auto rank = [&]() -> Status {
      const size_t n = turns->size();
      std::vector<int64_t> candidate_seqs;
      candidate_seqs.reserve(n);
      for (const ScoredTurn& t : *turns) candidate_seqs.push_back(t.seq);
      auto utility = weights.feedback > 0 ? ctx.feedback.EventUtility(*ns, candidate_seqs)
                                          : Result<std::unordered_map<int64_t, double>>{};
      if (!utility) return utility.error();
      channels.assign(8, ChannelScores{});
      std::vector<int> speaker_position(n, -1);  // NamePosition of each candidate's speaker
      channels[0] = Channel("turn", weights.turn, n);
      channels[1] = Channel("window", weights.window, n);
      channels[2] = Channel("date", weights.date, n);
      channels[3] = Channel("speaker", weights.speaker, n);
      channels[4] = Channel("claims", claim_keys != nullptr ? weights.claims : 0.0, n);
      channels[5] = Channel("dense", matrix != nullptr ? weights.dense : 0.0, n, false);
      if (!cosine.empty()) {
        const auto [lo, hi] = std::minmax_element(cosine.begin(), cosine.end());
        channels[5].population_lo = *lo;
        channels[5].population_hi = *hi;
      }
      channels[6] = Channel("feedback", weights.feedback, n);
      channels[7] = Channel("reply", weights.reply, n);
      for (size_t i = 0; i < n; ++i) {
        const ScoredTurn& t = (*turns)[i];
        channels[0].scores[i] = t.turn;
        if (auto u = utility->find(t.seq); u != utility->end()) channels[6].scores[i] = u->second;
        if (claim_keys != nullptr) {
          auto key = claim_keys->score.find(t.seq);
          if (key != claim_keys->score.end()) channels[4].scores[i] = key->second;
        }
        channels[1].scores[i] = t.window;
        channels[7].scores[i] = t.reply;
        if (matrix != nullptr) {
          auto row = matrix->row_of.find(t.seq);
          if (row != matrix->row_of.end()) channels[5].scores[i] = cosine[row->second];
        }
        for (const text::TimeMention& m : times) {
          if (t.occurred_at >= m.start && t.occurred_at < m.end) channels[2].scores[i] = 1.0;
        }
        if (dated_to_day.count(t.seq) > 0) channels[2].scores[i] = 1.0;
        if (weights.speaker > 0) {
          auto it = speaker_named.find(t.speaker);
          if (it == speaker_named.end()) {
            it = speaker_named.emplace(t.speaker, NamePosition(ctx.analyzer, t.speaker, units)).first;
          }
          speaker_position[i] = it->second;
        }
      }
      if (weights.speaker > 0) {
        // The speaker named first is the question's subject ("What advice does Gina give to
        // Jon?"): 1 for that speaker's events, kLaterNamedSpeaker for a speaker named after.
        const int first = FirstNamedPosition(speaker_named);
        for (size_t i = 0; i < n; ++i) {
          const int position = speaker_position[i];
          channels[3].scores[i] = position < 0 ? 0.0 : position == first ? 1.0 : kLaterNamedSpeaker;
        }
      }
      fused = FuseNormalisedScores(channels);
      // The candidates with a fused score above 0 (0: found by no channel that tells candidates
      // apart), best first; sorted only as far as the kept items need, twice as far each time
      // the hit filter refuses too many.
      // (Each with its keys beside it: the selection does not chase ScoredTurns.)
      struct RankKey {
        double fused;
        int64_t seq;
        size_t at;
      };
      std::vector<RankKey> order;
      order.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        if (fused[i] > 0) order.push_back({fused[i], (*turns)[i].seq, i});
      }
      auto better = [&](const RankKey& a, const RankKey& b) {
        if (a.fused != b.fused) return a.fused > b.fused;
        return newest_first ? a.seq > b.seq : a.seq < b.seq;
      };
      const size_t limit = static_cast<size_t>(std::max(0, query.limit));
      kept.clear();
      size_t sorted = 0;
      for (size_t pos = 0; pos < order.size() && kept.size() < limit; ++pos) {
        if (pos == sorted) {
          sorted = std::min(order.size(), std::max(2 * sorted, limit));
          SortBest(order.begin() + static_cast<std::ptrdiff_t>(pos), order.begin() + static_cast<std::ptrdiff_t>(sorted),
                   order.end(), better);
        }
        const size_t i = order[pos].at;
        auto keep = passes_filter((*turns)[i].seq);
        if (!keep) return keep.error();
        if (!*keep) continue;
        kept.push_back(i);
      }
      return Status::Ok();
    };
    ENGRAM_RETURN_IF_ERROR(rank());
    if (pending) {
      // The pruned path: a pending row is neither in the pool nor within r of a centre nor another
      // channel's candidate, so its window, reply and claims scores are 0 and its turn is at most
      // the pool's worst. Its other channel scores are known (turn, dense) or bounded (speaker,
      // date, below), so the fused score it can reach is computed without its event, with the
      // very terms and order of FuseNormalisedScores (ChannelScale): it is read, and the
      // candidates ranked again, only when that score could place it before the last kept item
      // (a higher score, or the same and a seq that wins the tie). Exact, because no pending row can move a
      // channel's scale (turn: at most the best candidate's; date, speaker: 0/1, a first nonzero
      // one sets the scale to itself; dense: the population's; claims, window, reply: 0; a row
      // that could is read), except feedback ratings, which are not bounded here: a namespace
      // with ratings reads every pending row. While fewer than query.limit items are kept (every
      // candidate was taken, or the hit filter refused some), pending rows are read best bound
      // first, query.limit of them and twice as many each round, until the kept items are full.
      // A row to read whose score is bounded is first put to the hit filter, if any: one it
      // refuses is not read (never kept, it moves no scale nor the first named speaker). The
      // rounds end when one reads nothing.
      //
      // One channel depends on the other candidates: a row of a speaker named before every
      // speaker seen so far demotes those speakers to kLaterNamedSpeaker, whether or not that row
      // is kept itself. So every pending row that may be such a speaker's is read (a named
      // speaker's position before the first among the candidates, and the row holds its
      // phrases; any row when the namespace's speakers are not known).
      //
      // The speaker and date scores of a pending row are bounded per row, without its event:
      //   * speaker: its speaker is one of the namespace's (NamespaceSpeakers, a superset), and
      //     scores only when the query names it (NamePosition). The indexed text of an event
      //     starts with "speaker: ", so a row of a named speaker holds every phrase of the match
      //     expression that is a token of that prefix (NamedSpeaker::phrases; a name made of
      //     stopwords alone, which the expression leaves out, constrains nothing). A row's bound
      //     is the best score of a named speaker whose phrases it all holds: 1 when that
      //     speaker's position is at or before the first named speaker among the candidates (it
      //     may be or become the first), kLaterNamedSpeaker after it, 0 when there is none.
      //     Without the namespace's speakers (more than kMaxBoundedSpeakers, or a phrase count
      //     that does not match the expression's), 1.
      //   * date: the events of a named range of at most kMaxDateCandidates events are other
      //     channels' candidates already (found_elsewhere: read, or outside the filter), so only
      //     a broader range can give a pending row a date score.
      bool read_all = false;
      if (weights.feedback > 0) {
        auto any = ctx.feedback.HasRatings(*ns);
        if (!any) return any.error();
        read_all = *any;
      }
      const double date_bound = broad_time ? 1.0 : 0.0;
      // The named speakers a pending row may belong to (speakers_known), else any speaker.
      bool speakers_known = false;
      std::vector<NamedSpeaker> named;
      if (weights.speaker != 0 && !read_all && pending->postings.phrases == match.terms.size()) {
        auto speakers = ctx.store.NamespaceSpeakers(*ns, kMaxBoundedSpeakers);
        if (!speakers) return speakers.error();
        if (*speakers != nullptr) {
          speakers_known = true;
          named = NamedSpeakers(ctx.analyzer, **speakers, units, match.terms);
        }
      }
      auto holds = [&](size_t i, const NamedSpeaker& n) {
        const uint16_t* tf = pending->postings.Tf(i);
        return std::all_of(n.phrases.begin(), n.phrases.end(), [&](uint32_t k) { return tf[k] > 0; });
      };
      // The most a pending row's speaker score can reach, with `first` the NamePosition of the
      // first named speaker among the candidates (-1: none).
      auto speaker_bound = [&](size_t i, int first) -> double {
        if (!speakers_known) return 1.0;
        double best = 0;
        for (const NamedSpeaker& n : named) {
          if (!holds(i, n)) continue;
          best = std::max(best, first < 0 || n.position <= first ? 1.0 : kLaterNamedSpeaker);
          if (best >= 1.0) break;
        }
        return best;
      };
      // True when row i may be an event of a named speaker whose position is before `first`: its
      // event would demote the candidates of the first named speaker (see above).
      auto may_demote = [&](size_t i, int first) -> bool {
        if (weights.speaker == 0 || first <= 0) return false;
        if (!speakers_known) return true;
        return std::any_of(named.begin(), named.end(),
                           [&](const NamedSpeaker& n) { return n.position < first && holds(i, n); });
      };
      constexpr double kAny = std::numeric_limits<double>::infinity();  // cannot be bounded: read
      std::vector<ChannelScale> scales(channels.size());
      // The fused score pending row i can reach, kAny when it could move a channel's scale.
      auto reach = [&](size_t i, int first) -> double {
        double sum = 0;
        for (size_t c = 0; c < channels.size(); ++c) {
          const ChannelScores& ch = channels[c];
          if (ch.weight == 0 || ch.scores.empty()) continue;
          double v = 0;  // the row's score in the channel, or the bound of it
          if (c == 0) {
            v = pending->turn[i];
          } else if (c == 2 || c == 3) {
            // Only bounded (0 or 1 at most): the bound of the weighted term is at 0 for a
            // negative weight.
            if (ch.weight > 0) v = c == 2 ? date_bound : speaker_bound(i, first);
          } else if (c == 5) {
            auto row = matrix->row_of.find(pending->postings.seqs[i]);
            v = row != matrix->row_of.end() ? cosine[row->second] : 0.0;
          }
          const ChannelScale& scale = scales[c];
          if (ch.population_lo && ch.population_hi) {
            // A population's scale (dense): whatever the row's score.
            if (scale.range > 0) sum += ch.weight * (v - scale.lo) / scale.range;
            continue;
          }
          if (!(scale.range > 0)) {
            if (v == scale.lo) continue;  // as every candidate: adds nothing
            // A date or speaker score above the candidates' zeros sets the scale [0, v]: the
            // others still add 0 and this row the full weight.
            if ((c == 2 || c == 3) && scale.lo == 0 && v > 0) {
              sum += ch.weight * (v - 0.0) / (v - 0.0);
              continue;
            }
            return kAny;
          }
          if (!(v >= scale.lo && v <= scale.hi)) return kAny;  // outside the scale (or NaN)
          sum += ch.weight * (v - scale.lo) / scale.range;
        }
        return sum;
      };
      size_t batch = static_cast<size_t>(query.limit);  // rows read best-first while kept is short
      std::vector<bool> refused(pending->turn.size(), false);  // by the hit filter: not read
      std::vector<std::pair<double, size_t>> best_first;  // (reach, row)
      while (true) {
        const size_t before = turns->size();
        const int first = weights.speaker != 0 ? FirstNamedPosition(speaker_named) : -1;
        for (size_t c = 0; c < channels.size(); ++c) scales[c] = ScaleOf(channels[c]);
        const bool full = kept.size() >= static_cast<size_t>(query.limit);
        const double last = full ? fused[kept.back()] : 0.0;
        const int64_t last_seq = full ? (*turns)[kept.back()].seq : 0;
        // (row, bounded): a bounded row refused by the hit filter need not be read (it is never
        // kept, and moves no scale nor the first named speaker).
        std::vector<std::pair<size_t, bool>> to_read;
        best_first.clear();
        for (size_t i = 0; i < pending->turn.size(); ++i) {
          if (pending->state[i] != PendingMatches::State::kPending) continue;
          if (read_all || may_demote(i, first)) {  // (a refused row too: `first` may have moved)
            to_read.emplace_back(i, false);
            continue;
          }
          if (refused[i]) continue;
          const double r = reach(i, first);
          if (full) {
            const int64_t seq = pending->postings.seqs[i];
            if (r > last || (r == last && (newest_first ? seq > last_seq : seq < last_seq))) {
              to_read.emplace_back(i, r != kAny);
            }
          } else if (r > 0) {  // a fused score of 0 is never kept
            best_first.emplace_back(r, i);
          }
        }
        if (!best_first.empty()) {
          const size_t take = std::min(batch, best_first.size());
          SortBest(best_first.begin(), best_first.begin() + static_cast<std::ptrdiff_t>(take), best_first.end(),
                   [&](const auto& a, const auto& b) {
                     return a.first != b.first ? a.first > b.first : a.second < b.second;
                   });
          for (size_t k = 0; k < take; ++k) to_read.emplace_back(best_first[k].second, best_first[k].first != kAny);
          batch *= 2;
        }
        if (to_read.empty()) break;
        for (const auto& [i, bounded] : to_read) {
          if (bounded) {
            auto keep = passes_filter(pending->postings.seqs[i]);
            if (!keep) return keep.error();
            if (!*keep) {
              refused[i] = true;
              continue;
            }
          }
          auto t = pending->Resolve(ctx.store, i);
          if (!t) return t.error();
          if (t->has_value() && !outside(**t)) turns->push_back(std::move(**t));
          if (!dated_status.ok()) return dated_status;
        }
        if (turns->size() != before) ENGRAM_RETURN_IF_ERROR(rank());
      }
      // Matching rows whose event was read (with the first rows, alone, or in a session layout).
      int64_t unread = 0;
      for (PendingMatches::State st : pending->state) unread += st == PendingMatches::State::kPending ? 1 : 0;
      result.stages.push_back({"read", static_cast<int64_t>(matched_rows) - unread});
    }
    const size_t n = turns->size();
    result.stages.push_back({"fused", static_cast<int64_t>(n)});
    result.stages.push_back({"kept", static_cast<int64_t>(kept.size())});
    if (!kept.empty()) {
      const ScoredTurn& best = (*turns)[kept.front()];
      result.evidence_strength = std::max(best.turn_coverage, best.window_coverage);
    }
    std::vector<int64_t> seqs;
    seqs.reserve(kept.size());
    for (size_t i : kept) seqs.push_back((*turns)[i].seq);
    auto events = ctx.store.GetBySeqs(seqs);
    if (!events) return events.error();
    std::vector<std::vector<int>> ranks(channels.size());  // per channel of nonzero weight: per kept item
    for (size_t c = 0; c < channels.size(); ++c) {
      if (channels[c].weight != 0) ranks[c] = RanksInChannel(channels[c], kept);
    }
    for (size_t k = 0; k < kept.size(); ++k) {
      RecallItem item = EventItem(std::move((*events)[k]));
      item.score = fused[kept[k]];
      if (facts != nullptr) {
        const ScoredTurn& turn = (*turns)[kept[k]];
        facts->push_back({seqs[k], turn.phrases_held, std::max(turn.turn_coverage, turn.window_coverage)});
      }
      for (size_t c = 0; c < channels.size(); ++c) {
        const int rank = channels[c].weight != 0 ? ranks[c][k] : 0;
        if (rank > 0) item.channels.push_back({channels[c].name, rank, channels[c].scores[kept[k]]});
      }
      result.items.push_back(std::move(item));
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  result.took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return result;
}

Result<SessionSearchResult> SearchSessions(RecallContext& ctx, const SessionSearchQuery& query) {
  ENGRAM_RETURN_IF_ERROR(CheckQueryText(query.text));
  const int limit = std::clamp(query.limit, 1, 10);
  const int window = std::clamp(query.window, 1, 20);
  SessionSearchResult result;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    auto ns = RequireNamespace(ctx, query.namespace_name);
    if (!ns) return ns.error();
    std::optional<int64_t> current_root;
    std::optional<int64_t> current_session;
    if (!query.current_session_id.empty()) {
      auto cur = ctx.store.FindSession(*ns, query.current_session_id);
      if (!cur) return cur.error();
      if (cur->has_value()) {
        current_session = **cur;
        auto root = ctx.store.LineageRoot(**cur);
        if (!root) return root.error();
        current_root = *root;
      }
    }
    sqlite::SearchFilter filter;
    filter.namespace_id = *ns;
    std::vector<sqlite::SearchHit> hits;
    for (MatchMode mode : {MatchMode::kAll, MatchMode::kAny}) {
      MatchExpression match = BuildMatchExpression(ctx.analyzer, query.text, mode);
      result.terms = match.terms;
      if (match.fts5.empty()) return Status::Ok();
      auto found = ctx.store.Search(match.fts5, filter, kSessionSearchPool, ctx.options.bm25_k1,
                                    ctx.options.bm25_b);
      if (!found) return found.error();
      hits = std::move(*found);
      if (!hits.empty()) break;
    }

    // Resolve each hit's session and lineage; keep the best hit per lineage root.
    struct Candidate {
      sqlite::SearchHit hit;
      int64_t session_rowid;
      int64_t root;
      SessionInfo info;
    };
    std::vector<Candidate> regular, demoted;
    std::set<int64_t> seen_roots;
    for (const sqlite::SearchHit& hit : hits) {
      auto session_rowid = ctx.store.SessionRowidOfEvent(hit.seq);
      if (!session_rowid) return session_rowid.error();
      if (current_session && *session_rowid == *current_session) continue;
      auto root = ctx.store.LineageRoot(*session_rowid);
      if (!root) return root.error();
      if (current_root && *root == *current_root) continue;
      if (!seen_roots.insert(*root).second) continue;
      auto info = ctx.store.GetSession(*session_rowid);
      if (!info) return info.error();
      if (info->kind == "subagent") continue;
      Candidate c{hit, *session_rowid, *root, std::move(*info)};
      (c.info.kind == "cron" ? demoted : regular).push_back(std::move(c));
    }
    regular.insert(regular.end(), std::make_move_iterator(demoted.begin()),
                   std::make_move_iterator(demoted.end()));
    if (regular.size() > static_cast<size_t>(limit)) regular.resize(limit);

    for (Candidate& c : regular) {
      SessionSearchHit out;
      auto root_info = ctx.store.GetSession(c.root);
      if (!root_info) return root_info.error();
      out.lineage_root_id = root_info->id;
      auto match_event = ctx.store.GetBySeq(c.hit.seq);
      if (!match_event) return match_event.error();
      out.match_event_id = match_event->id;
      out.score = c.hit.score;
      auto pos = ctx.store.PositionInSession(c.hit.seq);
      if (!pos) return pos.error();
      auto [index, count] = *pos;
      int64_t offset = std::max<int64_t>(0, index - window);
      auto events = ctx.store.SessionEvents(c.session_rowid, offset, 2 * window + 1);
      if (!events) return events.error();
      out.window = std::move(*events);
      out.events_before = offset;
      out.events_after = std::max<int64_t>(0, count - offset - static_cast<int64_t>(out.window.size()));
      if (out.events_before > 0) {
        auto first = ctx.store.SessionEvents(c.session_rowid, 0, 1);
        if (!first) return first.error();
        if (!first->empty()) out.first_event = first->front();
      }
      if (out.events_after > 0) {
        auto last = ctx.store.SessionEvents(c.session_rowid, count - 1, 1);
        if (!last) return last.error();
        if (!last->empty()) out.last_event = last->front();
      }
      out.session = std::move(c.info);
      result.hits.push_back(std::move(out));
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return result;
}

}  // namespace engram
