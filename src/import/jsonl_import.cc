#include "import/jsonl_import.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "codec/json_codec.h"
#include "util/utf8.h"

namespace engram::import {
namespace {

Status Flush(Engine& engine, std::vector<EventInput>& batch, JsonlImportReport* report) {
  if (batch.empty()) return Status::Ok();
  auto results = engine.IngestBatch(batch);
  batch.clear();
  if (!results) return results.error();
  for (const IngestResult& r : *results) {
    if (r.duplicate) {
      ++report->duplicates;
    } else if (r.forgotten) {
      ++report->forgotten;
    } else {
      ++report->stored;
    }
  }
  return Status::Ok();
}

Result<EventInput> ParseLine(const std::string& line) {
  size_t bad = 0;
  if (!IsValidUtf8(line, &bad)) {
    return Error(Status::InvalidArgument(fmt::format("not valid UTF-8 (byte {})", bad)));
  }
  auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error(Status::InvalidArgument("not valid JSON"));
  auto input = EventInputFromJson(j);
  if (!input) return Error(input.error());
  ENGRAM_RETURN_IF_ERROR(Engine::ValidateEvent(*input));
  return std::move(*input);
}

}  // namespace

Status ImportJsonl(Engine& engine, std::istream& in, const JsonlImportOptions& options,
                   JsonlImportReport* report) {
  std::vector<EventInput> batch;
  std::string line;
  int64_t line_number = 0;
  uint64_t bytes_read = 0;
  while (std::getline(in, line)) {
    ++line_number;
    bytes_read += line.size() + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (IsValidUtf8(line) && IsBlank(line)) continue;
    ++report->lines;
    auto input = ParseLine(line);
    if (!input) {
      std::string msg = fmt::format("line {}: {}", line_number, input.error().message());
      report->errors.push_back(msg);
      if (!options.keep_going) {
        // Keep what came before the bad line: a fixed file can then be re-imported.
        ENGRAM_RETURN_IF_ERROR(Flush(engine, batch, report));
        return Status::InvalidArgument(msg);
      }
      continue;
    }
    batch.push_back(std::move(*input));
    if (batch.size() >= options.batch_size) {
      ENGRAM_RETURN_IF_ERROR(Flush(engine, batch, report));
      if (options.on_progress) options.on_progress(bytes_read);
    }
  }
  ENGRAM_RETURN_IF_ERROR(Flush(engine, batch, report));
  if (options.on_progress) options.on_progress(bytes_read);
  return Status::Ok();
}

}  // namespace engram::import
