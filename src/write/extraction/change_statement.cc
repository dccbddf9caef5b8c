#include "write/extraction/change_statement.h"

#include <string>

#include "write/extraction/lexicon.h"
#include "write/extraction/rule_sentences.h"

namespace engram::extraction {
namespace {

// Kinds of clause about another time or mind: they never say how things stand now.
constexpr std::string_view kOtherTimeOrMind[] = {"plan", "hypothetical", "quotation", "requirement", "uncertain"};
// Markers that say a state changed or how it stands now.
constexpr std::string_view kChangeKinds[] = {"change", "state_change", "correction", "temporary", "now"};

bool HasMarker(const Lexicon& lex, std::string_view lowered, std::string_view kind) {
  return !lex.FindMarkers(lowered, kind).empty();
}

bool HasChangeVerb(const Lexicon& lex, std::string_view lowered) {
  for (const PhraseHit& hit : lex.FindVerbs(lowered)) {
    const VerbEntry* verb = lex.Verb(hit.phrase);
    if (verb != nullptr && verb->change) return true;
  }
  return false;
}

// The sentence ends with 了, alone or before a final particle (啦 呀 哦 吧 呢 嘛 哈), once
// trailing punctuation and space are cut: 了 there marks a new situation, not a completed act.
bool EndsWithNewSituationLe(std::string_view sentence) {
  static constexpr std::string_view kLe = "了";
  static constexpr std::string_view kParticles[] = {"啦", "呀", "哦", "吧", "呢", "嘛", "哈"};
  size_t end = sentence.size();
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(sentence[start]) & 0xC0) == 0x80) --start;
    char32_t cp = 0;
    size_t len = 0;
    if (!rules::DecodeUtf8(sentence, start, &cp, &len) || !(rules::IsPunctChar(cp) || rules::IsSpaceChar(cp))) break;
    end = start;
  }
  std::string_view body = sentence.substr(0, end);
  for (std::string_view particle : kParticles) {
    if (body.ends_with(particle)) {
      body.remove_suffix(particle.size());
      break;
    }
  }
  return body.ends_with(kLe);
}

NowStance SentenceStance(const Lexicon& lex, std::string_view sentence, bool question) {
  if (question) return NowStance::kNotNow;
  const std::string lowered = rules::LowerAscii(sentence);
  for (std::string_view kind : kOtherTimeOrMind) {
    if (HasMarker(lex, lowered, kind)) return NowStance::kNotNow;
  }
  const bool past = HasMarker(lex, lowered, "past");
  if (past && !HasMarker(lex, lowered, "now")) return NowStance::kNotNow;
  for (std::string_view kind : kChangeKinds) {
    if (HasMarker(lex, lowered, kind)) return NowStance::kChange;
  }
  if (HasChangeVerb(lex, lowered) || EndsWithNewSituationLe(sentence)) return NowStance::kChange;
  return HasMarker(lex, lowered, "negated") ? NowStance::kNotNow : NowStance::kPlain;
}

}  // namespace

NowStance ReadNowStance(std::string_view text) {
  const Lexicon& lex = Lexicon::Get();
  bool any = false, all_not_now = true;
  for (const rules::Sentence& s : rules::SplitSentences(text)) {
    const NowStance stance = SentenceStance(lex, rules::SpanText(text, s.span), s.question);
    if (stance == NowStance::kChange) return NowStance::kChange;
    any = true;
    all_not_now = all_not_now && stance == NowStance::kNotNow;
  }
  return any && all_not_now ? NowStance::kNotNow : NowStance::kPlain;
}

}  // namespace engram::extraction
