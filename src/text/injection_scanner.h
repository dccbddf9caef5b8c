// text/injection_scanner.h — recognises stored text that reads like an instruction to the model
// (prompt injection; bug_scenarios.md B50).
#ifndef ENGRAM_TEXT_INJECTION_SCANNER_H_
#define ENGRAM_TEXT_INJECTION_SCANNER_H_

#include <string_view>

namespace engram::text {

// True when `text` looks like an instruction aimed at the model: "ignore all previous
// instructions", "disregard ALL of my prior instructions", "you are now ...", "new system prompt",
// "忽略之前的指令". Zero-width characters are removed first. Case-insensitive. Thread-safe.
bool LooksLikeInstruction(std::string_view text);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_INJECTION_SCANNER_H_
