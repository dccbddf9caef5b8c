#include "store/sqlite/quoted_phrases.h"

namespace engram::sqlite {
namespace {

// Reads one "..." phrase at the start of `rest` into *phrase and advances `rest` past it. False
// when `rest` does not start with a complete quoted string.
bool ReadQuoted(std::string_view* rest, std::string_view* phrase) {
  if (rest->empty() || rest->front() != '"') return false;
  for (size_t i = 1; i < rest->size(); ++i) {
    if ((*rest)[i] != '"') continue;
    if (i + 1 < rest->size() && (*rest)[i + 1] == '"') {
      ++i;  // a doubled quote inside the phrase
      continue;
    }
    *phrase = rest->substr(1, i - 1);
    rest->remove_prefix(i + 1);
    return true;
  }
  return false;
}

// Removes a leading " OR " or " AND " from `rest`; false when neither is there.
bool ReadJoiner(std::string_view* rest) {
  for (std::string_view joiner : {std::string_view(" OR "), std::string_view(" AND ")}) {
    if (rest->substr(0, joiner.size()) == joiner) {
      rest->remove_prefix(joiner.size());
      return true;
    }
  }
  return false;
}

}  // namespace

bool QuotedPhrases(std::string_view match, std::vector<std::string_view>* phrases) {
  phrases->clear();
  std::string_view rest = match;
  while (true) {
    std::string_view phrase;
    if (!ReadQuoted(&rest, &phrase)) return false;
    phrases->push_back(phrase);
    if (rest.empty()) return true;
    if (!ReadJoiner(&rest)) return false;
  }
}

}  // namespace engram::sqlite
