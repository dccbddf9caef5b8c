// recall/asked_attribute.h — a question that names an attribute is answered by a claim of that
// attribute about whom it asks: "What's Sarah's role?" by "Sarah works as vice principal", not by
// "user's wife is Sarah"; "我现在做什么工作？" by "user 是医药代表", not by "user 在一家药企工作",
// read from the same message. The attributes a question names are those of its attribute words
// (RecallContext::asked_attributes: data/lexicon/attribute_words.tsv, with the attributes that
// answer a word too, role → job). A claim answers when it stands (active or disputed), says how
// things stand (no qualifier of a plan, requirement, report, wish, denial or the past), is of an
// asked attribute (and its slot, when the word names one: "theme" is `uses`/ui_theme, not every
// tool used), and is about whom the question asks:
//   * a subject whose content terms (text::IsFunctionTerm ones left out) the question all holds
//     ("Sarah", "My husband");
//   * the speaker of the claim's evidence (its role when it names no speaker) when the question
//     speaks of the speaker (text::kSpeakerTopic), of no one else through the speaker ("What's my
//     job?", not "What's my sister's job?") and names no subject of another recalled claim
//     (我姐的工作是什么？ names 我姐);
//   * the person a recalled standing relation claim of the speaker's names, when the question
//     holds its relation word ("Where does my husband work?" and "user's husband is Tom": Tom) —
//     the relation's words and the speaker's name then count as held by the claims that answer
//     (step 2), so Tom's employer moves above the relation claim.
// For a question about how things stand now, three steps, before current-first order:
//   0. When no recalled item answers (none, or none after step 1), the newest standing claim that
//      answers is fetched from the namespace's kFetchLookback most recently recorded current claims
//      and added last, with the first item's strength: a claim shares no word with the question that names its
//      attribute ("What phone do I have?" and "user owns iPhone 15", "我在哪里上班？" and "user 在
//      X工作"), yet it is what the question asks. Step 2 decides its place.
//   1. A claim standing in for its event that does not answer gives its place to one of the same
//      event's standing claims that does (the first read; not one already recalled).
//   2. An answering item moves up past the run of items directly above it that do not answer, as
//      long as each holds no content term of the question that it does not (the words naming the
//      asked attributes count as held by it: the claim of a job answers "job" without the word) and
//      was said no later than it — or is a claim about another person than whom the question asks
//      ("user的妹妹住在杭州" for 我住在哪里？) — : a newer statement may be the change nothing was read from (an
//      event, or a memory kept whole: "签了一家广告公司做全职视觉设计" after "我是自由摄影师"), which
//      current-first order then puts first. It never passes a better match.
//
// Thread safety: as RecallEvents (reads on the caller's connection; the caller holds the engine lock).
#ifndef ENGRAM_RECALL_ASKED_ATTRIBUTE_H_
#define ENGRAM_RECALL_ASKED_ATTRIBUTE_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"
#include "recall/claim_item.h"
#include "recall/event_recall.h"

namespace engram {

// What step 2 needs of an item.
struct AskedAttributeKey {
  bool answers = false;  // a standing claim of an asked attribute about whom the question asks
  TimestampMs occurred_at = 0;  // when it was said (a claim: valid_from)
  // A standing claim about another person than whom the question asks ("user's sister lives in
  // Hangzhou" for "Where do I live?"): however new, it is no change of what is asked.
  bool about_another = false;
  std::vector<std::string> held;  // the question's content terms the item holds, sorted, each once
};

// Step 2 (above): the new order, as indexes into `keys`. Pure.
std::vector<size_t> AskedAttributeOrder(const std::vector<AskedAttributeKey>& keys);

// What decides whether a claim is about whom the question asks (above).
struct AskedPerson {
  std::set<std::string, std::less<>> terms;  // the question's content terms
  bool speaker = false;  // it speaks of the speaker and of no one else through the speaker
};

// True when a claim of `subject`, read from an event said by `speaker`, is about `asked`
// (above); `subject_terms` are the subject's content terms. Pure.
bool AboutWhomAsked(std::string_view subject, std::string_view speaker, const std::vector<std::string>& subject_terms,
                    const AskedPerson& asked);

// True when `item` is a standing claim of an attribute `question` names, about whom it asks and
// saying how things stand (the claims steps 0-2 treat as answering; above). `question_terms` are
// the question's terms as recall searched them. False when ctx.asked_attributes is unset.
bool AnswersAskedAttribute(RecallContext& ctx, std::string_view question,
                           const std::set<std::string, std::less<>>& question_terms, const RecallItem& item);

// How many of the namespace's most recently recorded current claims step 0 reads.
inline constexpr int kFetchLookback = 200;

// Steps 0, 1 and 2 over `items` (best first), with their parallel `strength` and `slots` (each
// claim's conflict key and the id of the claim it superseded; may be shorter than `items`), all
// reordered together; step 0 reads the claims of namespace `namespace_id` as known at `now` (ms;
// expired claims are none), and is skipped when `namespace_id` is 0. Does nothing when ctx.asked_attributes is unset or names no attribute
// of `question`. `question_terms` are the question's terms as recall searched them. Errors: from
// the store.
Status PutAskedAttributeFirst(RecallContext& ctx, int64_t namespace_id, TimestampMs now, std::string_view question,
                              const std::set<std::string, std::less<>>& question_terms, std::vector<RecallItem>& items,
                              std::vector<double>& strength, std::vector<ClaimSlot>& slots);

}  // namespace engram

#endif  // ENGRAM_RECALL_ASKED_ATTRIBUTE_H_
