#include "util/utf8.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

namespace engram {

bool IsValidUtf8(std::string_view s, size_t* bad_offset) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t len = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < len) {
    int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, len, c);
    if (c < 0) {
      if (bad_offset != nullptr) *bad_offset = static_cast<size_t>(start);
      return false;
    }
  }
  return true;
}

bool IsBlank(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t len = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < len) {
    UChar32 c;
    U8_NEXT(p, i, len, c);
    if (c < 0) return false;
    if (!u_isUWhiteSpace(c) && c != 0x200B && c != 0xFEFF) return false;
  }
  return true;
}

size_t CodePointCount(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string TruncateCodePoints(std::string_view s, size_t max_chars) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (n == max_chars) return std::string(s.substr(0, i)) + "…";
      ++n;
    }
  }
  return std::string(s);
}

}  // namespace engram
