// recall/current_first.h — current-first order (issue 16): for a question about how things stand
// now, among recalled items about the same thing the newest statement comes first, even where no
// claim was read from it.
//
// A current claim passes the evidence events of the claim it superseded ("my sister Emma lives in
// Boston" below "Emma lives in Seattle" for "Where does my sister Emma live?"). Otherwise two
// items are about the same thing when they are said by the same speaker and either are claims of
// one single-valued slot (one conflict key), or — the older being an event, a memory read as no
// fact or a value of a multi-valued attribute — both hold the same terms of the question, and
// those are at least half of its terms (they answer the question, not a word of it: "我喜欢哪些
// 菜系？" is not answered by every "我喜欢…"): "Where am I based?" against "Home base for me is
// Austin" and, later, "I'm now based out of Raleigh". An extracted fact is passed only by a fact
// of its own slot: a newer wish or quote that shares its words ("I wish I worked at Valve" after
// "I work at Oracle") is not its new value. An item moves up only past a run of older items
// directly above it that are the same thing; it never passes a better match. (Same terms rather
// than a superset: on LoCoMo dev a superset moved 0.002 of recall_any@5, equal sets nothing.)
//
// A newer statement of change (CurrentFirstKey::Stance() kChange: "Model hosting got migrated over
// to GCP" after "Our ML models are hosted on AWS") words the thing its own way, so it rarely holds
// the very terms the older statement holds. It passes an older event or memory when both hold at
// least half of the question's terms (the newer: half of its content terms, which a Chinese
// question's bigrams across word boundaries do not inflate) and share one of them, and an older extracted fact when it
// holds every term the fact holds (a slot is narrower than its words): only facts and changes say
// how things stand now, and of two such statements about the same question the later one does.
// A change rarely repeats the words of the question, nor those of what it changes. So a newer
// statement of change about a topic the question asks about (data/lexicon/topics.tsv: "Who is my
// employer?" and, later, "started at Bosch on monday, new badge and everything" are about work)
// counts as holding the question's terms, and it passes an older statement that answers the
// question ("My employer is Siemens") and is about that topic too, unless facts of other slots were
// read from both (us-east's version is not eu-west's). (The older must answer the question by its
// terms: on the held-out v3 set a topic alone moved a newer statement above a control's answer.)
// A newer statement of change whose sentence of change names what an older statement (an event or
// a memory, not an extracted fact) said beyond the question's words passes it: "老王把帕萨特卖了，换了辆比亚迪汉" after
// "老王开的是一辆白色的帕萨特", "Today was my first day at Stripe, I left Spotify" after "I work at
// Spotify", "表弟不干厨师了" after "我表弟在一家餐馆当厨师". A change rarely repeats the question's
// words, but it names the thing or the value it changes; the older must hold a term of the question
// and the newer be about the same one (a term of the question the older holds), and facts read
// from both, if any, must share a slot. An older extracted fact is passed so only when the sentence
// of change names its value — at least half of the value's terms that the question does not hold
// ("Today was my first day at Stripe, I left Spotify" after `employer Spotify`, though it holds no
// term of "Where do I work now?"; "我不喝咖啡了" after `drinks 咖啡`); naming its subject is not
// enough ("We upgraded us-east; eu-west is unchanged" leaves eu-west's version alone).
// A newer statement of change of the speaker (or a claim of a single-valued slot) that names another
// thing of the kind the older one named passes it, when the older answers the question (half of its content terms), the newer names no one else
// through the speaker, and facts of the speaker were not read from the older only ("Sarah moved to
// Bristol" is Sarah's; otherwise the facts are not compared: the grammar reads such changes into
// other attributes and subjects, "earlier — the dentist when Tuesday"): "moved over to Firefox after the adblock mess" after "Chrome is my main
// browser" for "Which browser do I use?", "Jumped ship to KPMG" after "My employer is Deloitte".
// A change names the new value, and the new value is of the old one's kind; which words are of one
// kind is read from word vectors (providers/word_kin.h; English only, and only when `engram models
// install glove` has installed them), not from a list: "Heathrow" and "Gatwick", "vegan" and
// "vegetarian" are kin, "Firefox" and "Leeds" are not. The older holds at most kMaxKinWords of them.
// After a fact, a plain statement that names a kin thing passes it too, though it states no
// change (session 47): "Priya called last night. She's loving Vancouver so far" after `Priya
// lives_in Toronto` for "Where does Priya live?". The older must be a fact (a single-valued fact
// was read from it, or it is a text remembered whole, which the agent kept as a statement of how
// things stand — not a chat turn), no sentence of the newer may ask, plan, wish, report, suppose
// or narrate (CurrentFirstKey::OnlyWhatIs), and it must be said of whom the fact is: it speaks of
// the speaker, or holds a term the question writes as a name ("Priya"). Without a kin value, a
// plain statement that holds the question's words says something else of the same thing far more
// often than it changes it ("I live with two flatmates", "My manager is really strict", "I work
// from home on Fridays": bench/RESULTS.md, session 47).
// A newer item that says nothing of now (kNotNow: a wish, plan, quote, question, narrated past or
// denial — "I wish our backups were somewhere cheaper") passes nothing but the evidence of what
// it replaced.
//
// Thread safety: pure functions; safe from any thread.
#ifndef ENGRAM_RECALL_CURRENT_FIRST_H_
#define ENGRAM_RECALL_CURRENT_FIRST_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engram/types.h"
#include "text/now_stance.h"
#include "text/person_topic.h"
#include "write/kin_change.h"

