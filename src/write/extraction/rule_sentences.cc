#include "write/extraction/rule_sentences.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace engram::extraction::rules {
namespace {

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char ToLowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Sentence terminators other than "." (which needs context).
bool IsTerminator(char32_t cp) {
  switch (cp) {
    case U'!':
    case U'?':
    case U';':
    case U'\u2026':  // …
    case U'\u3002':  // 。
    case U'\uFF01':  // ！
    case U'\uFF1F':  // ？
    case U'\uFF1B':  // ；
    case U'\uFF0E':  // ．
      return true;
    default:
      return false;
  }
}

// Closing quotes and brackets that stay with the sentence they close.
bool IsCloser(char32_t cp) {
  switch (cp) {
    case U'"':
    case U'\'':
    case U')':
    case U']':
    case U'\u201D':  // ”
    case U'\u2019':  // ’
    case U'\u300D':  // 」
    case U'\u300F':  // 』
    case U'\uFF09':  // ）
      return true;
    default:
      return false;
  }
}

// Words after which a "." does not end the sentence.
bool IsAbbreviation(std::string_view lower_word) {
  static constexpr std::array<std::string_view, 16> kAbbreviations = {
      "mr", "mrs",  "ms", "dr",  "st",  "vs", "etc",    "jr",
      "sr", "prof", "mt", "inc", "ltd", "co", "approx", "no"};
  return std::find(kAbbreviations.begin(), kAbbreviations.end(), lower_word) !=
         kAbbreviations.end();
}

// True when the "." at `pos` ends a sentence.
bool DotEndsSentence(std::string_view text, size_t pos) {
  size_t next = pos + 1;
  if (next < text.size() && IsAsciiAlnum(text[next])) return false;  // 3.5, node.js, e.g.
  if (pos == 0) return true;
  // The ASCII word before the dot.
  size_t word_begin = pos;
  while (word_begin > 0 && IsAsciiAlnum(text[word_begin - 1])) --word_begin;
  std::string_view word = text.substr(word_begin, pos - word_begin);
  if (word.empty()) return true;
  bool word_starts = word_begin == 0 || text[word_begin - 1] == ' ' || text[word_begin - 1] == '(';
  if (!word_starts) return true;
  std::string lower;
  for (char c : word) lower.push_back(ToLowerAscii(c));
  if (IsAbbreviation(lower)) return false;
  // An initial ("J. K. Rowling"): a single capital letter followed by another capital word.
  if (word.size() == 1 && word[0] >= 'A' && word[0] <= 'Z' && word != "I") {
    size_t after = next;
    while (after < text.size() && text[after] == ' ') ++after;
    if (after < text.size() && text[after] >= 'A' && text[after] <= 'Z') return false;
  }
  return true;
}

// The lowercase ASCII words at the start of `sentence` (at most `max_words`); any other character
// separates words.
std::vector<std::string> LeadingWords(std::string_view sentence, size_t max_words) {
  std::vector<std::string> words;
  std::string current;
  for (size_t i = 0; i < sentence.size() && words.size() < max_words; ++i) {
    char c = sentence[i];
    if (IsAsciiAlnum(c) || c == '\'') {
      current.push_back(ToLowerAscii(c));
    } else if (sentence.substr(i, 3) == "\xE2\x80\x99") {  // ’
      current.push_back('\'');
      i += 2;
    } else if (!current.empty()) {
      words.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty() && words.size() < max_words) words.push_back(std::move(current));
  return words;
}

template <size_t N>
bool OneOf(std::string_view word, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

bool EnglishOpensLikeQuestion(std::string_view sentence) {
  static constexpr std::array<std::string_view, 31> kAux = {
      "do",    "does",     "did",     "are",     "is",       "am",     "was",    "were",
      "can",   "could",    "would",   "will",    "should",   "shall",  "have",   "has",
      "may",   "might",    "don't",   "doesn't", "didn't",   "aren't", "isn't",  "won't",
      "can't", "wouldn't", "haven't", "hasn't",  "couldn't", "wasn't", "weren't"};
  static constexpr std::array<std::string_view, 14> kPronouns = {
      "you",   "i",      "we",   "they", "he", "she",  "it",
      "there", "anyone", "your", "ya",   "u",  "this", "that"};
  static constexpr std::array<std::string_view, 9> kWh = {"what", "where", "when",  "why", "how",
                                                          "who",  "which", "whose", "whom"};
  static constexpr std::array<std::string_view, 12> kWhContractions = {
      "what's",  "where's", "how's",    "who's", "whats",  "hows",
      "what're", "how're",  "where're", "why's", "when's", "wanna"};
  std::string_view text = sentence;
  // Skip an opening interjection: "So, do you ...", "Hey Mel, what ...".
  std::vector<std::string> words = LeadingWords(text, 4);
  size_t i = 0;
  static constexpr std::array<std::string_view, 6> kOpeners = {"so",   "and", "but",
                                                               "also", "oh",  "btw"};
  if (!words.empty() && OneOf(words[0], kOpeners)) i = 1;
  if (i >= words.size()) return false;
  const std::string& first = words[i];
  const std::string second = i + 1 < words.size() ? words[i + 1] : "";
  if (OneOf(first, kAux) && OneOf(second, kPronouns)) return true;
  if (OneOf(first, kWhContractions) && first != "wanna") return true;
  if (OneOf(first, kWh) && (OneOf(second, kAux) || second == "about")) return true;
  return false;
}

bool ChineseLooksLikeQuestion(std::string_view sentence) {
  // 啥 and 咋 are the casual 什么 and 怎么 ("有啥推荐", "咋改回来").
  static constexpr std::array<std::string_view, 26> kInterrogatives = {
      "什么", "哪里", "哪儿",   "哪个",   "哪些",   "怎么",   "为什么", "多少",     "几点", "几个",
      "谁",   "是否", "有没有", "是不是", "要不要", "能不能", "会不会", "可不可以", "如何", "啥",
      "咋",   "哪家", "哪种",   "哪位",   "多久",   "怎样"};
  for (std::string_view word : kInterrogatives) {
    if (sentence.find(word) != std::string_view::npos) return true;
  }
  // A final 吗 / 呢 / 么 / 嘛 before the terminators.
  size_t end = sentence.size();
  while (end > 0) {
    size_t begin = end - 1;
    while (begin > 0 && IsContinuation(static_cast<unsigned char>(sentence[begin]))) --begin;
    char32_t cp = 0;
    size_t len = 0;
    if (!DecodeUtf8(sentence, begin, &cp, &len)) return false;
    if (IsPunctChar(cp) || IsSpaceChar(cp)) {
      end = begin;
      continue;
    }
    return cp == U'吗' || cp == U'呢' || cp == U'么' || cp == U'嘛';
  }
  return false;
}

}  // namespace

bool DotEndsAt(std::string_view text, size_t pos) { return DotEndsSentence(text, pos); }

bool DecodeUtf8(std::string_view text, size_t pos, char32_t* cp, size_t* len) {
  *len = 1;
  *cp = 0xFFFD;
  if (pos >= text.size()) return false;
  unsigned char c0 = static_cast<unsigned char>(text[pos]);
  if (c0 < 0x80) {
    *cp = c0;
    return true;
  }
  size_t need = 0;
  char32_t value = 0;
  char32_t min = 0;
  if (c0 >= 0xC2 && c0 <= 0xDF) {
    need = 1, value = c0 & 0x1F, min = 0x80;
  } else if (c0 >= 0xE0 && c0 <= 0xEF) {
    need = 2, value = c0 & 0x0F, min = 0x800;
  } else if (c0 >= 0xF0 && c0 <= 0xF4) {
    need = 3, value = c0 & 0x07, min = 0x10000;
  } else {
    return false;
  }
  if (pos + need >= text.size()) return false;
  for (size_t k = 1; k <= need; ++k) {
    unsigned char c = static_cast<unsigned char>(text[pos + k]);
    if (!IsContinuation(c)) return false;
    value = (value << 6) | (c & 0x3F);
  }
  if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return false;
  *cp = value;
  *len = need + 1;
  return true;
}

bool IsHan(char32_t cp) {
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x20000 && cp <= 0x2EBEF) || (cp >= 0xF900 && cp <= 0xFAFF) || cp == 0x3007;
}

bool HasHan(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    size_t len = 1;
    if (DecodeUtf8(text, i, &cp, &len) && IsHan(cp)) return true;
    i += len;
  }
  return false;
}

