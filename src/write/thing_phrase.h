// write/thing_phrase.h — the phrases of a text that name things, and when two texts name the same
// one (issue 16, for write/same_thing.h). One shared word is not one thing: "my phone case" and
// "phone carriers", "my bank" and "my bank password", "the frontend repo" and "the backend repo",
// 手机壳 and 手机套餐 share a word and name different things.
//
// A thing phrase is a run of content terms (text::Analyzer query terms that are no function
// terms, text/stopwords.h) with nothing between them but spaces or hyphens, cut where a word the
// lexicon knows as a verb or a marker begins (data/lexicon/verbs.tsv, markers.tsv: "closed down",
// "换成", "升到", "is", "now", "yesterday"), at an English word in "-ed" (a past tense: "swapped",
// "moved") and at a term holding a digit (a value, not a name: "Node 16", "cache-stg-01", "500兆").
// Its last term is its head (English noun phrases end in their head: "phone case" is a case;
// a CJK run's last character bigram: 手机壳 ends in 机壳), the others its modifiers.
//
// A newer text names a thing an older one names when a phrase of each has the same head and each
// one's modifiers (owners too: "wife's", 老公的) and following phrases ("of my pickup", "at my
// front door") are terms of the other: "the hallway printer" and "swapped out the hallway
// printer"; "cloud storage"; not "my wife's car" and "my car", not "the frontend repo" and "the
// backend repo", not 测试环境的服务器 and 生产环境的服务器.
//
// Thread safety: pure over the immutable lexicon; the analyzer is the caller's.
#ifndef ENGRAM_WRITE_THING_PHRASE_H_
#define ENGRAM_WRITE_THING_PHRASE_H_

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/analyzer.h"

namespace engram {

// A thing phrase: its terms, head last, and those of its modifiers that name an owner ("wife" of
// "my wife's car", 老公 of 我老公的手机).
struct ThingPhrase {
  std::vector<std::string> terms;  // non-empty
  std::set<std::string> owners;
  // The terms of a phrase after it joined by of, in, on, at, for, from or with ("the bed of my
  // pickup", "the camera at my front door"): they say which one, as its modifiers do.
  std::vector<std::string> after;
  bool clause_after = false;  // a clause says which one ("the bike I commute on")
  // It follows another phrase's preposition ("my watch" of "the band of my watch"): it says which
  // one the other is, and is not what the newer text changes.
  bool said_of_another = false;
  // It does something to another thing ("The landlord switched the laundry room to card-only
  // machines"): the other changed, not it.
  bool acts_on_another = false;
  bool object_of_verb = false;  // a verb stands before it ("swapped out the hallway printer")
  // Nothing but articles and possessives stands before it in its clause: it is what the clause is
  // about ("Our Berlin office moved to Kreuzberg", 上海的办公室搬到徐汇了), not a value said of it.
  bool opens_clause = false;
};

// A text's content terms and its thing phrases (above).
struct ThingPhrases {
  std::set<std::string> terms;  // every content term of the text
  std::vector<ThingPhrase> phrases;  // in text order
};

// The thing phrases of `text` (UTF-8, any length), with `ignored` terms (a subject's own name)
// standing for nothing: neither in a phrase nor ending one. A CJK 的 joins what it stands between
// (测试环境的服务器 is one phrase, its head 务器). An ASCII head of one or two letters ("Dr", "St")
// names nothing. Never fails.
ThingPhrases ReadThingPhrases(text::Analyzer& analyzer, std::string_view text,
                              const std::set<std::string>& ignored = {});

// True when `newer` names a thing `older` names: a phrase of each with the same head, every
// modifier of either a term of the other, the newer's following phrase a term of the older ("the
// hallway printer" after "the hallway printer is a Brother"; not "my shoes" after "my running
// shoes", not "the lamp in the living room" after "the lamp in my office", not "my car" after "my
// wife's car"), no clause saying which one ("the bike I commute on"), and the newer's neither said
// of another phrase ("the band of my watch") nor doing something to another ("The landlord
// switched the laundry room…"). "for" and "with" after a verb's object give the new value
// ("swapped the printer for an HP").
bool NameTheSameThing(const ThingPhrases& newer, const ThingPhrases& older);

// For Chinese, which writes no spaces and whose verbs the lexicon does not all know, the thing a
// clause is about is its topic, said first (Li & Thompson, *Mandarin Chinese*, 1981, ch. 4:
// "小美转岗了", "宽带升到了500兆", "手机换成华为了"). True when `newer`, after its opening words of
// time and discourse, 我/我们 and 把/将, opens with the longest string `older` holds, and that
// string is a whole word in both: followed by a function character (text/stopwords.h), a mark, a
// verb or marker of the lexicon, or the end; in `older` not owned by another (…的 after anyone but
// 我/我们); in `newer` not the owner or the agent of something else (followed by 的, 给, 把, 对,
// 帮, 替, 让: 笔记本的壁纸, 医生给我换了药): "表弟不干厨师了" after "我表弟在一家餐馆当厨师"; not
// "手机套餐换成…" after "我的手机壳是蓝色的"
// (手机 is no whole word of either), not "生产环境的服务器…" after "测试环境的服务器…".
bool OpensWithTheTopicOf(std::string_view newer, std::string_view older);

// ICU's own words of `text` (text::TextAnalysis::kPlain: case-folded, CJK words by ICU's
// dictionary: 我|在|新东方|当|英语|老师), in text order; empty when ICU cannot be loaded. One
// analyzer per thread.
std::vector<std::string> PlainWords(std::string_view text);

// The characters of `text` (UTF-8), one string each; a bad byte is one of its own.
std::vector<std::string> Characters(std::string_view text);

// A phrase as the units its head and modifiers are made of: an English term each, a Chinese
// character each (its terms are overlapping character bigrams: 蓝天 天幼 幼儿 儿园 → 蓝 天 幼 儿 园).
std::vector<std::string> PhraseUnits(const ThingPhrase& p);

// Where ICU's own words of `text` stand (PlainWords): byte offsets [begin, end), in text order.
std::vector<std::pair<size_t, size_t>> PlainWordSpans(std::string_view text);

}  // namespace engram

#endif  // ENGRAM_WRITE_THING_PHRASE_H_
