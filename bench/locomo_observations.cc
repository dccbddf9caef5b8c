#include "locomo_observations.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "import/locomo.h"

namespace engram::bench {

std::map<std::string, std::vector<LocomoObservation>> ReadLocomoObservations(
    const std::string& path) {
  using json = nlohmann::ordered_json;  // file order of sessions and speakers
  std::map<std::string, std::vector<LocomoObservation>> out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  json root = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!root.is_array()) return out;
  for (const json& sample : root) {
    if (!sample.is_object()) continue;
    auto id = sample.find("sample_id");
    auto obs = sample.find("observation");
    if (id == sample.end() || !id->is_string() || obs == sample.end() || !obs->is_object()) {
      continue;
    }
    std::vector<LocomoObservation>& facts_out = out[id->get<std::string>()];
    for (const auto& [session_key, speakers] : obs->items()) {
      if (!speakers.is_object()) continue;
      for (const auto& [speaker, facts] : speakers.items()) {
        if (!facts.is_array()) continue;
        for (const json& fact : facts) {
          if (!fact.is_array() || fact.size() < 2 || !fact[0].is_string()) continue;
          std::vector<std::string> raw;
          if (fact[1].is_string()) raw.push_back(fact[1].get<std::string>());
          if (fact[1].is_array()) {
            for (const json& e : fact[1]) {
              if (e.is_string()) raw.push_back(e.get<std::string>());
            }
          }
          facts_out.push_back(
              {session_key, speaker, fact[0].get<std::string>(), import::NormalizeEvidence(raw)});
        }
      }
    }
  }
  return out;
}

}  // namespace engram::bench
