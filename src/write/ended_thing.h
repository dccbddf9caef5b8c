// write/ended_thing.h — the things a statement says its speaker ended or left, and whether an
// older statement names one of them (issue 16, for write/same_thing.h). "Ditched coffee
// completely, it's green tea in the mornings now" after "I drink black coffee every morning";
// "no longer in austin btw, went to Raleigh" after "home base is Austin TX"; "handed in my notice at
// hillcrest" after "I teach maths at Hillcrest Academy"; 已经不在广州啦 after 目前人在广州;
// 为了减肥把奶茶戒了 after 我每天下午都要来一杯奶茶. The newer names what ended, not what the older was
// about ("coffee", not "morning drink"), so the older's thing need not be named again: the thing
// ended is.
//
// An ended thing is read from a sentence that is about now (extraction/change_statement.h
// ReadNowStance: never a question, plan, wish, quotation, requirement, hedge, a story of the past,
// or a state said with its end), curly apostrophes read as straight ones: the first thing phrase (write/thing_phrase.h) right after a phrase of kind `ends` in
// data/lexicon/markers.tsv ("quit", "gave up", "no longer in", 戒了, 不在, 离开了), up to the end of
// its clause; in Chinese, when nothing follows the verb, the first phrase before it in its clause,
// after 把 when it stands there (把奶茶戒了, 星辰科技我已经辞了). A phrase of kind `ends_named` ("left",
// "dropped", "closed", "deleted", "got out of") ends only a name: a word said capitalised, here or
// in the older statement (not only because it opens a sentence), right after it ("left Lyon",
// "left hillcrest"; not "left my keys at the office", "dropped my phone"), and not the first of two
// objects or a person left somewhere ("left Sarah a voicemail", "left Emma at daycare"). Kind
// `ends_anymore` ("not at", "don't use") ends only with "anymore" in the clause, and `ends_le`
// (不在, 不用, 不去) only with 了 after it or 已经 or 不再 before it (我现在不在公司 is where one is now). The clause's words before the verb must name no one
// else: no he, she, they, 他, 她, no relative ("my sister quit Google", 她把奶茶戒了) and no name
// ("Tom quit Acme").
//
// An older statement names an ended thing when one of its thing phrases has the same head, and the
// ended phrase's modifiers and following phrase are terms of the older, and the older phrase's
// owners are said in the newer ("ditched coffee" ends "black coffee"; "sold my old car" does not
// end "my car is a Tesla", nor "sold my car" "my wife's car is a Honda").
//
// Thread safety: pure over the immutable lexicon; the analyzer is the caller's, and Chinese words
// come from an ICU analyzer of this thread's own (text::TextAnalysis::kPlain).
#ifndef ENGRAM_WRITE_ENDED_THING_H_
#define ENGRAM_WRITE_ENDED_THING_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"
#include "write/thing_phrase.h"

namespace engram {

// A thing a statement says its speaker ended (above).
struct EndedThing {
  ThingPhrase phrase;        // its terms, head last (empty for a Chinese thing)
  std::string surface;       // the words it was read from, as written (for the name check)
  std::vector<std::string> icu_words;  // of a Chinese thing: ICU's words of `surface`, times cut
  bool named_only = false;   // read after an `ends_named` phrase: ends only a name
  bool shouted = false;      // its sentence is in capitals only: no capital names anything
};

// At most this many ended things are read from one statement (a long message names a few).
inline constexpr size_t kMaxEndedThings = 16;

// The ended things of `evidence` (UTF-8, any length), with `ignored` terms (the speaker's own name)
// standing for nothing; empty when it says none. Never fails.
std::vector<EndedThing> ReadEndedThings(text::Analyzer& analyzer, std::string_view evidence,
                                        const std::set<std::string>& ignored = {});

// True when `older` (its thing phrases, read from `older_text`) names one of `ended`, read from a
// newer statement whose content terms are `newer_terms` (above).
bool NamesAnEndedThing(text::Analyzer& analyzer, const std::vector<EndedThing>& ended,
                       const std::set<std::string>& newer_terms, const ThingPhrases& older,
                       std::string_view older_text);

// The name a model number is written onto ("mazda" of "mazda3", "pixel" of "pixel8": three
// lower-case letters or more, then digits only); "" for any other term. "Sold the mazda" ends "my
// 2015 Mazda3". Pure.
std::string NameOfModel(std::string_view term);

// True when `before`, the words of a clause before its verb, name no one but the speaker: only
// I/we (我, 我们, 我家), words of time, discourse and asides ("finally", "just", 已经); never
// another person, a noun, a modal, a negation or "to" ("my sister quit", "tried to quit", "I'd
// never quit", 医生让我). Also read by write/same_kind.h. Never fails.
bool SaysOnlyTheSpeaker(std::string_view before);

}  // namespace engram

#endif  // ENGRAM_WRITE_ENDED_THING_H_