bool IsSpaceChar(char32_t cp) {
  if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == '\v') return true;
  if (cp < 0x80) return false;
  return u_isUWhiteSpace(static_cast<UChar32>(cp)) != 0;
}

bool IsPunctChar(char32_t cp) {
  if (cp < 0x80) {
    if (IsAsciiAlnum(static_cast<char>(cp)) || cp <= ' ') return false;
    switch (cp) {
      case '\'':
      case '-':
      case '_':
      case '&':
      case '#':
      case '+':
      case '@':
      case '/':
        return false;
      default:
        return true;
    }
  }
  if (IsHan(cp)) return false;
  UChar32 c = static_cast<UChar32>(cp);
  if (u_isalnum(c)) return false;
  int8_t type = u_charType(c);
  switch (type) {
    case U_DASH_PUNCTUATION:
    case U_START_PUNCTUATION:
    case U_END_PUNCTUATION:
    case U_CONNECTOR_PUNCTUATION:
    case U_OTHER_PUNCTUATION:
    case U_INITIAL_PUNCTUATION:
    case U_FINAL_PUNCTUATION:
    case U_MATH_SYMBOL:
    case U_CURRENCY_SYMBOL:
    case U_MODIFIER_SYMBOL:
    case U_OTHER_SYMBOL:
      return true;
    default:
      return false;
  }
}

