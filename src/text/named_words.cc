#include "text/named_words.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "text/script.h"

namespace engram::text {
namespace {

// A character that may join two parts of a word ("3.12", "k8s-prod", "O'Neil", "k/d").
bool Joins(UChar32 c) { return c == '.' || c == '-' || c == '\'' || c == 0x2019 || c == '/'; }

bool WordChar(UChar32 c) { return c > 0 && u_isalnum(c) && !IsCjk(c); }

// True when `c` ends a sentence, so that a capital after it says nothing.
bool EndsSentence(UChar32 c) {
  return c == '.' || c == '!' || c == '?' || c == '\n' || c == 0x3002 || c == 0xFF01 || c == 0xFF1F;
}

bool IsFirstPerson(std::string_view word) {
  return word == "I" || word.starts_with("I'") || word.starts_with("I\xE2\x80\x99");
}

}  // namespace

std::vector<std::string> NamedWords(std::string_view text) {
  std::vector<std::string> out;
  const auto n = static_cast<int32_t>(text.size());
  bool sentence_start = true;  // no word yet since the start or the end of a sentence
  int32_t i = 0;
  while (i < n) {
    const int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(text.data(), i, n, c);
    if (!WordChar(c)) {
      if (c < 0 || EndsSentence(c)) {
        sentence_start = true;
      } else if (IsCjk(c)) {
        sentence_start = false;  // a Han character is a word of the sentence
      }
      continue;
    }
    const bool capital = u_isupper(c);
    bool digit = u_isdigit(c);
    int32_t end = i;
    while (end < n) {
      int32_t next = end;
      UChar32 d = 0;
      U8_NEXT(text.data(), next, n, d);
      if (WordChar(d)) {
        digit = digit || u_isdigit(d);
        end = next;
        continue;
      }
      // A joiner inside a word: a word character follows it.
      int32_t after = next;
      UChar32 e = 0;
      if (Joins(d) && after < n) U8_NEXT(text.data(), after, n, e);
      if (Joins(d) && WordChar(e)) {
        digit = digit || u_isdigit(e);
        end = after;
        continue;
      }
      break;
    }
    const std::string_view word = text.substr(start, end - start);
    if (digit || (capital && !sentence_start && !IsFirstPerson(word))) out.emplace_back(word);
    sentence_start = false;
    i = end;
  }
  return out;
}

}  // namespace engram::text
