#include "text/dialogue_act.h"

namespace engram::text {
namespace {

bool IsSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool EndsASentence(unsigned char next) {
  if (IsSpace(next) || next >= 0x80) return true;
  switch (next) {
    case '"': case '\'': case ')': case ']': case '}': case '.': case ',': case '!': case '?': case ':': case ';':
      return true;
    default:
      return false;
  }
}

}  // namespace

bool AsksQuestion(std::string_view text) {
  if (text.find("\xEF\xBC\x9F") != std::string_view::npos) return true;  // '？'
  for (size_t i = text.find('?'); i != std::string_view::npos; i = text.find('?', i + 1)) {
    if (i == 0 || IsSpace(static_cast<unsigned char>(text[i - 1]))) continue;
    if (i + 1 == text.size() || EndsASentence(static_cast<unsigned char>(text[i + 1]))) return true;
  }
  return false;
}

}  // namespace engram::text
