#include "write/extraction/lexicon.h"

#include <algorithm>
#include <sstream>

#include "write/extraction/lexicon_data.h"

namespace engram::extraction {
namespace {

// The words of `lowered`: runs of ASCII letters, digits, apostrophes and "*".
std::vector<std::string> AsciiWords(std::string_view lowered) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : lowered) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '\'' || c == '*') {
      word.push_back(c);
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// True when `pattern` from its word `p` matches `words` from word `w` on: a "*" takes one to
// three words.
bool MatchesFrom(const std::vector<std::string>& pattern, size_t p, const std::vector<std::string>& words, size_t w) {
  if (p == pattern.size()) return true;
  if (pattern[p] != "*") return w < words.size() && words[w] == pattern[p] && MatchesFrom(pattern, p + 1, words, w + 1);
  for (size_t take = 1; take <= 3 && w + take <= words.size(); ++take) {
    if (MatchesFrom(pattern, p + 1, words, w + take)) return true;
  }
  return false;
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, '\t')) out.push_back(cell);
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string Dash(const std::string& cell) { return cell == "-" ? "" : cell; }

bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool IsAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// English verb phrases that end in "to" or "into" ("moved to", "switched to") said with a particle
// of direction before it ("moved back to Leeds", "moved down to Manchester", "switched over to
// Linux"): the same verb, added to `verbs` as its own phrase unless listed already.
template <typename Map>
void AddParticleForms(Map& verbs) {
  static constexpr std::string_view kParticles[] = {"back", "down", "up", "over", "out", "away", "across"};
  std::vector<std::pair<std::string, VerbEntry>> added;
  for (const auto& [phrase, verb] : verbs) {
    for (std::string_view last : {" to", " into"}) {
      if (!phrase.ends_with(last) || phrase.size() == last.size() || static_cast<unsigned char>(phrase[0]) >= 0x80) continue;
      const std::string head = phrase.substr(0, phrase.size() - last.size());
      for (std::string_view particle : kParticles) {
        added.emplace_back(head + " " + std::string(particle) + std::string(last), verb);
      }
    }
  }
  for (auto& [phrase, verb] : added) verbs.emplace(std::move(phrase), verb);
}

std::vector<std::string> Keys(const auto& map) {
  std::vector<std::string> out;
  for (const auto& [key, unused] : map) out.push_back(key);
  return out;
}

}  // namespace

namespace {

// True when `p` occurs at `pos` of `lowered` — for an English phrase, as whole words.
bool MatchesAt(std::string_view lowered, size_t pos, const std::string& p) {
  if (lowered.compare(pos, p.size(), p) != 0) return false;
  if (!IsAscii(p)) return true;
  const bool left_ok = pos == 0 || !IsWordByte(lowered[pos - 1]) || !IsWordByte(p.front()) ||
                       p.find('\'') != std::string::npos;
  const size_t end = pos + p.size();
  const bool right_ok = end >= lowered.size() || !IsWordByte(lowered[end]) || !IsWordByte(p.back());
  return left_ok && right_ok;
}

}  // namespace

