// recall/newer_change.h — for a question about how things stand now, the newer statement that
// changed what the best item says, even when it shares no word with the question: "Which company
// do I work for?" finds "I work at Stripe as a backend engineer", and the later "quick update: left
// Stripe, joined Datadog" names neither "company" nor "work" — it is found by the older statement's
// own words (issue 16, "among events about the same slot the newest wins even where no claim was
// extracted").
//
// The older statement's words are searched among the events said after it was last said (a claim:
// its latest supporting event), within the question's session, `since` and `until`, evidence of
// facts that no longer stand hidden as in the question's own search (the event channels of
// RecallEvents); of the best
// kNewerChangePool matches the first that is said by the same speaker, states a change
// (RecallContext::now_stance, write/extraction/change_statement.h) and whose sentences stating
// the change share content terms with the older statement (text::IsFunctionTerm: at least one,
// and a quarter of the shorter one's; any one when both are short, at most 8 terms: "Stopped
// seeing Okafor and went with a clinic near the office" changes "My dentist is Dr. Okafor"), or are about a topic of the question that the older
// statement is about too (RecallContext::topics_of, data/lexicon/topics.tsv; the search then adds
// that topic's words: "I've given up coffee completely, it's herbal tea for me now" changes "I
// drink oat-milk lattes every morning" for "What do I drink in the morning?"), is its newer
// change — unless single-valued facts were
// read from both and none is the same (claims' conflict keys: "We upgraded us-east to kubernetes
// 1.29; eu-west is unchanged" is not a change of "The eu-west cluster runs kubernetes 1.27").
//
// When the older statement's words find no such change and word vectors are installed
// (RecallContext::kin, providers/word_kin.h), the kKinPool latest events said after it are read,
// newest first: the first that is the same speaker's statement of change, speaks of the speaker,
// names no one else through the speaker and holds, where it states the change, a word kin to one
// of the older statement's (a claim: of its value; at most kMaxKinWords of them, write/kin_change.h) beyond the
// question's words, one of the two written as a name (WordKin::KinNames: "Firefox", not "cool"
// of "it feels really cool" after "warm weather"), is its newer change (the facts read from it
// are not compared: the kin value is what says it is of the older's slot, and the grammar often
// reads such a change into another attribute, or none): "moved over to Firefox after the adblock mess" for "Which
// browser do I use?" after "Chrome is my main browser" (no word shared), "Jumped ship to KPMG"
// after "My employer is Deloitte".
//
// Thread safety: as RecallEvents (runs on the caller's connection; the caller holds the engine lock).
#ifndef ENGRAM_RECALL_NEWER_CHANGE_H_
#define ENGRAM_RECALL_NEWER_CHANGE_H_

#include <optional>

#include "engram/status.h"
#include "engram/types.h"
#include "recall/event_recall.h"

namespace engram {

// How many of the best matches of the older statement among later events are looked at: a change
// of it is among the few that say most of its words (the rest share a name or a common word).
inline constexpr int kNewerChangePool = 3;

// How many of the latest events said after the older statement the kin search reads: a change of
// what the speaker said is among what they said since, and a bound keeps the read to one short
// index scan in a namespace of any size.
inline constexpr int kKinPool = 32;


// The newer change of `older` (above), or nullopt when there is none or ctx.now_stance is unset.
// `question` gives the namespace, session and `until`. Errors: from the store.
Result<std::optional<RecallItem>> FindNewerChange(RecallContext& ctx, const RecallQuery& question,
                                                  const RecallItem& older);

}  // namespace engram

#endif  // ENGRAM_RECALL_NEWER_CHANGE_H_