// True when the clause after a statement's comma or dash asks for something rather than asking a
// question: it opens with a verb or word of request ("…pescatarian — give me 5 dinners?",
// "…shift, pls help") or names what it asks for last ("…stressed about tax season, gift ideas?",
// "…barely lasts till lunch, tips?").
bool TailRequests(std::string_view tail) {
  static const std::set<std::string, std::less<>> kOpeners = {
      "give", "help", "suggest", "recommend", "tell", "explain", "list", "write", "draft", "show",
      "share", "pls", "plz", "please", "need", "want", "tips", "ideas", "advice", "thoughts", "recs",
      "suggestions", "recommendations"};
  static const std::set<std::string, std::less<>> kAskedFor = {
      "tips", "ideas", "advice", "thoughts", "recs", "suggestions", "recommendations", "options",
      "alternatives", "pointers"};
  const std::vector<std::string> opening = LeadingWords(tail, 1);
  if (!opening.empty() && kOpeners.count(opening.front()) > 0) return true;
  std::string last;
  for (size_t i = tail.size(); i > 0; --i) {
    const char c = tail[i - 1];
    if (IsAsciiAlnum(c)) {
      last.insert(last.begin(), ToLowerAscii(c));
    } else if (!last.empty()) {
      break;
    }
  }
  return kAskedFor.count(last) > 0;
}

// True when `tail` opens as a question does: a question word or an auxiliary first ("what herbs
// survive there?", "is the built-in VPN any good?"), or Chinese that asks.
bool TailOpensAsking(std::string_view tail) {
  // A Chinese tail that ends the sentence's question mark and says 哪 or 几 asks which or how many
  // ("…，那我哪天限行？"); elsewhere 哪 and 几 say "any" or "a few" (不知道哪天, 十几岁).
  if ((tail.ends_with("？") || tail.ends_with("?")) && (tail.find("哪") != std::string_view::npos || tail.find("几") != std::string_view::npos) &&
      tail.find("哪怕") == std::string_view::npos) {
    return true;
  }
  static const std::set<std::string, std::less<>> kAsking = {
      "any", "right", "what", "which", "how", "where", "who", "why", "when", "whose", "is", "are",
      "does", "do", "did", "can", "should", "will", "was", "isn't", "doesn't", "can't", "won't", "what's", "how's"};
  const std::vector<std::string> opening = LeadingWords(tail, 1);
  return EnglishOpensLikeQuestion(tail) || ChineseLooksLikeQuestion(tail) ||
         (!opening.empty() && kAsking.count(opening.front()) > 0);
}

