#include "write/extraction/rule_extractor.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "text/person_topic.h"
#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/extraction/lexicon.h"
#include "util/time.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/claim_text.h"
#include "write/extraction/fact_frame_reader.h"
#include "write/extraction/frame_claims.h"
#include "write/extraction/rule_sentences.h"
#include "write/extraction/statement_topics.h"
#include "write/extraction/rules_chinese.h"
#include "write/extraction/rules_english.h"

namespace engram::extraction {
namespace {

using rules::RawClaim;
using rules::Sentence;
using rules::Span;
using rules::SubjectKind;

// At most this many bytes of an event are read (rule_extractor.h).
constexpr size_t kMaxEventBytes = 64 * 1024;

// The first 64 KiB of `content`, cut before a UTF-8 continuation byte.
std::string_view Readable(std::string_view content) {
  if (content.size() <= kMaxEventBytes) return content;
  size_t end = kMaxEventBytes;
  while (end > 0 && (static_cast<unsigned char>(content[end]) & 0xC0) == 0x80) --end;
  return content.substr(0, end);
}

// Role "user" events count; a role "assistant" event counts only as a named participant of a
// multi-party chat (its speaker is set and another event of the batch has another speaker).
bool Counts(const Event& event, const std::vector<Event>& batch) {
  if (event.role == "user") return true;
  if (event.role != "assistant" || event.speaker.empty()) return false;
  return std::any_of(batch.begin(), batch.end(), [&](const Event& other) {
    return !other.speaker.empty() && other.speaker != event.speaker;
  });
}

const char* ScopeOf(std::string_view predicate) {
  static constexpr std::string_view kIdentity[] = {"name",     "age", "birthday", "hometown",
                                                   "lives_in", "job", "employer", "school"};
  for (std::string_view p : kIdentity) {
    if (predicate == p) return "identity";
  }
  if (predicate == "likes" || predicate == "prefers" || predicate == "favorite") {
    return "preference";
  }
  if (predicate == "owns") return "possession";
  if (predicate == "has_relation") return "relationship";
  if (predicate == "habit") return "habit";
  if (predicate == "uses" || predicate == "status") return "state";
  return "activity";
}

double ImportanceOf(std::string_view scope, std::string_view predicate) {
  if (scope == "identity") return 0.8;
  if (scope == "relationship") return 0.7;
  if (scope == "preference" || scope == "state") return 0.6;
  if (scope == "possession" || scope == "habit") return 0.5;
  if (predicate == "did" || predicate == "doing") return 0.4;
  return 0.5;
}

// The resolved date of a mention, for a claim's text: "2026-03-09", "week of 2026-03-02",
// "2026-03", "2026" (Chinese: "2026-03-02那周", "2026年"), in the speaker's calendar (the
// mention starts at local midnight of `utc_offset_minutes`).
std::string DateText(const text::TimeMention& mention, bool chinese, int utc_offset_minutes) {
  std::string iso = FormatTimestamp(mention.start + static_cast<int64_t>(utc_offset_minutes) * 60000);
  switch (mention.precision) {
    case text::TimeMention::Precision::kDay:
      return iso.substr(0, 10);
    case text::TimeMention::Precision::kWeek:
      return chinese ? iso.substr(0, 10) + "那周" : "week of " + iso.substr(0, 10);
    case text::TimeMention::Precision::kMonth:
      return iso.substr(0, 7);
    case text::TimeMention::Precision::kYear:
      return chinese ? iso.substr(0, 4) + "年" : iso.substr(0, 4);
  }
  return iso.substr(0, 10);
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

// How the subject reads in a statement: the name, or "Lin's friend" for "my friend" said by Lin
// ("Lin的朋友" for 我朋友).
std::string SubjectDisplay(const CandidateClaim& claim, std::string_view speaker, bool chinese,
                           SubjectKind kind) {
  if (kind != SubjectKind::kRelative) return claim.subject;
  std::string_view phrase = claim.subject;
  if (chinese) {
    for (std::string_view mine : {"我们的", "我的", "我们", "我"}) {
      if (StartsWith(phrase, mine))
        return std::string(speaker) + "的" + std::string(phrase.substr(mine.size()));
    }
    return claim.subject;
  }
  for (std::string_view mine : {"my ", "My ", "our ", "Our "}) {
    if (StartsWith(phrase, mine))
      return std::string(speaker) + "'s " + std::string(phrase.substr(mine.size()));
  }
  return claim.subject;
}

// True when `m` follows the value with no clause joint between them ("Bern on May 4th", not
// "Bern and tomorrow ...", "Bern, then ...").
bool AttachedAfter(std::string_view content, const Span& value, const text::TimeMention& m) {
  if (m.byte_start < value.end || m.byte_start > content.size()) return m.byte_start >= value.begin;
  const std::string between = " " + rules::LowerAscii(content.substr(value.end, m.byte_start - value.end)) + " ";
  for (const char* joint : {" and ", " but ", " then ", ",", ";", "，", "；"}) {
    if (between.find(joint) != std::string::npos) return false;
  }
  return true;
}

// The time mention of a claim: inside its clause, the first one after the claim's value and
// attached to it ("I went to Bern on May 4th and I will go to Paris on June 1st": Paris is June
// 1st), else the clause's first ("Yesterday I went to Bern"); else one that opens its sentence
// ("Yesterday, I went … and painted …"; "昨天我…"); else none.
const text::TimeMention* MentionFor(const RawClaim& raw, const Sentence& sentence,
                                    std::string_view content,
                                    const std::vector<text::TimeMention>& mentions) {
  const text::TimeMention* first_in_clause = nullptr;
  for (const text::TimeMention& m : mentions) {
    if (!raw.clause.Overlaps({m.byte_start, m.byte_end})) continue;
    if (m.byte_start >= raw.value.begin && AttachedAfter(content, raw.value, m)) return &m;
    if (first_in_clause == nullptr) first_in_clause = &m;
  }
  if (first_in_clause != nullptr) return first_in_clause;
  for (const text::TimeMention& m : mentions) {
    if (m.byte_start < sentence.span.begin || m.byte_end > sentence.span.end) continue;
    // Only discourse words may come before it: "Yesterday", "So last week", "哈哈，昨天".
    std::string_view before =
        content.substr(sentence.span.begin, m.byte_start - sentence.span.begin);
    if (before.size() <= 12 && before.find(' ') == before.rfind(' ')) return &m;
  }
  return nullptr;
}

bool HasAsciiLetter(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

// True when the word before byte `at` is "for" ("a trip for May 4th": the date of what was
// arranged).
bool PrecededByFor(std::string_view content, size_t at) {
  std::string_view before = content.substr(0, std::min(at, content.size()));
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  if (before.size() < 3 || rules::LowerAscii(before.substr(before.size() - 3)) != "for") return false;
  return before.size() == 3 || !HasAsciiLetter(before.substr(before.size() - 4, 1));
}

// True when "since" stands right before byte `at` of `content` ("since November", "since the start
// of the year").
bool PrecededBySince(std::string_view content, size_t at) {
  std::string_view before = content.substr(0, std::min(at, content.size()));
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  if (before.size() < 5 || rules::LowerAscii(before.substr(before.size() - 5)) != "since") return false;
  return before.size() == 5 || !HasAsciiLetter(before.substr(before.size() - 6, 1));
}

bool InsideAny(const Span& span, const std::vector<Span>& ranges) {
  return std::any_of(ranges.begin(), ranges.end(), [&](const Span& r) { return r.Contains(span); });
}

// One candidate per fact of an event (subject, predicate, slot and identity qualifiers, value,
// polarity).
std::tuple<std::string, std::string, std::string, std::string, bool> SeenKey(const CandidateClaim& c) {
  std::string slot = c.slot;
  for (const std::string& q : c.qualifiers) {
    if (q.find(kCoordinateSeparator) != std::string::npos) slot += "|" + q;
  }
  return {c.subject, c.predicate, slot, c.value, HasQualifier(c, kQualNegated)};
}


// The candidate of a frame read from `sentence`, its valid time from the clause's time mention
// outside its value (else the event's time); a fact dated after the event is a plan.
CandidateClaim FrameClaim(const FactFrame& frame, const Event& event, const std::string& speaker,
                          const Sentence& sentence, std::string_view content,
                          const std::vector<text::TimeMention>& mentions, const std::vector<RawClaim>& raw) {
  const bool chinese = rules::HasHan(content.substr(frame.clause_begin, frame.clause_end - frame.clause_begin));
  CandidateClaim claim = FrameToCandidate(frame, speaker, chinese);
  RawClaim located;
  located.clause = {frame.clause_begin, frame.clause_end};
  located.value = {frame.value_begin, frame.value_end};
  // "The deadline is March 3", "my birthday is May 8": a time that is the value says when the
  // thing is, not since when that holds (nor that it is a plan).
  std::vector<text::TimeMention> outside_value;
  std::copy_if(mentions.begin(), mentions.end(), std::back_inserter(outside_value), [&](const text::TimeMention& m) {
    return m.byte_end <= frame.value_begin || m.byte_start >= frame.value_end;
  });
  const text::TimeMention* mention = MentionFor(located, sentence, content, outside_value);
  // A change told in the past tense ("I moved to Leeds in May", said in March; not "I'm moving to
  // Leeds in May") began in the May just past: a date without a year still ahead of the event is
  // last year's (as for actions, breaker D3). The phrase patterns read the tense.
  const bool told_as_done = std::any_of(raw.begin(), raw.end(), [&](const RawClaim& r) {
    return r.past_tense && !(r.qualifiers & rules::kBitPlanned) && r.value.begin < frame.value_end &&
           frame.value_begin < r.value.end;  // not "I'll have moved to Leeds by August"
  });
  // A state "since" a time began then, before it was said: "I've been at KPMG since November",
  // said in June, since the November just past; and began there, a change of what held before
  // (ChangeReportedLate, claim_writer.cc: newer news than a value whose start was never said).
  const bool since = mention != nullptr && PrecededBySince(content, mention->byte_start) &&
                     (frame.kind == ClauseKind::kFact || frame.kind == ClauseKind::kChange);
  if (since) claim.change = true;
  std::optional<text::TimeMention> just_past;
  if (mention != nullptr && (since || (frame.kind == ClauseKind::kChange && told_as_done)) && mention->year_implied &&
      mention->start > event.occurred_at && !PrecededByFor(content, mention->byte_start)) {
    just_past = text::PreviousYearOf(*mention, event.utc_offset_minutes);
    mention = &*just_past;
  }
  claim.valid_from = mention != nullptr ? mention->start : event.occurred_at;
  if (mention != nullptr) {
    claim.time_phrase = mention->phrase;
    // A report or narrated past dated in a period over before it was said ("历史记录：2024 年时 …")
    // was true then, and is not said to be true now.
    const bool narrated = frame.kind != ClauseKind::kFact && frame.kind != ClauseKind::kChange &&
                          frame.kind != ClauseKind::kPlan;
    if (narrated && mention->end <= event.occurred_at) claim.valid_to = mention->end;
    const bool states = frame.kind == ClauseKind::kFact || frame.kind == ClauseKind::kChange;
    if (mention->start > event.occurred_at && states) {
      claim.qualifiers.push_back(kQualPlanned);
      std::sort(claim.qualifiers.begin(), claim.qualifiers.end());
    }
  }
  return claim;
}

// The frames of a sentence that stand: a relative ("my sister's name is Mei") is left to the
// phrase patterns when they read a relation in the sentence (they name it too).
std::vector<FactFrame> KeptFrames(const std::vector<FactFrame>& frames, const std::vector<RawClaim>& raw) {
  std::vector<FactFrame> kept;
  for (const FactFrame& f : frames) {
    const bool relation_read = std::any_of(raw.begin(), raw.end(), [](const RawClaim& r) {
      return r.predicate == "has_relation";
    });
    if (f.subject_kind == FrameSubject::kRelative && relation_read) continue;
    kept.push_back(f);
  }
  return kept;
}

bool IsThingName(const std::string& name) {
  return name.find_first_of("0123456789-_") != std::string::npos || name.find(' ') != std::string::npos;
}

// A phrase-pattern claim the grammar's reading overrules: one about the same words, one made the
// speaker's in a clause about a named thing, or one read from a clause whose kind (a plan, a
// report, a denial, a narrated past) the patterns do not tell.
bool Overruled(const RawClaim& r, const std::vector<FactFrame>& frames) {
  for (const FactFrame& f : frames) {
    const Span value{f.value_begin, f.value_end};
    const Span clause{f.clause_begin, f.clause_end};
    if (r.value.Overlaps(value)) return true;
    if (r.subject_kind == SubjectKind::kSpeaker && f.subject_kind == FrameSubject::kNamed &&
        IsThingName(f.subject) && r.value.Overlaps(clause)) {
      return true;
    }
    if (f.kind != ClauseKind::kFact && f.kind != ClauseKind::kChange && r.predicate != "has_relation" &&
        r.value.Overlaps(clause)) {
      return true;
    }
  }
  return false;
}

// An attribute with one current value (attributes.tsv): only the fact frame may claim it, so that
// every update of the slot goes through one reading of kind, subject and value (issue 16). The
// phrase patterns keep what the frame does not model: activities, relations, ages, birthdays,
// habits, plans and multi-valued likes.
bool FrameOwned(const RawClaim& r) {
  return Lexicon::Get().IsSingleValued(r.predicate, r.slot);
}

// True when `sentence` says a thing beside another (markers.tsv `additive`: "I use Firefox too",
// "also zsh on my work laptop", "I use Emacs too now"); "too" before a word that says how ("VS
// Code felt too sluggish") says how much.
bool AddsATool(std::string_view sentence) {
  const std::string lowered = LowerAsciiBytes(sentence);
  for (const PhraseHit& hit : Lexicon::Get().FindMarkers(lowered, "additive")) {
    if (hit.phrase != "too") return true;
    size_t b = hit.end;
    while (b < lowered.size() && lowered[b] == ' ') ++b;
    size_t e = b;
    while (e < lowered.size() && std::isalpha(static_cast<unsigned char>(lowered[e]))) ++e;
    const std::string_view next = std::string_view(lowered).substr(b, e - b);
    // (Chat shorthand after "too" is no word of degree: "I work at Target too btw".)
    static constexpr std::string_view kShorthand[] = {"btw", "lol", "tbh", "fyi", "imo", "imho", "haha", "lmao", "ngl", "rn", "tho"};
    const bool shorthand = std::find(std::begin(kShorthand), std::end(kShorthand), next) != std::end(kShorthand);
    const bool degree = e > b && b > hit.end && !shorthand && !text::IsEnglishStopword(next) && !Lexicon::Get().HasMarker(next, "now");
    if (!degree) return true;
  }
  return false;
}

// A value read from a sentence that adds it, takes it back or says it is not real (markers.tsv
// `additive`, `undone`, `retract`, `unreal`: "Now I also use Firefox for testing", "Switched to
// Firefox lol jk", "我搬到海珠区了，梦里") replaces nothing: a tool is one more tool used (no slot),
// any other value is said as no current value (qualifier hypothetical). (Bounds and temporary
// changes still replace, marked temporary; "moved back to Leeds" is a change.)
// An addition is read in its sentence ("Besides Chrome, I use Firefox"), an undoing in the value's
// clause (又开始 in another clause undoes nothing), a joke or a take-back said as one (markers
// `unreal`: "just kidding") anywhere in the message ("I use Edge now. just kidding").
void KeepTheOlder(std::string_view clause, std::string_view sentence, std::string_view message, CandidateClaim* claim) {
  if (!Lexicon::Get().IsSingleValued(claim->predicate, claim->slot)) return;
  const std::string in_clause = LowerAsciiBytes(clause), whole = LowerAsciiBytes(message);
  const Lexicon& lex = Lexicon::Get();
  const bool additive = AddsATool(sentence);  // "Besides Chrome, I use Firefox"; not "too good to pass up"
  if (!additive && !lex.HasMarker(whole, "unreal") && !lex.HasMarker(in_clause, "undone") &&
      !lex.HasMarker(in_clause, "retract")) {
    return;
  }
  if (claim->predicate == "uses" && additive) {
    claim->slot.clear();
    return;
  }
  if (std::find(claim->qualifiers.begin(), claim->qualifiers.end(), kQualHypothetical) == claim->qualifiers.end()) {
    claim->qualifiers.push_back(kQualHypothetical);
    std::sort(claim->qualifiers.begin(), claim->qualifiers.end());
    claim->text += rules::HasHan(claim->text) ? "（hypothetical）" : " [hypothetical]";  // as FrameToCandidate marks a kind
  }
}

// A statement of change the claim writer stores only when it changes an older claim
// (CandidateClaim::successor_only): `value` of `predicate`, said by `speaker` in `evidence`.
CandidateClaim SuccessorOnly(const Event& event, size_t index, const std::string& speaker, std::string_view predicate,
                             std::string_view value, std::string_view evidence) {
  CandidateClaim claim;
  claim.subject = speaker;
  claim.predicate = std::string(predicate);
  claim.value = std::string(value);
  claim.text = claim.value;
  claim.valid_from = event.occurred_at;
  claim.scope = "state";
  claim.confidence = 0.6;
  claim.importance = 0.5;
  claim.change = true;
  claim.successor_only = true;
  claim.source_events = {index};
  claim.evidence_span = std::string(evidence);
  return claim;
}

// The event kept whole as a statement of change (CandidateClaim::successor_only), when the grammar
// read nothing from it, it says a change, lasting or temporary (change_statement.h), and names no
// one else through the speaker (statement_topics.h); nullopt otherwise.
std::optional<CandidateClaim> UnreadChange(const Event& event, size_t index, const std::string& speaker,
                                           std::string_view content) {
  if (!text::SaysAChange(ReadNowStance(content))) return std::nullopt;
  // Someone else's change ("邻居上个月搬到北京了") is not the speaker's to keep.
  for (const std::string& topic : StatementTopics(content)) {
    if (text::IsOtherPersonTopic(topic)) return std::nullopt;
  }
  return SuccessorOnly(event, index, speaker, kPredicateStatement, content, content);
}

// The runs of ASCII letters of `text` (views into it).
std::vector<std::string_view> AsciiWords(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    size_t end = i;
    while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
    if (end > i) words.push_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

// The byte where the words after a correction that opens `lowered` start ("sorry, I meant| gate
// C7", "wait typo|, 1989"), or npos: a correction marker (markers.tsv `correction`) within its
// first three words.
size_t AfterOpeningCorrection(std::string_view lowered) {
  static constexpr std::string_view kFillers[] = {"no", "wait", "oh", "oops", "sorry", "ok", "okay", "so", "um",
                                                  "uh", "ah", "hmm", "nope", "ugh", "argh", "apologies"};
  for (const PhraseHit& hit : Lexicon::Get().FindMarkers(lowered, "correction")) {
    const std::string_view before = lowered.substr(0, hit.begin);
    // What stands before it is a filler ("sorry, I meant…"), not who said it ("Tom: correction",
    // "Mom texted: my bad", 老板说不对); a Chinese word of the speaker's may stand there (刚才工号记错了).
    bool opens = hit.begin <= 24;
    for (std::string_view word : AsciiWords(before)) {
      opens = opens && std::find(std::begin(kFillers), std::end(kFillers), word) != std::end(kFillers);
    }
    if (opens && rules::HasHan(before)) {
      const std::vector<std::string> topics = StatementTopics(before);
      opens = before.find("说") == std::string_view::npos &&
              std::none_of(topics.begin(), topics.end(), [](const std::string& t) { return text::IsOtherPersonTopic(t); });
    }
    // "不对劲" (feels off), "my bad knee": the marker is a word of its own.
    const std::string_view after = lowered.substr(hit.end);
    if (after.starts_with("劲") || (!after.empty() && std::isalpha(static_cast<unsigned char>(after.front())))) continue;
    if (opens) return hit.end;
  }
  return std::string_view::npos;
}

// After a correction marker that ends in "wrong" ("gave you the wrong| one. It's 4D", "typed the
// wrong| number — it's 555-0199"): past the noun of the thing erred on and the stop or dash after
// it, where the value is said. `after` as AfterOpeningCorrection gives it (npos passes through).
size_t AfterThingErredOn(std::string_view lowered, size_t after) {
  if (after == std::string_view::npos || !lowered.substr(0, after).ends_with("wrong")) return after;
  size_t i = after;
  while (i < lowered.size() && lowered[i] == ' ') ++i;
  while (i < lowered.size() && std::isalpha(static_cast<unsigned char>(lowered[i]))) ++i;
  for (bool moved = true; moved && i < lowered.size();) {
    moved = false;
    if (lowered[i] == ' ' || lowered[i] == '.' || lowered[i] == ',' || lowered[i] == ':' || lowered[i] == ';' ||
        lowered[i] == '-') {
      ++i;
      moved = true;
    }
    for (std::string_view dash : {"\xE2\x80\x94", "\xE2\x80\x93"}) {
      if (lowered.substr(i).starts_with(dash)) {
        i += dash.size();
        moved = true;
      }
    }
  }
  return i;
}

// `text` without the spaces, punctuation and copulas around it ("1989" of ", 1989. ", "3 月 21 号" of
// "…是 3 月 21 号").
std::string_view TrimmedValue(std::string_view text) {
  auto edge = [](char c) { return c == ' ' || c == ',' || c == '.' || c == '!' || c == ':' || c == ';' || c == '-'; };
  for (size_t before = text.size() + 1; before != text.size();) {
    before = text.size();
    while (!text.empty() && edge(text.front())) text.remove_prefix(1);
    while (!text.empty() && edge(text.back())) text.remove_suffix(1);
    for (std::string_view mark : {"，", "。", "！", "：", "；", "…"}) {
      if (text.starts_with(mark)) text.remove_prefix(mark.size());
      if (text.ends_with(mark)) text.remove_suffix(mark.size());
    }
  }
  for (std::string_view copula : {"…", "it's ", "it is ", "its ", "is ", "was ", "应该是", "其实是", "是", "为"}) {
    if (LowerAsciiBytes(text.substr(0, copula.size())) == copula) text.remove_prefix(copula.size());
  }
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return text;
}

// A turn that opens with a correction the grammar read none from ("sorry, I meant gate C7, not
// B12", "wait typo, 1989. not 88"), kept whole as a bare correction (CandidateClaim::successor_only,
// predicate `corrects`): its value, what follows the correction word up to "not" or the sentence's
// end; what follows "not", the value it replaces. The claim writer finds what it corrects by the
// kind of its value (write/corrected_value.h) and stores nothing when it finds none.
std::optional<CandidateClaim> UnreadCorrection(const Event& event, size_t index, const std::string& speaker,
                                               std::string_view content) {
  // A question, a hedge or a supposition corrects nothing yet ("Correction: is it Heathrow?",
  // "Actually, maybe Tuesday", 如果不对，就填A1032); "should be" after it says the value (应该是A1032).
  const std::string lowered = LowerAsciiBytes(content);
  if (content.find('?') != std::string_view::npos || content.find("？") != std::string_view::npos) return std::nullopt;
  for (std::string_view kind : {"question", "uncertain", "hypothetical"}) {
    if (Lexicon::Get().HasMarker(lowered, kind)) return std::nullopt;
  }
  const size_t after = AfterThingErredOn(lowered, AfterOpeningCorrection(lowered));
  if (after == std::string_view::npos) return std::nullopt;
  const std::string_view rest = content.substr(after);
  const std::string_view low_rest = std::string_view(lowered).substr(after);
  size_t not_at = std::string_view::npos;
  for (std::string_view marker : {" not ", ",not ", "not "}) {
    const size_t at = low_rest.find(marker);
    if (at != std::string_view::npos && (marker != "not " || at == 0)) not_at = std::min(not_at, at);
  }
  std::string_view value = rest.substr(0, not_at);
  value = value.substr(0, std::min(value.size(), value.find_first_of("!?\n")));
  if (const size_t stop = value.find(". ", 2); stop != std::string_view::npos) value = value.substr(0, stop);
  value = TrimmedValue(value);
  std::string_view replaced;
  if (not_at != std::string_view::npos) {
    replaced = rest.substr(not_at + (rest[not_at] == 'n' || rest[not_at] == 'N' ? 4 : 5));
    replaced = replaced.substr(0, std::min(replaced.size(), replaced.find_first_of(".,;!?\n")));
    replaced = TrimmedValue(replaced);
  }
  // A correction says a value again ("gate C7", "1989"), or names what it replaces; a longer text
  // after "actually" is a new thought ("Actually I love the new Batman film").
  const bool short_value = std::count(value.begin(), value.end(), ' ') <= 3 || (rules::HasHan(value) && value.size() <= 30);
  if (value.empty() || value.size() > 60 || (replaced.empty() && !short_value)) {
    return std::nullopt;
  }
  CandidateClaim claim = SuccessorOnly(event, index, speaker, "corrects", value, content);
  claim.replaces_value = std::string(replaced);
  claim.correction = true;
  return claim;
}

}  // namespace

std::string RuleExtractor::Name() const { return "rules/1"; }

Result<std::vector<CandidateClaim>> RuleExtractor::Extract(const std::vector<Event>& batch) {
  // A defect of the grammar (an index past a string's end) fails this batch's jobs, which are
  // retried and then left failed with the message; it never ends the process or loses an event.
  try {
    return ExtractBatch(batch);
  } catch (const std::exception& e) {
    return Error(Status::Internal(std::string("rule extractor: ") + e.what()));
  }
}

Result<std::vector<CandidateClaim>> RuleExtractor::ExtractBatch(const std::vector<Event>& batch) {
  std::vector<CandidateClaim> out;
  std::map<std::string, FrameContext> frames_of;  // per speaker, across the batch
  for (size_t index = 0; index < batch.size(); ++index) {
    const Event& event = batch[index];
    if (!Counts(event, batch)) continue;
    const std::string speaker = event.speaker.empty() ? event.role : event.speaker;
    std::string_view content = Readable(event.content);
    std::vector<text::TimeMention> mentions = text::FindTimeMentions(content, event.occurred_at, event.utc_offset_minutes);
    std::vector<Span> times;
    times.reserve(mentions.size());
    for (const text::TimeMention& m : mentions) times.push_back({m.byte_start, m.byte_end});
    std::set<std::tuple<std::string, std::string, std::string, std::string, bool>> seen;
    const std::vector<Span> evidence = EvidenceRanges(content);
    const std::string lowered = LowerAsciiBytes(content);
    FrameContext& frames = frames_of[speaker];
    frames.person.clear();  // pronouns resolve within a turn
    frames.open = false;
    const size_t read_before = out.size();
    std::vector<std::string_view> endings;  // sentences that say something ended (NamesAnEnding)
    for (const Sentence& sentence : rules::SplitSentences(content)) {
      if (sentence.question || !InsideAny(sentence.span, evidence)) continue;
      std::string_view sentence_text = rules::SpanText(content, sentence.span);
      if (NamesAnEnding(sentence_text)) endings.push_back(sentence_text);
      SentenceReading reading = ReadSentenceFrames(content, lowered, sentence, times, &frames);
      if (reading.settled && reading.frames.empty()) continue;  // a question or a wish
      std::vector<RawClaim> raw;
      if (HasAsciiLetter(sentence_text)) rules::ReadEnglish(content, sentence, times, &raw);
      if (sentence.has_han) rules::ReadChinese(content, sentence, times, &raw);
      const std::vector<FactFrame> kept = KeptFrames(reading.frames, raw);
      for (const FactFrame& frame : kept) {
        CandidateClaim claim = FrameClaim(frame, event, speaker, sentence, content, mentions, raw);
        KeepTheOlder(content.substr(frame.clause_begin, frame.clause_end - frame.clause_begin), sentence_text, content,
                     &claim);
        claim.source_events = {index};
        claim.evidence_span = std::string(sentence_text);
        if (seen.insert(SeenKey(claim)).second) out.push_back(std::move(claim));
      }
      // The phrase patterns keep what the grammar did not read (relations, activities, ages).
      raw.erase(std::remove_if(raw.begin(), raw.end(),
                               [&](const RawClaim& r) { return Overruled(r, kept) || FrameOwned(r); }),
                raw.end());
      std::stable_sort(raw.begin(), raw.end(), [](const RawClaim& a, const RawClaim& b) {
        return a.value.begin < b.value.begin;
      });
      for (const RawClaim& r : raw) {
        if (r.value.empty() || !sentence.span.Contains(r.value)) continue;
        CandidateClaim claim;
        claim.subject = r.subject_kind == SubjectKind::kSpeaker
                            ? speaker
                            : std::string(rules::SpanText(content, r.subject));
        if (claim.subject.empty()) continue;
        claim.predicate = r.predicate;
        claim.slot = r.slot;
        claim.value = std::string(rules::SpanText(content, r.value));
        unsigned bits = r.qualifiers;
        // A birthday's date is its value, not when it became true; a relation
        // ("我下周和同事李雷一起 去巴黎") holds already, whatever the time of the trip it is
        // mentioned with.
        const text::TimeMention* mention =
            r.predicate == "birthday" || r.predicate == "has_relation"
                ? nullptr
                : MentionFor(r, sentence, content, mentions);
        // "I went to Bern on May 4th", said in January: a date without a year still ahead of the
        // event, told in the past tense, is the one just past, not a plan (breaker D3).
        // Only for an action the speaker did on that date, not one arranged for it ("I booked a
        // trip for May 4th", "我买了5月4日去苏州的票"), and for a state a past change began then ("I
        // moved to Leeds in August", said in June: the August just past, not a plan).
        static const std::set<std::string, std::less<>> kDoneActions = {
            "went_to", "attended", "joined", "did",     "finished", "started", "lives_in",
            "employer", "job",     "school", "project", "uses",     "prefers"};
        std::optional<text::TimeMention> just_past;
        if (mention != nullptr && mention->year_implied && mention->start > event.occurred_at && r.past_tense &&
            !(r.qualifiers & rules::kBitPlanned) && kDoneActions.count(r.predicate) > 0 &&
            !PrecededByFor(content, mention->byte_start)) {
          just_past = text::PreviousYearOf(*mention, event.utc_offset_minutes);
          mention = &*just_past;
        }
        if (mention != nullptr) {
          claim.valid_from = mention->start;
          claim.time_phrase = mention->phrase;
          if (mention->start > event.occurred_at) bits |= rules::kBitPlanned;
        } else {
          claim.valid_from = event.occurred_at;
        }
        claim.qualifiers = rules::QualifierNames(bits);
        claim.scope = ScopeOf(claim.predicate);
        claim.confidence = std::clamp(r.confidence, 0.55, 0.9);
        claim.importance = ImportanceOf(claim.scope, claim.predicate);
        claim.source_events = {index};
        claim.evidence_span = std::string(sentence_text);
        // The time phrase as written stays in the text (lexical recall: "我下周去哪里？"), with
        // its resolved date: "Lin went to City-A yesterday (2026-03-09)", "Lin 下周打算去巴黎出差
        // （2026-03-16那周）".
        std::string display = SubjectDisplay(claim, speaker, r.chinese, r.subject_kind);
        if (r.chinese && mention != nullptr) {
          if (!display.empty() && static_cast<unsigned char>(display.back()) < 0x80) display += " ";
          display += mention->phrase;
        }
        claim.text = r.chinese ? ChineseStatement(claim, display) : EnglishStatement(claim, display);
        if (mention != nullptr) {
          claim.text += r.chinese ? "（" + DateText(*mention, true, event.utc_offset_minutes) + "）"
                                  : " " + mention->phrase + " (" +
                                        DateText(*mention, false, event.utc_offset_minutes) + ")";
        }
        if (r.subject_kind != SubjectKind::kSpeaker && (bits & rules::kBitReported)) {
          claim.text += r.chinese ? "（" + speaker + "转述）" : " (reported by " + speaker + ")";
        }
        if (!seen.insert(SeenKey(claim)).second) continue;
        out.push_back(std::move(claim));
      }
    }
    // Unless the grammar read the correction as a value that replaces one (a bare `corrects`, a
    // value naming what it replaces, or a change of an attribute it names: "我记错了，我生日是 5 月
    // 3 号"; a bare copula of a thing, "尾号是6868", may name its thing in part): an act ("user 记错" of 我记错了) or a requirement (应该是A1032) read from it corrects
    // nothing.
    const bool corrects = std::any_of(out.begin() + static_cast<std::ptrdiff_t>(read_before), out.end(), [](const CandidateClaim& c) {
      return c.correction && (c.predicate == "corrects" || !c.replaces_value.empty() || (c.change && c.predicate != "is"));
    });
    if (!corrects) {
      if (auto unread = UnreadCorrection(event, index, speaker, content)) out.push_back(std::move(*unread));
    }
    if (out.size() == read_before) {
      if (auto unread = UnreadChange(event, index, speaker, content)) out.push_back(std::move(*unread));
      continue;
    }
    // "I'm no longer at Amazon. Started at a startup on Monday.": an ending the grammar read nothing
    // from is kept as a statement of change of its own, stored only if it closes something.
    for (std::string_view ending : endings) {
      const bool read = std::any_of(out.begin() + static_cast<std::ptrdiff_t>(read_before), out.end(),
                                    [&](const CandidateClaim& c) { return c.evidence_span == ending; });
      if (read) continue;
      if (auto unread = UnreadChange(event, index, speaker, ending)) out.push_back(std::move(*unread));
    }
  }
  // A tool the lexicon knows says which of the speaker's tools it is wherever the reading gave it
  // no slot ("I've gone all in on Neovim — VS Code felt too sluggish": the editor, values.tsv), so
  // that it takes the older editor's place; not one said beside another (markers.tsv `additive`:
  // "I use Firefox too", "also zsh on my work laptop"), which adds a tool.
  // An act that says the speaker erred ("gave you the wrong one", "transposed digits", 记错了) is
  // no deed of theirs: the correction it opens is read above, or nothing is.
  // (Only in a turn read as a correction: "I fixed a typo in the docs" is a deed.)
  std::set<size_t> corrected;
  for (const CandidateClaim& c : out) {
    if (c.correction && !c.source_events.empty()) corrected.insert(c.source_events.front());
  }
  std::erase_if(out, [&](const CandidateClaim& c) {
    // (The value said by the speaker: "had that wrong" of "I had that wrong".)
    return c.predicate == "did" && !c.source_events.empty() && corrected.contains(c.source_events.front()) &&
           (Lexicon::Get().HasMarker(LowerAsciiBytes(c.value), "correction") ||
            Lexicon::Get().HasMarker("i " + LowerAsciiBytes(c.value), "correction"));
  });
  for (CandidateClaim& c : out) {
    if (c.predicate != "uses" || !c.slot.empty()) continue;
    if (AddsATool(c.evidence_span)) continue;
    c.slot = rules::UsesSlot(c.value);
  }
  return out;
}

}  // namespace engram::extraction
