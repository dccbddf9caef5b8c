#include "recall/recall.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <unicode/utf8.h>

#include "recall/asked_attribute.h"
#include "recall/claim_item.h"
#include "recall/context_packet.h"
#include "recall/current_first.h"
#include "recall/event_recall.h"
#include "recall/match_expression.h"
#include "recall/newer_change.h"
#include "recall/successor_hits.h"
#include "providers/rerank_client.h"
#include "util/time.h"
#include "text/injection_scanner.h"
#include "text/named_words.h"
#include "text/query_intent.h"
#include "text/script.h"
#include "text/speaker_reference.h"
#include "text/stopwords.h"
#include "text/time_expression.h"

namespace engram {
namespace {

constexpr double kRrfK = 60.0;  // Cormack, Clarke & Büttcher (SIGIR 2009)
// Claims matching the question whose evidence events get the claims channel's key.
constexpr int kClaimPool = 50;
// How many of the question's best events are looked at for stale evidence whose successors stand
// in its place (StaleEventSuccessorHits): a replaced statement the question matches is among its
// best events.
constexpr int kStaleEventPool = 10;

// How many of the question's distinct terms `text` holds: the tokens the analyzer makes of it as
// of a query (stems, CJK bigrams). (QueryTerms would also re-tokenize each unit alone to pick its
// surface, which this does not need and which cost 4× the walk.) The analyzer memoises each
// text's tokens: the same claims and events come back for many questions.
size_t TermsHeld(text::Analyzer& analyzer, std::string_view text,
                 const std::set<std::string, std::less<>>& question) {
  size_t held = 0;
  for (const std::string& token : analyzer.QueryTokenSet(text)) held += question.count(token);
  return held;
}

// A question about how things stand now: no marker of the past (text/query_intent.h) and no time
// named that has ended ("我4月30号为什么…", "on May 2nd": about that day, not about now).
bool AsksAboutNow(const RecallQuery& query) {
  if (!text::AsksAboutPresentState(query.text)) return false;
  const TimestampMs now = query.now.value_or(NowMs());
  for (const text::TimeMention& m : text::FindTimeMentions(query.text, now, query.utc_offset_minutes)) {
    if (m.end <= now) return false;
  }
  return true;
}

// The events that supported the claim `replaced_id` (a claim the item superseded); none when it
// cannot be read.
Result<std::vector<std::string>> ReplacedEvidence(sqlite::ClaimStore& claims, const std::string& replaced_id) {
  auto old = claims.Get(replaced_id);
  if (!old) return old.error().code() == StatusCode::kNotFound ? Result<std::vector<std::string>>{} : Error(old.error());
  std::vector<std::string> ids;
  for (const EvidenceRef& e : old->claim.evidence) {
    if (e.relation == "supports") ids.push_back(e.event_id);
  }
  return ids;
}

bool IsContentTerm(const std::string& term) { return !text::IsFunctionTerm(term); }

// The conflict keys of the single-valued facts read from an item (CurrentFirstKey::Facts): a
// claim's own (`slot`), an event's claims'. A store error is kept in `*error` (the first only)
// and reads as none.
std::vector<std::string> FactsReadFrom(RecallContext& ctx, const RecallItem& item, const std::string& slot,
                                       Status& error) {
  if (item.type == "claim") return slot.empty() ? std::vector<std::string>{} : std::vector<std::string>{slot};
  std::vector<std::string> facts;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    auto keys = ctx.claims.ConflictKeysReadFrom(item.id);
    if (!keys) return keys.error();
    facts = std::move(*keys);
    return Status::Ok();
  });
  if (!st.ok() && error.ok()) error = st;
  std::sort(facts.begin(), facts.end());
  return facts;
}

// True when `text` (UTF-8) holds a CJK character (text/script.h).
bool HasCjk(std::string_view text) {
  for (int32_t i = 0, n = static_cast<int32_t>(text.size()); i < n;) {
    UChar32 c = 0;
    U8_NEXT(text.data(), i, n, c);
    if (c > 0 && text::IsCjk(c)) return true;
  }
  return false;
}

// The content terms (not text::IsFunctionTerm) of `texts` as a query would search them, sorted,
// each once.
std::vector<std::string> ContentTermsOf(text::Analyzer& analyzer, const std::vector<std::string_view>& texts) {
  std::vector<std::string> terms;
  for (std::string_view text : texts) {
    for (const std::string& token : analyzer.QueryTokenSet(text)) {
      if (IsContentTerm(token)) terms.push_back(token);
    }
  }
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  return terms;
}

// The content terms of the words `text` writes as names or numbers (text::NamedWords), as a query
// would search them, sorted, each once.
std::vector<std::string> NamedTermsOf(text::Analyzer& analyzer, std::string_view text) {
  const std::vector<std::string> words = text::NamedWords(text);
  std::vector<std::string_view> views(words.begin(), words.end());
  return ContentTermsOf(analyzer, views);
}

