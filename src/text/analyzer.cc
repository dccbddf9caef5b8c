#include "text/analyzer.h"

#include <libstemmer.h>
#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "text/script.h"
#include "text/stopwords.h"

namespace engram::text {
namespace {

constexpr UChar32 kReplacementChar = 0xFFFD;
constexpr size_t kMaxBytes = Analyzer::kMaxTokenBytes;

// True when `c` belongs to the character before it: it composes with it under NFKC (Hangul vowel
// jamo, kana voicing marks), is a combining mark, or is default-ignorable (variation selectors).
bool AttachesToPrevious(const icu::Normalizer2& normalizer, UChar32 c) {
  if (c < 0xAD) return false;  // fast path: nothing below the soft hyphen attaches
  return !normalizer.hasBoundaryBefore(c) || IsMark(c) ||
         u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT);
}

// The positions of `chars` (one CJK character each, folded) that are a content word standing alone
// between Chinese function words or the ends of the run: 我现在住哪儿 → 住. Every bigram holding
// such a character crosses into grammar (在住, 住哪), so no bigram of the question matches what the
// text says (住在); the character alone does.
std::vector<size_t> LoneContentCharacters(const std::vector<std::string_view>& chars) {
  const size_t n = chars.size();
  std::vector<bool> function(n, false);
  for (size_t k = 0; k < n; ++k) {
    if (IsChineseFunctionWord(chars[k])) function[k] = true;
    if (k + 1 < n && IsChineseFunctionWord(std::string(chars[k]) + std::string(chars[k + 1]))) {
      function[k] = function[k + 1] = true;
    }
  }
  std::vector<size_t> lone;
  for (size_t k = 0; k < n; ++k) {
    if (!function[k] && (k == 0 || function[k - 1]) && (k + 1 == n || function[k + 1])) lone.push_back(k);
  }
  return lone;
}

}  // namespace

struct Analyzer::Impl {
  // One CJK character (a code point plus what attaches to it) of the current run.
  struct CjkChar {
    std::string token;  // NFKC_Casefold form, UTF-8
    int byte_start;
    int byte_end;
  };

  bool full = true;
  std::unique_ptr<icu::BreakIterator> breaker;
  const icu::Normalizer2* normalizer = nullptr;  // owned by ICU
  sb_stemmer* stemmer = nullptr;                 // kFull only

  // Reused buffers.
  std::u16string units;          // the decoded input, UTF-16
  icu::UnicodeString text;       // read-only alias of `units`
  std::vector<int32_t> byte_at;  // UTF-16 index → byte offset in the input; size text.length()+1
  std::vector<CjkChar> run;      // the pending CJK run
  icu::UnicodeString folded16;   // normaliser output
  std::string folded;            // normaliser output as UTF-8

  ~Impl() {
    if (stemmer != nullptr) sb_stemmer_delete(stemmer);
  }