// True when `head`, which opens with a subordinator and a verb in -ing ("Since relocating to
// Edinburgh…"), goes on to a clause of its own: a copula, an auxiliary or a subject pronoun after
// the -ing phrase ("…for good the light is even worse lol"). "After moving to Denver" has none.
bool SubordinateHeadHasMainClause(std::string_view head) {
  static const std::set<std::string, std::less<>> kFinite = {
      "is", "are", "was", "were", "am", "has", "have", "had", "i", "we", "i'm", "i've", "we're", "we've", "it's", "that's"};
  const std::vector<std::string> words = LeadingWords(head, 64);
  for (size_t i = 2; i < words.size(); ++i) {
    // "…Denver which is pretty high up": a relative clause's verb is not a clause of its own.
    const bool relative = words[i - 1] == "which" || words[i - 1] == "that" || words[i - 1] == "who";
    if (kFinite.count(words[i]) > 0 && !relative) return true;
  }
  return false;
}

// True when `head` speaks of the speaker, states with a copula or opens with a past tense ("my
// iphone on iOS 17.4 keeps dropping wifi", "I'm on the Family plan", "installed iOS 18.1"), so a
// bare question after it asks about what it says.
bool HeadStates(std::string_view head) {
  static const std::set<std::string, std::less<>> kStating = {
      "i", "i'm", "i've", "im", "my", "we", "we're", "we've", "our", "is", "are", "was", "were", "am"};
  // What one weighs is no statement: a head that opens with a verb in -ing or an auxiliary
  // ("Moving to Denver with my wife, good idea?", "Is moving to Denver smart, honestly?"), or
  // names an aim ("My dream is living in Paris, realistic?").
  static const std::set<std::string, std::less<>> kWeighing = {
      "is", "are", "am", "was", "were", "do", "does", "did", "can", "could", "should", "would", "will",
      "dream", "goal", "plan", "plans", "hope", "wish", "idea", "thinking", "considering"};
  const std::vector<std::string> words = LeadingWords(head, 64);
  if (words.empty() || words.front().ends_with("ing") || kWeighing.count(words.front()) > 0) return false;
  if (std::any_of(words.begin(), words.end(), [](const std::string& w) { return kWeighing.count(w) > 0 && w != "is" && w != "are"; })) {
    return false;
  }
  // A verb in -ing right after its subject weighs it too ("Me and my partner moving to Portland,
  // too rainy?"); after a form of "be" or "keep" it states ("I'm learning Go", "keeps dropping").
  static const std::set<std::string, std::less<>> kBeforeProgressive = {
      "am", "is", "are", "was", "were", "i'm", "we're", "you're", "they're", "he's", "she's", "it's", "be", "been",
      "keep", "keeps", "kept", "still", "started", "stopped", "been", "now", "just", "currently"};
  static const std::set<std::string, std::less<>> kFinite = {"is", "are", "was", "were", "am", "has", "have", "had",
                                                              "do", "does", "did", "keeps", "keep"};
  for (size_t i = 1; i < words.size() && i < 6; ++i) {  // up to its subject's first verb
    if (kFinite.count(words[i]) > 0 || words[i].ends_with("ed")) break;
    if (words[i].size() > 5 && words[i].ends_with("ing") && kBeforeProgressive.count(words[i - 1]) == 0) return false;
  }
  // Chat leaves out the subject of a past tense: "installed iOS 18.1 and the wifi seems fixed".
  if (words.front().size() > 4 && words.front().ends_with("ed")) return true;
  return std::any_of(words.begin(), words.end(), [](const std::string& w) { return kStating.count(w) > 0; });
}

// The boundary StatementBeforeQuestion cuts at: the last ", ", "，", " — ", " – " or " - ", or a
// later " but " / " so " whose clause opens as a question does ("…tram 28 is adorable but what's
// the deal with…?"). {position, length}; {0, 0} when there is none.
std::pair<size_t, size_t> QuestionBoundary(std::string_view sentence) {
  size_t cut = 0, len = 0;
  for (std::string_view mark : {", ", "，", " — ", " – ", " - "}) {
    const size_t at = sentence.rfind(mark);
    if (at != std::string_view::npos && at > cut) {
      cut = at;
      len = mark.size();
    }
  }
  for (std::string_view conjunction : {" but ", " so "}) {
    const size_t at = sentence.rfind(conjunction);
    if (at != std::string_view::npos && at > cut && TailOpensAsking(sentence.substr(at + conjunction.size()))) {
      cut = at;
      len = conjunction.size();
    }
  }
  return {cut, len};
}

