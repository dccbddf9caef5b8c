// providers/hashing_embedder.h — a language-agnostic embedder that needs no model file: the
// character n-grams of a text hashed into a fixed number of dimensions ("feature hashing").
//
// Features, per text:
//   * The text is NFKC_Casefold-normalised (ICU; invalid UTF-8 becomes U+FFFD, which separates).
//   * It is split into runs. A CJK run is a maximal sequence of Han, Hiragana, Katakana or Hangul
//     characters (by Script_Extensions; CJK punctuation excluded); a word run is a maximal
//     sequence of letters, digits and combining marks. Everything else separates runs, except
//     default-ignorable code points (zero-width joiners, soft hyphens), which are skipped without
//     separating: "pass\u200bword" has the features of "password". Combining marks stay with the
//     character before them.
//   * A CJK run gives every character 1-, 2- and 3-gram within the run (no markers): 浅色 →
//     浅, 色, 浅色.
//   * A word run w gives every 3-, 4- and 5-gram of code points of "<w>" (boundary markers '<' and
//     '>', as in fastText): "cat" → "<ca", "cat", "at>", "<cat", "cat>", "<cat>".
//   * Each occurrence of a feature adds ±1 to dimension XXH3_64bits(feature UTF-8) mod D; the sign
//     is the hash's top bit (signed hashing keeps collisions from adding up in expectation).
//   * The vector is L2-normalised; a text without features is the all-zero vector.
// The output depends only on the text, D and the ICU version's normalisation data: deterministic
// across runs and machines.
//
// Thread safety: an instance is immutable after Create; Embed and Features may be called from
// any number of threads at once.
#ifndef ENGRAM_PROVIDERS_HASHING_EMBEDDER_H_
#define ENGRAM_PROVIDERS_HASHING_EMBEDDER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engram/status.h"
#include "providers/embedder.h"

namespace engram::providers {

class HashingEmbedder : public Embedder {
 public:
  static constexpr int kDefaultDimension = 256;
  static constexpr int kMaxDimension = 65536;

  // Errors: kInvalidArgument when `dimension` is outside [2, kMaxDimension]; kInternal when ICU
  // cannot load its NFKC_Casefold data.
  static Result<std::unique_ptr<HashingEmbedder>> Create(int dimension = kDefaultDimension);

  // "hash-ngram-<D>/1", e.g. "hash-ngram-256/1".
  std::string ModelId() const override;
  int Dimension() const override { return dimension_; }

  // One vector of Dimension() floats per text (see the file comment). Never fails.
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override;

  // The vector of one text, written into `out` (resized to Dimension()). Never fails.
  void EmbedOne(std::string_view text, std::vector<float>& out) const;

  // The features of `text` (UTF-8), in text order, with repeats: what EmbedOne hashes. For tests
  // and explain output.
  std::vector<std::string> Features(std::string_view text) const;

 private:
  explicit HashingEmbedder(int dimension) : dimension_(dimension) {}
  int dimension_;
};

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_HASHING_EMBEDDER_H_
