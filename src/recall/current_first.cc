#include "recall/current_first.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace engram {
namespace {

// True when the sorted term lists share a term.
bool SharesATerm(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j) ++i; else ++j;
  }
  return false;
}

// True when `newer` names someone through the speaker ("@brother") whom neither `older` nor the
// question names: "My brother quit his job and joined a bakery" is his change, not the speaker's.
bool NamesSomeoneElse(const std::vector<std::string>& newer, const std::vector<std::string>& older,
                      const QuestionTermCount& question) {
  for (const std::string& topic : newer) {
    if (!text::IsOtherPersonTopic(topic)) continue;
    if (!std::binary_search(older.begin(), older.end(), topic) &&
        !std::binary_search(question.topics.begin(), question.topics.end(), topic)) {
      return true;
    }
  }
  return false;
}

// True when both sorted topic lists hold one of the question's topics (what, not who).
bool ShareAQuestionTopic(const std::vector<std::string>& a, const std::vector<std::string>& b,
                         const QuestionTermCount& question) {
  for (const std::string& topic : question.topics) {
    if (text::IsWhoTopic(topic)) continue;
    if (std::binary_search(a.begin(), a.end(), topic) && std::binary_search(b.begin(), b.end(), topic)) return true;
  }
  return false;
}

// True when `newer` is about the one `older` is about: it holds a term of the question that
// `older` holds (the thing's name: "production", "search cluster"), or it speaks of the speaker
// and names no one else. "Dana switched to green tea" and "The office coffee machine was
// replaced" are about drinks, but not the speaker's.
bool AboutTheSameOne(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  if (SharesATerm(newer.held, older.held)) return true;
  const std::vector<std::string>& topics = newer.Topics();
  const bool speaker = std::binary_search(topics.begin(), topics.end(), std::string(text::kSpeakerTopic));
  return speaker && !NamesSomeoneElse(topics, older.Topics(), question);
}

// True when facts were read from both and none is the same: they are about different things.
bool OtherFacts(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return !a.empty() && !b.empty() && !SharesATerm(a, b);
}

// A newer statement of change about a topic of the question that the older one is about too (see
// the header).
bool ChangeOfTheTopic(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  if (question.topics.empty() || !text::SaysAChange(newer.Stance())) return false;
  if (!ShareAQuestionTopic(newer.Topics(), older.Topics(), question)) return false;
  if (!AboutTheSameOne(newer, older, question)) return false;
  return !OtherFacts(newer.Facts(), older.Facts());
}

// True when `newer` is about one of the question's topics and the one `older` is about.
bool OnAQuestionTopic(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  return ShareAQuestionTopic(newer.Topics(), question.topics, question) && AboutTheSameOne(newer, older, question);
}

// True when `newer` is a statement of change that names a term `older` (an event or a memory)
// holds beyond the question's terms (the header).
bool ChangeNamesTheOlder(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  if (older.held.empty() || !text::SaysAChange(newer.Stance())) return false;
  if (older.slot.empty() && !SharesATerm(newer.held, older.held)) return false;
  // "My sister cancelled her Equinox membership" names the value of "My gym is Equinox", but it is
  // her change.
  if (NamesSomeoneElse(newer.Topics(), older.Topics(), question)) return false;
  const std::vector<std::string>& changed = newer.changed_terms();
  auto beyond_question = [&](const std::vector<std::string>& terms) {
    std::vector<std::string> out;
    std::copy_if(terms.begin(), terms.end(), std::back_inserter(out), [&](const std::string& t) {
      return !std::binary_search(older.held.begin(), older.held.end(), t);
    });
    return out;
  };
  const std::vector<std::string> said = beyond_question(older.slot.empty() ? older.terms() : older.value_terms());
  std::vector<std::string> named;
  std::set_intersection(changed.begin(), changed.end(), said.begin(), said.end(), std::back_inserter(named));
  const bool names_it = older.slot.empty() ? !named.empty() : !named.empty() && 2 * named.size() >= said.size();
  return names_it && !OtherFacts(newer.Facts(), older.Facts());
}