  // Decodes `utf8` into `text`, one U+FFFD per ill-formed sequence, and fills `byte_at`.
  void Decode(std::string_view utf8) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(utf8.data());
    const int32_t length = static_cast<int32_t>(std::min<size_t>(utf8.size(), INT32_MAX - 1));
    units.clear();
    byte_at.clear();
    int32_t i = 0;
    while (i < length) {
      const int32_t start = i;
      UChar32 c;
      U8_NEXT(bytes, i, length, c);
      if (c < 0) c = kReplacementChar;
      if (c <= 0xFFFF) {
        units.push_back(static_cast<char16_t>(c));
      } else {
        units.push_back(U16_LEAD(c));
        units.push_back(U16_TRAIL(c));
        byte_at.push_back(start);
      }
      byte_at.push_back(start);
    }
    byte_at.push_back(length);
    text.setTo(false, units.data(), static_cast<int32_t>(units.size()));  // read-only alias
  }

  // NFKC_Casefold of text[start, end) into `folded` (UTF-8); kFull maps ‘ ’ to '.
  void Fold(int32_t start, int32_t end) {
    folded.clear();
    bool ascii = true;
    for (int32_t k = start; k < end && ascii; ++k) ascii = units[k] < 0x80;
    if (ascii) {  // NFKC_Casefold of ASCII is ASCII lowercase
      for (int32_t k = start; k < end; ++k) {
        const char16_t u = units[k];
        folded.push_back(static_cast<char>(u >= 'A' && u <= 'Z' ? u + ('a' - 'A') : u));
      }
      return;
    }
    UErrorCode status = U_ZERO_ERROR;
    folded16.remove();
    normalizer->normalize(text.tempSubStringBetween(start, end), folded16, status);
    if (U_FAILURE(status)) return;
    if (full) {
      for (int32_t k = 0; k < folded16.length(); ++k) {
        const char16_t u = folded16.charAt(k);
        if (u == 0x2018 || u == 0x2019) folded16.setCharAt(k, u'\'');
      }
    }
    folded16.toUTF8String(folded);
  }

  // The Snowball English stem of a folded word; `word` itself when the stemmer fails. The view is
  // valid until the next call.
  std::string_view Stem(std::string_view word) {
    // Chat text repeats its words: a memo of recent stems saves most of Snowball's cost (it was
    // ≈ 10% of a LoCoMo recall, which analyses the texts of its items). Cleared when full.
    auto hit = stems.find(word);
    if (hit != stems.end()) return hit->second.has_value() ? std::string_view(*hit->second) : word;
    const sb_symbol* stem = sb_stemmer_stem(
        stemmer, reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
    if (stems.size() >= kMaxMemoStems) stems.clear();
    if (stem == nullptr) {
      stems.emplace(std::string(word), std::nullopt);
      return word;
    }
    auto [it, inserted] = stems.emplace(
        std::string(word), std::string(reinterpret_cast<const char*>(stem),
                                       static_cast<size_t>(sb_stemmer_length(stemmer))));
    return *it->second;
  }

  // Folded word → its stem (nullopt: the stemmer failed), at most kMaxMemoStems entries.
  static constexpr size_t kMaxMemoStems = 1 << 16;
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::optional<std::string>, StringHash, std::equal_to<>> stems;
  // Text → its distinct query-mode tokens, sorted (Analyzer::QueryTokenSet).
  std::unordered_map<std::string, std::vector<std::string>, StringHash, std::equal_to<>> token_sets;

  // Walks the words of `utf8` in order. Calls on_word(folded, byte_start, byte_end) for each
  // non-CJK word (kPlain: every word) and on_run(run) for each maximal CJK run (kFull only).
  template <typename OnWord, typename OnRun>
  void Walk(std::string_view utf8, OnWord&& on_word, OnRun&& on_run) {
    Decode(utf8);
    run.clear();
    int32_t run_end = -1;  // UTF-16 index just past the pending run
    auto flush = [&] {
      if (!run.empty()) on_run(run);
      run.clear();
    };

    breaker->setText(text);
    int32_t start = breaker->first();
    for (int32_t end = breaker->next(); end != icu::BreakIterator::DONE;
         start = end, end = breaker->next()) {
      if (breaker->getRuleStatus() < UBRK_WORD_NONE_LIMIT) continue;
      int32_t i = start;
      while (i < end) {
        const UChar32 c = text.char32At(i);
        if (c == kReplacementChar) {
          i += U16_LENGTH(c);
          continue;
        }
        int32_t j = i + U16_LENGTH(c);
        if (AttachesToPrevious(*normalizer, c)) {
          // A mark with no base (only possible at the start of a segment or after U+FFFD).
          i = j;
          continue;
        }
        if (full && IsCjk(c)) {
          while (j < end) {
            const UChar32 d = text.char32At(j);
            if (d == kReplacementChar || !AttachesToPrevious(*normalizer, d)) break;
            j += U16_LENGTH(d);
          }
          if (i != run_end) flush();
          run_end = j;
          Fold(i, j);
          if (!folded.empty() && folded.size() <= kMaxBytes / 2) {
            run.push_back({folded, byte_at[i], byte_at[j]});
          }
        } else {
          while (j < end) {
            const UChar32 d = text.char32At(j);
            if (d == kReplacementChar) break;
            if (full && IsCjk(d) && !AttachesToPrevious(*normalizer, d)) break;
            j += U16_LENGTH(d);
          }
          flush();
          // Trim what ICU kept only because of the context we cut away ("a'" from "a'게", "_").
          int32_t word_start = i;
          int32_t word_end = j;
          // A word starts and ends with a letter or digit (plus the marks attached to it).
          auto is_base = [&](int32_t k) {
            const UChar32 d = text.char32At(k);
            return u_isalnum(d) && !AttachesToPrevious(*normalizer, d);
          };
          while (word_start < word_end && !is_base(word_start)) {
            word_start = text.moveIndex32(word_start, 1);
          }
          while (word_end > word_start) {
            int32_t base = text.moveIndex32(word_end, -1);
            while (base > word_start && AttachesToPrevious(*normalizer, text.char32At(base))) {
              base = text.moveIndex32(base, -1);
            }
            if (is_base(base)) break;
            word_end = base;
          }
          if (word_start < word_end) {
            Fold(word_start, word_end);
            if (!folded.empty() && folded.size() <= kMaxBytes) {
              on_word(std::string_view(folded), byte_at[word_start], byte_at[word_end]);
            }
          }
        }
        i = j;
      }
    }
    flush();
  }
};