// Where the asking clause of a question ends a statement begins: at the QuestionBoundary of
// `sentence` (a piece that ends in "?"), when the words before it do not ask
// (ChineseLooksLikeQuestion) and the clause after it does ("…doesn't cover winter tyres, is that
// normal?", "搬到杭州以后口味太淡了，有什么推荐吗？"): the end of the statement, or 0 when there is none.
size_t StatementBeforeQuestion(std::string_view sentence) {
  const auto [cut, len] = QuestionBoundary(sentence);
  if (cut == 0) return 0;
  const std::string_view head = sentence.substr(0, cut), tail = sentence.substr(cut + len);
  if (ChineseLooksLikeQuestion(head) || head.find('?') != std::string_view::npos) return 0;
  // A head that says when (我住在杭州的时候，有啥好玩的？) is part of the question, as "when" is.
  for (std::string_view when : {"的时候", "那时候", "那会儿"}) {
    if (head.ends_with(when)) return 0;
  }
  // A head that opens with "if", or with a subordinator and a verb in -ing and nothing more, is part
  // of the question ("After moving to Denver, should I get a car?"); one that goes on to a clause of
  // its own states it ("Since relocating to Edinburgh the light is even worse — any plants…?").
  static const std::set<std::string, std::less<>> kSubordinators = {"after", "since", "if", "when", "before",
                                                                    "once", "until", "while", "whenever"};
  if (const std::vector<std::string> first = LeadingWords(head, 2);
      first.size() == 2 && kSubordinators.count(first[0]) > 0 &&
      (first[0] == "if" || (first[1].ends_with("ing") && !SubordinateHeadHasMainClause(head)))) {
    return 0;  // (a finite clause after it states: "Since I relocated to Halifax…, is that normal?")
  }
  // A tail that asks what would follow makes the head a supposition ("Say I work at Google, would
  // I get stock options?", "…, what would my commute look like?").
  const std::string low_tail = LowerAscii(tail);
  for (std::string_view would : {"would", "'d", "could"}) {
    const size_t at = low_tail.find(would);
    if (at != std::string::npos && (would == "'d" || at == 0 || low_tail[at - 1] == ' ')) return 0;
  }
  // A tail that opens as a question does asks, whatever follows it: the sentence ends with a
  // question mark ("I live in Calgary, what herbs survive there?", "…Opera user, is the built-in
  // VPN any good?").
  if (TailOpensAsking(tail)) return cut + len;
  // A request after a supposition or a time clause asks about it ("Suppose I quit Google and joined
  // Meta, help me think?", "When I lived in Denver I loved hiking, suggest trails?").
  static const std::set<std::string, std::less<>> kSupposing = {
      "suppose", "supposing", "imagine", "say", "assume", "assuming", "if", "when", "once", "whenever",
      "after", "before", "until", "while", "what", "hypothetically", "pretend", "in"};
  const std::vector<std::string> head_opening = LeadingWords(head, 1);
  if (!head_opening.empty() && kSupposing.count(head_opening.front()) > 0) return 0;
  // Any other question after a statement asks about it ("…keeps dropping wifi, known issue?",
  // "…is $45/mo, good deal?", "…works at Ferrari in Maranello, good gift for a car-obsessed guy?").
  const bool asks = tail.find('?') != std::string_view::npos || tail.find("？") != std::string_view::npos;
  return TailRequests(tail) || (asks && HeadStates(head)) ? cut + len : 0;
}

// True when `rest` opens with a capital letter, or with a word that opens a question, a request
// or an aside ("what", "any", "can", "so", "btw"): after an emoji such a word starts a sentence
// ("…actually answers emails 🙏 what plants…"); a verb goes on the one before ("My wife 😍 is a
// nurse").
bool OpensASentence(std::string_view rest) {
  if (rest.empty()) return false;
  if (rest[0] >= 'A' && rest[0] <= 'Z') return true;
  size_t e = 0;
  while (e < rest.size() && (IsAsciiAlnum(rest[e]) || rest[e] == '\'')) ++e;
  static const std::set<std::string, std::less<>> kOpeners = {
      "what", "how", "why", "where", "when", "which", "who", "any", "anyone", "anything", "can", "could", "should",
      "would", "do", "does", "did", "i", "i'm", "we", "we're", "so", "but", "also", "btw", "anyway", "lol", "haha",
      "pls", "please", "thanks", "help"};
  return kOpeners.count(LowerAscii(rest.substr(0, e))) > 0;
}

