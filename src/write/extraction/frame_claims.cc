#include "write/extraction/frame_claims.h"

#include <algorithm>

#include "write/extraction/claim_text.h"
#include "write/extraction/lexicon.h"

namespace engram::extraction {

std::vector<std::string> KindQualifiers(ClauseKind kind) {
  switch (kind) {
    case ClauseKind::kPlan:
      return {kQualPlanned};
    case ClauseKind::kRequirement:
      return {kQualRequired};
    case ClauseKind::kQuotation:
      return {kQualReported};
    case ClauseKind::kHypothetical:
      return {kQualHypothetical};
    case ClauseKind::kNegated:
      return {kQualNegated};
    case ClauseKind::kPast:
      return {kQualPast};
    case ClauseKind::kFact:
    case ClauseKind::kChange:
    case ClauseKind::kQuestion:
      return {};
  }
  return {};
}

namespace {

double ImportanceOfScope(const std::string& scope) {
  if (scope == "identity") return 0.8;
  if (scope == "preference" || scope == "state") return 0.6;
  return 0.5;
}

// How the subject reads: the speaker's name, "Lin's husband" for "my husband" said by Lin.
std::string SubjectDisplay(const FactFrame& f, const std::string& speaker, bool chinese) {
  if (f.subject_kind == FrameSubject::kSpeaker) return speaker;
  if (f.subject_kind == FrameSubject::kNamed) return f.subject;
  for (std::string_view mine : {"my ", "My ", "our ", "Our ", "我们的", "我的", "我们", "我"}) {
    if (f.subject.rfind(mine, 0) == 0) {
      return speaker + (chinese ? "的" : "'s ") + f.subject.substr(mine.size());
    }
  }
  return f.subject;
}

}  // namespace

CandidateClaim FrameToCandidate(const FactFrame& f, const std::string& speaker, bool chinese) {
  CandidateClaim c;
  c.subject = f.subject_kind == FrameSubject::kSpeaker ? speaker : f.subject;
  // Without an attribute: a correction takes the corrected claim's (claim_writer.h); a change that
  // names what it replaces, that value's ("green tea instead of coffee").
  c.predicate = !f.attribute.empty() ? f.attribute : f.correction ? "corrects" : "uses";
  c.slot = f.slot;
  c.value = f.value;
  c.replaces_value = f.replaces;
  c.correction = f.correction;
  c.change = f.kind == ClauseKind::kChange;
  c.subject_unsaid = f.subject_unsaid;
  c.qualifiers = KindQualifiers(f.kind);
  if (f.negated) c.qualifiers.push_back(kQualNegated);
  if (f.temporary) c.qualifiers.push_back(kQualTemporary);
  if (f.usual && !f.temporary) c.qualifiers.push_back(kQualHabitual);
  std::string where;
  for (const auto& [key, value] : f.coordinates) {
    c.qualifiers.push_back(key + kCoordinateSeparator + value);
    where += (where.empty() ? "" : ", ") + key + " " + value;
  }
  std::sort(c.qualifiers.begin(), c.qualifiers.end());
  c.qualifiers.erase(std::unique(c.qualifiers.begin(), c.qualifiers.end()), c.qualifiers.end());
  const AttributeInfo* info = Lexicon::Get().Attribute(c.predicate);
  c.scope = info != nullptr ? info->scope : "state";
  c.importance = ImportanceOfScope(c.scope);
  c.confidence = f.kind == ClauseKind::kFact || f.kind == ClauseKind::kChange ? 0.85 : 0.6;
  std::string display = SubjectDisplay(f, speaker, chinese);
  c.text = chinese ? ChineseStatement(c, display) : EnglishStatement(c, display);
  if (!where.empty()) c.text += chinese ? "（" + where + "）" : " (" + where + ")";
  if (f.kind != ClauseKind::kFact && f.kind != ClauseKind::kChange) {
    c.text += chinese ? "（" + std::string(ClauseKindName(f.kind)) + "）"
                      : " [" + std::string(ClauseKindName(f.kind)) + "]";
  }
  return c;
}

}  // namespace engram::extraction
