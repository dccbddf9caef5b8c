// store/sqlite/string_list.h — a list of strings stored in one TEXT column as a JSON array
// (episodes.tools_used / write_signature, rules.tools / conflicts_with), checked by the schema's
// json_valid. Thread safety: pure functions.
#ifndef ENGRAM_STORE_SQLITE_STRING_LIST_H_
#define ENGRAM_STORE_SQLITE_STRING_LIST_H_

#include <string>
#include <vector>

namespace engram::sqlite {

// ["a","b"]; invalid UTF-8 (never expected: every value was validated) is replaced, not thrown.
std::string StringListToJson(const std::vector<std::string>& values);

// The string elements of a JSON array, in order; other elements and text that is not a JSON array
// (never expected: the column is checked) give nothing.
std::vector<std::string> StringListFromJson(const std::string& text);

}  // namespace engram::sqlite

#endif  // ENGRAM_STORE_SQLITE_STRING_LIST_H_