// True when `item` is a claim its extractor qualified as denied, planned, past, hypothetical or
// reported ("user does not use Firefox [negated]" of "I'd never switch to Firefox", "user uses
// Safari" of "Switched to Safari lol jk", "Python version 3.13" of 有人喊“都升 3.13 吧”): whatever its words, it is no value of
// its slot now, so it passes nothing in current-first order (and an older fact of its slot passes
// it).
bool SaysNothingOfNow(const RecallItem& item) {
  if (item.type != "claim") return false;
  return std::any_of(item.qualifiers.begin(), item.qualifiers.end(),
                     [](const std::string& q) {
                       return q == "negated" || q == "planned" || q == "past" || q == "hypothetical" || q == "reported";
                     });
}

// Current-first order (recall/current_first.h) of the items and their parallel strengths;
// `slots[i]` is item i's ClaimSlot (empty for events; the vector may be shorter than `items`).
Status OrderCurrentFirst(RecallContext& ctx, std::string_view question_text,
                         const std::set<std::string, std::less<>>& question, bool by_topic_words,
                         const std::vector<ClaimSlot>& slots, std::vector<RecallItem>& items,
                         std::vector<double>& strength) {
  text::Analyzer& analyzer = ctx.analyzer;
  Status read_error = Status::Ok();  // the first error of a key's read_facts
  std::vector<CurrentFirstKey> keys;
  keys.reserve(items.size());
  const std::vector<std::string> asked_kin_words = ctx.kin_words ? ctx.kin_words(question_text) : std::vector<std::string>{};
  for (size_t i = 0; i < items.size(); ++i) {
    const RecallItem& item = items[i];
    CurrentFirstKey key = CurrentFirstKeyOf(item);
    if (i < slots.size()) key.slot = slots[i].conflict_key;
    key.kept_whole = item.type == "claim" && item.predicate == "explicit_memory";
    if (i < slots.size() && !slots[i].replaced_id.empty()) {
      Status st = ctx.db.ReadTransaction([&]() -> Status {
        auto ids = ReplacedEvidence(ctx.claims, slots[i].replaced_id);
        if (!ids) return ids.error();
        key.replaced_events = std::move(*ids);
        return Status::Ok();
      });
      if (!st.ok()) return st;
    }
    for (const std::string& token : analyzer.QueryTokenSet(item.text)) {
      if (question.count(token) > 0) key.held.push_back(token);
    }
    if (ctx.now_stance) {
      key.read_stance = [&stance = ctx.now_stance, &item] { return stance(StatementOf(item)); };
    }
    if (SaysNothingOfNow(item)) key.read_stance = [] { return text::NowStance::kNotNow; };
    if (ctx.says_only_what_is && !SaysNothingOfNow(item)) {
      key.read_only_what_is = [&only = ctx.says_only_what_is, &item] { return only(StatementOf(item)); };
    }
    if (ctx.topics_of) key.read_topics = [&ctx, &item] { return ItemTopics(ctx.topics_of, item); };
    key.read_facts = [&ctx, &item, &read_error, slot = key.slot] { return FactsReadFrom(ctx, item, slot, read_error); };
    key.terms.read = [&analyzer, &item] { return ContentTermsOf(analyzer, {StatementOf(item)}); };
    if (item.type == "claim") key.value_terms.read = [&analyzer, &item] { return ContentTermsOf(analyzer, {item.value}); };
    if (ctx.kin_words) {
      key.kin_words.read = [&ctx, &item, &asked_kin_words] {
        std::vector<std::string> words = ctx.kin_words(item.type == "claim" ? std::string_view(item.value) : StatementOf(item));
        std::erase_if(words, [&](const std::string& w) {
          return std::binary_search(asked_kin_words.begin(), asked_kin_words.end(), w);
        });
        return words;
      };
    }
    if (ctx.change_sentences) {
      key.changed_terms.read = [&ctx, &item] { return ContentTermsOf(ctx.analyzer, ctx.change_sentences(StatementOf(item))); };
    }
    std::sort(key.held.begin(), key.held.end());
    key.held.erase(std::unique(key.held.begin(), key.held.end()), key.held.end());
    key.content_held = static_cast<size_t>(std::count_if(key.held.begin(), key.held.end(), IsContentTerm));
    keys.push_back(std::move(key));
  }
  QuestionTermCount count{question.size(),
                          static_cast<size_t>(std::count_if(question.begin(), question.end(), IsContentTerm))};
  if (HasCjk(question_text) || by_topic_words) {
    // A CJK question is searched by its character bigrams, and those across a word boundary (舅现
    // and 住哪 of 我舅舅现在住哪儿) are in no statement: only the terms some recalled item holds
    // are counted. (An English question's words are words: on LoCoMo dev the same count moved
    // recall_any@5 0.791 → 0.789; on the held-out Chinese cases of v3 it moved current value first
    // 22 → 29 of 44.) So is a question searched by the words of its topics (FindRecallCandidates):
    // no item holds the question's own words, and no item all the words of its topics.
    std::set<std::string> held_by_some;
    for (const CurrentFirstKey& key : keys) held_by_some.insert(key.held.begin(), key.held.end());
    count.all = held_by_some.size();
    count.content = static_cast<size_t>(std::count_if(held_by_some.begin(), held_by_some.end(), IsContentTerm));
  }
  if (ctx.topics_of) count.topics = ctx.topics_of(question_text);
  count.named = NamedTermsOf(analyzer, question_text);
  count.kin = ctx.kin;
  std::vector<size_t> order = CurrentFirstOrder(keys, count);
  if (!read_error.ok()) return read_error;
  std::vector<RecallItem> items_in_order;
  std::vector<double> strength_in_order;
  items_in_order.reserve(items.size());
  for (size_t i : order) {
    items_in_order.push_back(std::move(items[i]));
    strength_in_order.push_back(i < strength.size() ? strength[i] : 0.0);
  }
  items = std::move(items_in_order);
  strength = std::move(strength_in_order);
  return Status::Ok();
}

