#include "write/extraction/lexicon.h"

#include <algorithm>
#include <sstream>

#include "write/extraction/lexicon_data.h"

namespace engram::extraction {
namespace {

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

std::vector<std::string> Keys(const auto& map) {
  std::vector<std::string> out;
  for (const auto& [key, unused] : map) out.push_back(key);
  return out;
}

}  // namespace

std::vector<PhraseHit> FindPhrases(std::string_view lowered, const std::vector<std::string>& phrases) {
  std::vector<PhraseHit> hits;
  size_t pos = 0;
  while (pos < lowered.size()) {
    const std::string* best = nullptr;
    for (const std::string& p : phrases) {
      if (p.empty() || (best != nullptr && p.size() <= best->size())) continue;
      if (lowered.compare(pos, p.size(), p) != 0) continue;
      if (IsAscii(p)) {
        const bool left_ok = pos == 0 || !IsWordByte(lowered[pos - 1]) || !IsWordByte(p.front()) ||
                             p.find('\'') != std::string::npos;
        const size_t end = pos + p.size();
        const bool right_ok = end >= lowered.size() || !IsWordByte(lowered[end]) || !IsWordByte(p.back());
        if (!left_ok || !right_ok) continue;
      }
      best = &p;
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
        std::istringstream facets(Dash(c[2]));
        std::string facet;
        while (std::getline(facets, facet, ',')) info.facets.insert(facet);
        info.scope = c[3];
        lex.attributes_[c[0]] = info;
      } else if (name == "attribute_words.tsv" && need(3)) {
        lex.attribute_words_[Lower(c[0])] = {c[1], Dash(c[2])};
      } else if (name == "facets.tsv" && need(3)) {
        lex.facets_[Lower(c[0])] = {c[1], Dash(c[2])};
      } else if (name == "values.tsv" && need(3)) {
        lex.values_[Lower(c[0])] = {c[1], Dash(c[2])};
      } else if (name == "verbs.tsv" && need(4)) {
        VerbEntry verb{{c[1], Dash(c[2])}, c[3].find("change") != std::string::npos,
                       c[3].find("negated") != std::string::npos};
        lex.verbs_[Lower(c[0])] = verb;
      } else if (name == "markers.tsv" && need(2)) {
        lex.markers_[c[0]].push_back(Lower(c[1]));
      } else if (name == "relations.tsv" && need(1)) {
        lex.relations_.insert(Lower(c[0]));
      }
    }
  }
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

const VerbEntry* Lexicon::Verb(std::string_view phrase) const {
  auto it = verbs_.find(phrase);
  return it == verbs_.end() ? nullptr : &it->second;
}

bool Lexicon::IsRelation(std::string_view word) const { return relations_.count(Lower(word)) > 0; }

const std::vector<std::string>& Lexicon::Markers(std::string_view kind) const {
  static const std::vector<std::string> kNone;
  auto it = markers_.find(kind);
  return it == markers_.end() ? kNone : it->second;
}

std::vector<PhraseHit> Lexicon::FindMarkers(std::string_view lowered, std::string_view kind) const {
  return FindPhrases(lowered, Markers(kind));
}

std::vector<PhraseHit> Lexicon::FindValues(std::string_view lowered) const {
  static const std::vector<std::string> kPhrases = Keys(Get().values_);
  return FindPhrases(lowered, this == &Get() ? kPhrases : Keys(values_));
}

std::vector<PhraseHit> Lexicon::FindVerbs(std::string_view lowered) const {
  static const std::vector<std::string> kPhrases = Keys(Get().verbs_);
  return FindPhrases(lowered, this == &Get() ? kPhrases : Keys(verbs_));
}

std::vector<PhraseHit> Lexicon::FindFacets(std::string_view lowered) const {
  static const std::vector<std::string> kPhrases = Keys(Get().facets_);
  return FindPhrases(lowered, this == &Get() ? kPhrases : Keys(facets_));
}

std::vector<PhraseHit> Lexicon::FindAttributeWords(std::string_view lowered) const {
  static const std::vector<std::string> kPhrases = Keys(Get().attribute_words_);
  return FindPhrases(lowered, this == &Get() ? kPhrases : Keys(attribute_words_));
}

}  // namespace engram::extraction
