#include "text/protected_atoms.h"

#include <unicode/regex.h>
#include <unicode/unistr.h>

#include <memory>

namespace engram {

std::set<std::string> ProtectedAtoms(std::string_view text) {
  std::set<std::string> atoms;
  UErrorCode status = U_ZERO_ERROR;
  // numbers, versions and dates; paths; quoted values; negation words; capitalised names.
  static const char* kPattern =
      "(v?\\d+(?:[.:/-]\\d+)*)|((?:~|\\.{1,2})?/[\\w.-]+(?:/[\\w.-]+)*)|"
      "[\"“「'‘]([^\"”」'’]{1,80})[\"”」'’]|"
      "\\b(not|no|never|don't|doesn't|didn't|isn't|won't|cannot|can't|without)\\b|(不|没|别|无)|"
      "(?<=\\s)(\\p{Lu}[\\p{L}\\p{M}]+)";
  static const icu::RegexPattern* const pattern = [] {
    UErrorCode st = U_ZERO_ERROR;
    icu::RegexPattern* p = icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(kPattern), 0, st);
    return U_SUCCESS(st) ? p : nullptr;
  }();
  if (pattern == nullptr) return atoms;
  icu::UnicodeString input = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  std::unique_ptr<icu::RegexMatcher> m(pattern->matcher(input, status));
  while (U_SUCCESS(status) && m->find(status)) {
    for (int32_t g = 1; g <= m->groupCount(); ++g) {
      icu::UnicodeString part = m->group(g, status);
      if (part.isEmpty()) continue;
      std::string atom;
      part.toLower().toUTF8String(atom);
      atoms.insert(std::to_string(g) + ":" + atom);
    }
  }
  return atoms;
}

std::string NearCopyKey(std::string_view value) {
  std::string key = "a:";
  for (const std::string& atom : ProtectedAtoms(value)) {  // a std::set: sorted
    key += atom;
    key += '\x1f';
  }
  return key;
}

}  // namespace engram