// True when facts of the speaker were read from the older and facts were read from the newer, none
// of them the speaker's: "Sarah moved to Bristol" (Sarah's residence) after "I live in Leeds".
// A conflict key starts with its subject (write/claim_identity.cc: "user|lives_in|").
bool AnothersFacts(const CurrentFirstKey& newer, const CurrentFirstKey& older) {
  std::string speaker = older.speaker;
  for (char& c : speaker) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto of_the_speaker = [&](const std::string& key) {
    const std::string_view subject = std::string_view(key).substr(0, key.find('|'));
    return subject == "user" || (!speaker.empty() && subject == speaker);
  };
  const std::vector<std::string>& theirs = newer.Facts();
  const std::vector<std::string>& mine = older.Facts();
  return !theirs.empty() && std::any_of(mine.begin(), mine.end(), of_the_speaker) &&
         std::none_of(theirs.begin(), theirs.end(), of_the_speaker);
}

// True when `newer` is said of whom or what `older` is: it speaks of the speaker, or holds a
// question term the older holds that the question writes as a name ("Priya"): "Interstellar is a
// great movie" is nobody's favourite.
bool SaidOfTheSameHolder(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  const std::vector<std::string>& topics = newer.Topics();
  if (std::binary_search(topics.begin(), topics.end(), std::string(text::kSpeakerTopic))) return true;
  for (const std::string& term : question.named) {
    if (std::binary_search(newer.held.begin(), newer.held.end(), term) &&
        std::binary_search(older.held.begin(), older.held.end(), term)) {
      return true;
    }
  }
  return false;
}

// True when `newer` says only how things are, of whom `older` is, and `older` is a fact: a
// single-valued fact was read from it, or it is a text remembered whole (the header).
bool PlainWordAfterAFact(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  return newer.OnlyWhatIs() && (older.kept_whole || !older.Facts().empty()) && SaidOfTheSameHolder(newer, older, question);
}

// A newer statement of the speaker that names another thing of the kind the older one named (the
// header).
bool NamesAKinThing(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  // The older answers the question: it holds half of its content terms.
  if (!question.kin || 2 * older.content_held < question.content || older.content_held == 0) return false;
  // A statement of change, a claim of a single-valued slot, or a plain statement after a fact: a
  // plain mention of a kin thing after a chat turn ("Caroline plans to build my own family") says
  // nothing of a change.
  if (!text::SaysAChange(newer.Stance()) && newer.slot.empty() && !PlainWordAfterAFact(newer, older, question)) {
    return false;
  }
  if (!AboutTheSameOne(newer, older, question)) return false;
  if (NamesSomeoneElse(newer.Topics(), older.Topics(), question) || AnothersFacts(newer, older)) return false;
  const std::vector<std::string>& older_words = older.kin_words();
  const std::vector<std::string>& newer_words = newer.kin_words();
  if (older_words.empty() || older_words.size() > kMaxKinWords || newer_words.size() > kMaxKinWords) return false;
  return question.kin(older_words, newer_words);
}

}  // namespace

std::string_view StatementOf(const RecallItem& item) {
  if (item.type == "claim") {
    for (const EvidenceRef& e : item.evidence) {
      if (e.relation == "supports" && !e.content.empty()) return e.content;
    }
  }
  return item.text;
}

std::vector<std::string> ItemTopics(const std::function<std::vector<std::string>(std::string_view)>& topics_of,
                                    const RecallItem& item) {
  std::vector<std::string> topics = topics_of(StatementOf(item));
  if (item.type == "claim") {
    std::vector<std::string> own = topics_of(item.text);
    topics.insert(topics.end(), own.begin(), own.end());
    std::sort(topics.begin(), topics.end());
    topics.erase(std::unique(topics.begin(), topics.end()), topics.end());
  }
  return topics;
}

