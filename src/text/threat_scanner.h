// text/threat_scanner.h — the threat scanner for text that can reach a system prompt: prompt
// injection, role hijack, C2 promptware, exfiltration, persistence and hardcoded secrets
// (reference: hermes.md §1.9 "threat-pattern scanner" and §5.2; the regexes are engram's own).
//
// Pipeline, per call:
//   1. empty text → no finding;
//   2. only the first kMaxThreatScanCodePoints code points are seen (a payload after them is not);
//   3. invisible characters (the 17 of InvisibleCharacters()) are found on the raw text;
//   4. they are removed, and the text is NFKC-normalised (ICU): full-width "ｃａｔ" reads "cat";
//      cross-script confusables (Cyrillic "а") are not folded;
//   5. case-insensitive RE2 patterns (linear time: no input makes them backtrack) run on it.
// Step 4 removes the invisible characters before the patterns, which Hermes does not: a pattern
// also fires when one splits its words ("ig\u200bnore all previous instructions").
// Words between key tokens are bounded — at most 8 words, `(?:word\s+){0,8}` — so that a trigger
// and its object far apart in long text do not make a finding.
#ifndef ENGRAM_TEXT_THREAT_SCANNER_H_
#define ENGRAM_TEXT_THREAT_SCANNER_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace engram::text {

// Which patterns run. Each scope holds the one before it: kAll ⊂ kContext ⊂ kStrict.
enum class ThreatScope {
  kAll,      // classic prompt injection (English and Chinese) and command-line exfiltration
  kContext,  // kAll + role or identity hijack and C2 ("Brainworm") promptware
  kStrict,   // kContext + URL and context exfiltration, persistence, agent config edits, secrets
};

// How much of a text is scanned: code points (an invalid UTF-8 byte counts as one). Source:
// Hermes MAX_SCAN_CHARS (hermes.md §1.9).
inline constexpr size_t kMaxThreatScanCodePoints = 65536;

// The 17 invisible characters, in code-point order: U+200B–U+200D (zero-width space, non-joiner,
// joiner), U+202A–U+202E (bidi embeddings and overrides), U+2060 (word joiner), U+2062–U+2064
// (invisible operators), U+2066–U+2069 (bidi isolates), U+FEFF (BOM). Source: hermes.md §1.9.
std::span<const char32_t> InvisibleCharacters();

// The ids of the patterns `scope` runs, in the scanner's fixed order (the order of its findings),
// e.g. {"prompt_injection", "sys_prompt_override", ...}. Thread-safe.
std::vector<std::string> ThreatPatternIds(ThreatScope scope);

// The findings in `text` (UTF-8; invalid bytes are read as U+FFFD), without duplicates: first each
// invisible character, as "invisible_unicode_U+200B" (upper-case hex, at least 4 digits), in the
// order of first appearance; then the ids of the matching patterns, in ThreatPatternIds order.
// Empty when nothing is found. Never fails. Thread-safe (the patterns are compiled once).
std::vector<std::string> ScanForThreats(std::string_view text, ThreatScope scope);

// True when a pattern of `scope` matches `text` — ScanForThreats without the invisible-character
// findings (the characters are still removed before the patterns run), stopping at the first
// match: one pass of RE2 over the text, and no ICU when it is ASCII. Thread-safe.
bool MatchesThreatPattern(std::string_view text, ThreatScope scope);

// The message for the first finding of ScanForThreats, or nullopt when there is none:
//   "Blocked: content contains invisible unicode character U+200B (possible injection)."
//   "Blocked: content matches threat pattern 'prompt_injection'. Content is injected into the
//    system prompt and must not contain injection or exfiltration payloads." (one line)
// Source: Hermes first_threat_message (hermes.md §1.9). Thread-safe.
std::optional<std::string> FirstThreatMessage(std::string_view text, ThreatScope scope);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_THREAT_SCANNER_H_
