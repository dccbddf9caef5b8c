#include "write/kin_slot.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "text/person_topic.h"
#include "text/stopwords.h"
#include "text/time_expression.h"
#include "write/change_value.h"
#include "write/extraction/change_statement.h"
#include "write/extraction/claim_text.h"
#include "write/extraction/fact_frame_reader.h"
#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"
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

// True when a sentence ends at byte `i` of `text`: . ! ? before a space or the end (not in 3.12),
// 。！？ or a line break.
bool EndsASentence(std::string_view text, size_t i) {
  const char c = text[i];
  if (c == '!' || c == '?' || c == '\n') return true;
  if (c == '.') return i + 1 == text.size() || text[i + 1] == ' ';
  const std::string_view rest = text.substr(i);
  return rest.starts_with("。") || rest.starts_with("！") || rest.starts_with("？");
}

// The sentence of `text` that holds the clause [begin, end): from the end of the sentence before
// it to the end of its own.
std::string_view SentenceAround(std::string_view text, size_t begin, size_t end) {
  size_t from = begin;
  while (from > 0 && !EndsASentence(text, from - 1)) --from;
  size_t to = end;
  while (to < text.size() && !EndsASentence(text, to)) ++to;
  return text.substr(from, to - from);
}

// True when a marker anywhere in `sentence` says its clauses are not so: a joke, sarcasm or a
// hypothetical ("Oh sure, I totally switched to Firefox, as if."), a plan, wish, quotation or
// hedge, a change taken back (markers.tsv `unreal`, `hypothetical`, `plan`, `quotation`,
// `uncertain`, `retract`, `undone`). A question's mark is not one: "Now that the orders service
// runs on PostgreSQL, what's the equivalent…?" states its first clause.
bool SentenceSaysItIsNot(std::string_view sentence) {
  static constexpr std::string_view kKinds[] = {"unreal", "hypothetical", "plan", "quotation", "uncertain",
                                                "retract", "undone"};
  const std::string lowered = extraction::LowerAsciiBytes(sentence);
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  return std::any_of(std::begin(kKinds), std::end(kKinds),
                     [&](std::string_view kind) { return lex.HasMarker(lowered, kind); });
}

// True when what the turn says after a clause takes it back as a joke or undoes it (markers.tsv
// `unreal`, `retract`, `undone`: "…switched to Sonoma and now nothing works. Just kidding, still
// on Monterey.").
bool TakenBackLater(std::string_view rest) {
  const std::string lowered = extraction::LowerAsciiBytes(rest);
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  return lex.HasMarker(lowered, "unreal") || lex.HasMarker(lowered, "retract") || lex.HasMarker(lowered, "undone");
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
    if (ReplacesNothing(clause) || SaysWhatMayBe(clause) || SentenceSaysItIsNot(SentenceAround(text, begin, end)) ||
        TakenBackLater(text.substr(end))) {
      continue;
    }
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

// True when the noun phrase `head` ends in `words` opens with another's possessive ("My boss's
// laptop", "its health insurance", "her car"): the thing is someone else's, not the one the older
// claim is about. The phrase is read back over at most three words to its determiner.
bool OwnedByAnother(const std::vector<Word>& words, std::string_view head) {
  static constexpr std::string_view kOthers[] = {"his", "her", "their", "its", "your"};
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i].lower != head) continue;
    for (size_t k = i; k > 0 && i - k < 3; --k) {
      const Word& w = words[k - 1];
      if (std::find(std::begin(kOthers), std::end(kOthers), w.lower) != std::end(kOthers)) return true;
      if (w.written.ends_with("'s") || w.written.ends_with("’s")) return true;
      if (w.lower == "my" || w.lower == "our" || w.lower == "the" || w.lower == "a") break;
    }
  }
  return false;
}

// True when the noun `head` in `words` is told apart by a word the subject (`named`) does not hold:
// "my work laptop" is not "personal laptop", "the office printer" not "printer" of another room.
bool AnotherOfItsKind(const std::vector<Word>& words, std::string_view head, const std::vector<Word>& named) {
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i].lower != head) continue;
    const std::string& before = words[i - 1].lower;
    if (text::IsEnglishStopword(before) || HasWord(named, before)) continue;
    if (std::isupper(static_cast<unsigned char>(words[i - 1].written.front()))) continue;  // "Mom's laptop" is owned, read above
    return true;
  }
  return false;
}

