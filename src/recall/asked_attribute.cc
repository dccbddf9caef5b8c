// recall/asked_attribute.cc — see asked_attribute.h.
#include "recall/asked_attribute.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "text/person_topic.h"
#include "text/stopwords.h"
#include "write/extraction/extractor.h"

namespace engram {

namespace {

// The content terms of `text` among `question` (sorted, each once).
std::vector<std::string> HeldTerms(text::Analyzer& analyzer, std::string_view text,
                                   const std::set<std::string, std::less<>>& question) {
  std::vector<std::string> held;
  for (const std::string& token : analyzer.QueryTokenSet(text)) {
    if (question.count(token) > 0 && !text::IsFunctionTerm(token)) held.push_back(token);
  }
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  return held;
}

std::vector<std::string> ContentTerms(text::Analyzer& analyzer, std::string_view text) {
  std::vector<std::string> terms;
  for (const std::string& token : analyzer.QueryTokenSet(text)) {
    if (!text::IsFunctionTerm(token)) terms.push_back(token);
  }
  return terms;
}

// Who said the event an item was read from: its first "supports" evidence's speaker, else role.
std::string_view SpeakerOf(const RecallItem& claim) {
  for (const EvidenceRef& e : claim.evidence) {
    if (e.relation == "supports") return e.speaker.empty() ? std::string_view(e.role) : std::string_view(e.speaker);
  }
  return claim.evidence.empty() ? std::string_view() : std::string_view(claim.evidence.front().role);
}

bool OfAskedAttribute(std::string_view predicate, std::string_view slot, const std::vector<AskedAttribute>& asked) {
  return std::any_of(asked.begin(), asked.end(), [&](const AskedAttribute& a) {
    return a.attribute == predicate && (a.slot.empty() || a.slot == slot);
  });
}

// Everything the two steps read of the question once.
struct Asked {
  std::vector<AskedAttribute> attributes;
  AskedPerson person;
  std::vector<std::string> attribute_terms;  // the content terms of the words naming them
  // The content terms of a relation that named the person asked about, and of whose relation it is
  // ("husband", "user" of "user's husband is Tom" for "Where does the user's husband work?").
  std::vector<std::string> relation_terms;
};

Asked ReadAsked(RecallContext& ctx, std::string_view question, const std::set<std::string, std::less<>>& terms) {
  Asked asked;
  asked.attributes = ctx.asked_attributes(question);
  for (const std::string& term : terms) {
    if (!text::IsFunctionTerm(term)) asked.person.terms.insert(term);
  }
  if (ctx.topics_of) {
    const std::vector<std::string> topics = ctx.topics_of(question);
    const bool speaker = std::find(topics.begin(), topics.end(), text::kSpeakerTopic) != topics.end();
    asked.person.speaker = speaker && std::none_of(topics.begin(), topics.end(), text::IsOtherPersonTopic);
  }
  for (const AskedAttribute& a : asked.attributes) {
    for (std::string& t : HeldTerms(ctx.analyzer, a.word, asked.person.terms)) asked.attribute_terms.push_back(std::move(t));
  }
  return asked;
}

// True when a claim's qualifiers say it is not how things stand: a plan, a requirement, a report, a
// wish, a denial or the past ("计费服务在第三季度之前必须保持在v1" says nothing of the version run).
bool SaysNotNow(const std::vector<std::string>& qualifiers) {
  for (const char* q : {extraction::kQualNegated, extraction::kQualPlanned, extraction::kQualPast,
                        extraction::kQualReported, extraction::kQualHypothetical, extraction::kQualRequired}) {
    if (std::find(qualifiers.begin(), qualifiers.end(), q) != qualifiers.end()) return true;
  }
  return false;
}

// The person a question names through the speaker's relation ("my husband", "the user's husband")
// is the one a recalled standing relation claim names ("user's husband is Tom"): their name's terms
// join the asked person's, and the speaker is no longer asked about.
void NamedThroughARelation(RecallContext& ctx, const std::vector<RecallItem>& items, Asked& asked) {
  for (const RecallItem& item : items) {
    if (item.type != "claim" || item.predicate != "has_relation" || item.slot.empty() || item.status != "active") continue;
    if (item.subject != SpeakerOf(item) || SaysNotNow(item.qualifiers)) continue;
    const std::vector<std::string> relation = ContentTerms(ctx.analyzer, item.slot);
    if (relation.empty() || !std::all_of(relation.begin(), relation.end(),
                                         [&](const std::string& t) { return asked.person.terms.count(t) > 0; })) {
      continue;
    }
    const std::vector<std::string> named = ContentTerms(ctx.analyzer, item.value);
    if (named.empty()) continue;
    asked.person.terms.insert(named.begin(), named.end());
    asked.person.speaker = false;
    asked.relation_terms.insert(asked.relation_terms.end(), relation.begin(), relation.end());
    for (std::string& t : ContentTerms(ctx.analyzer, item.subject)) asked.relation_terms.push_back(std::move(t));
  }
}

// True when `item` is a standing claim about a person other than whom the question asks: its
// subject speaks of someone else through the speaker (text::IsOtherPersonTopic: 我妹妹, "my
// sister") and is not about whom the question asks.
bool AboutAnotherPerson(RecallContext& ctx, const RecallItem& item, const Asked& asked) {
  if (item.type != "claim" || !ctx.topics_of || item.subject == SpeakerOf(item)) return false;
  const std::vector<std::string> topics = ctx.topics_of(item.subject);
  if (std::none_of(topics.begin(), topics.end(), text::IsOtherPersonTopic)) return false;
  return !AboutWhomAsked(item.subject, SpeakerOf(item), ContentTerms(ctx.analyzer, item.subject), asked.person);
}

bool Answers(RecallContext& ctx, const RecallItem& item, const Asked& asked) {
  if (item.type != "claim" || (item.status != "active" && item.status != "disputed")) return false;
  if (SaysNotNow(item.qualifiers)) return false;
  if (!OfAskedAttribute(item.predicate, item.slot, asked.attributes)) return false;
  return AboutWhomAsked(item.subject, SpeakerOf(item), ContentTerms(ctx.analyzer, item.subject), asked.person);
}

// Step 1 for item `i`: the standing claim of its evidence event that answers, read whole, or
// nullopt. `present` holds the ids of the items recalled.
Result<std::optional<Claim>> AnsweringSibling(RecallContext& ctx, const RecallItem& claim, const Asked& asked,
                                              const std::set<std::string, std::less<>>& present) {
  std::optional<Claim> found;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    for (const EvidenceRef& e : claim.evidence) {
      if (e.relation != "supports") continue;
      auto facts = ctx.claims.StandingFactsReadFrom(e.event_id);
      if (!facts) return facts.error();
      const std::string_view speaker = e.speaker.empty() ? std::string_view(e.role) : std::string_view(e.speaker);
      for (const sqlite::ClaimStore::StandingFact& f : *facts) {
        if (present.count(f.id) > 0 || !OfAskedAttribute(f.predicate, f.slot, asked.attributes)) continue;
        if (!AboutWhomAsked(f.subject, speaker, ContentTerms(ctx.analyzer, f.subject), asked.person)) continue;
        auto loaded = ctx.claims.GetBySeqs({f.seq});
        if (!loaded) return loaded.error();
        if (loaded->empty() || SaysNotNow(loaded->front().qualifiers)) continue;
        found = std::move(loaded->front());
        return Status::Ok();
      }
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return found;
}

// Step 0: the newest of the namespace's recent current claims that answers, with its evidence, or
// nullopt. `present` holds the ids of the items recalled.
Result<std::optional<Claim>> FetchAnswering(RecallContext& ctx, int64_t namespace_id, TimestampMs now,
                                            const Asked& asked, const std::set<std::string, std::less<>>& present) {
  std::optional<Claim> found;
  Status st = ctx.db.ReadTransaction([&]() -> Status {
    auto recent = ctx.claims.RecentCurrent(namespace_id, kFetchLookback);
    if (!recent) return recent.error();
    for (sqlite::StoredClaim& stored : *recent) {
      Claim& c = stored.claim;
      if (present.count(c.id) > 0 || !OfAskedAttribute(c.predicate, c.slot, asked.attributes)) continue;
      if (SaysNotNow(c.qualifiers) || (c.expires_at && *c.expires_at <= now) || c.valid_from > now) continue;
      auto loaded = ctx.claims.GetBySeqs({stored.seq});  // with its evidence
      if (!loaded) return loaded.error();
      if (loaded->empty()) continue;
      RecallItem probe;
      probe.evidence = loaded->front().evidence;
      if (!AboutWhomAsked(c.subject, SpeakerOf(probe), ContentTerms(ctx.analyzer, c.subject), asked.person)) continue;
      found = std::move(loaded->front());
      return Status::Ok();
    }
    return Status::Ok();
  });
  if (!st.ok()) return Error(st);
  return found;
}

}  // namespace

std::vector<size_t> AskedAttributeOrder(const std::vector<AskedAttributeKey>& keys) {
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  for (size_t i = 1; i < order.size(); ++i) {
    const AskedAttributeKey& mover = keys[order[i]];
    if (!mover.answers) continue;
    size_t at = i;
    while (at > 0) {
      const AskedAttributeKey& above = keys[order[at - 1]];
      if (above.answers || (above.occurred_at > mover.occurred_at && !above.about_another)) break;
      if (!std::includes(mover.held.begin(), mover.held.end(), above.held.begin(), above.held.end())) break;
      --at;
    }
    std::rotate(order.begin() + at, order.begin() + i, order.begin() + i + 1);
  }
  return order;
}

bool AboutWhomAsked(std::string_view subject, std::string_view speaker, const std::vector<std::string>& subject_terms,
                    const AskedPerson& asked) {
  if (!subject.empty() && subject == speaker && asked.speaker) return true;
  if (subject_terms.empty()) return false;
  return std::all_of(subject_terms.begin(), subject_terms.end(),
                     [&](const std::string& t) { return asked.terms.count(t) > 0; });
}

bool AnswersAskedAttribute(RecallContext& ctx, std::string_view question,
                           const std::set<std::string, std::less<>>& question_terms, const RecallItem& item) {
  if (!ctx.asked_attributes || item.type != "claim") return false;
  const Asked asked = ReadAsked(ctx, question, question_terms);
  return !asked.attributes.empty() && Answers(ctx, item, asked);
}

Status PutAskedAttributeFirst(RecallContext& ctx, int64_t namespace_id, TimestampMs now, std::string_view question,
                              const std::set<std::string, std::less<>>& question_terms, std::vector<RecallItem>& items,
                              std::vector<double>& strength, std::vector<ClaimSlot>& slots) {
  if (!ctx.asked_attributes) return Status::Ok();
  Asked asked = ReadAsked(ctx, question, question_terms);
  if (asked.attributes.empty()) return Status::Ok();
  // A question that names someone a recalled claim is about asks about them, not the speaker
  // ("我姐的工作是什么？" names 我姐 as no topic does: 姐 is a kin word only right after 我).
  for (const RecallItem& item : items) {
    if (item.type != "claim" || item.subject == SpeakerOf(item)) continue;
    const std::vector<std::string> terms = ContentTerms(ctx.analyzer, item.subject);
    if (!terms.empty() && std::all_of(terms.begin(), terms.end(),
                                      [&](const std::string& t) { return asked.person.terms.count(t) > 0; })) {
      asked.person.speaker = false;
    }
  }
  NamedThroughARelation(ctx, items, asked);
  std::set<std::string, std::less<>> present;
  for (const RecallItem& item : items) present.insert(item.id);
  slots.resize(items.size());
  strength.resize(items.size(), 0.0);
  std::vector<AskedAttributeKey> keys(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    RecallItem& item = items[i];
    if (item.type == "claim" && !Answers(ctx, item, asked)) {
      auto sibling = AnsweringSibling(ctx, item, asked, present);
      if (!sibling) return sibling.error();
      if (sibling->has_value()) {
        slots[i] = {(*sibling)->conflict_key, (*sibling)->supersedes_id};
        RecallItem stand_in = ClaimItem(std::move(**sibling), item.score);
        stand_in.channels = std::move(item.channels);
        stand_in.flags = std::move(item.flags);
        present.insert(stand_in.id);
        item = std::move(stand_in);
      }
    }
    AskedAttributeKey& key = keys[i];
    key.answers = Answers(ctx, item, asked);
    key.occurred_at = item.occurred_at;
    key.about_another = !key.answers && AboutAnotherPerson(ctx, item, asked);
    key.held = HeldTerms(ctx.analyzer, item.text, asked.person.terms);
    if (key.answers) {
      key.held.insert(key.held.end(), asked.attribute_terms.begin(), asked.attribute_terms.end());
      key.held.insert(key.held.end(), asked.relation_terms.begin(), asked.relation_terms.end());
      std::sort(key.held.begin(), key.held.end());
      key.held.erase(std::unique(key.held.begin(), key.held.end()), key.held.end());
    }
  }
  if (namespace_id != 0 && std::none_of(keys.begin(), keys.end(), [](const AskedAttributeKey& k) { return k.answers; })) {
    auto fetched = FetchAnswering(ctx, namespace_id, now, asked, present);
    if (!fetched) return fetched.error();
    if (fetched->has_value()) {
      // As strong as the best match: if it moves first, the answer is no weaker than before.
      const double best = strength.empty() ? 0.0 : strength.front();
      const double best_score = items.empty() ? 0.0 : items.front().score;
      slots.push_back({(*fetched)->conflict_key, (*fetched)->supersedes_id});
      strength.push_back(best);
      items.push_back(ClaimItem(std::move(**fetched), best_score));
      AskedAttributeKey& key = keys.emplace_back();
      key.answers = true;
      key.occurred_at = items.back().occurred_at;
      key.held = HeldTerms(ctx.analyzer, items.back().text, asked.person.terms);
      key.held.insert(key.held.end(), asked.attribute_terms.begin(), asked.attribute_terms.end());
      key.held.insert(key.held.end(), asked.relation_terms.begin(), asked.relation_terms.end());
      std::sort(key.held.begin(), key.held.end());
      key.held.erase(std::unique(key.held.begin(), key.held.end()), key.held.end());
    }
  }
  const std::vector<size_t> order = AskedAttributeOrder(keys);
  std::vector<RecallItem> items_in_order;
  std::vector<double> strength_in_order;
  std::vector<ClaimSlot> slots_in_order;
  for (size_t i : order) {
    items_in_order.push_back(std::move(items[i]));
    strength_in_order.push_back(strength[i]);
    slots_in_order.push_back(std::move(slots[i]));
  }
  items = std::move(items_in_order);
  strength = std::move(strength_in_order);
  slots = std::move(slots_in_order);
  return Status::Ok();
}

}  // namespace engram