Analyzer::Analyzer(TextAnalysis analysis, std::unique_ptr<Impl> impl)
    : analysis_(analysis), impl_(std::move(impl)) {}

Analyzer::~Analyzer() = default;

Result<std::unique_ptr<Analyzer>> Analyzer::Create(TextAnalysis analysis) {
  auto impl = std::make_unique<Impl>();
  impl->full = analysis == TextAnalysis::kFull;
  UErrorCode status = U_ZERO_ERROR;
  impl->breaker.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
  if (U_FAILURE(status) || impl->breaker == nullptr) {
    return Error(Status::Internal(std::string("ICU word BreakIterator: ") + u_errorName(status)));
  }
  status = U_ZERO_ERROR;
  impl->normalizer = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status) || impl->normalizer == nullptr) {
    return Error(Status::Internal(std::string("ICU NFKC_Casefold: ") + u_errorName(status)));
  }
  if (impl->full) {
    impl->stemmer = sb_stemmer_new("english", "UTF_8");
    if (impl->stemmer == nullptr) {
      return Error(Status::Internal("libstemmer: no english UTF_8 stemmer"));
    }
  }
  return std::unique_ptr<Analyzer>(new Analyzer(analysis, std::move(impl)));
}

void Analyzer::Tokenize(std::string_view utf8, TokenizeMode mode, const EmitFn& emit) {
  Impl& impl = *impl_;
  const bool index = mode == TokenizeMode::kIndex;
  std::string bigram;
  impl.Walk(
      utf8,
      [&](std::string_view word, int start, int end) {
        if (!impl.full) {
          emit(word, start, end, false);
          return;
        }
        const std::string_view stem = impl.Stem(word);
        const bool stemmed = !stem.empty() && stem != word && stem.size() <= kMaxBytes;
        if (index) {
          emit(word, start, end, false);
          if (stemmed) emit(stem, start, end, true);
        } else {
          emit(stemmed ? stem : word, start, end, false);
        }
      },
      [&](const std::vector<Impl::CjkChar>& run) {
        const size_t n = run.size();
        if (!index && n == 1) {
          emit(run[0].token, run[0].byte_start, run[0].byte_end, false);
          return;
        }
        // Index mode puts the bigram first and the unigram colocated with it: FTS5's highlight()
        // and snippet() use the offsets of the first token at a position, so a matched phrase of
        // bigrams then covers all its characters.
        for (size_t k = 0; k < n; ++k) {
          const bool has_pair = k + 1 < n;
          if (has_pair) {
            bigram.assign(run[k].token).append(run[k + 1].token);
            emit(bigram, run[k].byte_start, run[k + 1].byte_end, false);
          }
          if (index) emit(run[k].token, run[k].byte_start, run[k].byte_end, has_pair);
        }
      });
}