// True when `subject` names a thing of the speaker's side, no one's else: lower-case common nouns
// without a possessive ("laptop", "phone carrier", "payment service"; not "dad's laptop", "Priya").
bool SpeakersThing(std::string_view subject) {
  if (subject.find('\'') != std::string_view::npos || subject.find("\xE2\x80\x99") != std::string_view::npos) return false;
  for (const Word& w : Words(subject)) {
    if (!std::all_of(w.written.begin(), w.written.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) || c == '-'; })) {
      return false;
    }
  }
  return !subject.empty();
}

// True when `clause` (whose words are `words`) tells what the speaker did or does, naming no one
// else, nothing of anyone else's and no other thing it was done on: "Finally switched to Sonoma",
// "I've moved to Sonoma" — not "my sister switched to Sonoma", "I switched to Sonoma on her
// laptop", "… on the office iMac".
bool SpeakerActs(std::string_view clause, const std::vector<Word>& words) {
  for (const std::string& topic : extraction::StatementTopics(clause)) {
    if (text::IsOtherPersonTopic(topic)) return false;
  }
  static constexpr std::string_view kOthers[] = {"his", "her", "hers", "their", "theirs", "its", "your", "yours",
                                                 "he", "she", "they", "you"};
  static constexpr std::string_view kOwners[] = {"the", "my", "our", "a", "an", "this", "that", "work", "home", "school"};
  static constexpr std::string_view kWhere[] = {"on", "onto", "in", "inside", "at"};
  for (size_t i = 0; i < words.size(); ++i) {
    const Word& w = words[i];
    if (std::find(std::begin(kOthers), std::end(kOthers), w.lower) != std::end(kOthers)) return false;
    if (w.written.ends_with("'s") || w.written.ends_with("\xE2\x80\x99s")) return false;
    // "switched to Sonoma on the office iMac", "in a VM", "at work": another thing or place
    if (std::find(std::begin(kWhere), std::end(kWhere), w.lower) != std::end(kWhere) && i + 1 < words.size() &&
        std::find(std::begin(kOwners), std::end(kOwners), words[i + 1].lower) != std::end(kOwners)) {
      return false;
    }
  }
  return SaysTheSpeakerAsSubject(clause) || OpensWithAPastVerb(clause);
}

// True when `clause` (at `begin` of `turn`) is about `h`'s subject (kin_slot.h), or, for the
// speaker's claim, about the thing its value is for (`older_kin`: the value's kin words).
bool AboutTheSubject(std::string_view turn, const TurnClause& clause, const Claim& h, std::string_view speaker,
                     const std::vector<std::string>& older_kin, bool speakers_thing) {
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
  if (HasWord(words, head)) return !OwnedByAnother(words, head) && !AnotherOfItsKind(words, head, named);
  if (speakers_thing && SpeakerActs(clause.text, words)) return true;
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
    // (A verb of a lasting state says where one lives only with its span, which the grammar reads:
    // "I've been in Denver for three days" is a stay.)
    if (verb != nullptr && verb->target.attribute == predicate && !verb->lasting) return false;
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

// The value phrase around a name: its words [first, last] of the clause's, and its text.
struct ValueRun {
  size_t first = 0;
  size_t last = 0;
  std::string text;  // "" when the clause does not hold the name as a word
};

// The value phrase around the name `name` (folded) in `clause` (whose words are `words`): it and
// the name-like words written right beside it, at most four words.
ValueRun ValueAround(std::string_view clause, const std::vector<Word>& words, std::string_view name) {
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i].lower != name) continue;
    ValueRun run{i, i, ""};
    while (run.first > 0 && i - run.first < 3 && NameLike(words[run.first - 1])) --run.first;
    while (run.last + 1 < words.size() && run.last - run.first < 3 && NameLike(words[run.last + 1])) ++run.last;
    const size_t begin = static_cast<size_t>(words[run.first].written.data() - clause.data());
    const size_t end = static_cast<size_t>(words[run.last].written.data() - clause.data()) + words[run.last].written.size();
    run.text = std::string(clause.substr(begin, end - begin));
    return run;
  }
  return {};
}

