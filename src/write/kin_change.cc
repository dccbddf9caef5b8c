#include "write/kin_change.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace engram {
namespace {

// The lower-cased ASCII words of `sentence`, apostrophes kept ("i'd", "we're").
std::vector<std::string> LowerWords(std::string_view sentence) {
  std::vector<std::string> words;
  std::string word;
  for (char c : sentence) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalpha(u) || (c == '\'' && !word.empty())) {
      word += static_cast<char>(std::tolower(u));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// True when the words say the speaker as a subject ("I", "we", "I've"; not "my": "My client just
// moved their audit to KPMG" is the client's change).
bool SaysTheSpeakerAsSubject(const std::vector<std::string>& words) {
  static constexpr std::string_view kSubjects[] = {"i", "i'm", "i've", "i'll", "we", "we're", "we've", "we'll"};
  return std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return std::find(std::begin(kSubjects), std::end(kSubjects), w) != std::end(kSubjects);
  });
}

// True when the words say what may be, would be or never is, not what is: "I'd never switch to
// Firefox", "if I moved to Bristol".
bool SaysWhatMayBe(const std::vector<std::string>& words) {
  static constexpr std::string_view kModal[] = {"never", "would", "could", "might",  "should",
                                                "if",    "wish",  "unless", "almost", "nearly"};
  return std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return std::find(std::begin(kModal), std::end(kModal), w) != std::end(kModal) || w.ends_with("'d");
  });
}

// `words` less those not in sorted `keep`.
std::vector<std::string> Within(std::vector<std::string> words, const std::vector<std::string>& keep) {
  std::erase_if(words, [&](const std::string& w) { return !std::binary_search(keep.begin(), keep.end(), w); });
  return words;
}


// The sentences `sentences` gives of `text` whose subject is the speaker or one of `people`, and
// that say nothing of what may be (kin_change.h).
std::vector<std::string_view> SpeakerSentences(
    std::string_view text, const std::vector<std::string>& people,
    const std::function<std::vector<std::string_view>(std::string_view)>& sentences,
    const std::function<std::vector<std::string>(std::string_view)>& topics_of) {
  std::vector<std::string_view> out;
  for (std::string_view sentence : sentences(text)) {
    const std::vector<std::string> words = LowerWords(sentence);
    if (SaysWhatMayBe(words)) continue;
    bool whose = SaysTheSpeakerAsSubject(words) || OpensWithAPastVerb(sentence);
    if (!whose && topics_of && !people.empty()) {
      for (const std::string& topic : topics_of(sentence)) {
        whose = whose || std::binary_search(people.begin(), people.end(), topic);
      }
    }
    if (whose) out.push_back(sentence);
  }
  return out;
}

}  // namespace

std::string SpeakerChangeText(std::string_view text, const std::vector<std::string>& people,
                              const std::function<std::vector<std::string_view>(std::string_view)>& change_sentences,
                              const std::function<std::vector<std::string>(std::string_view)>& topics_of) {
  std::string said;
  for (std::string_view sentence : SpeakerSentences(text, people, change_sentences, topics_of)) {
    said += sentence;
    said += '\n';
  }
  // The first sentence of a text that opens with a past tense, its subject left out: "Signed the
  // lease on a house in Leeds, moving day was Saturday" states the change in "moving day".
  const std::string_view first = text.substr(0, text.find_first_of(".!?;\n"));
  if (OpensWithAPastVerb(first) && !SaysWhatMayBe(LowerWords(first))) said += first;
  return said;
}

bool SaysTheSpeakerAsSubject(std::string_view sentence) { return SaysTheSpeakerAsSubject(LowerWords(sentence)); }

bool SaysWhatMayBe(std::string_view sentence) { return SaysWhatMayBe(LowerWords(sentence)); }

bool KinReplaceable(std::string_view predicate) {
  static constexpr std::string_view kStates[] = {"lives_in", "employer", "job", "uses", "school", "status", "prefers", "is"};
  return std::find(std::begin(kStates), std::end(kStates), predicate) != std::end(kStates);
}

bool NamesAKinThing(const KinLookup& kin, std::string_view older_text, const std::vector<std::string>& older_words,
                    std::string_view changed, std::string_view newer_text) {
  if (!kin.Available() || changed.empty() || older_words.empty()) return false;
  const std::vector<std::string> newer_words = kin.words(changed);
  if (newer_words.empty()) return false;
  if (kin.kin(Within(kin.names(older_text), older_words), newer_words)) return true;
  return kin.kin(older_words, Within(kin.names(newer_text), newer_words));
}

}  // namespace engram
