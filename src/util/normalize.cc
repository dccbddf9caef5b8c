#include "util/normalize.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

namespace engram {
namespace {

bool IsTrimmable(UChar32 c) {
  return u_isUWhiteSpace(c) || u_ispunct(c) || c == 0x3000;
}

}  // namespace

std::string NormalizeKey(std::string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
  icu::UnicodeString in = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  icu::UnicodeString folded = U_SUCCESS(status) ? nfkc_cf->normalize(in, status) : in;
  if (U_FAILURE(status)) folded = in;
  // Collapse whitespace, then trim whitespace and punctuation at both ends.
  icu::UnicodeString collapsed;
  bool pending_space = false;
  for (int32_t i = 0; i < folded.length();) {
    UChar32 c = folded.char32At(i);
    i += U16_LENGTH(c);
    if (u_isUWhiteSpace(c)) {
      pending_space = !collapsed.isEmpty();
      continue;
    }
    if (pending_space) collapsed.append(static_cast<UChar>(' '));
    pending_space = false;
    collapsed.append(c);
  }
  int32_t start = 0, end = collapsed.length();
  while (start < end && IsTrimmable(collapsed.char32At(start))) start += U16_LENGTH(collapsed.char32At(start));
  while (end > start) {
    int32_t prev = collapsed.moveIndex32(end, -1);
    if (!IsTrimmable(collapsed.char32At(prev))) break;
    end = prev;
  }
  std::string out;
  collapsed.tempSubStringBetween(start, end).toUTF8String(out);
  return out;
}

}  // namespace engram
