#include "write/ended_thing.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/fact_frame_reader.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"
#include "write/extraction/statement_topics.h"
#include "text/person_topic.h"

namespace engram {
namespace {

namespace rules = extraction::rules;

// Byte offsets of the clause of `sentence` around [at, at_end): from after the last punctuation
// mark before `at` to the first one after `at_end` (rule_sentences.h IsPunctChar; the word joiners
// ' - & + @ / are none).
std::pair<size_t, size_t> ClauseAround(std::string_view sentence, size_t at, size_t at_end) {
  size_t begin = 0, end = sentence.size();
  for (size_t pos = 0; pos < sentence.size();) {
    char32_t cp = 0;
    size_t len = 1;
    const bool valid = rules::DecodeUtf8(sentence, pos, &cp, &len);
    if (!valid || rules::IsPunctChar(cp)) {
      if (pos + len <= at) begin = pos + len;
      if (pos >= at_end) {
        end = pos;
        break;
      }
    }
    pos += len;
  }
  return {begin, end};
}

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t begin = text.find_first_not_of(" \t", pos);
    if (begin == std::string_view::npos) break;
    size_t end = text.find_first_of(" \t", begin);
    if (end == std::string_view::npos) end = text.size();
    words.push_back(text.substr(begin, end - begin));
    pos = end;
  }
  return words;
}

using rules::HasHan;

bool Capitalised(std::string_view word) { return !word.empty() && word[0] >= 'A' && word[0] <= 'Z'; }

std::string Lower(std::string_view text) { return extraction::LowerAsciiBytes(text); }

// The speaker and their group, as a clause's subject.
bool SpeakerWord(std::string_view lowered) {
  static constexpr std::string_view kWords[] = {"i", "i'm", "i've", "we", "we're", "we've"};
  return std::find(std::begin(kWords), std::end(kWords), lowered) != std::end(kWords);
}

// `word` lower-cased, without the marks around it ("finally," → "finally", "!!" → "").
std::string Bare(std::string_view word) {
  auto mark = [](char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0 && c != '\''; };
  while (!word.empty() && mark(word.front())) word.remove_prefix(1);
  while (!word.empty() && mark(word.back())) word.remove_suffix(1);
  return Lower(word);
}