// True when `value` opens with a verb of change or of use (markers.tsv `change`, `uses_before`:
// "installed Sonoma over", "switched to Zed"): a deed whose object is the new value, not a role
// of its own.
bool OpensWithAChange(std::string_view value) {
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  const std::string lowered = extraction::LowerAsciiBytes(value);
  for (std::string_view kind : {"change", "uses_before"}) {
    for (const extraction::PhraseHit& hit : lex.FindMarkers(lowered, kind)) {
      if (hit.begin == 0) return true;
    }
  }
  return false;
}

bool ADeedOfMoving(std::string_view value) {
  static constexpr std::string_view kMoving[] = {"unpacked", "unpacking", "moved", "moving", "settled", "settling"};
  const std::vector<Word> words = Words(value);
  if (words.empty() || std::find(std::begin(kMoving), std::end(kMoving), words.front().lower) == std::end(kMoving)) return false;
  return !std::any_of(words.begin(), words.end(), [](const Word& w) {
    return w.lower == "his" || w.lower == "her" || w.lower == "their" || w.lower == "your" || w.lower == "office";
  });
}

// True when a value the grammar read from the turn holds `name` (folded) as a word, but for a
// deed of change (OpensWithAChange) and the speaker's claim of `h`'s attribute where `h` is of a
// thing of the speaker's (SpeakersThing: "uses Sonoma" of "Finally switched to Sonoma" is the
// laptop's).
// In a message of moving home a deed of unpacking or moving of the speaker's own is one
// (`deeds_say_a_move`: "did: unpacked the last box in Tucson"; not "grabbed tacos in Tucson",
// "unpacked her last box in Tucson").
bool ReadBefore(const KinSlotTurn& turn, std::string_view name, const Claim& h, bool speakers_thing,
                bool deeds_say_a_move = false) {
  return std::any_of(turn.read_values.begin(), turn.read_values.end(), [&](const ReadClaim& read) {
    if (!HasWord(Words(read.value), name) || OpensWithAChange(read.value)) return false;
    if (deeds_say_a_move && (read.predicate == "did" || read.predicate == "doing") && ADeedOfMoving(read.value)) return false;
    return !(read.subject == turn.speaker && read.predicate == h.predicate && speakers_thing);
  });
}

// True when a word may stand between a subject and the value it holds now (kin_slot.h): a word
// of grammar, an adverb in -ly, or part of a copula, a verb of the lexicon or a marker of use,
// change, place, moving or linking (markers.tsv `links`: "runs on", "running").
std::vector<bool> LinkingWords(std::string_view clause, const std::vector<Word>& words) {
  static constexpr std::string_view kKinds[] = {"copula", "uses_before", "relocate", "placed", "change",
                                                "state_change", "now", "home_move", "links"};
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  const std::string lowered = extraction::LowerAsciiBytes(clause);
  std::vector<extraction::PhraseHit> hits = lex.FindVerbs(lowered);
  for (std::string_view kind : kKinds) {
    for (extraction::PhraseHit& hit : lex.FindMarkers(lowered, kind)) hits.push_back(std::move(hit));
  }
  std::vector<bool> linking;
  for (const Word& w : words) {
    const size_t at = static_cast<size_t>(w.written.data() - clause.data());
    const bool covered = std::any_of(hits.begin(), hits.end(), [&](const extraction::PhraseHit& hit) {
      return hit.begin <= at && at + w.written.size() <= hit.end;
    });
    linking.push_back(covered || text::IsEnglishStopword(w.lower) || (w.lower.size() > 4 && w.lower.ends_with("ly")));
  }
  return linking;
}

// True when the word at `after` (if any) ends the value's phrase: a word of grammar, "now" or
// "instead" ("running Sonoma now"); not a noun of another thing ("a Sonoma wallpaper").
bool EndsItsPhrase(const std::vector<Word>& words, size_t after) {
  static constexpr std::string_view kEnds[] = {"now", "instead", "nowadays", "lately", "full-time", "today", "yesterday",
                                               "tonight", "already", "finally", "officially", "again"};
  return after >= words.size() || text::IsEnglishStopword(words[after].lower) ||
         std::find(std::begin(kEnds), std::end(kEnds), words[after].lower) != std::end(kEnds);
}