// The text a reranker reads for an item: what a reader of the packet sees first — an event's
// "speaker: content" (the form the full-text index holds), a claim's text.
// True when `item` is a standing claim of an attribute the question names about whom it asks
// (recall/asked_attribute.h: "user lives in Munich" for "What city am I based in?"), holds at
// least half of the question's content terms (text::IsFunctionTerm), or
// one of them and a topic of the question (RecallContext::topics_of: "我每天早上都喝一杯拿铁" for
// "我早上喝什么？", whose bigrams 上喝 and 喝什 no statement holds): the statement it answers
// with is about what the question asks, so a change of it is too.
bool AnswersTheQuestion(RecallContext& ctx, const RecallItem& item, std::string_view question_text,
                        const std::set<std::string, std::less<>>& question) {
  if (AnswersAskedAttribute(ctx, question_text, question, item)) return true;
  size_t content = 0, held = 0;
  for (const std::string& term : question) content += IsContentTerm(term) ? 1 : 0;
  for (const std::string& token : ctx.analyzer.QueryTokenSet(item.text)) {
    held += question.count(token) > 0 && IsContentTerm(token) ? 1 : 0;
  }
  if (held == 0) return false;
  if (2 * held >= content) return true;
  if (!ctx.topics_of) return false;
  const std::vector<std::string> asked = ctx.topics_of(question_text);
  for (const std::string& topic : ItemTopics(ctx.topics_of, item)) {
    if (!text::IsWhoTopic(topic) && std::binary_search(asked.begin(), asked.end(), topic)) return true;
  }
  return false;
}

// `ctx` as current-first order reads statements for `query`: for a question about how things
// usually are (text::AsksAboutTheUsual), a temporary change says nothing of it; a state said with
// its end (kBounded) answers only a question that names the present (text::NamesThePresent) and
// not one about the usual.
RecallContext ForTheQuestion(const RecallContext& ctx, const RecallQuery& query) {
  RecallContext for_question = ctx;
  if (!ctx.now_stance) return for_question;
  const bool usual = text::AsksAboutTheUsual(query.text);
  const bool present = !usual && text::NamesThePresent(query.text);
  for_question.now_stance = [stance = ctx.now_stance, usual, present](std::string_view text) {
    const text::NowStance s = stance(text);
    if (s == text::NowStance::kTemporary && usual) return text::NowStance::kNotNow;
    if (s == text::NowStance::kBounded) return present ? text::NowStance::kTemporary : text::NowStance::kNotNow;
    return s;
  };
  return for_question;
}

// Puts the newer change of the first item (recall/newer_change.h) above it: moved up when it is
// already among `items`, else added with the first item's strength (it answers the question
// through the statement it changes).
Status PlaceNewerChangeFirst(RecallContext& ctx, const RecallQuery& query,
                             const std::set<std::string, std::less<>>& question, std::vector<RecallItem>& items,
                             std::vector<double>& strength) {
  if (items.empty() || !AnswersTheQuestion(ctx, items.front(), query.text, question)) return Status::Ok();
  auto newer = FindNewerChange(ctx, query, items.front());
  if (!newer) return newer.error();
  if (!newer->has_value()) return Status::Ok();
  const double first_strength = strength.empty() ? 0.0 : strength.front();
  auto same = std::find_if(items.begin(), items.end(), [&](const RecallItem& i) { return i.id == (*newer)->id; });
  if (same != items.end()) {
    const auto at = same - items.begin();
    std::rotate(items.begin(), same, same + 1);
    if (static_cast<size_t>(at) < strength.size()) std::rotate(strength.begin(), strength.begin() + at, strength.begin() + at + 1);
    return Status::Ok();
  }
  RecallItem& item = **newer;
  if (LooksLikeInstruction(ctx, item.text)) {  // as every other item (docs/retrieval.md)
    if (query.exclude_instruction_like) return Status::Ok();
    item.flags.push_back("instruction_like");
  }
  items.insert(items.begin(), std::move(item));
  strength.insert(strength.begin(), first_strength);
  return Status::Ok();
}

std::string RerankText(const RecallItem& item) {
  if (item.type != "claim" && !item.speaker.empty()) return item.speaker + ": " + item.text;
  return item.text;
}

}  // namespace

Result<RecallResult> Recall(RecallContext& ctx, const RecallQuery& query) {
  auto candidates = FindRecallCandidates(ctx, query);
  if (!candidates) return Error(candidates.error());
  if (ctx.reranker != nullptr) RerankCandidates(*ctx.reranker, ctx.rerank_pool, *candidates);
  return FinishRecall(std::move(*candidates));
}