const std::vector<std::string>& Analyzer::QueryTokenSet(std::string_view utf8) {
  Impl& impl = *impl_;
  auto hit = impl.token_sets.find(utf8);
  if (hit != impl.token_sets.end()) return hit->second;
  std::vector<std::string> tokens;
  Tokenize(utf8, TokenizeMode::kQuery,
           [&](std::string_view token, int, int, bool) { tokens.emplace_back(token); });
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  if (impl.token_sets.size() >= kMaxMemoTexts) impl.token_sets.clear();
  return impl.token_sets.emplace(std::string(utf8), std::move(tokens)).first->second;
}

std::vector<QueryTerm> Analyzer::QueryTerms(std::string_view text) {
  Impl& impl = *impl_;
  std::vector<QueryTerm> terms;
  std::unordered_map<std::string, size_t> seen;  // normalized → index in `terms`
  auto add = [&](std::string_view surface, std::string_view normalized, bool stopword) {
    auto [it, inserted] = seen.try_emplace(std::string(normalized), terms.size());
    if (inserted) {
      terms.push_back({std::string(surface), std::string(normalized), stopword});
    } else {
      terms[it->second].stopword = terms[it->second].stopword && stopword;
    }
  };
  impl.Walk(
      text,
      [&](std::string_view word, int start, int end) {
        const std::string_view surface = text.substr(start, end - start);
        if (!impl.full) {
          add(surface, word, false);
          return;
        }
        const bool stopword = IsEnglishStopword(word);
        const std::string_view stem = impl.Stem(word);
        const bool stemmed = !stem.empty() && stem != word && stem.size() <= kMaxBytes;
        add(surface, stemmed ? stem : word, stopword);
      },
      [&](const std::vector<Impl::CjkChar>& run) {
        if (run.size() == 1) {
          add(text.substr(run[0].byte_start, run[0].byte_end - run[0].byte_start), run[0].token,
              false);
          return;
        }
        for (size_t k = 0; k + 1 < run.size(); ++k) {
          add(text.substr(run[k].byte_start, run[k + 1].byte_end - run[k].byte_start),
              run[k].token + run[k + 1].token, false);
        }
        if (!impl.full) return;
        std::vector<std::string_view> chars;
        chars.reserve(run.size());
        for (const Impl::CjkChar& c : run) chars.push_back(c.token);
        for (const size_t k : LoneContentCharacters(chars)) {
          add(text.substr(run[k].byte_start, run[k].byte_end - run[k].byte_start), run[k].token, false);
        }
      });

  // ICU segments a word differently alone than in context in rare cases (mostly junk such as
  // stray marks). Keep the contract — the surface re-tokenizes to exactly `normalized` — by
  // falling back to the normalized form as surface, or dropping the unit.
  auto single_token = [&](std::string_view surface) -> std::optional<std::string> {
    std::optional<std::string> token;
    int count = 0;
    Tokenize(surface, TokenizeMode::kQuery, [&](std::string_view t, int, int, bool) {
      if (++count == 1) token.emplace(t);
    });
    if (count != 1) return std::nullopt;
    return token;
  };
  std::vector<QueryTerm> checked;
  checked.reserve(terms.size());
  for (QueryTerm& term : terms) {
    if (single_token(term.surface) == term.normalized) {
      checked.push_back(std::move(term));
    } else if (single_token(term.normalized) == term.normalized) {
      term.surface = term.normalized;
      checked.push_back(std::move(term));
    }
  }
  return checked;
}

}  // namespace engram::text