bool Denies(const std::vector<Word>& words) {
  return std::any_of(words.begin(), words.end(), [](const Word& w) {
    return w.lower == "not" || w.lower == "no" || w.lower == "cannot" || w.lower.ends_with("n't");
  });
}

// The index after the last word before `first` that names the subject of `h` (a pronoun, the
// speaker, a word of its subject) or what its value is for (a word of its value but a word of
// grammar: "the orders service" of "MySQL for the orders service"), or 0.
size_t AfterTheSubject(const std::vector<Word>& words, size_t first, const Claim& h) {
  static constexpr std::string_view kPronouns[] = {"i", "i'm", "i've", "we", "we're", "we've", "my", "our",
                                                   "he", "she", "he's", "she's"};
  const std::vector<Word> subject = Words(h.subject);
  const std::vector<Word> value = Words(h.value);
  size_t from = 0;
  for (size_t i = 0; i < first; ++i) {
    const std::string& w = words[i].lower;
    if (std::find(std::begin(kPronouns), std::end(kPronouns), w) != std::end(kPronouns) || HasWord(subject, w) ||
        (!text::IsEnglishStopword(w) && HasWord(value, w))) {
      from = i + 1;
    }
  }
  return from;
}

// True when "in" or "at" stands right before the value (past an article): it names a place.
bool PlaceBefore(const std::vector<Word>& words, size_t from, size_t first) {
  size_t before = first;
  while (before > from && (words[before - 1].lower == "a" || words[before - 1].lower == "an" ||
                           words[before - 1].lower == "the")) {
    --before;
  }
  return before > 0 && (words[before - 1].lower == "in" || words[before - 1].lower == "at");
}

// True when the value `run` stands in `clause` (whose words are `words`) where the value of its
// subject's state stands, not as a word of another phrase or the object of another act
// (kin_slot.h): it ends its phrase (EndsItsPhrase), the clause denies nothing, and from the last
// word naming the subject (or the clause's start) to it stand only linking words (LinkingWords:
// "the laptop is running Sonoma", not "my laptop keeps nagging me to install Sonoma", "I'm now
// certified in PostgreSQL"); "in" or "at" right before it names a place, which only where one
// lives, works or studies is.
bool StandsAsTheValue(std::string_view clause, const std::vector<Word>& words, const ValueRun& run, const Claim& h) {
  if (!EndsItsPhrase(words, run.last + 1) || Denies(words)) return false;
  size_t from = AfterTheSubject(words, run.first, h);
  const std::vector<bool> linking = LinkingWords(clause, words);
  for (size_t i = from; i + 1 < run.first; ++i) {  // "Bit the bullet and installed Sonoma": the second verb's
    if (words[i].lower == "and" && linking[i + 1] && !text::IsEnglishStopword(words[i + 1].lower)) from = i + 1;
  }
  for (size_t i = from; i < run.first; ++i) {
    if (!linking[i]) return false;
  }
  const bool place = h.predicate == "lives_in" || h.predicate == "employer" || h.predicate == "school";
  return place || !PlaceBefore(words, from, run.first);
}

// The older claims a kin value may replace: current, affirmed, said before, of an attribute a
// change of kind replaces.
Result<std::vector<sqlite::StoredClaim>> OlderSlots(sqlite::ClaimStore& store, int64_t namespace_id, TimestampMs said_at) {
  auto recent = store.RecentCurrent(namespace_id, kKinSlotLookback);
  if (!recent) return Error(recent.error());
  std::vector<sqlite::StoredClaim> out;
  for (sqlite::StoredClaim& held : *recent) {
    const Claim& h = held.claim;
    if (held.negated || h.status != "active" || h.valid_from >= said_at || !KinReplaceable(h.predicate)) continue;
    out.push_back(std::move(held));
  }
  return out;
}

// True when the claim stored at `seq` was read from what `speaker` said (its first supporting
// evidence's speaker, else its role, as KinSlotTurn::speaker is given).
Result<bool> SaidBy(sqlite::ClaimStore& store, int64_t seq, std::string_view speaker) {
  auto loaded = store.GetBySeqs({seq});
  if (!loaded) return Error(loaded.error());
  if (loaded->empty()) return false;
  for (const EvidenceRef& e : loaded->front().evidence) {
    if (e.relation == "supports") return (e.speaker.empty() ? e.role : e.speaker) == speaker;
  }
  return false;
}

