#include "write/kin_slot.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "text/person_topic.h"
#include "text/stopwords.h"
#include "write/change_value.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/claim_text.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/statement_topics.h"

namespace engram {
namespace {

// One clause of the turn: its text (a view into the turn) and where it starts.
struct TurnClause {
  std::string_view text;
  size_t begin = 0;
};

// A word of a text: its bytes as written and lower-cased.
struct Word {
  std::string_view written;
  std::string lower;
};

std::vector<Word> Words(std::string_view text) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !std::isalnum(static_cast<unsigned char>(text[i]))) ++i;
    size_t end = i;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '\'' ||
                                 (text[end] == '.' && end + 1 < text.size() &&
                                  std::isdigit(static_cast<unsigned char>(text[end + 1]))))) {
      ++end;
    }
    if (end == i) break;
    Word w{text.substr(i, end - i), std::string(text.substr(i, end - i))};
    for (char& c : w.lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (w.lower.ends_with("'s")) w.lower.resize(w.lower.size() - 2);
    words.push_back(std::move(w));
    i = end;
  }
  return words;
}

bool HasWord(const std::vector<Word>& words, std::string_view word) {
  return std::any_of(words.begin(), words.end(), [&](const Word& w) { return w.lower == word; });
}

// The clauses of `text` that state how things stand now, not asked (kin_slot.h): the clause a "?"
// or "？" ends asks; one that adds, bounds, limits or says what may be replaces nothing.
std::vector<TurnClause> StatingClauses(std::string_view text) {
  std::vector<TurnClause> out;
  for (const auto& [begin, end] : ClauseSpans(text)) {
    size_t next = end;
    while (next < text.size() && text[next] == ' ') ++next;
    if (next < text.size() && (text[next] == '?' || text.substr(next).starts_with("？"))) continue;
    const std::string_view clause = text.substr(begin, end - begin);
    if (extraction::ReadNowStance(clause) != text::NowStance::kChange) continue;
    if (ReplacesNothing(clause) || SaysWhatMayBe(clause)) continue;
    out.push_back({clause, begin});
  }
  return out;
}

// True when `words` hold a word of `value` that is no stopword nor one of `kin_words` (folded,
// sorted): "orders" of "MySQL for the orders service" in "the orders service runs on PostgreSQL".
bool NamesWhatTheValueIsFor(const std::vector<Word>& words, std::string_view value,
                            const std::vector<std::string>& kin_words) {
  for (const Word& w : Words(value)) {
    if (w.lower.size() < 3 || text::IsEnglishStopword(w.lower)) continue;
    if (std::binary_search(kin_words.begin(), kin_words.end(), w.lower)) continue;
    if (HasWord(words, w.lower)) return true;
  }
  return false;
}

// True when `clause` (at `begin` of `turn`) is about `h`'s subject (kin_slot.h), or, for the
// speaker's claim, about the thing its value is for (`older_kin`: the value's kin words).
bool AboutTheSubject(std::string_view turn, const TurnClause& clause, const Claim& h, std::string_view speaker,
                     const std::vector<std::string>& older_kin) {
  const std::string_view subject = h.subject;
  const std::vector<Word> words = Words(clause.text);
  if (subject == speaker) {
    for (const std::string& topic : extraction::StatementTopics(clause.text)) {
      if (text::IsOtherPersonTopic(topic)) return false;
    }
    return NamesWhatTheValueIsFor(words, h.value, older_kin) || SaysTheSpeakerAsSubject(clause.text) || OpensWithAPastVerb(clause.text) || HasWord(words, "our") ||
           HasWord(words, "my");
  }
  const std::vector<Word> named = Words(subject);
  if (named.empty()) return false;
  const std::string& head = named.back().lower;
  if (HasWord(words, head)) return true;
  const bool pronoun = HasWord(words, "he") || HasWord(words, "she");
  return pronoun && HasWord(Words(turn.substr(0, clause.begin)), head);
}

// True when the attribute's value is a place a trip, a visit or a client names as well, and
// `clause` holds none of its verbs (verbs.tsv).
bool LacksItsVerb(std::string_view predicate, std::string_view clause) {
  if (predicate != "lives_in" && predicate != "employer" && predicate != "school") return false;
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  std::string lowered(clause);
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const extraction::PhraseHit& hit : lex.FindVerbs(lowered)) {
    const extraction::VerbEntry* verb = lex.Verb(hit.phrase);
    if (verb != nullptr && verb->target.attribute == predicate) return false;
  }
  return true;
}

// True when a word of the name-run may stand beside a name in its value ("GitHub Actions",
// "Model 3", "S24"): written with a capital or a digit, and no word of address or filler.
bool NameLike(const Word& w) {
  static constexpr std::string_view kNot[] = {"the", "a", "an", "i", "i'm", "i've", "my", "our", "now", "so", "and",
                                              "but", "ok", "we", "it", "this", "that", "since"};
  const auto first = static_cast<unsigned char>(w.written.front());
  if (!std::isupper(first) && !std::any_of(w.written.begin(), w.written.end(),
                                           [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return false;
  }
  return std::find(std::begin(kNot), std::end(kNot), w.lower) == std::end(kNot);
}

// The value phrase around the name `name` (folded) in `clause`: it and the name-like words written
// right beside it, at most four words; "" when the clause does not hold it as a word.
std::string ValueAround(std::string_view clause, std::string_view name) {
  const std::vector<Word> words = Words(clause);
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i].lower != name) continue;
    size_t first = i;
    size_t last = i;
    while (first > 0 && i - first < 3 && NameLike(words[first - 1])) --first;
    while (last + 1 < words.size() && last - first < 3 && NameLike(words[last + 1])) ++last;
    const char* begin = words[first].written.data();
    const char* end = words[last].written.data() + words[last].written.size();
    return std::string(begin, static_cast<size_t>(end - begin));
  }
  return "";
}