PhraseSet::PhraseSet(const std::vector<std::string>& phrases) {
  for (const std::string& p : phrases) {
    if (!p.empty()) by_first_byte_[static_cast<unsigned char>(p[0])].push_back(p);
  }
  for (auto& bucket : by_first_byte_) {
    std::stable_sort(bucket.begin(), bucket.end(),
                     [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  }
}

std::vector<PhraseHit> PhraseSet::Find(std::string_view lowered) const {
  std::vector<PhraseHit> hits;
  size_t pos = 0;
  while (pos < lowered.size()) {
    const std::string* best = nullptr;
    for (const std::string& p : by_first_byte_[static_cast<unsigned char>(lowered[pos])]) {
      if (MatchesAt(lowered, pos, p)) {
        best = &p;  // the bucket is longest first
        break;
      }
    }
    if (best == nullptr) {
      ++pos;
      continue;
    }
    hits.push_back({pos, pos + best->size(), *best});
    pos += best->size();
  }
  return hits;
}

std::vector<PhraseHit> FindPhrases(std::string_view lowered, const std::vector<std::string>& phrases) {
  return PhraseSet(phrases).Find(lowered);
}

Lexicon Lexicon::Parse(const std::vector<std::pair<std::string, std::string>>& files,
                       std::vector<std::string>* bad) {
  Lexicon lex;
  for (const auto& [name, text] : files) {
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> c = SplitTabs(line);
      auto need = [&](size_t n) {
        if (c.size() >= n) return true;
        if (bad != nullptr) bad->push_back(name + ":" + std::to_string(number) + ": " + line);
        return false;
      };
      if (name == "attributes.tsv" && need(4)) {
        AttributeInfo info;
        info.multi_valued = c[1] == "multi";
        info.per_slot = c[1] == "per_slot";
        std::istringstream facets(Dash(c[2]));
        std::string facet;
        while (std::getline(facets, facet, ',')) info.facets.insert(facet);
        info.scope = c[3];
        lex.attributes_[c[0]] = info;
      } else if (name == "attribute_words.tsv" && need(3) && c[0].find('*') != std::string::npos) {
        lex.attribute_patterns_.push_back({AsciiWords(Lower(c[0])), Lower(c[0]), {c[1], Dash(c[2])}});
      } else if (name == "attribute_words.tsv" && need(3)) {
        lex.attribute_words_[Lower(c[0])] = {c[1], Dash(c[2])};
        if (c.size() > 3) {
          std::istringstream also(Dash(c[3]));
          std::string attribute;
          while (std::getline(also, attribute, ',')) {
            if (!attribute.empty()) lex.also_answered_by_[Lower(c[0])].push_back(attribute);
          }
        }
        lex.words_of_attribute_[c[1] + "\t" + Dash(c[2])].push_back(Lower(c[0]));
      } else if (name == "facets.tsv" && need(3)) {
        lex.facets_[Lower(c[0])] = {c[1], Dash(c[2])};
      } else if (name == "values.tsv" && need(3)) {
        lex.values_[Lower(c[0])] = {c[1], Dash(c[2])};
        std::istringstream flags(c.size() > 3 ? c[3] : "");
        for (std::string flag; std::getline(flags, flag, ',');) {
          if (flag == "word") lex.everyday_word_values_.insert(Lower(c[0]));
          if (flag == "product") lex.product_values_.insert(Lower(c[0]));
        }
      } else if (name == "verbs.tsv" && need(4)) {
        VerbEntry verb{{c[1], Dash(c[2])}, c[3].find("change") != std::string::npos,
                       c[3].find("negated") != std::string::npos, c[3].find("from_to") != std::string::npos,
                       c[3].find("value_before") != std::string::npos, c[3].find("initial") != std::string::npos,
                       c[3].find("job_after") != std::string::npos, c[3].find("either_side") != std::string::npos,
                       c[3].find("proper_value") != std::string::npos, c[3].find("lasting") != std::string::npos,
                       c[3].find("settling") != std::string::npos, c[3].find("speaker_object") != std::string::npos};
        lex.verbs_[Lower(c[0])] = verb;
        if (!verb.negated && c[3].find("unsearched") == std::string::npos) lex.words_of_attribute_[c[1] + "\t" + Dash(c[2])].push_back(Lower(c[0]));
      } else if ((name == "markers.tsv" || name == "episode_signals.tsv") && need(2)) {
        lex.markers_[c[0]].push_back(Lower(c[1]));
      } else if (name == "topics.tsv" && need(2)) {
        lex.topics_of_word_[Lower(c[0])].push_back(c[1]);
        lex.words_of_topic_[c[1]].push_back(Lower(c[0]));
      } else if (name == "relations.tsv" && need(1)) {
        lex.relations_.insert(Lower(c[0]));
      } else if (name == "identifier_parts.tsv" && need(1)) {
        lex.identifier_parts_.insert(Lower(c[0]));
      }
    }
  }
  AddParticleForms(lex.verbs_);
  for (const auto& [kind, phrases] : lex.markers_) lex.marker_sets_[kind] = PhraseSet(phrases);
  lex.value_set_ = PhraseSet(Keys(lex.values_));
  lex.verb_set_ = PhraseSet(Keys(lex.verbs_));
  lex.facet_set_ = PhraseSet(Keys(lex.facets_));
  lex.attribute_word_set_ = PhraseSet(Keys(lex.attribute_words_));
  lex.topic_word_set_ = PhraseSet(Keys(lex.topics_of_word_));
  lex.relation_set_ = PhraseSet(std::vector<std::string>(lex.relations_.begin(), lex.relations_.end()));
  return lex;
}

const Lexicon& Lexicon::Get() {
  static const Lexicon kLexicon = [] {
    std::vector<std::pair<std::string, std::string>> files;
    for (const LexiconFile& f : LexiconFiles()) files.emplace_back(std::string(f.name), std::string(f.text));
    return Parse(files, nullptr);
  }();
  return kLexicon;
}

bool Lexicon::IsSingleValued(std::string_view attribute, std::string_view slot) const {
  const AttributeInfo* info = Attribute(attribute);
  return info != nullptr && !info->multi_valued && (!info->per_slot || !slot.empty());
}

const AttributeInfo* Lexicon::Attribute(std::string_view attribute) const {
  auto it = attributes_.find(attribute);
  return it == attributes_.end() ? nullptr : &it->second;
}

std::vector<std::string> Lexicon::SingleValuedAttributes() const {
  std::vector<std::string> out;
  for (const auto& [name, info] : attributes_) {
    if (!info.multi_valued) out.push_back(name);
  }
  return out;
}

const AttributeRef* Lexicon::AttributeWord(std::string_view word) const {
  auto it = attribute_words_.find(Lower(word));
  return it == attribute_words_.end() ? nullptr : &it->second;
}

const Facet* Lexicon::FacetNoun(std::string_view noun) const {
  auto it = facets_.find(Lower(noun));
  return it == facets_.end() ? nullptr : &it->second;
}

const AttributeRef* Lexicon::Value(std::string_view value) const {
  auto it = values_.find(Lower(value));
  return it == values_.end() ? nullptr : &it->second;
}

bool Lexicon::IsEverydayWordValue(std::string_view value) const {
  return everyday_word_values_.count(Lower(value)) > 0;
}

bool Lexicon::IsProductValue(std::string_view value) const { return product_values_.count(Lower(value)) > 0; }

const VerbEntry* Lexicon::Verb(std::string_view phrase) const {
  auto it = verbs_.find(phrase);
  return it == verbs_.end() ? nullptr : &it->second;
}

std::string Lexicon::SearchWords(std::string_view attribute, std::string_view slot) const {
  std::vector<std::string_view> words;
  auto add = [&](const std::string& key) {
    auto it = words_of_attribute_.find(key);
    if (it == words_of_attribute_.end()) return;
    for (const std::string& w : it->second) {
      if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    }
  };
  add(std::string(attribute) + "\t" + std::string(slot));
  if (!slot.empty()) add(std::string(attribute) + "\t");
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

std::vector<std::string> Lexicon::Topics(std::string_view text) const {
  std::vector<std::string> topics;
  for (const PhraseHit& hit : topic_word_set_.Find(Lower(text))) {
    auto it = topics_of_word_.find(hit.phrase);
    if (it != topics_of_word_.end()) topics.insert(topics.end(), it->second.begin(), it->second.end());
  }
  std::sort(topics.begin(), topics.end());
  topics.erase(std::unique(topics.begin(), topics.end()), topics.end());
  return topics;
}

std::vector<std::string> Lexicon::RelationsIn(std::string_view text) const {
  std::vector<std::string> words;
  for (PhraseHit& hit : relation_set_.Find(Lower(text))) words.push_back(std::move(hit.phrase));
  return words;
}

const std::vector<std::string>& Lexicon::TopicWords(std::string_view topic) const {
  static const std::vector<std::string> kNone;
  auto it = words_of_topic_.find(topic);
  return it == words_of_topic_.end() ? kNone : it->second;
}

bool Lexicon::IsRelation(std::string_view word) const { return relations_.count(Lower(word)) > 0; }
bool Lexicon::IsIdentifierPart(std::string_view part) const { return identifier_parts_.count(Lower(part)) > 0; }

const std::vector<std::string>& Lexicon::Markers(std::string_view kind) const {
  static const std::vector<std::string> kNone;
  auto it = markers_.find(kind);
  return it == markers_.end() ? kNone : it->second;
}

std::vector<PhraseHit> Lexicon::FindMarkers(std::string_view lowered, std::string_view kind) const {
  auto it = marker_sets_.find(kind);
  return it == marker_sets_.end() ? std::vector<PhraseHit>{} : it->second.Find(lowered);
}

bool Lexicon::HasMarker(std::string_view lowered, std::string_view kind) const {
  return !FindMarkers(lowered, kind).empty();
}

std::vector<PhraseHit> Lexicon::FindValues(std::string_view lowered) const { return value_set_.Find(lowered); }
std::vector<PhraseHit> Lexicon::FindVerbs(std::string_view lowered) const { return verb_set_.Find(lowered); }
std::vector<PhraseHit> Lexicon::FindFacets(std::string_view lowered) const { return facet_set_.Find(lowered); }
std::vector<PhraseHit> Lexicon::FindAttributeWords(std::string_view lowered) const {
  return attribute_word_set_.Find(lowered);
}

std::vector<NamedAttribute> Lexicon::NamedAttributes(std::string_view text) const {
  std::vector<NamedAttribute> named;
  for (const PhraseHit& hit : FindAttributeWords(Lower(text))) {
    const AttributeRef* ref = AttributeWord(hit.phrase);
    if (ref == nullptr) continue;
    named.push_back({hit.phrase, ref->attribute, ref->slot});
    auto also = also_answered_by_.find(hit.phrase);
    if (also == also_answered_by_.end()) continue;
    for (const std::string& attribute : also->second) named.push_back({hit.phrase, attribute, ""});
  }
  const std::vector<std::string> words = AsciiWords(Lower(text));
  for (const AttributePattern& pattern : attribute_patterns_) {
    for (size_t w = 0; w < words.size(); ++w) {
      if (!MatchesFrom(pattern.words, 0, words, w)) continue;
      named.push_back({pattern.phrase, pattern.ref.attribute, pattern.ref.slot});
      break;
    }
  }
  return named;
}

}  // namespace engram::extraction
