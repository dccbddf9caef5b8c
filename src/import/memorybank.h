// import/memorybank.h — reads the MemoryBank / SiliconFriend evaluation data (Zhong et al., AAAI
// 2024; zhongwanjun/MemoryBank-SiliconFriend `eval_data/`) and the engram team's gold evidence
// files, and turns a user's daily histories into engram events.
//
// Input formats (../shared/data/memorybank/SOURCE.md):
//   * `memory_bank_<lang>.json`: an object keyed by user name; each user an object whose `history`
//     maps a date key "YYYY-MM-DD" to the list of that day's exchanges `{"query", "response"}`
//     (the user's message and the AI's reply). Other keys (`name`, `summary`, `personality`,
//     `overall_history`, `meta_information`) are ignored. Some English keys carry stray spaces
//     (" Jason "): the user name is the key with surrounding whitespace stripped.
//   * `gold_<lang>_dev.jsonl`: one object per probing question, `{"user", "question", "gold":
//     [{"date", "index"}], "answerable", "note"?}`.
//
// Exchange identity: (user, date key, 0-based index in that date's list), as in SOURCE.md. Within
// one user it is written "<date>#<index>" ("2023-04-27#3"), see MemoryBankExchangeId.
//
// Thread safety: free functions over values; safe to call from any thread.
#ifndef ENGRAM_SRC_IMPORT_MEMORYBANK_H_
#define ENGRAM_SRC_IMPORT_MEMORYBANK_H_

#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "engram/types.h"

namespace engram::import {

// One query/response pair of a day.
struct MemoryBankExchange {
  std::string query;     // the user's message, verbatim
  std::string response;  // the AI's reply, verbatim
};

struct MemoryBankDay {
  std::string date;        // the `history` key, "YYYY-MM-DD"
  TimestampMs start = 0;   // that date at 00:00 UTC, ms since the epoch
  std::vector<MemoryBankExchange> exchanges;  // file order (index = position); may be empty
};

struct MemoryBankUser {
  std::string name;                // the top-level key with surrounding whitespace stripped
  std::vector<MemoryBankDay> days;  // ordered by date
};

// One line of a gold file.
struct MemoryBankGoldRef {
  std::string date;  // "YYYY-MM-DD"
  int index = 0;     // 0-based position in that date's list
};

struct MemoryBankQuestion {
  std::string user;      // user name as in the probing-question file
  std::string question;  // verbatim
  std::vector<MemoryBankGoldRef> gold;  // file order, duplicates removed
  bool answerable = false;
  std::string note;  // "" when absent
};

// "<date>#<index>", e.g. "2023-04-27#3": the id of an exchange within one user.
std::string MemoryBankExchangeId(std::string_view date, int index);

// Parses the text of a `memory_bank_<lang>.json` file. Users keep file order.
// Errors: kInvalidArgument when the text is not JSON or not an object, or a field is missing or
// malformed; the message names the user and the field, e.g.
// `user "Emily": field "history.2023-04-27[3].query": expected a string, got number`.
// Checked: every user is an object with a `history` object; every history key is a real date
// "YYYY-MM-DD"; every value a list of objects with string `query` and `response`; user names are
// non-empty and unique after whitespace stripping.
Result<std::vector<MemoryBankUser>> ParseMemoryBank(std::string_view json_text);

// Reads and parses a `memory_bank_<lang>.json` file. Errors: kIOError (cannot read `path`), else as
// ParseMemoryBank, prefixed with the path.
Result<std::vector<MemoryBankUser>> LoadMemoryBankFile(const std::string& path);

// Parses the text of a gold file (JSON Lines; blank lines skipped). Questions keep file order.
// Errors: kInvalidArgument prefixed with the 1-based line: `line 7: field "gold[0].index":
// expected a non-negative integer, got string`. Required: user, question (strings), answerable
// (bool), gold (a list of {date: "YYYY-MM-DD", index: integer ≥ 0}); note optional. An answerable
// question may have an empty gold list (it is then not scorable); an unanswerable one must not
// have gold.
Result<std::vector<MemoryBankQuestion>> ParseMemoryBankGold(std::string_view jsonl_text);

// Reads and parses a gold file. Errors: kIOError (cannot read `path`), else as ParseMemoryBankGold,
// prefixed with the path.
Result<std::vector<MemoryBankQuestion>> LoadMemoryBankGoldFile(const std::string& path);

// Two EventInputs per exchange (the query, then the response), day by day in date order:
//   namespace_name = user name, session_id = the date key, session_title = the date key,
//   session_kind "interactive", session_source "memorybank";
//   query: role "user", speaker = user name; response: role "assistant", speaker "AI";
//   occurred_at = the date at 00:00 UTC + (2 × index) s for the query and + (2 × index + 1) s for
//   the response, as ISO-8601 UTC ("2023-04-27T00:00:07.000Z"), so that the order is kept (the
//   data has dates only);
//   idempotency_key = "memorybank:<user>:<date>#<index>:query" (or ":response");
//   metadata_json = {"exchange": "<date>#<index>", "date", "index", "part": "query"|"response"}.
// A blank query or response gives no event (Ingest rejects blank content).
std::vector<EventInput> ToEventInputs(const MemoryBankUser& user);

// The "exchange" of a metadata_json object written by ToEventInputs ("2023-04-27#3"); "" when the
// text is not a JSON object or has no string "exchange".
std::string MemoryBankExchangeOfMetadata(std::string_view metadata_json);

}  // namespace engram::import

#endif  // ENGRAM_SRC_IMPORT_MEMORYBANK_H_
