// providers/model_answer.h — finding the JSON a chat model was asked for inside what it answered.
//
// Models wrap JSON in code fences, put prose around it, or leave a trailing comma before a closing
// bracket. FindJsonAnswer looks, in order, in each ``` fenced block and then in the whole answer:
// first the text as one document, then each balanced {...} / [...] piece (at most
// kMaxJsonStarts start positions), trailing commas removed when that makes it parse; the first
// document `accept` takes wins. Shared by the LLM claim extractor and the LLM rule distiller.
//
// Thread safety: pure functions.
#ifndef ENGRAM_PROVIDERS_MODEL_ANSWER_H_
#define ENGRAM_PROVIDERS_MODEL_ANSWER_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "engram/status.h"

namespace engram::providers {

// Start positions tried when looking for a JSON value inside prose.
inline constexpr int kMaxJsonStarts = 64;

// Takes a parsed document and returns what the caller wants from it, or nullopt to keep looking.
// `whole` is true when the document is the entire answer (or fenced block) and false for a piece
// found inside it (which could be a fragment of a truncated answer: be stricter there).
using JsonAcceptor = std::function<std::optional<nlohmann::json>(const nlohmann::json& doc, bool whole)>;

// What `accept` returned for the first accepted document of `answer`. Errors: kInvalidArgument
// with why nothing was found (the parser's message for the text from its first '{' or '[', or
// "no <expected> object found in the answer" when it parsed but was not accepted).
Result<nlohmann::json> FindJsonAnswer(std::string_view answer, const JsonAcceptor& accept,
                                      std::string_view expected);

// `text` without leading and trailing ASCII white space.
std::string_view TrimAscii(std::string_view text);

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_MODEL_ANSWER_H_
