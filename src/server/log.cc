#include "server/log.h"

#include <chrono>
#include <cstdio>
#include <mutex>

#include "util/time.h"

namespace engram::server {

void LogJson(std::string_view level, std::string_view msg, const OrderedJson& fields) {
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  OrderedJson line{{"ts", FormatTimestamp(now)}, {"level", level}, {"msg", msg}};
  for (const auto& [k, v] : fields.items()) line[k] = v;
  const std::string text = Dump(line) + "\n";
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace engram::server