CurrentFirstKey CurrentFirstKeyOf(const RecallItem& item) {
  CurrentFirstKey key;
  if (item.type != "claim") {
    key.said_at = item.occurred_at;
    key.speaker = item.speaker.empty() ? item.role : item.speaker;
    key.event_id = item.id;
    return key;
  }
  key.said_at = item.valid_from;
  for (const EvidenceRef& e : item.evidence) {
    if (e.relation != "supports") continue;
    key.said_at = e.occurred_at;
    key.speaker = e.speaker.empty() ? e.role : e.speaker;
    break;
  }
  return key;
}

bool SameThingNewer(const CurrentFirstKey& newer, const CurrentFirstKey& older, const QuestionTermCount& question) {
  if (newer.said_at <= older.said_at) return false;
  if (!older.event_id.empty() && std::find(newer.replaced_events.begin(), newer.replaced_events.end(),
                                           older.event_id) != newer.replaced_events.end()) {
    return true;  // the evidence of what the newer claim replaced
  }
  if (!newer.speaker.empty() && !older.speaker.empty() && newer.speaker != older.speaker) return false;
  if (newer.Stance() == text::NowStance::kNotNow) return false;
  // An extracted fact is passed only by a fact of its own slot: a newer wish, quote or plan that
  // shares its words ("I wish I worked at Valve" after "I work at Oracle") is not its new value.
  if (!older.slot.empty() && newer.slot == older.slot) return true;
  if (ChangeNamesTheOlder(newer, older, question)) return true;
  if (NamesAKinThing(newer, older, question)) return true;
  const bool answers = !older.held.empty() && 2 * older.held.size() >= question.all;
  if (!answers) return false;
  if (ChangeOfTheTopic(newer, older, question)) return true;
  if (older.slot.empty() && newer.held == older.held && !OtherFacts(newer.Facts(), older.Facts())) return true;
  // A statement of change words the thing its own way (see the header): it holds half of the
  // question's content terms or is about one of its topics. An extracted fact's slot
  // is narrower than its words ("eu-west" in "We upgraded us-east; eu-west is unchanged"): a
  // change passes it only holding every term it holds.
  if (!text::SaysAChange(newer.Stance())) return false;
  if (2 * newer.content_held < question.content && !OnAQuestionTopic(newer, older, question)) return false;
  if (older.slot.empty()) return SharesATerm(newer.held, older.held);
  return newer.slot.empty() && !OtherFacts(newer.Facts(), older.Facts()) &&
         std::includes(newer.held.begin(), newer.held.end(), older.held.begin(), older.held.end());
}

bool FactPassesNotNow(const CurrentFirstKey& fact, const CurrentFirstKey& newer, const QuestionTermCount& question) {
  if (newer.said_at <= fact.said_at) return false;
  // An event a single-valued fact was read from answers as its fact does, but passes no newer fact.
  if (fact.slot.empty() && !newer.slot.empty()) return false;
  if (2 * fact.held.size() < question.all) return false;  // the fact answers the question
  if (!fact.speaker.empty() && !newer.speaker.empty() && fact.speaker != newer.speaker) return false;
  if (newer.Stance() != text::NowStance::kNotNow || !SharesATerm(newer.held, fact.held)) return false;
  return !fact.slot.empty() || !fact.Facts().empty();
}

std::vector<size_t> CurrentFirstOrder(const std::vector<CurrentFirstKey>& keys, const QuestionTermCount& question) {
  std::vector<size_t> order;
  order.reserve(keys.size());
  for (size_t j = 0; j < keys.size(); ++j) {
    size_t at = order.size();
    while (at > 0 && (SameThingNewer(keys[j], keys[order[at - 1]], question) ||
                      FactPassesNotNow(keys[j], keys[order[at - 1]], question))) {
      --at;
    }
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), j);
  }
  return order;
}

}  // namespace engram
