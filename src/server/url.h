// server/url.h — percent-decoding of request targets (RFC 3986), for path segments and query
// strings. Thread-safe (pure functions).
#ifndef ENGRAM_SERVER_URL_H_
#define ENGRAM_SERVER_URL_H_

#include <map>
#include <string>
#include <string_view>

namespace engram::server {

// %XX escapes decoded; with `plus_is_space` (query strings) '+' is a space. A malformed escape
// stays as it is.
std::string PercentDecode(std::string_view text, bool plus_is_space = false);

// "a=1&b=x%20y&a=2" → {a: 1, a: 2, b: "x y"}; a name without '=' has the value "".
std::multimap<std::string, std::string> ParseQuery(std::string_view query);

}  // namespace engram::server

#endif  // ENGRAM_SERVER_URL_H_