// `text` with each curly apostrophe (U+2019, as phones type "I’m") a straight one: the lexicon's
// phrases ("don't use") and the speaker's words ("i'm") are written so.
std::string StraightApostrophes(std::string_view text) {
  static constexpr std::string_view kCurly = "\xE2\x80\x99";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i, kCurly.size()) == kCurly) {
      out.push_back('\'');
      i += kCurly.size();
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

// True when `w` (lower case) says no more than when or how surely, between the speaker and a verb
// of ending or between a thing and it: a word of kind `aside` (data/lexicon/markers.tsv: "have",
// "just", "finally", 已经, 那边). Not any word in -ly: names end so too (Emily, Kelly).
bool Aside(std::string_view w) {
  const std::vector<std::string>& asides = extraction::Lexicon::Get().Markers("aside");
  return std::find(asides.begin(), asides.end(), w) != asides.end();
}

// `text` without the time phrases it names ("last month", 上个月).
std::string WithoutTimes(std::string_view text) {
  std::string out;
  size_t from = 0;
  for (const text::TimeMention& m : text::FindTimeMentions(text, 0, 0)) {
    if (m.byte_start < from) continue;
    out.append(text.substr(from, m.byte_start - from)).push_back(' ');
    from = m.byte_end;
  }
  out.append(text.substr(std::min(from, text.size())));
  return out;
}

// `text` with each Chinese word of the speaker (我, 我们) or of kind `aside` a space, the longest
// first: 新东方我已经辞了 → 新东方  辞了.
std::string WithoutChineseAsides(std::string_view text) {
  static constexpr std::string_view kSpeaker[] = {"我们家", "我家", "咱家", "我们", "咱们", "我", "咱"};
  std::vector<std::string_view> words(std::begin(kSpeaker), std::end(kSpeaker));
  for (const std::string& w : extraction::Lexicon::Get().Markers("aside")) {
    if (HasHan(w)) words.push_back(w);
  }
  std::sort(words.begin(), words.end(), [](std::string_view x, std::string_view y) { return x.size() > y.size(); });
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const std::string_view tail = text.substr(i);
    const auto w = std::find_if(words.begin(), words.end(), [&](std::string_view k) { return tail.starts_with(k); });
    if (w != words.end()) {
      out.push_back(' ');
      i += w->size();
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

// `lowered` without its discourse words (markers.tsv `discourse`: "btw", "honestly", 其实).
std::string WithoutDiscourse(std::string_view lowered) {
  std::string kept;
  size_t from = 0;
  for (const extraction::PhraseHit& hit : extraction::Lexicon::Get().FindMarkers(lowered, "discourse")) {
    if (hit.begin < from) continue;
    kept.append(lowered.substr(from, hit.begin - from)).push_back(' ');
    from = hit.end;
  }
  kept.append(lowered.substr(std::min(from, lowered.size())));
  return kept;
}

// True when `text` names someone other than the speaker: he, she, they, 他, 她 (not 其他), or a
// person through the speaker ("my sister", 我老婆).
bool NamesAnother(std::string_view text) {
  const std::string lowered = Lower(text);
  for (std::string_view w : {"他", "她", "它"}) {
    for (size_t at = lowered.find(w); at != std::string::npos; at = lowered.find(w, at + w.size())) {
      const bool word = (at >= 3 && (lowered.compare(at - 3, 3, "其") == 0 || lowered.compare(at - 3, 3, "吉") == 0));
      if (!word) return true;  // not 其他, 吉他
    }
  }
  for (const std::string& topic : extraction::StatementTopics(text)) {
    if (text::IsOtherPersonTopic(topic)) return true;
  }
  return false;
}

// True when `before`, a clause's words before its verb of ending, say that the speaker ended it,
// and nothing more: the speaker (I, we, 我, 我们, or no one said), words of time and discourse
// ("finally", "last month", 已经, 上个月). Not someone else ("my sister quit", "Tom left", 医生让我把
// 可乐戒了, "half my team quit"), a denial ("I'd never quit", 没), an attempt or a plan ("tried to
// quit", "everyone keeps telling me to quit", 等孩子上完小学我们就离开北京).
bool SpeakerAlone(std::string_view before) {
  if (NamesAnother(before)) return false;
  // A reason said first gives no subject: 为了体检把啤酒戒了, 我因为胃不好把咖啡戒了.
  for (std::string_view why : {"为了", "因为"}) {
    if (const size_t at = before.find(why); at != std::string_view::npos) before = before.substr(0, at);
  }
  const std::string rest = WithoutDiscourse(Lower(WithoutChineseAsides(WithoutTimes(before))));
  for (std::string_view word : Words(rest)) {
    const std::string w = Bare(word);
    if (w.empty() || SpeakerWord(w) || Aside(w)) continue;
    static constexpr std::string_view kDenials[] = {"not", "never", "didn't", "don't", "won't", "wouldn't",
                                                    "can't", "couldn't", "shouldn't", "haven't", "hasn't", "wasn't",
                                                    "to", "will", "gonna", "might", "may", "should", "would", "'d",
                                                    "i'd", "we'd", "i'll", "we'll", "'ll", "going", "if", "he",
                                                    "she", "they", "it", "you"};
    if (std::find(std::begin(kDenials), std::end(kDenials), w) != std::end(kDenials)) return false;
    if (HasHan(w) || !text::IsFunctionTerm(w)) return false;  // a name, a noun, a verb, 没
  }
  return true;
}

// `region` without trailing white space and Chinese sentence-final particles (广州啦 → 广州).
std::string_view WithoutFinalParticles(std::string_view region) {
  static constexpr std::string_view kParticles[] = {"了", "啦", "呀", "哦", "吧", "呢", "嘛", "哈", "啊", "咯"};
  bool cut = true;
  while (cut) {
    cut = false;
    while (!region.empty() && (region.back() == ' ' || region.back() == '\t')) region.remove_suffix(1);
    for (std::string_view p : kParticles) {
      if (region.ends_with(p)) {
        region.remove_suffix(p.size());
        cut = true;
      }
    }
  }
  return region;
}

// The content terms of `text` in text order (text::Analyzer query terms that are no function terms).
std::vector<std::string> TermRun(text::Analyzer& analyzer, std::string_view text) {
  std::vector<std::string> run;
  analyzer.Tokenize(text, text::TokenizeMode::kQuery, [&](std::string_view token, int, int, bool) {
    if (text::IsFunctionTerm(token)) return;
    run.emplace_back(token);
    // A model number written onto its name ("Mazda3") names the name too: "sold the mazda".
    if (std::string name = NameOfModel(token); !name.empty()) run.push_back(std::move(name));
  });
  return run;
}

// `region` cut before its first English adverb in -ly, or "anymore", after its first word:
// "coffee completely" → "coffee". A few nouns end in -ly too.
std::string_view BeforeAnAdverb(std::string_view region) {
  static constexpr std::string_view kNouns[] = {"family", "italy", "july", "supply", "assembly", "rally", "belly", "ally"};
  bool first = true;
  for (std::string_view w : Words(region)) {
    const std::string lowered = Lower(w);
    const bool adverb = lowered.size() > 4 && lowered.ends_with("ly") &&
                        std::all_of(lowered.begin(), lowered.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
                        std::find(std::begin(kNouns), std::end(kNouns), lowered) == std::end(kNouns);
    if ((adverb || lowered == "anymore") && !first) return region.substr(0, static_cast<size_t>(w.data() - region.data()));
    first = false;
  }
  return region;
}

// `region` cut before a time it names after its first byte ("spotify last week" → "spotify").
std::string_view BeforeATime(std::string_view region) {
  for (const text::TimeMention& m : text::FindTimeMentions(region, 0, 0)) {
    if (m.byte_start > 0 && m.byte_start < region.size()) region = region.substr(0, m.byte_start);
  }
  return region;
}

// True when the byte `at` of `sentence` stands inside quotation marks: "…", “…”, 「…」, 《…》, or
// '…' (a ' after a letter is an apostrophe).
bool InsideQuotes(std::string_view sentence, size_t at) {
  bool in_double = false, in_single = false;
  int curly = 0, corner = 0;
  for (size_t i = 0; i < at && i < sentence.size(); ++i) {
    const std::string_view rest = sentence.substr(i);
    if (rest[0] == '"') in_double = !in_double;
    if (rest[0] == '\'' && (i == 0 || !std::isalnum(static_cast<unsigned char>(sentence[i - 1])))) in_single = true;
    if (rest[0] == '\'' && i > 0 && std::isalnum(static_cast<unsigned char>(sentence[i - 1])) &&
        (i + 1 == sentence.size() || !std::isalnum(static_cast<unsigned char>(sentence[i + 1])))) {
      in_single = false;
    }
    for (std::string_view open : {"\xE2\x80\x9C", "\xE2\x80\x98", "\xE3\x80\x8C", "\xE3\x80\x8A"}) {
      if (rest.starts_with(open)) ++(open[1] == '\x80' ? curly : corner);
    }
    for (std::string_view close : {"\xE2\x80\x9D", "\xE2\x80\x99", "\xE3\x80\x8D", "\xE3\x80\x8B"}) {
      if (rest.starts_with(close)) --(close[1] == '\x80' ? curly : corner);
    }
  }
  return in_double || in_single || curly > 0 || corner > 0;
}

// True when the ending at `at` of `sentence` lasts a while only or was one act of a day: its clause
// holds a marker of kind `bounded`, `temporary` or `one_off` ("for this week", "for a
// while", "today", "over the weekend", 今天) or a time of day ("at 2am", "6:30"); or the rest of
// the sentence undoes it (`undone`: "deleted Instagram for a day and reinstalled it", 又装回来了);
// with `named` (a verb that ends only a name), also "early" or "late".
bool NotALastingEnd(std::string_view sentence, size_t at, bool named) {
  const auto [begin, end] = ClauseAround(sentence, at, at);
  const std::string clause = Lower(sentence.substr(begin, end - begin));
  // A name left early or late was left for the day ("Left Lakeside Tennis Club early").
  const std::vector<std::string_view> words = Words(clause);
  if (named && std::any_of(words.begin(), words.end(), [](std::string_view w) {
        const std::string b = Bare(w);
        return b == "early" || b == "late";
      })) {
    return true;
  }
  // (A span alone says when a lasting end happened: "I left Hillside this week".)
  for (std::string_view kind : {"bounded", "temporary", "one_off"}) {
    if (extraction::Lexicon::Get().HasMarker(clause, kind)) return true;
  }
  for (std::string_view w : words) {
    const std::string b = Bare(w);
    if (!b.empty() && std::isdigit(static_cast<unsigned char>(b[0])) &&
        (b.ends_with("am") || b.ends_with("pm") || b.find(':') != std::string::npos)) {
      return true;
    }
  }
  return extraction::Lexicon::Get().HasMarker(Lower(sentence.substr(end)), "undone");
}

// True when the clause of `sentence` around `at` says "anymore" or "any more".
bool SaysAnymore(std::string_view sentence, size_t at) {
  const auto [begin, end] = ClauseAround(sentence, at, at);
  const std::vector<std::string_view> words = Words(sentence.substr(begin, end - begin));
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string b = Bare(words[i]);
    if (b == "anymore" || (b == "any" && i + 1 < words.size() && Bare(words[i + 1]) == "more")) return true;
  }
  return false;
}

// For 不在, 不用, 不去 (`ends_le`): true when the clause says the state ended, with 了 (啦) after the
// verb, or 已经 or 不再 before it (已经不在广州啦); not where one is or what one does now (我现在不在
// 公司，在楼下买咖啡; 我晚上不喝咖啡).
bool SaysLe(std::string_view sentence, size_t at, size_t at_end) {
  const auto [begin, end] = ClauseAround(sentence, at, at_end);
  const std::string_view after = sentence.substr(at_end, end - at_end), before = sentence.substr(begin, at - begin);
  return after.find("了") != std::string_view::npos || after.find("啦") != std::string_view::npos ||
         before.find("已经") != std::string_view::npos || before.find("不再") != std::string_view::npos;
}

// The ended thing after (or, in Chinese with nothing after, before) the verb of ending at
// [at, at_end) of `sentence`; false when there is none or someone else ended it.
bool ReadOne(text::Analyzer& analyzer, std::string_view sentence, size_t at, size_t at_end, bool named_only,
             const std::set<std::string>& ignored, EndedThing* out) {
  const auto [begin, end] = ClauseAround(sentence, at, at_end);
  std::string_view before = sentence.substr(begin, at - begin);
  std::string_view region = BeforeATime(BeforeAnAdverb(WithoutFinalParticles(sentence.substr(at_end, end - at_end))));
  if (region.find_first_not_of(" \t") == std::string_view::npos && HasHan(sentence)) {
    // 把奶茶戒了, 星辰科技我已经辞了: the thing stands before the verb.
    size_t ba = std::string_view::npos, ba_len = 0;
    for (std::string_view w : {"把", "从", "将"}) {
      for (size_t pos = before.rfind(w); pos != std::string_view::npos; pos = pos == 0 ? std::string_view::npos : before.rfind(w, pos - 1)) {
        const std::string_view next = before.substr(pos + w.size());
        if (next.starts_with("来") || next.starts_with("近")) continue;  // 从来, 将来, 将近
        if (ba == std::string_view::npos || pos > ba) ba = pos, ba_len = w.size();
        break;
      }
    }
    region = ba == std::string_view::npos ? before : before.substr(ba + ba_len);
    before = ba == std::string_view::npos ? std::string_view() : before.substr(0, ba);
    if (NamesAnother(region)) return false;  // 奶茶她戒了
  }
  if (!SpeakerAlone(before)) return false;
  out->surface = std::string(region);
  out->named_only = named_only;
  if (HasHan(region)) out->icu_words = PlainWords(WithoutTimes(region));
  ThingPhrases read = ReadThingPhrases(analyzer, region, ignored);
  if (!read.phrases.empty()) out->phrase = std::move(read.phrases.front());
  return !read.phrases.empty() || HasHan(region);
}

bool IsArticleOrOwner(std::string_view w) {
  static constexpr std::string_view kWords[] = {"the", "a", "an", "my", "our", "your", "his", "her", "their", "some"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

// The first word of `surface` after an article or possessive ("my", "the").
std::string_view FirstWord(std::string_view surface) {
  for (std::string_view w : Words(surface)) {
    const std::string lowered = Lower(w);
    if (lowered != "the" && lowered != "my" && lowered != "our" && lowered != "a" && lowered != "an") return w;
  }
  return {};
}

// True when `text` writes in capitals only ("JUST LEFT WORK"): its capitals name nothing.
bool Shouted(std::string_view text) {
  return std::none_of(text.begin(), text.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// True when the byte `at` of `text` opens a sentence: nothing but spaces and quotes before it since
// the start or a . ! ? or line break.
bool OpensASentence(std::string_view text, size_t at) {
  while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '"' || text[at - 1] == '\'' || text[at - 1] == '(')) --at;
  return at == 0 || text[at - 1] == '.' || text[at - 1] == '!' || text[at - 1] == '?' || text[at - 1] == '\n';
}

// True when `word` is said capitalised in `text`, as a whole word, case aside: not only because it
// opens a sentence ("Home base is Austin TX"), nor in a text of capitals only.
bool SaidCapitalised(std::string_view word, std::string_view text) {
  if (Shouted(text)) return false;
  const std::string w = Lower(word), t = Lower(text);
  auto letter = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (size_t at = t.find(w); at != std::string::npos; at = t.find(w, at + 1)) {
    size_t end = at + w.size();
    while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end])) != 0) ++end;  // "Mazda3" says Mazda
    const bool whole = (at == 0 || !letter(t[at - 1])) && (end == t.size() || !letter(t[end]));
    if (whole && Capitalised(text.substr(at, 1)) && !OpensASentence(text, at)) return true;
  }
  return false;
}

bool IsMarker(std::string_view lowered, std::string_view kind) {
  const std::vector<std::string>& words = extraction::Lexicon::Get().Markers(kind);
  return std::find(words.begin(), words.end(), lowered) != words.end();
}

// What one holds of a named thing (markers.tsv `holding`, `holding_work`): a membership, an account,
// a job at it.
bool HoldingWord(std::string_view lowered) { return IsMarker(lowered, "holding") || IsMarker(lowered, "holding_work"); }

// True when `older` says the speaker works somewhere (a verb of the lexicon with the attribute
// `employer` or `job`: "I work at Starbucks", 我在星巴克上班).
bool SaysWork(std::string_view older) {
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  for (const extraction::PhraseHit& hit : lex.FindVerbs(Lower(older))) {
    const extraction::VerbEntry* verb = lex.Verb(hit.phrase);
    if (verb != nullptr && (verb->target.attribute == "employer" || verb->target.attribute == "job")) return true;
  }
  return false;
}

// True when ending `holding` (a word of what one holds of a thing) may end `older`: a customer's
// hold (a membership, 会员卡) ends no work there, and a job ends only work.
bool HoldingEnds(std::string_view holding, std::string_view older) {
  return IsMarker(holding, "holding_work") == SaysWork(older);
}

// True when `surface` ends in a word of what one holds of a thing (markers.tsv `holding`: "planet
// fitness membership", "my Chase account"), not another thing of the name ("google chrome").
bool Holding(std::string_view surface, std::string_view older) {
  const std::vector<std::string_view> words = Words(surface);
  if (words.empty()) return false;
  const std::string last = Bare(words.back());
  return HoldingWord(last) && HoldingEnds(last, older);
}


// True when a Chinese thing, `r` (ICU's words of it), opens with whole words of an older statement
// (`o`, ICU's words of `older`), two characters or more, followed by nothing, the speaker, an aside
// or 的 and what one holds of it (新东方我 of 我在新东方当英语老师, 威尔仕的卡; not 手机壳 of 小米手机,
// nor 小米的耳机, a thing of another).
bool OpensWithWordsOf(const std::vector<std::string>& r, const std::vector<std::string>& o, std::string_view older) {
  auto follower = [](const std::string& w) { return w == "我" || w == "我们" || w == "咱们" || Aside(w); };
  // 新东方的工作辞了, 威尔仕的卡退了: what one holds of the thing.
  auto holding = [&](size_t n) {
    return n + 1 < r.size() && r[n] == "的" && HoldingWord(r[n + 1]) && HoldingEnds(r[n + 1], older);
  };
  for (size_t n = r.size(); n > 0; --n) {
    if (n < r.size() && !follower(r[n]) && !holding(n)) continue;
    size_t bytes = 0;
    for (size_t i = 0; i < n; ++i) bytes += r[i].size();
    if (bytes < 6 || follower(r[0])) continue;  // one Han character (three bytes), or 我
    if (std::search(o.begin(), o.end(), r.begin(), r.begin() + static_cast<std::ptrdiff_t>(n)) != o.end()) return true;
  }
  return false;
}

// How many of the first terms of `terms` stand together, in order, in `run`.
size_t LongestRunIn(const std::vector<std::string>& terms, const std::vector<std::string>& run) {
  for (size_t n = terms.size(); n > 0; --n) {
    if (std::search(run.begin(), run.end(), terms.begin(), terms.begin() + static_cast<std::ptrdiff_t>(n)) != run.end()) {
      return n;
    }
  }
  return 0;
}

// For a verb that ends only a name ("left", "dropped"): the name stands right after it, or after
// "my" when what one holds of it follows ("closed my Chase Sapphire account"; not "left my MacBook
// at the office"), and is not the first of two objects ("left Sarah a voicemail", "left Tom in
// charge").
bool NameRightAfter(std::string_view surface, std::string_view older_text) {
  const std::vector<std::string_view> words = Words(surface);
  auto is_name = [&](std::string_view w) { return Capitalised(w) || SaidCapitalised(Bare(w), older_text); };
  size_t i = 0;
  // "Left The Loose Ends": a capitalised article after the verb opens the name.
  if (!words.empty() && IsArticleOrOwner(Bare(words[0])) && !Capitalised(words[0])) {
    if (!Holding(surface, older_text)) return false;
    i = 1;
  }
  if (i >= words.size() || !is_name(words[i])) return false;
  while (i < words.size() && is_name(words[i])) ++i;
  if (i == words.size()) return true;
  const std::string next = Bare(words[i]);
  // "left Sarah a voicemail", "left Tom in charge", "left Emma at daycare", "left Max with the
  // neighbors": a person left something or somewhere.
  static constexpr std::string_view kLeftSomewhere[] = {"at", "with", "off", "to", "behind", "alone", "home"};
  if (std::find(std::begin(kLeftSomewhere), std::end(kLeftSomewhere), next) != std::end(kLeftSomewhere)) return false;
  return !IsArticleOrOwner(next) && !(next == "in" && i + 1 < words.size() && Bare(words[i + 1]) == "charge");
}

bool AllIn(const std::vector<std::string>& terms, const std::set<std::string>& in) {
  return std::all_of(terms.begin(), terms.end(), [&](const std::string& t) { return in.count(t) > 0; });
}

}  // namespace