// A clause that states how things stand now, with its kin words (KinLookup::words, sorted) and
// those of them the turn writes as names.
struct StatingClause {
  TurnClause clause;
  std::vector<std::string> said;
  std::vector<std::string> names;
};

// An older claim's kin words: of its value (at most kMaxKinWords), of its statement, and those its
// statement writes as names.
struct OlderKin {
  std::vector<std::string> value;
  std::vector<std::string> statement;
  std::vector<std::string> names;
  bool speakers_thing = false;  // of a thing of the side of the turn's speaker (SpeakersThing, said by them)
};

// The claim of `h`'s subject and slot whose value is now `value`, said in `evidence` of `turn`: a
// change that replaces `h`'s value.
extraction::CandidateClaim NewValueOf(const Claim& h, const KinSlotTurn& turn, std::string value, std::string_view evidence) {
  extraction::CandidateClaim c;
  c.subject = h.subject;
  c.predicate = h.predicate;
  c.slot = h.slot;
  c.value = std::move(value);
  c.qualifiers = h.qualifiers;
  c.scope = h.scope;
  c.confidence = 0.6;
  c.source_events = {turn.source_event};
  c.evidence_span = std::string(evidence);
  c.replaces_value = h.value;
  c.change = true;
  c.text = extraction::EnglishStatement(c, h.subject);
  return c;
}

// The candidate of `clause` in `h`'s slot, or nullopt (kin_slot.h).
std::optional<extraction::CandidateClaim> SlotCandidate(const Claim& h, const OlderKin& older,
                                                        const KinSlotTurn& turn, const StatingClause& stating,
                                                        const KinLookup& kin) {
  const TurnClause& clause = stating.clause;
  auto is_said = [&](const std::string& w) { return std::binary_search(stating.said.begin(), stating.said.end(), w); };
  // A clause that names the older value's name again compares the two, or restates it.
  for (const std::string& w : older.value) {
    if (is_said(w) && std::binary_search(older.names.begin(), older.names.end(), w)) return std::nullopt;
  }
  std::vector<std::string> unsaid = older.value;
  std::erase_if(unsaid, is_said);
  if (unsaid.empty()) return std::nullopt;
  if (!AboutTheSubject(turn.text, clause, h, turn.speaker, older.value, older.speakers_thing) ||
      LacksItsVerb(h.predicate, clause.text)) {
    return std::nullopt;
  }
  for (const std::string& name : stating.names) {
    if (std::binary_search(older.statement.begin(), older.statement.end(), name) || !kin.kin(unsaid, {name})) continue;
    const std::vector<Word> words = Words(clause.text);
    const ValueRun run = ValueAround(clause.text, words, name);
    if (run.text.empty() || ReadBefore(turn, name, h, older.speakers_thing) || !StandsAsTheValue(clause.text, words, run, h)) continue;
    return NewValueOf(h, turn, run.text, clause.text);
  }
  return std::nullopt;
}

// True when `text` holds a word of a stay (markers.tsv `stay`: "visiting", "hotel", "for the
// week", "trip"): a place it names is where the speaker is for a while, not a home.
bool SpeaksOfAStay(std::string_view text) {
  return extraction::Lexicon::Get().HasMarker(extraction::LowerAsciiBytes(text), "stay");
}

// True when `words` (a clause) hold, right before `at`, the speaker's own move: "the move", "my
// move", "our relocation" opening the clause, or the bare noun or verb opening it ("Moving to
// Leeds went fine"), then "to" or "into" — not "Jake's move", "the office move", "Congrats to Priya
// on the move", "telling me to move" (an adversarial review).
bool SpeakersMoveBefore(const std::vector<Word>& words, size_t at) {
  static constexpr std::string_view kMoving[] = {"move", "moving", "relocation", "relocating"};
  if (at < 2 || (words[at - 1].lower != "to" && words[at - 1].lower != "into")) return false;
  if (std::find(std::begin(kMoving), std::end(kMoving), words[at - 2].lower) == std::end(kMoving)) return false;
  if (at == 2) return true;
  const std::string& owner = words[at - 3].lower;
  return at == 3 && (owner == "the" || owner == "my" || owner == "our");
}