// True when a value the grammar read from the turn holds `name` (folded) as a word.
bool ReadBefore(const KinSlotTurn& turn, std::string_view name) {
  return std::any_of(turn.read_values.begin(), turn.read_values.end(),
                     [&](const std::string& value) { return HasWord(Words(value), name); });
}

// The older claims a kin value may replace: current, affirmed, said before, of an attribute a
// change of kind replaces.
Result<std::vector<Claim>> OlderSlots(sqlite::ClaimStore& store, int64_t namespace_id, TimestampMs said_at) {
  auto recent = store.RecentCurrent(namespace_id, kKinSlotLookback);
  if (!recent) return Error(recent.error());
  std::vector<Claim> out;
  for (sqlite::StoredClaim& held : *recent) {
    const Claim& h = held.claim;
    if (held.negated || h.status != "active" || h.valid_from >= said_at || !KinReplaceable(h.predicate)) continue;
    out.push_back(std::move(held.claim));
  }
  return out;
}

// The candidate of `clause` in `h`'s slot, or nullopt (kin_slot.h).
std::optional<extraction::CandidateClaim> SlotCandidate(const Claim& h, const KinSlotTurn& turn,
                                                        const TurnClause& clause,
                                                        const std::vector<std::string>& turn_names,
                                                        const KinLookup& kin) {
  const std::vector<std::string> older = kin.words(h.value);
  if (older.empty() || older.size() > kMaxKinWords) return std::nullopt;
  // A clause that names the older value's name again compares the two, or restates it.
  const std::vector<std::string> said = kin.words(clause.text);
  const std::vector<std::string> older_names = kin.names(h.text);
  auto is_said = [&](const std::string& w) { return std::binary_search(said.begin(), said.end(), w); };
  for (const std::string& w : older) {
    if (is_said(w) && std::binary_search(older_names.begin(), older_names.end(), w)) return std::nullopt;
  }
  std::vector<std::string> unsaid = older;
  std::erase_if(unsaid, is_said);
  if (unsaid.empty()) return std::nullopt;
  if (!AboutTheSubject(turn.text, clause, h, turn.speaker, older) || LacksItsVerb(h.predicate, clause.text)) {
    return std::nullopt;
  }
  const std::vector<std::string> own = kin.words(h.text);
  for (const std::string& name : said) {
    if (!std::binary_search(turn_names.begin(), turn_names.end(), name)) continue;
    if (std::binary_search(own.begin(), own.end(), name) || !kin.kin(unsaid, {name})) continue;
    const std::string value = ValueAround(clause.text, name);
    if (value.empty() || ReadBefore(turn, name)) continue;
    extraction::CandidateClaim c;
    c.subject = h.subject;
    c.predicate = h.predicate;
    c.slot = h.slot;
    c.value = value;
    c.qualifiers = h.qualifiers;
    c.scope = h.scope;
    c.confidence = 0.6;
    c.source_events = {turn.source_event};
    c.evidence_span = std::string(clause.text);
    c.replaces_value = h.value;
    c.change = true;
    c.text = extraction::EnglishStatement(c, h.subject);
    return c;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> ReadValues(const std::vector<extraction::CandidateClaim>& candidates, size_t event) {
  std::vector<std::string> values;
  for (const extraction::CandidateClaim& c : candidates) {
    if (c.successor_only || c.predicate == "explicit_memory" || c.predicate == extraction::kPredicateStatement) continue;
    if (!c.source_events.empty() && c.source_events.front() == event) values.push_back(c.value);
  }
  return values;
}

Result<std::vector<extraction::CandidateClaim>> KinSlotCandidates(sqlite::ClaimStore& store, int64_t namespace_id,
                                                                  const KinSlotTurn& turn, const KinLookup& kin) {
  std::vector<extraction::CandidateClaim> out;
  if (!kin.Available()) return out;
  const std::vector<TurnClause> clauses = StatingClauses(turn.text);
  if (clauses.empty()) return out;
  // (No clause stating a change, no word vectors read: most turns stop above.)
  const std::vector<std::string> names = kin.names(turn.text);
  if (names.empty()) return out;
  auto olders = OlderSlots(store, namespace_id, turn.said_at);
  if (!olders) return Error(olders.error());
  for (const Claim& h : *olders) {
    for (const TurnClause& clause : clauses) {
      std::optional<extraction::CandidateClaim> c = SlotCandidate(h, turn, clause, names, kin);
      if (!c) continue;
      out.push_back(std::move(*c));
      break;
    }
  }
  return out;
}

}  // namespace engram
