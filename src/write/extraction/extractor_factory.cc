#include "write/extraction/extractor_factory.h"

#include <fmt/format.h>

#include "providers/chat_client.h"
#include "write/extraction/llm_extractor.h"
#include "write/extraction/rule_extractor.h"

namespace engram::extraction {
namespace {

// Extracts nothing: for stores that keep events only.
class NoExtractor final : public Extractor {
 public:
  std::string Name() const override { return "none"; }
  Result<std::vector<CandidateClaim>> Extract(const std::vector<Event>&) override {
    return std::vector<CandidateClaim>{};
  }
};

}  // namespace

Result<std::unique_ptr<Extractor>> MakeExtractor(std::string_view name) {
  if (name.empty() || name == "rules") return std::unique_ptr<Extractor>(new RuleExtractor());
  if (name == "none") return std::unique_ptr<Extractor>(new NoExtractor());
  if (name == "llm") {
    providers::ChatClientOptions options = providers::ChatClientOptionsFromEnv();
    if (options.base_url.empty() || options.model.empty()) {
      return Error(Status::InvalidArgument(
          "extractor \"llm\" needs ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL (and ENGRAM_LLM_API_KEY if the "
          "provider wants one)"));
    }
    return std::unique_ptr<Extractor>(new LlmExtractor(options));
  }
  return Error(Status::InvalidArgument(fmt::format("unknown extractor \"{}\" (expected rules, llm or none)", name)));
}

}  // namespace engram::extraction
