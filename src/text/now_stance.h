// text/now_stance.h — what a statement says of how things stand now. The extractor's grammar
// reads it (write/extraction/change_statement.h); recall's current-first order uses it
// (recall/current_first.h). A header of its own so that neither layer depends on the other.
#ifndef ENGRAM_TEXT_NOW_STANCE_H_
#define ENGRAM_TEXT_NOW_STANCE_H_

namespace engram::text {

enum class NowStance {
  kPlain,      // says how something is, with no word of change ("I live in Munich")
  kChange,     // some sentence states a change or how things stand now ("I've moved to Porto")
  kTemporary,  // a change said to last a while only ("switching to light mode for a while")
  // A state said with its end or a short span ("Lena's covering on-call till Monday", "for the
  // next few days, reach me at 555-0199"): how things stand at present, not what they are — it
  // answers a question that names the present ("Who's on call right now?"), not "what is my phone
  // number?". Recall maps it to kTemporary or kNotNow by the question (recall.cc, ForTheQuestion).
  kBounded,
  kNotNow,     // every sentence is about another time or mind, a question or a denial
};

// kChange or kTemporary: the statement says how things stand now, differently from before (kBounded
// only once a question has made it kTemporary).
inline bool SaysAChange(NowStance stance) {
  return stance == NowStance::kChange || stance == NowStance::kTemporary;
}

}  // namespace engram::text

#endif  // ENGRAM_TEXT_NOW_STANCE_H_
