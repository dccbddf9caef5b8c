#include "write/same_thing.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"
#include "text/person_topic.h"
#include "text/query_intent.h"
#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/claim_identity.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/rule_sentences.h"
#include "write/extraction/statement_topics.h"
#include "write/ended_thing.h"
#include "write/kin_change.h"
#include "write/same_kind.h"
#include "write/subject_resolution.h"
#include "write/thing_phrase.h"

namespace engram {
namespace {

using Terms = std::set<std::string>;

// True when `h` states a value a change can end: a free statement (`explicit_memory` or
// `statement`, kept whole when the grammar read nothing from it), a single-valued attribute (PredicateRegistry), or what
// the speaker uses or prefers. Acts (did, started, joined) and what someone is doing or does by
// habit are not closed by shared words: in conversation they are activities, several at once.
bool Closable(const Claim& h, const PredicateRegistry& registry) {
  return h.predicate == "explicit_memory" || h.predicate == extraction::kPredicateStatement || h.predicate == "uses" || h.predicate == "prefers" ||
         registry.IsSingleValued(h.predicate, h.slot);
}

// The analyzer of this thread (null when ICU or the stemmer cannot be loaded: nothing is closed).
text::Analyzer* ThreadAnalyzer() {
  thread_local std::unique_ptr<text::Analyzer> analyzer = [] {
    auto made = text::Analyzer::Create(TextAnalysis::kFull);
    return made ? std::move(*made) : nullptr;
  }();
  return analyzer.get();
}

Terms ContentTerms(text::Analyzer& analyzer, std::string_view text) {
  Terms terms;
  for (const std::string& token : analyzer.QueryTokenSet(text)) {
    if (!text::IsFunctionTerm(token)) terms.insert(token);
  }
  return terms;
}

bool HasTermOutside(const Terms& terms, const Terms& outside) {
  return std::any_of(terms.begin(), terms.end(), [&](const std::string& t) { return outside.count(t) == 0; });
}

// How many of the subject's, and of the namespace's, most recent current claims are looked through
// (the subject's for its own states, the namespace's for things'): a change is told soon after
// what it changes far more often than not, and the write stays as fast after a million claims.
constexpr int kOwnLookback = 200;
constexpr int kThingLookback = 50;

// True when `c` states a named thing's attribute (a copula's, or one only things have): its
// subject is the thing's name, not a person's (a thing left unnamed, "bumped it to 3.12", is
// looked for as a person's change is).
bool AboutAThing(const extraction::CandidateClaim& c) {
  return !c.subject_unsaid && (c.predicate == "is" || IsThingAttribute(c.predicate));
}

// Habits, activities and what one owns: ended by naming them as ended ("Ditched coffee", "gave up
// on keto", "sold the brompton"), never by a shared word (OlderStates).
bool EndedOnlyClosable(const Claim& h) {
  return h.predicate == "habit" || h.predicate == "doing" || h.predicate == "owns";
}

bool FreeStatement(const Claim& h) {
  return h.predicate == "explicit_memory" || h.predicate == extraction::kPredicateStatement;
}

std::vector<std::string> PeopleNamed(std::string_view text);

// True when `text` opens with "he", "she", 他 or 她 (not 他们, 她们): it goes on about a person
// named before, in an earlier statement.
bool OpensWithAPersonPronoun(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n')) text.remove_prefix(1);
  for (std::string_view han : {"他", "她"}) {
    if (text.starts_with(han)) return !text.substr(han.size()).starts_with("们");
  }
  size_t e = 0;
  while (e < text.size() && (std::isalpha(static_cast<unsigned char>(text[e])) || text[e] == '\'')) ++e;
  std::string word(text.substr(0, e));
  for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return word == "he" || word == "she" || word == "he's" || word == "she's";
}

// The current claims change `c` said at `said_at` may end (same_thing.h), affirmed, said before,
// closable. Of a person's change: the person's own, and things' ("the team chat is on Slack",
// 办的健身卡是乐刻的). Of a thing's change: the free statements that may name it, and its own value
// said with no attribute named; its other named attributes are other facts, and another thing's
// are another's ("We upgraded us-east to kubernetes 1.29").
// With `habits`, the speaker's habits, activities and possessions too: a thing they said they ended is a habit's
// end ("Ditched coffee" after "I drink black coffee every morning", "gave up on keto" after "I'm
// doing the keto diet": ended_thing.h), where a shared word is not.
Result<std::vector<sqlite::StoredClaim>> OlderStates(sqlite::ClaimStore& store, int64_t namespace_id,
                                                    const extraction::CandidateClaim& c, TimestampMs said_at,
                                                    const PredicateRegistry& registry, bool habits) {
  std::vector<sqlite::StoredClaim> out;
  auto keep = [&](sqlite::StoredClaim& held) {
    const Claim& h = held.claim;
    if (held.negated || h.status != "active" || h.valid_from >= said_at) return;
    if (!Closable(h, registry) && !(habits && EndedOnlyClosable(h))) return;
    if (std::any_of(out.begin(), out.end(), [&](const sqlite::StoredClaim& o) { return o.seq == held.seq; })) return;
    out.push_back(std::move(held));
  };
  auto recent = store.RecentCurrent(namespace_id, kThingLookback);
  if (!recent) return Error(recent.error());
  if (AboutAThing(c)) {
    // Its own value said with no attribute named ("The team chat is on Slack": `is`) is the one
    // the newer names ("The team chat moved to Discord": `location`).
    for (sqlite::StoredClaim& held : *recent) {
      const Claim& h = held.claim;
      if (FreeStatement(h) || (h.subject == c.subject && h.predicate == "is" && c.predicate != "is")) keep(held);
    }
    return out;
  }
  auto own = store.RecentCurrentBySubject(namespace_id, c.subject, kOwnLookback);
  if (!own) return Error(own.error());
  for (sqlite::StoredClaim& held : *own) keep(held);
  // "她调到朝阳医院了" after "我老婆在协和医院当护士": a pronoun no earlier clause of its statement
  // resolved means a person named before, so the recent facts of people named through the speaker
  // may be what it changes (same_kind.h then asks for another thing of the same kind).
  const bool of_someone_before = OpensWithAPersonPronoun(c.evidence_span.empty() ? c.text : c.evidence_span);
  for (sqlite::StoredClaim& held : *recent) {
    const Claim& h = held.claim;
    if (h.subject != c.subject && (h.predicate == "is" || IsThingAttribute(h.predicate))) {
      keep(held);
    } else if (of_someone_before && h.subject != c.subject && !FreeStatement(h) && !PeopleNamed(h.text).empty()) {
      keep(held);
    }
  }
  return out;
}

// True when the candidate says its value lasts a while only ("for this week", "这两天临时").
bool SaysATemporaryValue(const extraction::CandidateClaim& c, std::string_view evidence) {
  if (std::find(c.qualifiers.begin(), c.qualifiers.end(), extraction::kQualTemporary) != c.qualifiers.end()) {
    return true;
  }
  return extraction::ReadNowStance(evidence) == text::NowStance::kTemporary;
}

// True when the claim says how things usually are: a habit, qualified habitual, or a statement
// with the words of the usual (text::AsksAboutTheUsual reads them in any text).
bool SaysTheUsual(const Claim& h) {
  const auto& q = h.qualifiers;
  return h.predicate == "habit" || std::find(q.begin(), q.end(), extraction::kQualHabitual) != q.end() ||
         text::AsksAboutTheUsual(h.text);
}

// `evidence` without its clauses (between , ; 。，；！？ and ". ") that restate a value ("still",
// "unchanged", 还是, 仍然, 依然, 照旧, 不变): "Changed my router, internet is still 100 Mbps" changes
// the router only.
std::string WithoutRestatements(std::string_view evidence) {
  static constexpr std::string_view kMarks[] = {",", ";", "!", "?", ". ", "，", "；", "。", "！", "？"};
  static constexpr std::string_view kStill[] = {"still", "unchanged", "还是", "仍然", "依然", "照旧", "不变"};
  std::string out;
  size_t begin = 0;
  // Where each mark is next found, at or after `begin` (found again only once passed: linear).
  std::array<size_t, std::size(kMarks)> next{};
  for (size_t i = 0; i < next.size(); ++i) next[i] = evidence.find(kMarks[i]);
  while (begin < evidence.size()) {
    size_t end = evidence.size(), mark = 0;
    for (size_t i = 0; i < next.size(); ++i) {
      if (next[i] != std::string_view::npos && next[i] < begin) next[i] = evidence.find(kMarks[i], begin);
      if (next[i] != std::string_view::npos && next[i] < end) end = next[i], mark = kMarks[i].size();
    }
    const std::string_view clause = evidence.substr(begin, end - begin);
    const std::string lowered = extraction::rules::LowerAscii(clause);
    if (std::none_of(std::begin(kStill), std::end(kStill),
                     [&](std::string_view w) { return lowered.find(w) != std::string::npos; })) {
      out.append(evidence.substr(begin, end + mark - begin));
    }
    begin = end + mark;
  }
  return out;
}

// True when `evidence`, said at `said_at`, dates what it tells before `h` was said ("In 2015 I
// changed my email"): an older story, not a change of it.
bool ToldAsEarlier(std::string_view evidence, TimestampMs said_at, const Claim& h) {
  for (const text::TimeMention& m : text::FindTimeMentions(evidence, said_at, 0)) {
    if (m.end <= h.valid_from) return true;
  }
  return false;
}

// The people `text` names through the speaker (extraction/statement_topics.h: "person:wife"),
// sorted.
std::vector<std::string> PeopleNamed(std::string_view text) {
  std::vector<std::string> people;
  for (std::string& topic : extraction::StatementTopics(text)) {
    if (text::IsOtherPersonTopic(topic)) people.push_back(std::move(topic));
  }
  return people;
}

// True when the newer statement names someone through the speaker whom the older does not: it is
// their change ("My wife switched her car to a Tesla"), not the speaker's.
bool NamesSomeoneElse(const std::vector<std::string>& newer_people, std::string_view older_text) {
  if (newer_people.empty()) return false;
  const std::vector<std::string> older = PeopleNamed(older_text);
  return std::any_of(newer_people.begin(), newer_people.end(),
                     [&](const std::string& p) { return !std::binary_search(older.begin(), older.end(), p); });
}

// A part of a newer clause between marks (change_value.h ClauseSpans), and its content terms.
struct ClausePart {
  std::string_view text;
  Terms terms;
};

std::vector<ClausePart> ClauseParts(text::Analyzer& analyzer, std::string_view clause) {
  std::vector<ClausePart> parts;
  for (const auto& [begin, end] : ClauseSpans(clause)) {
    const std::string_view part = clause.substr(begin, end - begin);
    parts.push_back({part, ContentTerms(analyzer, part)});
  }
  return parts;
}

// True when `clause` speaks of a third party's thing (his, her, their, its, 他的, 她的) and `older`
// does not ("Notion changed its pricing"), in the parts of it (`parts`) that name what the older
// named (all of it when none does): "We left Lyon in May — we're in Marseille now, closer to her
// family" is the speaker's move.
bool SaysTheirs(const std::vector<ClausePart>& parts, std::string_view clause, std::string_view older,
                const Terms& older_terms) {
  static constexpr std::string_view kTheirs[] = {" his ", " her ", " their ", " its ", "他的", "她的", "他们的", "她们的"};
  const std::string b = " " + extraction::rules::LowerAscii(older) + " ";
  std::vector<std::string_view> naming;
  for (const ClausePart& part : parts) {
    const bool names = std::any_of(part.terms.begin(), part.terms.end(), [&](const std::string& t) { return older_terms.count(t) > 0; });
    if (names) naming.push_back(part.text);
  }
  if (naming.empty()) naming.push_back(clause);
  return std::any_of(naming.begin(), naming.end(), [&](std::string_view part) {
    const std::string a = " " + extraction::rules::LowerAscii(part) + " ";
    return std::any_of(std::begin(kTheirs), std::end(kTheirs), [&](std::string_view w) {
      return a.find(w) != std::string::npos && b.find(w) == std::string::npos;
    });
  });
}

// True when the candidate says a change of the current state (same_thing.h); `ends` when it says
// something ended (ended_thing.h).
bool SaysAChange(const extraction::CandidateClaim& c, std::string_view evidence, bool ends) {
  // An ending may be read as a denial ("no longer owns the Civic") or name what it replaced: the
  // writer looked for that value first (ReplacedClaims), and found none said as it.
  extraction::CandidateClaim affirmed = c;
  if (ends) std::erase(affirmed.qualifiers, std::string(extraction::kQualNegated));
  if (!StatesCurrentValue(affirmed) || (!c.replaces_value.empty() && !ends)) return false;
  // A state said with its end ("for the next few days, reach me at 555-0199", 这几天) is how things
  // stand for that span, not a new value (text/now_stance.h kBounded).
  const text::NowStance stance = extraction::ReadNowStance(evidence);
  if (stance == text::NowStance::kBounded) return false;
  // A word of the present alone ("now at 90k miles") says no change here (ChangeSentences).
  return ends || c.change || c.correction || !extraction::ChangeSentences(evidence).empty();
}

// The thing phrase a claim's value opens with, read as said of its subject ("Chrome browser" of
// `uses` "Chrome browser for everything"; not "payments squad" of "proud of what the payments squad
// built"); none when the value opens with another word.
ThingPhrases ValuePhrases(text::Analyzer& analyzer, std::string_view value) {
  ThingPhrases read = ReadThingPhrases(analyzer, value);
  if (!read.phrases.empty() && read.phrases.front().opens_clause) {
    read.phrases.resize(1);
    read.phrases.front().opens_clause = false;
  } else {
    read.phrases.clear();
  }
  return read;
}

// The values of the speaker's changes (change_value.h: "firefox" of "switched to Firefox last week
// after the adblock mess"; not "basic plan" of "Switched Netflix to the Basic plan", nor "austin
// branch" of "I moved to the Austin branch as a trial"), joined by line breaks.
// Of each, its head (its last word: "case" of "red phone case", whose "red" says which case, not
// a colour the speaker changed to) and the words the newer writes as names ("Toyota Camry").
std::string SpeakersValues(const ChangedValues& changed, std::string_view newer_text, const KinLookup& kin) {
  // (No value, no kin words read: the word-vector file is opened only when one may be kin.)
  if (std::all_of(changed.themes.begin(), changed.themes.end(), [](const std::string& t) { return !t.empty(); })) {
    return "";
  }
  const std::vector<std::string> names = kin.names(newer_text);
  std::string values;
  for (size_t i = 0; i < changed.texts.size(); ++i) {
    if (!changed.themes[i].empty()) continue;
    const std::string& value = changed.texts[i];
    const size_t last = value.find_last_of(' ');
    values += last == std::string::npos ? value : value.substr(last + 1);
    values += '\n';
    for (const std::string& word : kin.words(value)) {
      if (std::binary_search(names.begin(), names.end(), word)) values += word + '\n';
    }
  }
  return values;
}

// The words of the older claim a kin change may replace (kin_change.h): of its value, which the
// grammar read as the thing itself ("vegetarian", "window seats"). The words the newer says too
// are left out: naming the older's thing again names no other one.
std::vector<std::string> OlderKinWords(const KinLookup& kin, const Claim& h, std::string_view newer_text) {
  std::vector<std::string> words = kin.words(h.value);
  const std::vector<std::string> said = kin.words(newer_text);
  std::erase_if(words, [&](const std::string& w) { return std::binary_search(said.begin(), said.end(), w); });
  return words;
}

// True when `changed` (the values of the speaker's changes in `newer_text`, kin_change.h) names a
// thing kin to one the older claim names (OlderKinWords), other than what the older's statement
// names itself ("decaf coffee" is no kin of "Blue Bottle" in "My favorite coffee shop is Blue
// Bottle"), and the candidate's own value holds it: the candidate becomes the older's successor,
// which must say the new value ("commute is actually better", read from the same turn as "I'm in
// Jersey City now", is not where the speaker lives).
bool NamesAKinThingOf(const KinLookup& kin, const Claim& h, std::string_view changed, std::string_view newer_text,
                      std::string_view candidate_value) {
  if (changed.empty()) return false;
  const std::vector<std::string> older_words = OlderKinWords(kin, h, newer_text);
  if (older_words.empty() || older_words.size() > kMaxKinWords) return false;
  std::vector<std::string> newer_words = kin.words(changed);
  const std::vector<std::string> own = kin.words(h.text);
  const std::vector<std::string> held = kin.words(candidate_value);
  std::erase_if(newer_words, [&](const std::string& w) {
    return std::binary_search(own.begin(), own.end(), w) || !std::binary_search(held.begin(), held.end(), w);
  });
  return kin.kin(older_words, newer_words);
}

// True when `c` is an act of starting or joining (started, joined) whose value names all of the
// thing `h` is about (another subject than `c`'s).
bool StartsTheSubjectOf(text::Analyzer& analyzer, const extraction::CandidateClaim& c, const Claim& h) {
  if ((c.predicate != "started" && c.predicate != "joined") || h.subject == c.subject) return false;
  const Terms thing = ContentTerms(analyzer, h.subject);
  const Terms value = ContentTerms(analyzer, c.value);
  return !thing.empty() && std::all_of(thing.begin(), thing.end(), [&](const std::string& t) { return value.count(t) > 0; });
}

}  // namespace

Result<std::optional<sqlite::StoredClaim>> SameThingClaim(sqlite::ClaimStore& store, int64_t namespace_id,
                                                          const extraction::CandidateClaim& c,
                                                          TimestampMs said_at, const PredicateRegistry& registry,
                                                          const KinLookup* kin) {
  const std::string_view evidence = c.evidence_span.empty() ? std::string_view(c.text) : c.evidence_span;
  text::Analyzer* analyzer = ThreadAnalyzer();
  if (analyzer == nullptr) return std::optional<sqlite::StoredClaim>();
  const Terms subject = ContentTerms(*analyzer, c.subject);
  // A person's name is no thing they share with what they said before; a thing's name is.
  const Terms ignored = AboutAThing(c) ? Terms{} : subject;
  const std::string clause = WithoutRestatements(evidence);
  // What the speaker ended closes only the speaker's, or a thing's, older statements: another
  // person's candidate read from the same sentence ("I cancelled Netflix and my sister moved to
  // Denver") is theirs.
  const bool others = !AboutAThing(c) && !PeopleNamed(c.subject).empty();
  const std::vector<EndedThing> ended = others ? std::vector<EndedThing>{} : ReadEndedThings(*analyzer, clause, ignored);
  if (!SaysAChange(c, evidence, !ended.empty())) return std::optional<sqlite::StoredClaim>();
  // The words said, verbatim: the candidate's value and evidence (a statement the writer composed
  // holds the speaker's name: "user的爸今年退休").
  Terms said = ContentTerms(*analyzer, evidence);
  const Terms new_value = ContentTerms(*analyzer, c.value);
  said.insert(new_value.begin(), new_value.end());
  if (!AboutAThing(c)) {
    for (const std::string& t : subject) said.erase(t);  // a person's name is no thing said
  }
  if (said.empty() || new_value.empty()) return std::optional<sqlite::StoredClaim>();
  const ThingPhrases newer = ReadThingPhrases(*analyzer, clause, ignored);
  const ChangedValues changed = ReadChangedValues(*analyzer, clause, ignored);
  const std::vector<ClausePart> parts = ClauseParts(*analyzer, clause);
  const std::vector<std::string> newer_people = PeopleNamed(evidence);

  const bool temporary = SaysATemporaryValue(c, evidence);
  const bool affirmed = StatesCurrentValue(c);  // a denial closes only what it names as ended
  // The speaker's sentences of change (kin_change.h), read when an older claim is first compared
  // by kin; "" when no word vectors are installed or the change is another person's.
  std::optional<std::string> speaker_change;
  auto kin_text = [&]() -> const std::string& {
    if (!speaker_change) {
      speaker_change = kin == nullptr || !kin->Available() || others
                           ? std::string()
                           : SpeakersValues(changed, clause, *kin);
    }
    return *speaker_change;
  };
  auto olders = OlderStates(store, namespace_id, c, said_at, registry, !ended.empty() || !changed.values.phrases.empty());
  if (!olders) return Error(olders.error());
  std::optional<sqlite::StoredClaim> best;
  for (sqlite::StoredClaim& held : *olders) {
    const Claim& h = held.claim;
    // One thing named by both holds a term of both (its head): most older claims share none.
    // (Two of one kind share a head, which a Chinese one of one character holds in no bigram.)
    const Terms older_terms = ContentTerms(*analyzer, h.text);
    if (std::none_of(older_terms.begin(), older_terms.end(),
                     [&](const std::string& t) { return said.count(t) > 0 || (!NameOfModel(t).empty() && said.count(NameOfModel(t)) > 0); }) &&
        !MayNameOneKind(changed, h.text) && kin_text().empty()) {
      continue;
    }
    // "my wife switched her car", "the neighbors changed their kitchen lights"
    if (NamesSomeoneElse(newer_people, h.text) || SaysTheirs(parts, clause, h.text, older_terms)) continue;
    if (ToldAsEarlier(evidence, said_at, h)) continue;
    // Its statement, without the subject's own name (a thing's name is what it is about).
    const ThingPhrases older = ReadThingPhrases(*analyzer, h.text, h.subject == c.subject ? ignored : Terms{});
    // A product's version ends with the product ("ditched windows for linux mint" after "I'm using
    // Windows 11": the claim is Windows's version 11), read as said of the product in use (a
    // statement's first word is no name by its capital alone: ended_thing.h).
    const std::string product = h.predicate == "version" && h.subject != c.subject ? "using " + h.subject + " " + h.value : "";
    const bool ends = NamesAnEndedThing(*analyzer, ended, said, older, h.text) ||
                      (!product.empty() &&
                       NamesAnEndedThing(*analyzer, ended, said, ReadThingPhrases(*analyzer, product, Terms{}), product));
    // The usual stays the usual beside a temporary value; what ended, ended ("sold the civic,
    // taking the bus for now").
    const bool replaceable = affirmed && !(temporary && SaysTheUsual(h));
    const bool same = replaceable && !EndedOnlyClosable(h) &&
                      (NameTheSameThing(newer, older) ||
                       (extraction::rules::HasHan(evidence) && OpensWithTheTopicOf(evidence, h.text)));
    // Or, in place of the thing the older names, another of its kind (same_kind.h), a habit's too
    // ("switched to the night shift" after "I work the early shift"); never what one owns, which
    // one adds to.
    // ("My wife is on the night shift" is hers: the speaker's change of shift leaves it.)
    const bool kind = replaceable && !same && h.predicate != "owns" &&
                      NameOneKind(changed, newer.terms, clause,
                                  FreeStatement(h) ? StatedValuePhrases(*analyzer, h.text, ignored) : ValuePhrases(*analyzer, h.value),
                                  h.text, NamesSomeoneElse(PeopleNamed(h.text), evidence));
    // Or another thing of its kind, which word vectors know and no grammar reads ("switched to
    // Firefox last week" after "Chrome is my main browser": kin_change.h).
    const bool kin_thing = replaceable && !same && !kind && KinReplaceable(h.predicate) && !kin_text().empty() &&
                           NamesAKinThingOf(*kin, h, kin_text(), clause, c.value);
    if (!same && !ends && !kind && !kin_thing) continue;
    // Starting or joining the thing the older is about says nothing of its own value: "I started
    // my own online clothing store" after "my online clothing store has been a roller coaster".
    if (!ends && StartsTheSubjectOf(*analyzer, c, h)) continue;
    // A restatement says the older's value again; an ending names it as what ended.
    if (!ends && !HasTermOutside(ContentTerms(*analyzer, h.value), said)) continue;
    if (!best || h.valid_from > best->claim.valid_from) best = std::move(held);
  }
  return best;
}

}  // namespace engram