void RerankCandidates(const providers::RerankClient& reranker, int max_pool, RecallCandidates& candidates) {
  const auto started = std::chrono::steady_clock::now();
  RecallResult& result = candidates.result;
  RerankReport& report = result.rerank;
  report.model = reranker.options().endpoint.model;
  const size_t pool = std::min(result.items.size(), static_cast<size_t>(std::max(1, max_pool)));
  report.pool = static_cast<int>(pool);
  if (pool == 0) {
    report.status = "skipped";
    report.reason = "no items";
    return;
  }
  std::vector<std::string> documents;
  documents.reserve(pool);
  for (size_t i = 0; i < pool; ++i) documents.push_back(RerankText(result.items[i]));
  auto reply = reranker.Rerank(candidates.query.text, documents);
  report.took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (!reply) {
    report.status = "skipped";
    report.reason = reply.error().message();
    result.warnings.push_back("rerank skipped: " + report.reason + " (the fused order is kept)");
    return;
  }
  std::vector<size_t> order(pool);
  for (size_t i = 0; i < pool; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return reply->scores[a] > reply->scores[b]; });
  std::vector<RecallItem> reordered;
  std::vector<double> strength;
  reordered.reserve(pool);
  strength.reserve(pool);
  for (size_t rank = 0; rank < pool; ++rank) {
    RecallItem& item = result.items[order[rank]];
    item.channels.push_back({"rerank", static_cast<int>(rank + 1), reply->scores[order[rank]]});
    reordered.push_back(std::move(item));
    strength.push_back(candidates.strength[order[rank]]);
  }
  std::move(reordered.begin(), reordered.end(), result.items.begin());
  std::copy(strength.begin(), strength.end(), candidates.strength.begin());
  report.status = "applied";
  result.stages.push_back({"rerank", static_cast<int64_t>(pool)});
}

RecallResult FinishRecall(RecallCandidates candidates) {
  RecallResult result = std::move(candidates.result);
  const RecallQuery& query = candidates.query;
  if (result.items.size() > static_cast<size_t>(query.limit)) result.items.resize(query.limit);
  // The packet's answer is about its first item, whatever put it there.
  if (!result.items.empty()) result.evidence_strength = candidates.strength.front();
  for (RecallItem& item : result.items) item.feedback_id = MakeFeedbackId(item, query.text);
  PackContext(result, query.budget_tokens);
  result.stages.push_back({"packed", static_cast<int64_t>(result.items.size())});
  result.took_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - candidates.started).count();
  return result;
}

namespace {

// The candidates for `asked`, its events and claims searched by `search_text` ("" = asked.text):
// the question's words, or those and the words of its topics. What the question asks (about now,
// the past, the usual) is read from asked.text only: the topic words of "Where do I live?"
// ("lived", "moved to") are no question about the past.
Result<RecallCandidates> FindCandidatesOnce(RecallContext& ctx, const RecallQuery& asked, std::string_view search_text = {});

// The question with the words of its topics (topics.tsv) after it: "Where do I live currently?"
// and "We rent a little house in Austin", "since Monday my address is in Denver" share no word, but
// "rent" and "address" are words of residence, the question's topic. "" when the question names
// no topic or the context gives no topics.
std::string WithTopicWords(const RecallContext& ctx, std::string_view question) {
  if (!ctx.topics_of || !ctx.topic_words) return "";
  std::string widened;
  for (const std::string& topic : ctx.topics_of(question)) {
    for (const std::string& word : ctx.topic_words(topic)) widened += " " + word;
  }
  return widened.empty() ? "" : std::string(question) + widened;
}

}  // namespace

// A question whose words find nothing is asked again with the words of its topics (session 28):
// an agent asking where the user lives should hear what the user said of their home in other
// words, not nothing. Only for ranked matching (kAny); the items say so in a warning.
Result<RecallCandidates> FindRecallCandidates(RecallContext& ctx, const RecallQuery& given) {
  // "Where does the user live?" asks what "Where do I live?" asks (text/speaker_reference.h).
  RecallQuery asked = given;
  asked.text = text::SpeakerInTheFirstPerson(given.text);
  auto found = FindCandidatesOnce(ctx, asked);
  if (found) found->query.text = given.text;
  if (!found || !found->result.items.empty() || asked.match != MatchMode::kAny) return found;
  const std::string widened = WithTopicWords(ctx, asked.text);
  if (widened.empty()) return found;
  auto topical = FindCandidatesOnce(ctx, asked, widened);
  if (!topical || topical->result.items.empty()) return found;
  topical->query.text = given.text;
  topical->result.warnings.push_back("no item holds a word of the question; found by the words of its topics");
  topical->result.stages.push_back({"topic_words", static_cast<int64_t>(topical->result.items.size())});
  return topical;
}

