#include "providers/word_kin.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "engram/options.h"

namespace engram::providers {
namespace {

// True when `word` (UTF-8) holds a letter: numbers ("2019", "4.2") are never kin.
bool HoldsALetter(std::string_view word) {
  for (int32_t i = 0, n = static_cast<int32_t>(word.size()); i < n;) {
    UChar32 c = 0;
    U8_NEXT(word.data(), i, n, c);
    if (c > 0 && u_isalpha(c)) return true;
  }
  return false;
}

}  // namespace

WordKin::WordKin(std::shared_ptr<const WordVectors> vectors, std::unique_ptr<GloveSifEmbedder> words)
    : vectors_(std::move(vectors)), words_(std::move(words)) {}

Result<std::unique_ptr<WordKin>> WordKin::Create(std::shared_ptr<const WordVectors> vectors) {
  if (vectors == nullptr) return Error(Status::InvalidArgument("word kin: no word vectors"));
  auto words = GloveSifEmbedder::Create(vectors, GloveSifOptions{WordWeighting::kAverage});
  if (!words) return Error(words.error().WithContext("word kin"));
  return std::unique_ptr<WordKin>(new WordKin(std::move(vectors), std::move(*words)));
}

Result<std::unique_ptr<WordKin>> WordKin::Open(const std::string& path) {
  auto vectors = WordVectors::Open(path);
  if (!vectors) return Error(vectors.error());
  return Create(std::shared_ptr<const WordVectors>(std::move(*vectors)));
}

std::vector<std::string> WordKin::KinCandidates(std::string_view text) {
  std::vector<std::string> out;
  for (std::string& word : words_->Words(text)) {
    std::optional<size_t> index = vectors_->Find(word);
    if (!index || vectors_->Rank(*index) < kMinRank || !HoldsALetter(word)) continue;
    out.push_back(std::move(word));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> WordKin::KinNames(std::string_view text) {
  std::vector<std::string> names;
  bool sentence_start = true;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!std::isalnum(c)) {
      if (c == '.' || c == '!' || c == '?' || c == '\n' || c == ':' || c == ';') sentence_start = true;
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-')) ++end;
    if (!sentence_start && std::isupper(c)) {
      std::string word(text.substr(i, end - i));
      for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (UnitVector(word)) names.push_back(std::move(word));
    }
    sentence_start = false;
    i = end;
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::optional<WordKin::Unit> WordKin::UnitVector(std::string_view word) const {
  std::optional<size_t> index = vectors_->Find(word);
  if (!index || vectors_->Rank(*index) < kMinRank || !HoldsALetter(word)) return std::nullopt;
  Unit unit{vectors_->Vector(*index), vectors_->Rank(*index)};
  double norm = 0;
  for (float x : unit.vector) norm += static_cast<double>(x) * x;
  if (!(norm > 0)) return std::nullopt;
  const float scale = static_cast<float>(1.0 / std::sqrt(norm));
  for (float& x : unit.vector) x *= scale;
  return unit;
}

namespace {

float Dot(const std::vector<float>& u, const std::vector<float>& v) {
  float dot = 0;
  for (size_t i = 0; i < u.size() && i < v.size(); ++i) dot += u[i] * v[i];
  return dot;
}

}  // namespace

std::optional<float> WordKin::Cosine(std::string_view a, std::string_view b) const {
  std::optional<Unit> u = UnitVector(a);
  std::optional<Unit> v = UnitVector(b);
  if (!u || !v) return std::nullopt;
  return Dot(u->vector, v->vector);
}

bool WordKin::AreKin(std::string_view a, std::string_view b) const {
  if (a == b) return false;
  std::optional<Unit> u = UnitVector(a);
  std::optional<Unit> v = UnitVector(b);
  return u && v && Dot(u->vector, v->vector) >= LeastCosine(u->rank, v->rank);
}

std::optional<std::pair<std::string, std::string>> WordKin::FindKin(const std::vector<std::string>& older,
                                                                    const std::vector<std::string>& newer) const {
  std::vector<Unit> newer_units;
  std::vector<const std::string*> newer_words;
  for (const std::string& word : newer) {
    if (std::binary_search(older.begin(), older.end(), word)) continue;  // the same word is no kin
    std::optional<Unit> v = UnitVector(word);
    if (!v) continue;
    newer_units.push_back(std::move(*v));
    newer_words.push_back(&word);
  }
  std::optional<std::pair<std::string, std::string>> best;
  float best_margin = 0;  // how far the best pair's cosine is above its least
  for (const std::string& word : older) {
    std::optional<Unit> u = UnitVector(word);
    if (!u) continue;
    for (size_t j = 0; j < newer_units.size(); ++j) {
      const float margin = Dot(u->vector, newer_units[j].vector) - LeastCosine(u->rank, newer_units[j].rank);
      if (margin >= best_margin) {
        best_margin = margin;
        best.emplace(word, *newer_words[j]);
      }
    }
  }
  return best;
}

Result<std::unique_ptr<WordKin>> OpenConfiguredWordKin(const std::string& word_kin) {
  std::string name = word_kin;
  if (const char* env = std::getenv("ENGRAM_WORD_KIN"); env != nullptr && *env != '\0') name = env;
  if (name == "none") return std::unique_ptr<WordKin>();
  if (name == "auto" || name.empty()) {
    const std::string path = DefaultGloveModelPath();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::unique_ptr<WordKin>();
    return WordKin::Open(path);
  }
  return WordKin::Open(name);
}

}  // namespace engram::providers
