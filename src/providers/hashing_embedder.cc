#include "providers/hashing_embedder.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>
#include <xxhash.h>

#include <cstdint>
#include <utility>

#include "text/script.h"

namespace engram::providers {
namespace {

using text::IsCjk;
using text::IsMark;

// Shortest and longest n-gram, in code points, of CJK runs and of marked word runs.
constexpr int kCjkMinN = 1;
constexpr int kCjkMaxN = 3;
constexpr int kWordMinN = 3;
constexpr int kWordMaxN = 5;

enum class RunKind { kNone, kCjk, kWord };

// A run being collected: its UTF-8 bytes and the byte offset where each unit (a character with
// its marks) starts, plus the end offset.
struct Run {
  RunKind kind = RunKind::kNone;
  std::string bytes;
  std::vector<uint32_t> starts;

  void Clear() {
    kind = RunKind::kNone;
    bytes.clear();
    starts.clear();
  }
  void AppendCodePoint(UChar32 c) {
    char buf[U8_MAX_LENGTH];
    int32_t len = 0;
    U8_APPEND_UNSAFE(buf, len, c);
    bytes.append(buf, static_cast<size_t>(len));
  }
  void StartUnit(UChar32 c) {
    starts.push_back(static_cast<uint32_t>(bytes.size()));
    AppendCodePoint(c);
  }
};

// Calls emit(std::string_view feature) for every feature of `text` (see the header).
template <typename Emit>
void ForEachFeature(std::string_view text, Emit&& emit) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = icu::Normalizer2::getNFKCCasefoldInstance(status);
  icu::UnicodeString in = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  icu::UnicodeString folded;
  if (U_SUCCESS(status) && normalizer != nullptr) folded = normalizer->normalize(in, status);
  if (U_FAILURE(status) || normalizer == nullptr) folded = in;

  Run run;
  // Emits the features of the run collected so far and clears it.
  auto close = [&]() {
    if (run.kind == RunKind::kNone) return;
    if (run.kind == RunKind::kWord) run.StartUnit('>');
    const int units = static_cast<int>(run.starts.size());
    run.starts.push_back(static_cast<uint32_t>(run.bytes.size()));  // end sentinel
    const int min_n = run.kind == RunKind::kCjk ? kCjkMinN : kWordMinN;
    const int max_n = run.kind == RunKind::kCjk ? kCjkMaxN : kWordMaxN;
    const std::string_view bytes(run.bytes);
    for (int i = 0; i < units; ++i) {
      for (int n = min_n; n <= max_n && i + n <= units; ++n) {
        emit(bytes.substr(run.starts[i], run.starts[i + n] - run.starts[i]));
      }
    }
    run.Clear();
  };

  for (int32_t i = 0; i < folded.length();) {
    UChar32 c = folded.char32At(i);
    i += U16_LENGTH(c);
    if (c != 0xFFFD && u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) continue;
    if (IsMark(c)) {
      // A mark belongs to the unit before it; a mark with nothing before it is dropped.
      if (run.kind != RunKind::kNone) run.AppendCodePoint(c);
      continue;
    }
    RunKind kind = RunKind::kNone;
    if (c != 0xFFFD) kind = IsCjk(c) ? RunKind::kCjk : (u_isalnum(c) ? RunKind::kWord : kind);
    if (kind != run.kind) {
      close();
      run.kind = kind;
      if (kind == RunKind::kWord) run.StartUnit('<');
    }
    if (kind != RunKind::kNone) run.StartUnit(c);
  }
  close();
}

}  // namespace

Result<std::unique_ptr<HashingEmbedder>> HashingEmbedder::Create(int dimension) {
  if (dimension < 2 || dimension > kMaxDimension) {
    return Error(Status::InvalidArgument("hashing embedder: dimension " +
                                         std::to_string(dimension) + " is outside [2, " +
                                         std::to_string(kMaxDimension) + "]"));
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status) || normalizer == nullptr) {
    return Error(Status::Internal(std::string("hashing embedder: ICU NFKC_Casefold data: ") +
                                  u_errorName(status)));
  }
  return std::unique_ptr<HashingEmbedder>(new HashingEmbedder(dimension));
}

std::string HashingEmbedder::ModelId() const {
  return "hash-ngram-" + std::to_string(dimension_) + "/1";
}

Result<std::vector<std::vector<float>>> HashingEmbedder::Embed(
    const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> out(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) EmbedOne(texts[i], out[i]);
  return out;
}

void HashingEmbedder::EmbedOne(std::string_view text, std::vector<float>& out) const {
  out.assign(static_cast<size_t>(dimension_), 0.0f);
  const uint64_t d = static_cast<uint64_t>(dimension_);
  ForEachFeature(text, [&](std::string_view feature) {
    uint64_t h = XXH3_64bits(feature.data(), feature.size());
    out[h % d] += (h >> 63) != 0 ? -1.0f : 1.0f;
  });
  L2Normalize(out);
}

std::vector<std::string> HashingEmbedder::Features(std::string_view text) const {
  std::vector<std::string> features;
  ForEachFeature(text, [&](std::string_view feature) { features.emplace_back(feature); });
  return features;
}

}  // namespace engram::providers