// True when a word of unpacking or the movers (markers.tsv `home_move`, these only: "boxes",
// "the lease" and "new home" are said of storage and printers too) stands in `clause`.
bool SaysUnpackingOrMovers(std::string_view clause) {
  static constexpr std::string_view kWords[] = {"movers", "unpacking", "unpacked", "moving truck", "moving day"};
  const std::string lowered = extraction::LowerAsciiBytes(clause);
  for (const extraction::PhraseHit& hit : extraction::Lexicon::Get().FindMarkers(lowered, "home_move")) {
    if (std::find(std::begin(kWords), std::end(kWords), hit.phrase) != std::end(kWords)) return true;
  }
  return false;
}

// True when `clause` names a time away from when it was said (`said_at`): ahead of that day ("The
// move to Denver is next month": a plan) or half a year or more before it ("the move to Denver in
// 2019": a move long past). (A date whose year was implied may be the one just past:
// text/time_expression.h.)
bool NamesAnotherTime(std::string_view clause, TimestampMs said_at) {
  constexpr TimestampMs kDayMs = 24LL * 60 * 60 * 1000;
  for (const text::TimeMention& m : text::FindTimeMentions(clause, said_at)) {
    if (!m.year_implied && m.start > said_at + kDayMs) return true;
    if (m.end < said_at - 182 * kDayMs) return true;
  }
  return false;
}

// The speaker's new home named in a message of moving home, kin to the older home `h` (kin_slot.h):
// in a clause that is no question, says how things stand now (not a plan, wish, quotation, hedge,
// narrated past or a stay with its end), names no other time, no one else through the speaker, and
// denies nothing, the kin name stands right after the speaker's move and "to" ("the move to
// Bristol has eaten my whole week"), or after "in" in a clause of unpacking or the movers ("the
// movers dropped the last boxes off in Raleigh"); the message names no stay.
std::optional<extraction::CandidateClaim> HomeCandidate(const Claim& h, const OlderKin& older, const KinSlotTurn& turn,
                                                        const KinLookup& kin) {
  if (h.predicate != "lives_in" || h.subject != turn.speaker || SpeaksOfAStay(turn.text)) return std::nullopt;
  // A message naming someone else through the speaker may tell of their move ("Helped my sister
  // unpack; … we unpacked the last box in Tucson"); one naming the older home still goes there
  // ("…the commute from Denver is rough").
  for (const std::string& topic : extraction::StatementTopics(turn.text)) {
    if (text::IsOtherPersonTopic(topic)) return std::nullopt;
  }
  const std::vector<std::string> said = kin.words(turn.text);
  for (const std::string& w : older.value) {
    if (std::binary_search(said.begin(), said.end(), w)) return std::nullopt;
  }
  for (const auto& [begin, end] : ClauseSpans(turn.text)) {
    const std::string_view clause = turn.text.substr(begin, end - begin);
    const std::string_view sentence = SentenceAround(turn.text, begin, end);
    const auto elsewhen = [](text::NowStance stance) {
      return stance == text::NowStance::kNotNow || stance == text::NowStance::kBounded;
    };
    // (The sentence's too: "Back when I was a kid, the move to Denver was rough.")
    if (sentence.ends_with("?") || elsewhen(extraction::ReadNowStance(clause)) || elsewhen(extraction::ReadNowStance(sentence))) continue;
    if (SaysWhatMayBe(clause) || SentenceSaysItIsNot(sentence) || NamesAnotherTime(clause, turn.said_at)) continue;
    const std::vector<std::string> topics = extraction::StatementTopics(clause);
    if (std::any_of(topics.begin(), topics.end(), [](const std::string& t) { return text::IsOtherPersonTopic(t); })) continue;
    const std::vector<Word> words = Words(clause);
    if (Denies(words)) continue;
    const bool unpacking = SaysUnpackingOrMovers(clause);
    for (const std::string& name : kin.names(clause)) {
      if (std::binary_search(older.statement.begin(), older.statement.end(), name) || !kin.kin(older.value, {name})) continue;
      const ValueRun run = ValueAround(clause, words, name);
      // (Its phrase ends there: "Moving into Denver traffic" names traffic.)
      if (run.text.empty() || ReadBefore(turn, name, h, older.speakers_thing, /*deeds_say_a_move=*/true) || !EndsItsPhrase(words, run.last + 1)) continue;
      const bool after_in = run.first > 0 && words[run.first - 1].lower == "in" &&
                            !(run.first >= 2 && words[run.first - 2].lower == "somewhere");  // a place passed
      if (!SpeakersMoveBefore(words, run.first) && !(unpacking && after_in)) continue;
      return NewValueOf(h, turn, run.text, clause);
    }
  }
  return std::nullopt;
}

