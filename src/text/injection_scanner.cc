#include "text/injection_scanner.h"

#include <unicode/regex.h>

#include <memory>
#include <string>

#include "util/normalize.h"

namespace engram::text {

bool LooksLikeInstruction(std::string_view raw) {
  static const char* kPattern =
      "\\b(ignore|disregard|forget|override)\\b[^.\\n]{0,40}\\b(previous|prior|earlier|above|all|system|"
      "my|your)\\b[^.\\n]{0,30}\\b(instructions?|prompts?|rules|directions)\\b|"
      "\\byou are now\\b|\\bnew system prompt\\b|"
      "(忽略|无视|忘记|不要理会)[^。！？\\n]{0,12}(指令|指示|提示词|规则|设定)";
  // Compiled once; RegexPattern::matcher is safe to call from several threads.
  static const icu::RegexPattern* const pattern = [] {
    UErrorCode status = U_ZERO_ERROR;
    icu::RegexPattern* p =
        icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(kPattern), UREGEX_CASE_INSENSITIVE, status);
    return U_SUCCESS(status) ? p : nullptr;
  }();
  if (pattern == nullptr) return false;
  std::string text = StripZeroWidth(raw);
  // Cheap prefilter: the regex needs one of these words; most stored text has none of them.
  // ASCII case folding, as std::tolower does in the "C" locale (the engine never sets another);
  // the triggers' other letters are Han, whose UTF-8 bytes are all >= 0x80.
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  static const char* const kTriggers[] = {"ignore", "disregard", "forget", "override", "you are now",
                                          "system prompt", "忽略", "无视", "忘记", "不要理会"};
  bool triggered = false;
  for (const char* t : kTriggers) triggered |= lower.find(t) != std::string::npos;
  if (!triggered) return false;
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString input = icu::UnicodeString::fromUTF8(icu::StringPiece(text));
  std::unique_ptr<icu::RegexMatcher> matcher(pattern->matcher(input, status));
  return U_SUCCESS(status) && matcher->find(status) && U_SUCCESS(status);
}

}  // namespace engram::text
