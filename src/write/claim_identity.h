// write/claim_identity.h — the keys that decide when two claims are the same fact, the same
// question (single-valued slot) or the same fact with its polarity flipped, and the protected atoms
// that forbid merging near-copies.
#ifndef ENGRAM_WRITE_CLAIM_IDENTITY_H_
#define ENGRAM_WRITE_CLAIM_IDENTITY_H_

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "text/protected_atoms.h"
#include "write/extraction/extractor.h"

namespace engram {

// Predicates with one current value per subject (and slot). A new value supersedes the old one.
// Default: name, age, birthday, hometown, lives_in, job, employer, school, favorite, uses (the last
// two only with a slot), has_relation with a spouse slot, and every attribute that
// data/lexicon/attributes.tsv marks single. Everything else — "status" too, which
// covers unrelated states (married, allergic, retired) — is additive:
// two values coexist (bug_scenarios.md B06).
class PredicateRegistry {
 public:
  PredicateRegistry();
  // Adds a single-valued predicate (configuration).
  void AddSingleValued(std::string predicate) { single_valued_.insert(std::move(predicate)); }
  bool IsSingleValued(std::string_view predicate, std::string_view slot) const;

 private:
  std::set<std::string, std::less<>> single_valued_;
};

struct ClaimKeys {
  std::string topic_key;     // norm(subject)|predicate|norm(slot)
  std::string conflict_key;  // topic_key when single-valued, "" otherwise
  std::string polarity_key;  // topic_key|norm(value)
  std::string fact_hash;     // hash of polarity_key and negation (32 hex digits)
  bool negated = false;
};

// topic_key also holds the claim's identity qualifiers ("deployment=blue", sorted), so two
// deployments are two slots. conflict_key is empty for a claim that does not state the current
// value (negated, planned, past, reported, hypothetical, required): those never supersede another
// value. polarity_key's value is normalised (case, width, a leading article or possessive:
// "my Leica M6" = "a Leica M6").
// The key of a claim's subject in its topic and conflict keys: NormalizeKey's, with a Chinese
// relative said short or doubled as one (我姐 and 我姐姐, 我的妈妈 and 我妈妈). Never fails.
std::string SubjectKey(std::string_view subject);

ClaimKeys ComputeClaimKeys(const extraction::CandidateClaim& c, const PredicateRegistry& registry);

// True unless the claim is negated, planned, past, reported, hypothetical or required: only a
// stated fact or change may replace a current value.
bool StatesCurrentValue(const extraction::CandidateClaim& c);

// NormalizeKey of `value` without leading articles and possessives ("a ", "the ", "my ", "我的").
std::string NormalizeValue(std::string_view value);

// Word-set similarity of two values (Jaccard over NFKC-folded words; CJK by character bigrams),
// 0–1. A value contained in the other scores at least 0.8.
double ValueSimilarity(std::string_view a, std::string_view b);

// The near-copy rule: similarity ≥ 0.8, equal protected atoms and the same numbers in the same
// order ("5 月 3 号" is no copy of "3 月 5 号", though their atoms are equal).
bool IsNearCopy(std::string_view a, std::string_view b);

// The near-copy rule against one fixed value, whose words are computed once and its protected
// atoms at most once: NearCopyOf(a).Matches(b) == IsNearCopy(a, b). For the writer, which checks
// one candidate against every current value of its topic. Not thread-safe (a lazy member).
class NearCopyOf {
 public:
  explicit NearCopyOf(std::string_view value);
  bool Matches(std::string_view other) const;

 private:
  std::string value_;
  std::set<std::string> words_;
  mutable std::optional<std::set<std::string>> atoms_;
};

}  // namespace engram

#endif  // ENGRAM_WRITE_CLAIM_IDENTITY_H_
