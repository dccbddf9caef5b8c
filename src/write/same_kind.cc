#include "write/same_kind.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <vector>

#include <unicode/utf8.h>

#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/fact_frame_reader.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"
#include "write/extraction/statement_topics.h"
#include "text/person_topic.h"
#include "write/ended_thing.h"

namespace engram {
namespace {

using Units = std::vector<std::string>;

std::string Joined(const Units& units, size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end; ++i) out += units[i];
  return out;
}

// How many occurrences of a phrase in a text are looked at for its head's word (a bound on cost).
constexpr int kOccurrences = 8;

// A text and, read when first asked for, where ICU's words of it stand (PlainWordSpans).
class WordedText {
 public:
  explicit WordedText(std::string_view text) : text_(extraction::LowerAsciiBytes(text)) {}

  // True when `text` holds `modifier` right before `head` with a word of ICU starting at the head:
  // the head alone when `whole` (朝阳|区), else its start (朝阳|医院, 蓝天|幼儿|园).
  bool HeadStandsApart(const std::string& modifier, const std::string& head, bool whole) {
    return !WordBefore(modifier + head, modifier.size(), whole).empty();
  }

  // Where `text` holds `phrase` with a word of ICU starting `head_at` bytes into it (and, when
  // `whole`, ending with it), the word of ICU right before that start, inside the phrase: the
  // head's modifier (西城 of 西城|分局); "" when there is none.
  std::string WordBefore(const std::string& phrase, size_t head_at, bool whole) {
    const auto& spans = Spans();  // in text order: sorted by start
    int looked = 0;
    for (size_t at = text_.find(phrase); at != std::string::npos && looked < kOccurrences; at = text_.find(phrase, at + 1)) {
      ++looked;
      const size_t begin = at + head_at, end = at + phrase.size();
      const auto head = std::lower_bound(spans.begin(), spans.end(), std::make_pair(begin, size_t{0}));
      if (head == spans.end() || head->first != begin || (whole && head->second != end) || head == spans.begin()) continue;
      const auto& [b, e] = *(head - 1);
      if (e == begin && b >= at) return text_.substr(b, e - b);
    }
    return "";
  }

  // True when `unit` (an English term, a Chinese character) is said in the text.
  bool Says(const std::string& unit, const std::set<std::string>& terms) {
    return extraction::rules::HasHan(unit) ? text_.find(unit) != std::string::npos : terms.count(unit) > 0;
  }

 private:
  const std::vector<std::pair<size_t, size_t>>& Spans() {
    if (!spans_) spans_ = PlainWordSpans(text_);
    return *spans_;
  }