namespace engram {

// A list of terms read at most once, when first asked for (a null reader reads none): most items
// are never compared as the newer of two, so their words are never read.
struct LazyTerms {
  std::function<std::vector<std::string>()> read;
  const std::vector<std::string>& operator()() const {
    if (!memo) memo = read ? read() : std::vector<std::string>{};
    return *memo;
  }
  mutable std::optional<std::vector<std::string>> memo;
};

// What current-first order knows of one recalled item.
struct CurrentFirstKey {
  TimestampMs said_at = 0;        // when it was said (ms since the epoch, UTC)
  std::string speaker;            // who said it ("" = unknown: matches any speaker)
  // Claims: the conflict key (a single-valued slot: subject, attribute, identity qualifiers);
  // "" for events, explicit memories and values of multi-valued attributes ("likes" adds, it
  // does not replace). Left to the caller.
  std::string slot;
  std::vector<std::string> held;  // the question's terms it holds, sorted, distinct
  size_t content_held = 0;        // how many of `held` are not function terms (text/stopwords.h)
  std::string event_id;           // events: the event's id
  // Claims: a text remembered whole (explicit_memory: the grammar read no fact from it), a
  // statement of how things stand that the agent chose to keep. Left to the caller.
  bool kept_whole = false;
  // Claims: the ids of the events that supported the claim this one superseded (a current claim
  // ranks above what it replaced, its evidence included); left to the caller.
  std::vector<std::string> replaced_events;
  // What the item's words say of now (text/now_stance.h), read only when an order needs it (most
  // items are never compared as the newer of two): `read_stance` (null = kPlain) is called at
  // most once; left to the caller.
  std::function<text::NowStance()> read_stance;
  text::NowStance Stance() const {
    if (!stance_) stance_ = read_stance ? read_stance() : text::NowStance::kPlain;
    return *stance_;
  }
  mutable std::optional<text::NowStance> stance_;  // Stance()'s memo
  // Whether every sentence of its words says how things are (RecallContext::says_only_what_is: no
  // question, plan, wish, hypothetical, quotation, requirement, past or denial in any), read like
  // the stance (null = false). Left to the caller.
  std::function<bool()> read_only_what_is;
  bool OnlyWhatIs() const {
    if (!only_what_is_) only_what_is_ = read_only_what_is ? read_only_what_is() : false;
    return *only_what_is_;
  }
  mutable std::optional<bool> only_what_is_;  // OnlyWhatIs()'s memo
  // The topics its words are about (RecallContext::topics_of), sorted; read like the stance, only
  // when compared (null = none). Left to the caller.
  std::function<std::vector<std::string>()> read_topics;
  const std::vector<std::string>& Topics() const {
    if (!topics_) topics_ = read_topics ? read_topics() : std::vector<std::string>{};
    return *topics_;
  }
  mutable std::optional<std::vector<std::string>> topics_;  // Topics()'s memo
  // The conflict keys of the single-valued facts read from it (a claim's own, an event's claims'),
  // sorted; read only when compared (null = none). Left to the caller.
  std::function<std::vector<std::string>()> read_facts;
  const std::vector<std::string>& Facts() const {
    if (!facts_) facts_ = read_facts ? read_facts() : std::vector<std::string>{};
    return *facts_;
  }
  mutable std::optional<std::vector<std::string>> facts_;  // Facts()'s memo
  // The content terms of the words it was said in (StatementOf; text::IsFunctionTerm ones left
  // out); of its sentences that state a change (RecallContext::change_sentences); and, claims
  // only, of the claim's value. Each sorted, read like the stance (LazyTerms). Left to the caller.
  LazyTerms terms, changed_terms, value_terms;
  // The words that may be kin to another item's (providers/word_kin.h, KinCandidates) of its
  // statement — a claim: of its value — less the question's own words, sorted; read like the
  // stance. Left to the caller (null = none).
  LazyTerms kin_words;
};

// The words a recalled item was said in: an event's text; a claim's first supporting event (its
// own text is normalised: "user lives in Porto" for "I moved to Porto"), else its text. A view
// into `item`.
std::string_view StatementOf(const RecallItem& item);

// The topics a recalled item is about (`topics_of` is RecallContext::topics_of): an event's words;
// a claim's statement and its own text ("user works at Datadog" names the topic that "joined
// Datadog" may not). Sorted, each once.
std::vector<std::string> ItemTopics(const std::function<std::vector<std::string>(std::string_view)>& topics_of,
                                    const RecallItem& item);

// The key of a recalled item: an event's occurred_at, speaker (or role) and id; a claim's first
// evidence event's time and speaker. `held`, `slot` and `replaced_events` are left to the caller.
CurrentFirstKey CurrentFirstKeyOf(const RecallItem& item);

// How many distinct terms the question has, and how many of them are not function terms
// (text/stopwords.h: "的健", "在哪" of "我的健身房在哪？" are not).
struct QuestionTermCount {
  size_t all = 0;
  size_t content = 0;
  std::vector<std::string> topics;  // the topics the question asks about (topics_of), sorted
  // The question's terms written as names or numbers (text::NamedWords: "Priya", "Android"), sorted:
  // whom or what it asks about.
  std::vector<std::string> named;
  // True when the older item's kin words (CurrentFirstKey::kin_words) and the newer's hold a pair
  // of kin words (providers::WordKin::FindKin: "chrome" and "firefox"); null when no word vectors
  // are installed.
  std::function<bool(const std::vector<std::string>& older, const std::vector<std::string>& newer)> kin;
};

// kMaxKinWords (write/kin_change.h) bounds the kin words an older item may hold for the kin rule.

// True when `newer` was said after `older` about the same thing (above).
bool SameThingNewer(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question);

// True when `fact`, an extracted fact of a single-valued slot (or an event such a fact was read
// from, unless `newer` is itself a claim of a slot) that answers the question (it holds half of its
// terms), passes `newer`, a later statement
// of the same speaker that says nothing of now (NowStance::kNotNow: a narrated past, plan, quote,
// question or denial) and holds a term of the question the fact holds: "Back when I lived in
// Munich for uni I biked everywhere" does not answer "Which city do I live in?" before `user
// lives_in Berlin`, nor "组长说下个迭代要上 Go 1.23" before the Go version in use, nor "Our CTO says
// the backend should run on FastAPI" before the event "Our backend runs on Django 4.2".
bool FactPassesNotNow(const CurrentFirstKey& fact, const CurrentFirstKey& newer, const QuestionTermCount& question);

// The current-first order of items given best first (an item moves up past the run above it that
// SameThingNewer or FactPassesNotNow lets it pass): a permutation of 0..keys.size()-1.
std::vector<size_t> CurrentFirstOrder(const std::vector<CurrentFirstKey>& keys, const QuestionTermCount& question);

}  // namespace engram

#endif  // ENGRAM_RECALL_CURRENT_FIRST_H_
