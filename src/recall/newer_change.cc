#include "recall/newer_change.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <iterator>
#include <limits>
#include <set>
#include <string>

#include "recall/current_first.h"
#include "text/stopwords.h"
#include "write/kin_change.h"
#include "util/time.h"

namespace engram {
namespace {

// The content terms of `text` as a query would search them.
std::set<std::string> ContentTerms(text::Analyzer& analyzer, std::string_view text) {
  std::set<std::string> terms;
  for (const std::string& token : analyzer.QueryTokenSet(text)) {
    if (!text::IsFunctionTerm(token)) terms.insert(token);
  }
  return terms;
}

// At most kStatementBytes of `text`, cut at a character boundary: a long statement's opening
// names what it is about, and a search for hundreds of its terms would cost more than the recall.
constexpr size_t kStatementBytes = 512;
std::string_view Opening(std::string_view text) {
  if (text.size() <= kStatementBytes) return text;
  size_t end = kStatementBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

// The content terms of the sentences of `text` that state a change: the change names what it
// changes there.
std::set<std::string> ChangedTerms(RecallContext& ctx, std::string_view text) {
  std::set<std::string> terms;
  for (std::string_view sentence : ctx.change_sentences(text)) terms.merge(ContentTerms(ctx.analyzer, sentence));
  return terms;
}

// The two statements share enough content terms to be about one thing: at least one, and at least
// a quarter of the shorter one's (long chat turns share a word by chance: "turtles" in "Yeah,
// turtles are like zen masters! They always remind me to slow down…" and "Nate took my turtles to
// the beach"; on LoCoMo dev any one shared term moved wrong turns first).
// Two short statements (at most kShortStatement content terms each: "I bank with Chase, had the
// account since college" and "Closed out everything at Chase and moved my money to Ally") are
// about one thing when they share any term: a short statement's terms are all about its point.
constexpr size_t kSharedQuarter = 4;
constexpr size_t kShortStatement = 8;
bool AboutOneThing(const std::set<std::string>& a, const std::set<std::string>& b) {
  size_t shared = 0;
  for (const std::string& term : a) shared += b.contains(term) ? 1 : 0;
  if (shared > 0 && a.size() <= kShortStatement && b.size() <= kShortStatement) return true;
  return shared > 0 && kSharedQuarter * shared >= std::min(a.size(), b.size());
}

// What the question and the older statement are about (RecallContext::topics_of; empty when
// unset): the topics they share, and the people either names through the speaker.
struct SharedAboutness {
  std::vector<std::string> topics;  // sorted
  std::vector<std::string> people;  // text::kPersonTopic entries, sorted
};
SharedAboutness AboutBoth(RecallContext& ctx, std::string_view question, const RecallItem& older) {
  SharedAboutness about;
  if (!ctx.topics_of) return about;
  const std::vector<std::string> asked = ctx.topics_of(question);
  const std::vector<std::string> held = ItemTopics(ctx.topics_of, older);
  std::set_intersection(asked.begin(), asked.end(), held.begin(), held.end(), std::back_inserter(about.topics));
  std::set_union(asked.begin(), asked.end(), held.begin(), held.end(), std::back_inserter(about.people));
  std::erase_if(about.topics, [](const std::string& t) { return text::IsWhoTopic(t); });
  std::erase_if(about.people, [](const std::string& t) { return !text::IsOtherPersonTopic(t); });
  return about;
}

// What the later events are searched with: the older statement's opening and the words of the
// topics it shares with the question (a change of "I drink oat-milk lattes every morning" may say
// only "it's herbal tea for me now").
std::string SearchText(RecallContext& ctx, std::string_view statement, const std::vector<std::string>& topics) {
  std::string text(statement);
  for (const std::string& topic : topics) {
    for (const std::string& word : ctx.topic_words ? ctx.topic_words(topic) : std::vector<std::string>{}) {
      text += ' ';
      text += word;
    }
  }
  return text;
}

// True when `text` (a statement of change) is about one of the shared topics, speaks of the speaker
// and names no one through the speaker whom the question or the older statement does not ("My
// brother quit his job", "Dana switched to green tea": theirs). Read on the whole text, not on its
// change sentences alone: a change of topic says its new value in words of the present ("it's
// herbal tea for me now"), which ChangeSentences leaves out.
bool ChangesATopic(RecallContext& ctx, std::string_view text, const SharedAboutness& about) {
  if (about.topics.empty()) return false;
  bool on_topic = false, speaker = false;
  for (const std::string& topic : ctx.topics_of(text)) {
    if (text::IsOtherPersonTopic(topic)) {
      if (!std::binary_search(about.people.begin(), about.people.end(), topic)) return false;
    } else if (text::IsWhoTopic(topic)) {
      speaker = true;
    } else {
      on_topic = on_topic || std::binary_search(about.topics.begin(), about.topics.end(), topic);
    }
  }
  return on_topic && speaker;
}

// True when `text` names someone through the speaker ("my sister", "我老公") whom neither the
// question nor the older statement names: what it changes is theirs.
bool NamesSomeoneElse(RecallContext& ctx, std::string_view text, const SharedAboutness& about) {
  if (!ctx.topics_of) return false;
  for (const std::string& topic : ctx.topics_of(text)) {
    if (text::IsOtherPersonTopic(topic) && !std::binary_search(about.people.begin(), about.people.end(), topic)) return true;
  }
  return false;
}

// The single-valued facts `item` is or was read into: a claim's conflict key, an event's claims'.
Result<std::vector<std::string>> FactsOf(RecallContext& ctx, const RecallItem& item) {
  if (item.type != "claim") return ctx.claims.ConflictKeysReadFrom(item.id);
  auto claim = ctx.claims.Get(item.id);
  if (!claim) return Error(claim.error());
  if (claim->claim.conflict_key.empty()) return std::vector<std::string>{};
  return std::vector<std::string>{claim->claim.conflict_key};
}

// True when facts were read from both and none is the same: they are about different things
// (us-east's version is not eu-west's), whatever words they share.
Result<bool> OtherFacts(RecallContext& ctx, const std::vector<std::string>& older_facts, const RecallItem& newer) {
  if (older_facts.empty()) return false;
  auto facts = ctx.claims.ConflictKeysReadFrom(newer.id);
  if (!facts) return Error(facts.error());
  if (facts->empty()) return false;
  for (const std::string& f : *facts) {
    if (std::binary_search(older_facts.begin(), older_facts.end(), f)) return false;
  }
  return true;
}

// When `item` was last said: an event's time; a claim's latest supporting event's (a restatement
// after a change makes it current again), else its valid_from.
TimestampMs LastSaid(const RecallItem& item) {
  if (item.type != "claim") return item.occurred_at;
  TimestampMs last = 0;
  bool any = false;
  for (const EvidenceRef& e : item.evidence) {
    if (e.relation != "supports") continue;
    last = any ? std::max(last, e.occurred_at) : e.occurred_at;
    any = true;
  }
  return any ? last : item.valid_from;
}

// The words of `older` that may be kin to a newer statement's (a claim: of its value; an event: of
// its statement's opening), the question's own words left out.
std::vector<std::string> OlderKinWords(RecallContext& ctx, std::string_view question, const RecallItem& older) {
  std::vector<std::string> words = ctx.kin_words(older.type == "claim" ? std::string_view(older.value) : Opening(StatementOf(older)));
  const std::vector<std::string> asked = ctx.kin_words(question);
  std::erase_if(words, [&](const std::string& w) { return std::binary_search(asked.begin(), asked.end(), w); });
  return words;
}

// True when `newer` names, where it states the change of whom the question or the older statement
// is about, a thing kin to one `older_words` (of `older_text`) names (write/kin_change.h).
bool NamesAKinThing(RecallContext& ctx, const KinLookup& kin, std::string_view older_text,
                    const std::vector<std::string>& older_words, std::string_view newer, const SharedAboutness& about) {
  const std::string changed = SpeakerChangeText(newer, about.people, ctx.change_sentences, ctx.topics_of);
  return engram::NamesAKinThing(kin, older_text, older_words, changed, newer);
}

// What the kin search (FindKinChange) needs of the search FindNewerChange made.
struct KinSearch {
  TimestampMs since = 0;
  TimestampMs until = 0;                   // exclusive
  const SharedAboutness* about = nullptr;
  std::function<Result<bool>(int64_t seq)> keep;  // null = keep every event
};

// The newest of the kKinPool latest events after the older statement that is the speaker's
// statement of change of another thing of its kind (the header). Runs in the caller's read
// transaction.
Result<std::optional<RecallItem>> FindKinChange(RecallContext& ctx, const RecallQuery& question, const RecallItem& older,
                                                const KinSearch& search) {
  const std::string_view older_text = older.type == "claim" ? std::string_view(older.value) : Opening(StatementOf(older));
  const std::vector<std::string> older_words = OlderKinWords(ctx, question.text, older);
  if (older_words.empty() || older_words.size() > kMaxKinWords) return std::optional<RecallItem>{};
  auto ns = ctx.store.FindNamespace(question.namespace_name);
  if (!ns) return Error(ns.error());
  if (!*ns) return std::optional<RecallItem>{};
  auto seqs = ctx.store.LatestSeqsInTimeRange(**ns, search.since, search.until, kKinPool);
  if (!seqs) return Error(seqs.error());
  auto events = ctx.store.GetBySeqs(*seqs);
  if (!events) return Error(events.error());
  const std::string speaker = CurrentFirstKeyOf(older).speaker;
  const KinLookup kin{ctx.kin_words, ctx.kin_names, ctx.kin};
  for (size_t i = 0; i < events->size(); ++i) {
    Event& event = (*events)[i];
    const std::string& said_by = event.speaker.empty() ? event.role : event.speaker;
    if (!speaker.empty() && !said_by.empty() && said_by != speaker) continue;
    if (!question.session_id.empty() && event.session_id != question.session_id) continue;
    if (event.id == older.id || !text::SaysAChange(ctx.now_stance(event.content))) continue;
    if (NamesSomeoneElse(ctx, event.content, *search.about)) continue;
    if (!NamesAKinThing(ctx, kin, older_text, older_words, event.content, *search.about)) continue;
    if (search.keep) {
      auto keep = search.keep((*seqs)[i]);
      if (!keep) return Error(keep.error());
      if (!*keep) continue;
    }
    return std::optional<RecallItem>(EventItem(std::move(event)));
  }
  return std::optional<RecallItem>{};
}

}  // namespace

Result<std::optional<RecallItem>> FindNewerChange(RecallContext& ctx, const RecallQuery& question,
                                                  const RecallItem& older) {
  if (!ctx.now_stance || !ctx.change_sentences) return std::optional<RecallItem>{};
  const CurrentFirstKey key = CurrentFirstKeyOf(older);
  const std::string_view statement = Opening(StatementOf(older));
  const std::set<std::string> older_terms = ContentTerms(ctx.analyzer, statement);
  if (older_terms.empty()) return std::optional<RecallItem>{};
  // After it was last said, within the question's own since and until.
  const TimestampMs since = std::max(question.since.value_or(0), LastSaid(older) + 1);
  if (question.until && *question.until <= since) return std::optional<RecallItem>{};
  const SharedAboutness about = AboutBoth(ctx, question.text, older);
  RecallQuery search;
  search.text = SearchText(ctx, statement, about.topics);
  search.namespace_name = question.namespace_name;
  search.session_id = question.session_id;
  search.limit = kNewerChangePool;
  search.since = since;
  search.until = question.until;
  search.include_claims = false;
  search.now = question.now;
  search.utc_offset_minutes = question.utc_offset_minutes;
  // The search is the older statement's, not the question's: no question vector, no reranker.
  RecallContext by_words = ctx;
  by_words.dense = nullptr;
  by_words.reranker = nullptr;
  // As the question's own events: evidence of facts that no longer stand stays hidden.
  const TimestampMs now = NowMs();
  EventHitFilter stale_filter;
  stale_filter.keep = [&](int64_t seq) -> Result<bool> {
    auto stale = ctx.claims.IsStaleEvidence(seq, now);
    if (!stale) return Error(stale.error());
    return !*stale;
  };
  bool check_stale = false;
  if (!question.include_history) {
    auto any = ctx.claims.HasNonCurrentClaims(question.namespace_name, now);
    if (!any) return Error(any.error());
    check_stale = *any;
  }
  auto later = RecallEvents(by_words, search, check_stale ? &stale_filter : nullptr);
  if (!later) return Error(later.error());
  std::optional<RecallItem> found;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    auto older_facts = FactsOf(ctx, older);
    if (!older_facts) return older_facts.error();
    std::sort(older_facts->begin(), older_facts->end());
    for (RecallItem& item : later->items) {
      const CurrentFirstKey newer = CurrentFirstKeyOf(item);
      if (!key.speaker.empty() && !newer.speaker.empty() && newer.speaker != key.speaker) continue;
      if (!text::SaysAChange(ctx.now_stance(item.text))) continue;
      if (!AboutOneThing(ChangedTerms(ctx, item.text), older_terms) && !ChangesATopic(ctx, item.text, about)) continue;
      if (NamesSomeoneElse(ctx, item.text, about)) continue;  // "My sister cancelled her Equinox membership": hers
      auto other = OtherFacts(ctx, *older_facts, item);
      if (!other) return other.error();
      if (*other) continue;
      found = std::move(item);
      return Status::Ok();
    }
    if (!ctx.kin || !ctx.kin_words) return Status::Ok();
    KinSearch kin_search{since, question.until.value_or(std::numeric_limits<TimestampMs>::max()), &about, nullptr};
    if (check_stale) kin_search.keep = stale_filter.keep;
    auto kin = FindKinChange(ctx, question, older, kin_search);
    if (!kin) return kin.error();
    found = std::move(*kin);
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return found;
}

}  // namespace engram
