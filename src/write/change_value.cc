#include "write/change_value.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <utility>

#include "text/person_topic.h"
#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/ended_thing.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/fact_frame_reader.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"
#include "write/extraction/statement_topics.h"

namespace engram {
namespace {

using Units = std::vector<std::string>;

// True when the words of `lowered` at [begin, end) are a verb of the lexicon or a marker of change
// (verbs.tsv; markers.tsv `change`, `state_change`, `relocate`): not any past tense ("then talked
// to the night nurse").
bool ChangeVerbAt(std::string_view lowered, size_t begin, size_t end) {
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  auto covers = [&](const std::vector<extraction::PhraseHit>& hits) {
    return std::any_of(hits.begin(), hits.end(), [&](const extraction::PhraseHit& h) { return h.begin <= begin && end <= h.end; });
  };
  if (covers(lex.FindVerbs(lowered))) return true;
  for (std::string_view kind : {"change", "state_change", "relocate"}) {
    if (covers(lex.FindMarkers(lowered, kind))) return true;
  }
  return false;
}

struct Word {
  std::string_view text;
  size_t begin;
};

std::vector<Word> WordsOf(std::string_view text, size_t begin, size_t end) {
  std::vector<Word> words;
  size_t at = begin;
  while (at < end) {
    const size_t b = text.find_first_not_of(" \t", at);
    if (b == std::string_view::npos || b >= end) break;
    size_t e = text.find_first_of(" \t", b);
    if (e == std::string_view::npos || e > end) e = end;
    words.push_back({text.substr(b, e - b), b});
    at = e;
  }
  return words;
}

bool OneOf(std::string_view word, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Where a value of a change starts, and whose change it is: "" the speaker's, else the person the
// clause names before its verb ("dev", "she", 小美, 我老婆).
struct ValueStart {
  size_t at = 0;
  std::string theme;
};

// `said` less a time and adverbs of time said last, before a verb ("他上个月", "she just", "他已经").
std::string_view WithoutTrailingTime(std::string_view said) {
  std::string_view t = said;
  for (bool moved = true; moved;) {
    moved = false;
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    for (const text::TimeMention& m : text::FindTimeMentions(t, 0, 0)) {
      if (m.byte_end == t.size() && m.byte_start > 0) {
        t = t.substr(0, m.byte_start);
        moved = true;
        break;
      }
    }
    for (std::string_view adverb : {"已经", "刚刚", "刚", "又", " just", " recently", " finally", " already"}) {
      if (t.size() > adverb.size() && t.ends_with(adverb)) {
        t.remove_suffix(adverb.size());
        moved = true;
      }
    }
  }
  return t;
}

// Whose change a clause states, from `before`, its words before the verb (`said`: as written,
// capitals kept): "" the speaker's (SaysOnlyTheSpeaker); a person's — a pronoun (he, she, 他, 她), a
// person through the speaker ("my wife", 我老婆: extraction::StatementTopics), a capitalised name
// ("Dev"), or a short Chinese name (小美, 张总) — lower-cased; nullopt for anything else (a thing, a
// team, "everyone", 我们公司).
std::optional<std::string> ThemeOf(std::string_view said) {
  if (SaysOnlyTheSpeaker(said)) return std::string();
  std::string_view t = WithoutTrailingTime(said);  // "他上个月调到…", "she just moved to…": him, her
  while (!t.empty() && (t.front() == ' ')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ')) t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  const std::string lowered = extraction::LowerAsciiBytes(t);
  if (OneOf(lowered, {"he", "she", "他", "她", "他也", "她也"})) return lowered.substr(0, lowered.find("也"));
  // Pronouns and quantifiers name no one person ("They moved to…", "Everyone's moving to…").
  if (OneOf(lowered, {"they", "everyone", "everybody", "nobody", "no one", "someone", "somebody", "people", "all",
                      "it", "you", "他们", "她们", "大家", "别人", "有人"})) {
    return std::nullopt;
  }
  for (const std::string& topic : extraction::StatementTopics(t)) {
    if (text::IsOtherPersonTopic(topic)) return lowered;
  }
  if (extraction::rules::HasHan(t)) {
    const Units chars = Characters(t);
    const bool name = chars.size() >= 2 && chars.size() <= 4 &&
                      std::none_of(chars.begin(), chars.end(), [](const std::string& c) { return text::IsChineseFunctionWord(c); });
    return name ? std::optional<std::string>(lowered) : std::nullopt;
  }
  const std::vector<Word> words = WordsOf(t, 0, t.size());
  const bool name = !words.empty() && words.size() <= 2 && std::all_of(words.begin(), words.end(), [](const Word& w) {
    return w.text.size() >= 2 && w.text[0] >= 'A' && w.text[0] <= 'Z' &&
           std::all_of(w.text.begin() + 1, w.text.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '\''; });
  });
  return name ? std::optional<std::string>(lowered) : std::nullopt;
}

// Where, in the English clause `lowered`[begin, end), a value of the speaker's own change starts:
// after a verb of change with its particles and "to" ("switched over to", "transferred to"; "They
// transferred me to": the speaker its object), or after "I'm"/"we're" and in, on, at or with ("I'm
// in the growth squad"). The words before the verb name the speaker alone (SaysOnlyTheSpeaker),
// unless the speaker is its object; never a noun said with a determiner ("the switch to").
std::vector<ValueStart> EnglishValueStarts(std::string_view said, std::string_view lowered, size_t begin, size_t end) {
  std::vector<ValueStart> starts;
  const std::vector<Word> words = WordsOf(lowered, begin, end);
  for (size_t t = 1; t + 1 < words.size(); ++t) {
    const std::string_view w = words[t].text;
    const bool to = OneOf(w, {"to", "into", "onto"});
    if (!to && !OneOf(w, {"in", "on", "at", "with"})) continue;
    size_t v = t;  // the verb (or copula), found walking back
    bool speaker_object = false;
    while (v > 0 && OneOf(words[v - 1].text, {"over", "back", "up", "down", "out", "across", "away", "off", "now",
                                               "officially", "finally", "permanently", "just", "currently"})) {
      --v;
    }
    while (v > 0 && OneOf(words[v - 1].text, {"me", "us", "myself", "ourselves"})) --v, speaker_object = true;
    if (v == 0) continue;
    const Word& verb = words[v - 1];
    // Auxiliaries and the passive keep the speaker the one changed ("got moved over to", "have been
    // transferred to").
    size_t subject_end = v - 1;
    while (subject_end > 0 && OneOf(words[subject_end - 1].text, {"got", "get", "gets", "was", "were", "been", "being",
                                                                   "have", "has", "had"})) {
      --subject_end;
    }
    const size_t subject_to = subject_end < v - 1 ? words[subject_end].begin : verb.begin;
    const std::string_view before = lowered.substr(begin, subject_to - begin);
    std::optional<std::string> theme;
    if (to) {
      if (!ChangeVerbAt(lowered, verb.begin, verb.begin + verb.text.size())) continue;
      if (v >= 2 && OneOf(words[v - 2].text, {"the", "a", "an", "my", "our", "his", "her", "their", "its"})) continue;
      theme = speaker_object ? std::optional<std::string>("") : ThemeOf(said.substr(begin, subject_to - begin));
    } else if (OneOf(verb.text, {"i'm", "we're", "am", "are", "been"}) && SaysOnlyTheSpeaker(before) &&
               (!OneOf(verb.text, {"am", "are", "been"}) || OneOf(v >= 2 ? words[v - 2].text : "", {"i", "we", "i've", "we've"}))) {
      theme = "";
    }
    if (theme) starts.push_back({words[t].begin + w.size(), std::move(*theme)});
  }
  return starts;
}

// Where, in the Chinese clause `lowered`[begin, end), a value of the speaker's own change starts:
// after a verb of changes_to (markers.tsv: 搬到, 调到, 换成, 现在在) whose clause names no one but
// the speaker before it (SaysOnlyTheSpeaker: not 我把车, 爱奇艺, 我们公司).
std::vector<ValueStart> ChineseValueStarts(std::string_view lowered, size_t begin, size_t end) {
  std::vector<ValueStart> starts;
  const std::string_view clause = lowered.substr(begin, end - begin);
  for (const extraction::PhraseHit& hit : extraction::Lexicon::Get().FindMarkers(clause, "changes_to")) {
    std::string_view before = clause.substr(0, hit.begin);
    // The passive (我被调到) keeps the speaker the one changed; so does 把我 after any agent (领导把我调到).
    if (before.ends_with("被")) before.remove_suffix(std::string_view("被").size());
    if (before.ends_with("把我") || before.ends_with("把我们")) {
      starts.push_back({begin + hit.end, ""});
    } else if (std::optional<std::string> theme = ThemeOf(before)) {
      starts.push_back({begin + hit.end, std::move(*theme)});
    }
  }
  return starts;
}

// The marker kinds (markers.tsv) of a sentence whose change leaves the older standing: it adds
// ("too", 又买), asks, takes the change back ("just kidding", "reinstalled"), bounds it ("for the
// summer", 临时, "today", "this week") or limits it (`limits`: 只, 兼职, "in my dream").
constexpr std::string_view kNotReplacing[] = {"additive", "question", "undone", "retract", "bounded",
                                              "temporary", "one_off", "span", "limits"};

// True when `value` (the text after a verb of change, cut at a time) says its phrase `p` and
// nothing more but articles, possessives and words that say the change lasts ("now", "instead",
// "for good", 了): "the day shift on weekends", "almond milk for my smoothies" and "the fifth floor
// of the parking garage" say where or when it holds, or which one, not what replaced the older.
bool OnlyThePhrase(std::string_view value, const ThingPhrase& p) {
  const std::string lowered = extraction::LowerAsciiBytes(value);
  if (extraction::rules::HasHan(lowered)) {
    size_t chars = 0;
    for (const std::string& c : Characters(lowered)) {
      char32_t cp = 0;
      size_t len = 0;
      const bool punct = !extraction::rules::DecodeUtf8(c, 0, &cp, &len) || extraction::rules::IsPunctChar(cp) ||
                         extraction::rules::IsSpaceChar(cp);
      if (punct || OneOf(c, {"了", "啦", "的", "呢", "哦", "吧", "啊"})) continue;
      ++chars;
    }
    return chars == PhraseUnits(p).size();
  }
  size_t words = 0;
  for (const Word& w : WordsOf(lowered, 0, lowered.size())) {
    std::string_view t = w.text;
    while (!t.empty() && std::ispunct(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    if (t.empty() || OneOf(t, {"the", "a", "an", "my", "our", "now", "instead", "permanently", "officially", "for", "good",
                              "as", "of", "since"})) {
      continue;
    }
    ++words;
  }
  return words == p.terms.size();
}

// `value` without the prepositions that ended it before a time was cut ("the marketing department
// in" of "… in March").
std::string_view WithoutTrailingPrepositions(std::string_view value) {
  bool cut = true;
  while (cut) {
    cut = false;
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    for (std::string_view p : {" in", " on", " at", " since", " from", " as of", " by", " during", " over", " until"}) {
      if (value.ends_with(p)) value.remove_suffix(p.size()), cut = true;
    }
  }
  return value;
}

// True when `clause` (lower-cased) opens with the speaker: I, I'm, we…, 我, 我们, 我家 (after
// spaces).
bool OpensWithTheSpeaker(std::string_view clause) {
  while (!clause.empty() && clause.front() == ' ') clause.remove_prefix(1);
  if (clause.starts_with("我") || clause.starts_with("咱")) return true;
  const std::string_view first = clause.substr(0, clause.find(' '));
  return OneOf(first, {"i", "i'm", "i've", "i'd", "we", "we're", "we've", "we'd"});
}

// `text` without the words of the speaker (我们家, 我家, 我们, 我) and of a person through them
// (老婆 of 我老婆: extraction::StatementTopics names them).
std::string WithoutSpeakerWords(std::string_view text) {
  std::string out(text);
  for (std::string_view w : {"我们家", "我家", "我们", "我的", "我"}) {
    for (size_t at = out.find(w); at != std::string::npos; at = out.find(w)) out.erase(at, w.size());
  }
  for (std::string_view kin : {"老婆", "老公", "儿子", "女儿", "孩子", "闺女", "爸", "妈", "哥", "姐", "弟", "妹"}) {
    if (const size_t at = out.find(kin); at == 0) out.erase(0, kin.size());
  }
  return out;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> ClauseSpans(std::string_view text) {
  static constexpr std::string_view kWide[] = {"\xE2\x80\x94", "\xE2\x80\x93", "，", "；", "：", "、", "。", "！", "？"};
  std::vector<std::pair<size_t, size_t>> out;
  size_t begin = 0;
  for (size_t i = 0; i < text.size();) {
    size_t mark = 0;
    const char c = text[i];
    if (c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '\n') {
      mark = 1;
    } else if (c == '.' && (i + 1 == text.size() || text[i + 1] == ' ')) {  // not 3.12, node.js
      mark = 1;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      for (std::string_view w : kWide) {
        if (text.substr(i, w.size()) == w) mark = w.size();
      }
    }
    if (mark == 0) {
      ++i;
      continue;
    }
    out.emplace_back(begin, i);
    i += mark;
    begin = i;
  }
  out.emplace_back(begin, text.size());
  return out;
}

// At most this many values are read from one text (a bound on the cost of comparing them).
constexpr size_t kMaxValues = 16;

bool SaysALimit(std::string_view text) {
  return extraction::Lexicon::Get().HasMarker(extraction::LowerAsciiBytes(text), "limits");
}

bool ReplacesNothing(std::string_view sentence) {
  const std::string lowered = extraction::LowerAsciiBytes(sentence);
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  auto holds = [&](std::string_view kind) { return lex.HasMarker(lowered, kind); };
  return std::any_of(std::begin(kNotReplacing), std::end(kNotReplacing), holds);
}

ChangedValues ReadChangedValues(text::Analyzer& analyzer, std::string_view clause,
                                  const std::set<std::string>& ignored) {
  ChangedValues out;
  // A limit said anywhere limits the change ("I moved to the Austin branch. April fools!").
  if (SaysALimit(clause)) return out;
  for (std::string_view sentence : extraction::ChangeSentences(clause)) {
    // A sentence that adds, asks, takes its change back ("just kidding", "fell through") or bounds
    // it ("for the summer", 临时): the older still stands.
    if (ReplacesNothing(sentence)) continue;
    const std::string lowered = extraction::LowerAsciiBytes(sentence);
    for (const auto& [begin, end] : ClauseSpans(lowered)) {
      std::vector<ValueStart> starts = EnglishValueStarts(sentence, lowered, begin, end);
      std::vector<ValueStart> han = ChineseValueStarts(lowered, begin, end);
      starts.insert(starts.end(), han.begin(), han.end());
      for (ValueStart& start : starts) {
        // The value: the phrase that opens what follows (after articles and possessives), up to a
        // time ("the Leeds branch last month").
        std::string_view value = std::string_view(lowered).substr(start.at, end - start.at);
        for (const text::TimeMention& m : text::FindTimeMentions(value, 0, 0)) value = value.substr(0, std::min(value.size(), m.byte_start));
        value = WithoutTrailingPrepositions(value);  // "… in" of "… in March"
        ThingPhrases read = ReadThingPhrases(analyzer, value, ignored);
        if (read.phrases.empty() || !read.phrases.front().opens_clause || !OnlyThePhrase(value, read.phrases.front())) continue;
        ThingPhrase& p = read.phrases.front();
        bool seen = false;
        for (size_t i = 0; i < out.themes.size(); ++i) seen = seen || (out.values.phrases[i].terms == p.terms && out.themes[i] == start.theme);
        if (seen) continue;
        out.values.terms.insert(read.terms.begin(), read.terms.end());
        out.values.phrases.push_back(std::move(p));
        out.themes.push_back(std::move(start.theme));
        out.texts.emplace_back(value);
        if (out.themes.size() >= kMaxValues) return out;
      }
    }
  }
  return out;
}

// How many words into a clause an older statement's value may start (twice as many Chinese
// characters): "I'm a teller at the | York branch" is the longest shape read; a bound on the cost.
constexpr size_t kValuePositions = 6;

ThingPhrases StatedValuePhrases(text::Analyzer& analyzer, std::string_view text, const std::set<std::string>& ignored) {
  ThingPhrases out;
  const std::string lowered = extraction::LowerAsciiBytes(text);
  auto take = [&](std::string_view rest) {
    ThingPhrases read = ReadThingPhrases(analyzer, rest, ignored);
    if (read.phrases.empty() || !read.phrases.front().opens_clause) return;
    ThingPhrase& p = read.phrases.front();
    const bool seen = std::any_of(out.phrases.begin(), out.phrases.end(), [&](const ThingPhrase& q) { return q.terms == p.terms; });
    if (seen) return;
    p.opens_clause = false;  // a value said of the speaker
    out.terms.insert(read.terms.begin(), read.terms.end());
    out.phrases.push_back(std::move(p));
  };
  for (const auto& [begin, end] : ClauseSpans(lowered)) {
    const std::string_view clause = std::string_view(lowered).substr(begin, end - begin);
    if (!OpensWithTheSpeaker(clause)) continue;
    if (extraction::rules::HasHan(clause)) {
      // 我在|消化内科, 我用的是|网易云音乐, 我老婆在|协和医院: at most three characters besides the
      // speaker (and the person through the speaker) before the value.
      const Units chars = Characters(clause);
      size_t at = 0;
      for (size_t k = 1; k < chars.size() && k <= 2 * kValuePositions; ++k) {
        at += chars[k - 1].size();
        const Units rest = Characters(WithoutSpeakerWords(clause.substr(0, at)));
        if (rest.size() <= 3) take(clause.substr(at));
      }
      continue;
    }
    // "I'm on the | payments squad", "I work the | early shift", "I'm a teller at the | York branch":
    // the speaker, then at most two words besides articles and possessives.
    const std::vector<Word> words = WordsOf(clause, 0, clause.size());
    size_t others = 0;
    for (size_t k = 1; k < words.size() && k <= kValuePositions && others <= 2; ++k) {
      const std::string_view w = words[k - 1].text;
      if (!OneOf(w, {"i", "i'm", "i've", "we", "we're", "we've", "the", "a", "an", "my", "our", "now", "currently", "still",
                     "also", "usually", "always", "mostly", "normally"})) {
        ++others;
      }
      // (The analyzer drops stopwords: a phrase after "what" or "everyone on" would seem to open.)
      const std::string_view next = words[k].text;
      if (others <= 2 && !OneOf(next, {"the", "a", "an", "my", "our"}) && !text::IsFunctionTerm(next)) {
        take(clause.substr(words[k].begin));
      }
    }
  }
  return out;
}

}  // namespace engram