namespace {

Result<RecallCandidates> FindCandidatesOnce(RecallContext& ctx, const RecallQuery& asked, std::string_view search_text) {
  auto started = std::chrono::steady_clock::now();
  ENGRAM_RETURN_IF_ERROR(ValidateRecallQuery(asked));
  const bool temporal = asked.as_of.has_value() || asked.known_as_of.has_value();
  // A question about the past ("where did I live before?") sees replaced claims and their
  // evidence, as --include-history does.
  RecallQuery query = asked;
  const bool history_intent = !temporal && !asked.include_history && text::AsksAboutHistory(asked.text);
  if (history_intent) query.include_history = true;
  const bool hide_stale = !query.include_history && !temporal;
  // With a reranker, the stage looks as deep as its pool; the list is cut to the limit after it.
  const int candidate_limit =
      ctx.reranker != nullptr ? std::max(query.limit, ctx.rerank_pool) : query.limit;

  // Claims matching the question: items of their own, and keys of the events they were read from.
  std::vector<RecallItem> claims;
  ClaimKeysOfEvents claim_keys;
  std::vector<sqlite::SearchHit> claim_hits;  // best first
  // Events are named by seq here (one-to-one with their ids).
  std::unordered_map<int64_t, std::pair<int64_t, double>> best_claim_of_event;  // event seq → claim seq, score
  std::unordered_map<int64_t, std::vector<int64_t>> supported_by_claim;  // claim seq → its "supports" events
  std::unordered_map<int64_t, std::vector<int64_t>> claims_of_event;     // event seq → matching claims it supports
  // Only a claim first read from this event (its earliest "supports" event: a later event that
  // repeats the claim says nothing about that day) and dated by a time expression in it. The
  // claim's day begins at the speaker's local midnight and the filter's day at the asker's: the
  // claim counts when the middle of its day falls in the filter's range.
  claim_keys.dated_in = [&](int64_t event_seq, TimestampMs start, TimestampMs end) -> Result<bool> {
    auto it = claims_of_event.find(event_seq);
    if (it == claims_of_event.end()) return false;
    constexpr TimestampMs kHalfDayMs = 12LL * 3600 * 1000;
    for (const int64_t claim_seq : it->second) {
      auto supports = supported_by_claim.find(claim_seq);
      if (supports == supported_by_claim.end() ||
          *std::min_element(supports->second.begin(), supports->second.end()) != event_seq) {
        continue;
      }
      auto from = ctx.claims.TimeMentionStart(claim_seq);
      if (!from) return Error(from.error());
      if (*from && **from + kHalfDayMs >= start && **from + kHalfDayMs < end) return true;
    }
    return false;
  };
  std::vector<std::string> claim_terms;
  int64_t claim_stage = 0;
  // The question's search units, analysed once for the claims and every event channel.
  const std::vector<text::QueryTerm> units = ctx.analyzer.QueryTerms(search_text.empty() ? std::string_view(query.text) : search_text);
  int64_t namespace_id = 0;  // 0 = the claims channel is off: no claim is fetched for an asked attribute
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    if (!query.include_claims) return Status::Ok();
    auto ns = ctx.store.FindNamespace(query.namespace_name);
    if (!ns) return ns.error();
    if (!ns->has_value()) {
      return Status::NotFound(fmt::format("namespace \"{}\" does not exist", query.namespace_name));
    }
    namespace_id = **ns;
    MatchExpression match = BuildMatchExpression(units, query.match);
    claim_terms = match.terms;
    if (match.fts5.empty()) return Status::Ok();
    sqlite::ClaimVisibility visibility{.as_of = query.as_of,
                                       .known_as_of = query.known_as_of,
                                       .include_history = query.include_history,
                                       .valid_since = query.since,
                                       .valid_until = query.until};
    const int pool = std::max(query.limit, kClaimPool);
    auto hits = ctx.claims.Search(match.fts5, **ns, visibility, NowMs(), pool, ctx.options.bm25_k1,
                                  ctx.options.bm25_b);
    if (!hits) return hits.error();
    // What replaced a claim the question matches stands where it stood (not within a period: the
    // successor may fall outside it).
    if (hide_stale && !query.since && !query.until) {
      auto successors = SuccessorHits(ctx.claims, match.fts5, **ns, visibility, *hits, NowMs(), pool,
                                      ctx.options.bm25_k1, ctx.options.bm25_b);
      if (!successors) return successors.error();
      for (const sqlite::SearchHit& successor : *successors) {
        auto held = std::find_if(hits->begin(), hits->end(),
                                 [&](const sqlite::SearchHit& h) { return h.seq == successor.seq; });
        if (held == hits->end()) {
          hits->push_back(successor);
        } else {
          held->score = std::max(held->score, successor.score);
        }
      }
      // And what replaced what the question's events said, where no claim matches it.
      auto any_stale = ctx.claims.HasNonCurrentClaims(query.namespace_name, NowMs());
      if (!any_stale) return any_stale.error();
      if (*any_stale && query.session_id.empty()) {
        sqlite::SearchFilter filter;
        filter.namespace_id = **ns;
        auto from_events = StaleEventSuccessorHits(ctx.claims, ctx.store, match.fts5, filter, *hits, NowMs(),
                                                   kStaleEventPool, ctx.options.bm25_k1, ctx.options.bm25_b);
        if (!from_events) return from_events.error();
        hits->insert(hits->end(), from_events->begin(), from_events->end());
      }
      std::stable_sort(hits->begin(), hits->end(),
                       [](const sqlite::SearchHit& x, const sqlite::SearchHit& y) { return x.score > y.score; });
    }
    std::vector<int64_t> seqs;
    std::map<int64_t, double> score_of;
    for (const auto& h : *hits) {
      seqs.push_back(h.seq);
      score_of[h.seq] = h.score;
    }
    auto supports = ctx.claims.SupportingEvents(seqs);
    if (!supports) return supports.error();
    for (const sqlite::ClaimStore::Support& s : *supports) {
      const double score = score_of[s.claim_seq];
      double& best = claim_keys.score[s.event_seq];
      best = std::max(best, score);
      supported_by_claim[s.claim_seq].push_back(s.event_seq);
      claims_of_event[s.event_seq].push_back(s.claim_seq);
      auto it = best_claim_of_event.find(s.event_seq);
      if (it == best_claim_of_event.end() || score > it->second.second) {
        best_claim_of_event[s.event_seq] = {s.claim_seq, score};
      }
    }
    claim_stage = static_cast<int64_t>(hits->size());
    claim_hits = std::move(*hits);
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);

