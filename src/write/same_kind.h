// write/same_kind.h — when a newer statement of change names, in place of a thing an older statement
// names, another thing of the same kind (issue 16): "switched teams, I'm in the growth squad as of
// last week" after "I'm on the payments squad"; "Dev moved over to the data team" after "Dev is on
// the platform team"; 儿子转园了，现在在蓝天幼儿园 after 我儿子在阳光幼儿园上大班; 搬到朝阳区了 after
// 我家在北京海淀区; 她调到朝阳医院了 after 我老婆在协和医院当护士.
//
// A noun phrase's head says what kind of thing it names and the words before the head say which one
// (Huddleston & Pullum, *The Cambridge Grammar of the English Language*, 2002, ch. 5; Chinese
// compounds too are head-final: 朝阳|医院, 蓝天|幼儿园, Li & Thompson, *Mandarin Chinese*, 1981,
// ch. 3). Two thing phrases (write/thing_phrase.h) name two of one kind when
// * they hold the same head after a modifier each: English, one term ("squad" of "payments squad"
//   and "growth squad"); Chinese, the run of characters that ends the newer phrase ("医院" of
//   朝阳医院 and 协和医院当护士), where a word of ICU starts in the newer text (朝阳|医院), and, if
//   one character only, where it stands as a word of its own in both texts (海|淀|区 and 朝阳|区;
//   never 子 of 房子 and 车子, nor 茶 of 菊花茶 and 绿茶, which ICU keeps whole);
// * the modifiers right before the head differ, neither said anywhere in the other text ("data team"
//   after "platform team"; not "Changed the payment card for my cloud storage plan" after "I'm on the
//   Basic plan for my cloud storage");
// * neither phrase opens its clause: a value said of a subject changes, not the subject ("Our
//   Berlin office moved to Kreuzberg" leaves "Our London office is on Oxford Street"); the newer is
//   not said of another phrase ("the band of my watch") nor does anything to another thing
//   (thing_phrase.h); the older may be said of another ("the York branch" of "I'm a teller at the
//   York branch").
// The newer phrase is the value of a change (write/change_value.h: "switched to the day shift", 调到心内科,
// not "Switched Netflix to the Basic plan" nor "…for my smoothies"); the older's is what the older
// says of its speaker, or the older claim's value.
//
// Thread safety: pure over the immutable lexicon; the analyzer is the caller's.
#ifndef ENGRAM_WRITE_SAME_KIND_H_
#define ENGRAM_WRITE_SAME_KIND_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "text/analyzer.h"
#include "write/change_value.h"
#include "write/thing_phrase.h"

namespace engram {

// False when `older_text` cannot name a thing of a kind `changed` names: it holds no unit (an
// English term, a Chinese character) a phrase of `changed` holds after its first. A cheap test
// before NameOneKind. Never fails.
bool MayNameOneKind(const ChangedValues& changed, std::string_view older_text);

// True when a value of `changed` (ReadChangedValues of `newer_text`, whose content terms are
// `newer_terms`) and a phrase of `older` (the thing phrases of `older_text`, or of its value) name
// two things of one kind (above), and the change is of whom the older is about: the speaker's when
// the older names no one else (`older_names_another`: a person the newer does not name), a
// person's when the older names that person (a pronoun: anyone). Never fails.
bool NameOneKind(const ChangedValues& changed, const std::set<std::string>& newer_terms, std::string_view newer_text,
                 const ThingPhrases& older, std::string_view older_text, bool older_names_another);

}  // namespace engram

#endif  // ENGRAM_WRITE_SAME_KIND_H_
