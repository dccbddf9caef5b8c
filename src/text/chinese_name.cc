#include "text/chinese_name.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <memory>

namespace engram::text {
namespace {

icu::BreakIterator* Breaker() {
  thread_local std::unique_ptr<icu::BreakIterator> breaker = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> b(icu::BreakIterator::createWordInstance(icu::Locale("zh"), status));
    return U_FAILURE(status) ? nullptr : std::move(b);
  }();
  return breaker.get();
}

bool IsHanChar(UChar32 c) {
  UErrorCode status = U_ZERO_ERROR;
  return uscript_getScript(c, &status) == USCRIPT_HAN && U_SUCCESS(status);
}

}  // namespace

std::vector<size_t> ChineseNameEnds(std::string_view text, size_t pos, size_t surname_bytes) {
  std::vector<size_t> ends;
  icu::BreakIterator* breaker = Breaker();
  if (breaker == nullptr || pos >= text.size() || surname_bytes == 0) return ends;
  // The characters from `pos`, with each one's byte offset (the breaker counts UTF-16 units).
  icu::UnicodeString window;
  std::vector<size_t> byte_at;  // byte offset of each UTF-16 unit's character
  for (size_t i = pos, n = 0; i < text.size() && n < 12; ++n) {
    UChar32 c = 0;
    int32_t next = static_cast<int32_t>(i);
    U8_NEXT(text.data(), next, static_cast<int32_t>(text.size()), c);
    if (c < 0 || !IsHanChar(c)) break;
    window.append(c);
    while (byte_at.size() < static_cast<size_t>(window.length())) byte_at.push_back(i);
    i = static_cast<size_t>(next);
  }
  byte_at.push_back(pos + [&] {
    std::string utf8;
    window.toUTF8String(utf8);
    return utf8.size();
  }());
  breaker->setText(window);
  std::vector<int32_t> bounds;
  for (int32_t b = breaker->first(); b != icu::BreakIterator::DONE && bounds.size() < 5; b = breaker->next()) {
    bounds.push_back(b);
  }
  // bounds[1] must end the surname exactly; then one word of one or two characters, or two of one.
  if (bounds.size() < 3 || byte_at[static_cast<size_t>(bounds[1])] != pos + surname_bytes) return ends;
  const int32_t given = bounds[2] - bounds[1];
  if (given == 2) {
    ends.push_back(byte_at[static_cast<size_t>(bounds[2])]);
  } else if (given == 1) {
    ends.push_back(byte_at[static_cast<size_t>(bounds[2])]);
    if (bounds.size() >= 4 && bounds[3] - bounds[2] == 1) ends.push_back(byte_at[static_cast<size_t>(bounds[3])]);
  }
  return ends;
}

}  // namespace engram::text