  RecallResult events_result;
  std::vector<EventItemFacts> event_facts;  // per entry of events_result.items
  if (query.include_events) {
    RecallQuery events_query = query;
    if (temporal) {
      // Only what had happened by then (valid time) ...
      TimestampMs horizon = query.known_as_of.value_or(*query.as_of);
      if (query.as_of) horizon = std::min(horizon, *query.as_of);
      if (!events_query.until || *events_query.until > horizon + 1) events_query.until = horizon + 1;
      if (events_query.since && *events_query.since >= *events_query.until) events_query.since.reset();
    }
    // Candidates are filtered before their events are read: stale evidence is skipped, and for
    // known_as_of the search over-fetches so that events recorded later can be dropped.
    const TimestampMs stale_now = NowMs();  // the clock of the claim search above
    EventHitFilter stale_filter;
    stale_filter.keep = [&](int64_t seq) -> Result<bool> {
      auto stale = ctx.claims.IsStaleEvidence(seq, stale_now);
      if (!stale) return Error(stale.error());
      return !*stale;
    };
    events_query.limit = candidate_limit;
    if (query.known_as_of) events_query.limit = std::min(1000, candidate_limit * 2 + 10);
    bool check_stale = false;
    if (hide_stale) {
      auto any = ctx.claims.HasNonCurrentClaims(query.namespace_name, stale_now);
      if (!any) return Error(any.error());
      check_stale = *any;
    }
    auto r = RecallEvents(ctx, events_query, check_stale ? &stale_filter : nullptr,
                          query.include_claims ? &claim_keys : nullptr, &units, &event_facts);
    if (!r) return Error(r.error());
    events_result = std::move(*r);
  }
  if (events_result.terms.empty()) events_result.terms = std::move(claim_terms);

  std::vector<RecallItem> events = std::move(events_result.items);
  if (query.known_as_of) {
    // ... and only what engram had recorded by then (recorded time).
    size_t kept = 0;
    for (size_t i = 0; i < events.size(); ++i) {
      if (events[i].recorded_at > *query.known_as_of) continue;
      if (kept != i) {
        events[kept] = std::move(events[i]);
        event_facts[kept] = event_facts[i];
      }
      ++kept;
    }
    events.resize(kept);
    event_facts.resize(kept);
  }
  if (events.size() > static_cast<size_t>(candidate_limit)) {
    events.resize(candidate_limit);
    event_facts.resize(candidate_limit);
  }

  // Only the claims that can appear are considered: with events, the best claim of each recalled
  // event (it may stand in for the event); claims-only, the best `limit`. Only their text is read
  // here; the claims emitted are read whole (with their evidence) at the end.
  std::vector<int64_t> claim_seq_of;  // per entry of `claims`
  if (query.include_claims && !claim_hits.empty()) {
    std::vector<int64_t> wanted;
    std::set<int64_t> seen;
    if (query.include_events) {
      for (const EventItemFacts& facts : event_facts) {
        auto it = best_claim_of_event.find(facts.seq);
        if (it != best_claim_of_event.end() && seen.insert(it->second.first).second) {
          wanted.push_back(it->second.first);
        }
      }
    } else {
      for (const sqlite::SearchHit& h : claim_hits) {
        if (wanted.size() >= static_cast<size_t>(candidate_limit)) break;
        wanted.push_back(h.seq);
      }
    }
    std::map<int64_t, double> score_of;
    for (const sqlite::SearchHit& h : claim_hits) score_of[h.seq] = h.score;
    Status loaded_st = ctx.db.ReadTransaction([&]() -> Status {
      auto texts = ctx.claims.TextsBySeqs(wanted);
      if (!texts) return texts.error();
      for (size_t i = 0; i < texts->size(); ++i) {
        RecallItem item;
        item.type = "claim";
        item.text = std::move((*texts)[i]);
        item.score = score_of[wanted[i]];
        claims.push_back(std::move(item));
        claim_seq_of.push_back(wanted[i]);
      }
      return Status::Ok();
    });
    if (!loaded_st.ok()) return Error(loaded_st);
  }