// Where the emoji (U+1F300–U+1FAFF, U+2600–U+27BF) that ends text[0, pos) begins, or npos.
size_t EmojiBefore(std::string_view text, size_t pos) {
  if (pos == 0) return std::string_view::npos;
  size_t b = pos - 1;
  while (b > 0 && IsContinuation(static_cast<unsigned char>(text[b]))) --b;
  char32_t cp = 0;
  size_t len = 0;
  if (!DecodeUtf8(text, b, &cp, &len) || b + len != pos) return std::string_view::npos;
  return (cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x2600 && cp <= 0x27BF) ? b : std::string_view::npos;
}

// True when a final particle (了, 啦, 吧…) ends text[0, pos).
bool FinalParticleBefore(std::string_view text, size_t pos) {
  for (std::string_view particle : {"了", "啦", "吧", "呢", "啊", "呀", "嘛", "哦", "哈", "呗", "咯"}) {
    if (pos >= particle.size() && text.compare(pos - particle.size(), particle.size(), particle) == 0) return true;
  }
  return false;
}

// True when a Han character starts at `pos`.
bool HanAt(std::string_view text, size_t pos) {
  char32_t cp = 0;
  size_t len = 0;
  return pos < text.size() && DecodeUtf8(text, pos, &cp, &len) && IsHan(cp);
}

// True when a Han character ends text[0, pos).
bool HanBefore(std::string_view text, size_t pos) {
  if (pos == 0) return false;
  size_t b = pos - 1;
  while (b > 0 && IsContinuation(static_cast<unsigned char>(text[b]))) --b;
  char32_t cp = 0;
  size_t len = 0;
  return DecodeUtf8(text, b, &cp, &len) && b + len == pos && IsHan(cp);
}

// The characters of the run without spaces or punctuation that ends at `end` (backward) or starts
// at `begin` (forward).
size_t CharsBefore(std::string_view text, size_t end) {
  size_t n = 0;
  for (size_t b = end; b > 0;) {
    size_t p = b - 1;
    while (p > 0 && IsContinuation(static_cast<unsigned char>(text[p]))) --p;
    char32_t cp = 0;
    size_t len = 0;
    if (!DecodeUtf8(text, p, &cp, &len) || IsSpaceChar(cp) || IsPunctChar(cp)) break;
    ++n;
    b = p;
  }
  return n;
}

size_t CharsAfter(std::string_view text, size_t begin) {
  size_t n = 0;
  for (size_t i = begin; i < text.size();) {
    char32_t cp = 0;
    size_t len = 0;
    if (!DecodeUtf8(text, i, &cp, &len) || IsSpaceChar(cp) || IsPunctChar(cp)) break;
    ++n;
    i += len;
  }
  return n;
}

// True when a space between Han characters at [pos, end) parts two clauses, as a "，" would
// ("我住在杭州滨江 上班挺方便的 周末有啥好玩的地方推荐吗", "卸了搜狗 装了微信输入法 以前的词库怎么导进去"):
// at least three characters on each side, and the run after opens with no word that goes on
// from a subject before it (是, 为, 当前, 目前, 在: 我女朋友的爸爸 是医生, "订单服务 当前状态为 unhealthy").
// Text segmented into words has a short word on a side ("API 服务 当前状态为": HL-Mem's corpus has
// none with three characters on both sides), and a name never holds a space between two Han
// characters.
bool ClausesAroundSpace(std::string_view text, size_t pos, size_t end) {
  if (CharsBefore(text, pos) < 3 || CharsAfter(text, end) < 3) return false;
  for (std::string_view goes_on : {"是", "为", "当前", "目前", "在", "的"}) {
    if (text.compare(end, goes_on.size(), goes_on) == 0) return false;
  }
  return true;
}