// True when a word of `clause` past its first opens with an ASCII capital: it may hold a name.
bool MayHoldAName(std::string_view clause) {
  const std::vector<Word> words = Words(clause);
  return std::any_of(words.begin() + (words.empty() ? 0 : 1), words.end(),
                     [](const Word& w) { return std::isupper(static_cast<unsigned char>(w.written.front())) != 0; });
}

// The clauses of `text` that state how things stand now and hold a word the turn writes as a name.
std::vector<StatingClause> NamingClauses(std::string_view text, const KinLookup& kin) {
  std::vector<StatingClause> out;
  std::vector<TurnClause> clauses = StatingClauses(text);
  std::erase_if(clauses, [](const TurnClause& c) { return !MayHoldAName(c.text); });
  if (clauses.empty()) return out;
  // (No clause stating a change with a capital in it, no word vectors read: most turns stop above.)
  const std::vector<std::string> names = kin.names(text);
  if (names.empty()) return out;
  for (const TurnClause& clause : clauses) {
    StatingClause stating{clause, kin.words(clause.text), {}};
    for (const std::string& w : stating.said) {
      if (std::binary_search(names.begin(), names.end(), w)) stating.names.push_back(w);
    }
    if (!stating.names.empty()) out.push_back(std::move(stating));
  }
  return out;
}

}  // namespace

std::vector<ReadClaim> ReadValues(const std::vector<extraction::CandidateClaim>& candidates, size_t event) {
  std::vector<ReadClaim> values;
  for (const extraction::CandidateClaim& c : candidates) {
    if (c.successor_only || c.predicate == "explicit_memory" || c.predicate == extraction::kPredicateStatement) continue;
    if (!c.source_events.empty() && c.source_events.front() == event) values.push_back({c.subject, c.predicate, c.value});
  }
  return values;
}

Result<std::vector<extraction::CandidateClaim>> KinSlotCandidates(sqlite::ClaimStore& store, int64_t namespace_id,
                                                                  const KinSlotTurn& turn, const KinLookup& kin) {
  std::vector<extraction::CandidateClaim> out;
  if (!kin.Available()) return out;
  // The older claims first: a namespace with none of them maps no word vectors.
  auto olders = OlderSlots(store, namespace_id, turn.said_at);
  if (!olders) return Error(olders.error());
  if (olders->empty()) return out;
  const std::vector<StatingClause> clauses = NamingClauses(turn.text, kin);
  const bool moves_home = extraction::Lexicon::Get().HasMarker(extraction::LowerAsciiBytes(turn.text), "home_move");
  if (clauses.empty() && !moves_home) return out;  // most turns: no word vectors read
  for (const sqlite::StoredClaim& held : *olders) {
    const Claim& h = held.claim;
    OlderKin older{kin.words(h.value), kin.words(h.text), kin.names(h.text)};
    if (older.value.empty() || older.value.size() > kMaxKinWords) continue;
    if (SpeakersThing(h.subject)) {
      auto said_by = SaidBy(store, held.seq, turn.speaker);
      if (!said_by) return Error(said_by.error());
      older.speakers_thing = *said_by;
    }
    std::optional<extraction::CandidateClaim> c;
    for (const StatingClause& clause : clauses) {
      if ((c = SlotCandidate(h, older, turn, clause, kin))) break;
    }
    if (!c && moves_home) c = HomeCandidate(h, older, turn, kin);
    if (c) out.push_back(std::move(*c));
  }
  return out;
}

}  // namespace engram
