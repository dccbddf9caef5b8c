#include "write/extraction/rule_extractor.h"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "text/time_expression.h"
#include "util/time.h"
#include "write/extraction/rule_sentences.h"
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

bool Has(const CandidateClaim& claim, const char* qualifier) {
  return std::find(claim.qualifiers.begin(), claim.qualifiers.end(), qualifier) !=
         claim.qualifiers.end();
}

// A readable English statement: "Lin lives in Hangzhou", "Lin no longer drinks beverage-X".
std::string EnglishText(const CandidateClaim& c, const std::string& s) {
  const std::string& v = c.value;
  const std::string& p = c.predicate;
  bool neg = Has(c, kQualNegated);
  bool past = Has(c, kQualPast);
  bool planned = Has(c, kQualPlanned);
  if (p == "name") return s + (neg ? "'s name is not " : "'s name is ") + v;
  if (p == "age") return s + (neg ? " is not " : " is ") + v + " years old";
  if (p == "birthday") return s + "'s birthday is " + v;
  if (p == "hometown") return s + (neg ? " is not from " : " is from ") + v;
  if (p == "lives_in") {
    if (neg) return s + " does not live in " + v;
    if (past) return s + " used to live in " + v;
    return s + (planned ? " plans to live in " : " lives in ") + v;
  }
  if (p == "job")
    return s + (neg ? " does not work as " : past ? " used to work as " : " works as ") + v;
  if (p == "employer") {
    return s + (neg ? " does not work at " : past ? " used to work at " : " works at ") + v;
  }
  if (p == "school") return s + (neg ? " does not study at " : " studies at ") + v;
  if (p == "likes") return s + (neg ? " dislikes " : past ? " used to like " : " likes ") + v;
  if (p == "prefers") return s + (neg ? " does not prefer " : " prefers ") + v;
  if (p == "favorite") return s + "'s favorite " + c.slot + " is " + v;
  if (p == "owns")
    return s + (neg ? " no longer owns " : planned ? " plans to get " : " owns ") + v;
  if (p == "has_relation") return s + "'s " + c.slot + " is " + v;
  if (p == "went_to") {
    if (neg) return s + " did not go to " + v;
    return s + (planned ? " plans to go to " : " went to ") + v;
  }
  if (p == "joined" || p == "attended" || p == "started" || p == "finished") {
    std::string base = p == "joined"     ? "join"
                       : p == "attended" ? "attend"
                       : p == "started"  ? "start"
                                         : "finish";
    if (neg) return s + " did not " + base + " " + v;
    if (planned) return s + " plans to " + base + " " + v;
    return s + " " + p + " " + v;
  }
  if (p == "plans_to") return s + (neg ? " does not plan to " : " plans to ") + v;
  if (p == "did") return s + (neg ? " did not " : " ") + v;
  if (p == "doing") return s + (neg ? " is not " : " is ") + v;
  if (p == "habit") {
    std::string object = v == c.slot ? "" : " " + v;
    if (neg) return s + " no longer " + rules::ThirdPersonSingular(c.slot) + object;
    if (past) return s + " used to " + c.slot + object;
    return s + " " + rules::ThirdPersonSingular(c.slot) + object;
  }
  if (p == "uses") {
    std::string text = s + (neg ? " does not use " : " uses ") + v;
    if (Has(c, kQualTemporary)) text += " for now";
    return text;
  }
  if (p == "status") return s + (neg ? " is not " : past ? " was " : " is ") + v;
  return s + " " + p + " " + v;
}