  const std::string text_;  // ASCII lower-cased, as units are
  std::optional<std::vector<std::pair<size_t, size_t>>> spans_;
};

// True when the newer phrase's units `n` and the older's `o` hold one head after different
// modifiers (same_kind.h); `newer_terms` and `older_terms` are the texts' content terms.
bool OneKind(const Units& n, const Units& o, WordedText& newer, const std::set<std::string>& newer_terms,
             WordedText& older, const std::set<std::string>& older_terms) {
  for (size_t i = 1; i < n.size(); ++i) {
    const bool han = extraction::rules::HasHan(n[i]);
    // Which one the newer is (English: the term before the head), said in the older too: the same.
    if (!han && older.Says(n[i - 1], older_terms)) continue;
    for (size_t j = 1; j < o.size(); ++j) {
      if (o[j] != n[i]) continue;
      size_t k = 0;
      while (i + k < n.size() && j + k < o.size() && n[i + k] == o[j + k]) ++k;
      if (i + k != n.size()) continue;  // the head ends the value ("the growth team's channel" is a channel)
      if (!han) {  // an English head ends both phrases ("day shift" is no kind of "night shift nurse")
        if (j + k == o.size() && !newer.Says(o[j - 1], newer_terms) && !text::IsFunctionTerm(n.back())) return true;
        continue;
      }
      const std::string head = Joined(n, i, n.size());
      if (text::IsChineseFunctionWord(head)) continue;
      // Which one each is: the word of ICU before the head in the newer (西城 of 西城|分局), and as
      // many characters before it in the older (东城 of 东城分局); neither said in the other text, nor a
      // function character (爸把手机: 把 marks the object, not a kind of phone).
      const std::string modifier = newer.WordBefore(Joined(n, 0, n.size()), Joined(n, 0, i).size(), k == 1);
      if (modifier.empty()) continue;
      const size_t length = Characters(modifier).size();
      const std::string older_modifier = Joined(o, j >= length ? j - length : 0, j);
      if (text::IsChineseFunctionWord(modifier) || text::IsChineseFunctionWord(older_modifier)) continue;
      if (older.Says(modifier, older_terms) || newer.Says(older_modifier, newer_terms)) continue;
      if (k == 1 && !older.HeadStandsApart(o[j - 1], head, true)) continue;  // 子 of 房子, 茶 of 奶茶
      return true;
    }
  }
  return false;
}

// True when a change of `theme` (ChangedValues::themes) is of whom the older statement is about:
// the speaker's when the older names no one else; a pronoun's when it names someone; a named
// person's when it names them.
bool OfWhomTheOlderIs(const std::string& theme, std::string_view older_text, const std::string& older_lowered,
                      bool older_names_another) {
  if (theme.empty()) return !older_names_another;
  if (theme == "he" || theme == "she" || theme == "他" || theme == "她") {
    const std::vector<std::string> topics = extraction::StatementTopics(older_text);
    return std::any_of(topics.begin(), topics.end(), [](const std::string& t) { return text::IsOtherPersonTopic(t); });
  }
  if (extraction::rules::HasHan(theme)) return older_lowered.find(theme) != std::string::npos;
  // An English name, as a whole word of the older ("dev" is not in "developer"; "Al" not in "also").
  for (size_t at = older_lowered.find(theme); at != std::string::npos; at = older_lowered.find(theme, at + 1)) {
    const size_t end = at + theme.size();
    auto letter = [&](size_t i) { return std::isalnum(static_cast<unsigned char>(older_lowered[i])) != 0; };
    if ((at == 0 || !letter(at - 1)) && (end == older_lowered.size() || !letter(end))) return true;
  }
  return false;
}

}  // namespace

bool MayNameOneKind(const ChangedValues& changed, std::string_view older_text) {
  const std::string lowered = extraction::LowerAsciiBytes(older_text);
  for (const ThingPhrase& n : changed.values.phrases) {
    const Units units = PhraseUnits(n);
    for (size_t i = 1; i < units.size(); ++i) {
      if (lowered.find(units[i]) != std::string::npos) return true;
    }
  }
  return false;
}

bool NameOneKind(const ChangedValues& changed, const std::set<std::string>& newer_terms, std::string_view newer_text,
                 const ThingPhrases& older, std::string_view older_text, bool older_names_another) {
  WordedText newer(newer_text), older_words(older_text);
  const std::string older_lowered = extraction::LowerAsciiBytes(older_text);
  // (The older's may be said of another: "York branch" of "I'm a teller at the York branch".)
  std::vector<Units> older_units;
  for (const ThingPhrase& o : older.phrases) older_units.push_back(o.opens_clause ? Units{} : PhraseUnits(o));
  for (size_t v = 0; v < changed.values.phrases.size(); ++v) {
    const ThingPhrase& n = changed.values.phrases[v];
    if (n.terms.empty() || !OfWhomTheOlderIs(changed.themes[v], older_text, older_lowered, older_names_another)) continue;
    const Units newer_units = PhraseUnits(n);
    for (size_t i = 0; i < older.phrases.size(); ++i) {
      if (OneKind(newer_units, older_units[i], newer, newer_terms, older_words, older.terms)) return true;
    }
  }
  return false;
}

}  // namespace engram
