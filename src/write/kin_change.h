// write/kin_change.h — a newer statement of the speaker's change that names another thing of the kind
// an older statement names, read from kin words (providers/word_kin.h: "Firefox" and "Chrome",
// "KPMG" and "Deloitte", "Raleigh" and "Austin"), issue 16. The claim writer closes the older
// claim with it (write/same_thing.h), and recall puts it first (recall/current_first.h) or finds it
// when the older's words do not (recall/newer_change.h).
//
// A change names its new value where it states the change, and the new value is of the old one's
// kind; which words are of one kind no list of words covers, so it is read from word vectors. A
// newer text names a kin thing of an older one when
// * a sentence of it states a change (extraction::ChangeSentences) whose subject is the speaker
//   ("I", "we", or left out before a past tense, as chat does: "moved over to Firefox") or a
//   person the caller names (`people`: the question's or the older statement's "@brother"), and
//   says nothing of what may be ("I'd never switch to Firefox", "if I moved to Bristol"); or its
//   first sentence opens with such a past tense ("Signed the lease on a house in Leeds, moving day
//   was Saturday");
// * a kin word of those sentences and a kin word of the older text (at most kMaxKinWords: a short
//   statement's words are about its point, a long turn's about many things, one of them kin to a
//   later turn's by chance) are kin, and
// * one of the two is written as a name (KinLookup::names: "Firefox"; two everyday words are kin in
//   one sense of each: "warm" and "cool" of "it feels really cool" after "I like warm weather").
//
// Thread safety: pure; the lookup's functions are the caller's (providers::WordKin is not
// thread-safe).
#ifndef ENGRAM_WRITE_KIN_CHANGE_H_
#define ENGRAM_WRITE_KIN_CHANGE_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "write/extraction/statement_topics.h"

namespace engram {

// True when a text opens with a verb of the past, its subject left out (write/extraction/statement_topics.h).
using extraction::OpensWithAPastVerb;

// Kin words as the caller reads them (providers::WordKin over the installed word vectors); empty
// functions when none are installed.
struct KinLookup {
  // The words of a text that may be kin (WordKin::KinCandidates): folded, sorted, each once.
  std::function<std::vector<std::string>(std::string_view text)> words;
  // Those of them the text writes as names (WordKin::KinNames), folded, sorted, each once.
  std::function<std::vector<std::string>(std::string_view text)> names;
  // True when a word of `older` and a word of `newer` (both as `words` gives them) are kin
  // (WordKin::FindKin; a word is never kin to itself).
  std::function<bool(const std::vector<std::string>& older, const std::vector<std::string>& newer)> kin;
  bool Available() const { return words && names && kin; }
};

// True when a claim of `predicate` is a state of its subject's that a change to a thing of another
// kind replaces (where they live, work or study, what they use, prefer or are, a copula's value:
// "main browser is Chrome"); not a favourite, a relation, a hometown, a thing's place, nor a
// statement kept whole, whose names stand in any relation (kin words say the kind of a value, not
// the relation: "We moved to London" is no new favourite city, "Moved to Osaka" no answer to "I'd
// love to visit Tokyo someday", "Switched to a Toyota" no new first car of "My first car was a
// Honda"). Never fails.
bool KinReplaceable(std::string_view predicate);

// The most kin words an older text may hold for a kin change (above; on LoCoMo dev, without the
// bound, recall_any@5 fell 0.791 → 0.784).
inline constexpr size_t kMaxKinWords = 8;

// True when `sentence` says the speaker as a subject ("I", "we", "I've"; not "my": "My client just
// moved their audit to KPMG" is the client's change). Never fails.
bool SaysTheSpeakerAsSubject(std::string_view sentence);

// True when `sentence` says what may be, would be or never is, not what is: "I'd never switch to
// Firefox", "if I moved to Bristol", "We almost moved to Chicago" (never, would, could, might,
// should, if, wish, unless, almost, nearly, 'd).
// Never fails.
bool SaysWhatMayBe(std::string_view sentence);

// The sentences of `text` that state the change of whom it is about (above), joined by line
// breaks; "" when none. `change_sentences` gives a text's sentences of change
// (extraction::ChangeSentences, or a memo of it); `topics_of` a sentence's topics
// (extraction::StatementTopics; null = no person is read). `people` sorted. Never fails.
std::string SpeakerChangeText(std::string_view text, const std::vector<std::string>& people,
                              const std::function<std::vector<std::string_view>(std::string_view)>& change_sentences,
                              const std::function<std::vector<std::string>(std::string_view)>& topics_of);

// True when a kin word of `changed` (the newer's SpeakerChangeText) and one of `older_words` (kin
// words of `older_text`, at most kMaxKinWords, as the caller chose them) are kin, one of the two
// written as a name in its own text (`newer_text` for the newer's). False when `kin` is not
// Available. Never fails.
bool NamesAKinThing(const KinLookup& kin, std::string_view older_text, const std::vector<std::string>& older_words,
                    std::string_view changed, std::string_view newer_text);

}  // namespace engram

#endif  // ENGRAM_WRITE_KIN_CHANGE_H_
