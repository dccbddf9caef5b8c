// write/extraction/fact_frame.h — the fact frame: what one clause says, independent of how it was
// worded. Both extractors produce it (the rule extractor from the grammar of fact_frame_reader.h,
// the LLM extractor from the model's JSON) and both turn it into a CandidateClaim with
// FrameToCandidate (frame_claims.h), so one identity and conflict code serves both.
#ifndef ENGRAM_WRITE_EXTRACTION_FACT_FRAME_H_
#define ENGRAM_WRITE_EXTRACTION_FACT_FRAME_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::extraction {

// What kind of statement a clause is. Only kFact and kChange may change the current state; the
// others become claims with a qualifier that keeps them out of every conflict.
enum class ClauseKind {
  kFact,          // "component-00 当前版本是 v1.0", "I live in Lisbon"
  kChange,        // "I moved from Lisbon to Porto", "已回滚", "is now", "switched to"
  kPlan,          // "计划下周把 X 升级到 v2.0", "I'm going to ..."
  kRequirement,   // "X 必须保持 v2.0", "must", "不得"
  kQuotation,     // "文档写道：…", "according to ..."
  kHypothetical,  // "要是哪天能去厦门定居就好了", "I wish ..."
  kQuestion,      // never a claim
  kNegated,       // "I've never lived in London", "并不是 running 状态"
  kPast,          // narrated past: "I used to live in Boston", "历史记录：2024 年时 …"
};

// "fact", "change", "plan", "requirement", "quotation", "hypothetical", "question", "negated",
// "past"; ParseClauseKind is its inverse (false for an unknown name).
std::string_view ClauseKindName(ClauseKind kind);
bool ParseClauseKind(std::string_view name, ClauseKind* kind);

enum class FrameSubject {
  kSpeaker,   // the speaker of the event ("I", "我", "we", a subject-less clause)
  kNamed,     // a named person or thing: `subject` is its name ("Priya", "component-00", "API")
  kRelative,  // someone named through the speaker: `subject` is the phrase ("my husband")
};

struct FactFrame {
  ClauseKind kind = ClauseKind::kFact;
  FrameSubject subject_kind = FrameSubject::kSpeaker;
  std::string subject;    // "" for kSpeaker
  std::string attribute;  // normalised attribute (data/lexicon/attributes.tsv), "version"
  std::string slot;       // sub-key ("ui_theme"), or ""
  std::string value;      // verbatim from the text
  std::string replaces;   // the value it replaces when the text says so ("from Lisbon",
                          // "instead of coffee", "not Monday"), or ""
  // Qualifiers that are part of the fact's identity, sorted: {"deployment", "blue"},
  // {"instance", "node-a"}, {"when", "on fridays"}.
  std::vector<std::pair<std::string, std::string>> coordinates;
  bool negated = false;     // the fact is denied or ended ("sold", "no longer", "不再")
  bool temporary = false;   // "for a while", "暂时"
  bool usual = false;       // "usually", "平时": the claim is qualified habitual
  bool correction = false;  // "actually", "不对": supersedes with the correction as its reason
  // A thing's attribute said with no thing named ("bumped it to 3.12", "现在是 1.29"): the claim
  // writer resolves the subject against what was said before (CandidateClaim::subject_unsaid).
  bool subject_unsaid = false;
  // Byte offsets into the text given to the reader: the clause and the value.
  size_t clause_begin = 0, clause_end = 0;
  size_t value_begin = 0, value_end = 0;
};

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_FACT_FRAME_H_
