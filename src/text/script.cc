#include "text/script.h"

#include <unicode/uchar.h>
#include <unicode/uscript.h>

namespace engram::text {

bool IsCjk(UChar32 c) {
  if (c < 0x1100) return false;  // below Hangul Jamo: nothing CJK
  if (u_ispunct(c) || u_isUWhiteSpace(c)) return false;
  return uscript_hasScript(c, USCRIPT_HAN) || uscript_hasScript(c, USCRIPT_HIRAGANA) ||
         uscript_hasScript(c, USCRIPT_KATAKANA) || uscript_hasScript(c, USCRIPT_HANGUL);
}

bool IsMark(UChar32 c) {
  switch (u_charType(c)) {
    case U_NON_SPACING_MARK:
    case U_ENCLOSING_MARK:
    case U_COMBINING_SPACING_MARK:
      return true;
    default:
      return false;
  }
}

}  // namespace engram::text
