// providers/word_kin.h — kin words: two words that name two things of one kind ("firefox" and
// "chrome", "kpmg" and "deloitte", "vegan" and "vegetarian", "heathrow" and "gatwick", "tuesday"
// and "monday"), read from static word vectors (word_vectors.h: the GloVe-derived file written by
// `engram models install glove`).
//
// Words that occur in the same contexts have near vectors, and things of one kind occur in the
// same contexts ("switched from X to Y", "X's new release"): the cosine of two words' vectors is
// high for co-hyponyms, which no list of words written by hand covers (issue 16: a change words the
// new value its own way, and a rule knows only the kinds it was given). Two words are kin when
//   - both are in the file, hold a letter and are not among its kMinRank most frequent words
//     (function words and everyday verbs are near everything: "the", "get", "new"), and
//   - the cosine of their vectors is at least kMinCosine, or kMinCosineCommon when either is among
//     the kRareRank most frequent words: frequent words are hubs, near many others (Radovanović,
//     Nanopoulos & Ivanović, "Hubs in Space", JMLR 2010): "goes" and "today" 0.59, "goes" and
//     "pretty" 0.57.
// The constants were chosen on the dev cases of bench/heldout (cases_v2, cases_v3, cases_s22dev;
// bench/RESULTS.md, session 26): so set, the old and new values of many English changes are kin
// (Leeds/Bristol 0.68, Chrome/Firefox 0.60, KPMG/Deloitte 0.77, light/dark 0.72), and unrelated
// content words are not (Firefox/Leeds −0.17, KPMG/Bristol 0.19, tea/London 0.27).
//
// Words: as GloveSifEmbedder::Words (ICU words, NFKC_Casefold, no stems, "user's" → user, s).
// The file has English words only: a Chinese text has no kin words.
//
// Thread safety: not thread-safe (the analyzer); use one per thread, or lock.
#ifndef ENGRAM_PROVIDERS_WORD_KIN_H_
#define ENGRAM_PROVIDERS_WORD_KIN_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engram/status.h"
#include "providers/word_vectors.h"

namespace engram::providers {

class WordKin {
 public:
  // The least cosine of two kin words' vectors (see the header).
  static constexpr float kMinCosine = 0.55f;
  // How many of the file's most frequent words are never kin (see the header).
  static constexpr uint32_t kMinRank = 300;
  // The least cosine when either word is among the kRareRank most frequent (see the header).
  static constexpr float kMinCosineCommon = 0.65f;
  static constexpr uint32_t kRareRank = 2000;

  // Errors: kInvalidArgument for null vectors; kInternal when the analyzer cannot be created.
  static Result<std::unique_ptr<WordKin>> Create(std::shared_ptr<const WordVectors> vectors);
  // WordVectors::Open(path), then Create. Errors: as both (kNotFound when the file is missing).
  static Result<std::unique_ptr<WordKin>> Open(const std::string& path);

  // The words of `text` that may be kin (in the file, with a letter, rarer than kMinRank), folded,
  // sorted, each once.
  std::vector<std::string> KinCandidates(std::string_view text);

  // The cosine of two words' vectors, or nullopt when either is not a kin candidate.
  std::optional<float> Cosine(std::string_view a, std::string_view b) const;
  // True when two words are kin (see the header).
  bool AreKin(std::string_view a, std::string_view b) const;

  // The kin candidates of `text` that it writes as names: capitalised where no sentence starts
  // ("moved over to Firefox" → firefox; not "Actually" opening a sentence, nor "warm" and "cool",
  // which are kin in one sense of each). ASCII capitals only (the file's words are English).
  // Folded, sorted, each once.
  std::vector<std::string> KinNames(std::string_view text);

  // The pair (a word of `older`, a word of `newer`) of kin words whose cosine is furthest above
  // its least (AreKin), or nullopt; a word is never kin to itself. Both lists as KinCandidates gives them. Cost: |older| × |newer| dot
  // products of the file's dimension.
  std::optional<std::pair<std::string, std::string>> FindKin(const std::vector<std::string>& older,
                                                             const std::vector<std::string>& newer) const;

 private:
  WordKin(std::shared_ptr<const WordVectors> vectors, std::unique_ptr<GloveSifEmbedder> words);
  // The unit vector and rank of a kin candidate, or nullopt.
  struct Unit {
    std::vector<float> vector;
    uint32_t rank = 0;
  };
  std::optional<Unit> UnitVector(std::string_view word) const;
  // The least cosine of two kin words of these ranks.
  static float LeastCosine(uint32_t a, uint32_t b) {
    return a < kRareRank || b < kRareRank ? kMinCosineCommon : kMinCosine;
  }

  std::shared_ptr<const WordVectors> vectors_;
  std::unique_ptr<GloveSifEmbedder> words_;  // splits texts into words the embedder's way
};

// The word kin Options::word_kin names ($ENGRAM_WORD_KIN overrides it when set): "auto" (the
// default) opens DefaultGloveModelPath() when that file exists and is off when it does not; "none"
// is off; anything else is the path of a word-vector file. Returns nullptr when off. Errors: for a
// path, as Open (kNotFound when it is missing); for "auto", kCorruption for a damaged file.
Result<std::unique_ptr<WordKin>> OpenConfiguredWordKin(const std::string& word_kin);

}  // namespace engram::providers

#endif  // ENGRAM_PROVIDERS_WORD_KIN_H_
