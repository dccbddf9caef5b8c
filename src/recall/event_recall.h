// recall/event_recall.h — full-text recall over events and Hermes-style session search.
#ifndef ENGRAM_RECALL_EVENT_RECALL_H_
#define ENGRAM_RECALL_EVENT_RECALL_H_

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engram/options.h"
#include "engram/status.h"
#include "engram/types.h"
#include "store/sqlite/claim_store.h"
#include "store/sqlite/event_store.h"
#include "store/sqlite/feedback_store.h"
#include "text/analyzer.h"
#include "text/now_stance.h"

namespace engram {

struct DenseQuery;
namespace providers {
class RerankClient;
}

// An attribute a question names by a word ("role" in "What's Sarah's role?"): claims of
// `attribute` (with `slot`, when not empty) answer it (recall/asked_attribute.h).
struct AskedAttribute {
  std::string word;  // as the lexicon lists it, lower case
  std::string attribute;
  std::string slot;
};

// What recall needs from the engine; all references outlive the call.
struct RecallContext {
  sqlite::Database& db;
  sqlite::EventStore& store;
  sqlite::ClaimStore& claims;
  sqlite::FeedbackStore& feedback;
  text::Analyzer& analyzer;
  const Options& options;
  // The dense channel (recall/dense_index.h), or null when no embedder is set up or it is off.
  const DenseQuery* dense = nullptr;
  // The rerank stage (recall/recall.h), or null when no reranker is configured or the query turned
  // it off; `rerank_pool` items are sent (ResolveRerankOptions' value).
  const providers::RerankClient* reranker = nullptr;
  int rerank_pool = 20;
  // What a text says of how things stand now (the engine gives write/extraction/
  // change_statement.h's ReadNowStance), for current-first order (recall/current_first.h);
  // null = every text is plain.
  std::function<text::NowStance(std::string_view text)> now_stance;
  // The sentences of a text that state a change (write/extraction/change_statement.h's
  // ChangeSentences), for recall/newer_change.h; null = none.
  std::function<std::vector<std::string_view>(std::string_view text)> change_sentences;
  // True when every sentence of a text says how things are (the engine gives
  // write/extraction/change_statement.h's SaysOnlyWhatIs, with no word of what may be:
  // write/kin_change.h's SaysWhatMayBe), for current-first order; null = none does.
  std::function<bool(std::string_view text)> says_only_what_is;
  // The topics a text is about, sorted, each once (the engine gives
  // write/extraction/statement_topics.h's StatementTopics: "we relocated to Glasgow" →
  // "residence", "Postgres 16" → "version", "my brother quit his job" → text::kPersonTopic +
  // "brother"), for current-first order and the later-change search; null = none.
  std::function<std::vector<std::string>(std::string_view text)> topics_of;
  // The words of a topic (Lexicon::TopicWords), for the later-change search; null = none.
  std::function<std::vector<std::string>(std::string_view topic)> topic_words;
  // The attributes a question names (the engine gives Lexicon::NamedAttributes, attribute_words.tsv:
  // "What's Sarah's role?" → role, and job, which answers it too), for recall/asked_attribute.h;
  // null = none.
  std::function<std::vector<AskedAttribute>(std::string_view text)> asked_attributes;
  // Whether a text reads like an instruction (text::LooksLikeInstruction, which null means; the
  // engine gives its memo of it), for the items' "instruction_like" flag.
  std::function<bool(std::string_view text)> looks_like_instruction;
  // The words of a text that may be kin to another text's (providers::WordKin::KinCandidates),
  // and whether an older text's such words and a newer one's hold a pair of kin words
  // (WordKin::FindKin), and those of its words that a text writes as names (WordKin::KinNames), for
  // current-first order (recall/current_first.h) and the later-change search; null = no word
  // vectors.
  std::function<std::vector<std::string>(std::string_view text)> kin_words;
  std::function<bool(const std::vector<std::string>& older, const std::vector<std::string>& newer)> kin;
  std::function<std::vector<std::string>(std::string_view text)> kin_names;
};

// ctx.looks_like_instruction(text), or text::LooksLikeInstruction(text) when it is unset.
bool LooksLikeInstruction(const RecallContext& ctx, std::string_view text);

// An event as a recalled item of type "event" (score 0, no channels).
RecallItem EventItem(Event event);

// Drops candidates before their events are read: `keep` (run inside the same read transaction)
// decides for each, best first, until query.limit are kept.
struct EventHitFilter {
  std::function<Result<bool>(int64_t event_seq)> keep;
};

// The claims channel as keys of events: for each event, the best BM25 of the claims matching the
// query that were read from it (claims are short, normalised statements, so they match questions
// that the event's own words miss).
struct ClaimKeysOfEvents {
  std::unordered_map<int64_t, double> score;  // event seq → best matching claim's BM25
  // True when a matching claim read from the event is valid from a time in [start, end) (UTC ms):
  // a question naming one day keeps the event whose claim says it happened that day ("I went
  // hiking yesterday", said the day after). Unset = never. Runs inside RecallEvents' read
  // transaction. Errors: from the store.
  std::function<Result<bool>(int64_t event_seq, TimestampMs start, TimestampMs end)> dated_in;
};

// What recall knows of a returned event besides its RecallItem.
struct EventItemFacts {
  int64_t seq = 0;
  // Distinct search terms (RecallResult::terms) its indexed text holds — speaker, content and image
  // caption, so at least as many as its content alone holds.
  int phrases_held = 0;
  // Evidence strength: the share of the question's idf mass (0..1) in its text or its session
  // window (RecallResult::evidence_strength is the first event's).
  double strength = 0;
};

// The checks every recall runs first (namespace given, query text, limit, since/until); errors name the field.
Status ValidateRecallQuery(const RecallQuery& query);

// The event channels of recall, fused (see Engine::Recall and docs/retrieval.md): BM25 of each
// event (turn), of its session neighbourhood (window), the cosine of its vector with the query's
// (dense, when ctx.dense is set: its best window_pool events join the candidates), the dates and
// speakers the question names, and `claim_keys` when given. Returns events only, best first, each with its channels.
// `units`, when given, is ctx.analyzer.QueryTerms(query.text), computed once by the caller.
// `facts`, when given, receives one EventItemFacts per returned event, in the order of
// RecallResult::items.
Result<RecallResult> RecallEvents(RecallContext& ctx, const RecallQuery& query,
                                  const EventHitFilter* filter = nullptr,
                                  const ClaimKeysOfEvents* claim_keys = nullptr,
                                  const std::vector<text::QueryTerm>* units = nullptr,
                                  std::vector<EventItemFacts>* facts = nullptr);

// How many matching rows RecallEvents reads with their events (one joined FTS5 query) before it
// switches to the pruned path for the rest: their postings only (EventStore::MatchPostings), an
// event read only for a row that can still enter the pool of best turns, be a window neighbour or
// another channel's candidate, or reach the last kept item (recall/turn_scorer.h,
// PendingMatches). The pruned path returns the same items in the same order with the same scores;
// only the channel ranks of the items (RecallItem::channels) count the candidates that were read.
// Default 500 rows (above every LoCoMo and MemoryBank namespace).
size_t ExhaustiveMatchRows();
// For tests: sets ExhaustiveMatchRows (at least 1) for every later recall in the process.
void SetExhaustiveMatchRowsForTesting(size_t rows);

// See Engine::SearchSessions. Keyword semantics first (every term must occur in the event), then,
// when that finds nothing, any term ranked by BM25. Sessions of kind "subagent" are never searched
// and "cron" sessions rank after all others (Hermes session_search behaviour).
Result<SessionSearchResult> SearchSessions(RecallContext& ctx, const SessionSearchQuery& query);

}  // namespace engram

#endif  // ENGRAM_RECALL_EVENT_RECALL_H_
