#include "write/same_thing.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"
#include "text/query_intent.h"
#include "text/stopwords.h"
#include "write/claim_identity.h"
#include "write/extraction/change_statement.h"
#include "write/subject_resolution.h"

namespace engram {
namespace {

using Terms = std::set<std::string>;

// True when `h` states a value a change can end: a free statement (`explicit_memory`, kept whole
// when the grammar read nothing from it), a single-valued attribute (PredicateRegistry), or what
// the speaker uses or prefers. Acts (did, started, joined) and what someone is doing or does by
// habit are not closed by shared words: in conversation they are activities, several at once.
bool Closable(const Claim& h, const PredicateRegistry& registry) {
  return h.predicate == "explicit_memory" || h.predicate == "uses" || h.predicate == "prefers" ||
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

// The current claims change `c` said at `said_at` may end (same_thing.h): its subject's own, and,
// unless `c` is itself about a thing, things' ("the team chat is on Slack", 办的健身卡是乐刻的);
// affirmed, said before, closable.
Result<std::vector<sqlite::StoredClaim>> OlderStates(sqlite::ClaimStore& store, int64_t namespace_id,
                                                    const extraction::CandidateClaim& c, TimestampMs said_at,
                                                    const PredicateRegistry& registry) {
  const std::string& subject = c.subject;
  auto own = store.RecentCurrentBySubject(namespace_id, subject, kOwnLookback);
  if (!own) return Error(own.error());
  auto recent = store.RecentCurrent(namespace_id, kThingLookback);
  if (!recent) return Error(recent.error());
  std::vector<sqlite::StoredClaim> out;
  auto keep = [&](sqlite::StoredClaim& held) {
    const Claim& h = held.claim;
    if (held.negated || h.status != "active" || h.valid_from >= said_at || !Closable(h, registry)) return;
    if (std::any_of(out.begin(), out.end(), [&](const sqlite::StoredClaim& o) { return o.seq == held.seq; })) return;
    out.push_back(std::move(held));
  };
  for (sqlite::StoredClaim& held : *own) keep(held);
  // A thing's change ("We upgraded us-east to kubernetes 1.29") is its own, not another thing's.
  if (c.predicate == "is" || IsThingAttribute(c.predicate)) return out;
  for (sqlite::StoredClaim& held : *recent) {
    if (held.claim.subject != subject && (held.claim.predicate == "is" || IsThingAttribute(held.claim.predicate))) {
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

// True when the candidate says a change of the current state (same_thing.h).
bool SaysAChange(const extraction::CandidateClaim& c, std::string_view evidence) {
  if (!StatesCurrentValue(c) || !c.replaces_value.empty()) return false;
  // A state said with its end ("for the next few days, reach me at 555-0199", 这几天) is how things
  // stand for that span, not a new value (text/now_stance.h kBounded).
  const text::NowStance stance = extraction::ReadNowStance(evidence);
  if (stance == text::NowStance::kBounded) return false;
  return c.change || c.correction || text::SaysAChange(stance);
}

}  // namespace

Result<std::optional<sqlite::StoredClaim>> SameThingClaim(sqlite::ClaimStore& store, int64_t namespace_id,
                                                          const extraction::CandidateClaim& c,
                                                          TimestampMs said_at, const PredicateRegistry& registry) {
  const std::string_view evidence = c.evidence_span.empty() ? std::string_view(c.text) : c.evidence_span;
  if (!SaysAChange(c, evidence)) return std::optional<sqlite::StoredClaim>();
  text::Analyzer* analyzer = ThreadAnalyzer();
  if (analyzer == nullptr) return std::optional<sqlite::StoredClaim>();
  const Terms subject = ContentTerms(*analyzer, c.subject);
  // The words said, verbatim: the candidate's value and evidence (a statement the writer composed
  // holds the speaker's name: "user的爸今年退休").
  Terms said = ContentTerms(*analyzer, evidence);
  const Terms new_value = ContentTerms(*analyzer, c.value);
  said.insert(new_value.begin(), new_value.end());
  for (const std::string& t : subject) said.erase(t);
  if (said.empty() || new_value.empty()) return std::optional<sqlite::StoredClaim>();

  const bool temporary = SaysATemporaryValue(c, evidence);
  auto olders = OlderStates(store, namespace_id, c, said_at, registry);
  if (!olders) return Error(olders.error());
  std::optional<sqlite::StoredClaim> best;
  size_t best_shared = 0;
  for (sqlite::StoredClaim& held : *olders) {
    const Claim& h = held.claim;
    if (temporary && SaysTheUsual(h)) continue;  // the usual stays the usual
    const Terms older_value = ContentTerms(*analyzer, h.value);
    // Its verbatim words: the slot and the value, and a thing's name.
    Terms older = ContentTerms(*analyzer, h.subject == c.subject ? h.slot : h.slot + " " + h.subject);
    older.insert(older_value.begin(), older_value.end());
    const size_t shared = static_cast<size_t>(
        std::count_if(said.begin(), said.end(), [&](const std::string& t) { return older.count(t) > 0; }));
    if (shared == 0 || !HasTermOutside(new_value, older) || !HasTermOutside(older_value, said)) continue;
    if (shared > best_shared || (shared == best_shared && best && h.valid_from > best->claim.valid_from)) {
      best_shared = shared;
      best = std::move(held);
    }
  }
  return best;
}

}  // namespace engram
