// write/change_value.h — the value a change leads to, and whose change it is (issue 16, for
// write/same_kind.h): "switched to the day shift last month" → "day shift", the speaker's; "They
// transferred me to the Chicago branch" → "Chicago branch", the speaker's; "Dev moved over to the
// data team" → "data team", Dev's; 上个月我被调到增长组了 → 增长组, the speaker's; 她调到朝阳医院了 →
// 朝阳医院, hers.
//
// A value of a change is the thing phrase (write/thing_phrase.h) right after
// * in English, a verb of change (verbs.tsv; markers.tsv `change`, `state_change`, `relocate`; a
//   past tense), its particles ("over", "back"), an object that is the speaker ("me", "us") and
//   "to", "into" or "onto"; or "I'm"/"we're"/"I am" and in, on, at or with;
// * in Chinese, a verb of markers.tsv `changes_to` (搬到, 调到, 换成, 现在在; after 被 or 把我 too);
// when the words before the verb say whose change it is: the speaker alone
// (ended_thing.h SaysOnlyTheSpeaker), or one person — a pronoun, a person through the speaker ("my
// wife", 我老婆), a capitalised name, a short Chinese name — and never a pronoun or quantifier of
// many ("they", "everyone", 大家), a phrase ("Half of my team moved to…", 我们公司搬到…) or a
// thing acted on ("Switched Netflix to the Basic plan", 我把信用卡换成…). A name must be named by
// the older statement too (write/same_kind.h), as a whole word; a short Chinese name may be a
// thing's (腾讯视频改成年度会员了 after 我开的是腾讯视频月度会员: the plan of the thing the older names).
// The value must end its clause but for a time and words that say the change lasts ("now",
// "instead", "for good"): "for my smoothies", "on weekends", "of the parking garage", "while Tom is
// on leave" say where, when or of what it holds. Only sentences of change are read
// (extraction::ChangeSentences), never one that adds ("too"), asks, takes the change back ("just
// kidding", "reinstalled"), bounds it ("for the summer", 临时, "today") or limits it
// (markers.tsv `limits`: 只, 兼职, "in my dream"), nor any text holding a limit.
//
// Thread safety: pure over the immutable lexicon; the analyzer is the caller's.
#ifndef ENGRAM_WRITE_CHANGE_VALUE_H_
#define ENGRAM_WRITE_CHANGE_VALUE_H_

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/analyzer.h"
#include "write/thing_phrase.h"

namespace engram {

// The clauses of `text`: byte spans between the marks that end a clause or a sentence (, ; : ! ?
// and line breaks; "." before a space or the end, not in 3.12 or node.js; — – 、 ，；：。！？), in
// text order; linear in the text's length. Never fails.
std::vector<std::pair<size_t, size_t>> ClauseSpans(std::string_view text);

// The values of the changes `clause` states, and whose change each is (above).
struct ChangedValues {
  ThingPhrases values;              // the value phrases, in text order
  std::vector<std::string> themes;  // one per value: "" the speaker's, else the person named ("dev", "she", 小美)
  std::vector<std::string> texts;   // one per value: its words as said, lower-cased ASCII ("firefox")
};

// True when `text` holds a limit (markers.tsv `limits`: 只, 兼职, "in my dream", "April fools"):
// said anywhere, it limits every change of the text. Never fails.
bool SaysALimit(std::string_view text);

// True when `sentence` adds, asks, takes its change back, bounds or limits it (markers.tsv
// `additive`, `question`, `undone`, `retract`, `bounded`, `temporary`, `one_off`, `span`,
// `limits`: "got a second car too", "just kidding", "for the summer", "in my dream"): whatever
// value it names, the older still stands. Never fails.
bool ReplacesNothing(std::string_view sentence);

// The values of the changes stated by `clause`'s sentences of change that neither add, ask, take
// back, bound nor limit the change (markers.tsv), each the phrase right after a verb of change
// whose subject is the speaker or one person, and nothing after it in its clause but a time or
// "now" (above); at most 16, each once. Read with `ignored` terms standing for nothing
// (ReadThingPhrases). Never fails.
ChangedValues ReadChangedValues(text::Analyzer& analyzer, std::string_view clause,
                                const std::set<std::string>& ignored);

// The thing phrases `text` says of its speaker as values: after the speaker and at most two more
// words ("I'm on the payments squad", "I work the early shift", "I'm a teller at the York branch";
// not "I know everyone on the varsity team", "I'm proud of what the payments squad built"), in
// Chinese at most three characters besides the speaker and their kin (我在消化内科, 我用的是网易云音乐,
// 我老婆在协和医院). What write/same_kind.h compares a newer value with, for an older statement kept whole. Never
// fails.
ThingPhrases StatedValuePhrases(text::Analyzer& analyzer, std::string_view text, const std::set<std::string>& ignored);

}  // namespace engram

#endif  // ENGRAM_WRITE_CHANGE_VALUE_H_
