// server/log.h — the server's structured log: one JSON object a line on stderr,
//   {"ts": ISO-8601 UTC, "level": "info"|"warn"|"error", "msg": ..., <fields>...}.
// Thread-safe (lines never interleave).
#ifndef ENGRAM_SERVER_LOG_H_
#define ENGRAM_SERVER_LOG_H_

#include <string_view>

#include "codec/json_codec.h"

namespace engram::server {

void LogJson(std::string_view level, std::string_view msg, const OrderedJson& fields = OrderedJson::object());

}  // namespace engram::server

#endif  // ENGRAM_SERVER_LOG_H_