// The length of the run of spaces at `pos` that ends a sentence with no terminator, else 0: after
// an emoji, before a word that opens a sentence (OpensASentence: "…answers emails 🙏 what
// plants…", not "My wife 😍 is a nurse"); or after a final particle (了, 啦, 吧…), with or without
// an emoji after it, before a Han character ("上个月搬到成都了 这边吃的太爽了", not 我女儿🎀 叫朵朵). Between other Han characters a space
// may part a subject from its verb (我女朋友的爸爸 是医生) or segment words ("API 服务 当前状态为"). Chinese typed casually ends a sentence with a space where a "，" or
// "。" would be ("上个月搬到成都了 这边吃的太爽了 想问下…"); a name never holds one between two Han
// characters, one beside Latin letters or digits only spaces words ("升级到 Vue 3 了"), and text
// segmented into words has short ones on a side ("API 服务 当前状态为 healthy": HL-Mem's corpus
// has none with three on both sides).
size_t SpaceBetweenHan(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size()) {
    if (text[end] == ' ') {
      ++end;
    } else if (text.compare(end, 3, "\xE3\x80\x80") == 0) {  // U+3000 IDEOGRAPHIC SPACE
      end += 3;
    } else {
      break;
    }
  }
  if (end == pos || pos == 0 || end >= text.size()) return 0;
  if (const size_t emoji = EmojiBefore(text, pos); emoji != std::string_view::npos) {
    // "…两周啦😊 想问问", "…emails 🙏 what plants…"; not 我女儿🎀 叫朵朵, "My wife 😍 is a nurse".
    return (HanAt(text, end) && FinalParticleBefore(text, emoji)) || OpensASentence(text.substr(end)) ? end - pos : 0;
  }
  if (!HanAt(text, end)) return 0;
  if (FinalParticleBefore(text, pos)) return end - pos;  // "…换成VS Code了 写python…"
  return HanBefore(text, pos) && ClausesAroundSpace(text, pos, end) ? end - pos : 0;
}

std::vector<Sentence> SplitSentences(std::string_view text) {
  std::vector<Sentence> out;
  auto flush = [&](size_t begin, size_t end, bool question_mark) {
    Span span{begin, end};
    // Trim white space only; terminators stay.
    while (span.begin < span.end) {
      char32_t cp = 0;
      size_t len = 0;
      if (!DecodeUtf8(text, span.begin, &cp, &len) || !IsSpaceChar(cp)) break;
      span.begin += len;
    }
    while (span.end > span.begin) {
      char c = text[span.end - 1];
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
      --span.end;
    }
    while (!span.empty()) {
      Span piece = span;
      if (piece.size() > kMaxSentenceBytes) {
        piece.end = piece.begin + kMaxSentenceBytes;
        while (piece.end > piece.begin &&
               IsContinuation(static_cast<unsigned char>(text[piece.end]))) {
          --piece.end;
        }
        if (piece.empty()) break;
      }
      Sentence sentence;
      sentence.span = piece;
      std::string_view s = SpanText(text, piece);
      for (size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        size_t len = 0;
        DecodeUtf8(s, i, &cp, &len);
        if (IsHan(cp)) {
          sentence.has_han = true;
          break;
        }
        i += len;
      }
      bool last_piece = piece.end == span.end;
      sentence.question = (last_piece && question_mark) || EnglishOpensLikeQuestion(s) ||
                          (sentence.has_han && ChineseLooksLikeQuestion(s));
      // "I moved to Halifax in May, is that normal?", "我在华为做测试，自动化框架学哪个好": the
      // statement before the asking clause is a sentence of its own. Chinese often asks with no
      // question mark (a final 吗, 啥, 怎么).
      if (sentence.question && last_piece && (question_mark || sentence.has_han) &&
          !EnglishOpensLikeQuestion(s)) {
        if (size_t cut = StatementBeforeQuestion(s); cut > 0) {
          Sentence head = sentence;
          head.span = TrimSpan(text, {piece.begin, piece.begin + cut});
          head.question = false;
          if (!head.span.empty()) out.push_back(head);
          sentence.span.begin = piece.begin + cut;
        }
      }
      // A piece of nothing but punctuation is no sentence.
      if (!TrimSpan(text, sentence.span).empty()) out.push_back(sentence);
      span.begin = piece.end;
    }
  };

  size_t start = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    char32_t cp = 0;
    size_t len = 0;
    bool valid = DecodeUtf8(text, pos, &cp, &len);
    if (!valid || (cp < 0x20 && cp != '\t') || cp == 0x7F) {
      // Invalid bytes, line breaks and control characters end the sentence and belong to none.
      flush(start, pos, false);
      pos += len;
      start = pos;
      continue;
    }
    if (size_t gap = SpaceBetweenHan(text, pos); gap > 0) {
      flush(start, pos, false);
      start = pos = pos + gap;
      continue;
    }
    bool ends = IsTerminator(cp) || (cp == U'.' && DotEndsSentence(text, pos));
    if (!ends) {
      pos += len;
      continue;
    }
    bool question_mark = false;
    size_t end = pos;
    // Take the whole run of terminators and closing quotes ("?!", "...", "!”").
    while (end < text.size()) {
      char32_t c = 0;
      size_t l = 0;
      if (!DecodeUtf8(text, end, &c, &l)) break;
      if (!(IsTerminator(c) || c == U'.' || (end > pos && IsCloser(c)))) break;
      if (c == U'?' || c == U'\uFF1F') question_mark = true;
      end += l;
    }
    flush(start, end, question_mark);
    start = pos = end;
  }
  flush(start, text.size(), false);
  return out;
}