std::vector<EndedThing> ReadEndedThings(text::Analyzer& analyzer, std::string_view evidence,
                                        const std::set<std::string>& ignored) {
  std::vector<EndedThing> out;
  if (!extraction::NamesAnEnding(evidence)) return out;  // most statements: one scan of markers
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  const std::string text = StraightApostrophes(evidence);
  for (const rules::Sentence& s : rules::SplitSentences(text)) {
    if (s.question) continue;
    const std::string_view sentence = rules::SpanText(text, s.span);
    const text::NowStance stance = extraction::ReadNowStance(sentence);
    if (stance == text::NowStance::kNotNow || stance == text::NowStance::kBounded) continue;
    const std::string lowered = Lower(sentence);
    if (extraction::Lexicon::Get().HasMarker(lowered, "away")) continue;  // a trip: 刚离开北京，去上海出差三天
    for (std::string_view kind : {"ends", "ends_named", "ends_anymore", "ends_le"}) {
      for (const extraction::PhraseHit& hit : lex.FindMarkers(lowered, kind)) {
        if (out.size() >= kMaxEndedThings) return out;
        if (kind == "ends_anymore" && !SaysAnymore(sentence, hit.begin)) continue;
        if (kind == "ends_le" && !SaysLe(sentence, hit.begin, hit.end)) continue;
        if (InsideQuotes(sentence, hit.begin)) continue;  // a title: "Why I Quit Twitter"
        // "left the hospital at 2am", 今天不去健身房了, "gave up the gym for this week".
        if (NotALastingEnd(sentence, hit.begin, kind == "ends_named")) continue;
        EndedThing thing;
        if (ReadOne(analyzer, sentence, hit.begin, hit.end, kind == "ends_named", ignored, &thing)) {
          thing.shouted = Shouted(sentence);
          out.push_back(std::move(thing));
        }
      }
    }
  }
  return out;
}

