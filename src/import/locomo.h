// import/locomo.h — reads the LoCoMo long-conversation benchmark (Maharana et al., ACL 2024) and
// turns a conversation into engram events.
//
// Input format: a JSON list of samples as in snap-research/LoCoMo `data/locomo10.json`; see
// ../shared/reference/benchmarks.md §1.2 for the layout and its pitfalls, all handled here:
//   * sessions are the existing `session_<N>` keys (some files carry more `session_<N>_date_time`
//     keys than sessions), ordered by N;
//   * `answer` may be a string, a number (`2022`) or absent (category 5 carries
//     `adversarial_answer` instead);
//   * evidence strings may be malformed ("D8:6; D9:17", "D:11:26", "D30:05") or name turns that do
//     not exist; they are normalised to `D<s>:<t>` and filtered (see LocomoQuestion::evidence).
//
// Thread safety: free functions over values; safe to call from any thread.
#ifndef ENGRAM_SRC_IMPORT_LOCOMO_H_
#define ENGRAM_SRC_IMPORT_LOCOMO_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::import {

// One dialogue turn (`{"speaker", "dia_id", "text", "img_url"?, "blip_caption"?, "query"?}`).
struct LocomoTurn {
  std::string dia_id;  // normalised "D<session>:<turn>" (leading zeros stripped) when it has that
                       // shape, else the file's text verbatim; unique within a conversation
  int session = 0;     // N of the `session_<N>` key holding the turn
  int turn = 0;        // 1-based position of the turn inside its session
  std::string speaker;
  std::string text;
  std::string image_caption;            // `blip_caption`, "" when absent
  std::vector<std::string> image_urls;  // `img_url` (a string or a list of strings), may be empty
  std::string image_query;              // `query` (the image search query), "" when absent
};

struct LocomoSession {
  int index = 0;                  // N of the `session_<N>` key (1-based, as in dia ids)
  std::string date_time_text;     // `session_<N>_date_time` verbatim, e.g. "1:56 pm on 8 May, 2023"
  TimestampMs started_at = 0;     // that text read as UTC
  std::vector<LocomoTurn> turns;  // file order
};

struct LocomoQuestion {
  std::string question;
  std::string answer;  // `answer` as text (numbers printed in decimal); "" when absent (category 5)
  int category = 0;    // official LoCoMo ids: 1 multi-hop, 2 temporal, 3 open-domain,
                       // 4 single-hop, 5 adversarial (benchmarks.md §1.4)
  // Gold evidence: every match of `D:?(\d+):(\d+)` over the `evidence` strings, as "D<s>:<t>" with
  // leading zeros stripped, first occurrence kept, only ids of turns that exist in the
  // conversation.
  std::vector<std::string> evidence;
  std::vector<std::string> raw_evidence;  // the file's `evidence` strings, verbatim
};

struct LocomoConversation {
  std::string sample_id;  // "conv-26"
  std::string speaker_a;
  std::string speaker_b;
  std::vector<LocomoSession> sessions;    // ordered by session index
  std::vector<LocomoQuestion> questions;  // file order
};

// Reads a LoCoMo session time such as "1:56 pm on 8 May, 2023" as UTC, in ms since the epoch.
// Tolerates a missing leading zero or an extra one ("01:56"), any case of "am"/"pm" (also "a.m."),
// extra spaces, a missing comma, and month names in full or abbreviated ("Sep", "Sept").
// Errors: kInvalidArgument naming the text when it does not have that shape or is no real date.
// (date::parse's %p is not used: with libstdc++'s C locale it silently ignores "pm".)
Result<TimestampMs> ParseLocomoDateTime(std::string_view text);

// Normalises evidence strings: every match of `D:?(\d+):(\d+)` in each string, as "D<s>:<t>" with
// leading zeros stripped, in order, duplicates removed. "D8:6; D9:17" → {"D8:6", "D9:17"};
// "D:11:26" → {"D11:26"}; "D30:05" → {"D30:5"}; "D" → {}. Does not check existence.
std::vector<std::string> NormalizeEvidence(const std::vector<std::string>& raw);

// Parses the text of a LoCoMo file (a JSON list of samples). Unknown keys are ignored.
// Errors: kInvalidArgument when the text is not JSON, not a list, or a required field is missing or
// has the wrong type: the message names the sample and the field, e.g.
// `sample 2 ("conv-41"): field "conversation.session_3[4].text": expected a string`.
// Required: sample_id, conversation, speaker_a, speaker_b, each session's date_time (parseable),
// each turn's speaker, dia_id (unique) and text, each question's question and category.
Result<std::vector<LocomoConversation>> ParseLocomo(std::string_view json_text);

// Reads and parses a LoCoMo file. Errors: kIOError (cannot read `path`), else as ParseLocomo,
// prefixed with the path.
Result<std::vector<LocomoConversation>> LoadLocomoFile(const std::string& path);

// One EventInput per turn, in session then turn order:
//   namespace_name = sample_id, session_id = "session_<N>", role "user", speaker,
//   content = text (the image caption when the text is blank; a turn with neither is skipped),
//   occurred_at = session start + the turn's 0-based position in seconds, as ISO-8601 UTC
//   ("2023-05-08T13:56:03.000Z"), so turn order is kept,
//   idempotency_key = sample_id + ":" + dia_id,
//   metadata_json = {"dia_id", "image_caption", "image_urls", "image_query"} with only the keys the
//   turn has, session_kind "interactive", session_source "locomo", session_title = the date text.
std::vector<EventInput> ToEventInputs(const LocomoConversation& conversation);

// The session number of a dia id: "D12:3" → 12; 0 when `dia_id` has no "D<digits>" prefix.
int LocomoSessionOf(std::string_view dia_id);

}  // namespace engram::import

#endif  // ENGRAM_SRC_IMPORT_LOCOMO_H_
