#include "store/sqlite/string_list.h"

#include <nlohmann/json.hpp>

namespace engram::sqlite {

std::string StringListToJson(const std::vector<std::string>& values) {
  return nlohmann::json(values).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> StringListFromJson(const std::string& text) {
  std::vector<std::string> out;
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) return out;
  for (const auto& v : j) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace engram::sqlite
