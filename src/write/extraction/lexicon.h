// write/extraction/lexicon.h — the words of the fact frame (data/lexicon/*.tsv, see its README):
// attribute names and synonyms, attribute cardinality and the qualifiers that partition a slot,
// facet nouns, values that name their attribute, attribute-bearing verbs, clause-kind markers and
// relation words. The grammar (fact_frame_reader.h) holds no words of its own. The episode
// segmenter's signal words (episode_signals.tsv: kinds closing, opening, request) are markers too.
//
// Thread safety: Lexicon::Get() is built once (a function-local static) and immutable after.
#ifndef ENGRAM_WRITE_EXTRACTION_LEXICON_H_
#define ENGRAM_WRITE_EXTRACTION_LEXICON_H_

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace engram::extraction {

struct AttributeInfo {
  bool multi_valued = false;        // values add instead of replacing
  bool per_slot = false;            // one value per slot; several when the slot is "" ("uses")
  std::set<std::string> facets;     // qualifier keys that make separate slots ("deployment")
  std::string scope = "state";      // a kScopes entry (extractor.h)
};

struct Facet {
  std::string qualifier;        // "deployment"
  std::string state_attribute;  // attribute of a state word said of it ("deployment_state"), or ""
};

struct AttributeRef {
  std::string attribute;  // "uses"
  std::string slot;       // "ui_theme", or ""
};

// An attribute a text names by an attribute word (attribute_words.tsv): the word as listed (lower
// case), the attribute, and its slot ("" for none).
struct NamedAttribute {
  std::string word;
  std::string attribute;
  std::string slot;
};

// A question pattern of attribute_words.tsv: a row whose word holds "*", which stands for one to
// three words ("where does * live" names `lives_in` in "Where does my sister Emma live now?").
struct AttributePattern {
  std::vector<std::string> words;  // lower case; "*" for the gap
  std::string phrase;              // as listed, lower case
  AttributeRef ref;
};

struct VerbEntry {
  AttributeRef target;
  bool change = false;   // the verb states a change ("moved to", "搬到")
  bool negated = false;  // it ends the fact ("sold")
  bool from_to = false;  // it names the attribute of "from A to B" only ("moved from")
  bool value_before = false;  // the value stands between 在 and the verb ("在重庆定居")
  bool initial = false;       // only right after the subject ("I'm from", "我叫")
  bool job_after = false;     // only when an occupation follows ("在腾讯做前端开发")
  bool either_side = false;   // value_before, or with no 在 before it the value follows ("定居苏州")
  bool proper_value = false;  // only when a capitalised name follows ("joined Datadog", not "joined a gym")
  bool lasting = false;       // only when a span of months or years follows ("在杭州住了三年", not "在酒店住了两晚")
  bool settling = false;      // settling in: only in a message of no stay, of a place that is no lodging ("在成都安顿下来", not "在酒店安顿下来")
  bool speaker_object = false;  // the speaker is its object, the fact's subject ("They promoted me to", "提拔我当")
};

// One phrase of the lexicon found in a text.
struct PhraseHit {
  size_t begin = 0;  // byte offsets into the text searched
  size_t end = 0;
  std::string phrase;  // as listed (lower case)
};

// A list of lower-case phrases, indexed by first byte for the scan of FindPhrases.
class PhraseSet {
 public:
  PhraseSet() = default;
  explicit PhraseSet(const std::vector<std::string>& phrases);
  // See FindPhrases.
  std::vector<PhraseHit> Find(std::string_view lowered) const;

 private:
  std::vector<std::vector<std::string>> by_first_byte_ = std::vector<std::vector<std::string>>(256);
};

class Lexicon {
 public:
  // The lexicon compiled into the library. Never fails: a malformed line is skipped (the lexicon
  // test checks that every line parses).
  static const Lexicon& Get();

  // Parses the files' text (name → content); lines that do not parse are appended to *bad.
  static Lexicon Parse(const std::vector<std::pair<std::string, std::string>>& files,
                       std::vector<std::string>* bad);

  // nullptr when unknown.
  const AttributeInfo* Attribute(std::string_view attribute) const;
  // The attributes with one current value (cardinality single or per_slot).
  std::vector<std::string> SingleValuedAttributes() const;
  // True when `attribute` with `slot` holds one current value: cardinality single, or per_slot
  // with a slot. False for an attribute the lexicon does not know.
  bool IsSingleValued(std::string_view attribute, std::string_view slot) const;
  // Attribute named by `word` (an attribute word, any case), or nullptr.
  const AttributeRef* AttributeWord(std::string_view word) const;
  const Facet* FacetNoun(std::string_view noun) const;
  const AttributeRef* Value(std::string_view value) const;
  // True when `value` (any case) is a value of values.tsv flagged `word`: a name that is also an
  // everyday word ("edge", "brave", "fish", "windows"), which names its attribute only when written
  // capitalised or said with a word of that attribute ("the fish shell").
  bool IsEverydayWordValue(std::string_view value) const;
  // True when `value` (any case) is a value of values.tsv flagged `product`: a tool's name
  // ("firefox", "vim"), which names its attribute only after a verb of using or switching or with a
  // word of that attribute.
  bool IsProductValue(std::string_view value) const;
  bool IsRelation(std::string_view word) const;
  // A part of a hyphenated name that marks a thing ("svc" in "checkout-svc"), lower case.
  bool IsIdentifierPart(std::string_view part) const;
  // The markers of `kind` ("plan", "change", ...), lower case.
  const std::vector<std::string>& Markers(std::string_view kind) const;

  // Phrases of a list found in `text` (`lowered` = LowerAscii(text)): English phrases at word
  // boundaries, Chinese ones anywhere; leftmost-longest, non-overlapping, in text order.
  std::vector<PhraseHit> FindMarkers(std::string_view lowered, std::string_view kind) const;
  // True when FindMarkers(lowered, kind) finds any.
  bool HasMarker(std::string_view lowered, std::string_view kind) const;
  std::vector<PhraseHit> FindValues(std::string_view lowered) const;
  std::vector<PhraseHit> FindVerbs(std::string_view lowered) const;
  std::vector<PhraseHit> FindFacets(std::string_view lowered) const;
  std::vector<PhraseHit> FindAttributeWords(std::string_view lowered) const;
  // The attributes `text` (any case) names by attribute words, in text order: each word's
  // attribute and slot, then its "also" attributes (the fourth column: a question naming "role" is
  // answered by a job too), with the same word and no slot; then those its question patterns name
  // (AttributePattern), each with the pattern as its word. Empty when it names none.
  std::vector<NamedAttribute> NamedAttributes(std::string_view text) const;
  const VerbEntry* Verb(std::string_view phrase) const;
  // The words that name `attribute` with `slot` (slot "" = the attribute's own words): its
  // attribute words and the verbs that carry it, lower case, space-separated, each once, in file
  // order; with a slot, the attribute's slotless words follow. What a question about such a claim
  // may say without saying its value ("job" → "job title position 职位 职业 工作 work as ..."):
  // claims are indexed with them (claim_writer.h). "" when the lexicon names neither.
  std::string SearchWords(std::string_view attribute, std::string_view slot) const;
  // The topics `text` is about (topics.tsv: "Where am I based?" and "we relocated to Glasgow" →
  // "residence"), sorted, each once; empty when it names none. Any case; English words match
  // whole words, Chinese ones anywhere.
  std::vector<std::string> Topics(std::string_view text) const;
  // The relation words of relations.tsv in `text` ("my brother quit his job" → "brother"), lower
  // case, in text order; matched as Topics matches.
  std::vector<std::string> RelationsIn(std::string_view text) const;
  // The words of `topic` (topics.tsv), lower case, in file order; empty for an unknown topic.
  const std::vector<std::string>& TopicWords(std::string_view topic) const;

 private:
  std::map<std::string, AttributeInfo, std::less<>> attributes_;
  std::map<std::string, AttributeRef, std::less<>> attribute_words_;
  std::vector<AttributePattern> attribute_patterns_;
  // attribute_words.tsv's fourth column: word → the other attributes that answer a question naming it.
  std::map<std::string, std::vector<std::string>, std::less<>> also_answered_by_;
  std::map<std::string, Facet, std::less<>> facets_;
  std::map<std::string, AttributeRef, std::less<>> values_;
  std::set<std::string, std::less<>> everyday_word_values_;  // values.tsv's flag `word`
  std::set<std::string, std::less<>> product_values_;        // values.tsv's flag `product`
  std::map<std::string, VerbEntry, std::less<>> verbs_;
  std::map<std::string, std::vector<std::string>, std::less<>> markers_;
  std::set<std::string, std::less<>> relations_;
  std::set<std::string, std::less<>> identifier_parts_;
  // "attribute\tslot" → the words naming it, in file order (SearchWords).
  std::map<std::string, std::vector<std::string>, std::less<>> words_of_attribute_;
  // topics.tsv: word → its topics, and topic → its words (Topics, TopicWords).
  std::map<std::string, std::vector<std::string>, std::less<>> topics_of_word_;
  std::map<std::string, std::vector<std::string>, std::less<>> words_of_topic_;
  // Indexes of the phrase lists above (built by Parse).
  std::map<std::string, PhraseSet, std::less<>> marker_sets_;
  PhraseSet value_set_, verb_set_, facet_set_, attribute_word_set_, topic_word_set_, relation_set_;
};

// Phrases of `phrases` found in `lowered` (see Lexicon::FindMarkers). Exposed for the tests.
std::vector<PhraseHit> FindPhrases(std::string_view lowered, const std::vector<std::string>& phrases);

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_LEXICON_H_
