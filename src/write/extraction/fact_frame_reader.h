// write/extraction/fact_frame_reader.h — the grammar of the rule extractor: reads fact frames
// (fact_frame.h) from English and Chinese sentences. The grammar knows how a clause is built —
// kind markers first, then a subject (a pronoun, a possessive, a name, an identifier such as
// "component-00", the object of a change verb), parts of the subject ("blue 部署", "实例 node-a"),
// an attribute (named by a word, a verb, or by the value itself), a copula or change verb, and a
// value ("from A to B", "B instead of A", a version, a word of a value set). Every word it
// matches comes from the lexicon (lexicon.h, data/lexicon/*.tsv).
//
// Thread safety: pure functions over the immutable lexicon; safe from any thread.
#ifndef ENGRAM_WRITE_EXTRACTION_FACT_FRAME_READER_H_
#define ENGRAM_WRITE_EXTRACTION_FACT_FRAME_READER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "write/extraction/fact_frame.h"
#include "write/extraction/rule_sentences.h"

namespace engram::extraction {

// The byte ranges of `content` that may be evidence: everything but de-identified context
// headers (a line with a context_open marker, up to and including the line with the
// context_close marker, or to the end). Sorted, non-overlapping.
std::vector<rules::Span> EvidenceRanges(std::string_view content);

// What the reader carries from one sentence to the next within an event: the last person named
// (for "he", "she", "他", "她").
struct FrameContext {
  FrameSubject person_kind = FrameSubject::kSpeaker;
  std::string person;  // "" = none yet
  // A name the current sentence gave as a subject with no event of a person's life: whom a "he" /
  // "she" later in the same sentence means ("Priya took a job out west and she's settled in
  // Vancouver"), not one of the next sentence ("Monday was rough. She moved…").
  std::string sentence_person;  // "" = none; only for the clause right after the one that named it
  bool sentence_person_fresh = false;  // set by the clause just read
  // The subject of the previous sentence when it ended with ";" / "；" (the next clause goes on
  // about it: "X 的 API 服务 当前 healthy；worker 进程 当前 running").
  FrameSubject open_kind = FrameSubject::kSpeaker;
  std::string open_subject;
  bool open = false;
  // The last frame read (of this speaker, within the batch): a bare correction ("不对，是上海",
  // "No wait, it's Porto") corrects it.
  std::optional<FactFrame> last;
  // The previous sentence said a correction and read no value ("I gave you the wrong plate."):
  // the next sentence's first clause says the corrected value ("It's KJ7-4402").
  bool correction_pending = false;
};

struct SentenceReading {
  std::vector<FactFrame> frames;  // in text order
  // The grammar decided what this sentence says: it gave frames, or it is a question, a wish or a
  // quotation (which make no claim of the speaker's). Other extractors must not read it again.
  bool settled = false;
};

// `text` with its ASCII letters lowered and every other byte kept (offsets stay valid).
std::string LowerAsciiBytes(std::string_view text);

// Frames of one sentence (`sentence` is a span of `content`; `lowered` = LowerAsciiBytes(content);
// `times` the sorted time mentions of the content, never part of a value). Offsets in the frames
// are offsets into `content`.
SentenceReading ReadSentenceFrames(std::string_view content, std::string_view lowered,
                                   const rules::Sentence& sentence, const std::vector<rules::Span>& times,
                                   FrameContext* context);

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_FACT_FRAME_READER_H_
