#include "write/claim_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "util/ulid.h"
#include "write/change_value.h"
#include "write/corrected_value.h"
#include "write/same_thing.h"
#include "write/subject_resolution.h"
#include "write/extraction/lexicon.h"

namespace engram {
namespace {

int AuthorityRank(std::string_view authority) {
  if (authority == "high") return 3;
  if (authority == "medium") return 2;
  return 1;
}

Status Record(sqlite::ClaimStore& store, const ClaimWriteInput& in, std::optional<int64_t> claim_seq,
              std::string_view decision, std::string_view reason, std::string_view detail) {
  std::optional<int64_t> event_seq;
  if (!in.source_event_seqs.empty()) event_seq = in.source_event_seqs.front();
  return store.AddDecision(in.namespace_id, event_seq, claim_seq, in.now, decision, reason, detail,
                           CandidateJson(*in.candidate));
}

// Adds the candidate's sources as evidence of an existing claim (dedup, merge).
Result<ClaimWriteOutcome> Absorb(sqlite::ClaimStore& store, const ClaimWriteInput& in,
                                 const sqlite::StoredClaim& existing, const char* decision,
                                 const char* reason) {
  for (int64_t seq : in.source_event_seqs) {
    ENGRAM_RETURN_IF_ERROR(store.AddEvidence(existing.seq, seq, "supports", in.now));
  }
  ENGRAM_RETURN_IF_ERROR(store.AddHistory(existing.seq, in.now, in.actor, "evidence_added", reason, "{}",
                                          nlohmann::json{{"value", in.candidate->value}}.dump()));
  ENGRAM_RETURN_IF_ERROR(Record(store, in, existing.seq, decision, reason, ""));
  return ClaimWriteOutcome{decision, existing.claim, 0};
}

// How many of a namespace's most recent current claims a correction with no subject of its own
// looks through for the value it corrects.
constexpr int kCorrectionLookback = 50;

// A candidate whose attribute the text did not give: a bare correction ("不对，是周四", "I meant
// Thursday, not Tuesday") or a change that names only what it replaces ("green tea instead of
// coffee").
bool AttributeUnsaid(const extraction::CandidateClaim& c) {
  return c.predicate == "corrects" || (c.predicate == "uses" && c.slot.empty());
}

// A statement kept whole by the extractor (explicit_memory, statement): read by its names and
// tokens only (corrected_value.h).
bool KeptWhole(const Claim& h) {
  return h.predicate == "explicit_memory" || h.predicate == extraction::kPredicateStatement;
}

// True when `text` holds `value` as whole words, ASCII case ignored ("B12" in "My flight lands at
// gate B12"; not "B1" there).
bool HoldsWords(std::string_view text, std::string_view value) {
  if (value.empty()) return false;
  auto lower = [](std::string_view in) {
    std::string out(in);
    for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
  };
  const std::string t = lower(text);
  const std::string v = lower(value);
  auto word_char = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
  for (size_t at = t.find(v); at != std::string::npos; at = t.find(v, at + 1)) {
    const bool starts = at == 0 || !word_char(t[at - 1]) || !word_char(v.front());
    const bool ends = at + v.size() == t.size() || !word_char(t[at + v.size()]) || !word_char(v.back());
    if (starts && ends) return true;
  }
  return false;
}

// True when a correction's words ask, hedge, suppose or take it back anywhere ("Correction:
// Tuesday, or was it Monday", "My bad, 1989, jk", 不对，是不是周二, "Tuesday, never mind"): it
// corrects nothing yet (markers.tsv `question`, `uncertain`, `hypothetical`, `retract`, `undone`;
// not `limits`, whose 我是说 "I mean" says a correction).
bool TakesItBack(std::string_view evidence) {
  if (evidence.find('?') != std::string_view::npos || evidence.find("？") != std::string_view::npos) return true;
  std::string lowered(evidence);
  for (char& ch : lowered) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  for (std::string_view kind : {"question", "uncertain", "hypothetical", "retract", "undone"}) {
    for (const extraction::PhraseHit& hit : lex.FindMarkers(lowered, kind)) {
      if (!lex.HasMarker(hit.phrase, "correction")) return true;  // "scratch that" corrects
    }
  }
  return false;
}

// The sentence of the candidate's evidence that says `value` (its value), less the clauses after
// the value's that say the speaker was wrong (a correction word: "哦不对，房租是每月5400，我把数字记反了"):
// "Correction: Tuesday, for the haircut" is about the haircut; "sorry, I meant gate C7, not B12" about
// the gate. The value itself when the evidence does not hold it.
std::string SentenceOfTheValue(const extraction::CandidateClaim& c, std::string_view value) {
  const std::string_view evidence = c.evidence_span;
  const size_t at = value.empty() ? std::string_view::npos : evidence.find(value);
  if (at == std::string_view::npos) return c.value;
  size_t begin = 0;
  size_t end = evidence.size();
  for (std::string_view mark : {". ", "! ", "? ", "。", "！", "？", "…", "\n"}) {
    const size_t before = evidence.rfind(mark, at);
    if (before != std::string_view::npos && before < at) begin = std::max(begin, before + mark.size());
    const size_t after = evidence.find(mark, at + value.size());
    if (after != std::string_view::npos) end = std::min(end, after);
  }
  // A spaced dash before the value opens the statement corrected ("Just checked the registration —
  // it's a 2017, not a 2015").
  for (std::string_view dash : {" \xE2\x80\x94 ", " \xE2\x80\x93 "}) {
    const size_t before = evidence.rfind(dash, at);
    if (before != std::string_view::npos && before >= begin && before < at) begin = before + dash.size();
  }
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  std::string said;
  for (const auto& [from, to] : ClauseSpans(evidence.substr(begin, end - begin))) {
    const std::string_view clause = evidence.substr(begin + from, to - from);
    std::string lowered(clause);
    for (char& ch : lowered) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool after_value = begin + from > at;
    if (after_value && lex.HasMarker(lowered, "correction")) continue;
    said += clause;
    said += ' ';
  }
  return said;
}

// `value` with its corrected part (at `at`) replaced by what replaces it ("Tuesday at 3" of "Monday
// at 3"), or what replaces it whole when it says the rest of `value` itself: "my landlord is Gary
// Pembleton, not Pendleton" corrects "Gary Pendleton" to "Gary Pembleton", not "Gary Gary Pembleton".
std::string CorrectedValue(const std::string& value, size_t at, const CorrectedPair& part) {
  auto trimmed = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  const std::string_view before = trimmed(std::string_view(value).substr(0, at));
  const std::string_view after = trimmed(std::string_view(value).substr(at + part.older.size()));
  if ((!before.empty() || !after.empty()) && (before.empty() || HoldsWords(part.newer, before)) &&
      (after.empty() || HoldsWords(part.newer, after))) {
    return part.newer;
  }
  return value.substr(0, at) + part.newer + value.substr(at + part.older.size());
}

// What a correction replaces: a claim, and the part of it corrected and what replaces it (empty =
// its value whole, by the candidate's value).
struct Corrected {
  std::vector<sqlite::StoredClaim> claims;
  CorrectedPair part;
};

// The claim a correction whose attribute was not said corrects, among the namespace's recent
// claims, newest first: the one holding the value it names as replaced ("not B12": a value, or a
// statement kept whole that holds it as words), else the one holding a value of the correction's
// kind (corrected_value.h: "Heathrow" corrects "My flight to Lisbon leaves from Gatwick"), else the
// claim of a single-valued slot stated last ("不对，是周四"). Only a slot or a statement can be
// corrected, "I did X" not, whatever came after it — unless the correction names the value it
// replaces, which any claim holding it may be.
Result<Corrected> CorrectedClaim(sqlite::ClaimStore& store, int64_t ns, const extraction::CandidateClaim& c,
                                 const PredicateRegistry& registry, const KinLookup* kin) {
  if (TakesItBack(c.evidence_span.empty() ? std::string_view(c.value) : std::string_view(c.evidence_span))) {
    return Corrected{};
  }
  auto recent = store.RecentCurrent(ns, kCorrectionLookback);
  if (!recent) return Error(recent.error());
  std::optional<size_t> last_slot;
  for (size_t i = 0; i < recent->size(); ++i) {
    const Claim& h = (*recent)[i].claim;
    const bool slot = registry.IsSingleValued(h.predicate, h.slot);
    if ((*recent)[i].negated || h.predicate == "corrects") continue;
    // A correction that names what it replaces corrects any claim holding it ("it's a 2017, not a
    // 2015" after "I drive a 2015 Mazda 3"); one that does not, only a slot or a statement.
    if (!slot && !KeptWhole(h) && c.replaces_value.empty()) continue;
    // Such a claim of no slot is corrected only by a value of its value's kind, said in as many
    // words as the value it replaces ("it's a 2017, not a 2015"; "Sorry, I meant 3 pm, not 2" is no
    // correction of "I have 2 kids").
    if (!slot && !KeptWhole(h) &&
        (!CorrectedPart(c.value, h.value, false, kin) ||
         std::count(c.value.begin(), c.value.end(), ' ') != std::count(c.replaces_value.begin(), c.replaces_value.end(), ' '))) {
      continue;
    }
    // A correction says its value and nothing the older does not ("Sorry, I meant table 5, not 4"
    // after "My daughter is 4" is about a table; 说错了，那趟航班是9点的 about a flight).
    const std::string older_said = h.text + " " + h.value;
    if (!c.replaces_value.empty()) {
      if (NormalizeValue(h.value) == NormalizeValue(c.replaces_value) || HoldsWords(h.value, c.replaces_value)) {
        // What replaces it: the part of the correction of the replaced value's kind ("C7" of
        // "gate C7, not B12"), else the correction's value.
        const auto pair = CorrectedPart(c.value, c.replaces_value, false, kin);
        const std::string newer = pair ? pair->newer : c.value;
        if (!SaysOnlyTheValue(SentenceOfTheValue(c, newer), newer, older_said, true)) continue;
        return Corrected{{std::move((*recent)[i])}, {c.replaces_value, newer}};
      }
      continue;
    }
    if (auto part = CorrectedPart(c.value, h.value, KeptWhole(h), kin)) {
      if (SaysOnlyTheValue(SentenceOfTheValue(c, part->newer), part->newer, older_said, true)) {
        return Corrected{{std::move((*recent)[i])}, *part};
      }
      continue;  // a value of its kind, about another thing: no later claim is the one meant
    }
    if (slot && !last_slot) last_slot = i;
  }
  // A correction kept whole (successor_only: the grammar read no value from it), or one of a time
  // or a number, corrects only a value of its kind; any other says nothing the slot does not.
  if (!last_slot || c.successor_only || SaysATimeOrANumber(c.value)) return Corrected{};
  const Claim& slot = (*recent)[*last_slot].claim;
  // (Its Chinese words are not read here: the slot's value is replaced whole, and a Chinese
  // correction words its slot its own way.)
  if (!SaysOnlyTheValue(SentenceOfTheValue(c, c.value), c.value, slot.text + " " + slot.value, false)) {
    return Corrected{};
  }
  return Corrected{{std::move((*recent)[*last_slot])}, {}};
}

// The claim a correction of another subject corrects, named by its value in the correction's own
// sentence ("Wait, I had that wrong — the ceremony is in Sonoma, Napa was just where they did the
// tasting" after "My cousin's wedding is in Napa"): the one current claim of the correction's
// attribute and slot, of another subject, whose value the sentence says (not as its own value) —
// when the correction's subject holds no current value of that attribute itself. Empty otherwise.
Result<std::vector<sqlite::StoredClaim>> TheSlotItNamesAgain(sqlite::ClaimStore& store, int64_t ns,
                                                            const extraction::CandidateClaim& c) {
  std::vector<sqlite::StoredClaim> out;
  if (c.evidence_span.empty()) return out;
  auto recent = store.RecentCurrent(ns, kCorrectionLookback);
  if (!recent) return Error(recent.error());
  for (sqlite::StoredClaim& held : *recent) {
    const Claim& h = held.claim;
    if (held.negated || h.predicate != c.predicate || h.slot != c.slot) continue;
    if (h.subject == c.subject) return std::vector<sqlite::StoredClaim>{};  // its own value: the usual slot
    if (h.value.empty() || HoldsWords(c.value, h.value) || !HoldsWords(c.evidence_span, h.value)) continue;
    if (!out.empty()) return std::vector<sqlite::StoredClaim>{};  // two named: which is meant is not said
    out.push_back(std::move(held));
  }
  return out;
}

// The current claims the candidate replaces: of its subject, those holding the value it says it
// replaces ("from Lisbon", "instead of coffee"), stated ones only. A correction whose attribute was
// not said looks at the namespace's recent claims of any subject (CorrectedClaim); `part` is then
// the part of the claim it corrects ("" = its value whole).
Result<std::vector<sqlite::StoredClaim>> ReplacedClaims(sqlite::ClaimStore& store, int64_t ns,
                                                       const extraction::CandidateClaim& c,
                                                       const PredicateRegistry& registry, const KinLookup* kin,
                                                       CorrectedPair* part) {
  std::vector<sqlite::StoredClaim> out;
  if (c.correction && c.replaces_value.empty() && !AttributeUnsaid(c)) return TheSlotItNamesAgain(store, ns, c);
  if (c.replaces_value.empty() && !(c.correction && c.predicate == "corrects")) return out;
  const std::string wanted = NormalizeValue(c.replaces_value);
  if (!c.replaces_value.empty()) {
    auto current = store.CurrentBySubject(ns, c.subject);
    if (!current) return Error(current.error());
    for (sqlite::StoredClaim& held : *current) {
      if (!held.negated && NormalizeValue(held.claim.value) == wanted) out.push_back(std::move(held));
    }
    // A correction of a part of the value ("Sorry, my cat is 3, not 2" after "My cat is 2 years
    // old"): that part is replaced, the rest kept.
    for (sqlite::StoredClaim& held : *current) {
      if (!out.empty() || !c.correction || held.negated || held.claim.predicate != c.predicate) continue;
      if (!HoldsWords(held.claim.value, c.replaces_value)) continue;
      *part = CorrectedPair{c.replaces_value, c.value};
      out.push_back(std::move(held));
    }
  }
  if (out.empty() && c.correction && !c.replaces_value.empty() && !AttributeUnsaid(c)) {
    // "Sorry, my license plate is 7KLM329, not 7KLM392" after "My car's license plate is 7KLM392":
    // the claim of its attribute holding the value named as replaced, its subject named in part.
    auto recent = store.RecentCurrent(ns, kCorrectionLookback);
    if (!recent) return Error(recent.error());
    for (sqlite::StoredClaim& held : *recent) {
      const Claim& h = held.claim;
      if (held.negated || h.predicate != c.predicate || h.slot != c.slot || NormalizeValue(h.value) != wanted) continue;
      if (!NamesPartOf(c.subject, h.subject) && !NamesPartOf(h.subject, c.subject)) continue;
      out.push_back(std::move(held));
      return out;
    }
  }
  if (!out.empty() || !c.correction || !AttributeUnsaid(c)) return out;
  auto corrected = CorrectedClaim(store, ns, c, registry, kin);
  if (!corrected) return Error(corrected.error());
  *part = corrected->part;
  return std::move(corrected->claims);
}

// "I moved to Tainan last month", said after "Mei lives in Taipei": a change dated before a value
// whose start was never said (its valid_from is only when it was said) is newer news, not an older
// value learnt late.
// `says_change`: the candidate was found to change it by other means (same_thing.h).
bool ChangeReportedLate(const extraction::CandidateClaim& c, const Claim& old, bool says_change) {
  return (c.change || says_change) && !c.time_phrase.empty() && old.time_phrase.empty();
}

}  // namespace

std::string ClaimSearchWords(const std::string& predicate, const std::string& slot) {
  return extraction::Lexicon::Get().SearchWords(predicate, slot);
}

std::string CandidateJson(const extraction::CandidateClaim& c) {
  nlohmann::ordered_json j;
  j["subject"] = c.subject;
  j["predicate"] = c.predicate;
  if (!c.slot.empty()) j["slot"] = c.slot;
  j["value"] = c.value;
  j["text"] = c.text;
  j["qualifiers"] = c.qualifiers;
  if (!c.time_phrase.empty()) j["time_phrase"] = c.time_phrase;
  j["scope"] = c.scope;
  j["confidence"] = c.confidence;
  j["evidence_span"] = c.evidence_span;
  if (!c.replaces_value.empty()) j["replaces"] = c.replaces_value;
  if (c.correction) j["correction"] = true;
  if (c.change) j["change"] = true;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<ClaimWriteOutcome> WriteClaim(sqlite::ClaimStore& store, sqlite::TombstoneStore& tombstones,
                                     const PredicateRegistry& registry, const ClaimWriteInput& given) {
  // Whose fact it is, when the text named its thing in part or not at all (subject_resolution.h).
  auto resolved = ResolveSubject(store, given.namespace_id, *given.candidate, registry);
  if (!resolved) return Error(resolved.error());
  ClaimWriteInput in = given;
  in.candidate = &*resolved;
  // A change that names the value it replaces takes that value's slot when its own attribute was
  // not said ("I've switched to green tea instead of coffee" continues the coffee habit).
  CorrectedPair corrected_part;  // of a bare correction: the part of the claim it corrects
  auto replaced = ReplacedClaims(store, in.namespace_id, *in.candidate, registry, in.kin, &corrected_part);
  if (!replaced) return Error(replaced.error());
  // A change that names the thing an older statement was about, read into another attribute
  // (same_thing.h), closes that statement.
  bool same_thing = false;
  // (A correction kept whole corrects by the kind of its value only: "Correction: gate C7 was
  // closed" names the gate, but says nothing of where the flight lands.)
  if (replaced->empty() && !(in.candidate->successor_only && in.candidate->correction)) {
    auto older = SameThingClaim(store, in.namespace_id, *in.candidate, in.source_time, registry, in.kin);
    if (!older) return Error(older.error());
    if (older->has_value()) {
      replaced->push_back(std::move(**older));
      same_thing = true;
    }
  }
  if (in.candidate->successor_only && replaced->empty()) {
    ENGRAM_RETURN_IF_ERROR(Record(store, in, std::nullopt, "rejected", "changes_nothing", ""));
    return ClaimWriteOutcome{kDecisionChangesNothing, Claim{}, 0};
  }
  extraction::CandidateClaim adopted;
  // (Only a value named as replaced says which attribute: a change of the same thing may be of
  // another attribute of it.)
  // (A correction naming its subject in part, or a part of the value, takes the subject and the rest
  // of the value of what it corrects.)
  const bool named_in_part = in.candidate->correction && !replaced->empty() && !same_thing &&
                             (replaced->front().claim.subject != in.candidate->subject || !corrected_part.older.empty());
  if (!replaced->empty() && !same_thing && (AttributeUnsaid(*in.candidate) || named_in_part)) {
    adopted = *in.candidate;
    const Claim& old = replaced->front().claim;
    if (in.candidate->correction) {  // a bare correction is about what it corrects
      adopted.subject = old.subject;
      for (const std::string& q : old.qualifiers) {
        if (q.find(extraction::kCoordinateSeparator) != std::string::npos) adopted.qualifiers.push_back(q);
      }
      std::sort(adopted.qualifiers.begin(), adopted.qualifiers.end());
    }
    adopted.predicate = old.predicate;
    adopted.slot = old.slot;
    // Its statement is the old one with the new value ("Lin's favorite colour is green"); of a
    // part corrected, the old value with that part replaced ("Tuesday at 3" of "Monday at 3";
    // "My flight to Lisbon leaves from Heathrow.").
    if (const size_t in_value = corrected_part.older.empty() ? std::string::npos : old.value.find(corrected_part.older);
        in_value != std::string::npos) {
      adopted.value = CorrectedValue(old.value, in_value, corrected_part);
    }
    if (size_t at = old.text.find(old.value); at != std::string::npos) {
      adopted.text = old.text.substr(0, at) + adopted.value + old.text.substr(at + old.value.size());
    }
  }
  const extraction::CandidateClaim& c = adopted.predicate.empty() ? *in.candidate : adopted;
  ClaimKeys keys = ComputeClaimKeys(c, registry);

  // 0. A forgotten fact stays forgotten. The decision record keeps no candidate text.
  auto tomb = tombstones.FindForFact(in.namespace_id, keys.fact_hash);
  if (!tomb) return Error(tomb.error());
  if (tomb->has_value()) {
    std::optional<int64_t> event_seq;
    if (!in.source_event_seqs.empty()) event_seq = in.source_event_seqs.front();
    ENGRAM_RETURN_IF_ERROR(store.AddDecision(in.namespace_id, event_seq, std::nullopt, in.now, "rejected",
                                             "forgotten", "tombstone " + **tomb, "{}"));
    return ClaimWriteOutcome{kDecisionForgotten, Claim{}, 0};
  }

  // 1. Exact duplicate of a current claim: evidence only (B04, B12).
  auto same = store.CurrentByFactHash(in.namespace_id, keys.fact_hash);
  if (!same) return Error(same.error());
  if (same->has_value()) return Absorb(store, in, **same, kDecisionDuplicate, "exact_duplicate");

  // 2. Near-copy of a current claim on the same topic with the same polarity (B10).
  //    Only the values are read for the check; the claim itself once it matched.
  const std::string near_copy_key = NearCopyKey(c.value);
  auto topic = store.CurrentValuesByTopic(in.namespace_id, keys.topic_key, near_copy_key);
  if (!topic) return Error(topic.error());
  const NearCopyOf near_copy(c.value);
  // (Not of a claim it replaces: "It's 4D" corrects "… is 4B", one letter apart.)
  const auto replaces = [&](int64_t seq) {
    return std::any_of(replaced->begin(), replaced->end(), [&](const sqlite::StoredClaim& r) { return r.seq == seq; });
  };
  for (const sqlite::TopicValue& existing : *topic) {
    if (existing.negated == keys.negated && !replaces(existing.seq) && near_copy.Matches(existing.value)) {
      auto claim = store.BySeq(existing.seq);
      if (!claim) return Error(claim.error());
      return Absorb(store, in, *claim, kDecisionMerged, "near_copy");
    }
  }

  sqlite::StoredClaim fresh;
  fresh.negated = keys.negated;
  fresh.topic_key = keys.topic_key;
  fresh.polarity_key = keys.polarity_key;
  fresh.search_words = ClaimSearchWords(c.predicate, c.slot);
  fresh.near_copy_key = near_copy_key;
  Claim& claim = fresh.claim;
  claim.id = NewUlid(in.now);
  claim.namespace_name = in.namespace_name;
  claim.subject = c.subject;
  claim.predicate = c.predicate;
  claim.slot = c.slot;
  claim.value = c.value;
  claim.text = c.text.empty() ? fmt::format("{} {} {}", c.subject, c.predicate, c.value) : c.text;
  claim.qualifiers = c.qualifiers;
  std::sort(claim.qualifiers.begin(), claim.qualifiers.end());
  claim.qualifiers.erase(std::unique(claim.qualifiers.begin(), claim.qualifiers.end()), claim.qualifiers.end());
  claim.valid_from = c.valid_from.value_or(in.source_time);
  claim.valid_to = c.valid_to;
  claim.recorded_from = in.now;
  claim.status = "active";
  claim.scope = c.scope.empty() ? "state" : c.scope;
  claim.authority = in.admission.authority;
  claim.assertion = in.admission.assertion;
  claim.confidence = std::clamp(c.confidence, 0.0, 1.0);
  claim.importance = std::clamp(c.importance, 0.0, 1.0);
  claim.conflict_key = keys.conflict_key;
  claim.fact_hash = keys.fact_hash;
  claim.time_phrase = c.time_phrase;
  claim.extractor = in.extractor;

  // 3. What the new claim contradicts: the same fact with the opposite polarity (B01, B08), and
  //    the active value of a single-valued slot (B38). Additive facts never conflict (B06).
  std::vector<sqlite::StoredClaim> opponents;
  auto flipped = store.CurrentByPolarity(in.namespace_id, keys.polarity_key);
  if (!flipped) return Error(flipped.error());
  for (auto& f : *flipped) {
    if (f.negated != keys.negated) opponents.push_back(std::move(f));
  }
  if (!keys.conflict_key.empty()) {
    auto holders = store.CurrentByConflictKey(in.namespace_id, keys.conflict_key);
    if (!holders) return Error(holders.error());
    for (auto& h : *holders) {
      if (h.polarity_key != keys.polarity_key) opponents.push_back(std::move(h));
    }
  }
  // (A change of the same thing may be read as a denial: "sold the civic", "no longer owns civic"
  // ends "drives a Honda Civic"; same_thing.h allowed it.)
  if (StatesCurrentValue(c) || same_thing) {
    // A change of the thing ends the values disputed beside the one it closes: of one slot, each
    // was a candidate for the value that has now changed ("I do audit work for mid-size clients"
    // read as a second employer beside Deloitte, then "moved over to KPMG").
    if (same_thing) {
      for (const sqlite::StoredClaim& r : std::vector<sqlite::StoredClaim>(*replaced)) {
        if (r.claim.conflict_key.empty()) continue;
        auto holders = store.CurrentByConflictKey(in.namespace_id, r.claim.conflict_key);
        if (!holders) return Error(holders.error());
        for (sqlite::StoredClaim& h : *holders) {
          if (h.claim.status == "disputed" && h.seq != r.seq) replaced->push_back(std::move(h));
        }
      }
    }
    for (sqlite::StoredClaim& r : *replaced) {
      const bool listed = std::any_of(opponents.begin(), opponents.end(),
                                      [&](const sqlite::StoredClaim& o) { return o.seq == r.seq; });
      if (!listed && r.polarity_key != keys.polarity_key) opponents.push_back(std::move(r));
    }
  }

  std::string decision = kDecisionCreated;
  std::string reason = "new_fact";
  std::vector<const sqlite::StoredClaim*> to_close;
  for (const sqlite::StoredClaim& old : opponents) {
    if (old.claim.status == "disputed" && claim.valid_from > old.claim.valid_from) {
      to_close.push_back(&old);  // a disputed value yields to a clear newer statement
    } else if (old.claim.status == "disputed") {
      continue;  // an older or simultaneous statement does not settle a dispute
    } else if (AuthorityRank(claim.authority) < AuthorityRank(old.claim.authority) ||
               claim.valid_from == old.claim.valid_from) {
      // Unclear: a weaker source, or no way to order them in time → review, never a silent drop.
      decision = kDecisionDisputed;
      reason = AuthorityRank(claim.authority) < AuthorityRank(old.claim.authority) ? "weaker_source"
                                                                                    : "same_valid_time";
      claim.status = "disputed";
    } else if (claim.valid_from < old.claim.valid_from && !ChangeReportedLate(c, old.claim, same_thing)) {
      // An older fact learnt late: it was true before the current one; it never was current here.
      // It lasted until the next value in valid time — the current one, or an older value that
      // followed it and was itself superseded later.
      decision = kDecisionBackfill;
      reason = "older_than_current";
      claim.status = "superseded";
      claim.valid_to = old.claim.valid_from;
      claim.superseded_by_id = old.claim.id;
      if (!keys.conflict_key.empty()) {
        auto next = store.NextInValidTime(in.namespace_id, keys.conflict_key, claim.valid_from);
        if (!next) return Error(next.error());
        if (next->has_value() && (*next)->claim.valid_from < *claim.valid_to) {
          claim.valid_to = (*next)->claim.valid_from;
          claim.superseded_by_id = (*next)->claim.id;
        }
      }
      claim.recorded_to = in.now;  // empty recorded interval: engram never believed it current
    } else {
      to_close.push_back(&old);
    }
  }
  if (claim.status == "disputed") to_close.clear();
  if (claim.status == "active" && !to_close.empty()) {
    decision = kDecisionSuperseded;
    reason = c.correction                ? "correction"
             : !c.replaces_value.empty() ? "replaced_value"
             : same_thing                ? "same_thing"
                                         : "newer_value";
    claim.supersedes_id = to_close.front()->claim.id;
    for (const sqlite::StoredClaim* old : to_close) {
      ENGRAM_RETURN_IF_ERROR(store.MarkSuperseded(old->seq, claim.id, claim.valid_from, in.now));
      Claim after = old->claim;
      after.status = "superseded";
      after.superseded_by_id = claim.id;
      if (!after.valid_to || *after.valid_to > claim.valid_from) after.valid_to = std::max(claim.valid_from, after.valid_from);
      after.recorded_to = in.now;
      ENGRAM_RETURN_IF_ERROR(store.AddHistory(old->seq, in.now, in.actor, "superseded",
                                              fmt::format("superseded by {}", claim.id),
                                              sqlite::ClaimSnapshotJson(old->claim),
                                              sqlite::ClaimSnapshotJson(after)));
      for (int64_t seq : in.source_event_seqs) {
        ENGRAM_RETURN_IF_ERROR(store.AddEvidence(old->seq, seq, "contradicts", in.now));
      }
    }
  }

  auto seq = store.Insert(in.namespace_id, fresh);
  if (!seq) return Error(seq.error());
  for (int64_t event_seq : in.source_event_seqs) {
    ENGRAM_RETURN_IF_ERROR(store.AddEvidence(*seq, event_seq, "supports", in.now));
  }
  ENGRAM_RETURN_IF_ERROR(store.AddHistory(*seq, in.now, in.actor, "created", reason, "{}",
                                          sqlite::ClaimSnapshotJson(claim)));
  ENGRAM_RETURN_IF_ERROR(Record(store, in, *seq, decision, reason, in.admission.detail));
  return ClaimWriteOutcome{decision, claim, claim.status == "active" ? static_cast<int>(to_close.size()) : 0};
}

}  // namespace engram
