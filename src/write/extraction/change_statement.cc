#include "write/extraction/change_statement.h"

#include <algorithm>
#include <string>

#include <re2/re2.h>

#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"

namespace engram::extraction {
namespace {

// Kinds of clause about another time or mind: they never say how things stand now.
constexpr std::string_view kOtherTimeOrMind[] = {"plan", "hypothetical", "quotation", "requirement", "uncertain", "refusal"};
// Markers that say a state changed or how it stands now.
constexpr std::string_view kChangeKinds[] = {"change", "state_change", "correction", "now"};

bool HasChangeVerb(const Lexicon& lex, std::string_view lowered) {
  for (const PhraseHit& hit : lex.FindVerbs(lowered)) {
    const VerbEntry* verb = lex.Verb(hit.phrase);
    // A verb of appointment says a change only with a title after it, which the frame reads
    // ("made me team lead"; "made me who I am" is none).
    if (verb != nullptr && verb->change && !verb->speaker_object) return true;
  }
  return false;
}

// `clause` (no punctuation in it) ends with 了, alone or before a final particle (啦 呀 哦 吧 呢 嘛
// 哈), once trailing space is cut.
bool ClauseEndsWithLe(std::string_view clause) {
  static constexpr std::string_view kParticles[] = {"啦", "呀", "哦", "吧", "呢", "嘛", "哈"};
  while (!clause.empty() && (clause.back() == ' ' || clause.back() == '\t')) clause.remove_suffix(1);
  for (std::string_view particle : kParticles) {
    if (clause.ends_with(particle)) {
      clause.remove_suffix(particle.size());
      break;
    }
  }
  return clause.ends_with("了");
}

// Some clause of the sentence (the text between punctuation marks) ends with 了: 了 there marks a
// new situation ("王姐调走了，新来的是赵哥"), not a completed act ("我吃了一碗面").
bool HasClauseFinalLe(std::string_view sentence) {
  size_t clause_start = 0;
  size_t pos = 0;
  while (pos < sentence.size()) {
    char32_t cp = 0;
    size_t len = 1;
    const bool valid = rules::DecodeUtf8(sentence, pos, &cp, &len);
    if (!valid || rules::IsPunctChar(cp)) {
      if (ClauseEndsWithLe(sentence.substr(clause_start, pos - clause_start))) return true;
      clause_start = pos + len;
    }
    pos += len;
  }
  return ClauseEndsWithLe(sentence.substr(clause_start));
}

bool IsLetterByte(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\''; }

// A thing of the speaker's called new, of a topic people change (topics.tsv): "my new manager",
// "our new office", 新公司, 新手机 — a new one stands where another stood. In English after "my" or
// "our" only: "the new flat" may be a friend's ("Visited Sarah at the new flat in Bristol"), "the new
// car Honda released" nobody's; nor "a new lamp" (no topic). `lowered` is lower case.
bool NamesANewThing(const Lexicon& lex, std::string_view lowered) {
  for (size_t at = lowered.find("new "); at != std::string_view::npos; at = lowered.find("new ", at + 1)) {
    if (at > 0 && IsLetterByte(lowered[at - 1])) continue;  // "renew"
    std::string_view before = lowered.substr(0, at);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    const size_t owner = before.ends_with("my") ? 2 : before.ends_with("our") ? 3 : 0;
    if (owner == 0 || (before.size() > owner && IsLetterByte(before[before.size() - owner - 1]))) continue;  // "enemy"
    size_t b = at + 4, e = b;
    while (e < lowered.size() && IsLetterByte(lowered[e])) ++e;
    if (e > b && !lex.Topics(lowered.substr(b, e - b)).empty()) return true;
  }
  for (size_t at = lowered.find("新"); at != std::string_view::npos; at = lowered.find("新", at + 3)) {
    if (at >= 3 && (lowered.substr(at - 3, 3) == "最" || lowered.substr(at - 3, 3) == "更")) continue;  // 最新, 更新
    for (size_t len : {9, 6, 3}) {
      if (at + 3 + len <= lowered.size() && !lex.Topics(lowered.substr(at + 3, len)).empty()) return true;
    }
  }
  return false;
}

// A change said by more than a word of the present: a `change` or `state_change` marker that is no
// `now` marker ("is now" and "now" are both), or a correction that opens the sentence ("Actually,
// it's Porto"; "I'm actually a big fan" corrects nothing).
bool HasStrictChange(const Lexicon& lex, std::string_view lowered) {
  const std::vector<std::string>& now = lex.Markers("now");
  for (std::string_view kind : {"change", "state_change"}) {
    for (const PhraseHit& hit : lex.FindMarkers(lowered, kind)) {
      const bool present = std::find(now.begin(), now.end(), hit.phrase) != now.end() || hit.phrase.ends_with(" now");
      if (!present) return true;
    }
  }
  for (const PhraseHit& hit : lex.FindMarkers(lowered, "correction")) {
    if (lowered.find_first_not_of(" \t\"'(") == hit.begin) return true;
  }
  return NamesANewThing(lex, lowered);
}

// "until" or "till" before a time: a weekday, a month, "tomorrow", "tonight", "next …", "the end …",
// "the weekend" or a number ("till Monday", "until the 5th", "until 6pm"); not "until something
// better turns up". `lowered` is lower case.
bool UntilATime(std::string_view lowered) {
  static constexpr std::string_view kTimes[] = {
      "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon ", "tue ", "wed ",
      "thu ", "fri ", "sat ", "sun ", "january", "february", "march", "april", "may", "june", "july",
      "august", "september", "october", "november", "december", "tomorrow", "tonight", "next ", "the end",
      "the weekend", "end of", "the "};
  for (std::string_view word : {"until ", "till ", "'til "}) {
    for (size_t at = lowered.find(word); at != std::string_view::npos; at = lowered.find(word, at + 1)) {
      if (at > 0 && lowered[at - 1] != ' ' && lowered[at - 1] != ',') continue;  // a whole word
      std::string_view next = lowered.substr(at + word.size());
      if (!next.empty() && next[0] >= '0' && next[0] <= '9') return true;
      for (std::string_view time : kTimes) {
        if (!next.starts_with(time)) continue;
        if (time != "the ") return true;
        next.remove_prefix(time.size());  // "the 5th", not "the boiler is fixed"
        if (!next.empty() && next[0] >= '0' && next[0] <= '9') return true;
      }
    }
  }
  return false;
}

// A span ahead of now: "for the next two weeks", "for the coming few days", 接下来两周, 未来三天,
// 这一周 — a state said to last that long. Not a span behind ("for two years", 近三个月), which
// says how long a state has stood. `lowered` is lower case.
bool SpanAhead(std::string_view lowered) {
  static const RE2 kEnglish(
      R"((?:^|[^a-z])for (?:the )?(?:next|coming|following) (?:\d+ |a |an |one |two |three |four |five |six |seven )"
      R"(|eight |nine |ten |few |couple of |couple |several )?(?:days?|weeks?|months?|nights?|weekends?)(?:[^a-z]|$))");
  static const RE2 kChinese(R"((?:接下来|未来|这)的?(?:\d+|[一两二三四五六七八九十几]+)个?(?:天|周|星期|礼拜|月))");
  return RE2::PartialMatch(lowered, kEnglish) || RE2::PartialMatch(lowered, kChinese);
}

// "until" or "till" before a clause of its own ("until the repair's done", "till I'm back", "until
// the new hire starts"): a state said with its end. Not before an indefinite ("until something
// better turns up"), which names no end. `lowered` is lower case.
bool UntilAClause(std::string_view lowered) {
  static const RE2 kUntil(
      R"((?:^|[ ,])(?:until|till|'til) )"
      R"((?:the|my|our|his|her|their|i|i'm|we|we're|he|she|they|it|it's|you|you're)(?:[^a-z']|$))");
  return RE2::PartialMatch(lowered, kUntil);
}

// The word of `lowered` that starts at or after `at` (after spaces), or "".
std::string_view WordAt(std::string_view lowered, size_t at) {
  while (at < lowered.size() && lowered[at] == ' ') ++at;
  size_t end = at;
  while (end < lowered.size() && (IsLetterByte(lowered[end]) || (lowered[end] >= '0' && lowered[end] <= '9'))) ++end;
  return lowered.substr(at, end - at);
}

// `now_words`: whether a `now` marker alone ("lately", "现在") makes a change, and a correction
// word anywhere; else HasStrictChange. `final_le`: whether a clause-final 了 makes one.
NowStance SentenceStance(const Lexicon& lex, std::string_view sentence, bool question, bool now_words = true,
                         bool final_le = true) {
  if (question) return NowStance::kNotNow;
  const std::string lowered = rules::LowerAscii(sentence);
  for (std::string_view kind : kOtherTimeOrMind) {
    if (lex.HasMarker(lowered, kind)) return NowStance::kNotNow;
  }
  // "I almost moved to Liverpool", 差点搬去厦门: no change — unless the sentence states a change
  // before it ("My phone is a Pixel 8 now, though I almost kept the iPhone") or an outcome word after
  // it says what happened after all ("I almost stayed but moved to Leipzig"), which is then read as
  // a whole; not when that outcome denies ("差点搬去厦门，后来没搬成").
  if (const std::vector<PhraseHit> attempts = AttemptMarkers(lowered); !attempts.empty()) {
    const size_t at = attempts.front().begin;
    const bool changed_before = at > 0 && SaysAChange(SentenceStance(lex, sentence.substr(0, at), false, now_words, final_le));
    const size_t outcome = AttemptOutcomeAt(lowered, attempts.front().end);
    if (!changed_before && outcome == std::string_view::npos) return NowStance::kNotNow;
    const std::string_view rest = outcome == std::string_view::npos ? "" : std::string_view(lowered).substr(outcome);
    if (!changed_before && (lex.HasMarker(rest, "negated") || rest.find("没") != std::string_view::npos)) {
      return NowStance::kNotNow;
    }
  }
  const bool past = lex.HasMarker(lowered, "past");
  if (past && !lex.HasMarker(lowered, "now")) return NowStance::kNotNow;
  if (lex.HasMarker(lowered, "bounded") || UntilATime(lowered)) return NowStance::kBounded;
  // A span found by its shape bounds a state unless a word says it is temporary (这两周临时被派到成都).
  if (SpanAhead(lowered) && !lex.HasMarker(lowered, "temporary")) return NowStance::kBounded;
  // A span bounds a state unless the sentence states a lasting change ("I left Hillside this week").
  const bool span = lex.HasMarker(lowered, "span") || UntilAClause(lowered);
  if (span && !HasStrictChange(lex, lowered) && !HasChangeVerb(lex, lowered)) {
    return NowStance::kBounded;
  }
  if (lex.HasMarker(lowered, "temporary")) return NowStance::kTemporary;
  if (now_words) {
    for (std::string_view kind : kChangeKinds) {
      if (lex.HasMarker(lowered, kind)) return NowStance::kChange;
    }
    if (NamesANewThing(lex, lowered)) return NowStance::kChange;
  } else if (HasStrictChange(lex, lowered)) {
    return NowStance::kChange;
  }
  if (HasChangeVerb(lex, lowered) || (final_le && HasClauseFinalLe(sentence))) return NowStance::kChange;
  return lex.HasMarker(lowered, "negated") ? NowStance::kNotNow : NowStance::kPlain;
}

// `sentence` with the words it quotes blanked (offsets kept): someone else's words say nothing of
// how things stand for the speaker ("朋友发消息说“我现在住在合肥了”", 'My friend texted "I live in
// Bristol now"'). Quotes that only name a thing (kNamingQuote bytes or fewer: 'I use "dark mode"')
// are kept.
constexpr size_t kNamingQuote = 12;
std::string WithoutQuotations(std::string_view sentence) {
  std::string out(sentence);
  for (const rules::Span& q : rules::QuotedSpans(sentence)) {
    if (q.end - q.begin > kNamingQuote) std::fill(out.begin() + q.begin, out.begin() + q.end, ' ');
  }
  return out;
}

// The parts of `sentence` between its hard clause breaks (";", ", so", ", but", "，所以", "，不过" …),
// or nothing when it has one part.
std::vector<std::string_view> HardClauses(std::string_view sentence) {
  static const std::vector<std::string_view> kBreaks = {"; ",     ", so ",   ", but ",  "；",
                                                        "，所以", "，但是", "，不过", "，可是"};
  std::vector<std::string_view> parts = rules::SplitAtBreaks(sentence, kBreaks);
  if (parts.size() < 2) return {};
  return parts;
}

// The stance of one sentence (quotations blanked). A marker of another time or mind scopes over its
// part of the sentence only: a part after a hard break that states a change by itself makes the
// sentence one ("Doctor told me to cut caffeine, so it's rooibos tea every morning now"; "My friend
// says I should try Arc, but I've switched to Firefox already").
NowStance StanceOfSentence(const Lexicon& lex, std::string_view sentence, bool question, bool now_words) {
  const std::string unquoted = WithoutQuotations(sentence);
  const NowStance whole = SentenceStance(lex, unquoted, question, now_words);
  if (question || (whole != NowStance::kNotNow && whole != NowStance::kPlain)) return whole;
  for (std::string_view part : HardClauses(unquoted)) {
    // A part's final 了 says too little on its own ("朋友说我应该换安卓，但是太麻烦了").
    if (SentenceStance(lex, part, false, now_words, /*final_le=*/false) == NowStance::kChange) return NowStance::kChange;
  }
  return whole;
}


}  // namespace

// True when `sentence` is one Latin word of letters and nothing else that is a word ("anyway",
// "lol", "Wow!"): an interjection or a filler, which says nothing of how things stand when it is
// read as plain. (One Han character or two may be a whole statement, "搬了", so only Latin.)
bool IsOneLatinWord(std::string_view sentence) {
  size_t words = 0;
  bool in_word = false;
  for (size_t i = 0; i < sentence.size();) {
    char32_t cp = 0;
    size_t len = 1;
    if (!rules::DecodeUtf8(sentence, i, &cp, &len)) return false;
    i += len;
    const bool letter = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    if (letter) {
      words += in_word ? 0 : 1;
      in_word = true;
    } else if (in_word && cp == '\'') {
      continue;  // "y'all"
    } else if (rules::IsPunctChar(cp) || rules::IsSpaceChar(cp)) {
      in_word = false;
    } else {
      return false;  // a digit, a Han character, another letter
    }
  }
  return words == 1;
}

NowStance ReadNowStance(std::string_view text) {
  const Lexicon& lex = Lexicon::Get();
  bool any = false, all_not_now = true, temporary = false, bounded = false;
  for (const rules::Sentence& s : rules::SplitSentences(text)) {
    const std::string_view sentence = rules::SpanText(text, s.span);
    const NowStance stance = StanceOfSentence(lex, sentence, s.question, /*now_words=*/true);
    if (stance == NowStance::kChange) return NowStance::kChange;
    if (stance == NowStance::kPlain && IsOneLatinWord(sentence)) continue;  // "anyway", "lol"
    any = true;
    temporary = temporary || stance == NowStance::kTemporary;
    bounded = bounded || stance == NowStance::kBounded;
    all_not_now = all_not_now && stance == NowStance::kNotNow;
  }
  if (bounded) return NowStance::kBounded;
  if (temporary) return NowStance::kTemporary;
  return any && all_not_now ? NowStance::kNotNow : NowStance::kPlain;
}

bool SaysOnlyWhatIs(std::string_view text) {
  const Lexicon& lex = Lexicon::Get();
  bool any = false;
  for (const rules::Sentence& s : rules::SplitSentences(text)) {
    if (s.question) return false;
    if (StanceOfSentence(lex, rules::SpanText(text, s.span), false, /*now_words=*/true) == NowStance::kNotNow) return false;
    any = true;
  }
  return any;
}

std::vector<std::string_view> ChangeSentences(std::string_view text) {
  const Lexicon& lex = Lexicon::Get();
  std::vector<std::string_view> sentences;
  for (const rules::Sentence& s : rules::SplitSentences(text)) {
    const std::string_view sentence = rules::SpanText(text, s.span);
    const NowStance stance = StanceOfSentence(lex, sentence, s.question, /*now_words=*/false);
    if (text::SaysAChange(stance) || stance == NowStance::kBounded) {
      sentences.push_back(sentence);
    }
  }
  return sentences;
}

std::vector<PhraseHit> AttemptMarkers(std::string_view lowered) {
  const Lexicon& lex = Lexicon::Get();
  const std::vector<std::string>& pasts = lex.Markers("attempt_past");
  std::vector<PhraseHit> hits = lex.FindMarkers(lowered, "attempt");
  std::erase_if(hits, [&](const PhraseHit& hit) {
    if (static_cast<unsigned char>(lowered[hit.begin]) >= 0x80 || hit.phrase.ends_with(" to")) return false;
    const std::string_view next = WordAt(lowered, hit.end);  // "almost moved", "nearly quit"
    return !(next.size() > 3 && next.ends_with("ed")) && std::find(pasts.begin(), pasts.end(), next) == pasts.end();
  });
  return hits;
}

size_t AttemptOutcomeAt(std::string_view lowered, size_t from) {
  if (from >= lowered.size()) return std::string_view::npos;
  const std::vector<PhraseHit> hits = Lexicon::Get().FindMarkers(lowered.substr(from), "attempt_outcome");
  return hits.empty() ? std::string_view::npos : from + hits.front().begin;
}

bool NamesAnEnding(std::string_view text) {
  const Lexicon& lex = Lexicon::Get();
  const std::string lowered = rules::LowerAscii(text);
  for (std::string_view kind : {"ends", "ends_named", "ends_anymore", "ends_le"}) {
    if (!lex.FindMarkers(lowered, kind).empty()) return true;
  }
  return false;
}

}  // namespace engram::extraction