std::vector<Span> QuotedSpans(std::string_view content) {
  static constexpr std::pair<std::string_view, std::string_view> kPairs[] = {
      {"\xE2\x80\x9C", "\xE2\x80\x9D"}, {"\xE3\x80\x8C", "\xE3\x80\x8D"}, {"\xE3\x80\x8E", "\xE3\x80\x8F"}, {"\"", "\""}};
  std::vector<Span> out;
  for (const auto& [open, close] : kPairs) {
    for (size_t o = content.find(open); o != std::string_view::npos;) {
      size_t c = content.find(close, o + open.size());
      if (c == std::string_view::npos) break;
      out.push_back({o + open.size(), c});
      o = content.find(open, c + close.size());
    }
  }
  return out;
}

std::vector<std::string_view> SplitAtBreaks(std::string_view text, const std::vector<std::string_view>& breaks) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t at = 0; at < text.size(); ++at) {
    for (std::string_view brk : breaks) {
      if (brk.empty() || text.compare(at, brk.size(), brk) != 0) continue;
      if (at > start) parts.push_back(text.substr(start, at - start));
      start = at + brk.size();
      at = start - 1;
      break;
    }
  }
  if (start < text.size()) parts.push_back(text.substr(start));
  return parts;
}

Span TrimSpan(std::string_view text, Span span) {
  span.end = std::min(span.end, text.size());
  auto trimmable = [](char32_t cp) {
    return IsSpaceChar(cp) || IsPunctChar(cp) || cp == U'\'' || cp == U'-' || cp == U'_';
  };
  while (span.begin < span.end) {
    char32_t cp = 0;
    size_t len = 0;
    if (!DecodeUtf8(text, span.begin, &cp, &len) || !trimmable(cp)) break;
    span.begin += len;
  }
  while (span.end > span.begin) {
    size_t begin = span.end - 1;
    while (begin > span.begin && IsContinuation(static_cast<unsigned char>(text[begin]))) --begin;
    char32_t cp = 0;
    size_t len = 0;
    if (!DecodeUtf8(text, begin, &cp, &len) || begin + len != span.end || !trimmable(cp)) break;
    span.end = begin;
  }
  return span;
}

Span CutTimes(std::string_view text, Span span, const std::vector<Span>& times) {
  for (const Span& time : times) {
    if (time.end <= span.begin) continue;
    if (time.begin >= span.end) break;
    size_t first = span.begin;
    while (first < span.end && (text[first] == ' ' || text[first] == ',')) ++first;
    if (time.begin <= first) {
      span.begin = std::min(span.end, time.end);
    } else {
      span.end = time.begin;
      break;
    }
  }
  return span;
}

std::vector<std::string> QualifierNames(unsigned bits) {
  // Sorted by name.
  static constexpr std::array<std::pair<unsigned, const char*>, 6> kNames = {{
      {kBitHabitual, "habitual"},
      {kBitNegated, "negated"},
      {kBitPast, "past"},
      {kBitPlanned, "planned"},
      {kBitReported, "reported"},
      {kBitTemporary, "temporary"},
  }};
  std::vector<std::string> names;
  for (const auto& [bit, name] : kNames) {
    if (bits & bit) names.emplace_back(name);
  }
  return names;
}

std::string LowerAscii(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\xE2' && i + 2 < s.size() && s[i + 1] == '\x80' && s[i + 2] == '\x99') {
      out.push_back('\'');
      i += 2;
    } else {
      out.push_back(ToLowerAscii(s[i]));
    }
  }
  return out;
}

}  // namespace engram::extraction::rules
