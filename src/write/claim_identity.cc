#include "write/claim_identity.h"

#include <unicode/regex.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <memory>

#include "util/hash.h"
#include "util/normalize.h"
#include "write/extraction/lexicon.h"

namespace engram {

PredicateRegistry::PredicateRegistry()
    : single_valued_{"name", "age", "birthday", "hometown", "lives_in", "job",
                     "employer", "school", "favorite", "uses"} {
  for (const std::string& attribute : extraction::Lexicon::Get().SingleValuedAttributes()) {
    single_valued_.insert(attribute);
  }
}

bool PredicateRegistry::IsSingleValued(std::string_view predicate, std::string_view slot) const {
  if (predicate == "has_relation") {
    static const std::set<std::string, std::less<>> kSpouse = {
        "wife", "husband", "spouse", "partner", "妻子", "丈夫", "老婆", "老公", "爱人"};
    if (kSpouse.count(NormalizeKey(slot)) > 0) return true;
    const std::vector<std::string>& roles = extraction::Lexicon::Get().Markers("role_relation");
    return std::find(roles.begin(), roles.end(), NormalizeKey(slot)) != roles.end();  // "manager"
  }
  const extraction::Lexicon& lex = extraction::Lexicon::Get();
  if (lex.Attribute(predicate) != nullptr) return lex.IsSingleValued(predicate, slot);
  return single_valued_.count(predicate) > 0;
}

bool StatesCurrentValue(const extraction::CandidateClaim& c) {
  for (const char* q : {extraction::kQualNegated, extraction::kQualPlanned, extraction::kQualPast,
                        extraction::kQualReported, extraction::kQualHypothetical, extraction::kQualRequired}) {
    if (std::find(c.qualifiers.begin(), c.qualifiers.end(), q) != c.qualifiers.end()) return false;
  }
  return true;
}

std::string NormalizeValue(std::string_view value) {
  std::string v = NormalizeKey(value);
  bool moved = true;
  while (moved) {
    moved = false;
    for (std::string_view article : {"a ", "an ", "the ", "my ", "our ", "his ", "her ", "their ", "我的", "我们的"}) {
      if (v.size() > article.size() && v.compare(0, article.size(), article) == 0) {
        v.erase(0, article.size());
        moved = true;
      }
    }
  }
  return v;
}

std::string SubjectKey(std::string_view subject) {
  std::string k = NormalizeKey(subject);
  // 我的姐姐 → 我姐姐; 我姐 → 我姐姐: one relative, said short or doubled (我妈, 我妈妈).
  static constexpr std::string_view kMine = "我", kMyOf = "我的";
  if (k.starts_with(kMyOf) && k.size() > kMyOf.size()) k.erase(kMine.size(), kMyOf.size() - kMine.size());
  static constexpr std::string_view kDoubled[] = {"姐", "哥", "弟", "妹", "妈", "爸"};
  for (std::string_view kin : kDoubled) {
    if (k.size() == kMine.size() + kin.size() && k.starts_with(kMine) && k.ends_with(kin)) {
      k += kin;
      break;
    }
  }
  return k;
}

ClaimKeys ComputeClaimKeys(const extraction::CandidateClaim& c, const PredicateRegistry& registry) {
  ClaimKeys keys;
  keys.negated = std::find(c.qualifiers.begin(), c.qualifiers.end(),
                           std::string(extraction::kQualNegated)) != c.qualifiers.end();
  keys.topic_key = SubjectKey(c.subject) + "|" + c.predicate + "|" + NormalizeKey(c.slot);
  std::vector<std::string> coordinates;
  for (const std::string& q : c.qualifiers) {
    if (q.find(extraction::kCoordinateSeparator) != std::string::npos) coordinates.push_back(NormalizeKey(q));
  }
  std::sort(coordinates.begin(), coordinates.end());
  for (const std::string& q : coordinates) keys.topic_key += "|" + q;
  // Only a fact or a change claims the slot: a plan, a requirement, a report, a wish, a denial or
  // a narrated past never replaces its current value (they still flip their own value, below).
  if (registry.IsSingleValued(c.predicate, c.slot) && StatesCurrentValue(c)) keys.conflict_key = keys.topic_key;
  keys.polarity_key = keys.topic_key + "|" + NormalizeValue(c.value);
  keys.fact_hash = ContentHash(keys.polarity_key + (keys.negated ? "|not" : "|is"));
  return keys;
}

namespace {

// Lowercase words of `text`; runs of CJK characters become their character bigrams.
std::set<std::string> Words(std::string_view text) {
  std::set<std::string> out;
  icu::UnicodeString s = icu::UnicodeString::fromUTF8(
      icu::StringPiece(NormalizeKey(text)));
  icu::UnicodeString word;
  UChar32 prev_cjk = -1;
  auto flush = [&] {
    if (!word.isEmpty()) {
      std::string w;
      word.toUTF8String(w);
      out.insert(w);
      word.remove();
    }
  };
  for (int32_t i = 0; i < s.length();) {
    UChar32 c = s.char32At(i);
    i += U16_LENGTH(c);
    UScriptCode script = uscript_getScript(c, nullptr);
    bool cjk = script == USCRIPT_HAN || script == USCRIPT_HIRAGANA || script == USCRIPT_KATAKANA ||
               script == USCRIPT_HANGUL;
    if (cjk) {
      flush();
      if (prev_cjk >= 0) {
        icu::UnicodeString bigram;
        bigram.append(prev_cjk).append(c);
        std::string b;
        bigram.toUTF8String(b);
        out.insert(b);
      } else {
        icu::UnicodeString uni(c);
        std::string u;
        uni.toUTF8String(u);
        out.insert(u);
      }
      prev_cjk = c;
      continue;
    }
    prev_cjk = -1;
    if (u_isalnum(c)) {
      word.append(c);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

}  // namespace


namespace {

double WordSimilarity(const std::set<std::string>& wa, const std::set<std::string>& wb) {
  if (wa.empty() || wb.empty()) return wa == wb ? 1.0 : 0.0;
  size_t common = 0;
  for (const auto& w : wa) common += wb.count(w);
  double jaccard = static_cast<double>(common) / static_cast<double>(wa.size() + wb.size() - common);
  bool contained = common == std::min(wa.size(), wb.size());
  return contained ? std::max(jaccard, 0.8) : jaccard;
}

constexpr double kNearCopySimilarity = 0.8;

// The runs of ASCII digits of `text`, in order: "3 月 5 号" and "5 月 3 号" hold the same numbers
// (equal protected atoms, a set) but are two dates.
std::vector<std::string> NumbersInOrder(std::string_view text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] < '0' || text[i] > '9') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    out.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return out;
}

}  // namespace

double ValueSimilarity(std::string_view a, std::string_view b) { return WordSimilarity(Words(a), Words(b)); }


bool IsNearCopy(std::string_view a, std::string_view b) {
  return ValueSimilarity(a, b) >= kNearCopySimilarity && ProtectedAtoms(a) == ProtectedAtoms(b) &&
         NumbersInOrder(a) == NumbersInOrder(b);
}

NearCopyOf::NearCopyOf(std::string_view value) : value_(value), words_(Words(value)) {}

bool NearCopyOf::Matches(std::string_view other) const {
  if (WordSimilarity(Words(other), words_) < kNearCopySimilarity) return false;
  if (!atoms_) atoms_ = ProtectedAtoms(value_);
  return ProtectedAtoms(other) == *atoms_ && NumbersInOrder(other) == NumbersInOrder(value_);
}

}  // namespace engram
