// write/extraction/change_statement.h — what a text says of how things stand now: that a state
// changed, nothing at all (a question, plan, wish, quotation, requirement, narrated past or
// denial), or a plain statement. The clause-kind half of the fact frame (fact_frame.h) without
// its value: the grammar may fail to read *what* changed ("Model hosting got migrated over to
// GCP", "最近改成浅色了") while the words still say *that* it changed. Recall's current-first order
// (recall/current_first.h) uses it: a newer statement of change passes an older statement about
// the same thing even when it words the thing differently, and a newer wish or question never
// passes anything.
//
// A sentence is read, in this order:
// * not about now: a question, or it holds a marker of a plan, a wish or hypothetical (a dream), a
//   quotation, a requirement or a hedge (`uncertain`: "might", "thinking about", "考虑"; data/lexicon/
//   markers.tsv) — about another time or another mind;
// * an act only tried or nearly done (AttemptMarkers: "I almost moved to Liverpool", 差点搬去厦门) is
//   not about now, unless the sentence states a change before it, or an outcome word after it ("but",
//   "in the end", 不过, 最后) says what happened after all without denying it ("…，后来没搬成"
//   denies): then the sentence is read on as a whole;
// * a state said with its end or a short span (kBounded): a `bounded` marker ("for a few days",
//   这几天), "until"/"till" before a time, a span ahead found by its shape ("for the next two
//   weeks", 接下来两周) unless a `temporary` marker says the kind, or a `span` marker ("this
//   week") or "until" before a clause ("until the repair's done") in a sentence that states no
//   lasting change;
// * a temporary change: it holds a `temporary` marker ("for a while", "临时");
// * a change: it holds a marker of kind `change`, `state_change`, `now` or `correction`, or a
//   verb flagged `change` (verbs.tsv), or, in Chinese, a clause of it ends with the
//   sentence-final particle 了 (le₂, "a new situation": Li & Thompson, *Mandarin Chinese: A
//   Functional Reference Grammar*, 1981, ch. 7); a sentence with a narrated-past marker ("used
//   to", "when I was", "以前") is a change only when it also holds a `now` marker ("以前在阿里，现在在
//   字节");
// * not about now: narrated past or a denial (a `past` or `negated` marker) without a change;
// * plain otherwise.
// A marker of another time or mind scopes over its part of the sentence only: a part after a hard
// break (";", ", so", ", but", "，所以", "，不过") that is a change by itself makes the sentence one
// ("Doctor told me to cut caffeine, so it's rooibos tea every morning now").
//
// Thread safety: pure functions over the immutable lexicon; safe from any thread.
#ifndef ENGRAM_WRITE_EXTRACTION_CHANGE_STATEMENT_H_
#define ENGRAM_WRITE_EXTRACTION_CHANGE_STATEMENT_H_

#include <string_view>
#include <vector>

#include "text/now_stance.h"
#include "write/extraction/lexicon.h"

namespace engram::extraction {

using text::NowStance;

// The stance of `text` (any length, UTF-8; invalid bytes end a sentence): kChange when some
// sentence is a change, else kTemporary when some sentence is a temporary change, kNotNow when
// every sentence is not about now, else kPlain (also for a text with no sentence). A sentence of
// one Latin word read as plain ("anyway", "lol") is a filler and counts for nothing: "if I could
// work anywhere it'd be Valve 😂 anyway, help me prep for my review?" is kNotNow. Never fails.
NowStance ReadNowStance(std::string_view text);

// True when every sentence of `text` says how things are: none asks a question or is read as
// kNotNow by ReadNowStance's reading of a sentence (a plan, wish, hypothetical, quotation,
// requirement, narrated past or denial), and there is at least one. Stricter than ReadNowStance's
// kNotNow, which needs every sentence to be so: "假如换成飞书项目的话，迁移成本会不会很高？先随便了解下" says
// nothing of how things are, though its last sentence is plain. Never fails.
bool SaysOnlyWhatIs(std::string_view text);

// The sentences of `text` that state a change, lasting or temporary, in text order: views into
// `text`. Read as ReadNowStance reads a sentence, except that a word of the present alone
// ("lately", "now", "is now", "现在") makes no change here, nor a correction word that does not open
// the sentence: in conversation they mark the present or emphasis far more often than a change
// ("Lately I've been exploring options", "I'm actually a big fan"). What the change is about is
// named in them. Never fails.
std::vector<std::string_view> ChangeSentences(std::string_view text);

// The `attempt` markers of `lowered` (lower-case text) that say an act was only tried or nearly
// happened ("almost moved", "tried to switch", 差点搬去): every hit of data/lexicon/markers.tsv
// kind `attempt`, except an English one not ending in "to" that stands before no verb in the past
// (a word in -ed or of kind `attempt_past`: "almost quit", not "almost always", "nearly painless",
// "almost 3 years"), in text order. Never fails.
std::vector<PhraseHit> AttemptMarkers(std::string_view lowered);

// Where the first `attempt_outcome` word of `lowered` at or after `from` begins ("but", "in the
// end", 不过, 最后: what happened after all the attempt), or std::string_view::npos.
size_t AttemptOutcomeAt(std::string_view lowered, size_t from);

// True when `text` holds a verb of ending (data/lexicon/markers.tsv kinds `ends`, `ends_named`,
// `ends_anymore`, `ends_le`:
// "quit", "no longer in", "left", 戒了, 不在): what ended is read by write/ended_thing.h. Never fails.
bool NamesAnEnding(std::string_view text);

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_CHANGE_STATEMENT_H_