  // The events' order decides (claims already weigh in as keys of their evidence events); claims
  // rank by themselves only when events are not recalled (claims-only recall).
  struct Fused {
    double rrf;
    double bm25;
    RecallItem item;
    int64_t claim_seq = 0;  // claims only
    EventItemFacts event;   // events only
  };
  std::vector<Fused> unsorted;
  unsorted.reserve(events.size() + claims.size());
  for (size_t i = 0; i < events.size(); ++i) {
    unsorted.push_back({1.0 / (kRrfK + i + 1), events[i].score, std::move(events[i]), 0, event_facts[i]});
  }
  for (size_t i = 0; i < claims.size(); ++i) {
    const double rank_score = query.include_events ? 0.0 : 1.0 / (kRrfK + i + 1);
    unsorted.push_back({rank_score, claims[i].score, std::move(claims[i]), claim_seq_of[i], EventItemFacts{}});
  }
  // Sorted by index, then moved once (an item is large).
  std::vector<size_t> by_rank(unsorted.size());
  for (size_t i = 0; i < by_rank.size(); ++i) by_rank[i] = i;
  std::stable_sort(by_rank.begin(), by_rank.end(), [&](size_t a, size_t b) {
    if (unsorted[a].rrf != unsorted[b].rrf) return unsorted[a].rrf > unsorted[b].rrf;
    return unsorted[a].bm25 > unsorted[b].bm25;
  });
  std::vector<Fused> fused;
  fused.reserve(unsorted.size());
  for (size_t i : by_rank) fused.push_back(std::move(unsorted[i]));
  // Provenance folding: a claim stands for the events it was read from. An event's place goes to
  // its best-ranked claim matching the question (which carries the event as evidence, content
  // included), and an item whose source events are all represented already adds nothing and is
  // dropped — a claim and its own evidence turn never take two places. Measured on LoCoMo
  // (docs/retrieval.md): claims as stand-ins keep the events' recall (0.732 vs 0.734 @10) where
  // interleaving them by reciprocal rank fusion lost 0.044.
  std::unordered_map<int64_t, size_t> claim_of_event;  // event seq → index in `fused` of its best claim
  std::vector<std::vector<int64_t>> sources(fused.size());  // event seqs
  for (size_t i = 0; i < fused.size(); ++i) {
    const RecallItem& item = fused[i].item;
    if (item.type != "claim") {
      sources[i] = {fused[i].event.seq};
      continue;
    }
    // The claim's "supports" evidence (the same rows GetBySeqs reads as its evidence).
    auto supported = supported_by_claim.find(fused[i].claim_seq);
    if (supported == supported_by_claim.end()) continue;
    for (const int64_t event_seq : supported->second) {
      sources[i].push_back(event_seq);
      claim_of_event.emplace(event_seq, i);  // fused is best-first: the first claim wins
    }
  }
  std::set<std::string, std::less<>> question_terms(events_result.terms.begin(), events_result.terms.end());
  RecallResult result;
  result.intent = temporal ? "as_of" : query.include_history ? "history" : "current";
  result.terms = std::move(events_result.terms);
  if (query.include_claims) result.stages.push_back({"claims", claim_stage});
  for (RecallStage& s : events_result.stages) result.stages.push_back(std::move(s));
  // Each item's evidence strength (RecallCandidates::strength): an event's own; a claim's, the
  // best of its recalled evidence events' until it stands in for an event (then that event's);
  // claims-only, 1 (a claim matched).
  std::unordered_map<int64_t, double> strength_of;  // event seq → its evidence strength
  for (const EventItemFacts& facts : event_facts) strength_of.emplace(facts.seq, facts.strength);
  std::vector<double> strength(fused.size(), 0.0);
  for (size_t i = 0; i < fused.size(); ++i) {
    if (!query.include_events) {
      strength[i] = 1.0;
      continue;
    }
    for (const int64_t seq : sources[i]) {
      auto it = strength_of.find(seq);
      if (it != strength_of.end()) strength[i] = std::max(strength[i], it->second);
    }
  }
  std::vector<double> item_strength;  // per entry of result.items
  std::unordered_set<int64_t> represented;  // event seqs
  std::vector<bool> emitted(fused.size(), false);
  std::vector<std::pair<size_t, int64_t>> emitted_claims;  // index in result.items, claim seq
  std::vector<int> claim_held_memo(fused.size(), -1);      // TermsHeld of a claim's text, -1 = not yet
  // Whether an item's text reads like an instruction (text/injection_scanner.h), scanned once.
  std::vector<int8_t> instruction_like(fused.size(), -1);
  auto looks_like_instruction = [&](size_t i) {
    if (instruction_like[i] < 0) instruction_like[i] = LooksLikeInstruction(ctx, fused[i].item.text) ? 1 : 0;
    return instruction_like[i] == 1;
  };
  // With exclude_instruction_like such an item is never emitted and never stands in for an event.
  auto excluded = [&](size_t i) { return query.exclude_instruction_like && looks_like_instruction(i); };
  auto emit = [&](size_t i) {
    emitted[i] = true;
    if (fused[i].item.type == "claim") emitted_claims.push_back({result.items.size(), fused[i].claim_seq});
    represented.insert(sources[i].begin(), sources[i].end());
    if (looks_like_instruction(i)) fused[i].item.flags.push_back("instruction_like");
    result.items.push_back(std::move(fused[i].item));
    item_strength.push_back(strength[i]);
  };
  for (size_t i = 0; i < fused.size() && result.items.size() < static_cast<size_t>(candidate_limit); ++i) {
    if (emitted[i] || excluded(i)) continue;
    size_t chosen = i;
    if (fused[i].item.type != "claim") {
      auto it = claim_of_event.find(fused[i].event.seq);
      // The claim stands in only when it holds as many of the question's terms as the event's own
      // text: a claim that matched weakly (say, only by a name) leaves the event's words in front.
      // (A claim holding every term needs no walk over the event's longer text; a claim may be the
      // best of several events: its count is taken once.)
      size_t claim_held = 0;
      if (it != claim_of_event.end() && !emitted[it->second] && !excluded(it->second)) {
        int& memo = claim_held_memo[it->second];
        if (memo < 0) memo = static_cast<int>(TermsHeld(ctx.analyzer, fused[it->second].item.text, question_terms));
        claim_held = static_cast<size_t>(memo);
      }
      // The event's content holds at most the terms its indexed text (speaker, content, image
      // caption) matched: query-mode tokens of a text are among its index-mode tokens at the same
      // positions, so when the claim holds that many, the walk over the event's text is skipped.
      if (it != claim_of_event.end() && !emitted[it->second] && !excluded(it->second) &&
          (claim_held >= question_terms.size() ||
           claim_held >= static_cast<size_t>(fused[i].event.phrases_held) ||
           claim_held >= TermsHeld(ctx.analyzer, fused[i].item.text, question_terms))) {
        fused[it->second].item.score = fused[i].item.score;  // it takes the event's place
        fused[it->second].item.channels = fused[i].item.channels;
        strength[it->second] = strength[i];
        chosen = it->second;
      }
    }
    bool adds_something = sources[chosen].empty();
    for (const int64_t seq : sources[chosen]) adds_something |= represented.count(seq) == 0;
    if (adds_something) emit(chosen);
  }
  std::vector<ClaimSlot> slot_of_item;  // per item (claims only): its slot and what it superseded
  if (!emitted_claims.empty()) {
    // The emitted claims, read whole: they keep the score, channels and flags given above.
    std::vector<int64_t> seqs;
    for (const auto& [index, seq] : emitted_claims) seqs.push_back(seq);
    Status full_st = ctx.db.ReadTransaction([&]() -> Status {
      auto loaded = ctx.claims.GetBySeqs(seqs);
      if (!loaded) return loaded.error();
      for (size_t k = 0; k < emitted_claims.size(); ++k) {
        RecallItem& placed = result.items[emitted_claims[k].first];
        if (slot_of_item.size() < result.items.size()) slot_of_item.resize(result.items.size());
        slot_of_item[emitted_claims[k].first] = {(*loaded)[k].conflict_key, (*loaded)[k].supersedes_id};
        RecallItem full = ClaimItem(std::move((*loaded)[k]), placed.score);
        full.channels = std::move(placed.channels);
        full.flags = std::move(placed.flags);
        if (query.exclude_instruction_like) {  // nor do the evidence quotes that read like one
          std::erase_if(full.evidence, [](const EvidenceRef& e) { return text::LooksLikeInstruction(e.content); });
        }
        placed = std::move(full);
      }
      return Status::Ok();
    });
    if (!full_st.ok()) return Error(full_st);
  }
  // A question about how things stand now: a claim of the attribute it names about whom it asks
  // first (recall/asked_attribute.h); among items about the same thing, the newest first; and a
  // later change of the first item above it.
  if (result.intent == "current" && !temporal && AsksAboutNow(query)) {
    RecallContext now_ctx = ForTheQuestion(ctx, query);
    // Step 0 fetches a claim (recall/asked_attribute.h): not within a session or a time range, nor
    // with the claims channel off.
    const bool may_fetch = query.session_id.empty() && !query.since && !query.until && ctx.options.recall.claims > 0;
    Status asked = PutAskedAttributeFirst(ctx, may_fetch ? namespace_id : 0, NowMs(), query.text, question_terms,
                                          result.items, item_strength, slot_of_item);
    if (!asked.ok()) return Error(asked);
    Status ordered = OrderCurrentFirst(now_ctx, query.text, question_terms, !search_text.empty(), slot_of_item,
                                       result.items, item_strength);
    if (!ordered.ok()) return Error(ordered);
    if (query.include_events) {
      Status placed = PlaceNewerChangeFirst(now_ctx, query, question_terms, result.items, item_strength);
      if (!placed.ok()) return Error(placed);
    }
  }
  // The fused order's answer; FinishRecall gives the final order's.
  result.evidence_strength = item_strength.empty() ? 0.0 : item_strength.front();
  result.answerability = Answerability(!result.items.empty(), result.evidence_strength);
  RecallCandidates candidates;
  candidates.query = std::move(query);
  candidates.result = std::move(result);
  candidates.strength = std::move(item_strength);
  candidates.started = started;
  return candidates;
}

}  // namespace

}  // namespace engram
