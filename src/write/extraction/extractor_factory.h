// write/extraction/extractor_factory.h — builds the extractor named in Options.
#ifndef ENGRAM_WRITE_EXTRACTION_EXTRACTOR_FACTORY_H_
#define ENGRAM_WRITE_EXTRACTION_EXTRACTOR_FACTORY_H_

#include <memory>
#include <string_view>

#include "engram/status.h"
#include "write/extraction/extractor.h"

namespace engram::extraction {

// "rules" (default, offline), "llm" (OpenAI-compatible chat API configured by ENGRAM_LLM_BASE_URL,
// ENGRAM_LLM_MODEL, ENGRAM_LLM_API_KEY), or "none" (events only, no claims).
// Errors: kInvalidArgument for an unknown name or an llm extractor without base URL / model.
Result<std::unique_ptr<Extractor>> MakeExtractor(std::string_view name);

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_EXTRACTOR_FACTORY_H_