// A readable Chinese statement: "Lin 住在杭州", "小梅不再喝咖啡".
std::string ChineseText(const CandidateClaim& c, std::string s) {
  if (!s.empty() && static_cast<unsigned char>(s.back()) < 0x80) s += " ";
  const std::string& v = c.value;
  const std::string& p = c.predicate;
  bool neg = Has(c, kQualNegated);
  bool past = Has(c, kQualPast);
  bool planned = Has(c, kQualPlanned);
  if (p == "name") return s + (neg ? "不叫" : "叫") + v;
  if (p == "age") return s + v + "岁";
  if (p == "birthday") return s + "的生日是" + v;
  if (p == "hometown") return s + "来自" + v;
  if (p == "lives_in")
    return s + (neg ? "不住在" : past ? "以前住在" : planned ? "打算住在" : "住在") + v;
  if (p == "job") return s + (neg ? "不是" : "是") + v;
  if (p == "employer") return s + (neg ? "不在" : "在") + v + "工作";
  if (p == "school") return s + (neg ? "不在" : "在") + v + "上学";
  if (p == "likes") return s + (neg ? "不喜欢" : "喜欢") + v;
  if (p == "prefers") return s + "更喜欢" + v;
  if (p == "favorite") return s + "最喜欢的" + c.slot + "是" + v;
  if (p == "owns") return s + (neg ? "不再拥有" : "有") + v;
  if (p == "has_relation") return s + "的" + c.slot + "是" + v;
  if (p == "went_to") return s + (neg ? "没去" : planned ? "打算去" : "去了") + v;
  if (p == "joined") return s + (neg ? "没有加入" : "加入了") + v;
  if (p == "attended") return s + (neg ? "没有参加" : "参加了") + v;
  if (p == "started") return s + (neg ? "没有开始" : "开始") + v;
  if (p == "finished") return s + (neg ? "没有完成" : "完成了") + v;
  if (p == "plans_to") return s + (neg ? "不打算" : "打算") + v;
  if (p == "did") return s + (neg ? "没有" : "") + v;
  if (p == "doing") return s + "正在" + v;
  if (p == "habit") {
    std::string object = v == c.slot ? v : c.slot + v;
    return s + (neg ? "不再" : past ? "以前经常" : "经常") + object;
  }
  if (p == "uses")
    return s + (neg ? "不用" : "使用") + v + (Has(c, kQualTemporary) ? "（暂时）" : "");
  if (p == "status") return s + (neg ? "不是" : "") + v;
  return s + " " + p + " " + v;
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

}  // namespace

std::string RuleExtractor::Name() const { return "rules/1"; }

Result<std::vector<CandidateClaim>> RuleExtractor::Extract(const std::vector<Event>& batch) {
  std::vector<CandidateClaim> out;
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
    for (const Sentence& sentence : rules::SplitSentences(content)) {
      if (sentence.question) continue;
      std::string_view sentence_text = rules::SpanText(content, sentence.span);
      std::vector<RawClaim> raw;
      if (HasAsciiLetter(sentence_text)) rules::ReadEnglish(content, sentence, times, &raw);
      if (sentence.has_han) rules::ReadChinese(content, sentence, times, &raw);
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
        // trip for May 4th", "我买了5月4日去苏州的票").
        static const std::set<std::string, std::less<>> kDoneActions = {"went_to", "attended", "joined",
                                                                       "did",     "finished", "started"};
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
        claim.text = r.chinese ? ChineseText(claim, display) : EnglishText(claim, display);
        if (mention != nullptr) {
          claim.text += r.chinese ? "（" + DateText(*mention, true, event.utc_offset_minutes) + "）"
                                  : " " + mention->phrase + " (" +
                                        DateText(*mention, false, event.utc_offset_minutes) + ")";
        }
        if (r.subject_kind != SubjectKind::kSpeaker && (bits & rules::kBitReported)) {
          claim.text += r.chinese ? "（" + speaker + "转述）" : " (reported by " + speaker + ")";
        }
        auto key = std::make_tuple(claim.subject, claim.predicate, claim.slot, claim.value,
                                   (bits & rules::kBitNegated) != 0);
        if (!seen.insert(key).second) continue;
        out.push_back(std::move(claim));
      }
    }
  }
  return out;
}

}  // namespace engram::extraction