bool SaysOnlyTheSpeaker(std::string_view before) { return SpeakerAlone(before); }

bool NamesAnEndedThing(text::Analyzer& analyzer, const std::vector<EndedThing>& ended,
                       const std::set<std::string>& newer_terms, const ThingPhrases& older,
                       std::string_view older_text) {
  std::vector<std::string> older_run, older_words;
  for (const EndedThing& e : ended) {
    if (!e.icu_words.empty() || HasHan(e.surface)) {  // 奶茶 of 每天都喝奶茶, 新东方 of 我在新东方当英语老师
      if (older_words.empty()) older_words = PlainWords(older_text);
      if (OpensWithWordsOf(e.icu_words, older_words, older_text)) return true;
      continue;
    }
    const ThingPhrase& p = e.phrase;
    if (p.terms.empty() || p.clause_after) continue;  // "quit the gym I went to in college"
    const std::string_view first = FirstWord(e.surface);
    const bool name = !first.empty() && ((Capitalised(first) && !e.shouted) || SaidCapitalised(first, older_text));
    if (e.named_only && !(name && NameRightAfter(e.surface, older_text))) continue;
    if (name) {  // a name or a run of its words ("Austin" of "Austin TX"), or a holding of it
      if (older_run.empty()) older_run = TermRun(analyzer, older_text);
      const size_t run = LongestRunIn(p.terms, older_run);
      if (run == p.terms.size() || (run + 1 == p.terms.size() && run > 0 && Holding(e.surface, older_text))) {
        return true;
      }
    }
    const std::vector<std::string> modifiers(p.terms.begin(), p.terms.end() - 1);
    if (!AllIn(modifiers, older.terms) || !AllIn(p.after, older.terms)) continue;
    for (const ThingPhrase& o : older.phrases) {
      if (o.clause_after || o.terms.back() != p.terms.back()) continue;
      if (std::all_of(o.owners.begin(), o.owners.end(), [&](const std::string& t) { return newer_terms.count(t) > 0; })) {
        return true;
      }
    }
  }
  return false;
}

std::string NameOfModel(std::string_view term) {
  const size_t digits = term.find_first_of("0123456789");
  if (digits == std::string_view::npos || digits < 3 || term.find_first_not_of("0123456789", digits) != std::string_view::npos) {
    return "";
  }
  const std::string_view name = term.substr(0, digits);
  return std::all_of(name.begin(), name.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; }) ? std::string(name) : "";
}

}  // namespace engram
